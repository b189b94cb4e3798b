/* SPDX-License-Identifier: MIT */
/*
 * One signature for every site of a probe.
 *
 * The compiler plants a probe once per place it is written, and each site
 * records its own spec: an argument may be 4 bytes at one site and 8 at
 * another (ruby's string__create), and libstapsdt even lets one name carry
 * different argument counts. A tracer's program is one block for all the
 * sites, so what it prints must be right at each: the widest size, a sign
 * every site agrees with, and only the arguments every site has (bpftrace
 * aborts reading an argument a site does not record). This is that
 * signature, with what differed so the outputs can say so.
 */
#include <string.h>

#include "sdt-list.h"

/* `int32', `uint64' for a merged integer argument. */
static const char *int_word(int size, int is_signed)
{
	static const char *const sint[] = { "int8", "int16", "int32", "int64" };
	static const char *const uint[] = { "uint8", "uint16", "uint32",
					    "uint64" };
	int i = size == 1   ? 0
		: size == 2 ? 1
		: size == 4 ? 2
		: size == 8 ? 3
			    : -1;

	if (i < 0)
		return "?";
	return is_signed ? sint[i] : uint[i];
}

/* A record's `double', `float', `long double': not an integer. */
static int is_float_type(const char *type)
{
	return !strchr(type, '*') &&
	       (strstr(type, "double") || strstr(type, "float"));
}

static void merge_arg(struct group_sig *gs, unsigned i, const struct sig_arg *b)
{
	struct sig_arg *a = &gs->sig.args[i];

	if (a->size != b->size) {
		gs->size_differs |= 1u << i;
		if (b->size > a->size)
			a->size = b->size;
	}
	if (a->is_signed != b->is_signed) {
		gs->sign_differs |= 1u << i;
		a->is_signed = 1;
	}
	a->is_float |= b->is_float;
}

/* A record's `double' is no integer, whatever the spec's size says. */
static void mark_floats(struct signature *sig)
{
	if (!sig->rec)
		return;
	for (unsigned a = 0; a < sig->nargs; a++)
		sig->args[a].is_float |= is_float_type(sig->args[a].type);
}

static void note_unsigned8(struct group_sig *gs, const struct signature *s)
{
	for (unsigned i = 0; i < s->nargs; i++) {
		if (!s->args[i].is_signed && s->args[i].size == 8)
			gs->unsigned8 |= 1u << i;
	}
}

void group_signature(const struct object *obj, const struct group *g,
		     struct group_sig *gs)
{
	const struct type_record *rec;

	/* The first site straight into place: most probes have one. */
	probe_signature(&obj->types, group_probe(obj, g), &gs->sig);
	gs->min_nargs = gs->max_nargs = gs->sig.spec_nargs;
	gs->size_differs = gs->sign_differs = gs->unsigned8 = 0;
	note_unsigned8(gs, &gs->sig);
	rec = gs->sig.rec ? gs->sig.rec : gs->sig.unused;
	if (g->count == 1) {
		mark_floats(&gs->sig);
		return;
	}
	for (size_t i = 1; i < g->count; i++) {
		const struct sdt_probe *p =
			&obj->f->probes[obj->sites[g->first + i]];
		struct signature s;

		probe_signature(&obj->types, p, &s);
		if (!rec)
			rec = s.rec ? s.rec : s.unused;
		note_unsigned8(gs, &s);
		if (s.spec_nargs < gs->min_nargs)
			gs->min_nargs = s.spec_nargs;
		if (s.spec_nargs > gs->max_nargs)
			gs->max_nargs = s.spec_nargs;
		if (s.nargs < gs->sig.nargs)
			gs->sig.nargs = s.nargs;
		for (unsigned a = 0; a < gs->sig.nargs; a++)
			merge_arg(gs, a, &s.args[a]);
		if (!s.rec)
			gs->sig.rec = NULL;
	}
	gs->sig.spec_nargs = gs->min_nargs;
	/* Types from the record where every site took it, else words. */
	for (unsigned a = 0; a < gs->sig.nargs; a++) {
		struct sig_arg *x = &gs->sig.args[a];

		/* A type the record leaves unknown is a word too. */
		if (gs->sig.rec && gs->sig.rec->type[a][0])
			continue;
		if (!x->is_float)
			x->type = int_word(x->size, x->is_signed);
		x->name = "";
		x->is_string = x->is_pointer = 0;
	}
	if (gs->sig.rec)
		gs->sig.unused = NULL;
	else if (rec && gs->min_nargs != gs->max_nargs)
		gs->sig.unused = rec;
	mark_floats(&gs->sig);
}
