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
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
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

/*
 * A constant operand (x86's `$-1', `$0x10') of argument TEXT: 1, and the
 * value a reader gets (the low SIZE bytes, extended by the sign) in *NEG
 * when negative, else in *POS. 0 for any other operand.
 */
static int const_operand(const char *text, size_t len, int64_t *neg,
			 uint64_t *pos)
{
	const char *at = memchr(text, '@', len), *end = text + len;
	int size = abs(atoi(text)), minus = 0;
	uint64_t v, mask;
	char num[32], *stop;

	if (!at || end - at < 3 || at[1] != '$')
		return 0;
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return 0;
	at += 2;
	if (*at == '-' || *at == '+')
		minus = *at++ == '-';
	if (at >= end || *at < '0' || *at > '9' ||
	    (size_t)(end - at) >= sizeof(num))
		return 0;
	memcpy(num, at, (size_t)(end - at));
	num[end - at] = '\0';
	errno = 0;
	v = strtoull(num, &stop, 0);
	if (*stop || errno)
		return 0;
	if (minus)
		v = -v;
	mask = size == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (size * 8)) - 1;
	v &= mask;
	*neg = 0;
	*pos = 0;
	if (text[0] == '-' && (v >> (size * 8 - 1)) & 1)
		*neg = (int64_t)(v | ~mask);
	else
		*pos = v;
	return 1;
}

/* One more site of an argument into M: the widest size, signed if any. */
static void merge_site(struct enc_merge *m, const struct sig_arg *b)
{
	if (m->seen) {
		m->size_differs |= m->size != b->size;
		m->sign_differs |= m->is_signed != b->is_signed;
		if (b->size > m->size)
			m->size = b->size;
		m->is_signed |= b->is_signed;
	} else {
		m->size = b->size;
		m->is_signed = b->is_signed;
	}
	m->seen = 1;
}

/* One site's arguments into the encodings (SPEC: its argument spec). */
static void note_site(struct group_sig *gs, const char *spec,
		      const struct signature *s)
{
	size_t pos = 0, start, len;

	for (unsigned i = 0;
	     i < s->nargs && sdt_arg_split(spec, &pos, &start, &len); i++) {
		const struct sig_arg *b = &s->args[i];
		struct arg_enc *e = &gs->enc[i];
		uint64_t vpos;
		int64_t vneg;

		if (b->is_float ||
		    !const_operand(spec + start, len, &vneg, &vpos)) {
			merge_site(&e->var, b);
			continue;
		}
		merge_site(&e->cst, b);
		if (vneg < e->const_min)
			e->const_min = vneg;
		if (vpos > e->const_max)
			e->const_max = vpos;
	}
}

int enc_consts_fit(const struct arg_enc *e, int size, int is_signed)
{
	int bits = size * 8;

	if (!e->cst.seen)
		return 1;
	if (size <= 0 || size > 8)
		return 0;
	if (e->const_min < 0 && !is_signed)
		return 0;
	if (is_signed) {
		if (bits < 64 && (e->const_min < -(INT64_C(1) << (bits - 1)) ||
				  e->const_max >= (UINT64_C(1) << (bits - 1))))
			return 0;
		return bits < 64 || e->const_max <= INT64_MAX;
	}
	return bits == 64 || e->const_max < (UINT64_C(1) << bits);
}

/*
 * Argument I as readers see it at every site. The sites that read a value
 * decide its size and sign (the widest; signed where they disagree); a
 * constant site changes them only where its value needs it (a negative
 * constant beside unsigned reads makes it signed). Where every site is a
 * constant, their encodings merge as they are.
 */
static void resolve_arg(struct group_sig *gs, unsigned i)
{
	const struct arg_enc *e = &gs->enc[i];
	struct sig_arg *a = &gs->sig.args[i];
	struct enc_merge m = e->var.seen ? e->var : e->cst;

	if (e->var.seen && !enc_consts_fit(e, m.size, m.is_signed)) {
		if (!m.is_signed && e->const_min < 0)
			m.is_signed = m.sign_differs = 1;
		/* From no size (a spec without one) too: 1, 2, 4, 8. */
		while (m.size < 8 && !enc_consts_fit(e, m.size, m.is_signed)) {
			m.size = m.size ? m.size * 2 : 1;
			m.size_differs = 1;
		}
	}
	if (a->is_float)
		return;
	a->size = m.size;
	a->is_signed = m.is_signed;
	if (m.size_differs)
		gs->size_differs |= 1u << i;
	if (m.sign_differs)
		gs->sign_differs |= 1u << i;
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
	const struct sdt_probe *p = group_probe(obj, g);
	const struct type_record *rec;

	/* The first site straight into place: most probes have one. */
	probe_signature(&obj->types, p, &gs->sig);
	gs->min_nargs = gs->max_nargs = gs->sig.spec_nargs;
	gs->size_differs = gs->sign_differs = gs->unsigned8 = 0;
	memset(gs->enc, 0, sizeof(gs->enc));
	note_unsigned8(gs, &gs->sig);
	note_site(gs, p->note.args, &gs->sig);
	rec = gs->sig.rec ? gs->sig.rec : gs->sig.unused;
	for (size_t i = 1; i < g->count; i++) {
		struct signature s;

		p = &obj->f->probes[obj->sites[g->first + i]];
		probe_signature(&obj->types, p, &s);
		if (!rec)
			rec = s.rec ? s.rec : s.unused;
		note_unsigned8(gs, &s);
		note_site(gs, p->note.args, &s);
		if (s.spec_nargs < gs->min_nargs)
			gs->min_nargs = s.spec_nargs;
		if (s.spec_nargs > gs->max_nargs)
			gs->max_nargs = s.spec_nargs;
		if (s.nargs < gs->sig.nargs)
			gs->sig.nargs = s.nargs;
		for (unsigned a = 0; a < gs->sig.nargs; a++)
			gs->sig.args[a].is_float |= s.args[a].is_float;
		if (!s.rec)
			gs->sig.rec = NULL;
		if (!gs->sig.misfit)
			gs->sig.misfit = s.misfit;
	}
	gs->sig.spec_nargs = gs->min_nargs;
	for (unsigned a = 0; a < gs->sig.nargs; a++)
		resolve_arg(gs, a);
	if (g->count == 1) {
		mark_floats(&gs->sig);
		return;
	}
	/* Types from the record where every site took it, else words. */
	for (unsigned a = 0; a < gs->sig.nargs; a++) {
		struct sig_arg *x = &gs->sig.args[a];

		/* A type the record leaves unknown is a word too. */
		if (gs->sig.rec && gs->sig.rec->type[a][0])
			continue;
		if (!x->is_float)
			x->type = int_word(x->size, x->is_signed);
		x->name = "";
		x->is_string = x->is_pointer = x->decl_size = 0;
	}
	if (gs->sig.rec)
		gs->sig.unused = NULL;
	else if (rec && gs->min_nargs != gs->max_nargs)
		gs->sig.unused = rec;
	mark_floats(&gs->sig);
}
