/* SPDX-License-Identifier: MIT */
/*
 * The default listing: one line per probe, the way a person reads it.
 *
 *   shop:order__start(const char *customer, int items)  2 sites, semaphore
 *
 * A probe is what one writes in a tracer (provider:name); how many places
 * the compiler planted it in and whether it has a semaphore are what one
 * asks next. The argument types and names come from the sdtkit type record
 * when the file has one, else from each spec's size and sign. Where a site
 * is out of place, and with --check where some tracer cannot read the
 * probe, indented lines below it say so; a clean probe is one line, so a
 * binary with ten thousand sites lists in at most one line per probe.
 */
#include <inttypes.h>
#include <string.h>

#include "sdt-list.h"

static void put_signature(FILE *out, const struct sdt_probe *p,
			  const struct signature *sig)
{
	put_text(out, p->note.provider);
	fputc(':', out);
	put_text(out, p->note.name);
	fputc('(', out);
	for (unsigned i = 0; i < sig->nargs; i++) {
		if (i)
			fputs(", ", out);
		put_sig_arg(out, &sig->args[i]);
	}
	if (sig->spec_nargs > sig->nargs)
		fprintf(out, ", ... %u more", sig->spec_nargs - sig->nargs);
	fputc(')', out);
}

static void put_semaphore(FILE *out, const struct object *obj,
			  const struct sdt_probe *p)
{
	struct site s;

	if (!p->note.semaphore && !p->sema_ref.symbol)
		return;
	fputs(", semaphore", out);
	if (!obj->proc)
		return;
	site_facts(obj, p, &s);
	if (s.has_runtime && s.sema_read == 0)
		fprintf(out, " = %u", s.sema_value);
	else
		fputs(" = ?", out);
}

/* Sites no tracer can use: outside the file's segments, or stale. */
static int site_problems(FILE *out, struct out *o, struct object *obj,
			 const struct group *g)
{
	int bad = 0;

	for (size_t i = 0; i < g->count; i++) {
		const struct sdt_probe *p =
			&obj->f->probes[obj->sites[g->first + i]];
		struct site s;

		site_facts(obj, p, &s);
		if (s.outside) {
			fputs("    site at ", out);
			put_addr(out, &p->pc_ref, s.addr);
			fputs(" is OUTSIDE every loadable segment: no tracer "
			      "can attach\n",
			      out);
			o->status = EXIT_INPUT;
		} else if (o->o->check && !s.in_code) {
			fputs("    NOT IN CODE: site at ", out);
			put_addr(out, &p->pc_ref, s.addr);
			fprintf(out, ": %s\n", stale_why);
			bad = 1;
		}
	}
	return bad;
}

/* --check: the first reason of each consumer that refuses some site. */
static int verdict_problems(FILE *out, struct object *obj,
			    const struct group *g)
{
	const struct verdict *worst[CONSUMER_COUNT];
	int bad = group_worst(obj, g, worst);

	for (int c = 0; c < CONSUMER_COUNT; c++) {
		if (!worst[c])
			continue;
		fprintf(out, "    NO %s: ", consumer_name((enum consumer)c));
		put_text(out, worst[c]->why);
		fputc('\n', out);
	}
	return bad;
}

/*
 * --check: sites that record different fields for perf, which then keeps
 * only the first; --perf makes an event per site on x86. A note, not a
 * failure: every site stays readable, only not under one perf event.
 */
static void perf_split(FILE *out, const struct object *obj,
		       const struct group *g)
{
	enum sdt_arch a = sdt_target_arch(&obj->f->target);
	int lost = a != SDT_ARCH_X86_64 && a != SDT_ARCH_I386;

	if (g->count < 2 || !perf_sites_differ(obj, g))
		return;
	fputs(lost ? "    NO perf: " : "    perf: ", out);
	fputs("its sites record different fields: perf probe -a keeps only "
	      "the first (\"File exists\")",
	      out);
	fputs(lost ? "; the others are lost\n"
		   : "; sdt-list --perf makes an event per site\n",
	      out);
}

/*
 * --check: type records that were not used as they stand. Records that
 * disagree with no way to tell which is right fail the check.
 */
static int type_problems(FILE *out, const struct signature *sig)
{
	if (sig->unused)
		fprintf(out,
			"    warning: its type record has %u argument%s, its "
			"spec %u: types not used\n",
			sig->unused->nargs, sig->unused->nargs == 1 ? "" : "s",
			sig->spec_nargs);
	if (sig->misfit)
		fputs("    warning: its record of the types the compiler saw "
		      "does not fit the widths and signs of a site (one of "
		      "another unit, which passes other types): types not "
		      "used\n",
		      out);
	if (!sig->rec || !sig->rec->disagrees)
		return 0;
	fputs("    warning: its type records disagree (objects built "
	      "from different .d files?): the first is used\n",
	      out);
	return 1;
}

/* A list of argument numbers: "arg0, arg2". */
static void put_arg_list(FILE *out, unsigned bits)
{
	const char *sep = "";

	for (unsigned i = 0; i < SDT_MAX_ARGS; i++) {
		if (bits & (1u << i)) {
			fprintf(out, "%sarg%u", sep, i);
			sep = ", ";
		}
	}
}

/*
 * Where the sites disagree, one line: the signature shown is the one right
 * at all of them.
 */
static void sites_differ(FILE *out, const struct group_sig *gs)
{
	const char *sep = "    sites differ: ";

	if (gs->min_nargs != gs->max_nargs) {
		fprintf(out, "%s%u to %u arguments, only the %u all have shown",
			sep, gs->min_nargs, gs->max_nargs, gs->min_nargs);
		sep = "; ";
	}
	if (gs->size_differs) {
		fputs(sep, out);
		put_arg_list(out, gs->size_differs);
		fputs(" in size, shown as the widest", out);
		sep = "; ";
	}
	if (gs->sign_differs) {
		fputs(sep, out);
		put_arg_list(out, gs->sign_differs);
		fputs(" in sign, shown as signed", out);
		sep = "; ";
	}
	if (*sep == ';')
		fputc('\n', out);
}

static int summary_probe(FILE *out, struct out *o, struct object *obj,
			 const struct group *g)
{
	const struct sdt_probe *p = group_probe(obj, g);
	struct group_sig gs;
	int bad;

	group_signature(obj, g, &gs);
	put_signature(out, p, &gs.sig);
	fprintf(out, "  %zu site%s", g->count, g->count == 1 ? "" : "s");
	put_semaphore(out, obj, p);
	fputc('\n', out);
	sites_differ(out, &gs);
	bad = site_problems(out, o, obj, g);
	if (!o->o->check)
		return bad;
	bad |= type_problems(out, &gs.sig);
	perf_split(out, obj, g);
	return verdict_problems(out, obj, g) | bad;
}

/*
 * --check: one line per object, so that a check that found nothing wrong
 * still says what it checked.
 */
static void check_line(FILE *out, const struct object *obj, size_t shown,
		       size_t sites, size_t bad)
{
	put_text(out, obj->name);
	if (bad)
		fprintf(out,
			": check failed: %zu of %zu probe%s with problems "
			"(above)\n",
			bad, shown, shown == 1 ? "" : "s");
	else if (shown)
		fprintf(out,
			": check passed: %zu probe%s, %zu site%s: libbpf, "
			"bcc/bpftrace, bpftrace 0.25+, gdb and perf read "
			"every argument\n",
			shown, shown == 1 ? "" : "s", sites,
			sites == 1 ? "" : "s");
	else
		fprintf(out, ": nothing to check: %s\n",
			obj->ngroups ? "no probe selected" : "no probes");
}

void summary_object(struct out *o, struct object *obj)
{
	size_t shown = 0, sites = 0, nbad = 0;

	if (o->o->headers) {
		put_object_heading(o->f, obj);
		fputc('\n', o->f);
	}
	for (size_t g = 0; g < obj->ngroups; g++) {
		if (!object_wanted(o->o,
				   &group_probe(obj, &obj->groups[g])->note))
			continue;
		nbad += summary_probe(o->f, o, obj, &obj->groups[g]) != 0;
		shown++;
		sites += obj->groups[g].count;
	}
	if (o->o->check)
		check_line(o->f, obj, shown, sites, nbad);
	/* A glob that matches nothing is an error of its own (globs.c). */
	else if (!shown && !o->o->headers && !o->o->npatterns) {
		put_text(o->f, obj->name);
		fputs(": no probes\n", o->f);
	}
	if (nbad && o->status == 0)
		o->status = EXIT_CHECK;
}
