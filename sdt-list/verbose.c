/* SPDX-License-Identifier: MIT */
/*
 * sdt-list -v: every site of every probe, each argument in words.
 *
 * This is the listing for someone debugging a probe rather than looking
 * for one: where each site is (address, section, file offset, and in a
 * live process its run-time address), the spec as written and what it
 * means, the semaphore and its current value, and with --check each
 * consumer's verdict with its reason. Sites of a probe that share a spec
 * say so instead of repeating it.
 */
#include <inttypes.h>
#include <string.h>

#include "sdt-list.h"

/* Each argument: its type and name as the listing shows them, in words. */
static void text_args(FILE *out, const struct object *obj,
		      const struct sdt_probe *p)
{
	const char *spec = p->note.args;
	size_t pos = 0, start, len;
	struct signature sig;
	struct arg_desc d;

	probe_signature(&obj->types, p, &sig);
	for (unsigned n = 0; sdt_arg_split(spec, &pos, &start, &len); n++) {
		describe_arg(&obj->f->target, spec + start, len, &d);
		fprintf(out, "      arg%u", n);
		if (sig.rec && n < sig.nargs) {
			fputc(' ', out);
			put_sig_arg(out, &sig.args[n]);
		}
		fputs(": ", out);
		put_text(out, d.words);
		if (sig.rec && n < sig.nargs && arg_widened(&sig.args[n]))
			fprintf(out,
				" (wider than declared: read its low %d "
				"byte%s as %s, (%s)arg%u in bpftrace)",
				sig.args[n].decl_size,
				sig.args[n].decl_size == 1 ? "" : "s",
				sig.args[n].decl_signed ? "signed" : "unsigned",
				arg_decl_word(&sig.args[n]), n);
		fputc('\n', out);
	}
}

static void text_semaphore(FILE *out, const struct object *obj,
			   const struct site *s)
{
	const struct sdt_note *n = &s->p->note;
	const char *sec;

	if (!n->semaphore && !s->p->sema_ref.symbol) {
		fputs("  semaphore: none\n", out);
		return;
	}
	fputs("  semaphore: ", out);
	put_addr(out, &s->p->sema_ref, n->semaphore);
	sec = sdt_elf_section_at(obj->f, n->semaphore);
	if (sec) {
		fputs(" (", out);
		put_text(out, sec);
	}
	if (s->has_sema_off)
		fprintf(out, "%sfile offset 0x%" PRIx64, sec ? ", " : " (",
			s->sema_off);
	if (sec || s->has_sema_off)
		fputc(')', out);
	if (obj->proc && s->has_runtime) {
		fprintf(out, " at 0x%" PRIx64, s->sema_runtime);
		if (s->sema_read == 0)
			fprintf(out, " = %u%s", s->sema_value,
				s->sema_value ? " (a tracer is attached)"
					      : " (no tracer attached)");
		else
			fprintf(out, " = ? (cannot read: %s)",
				strerror(-s->sema_read));
	}
	fputc('\n', out);
}

static void text_verdicts(FILE *out, const char *arch,
			  const struct verdict v[CONSUMER_COUNT])
{
	fprintf(out, "  readable by (%s):", arch);
	for (int c = 0; c < CONSUMER_COUNT; c++)
		fprintf(out, "%s %s %s", c ? "," : "",
			consumer_name((enum consumer)c),
			v[c].ok ? "yes" : "NO");
	fputc('\n', out);
	for (int c = 0; c < CONSUMER_COUNT; c++) {
		if (v[c].ok)
			continue;
		fprintf(out, "    %s: ", consumer_name((enum consumer)c));
		put_text(out, v[c].why);
		fputc('\n', out);
	}
}

/* One site's line, its arguments in words, and its stale verdict. */
static int text_site(FILE *out, struct out *o, struct object *obj,
		     const struct sdt_probe *p, const char *prev_args)
{
	struct site s;

	site_facts(obj, p, &s);
	fputs("  at ", out);
	put_addr(out, &p->pc_ref, s.addr);
	if (s.section && !p->pc_ref.symbol) {
		fputs(" (", out);
		put_text(out, s.section);
	}
	if (s.has_off)
		fprintf(out, "%sfile offset 0x%" PRIx64,
			s.section ? ", " : " (", s.off);
	if ((s.section && !p->pc_ref.symbol) || s.has_off)
		fputc(')', out);
	if (s.has_runtime)
		fprintf(out, " at run time 0x%" PRIx64, s.runtime);
	if (s.outside) {
		fputs(" OUTSIDE every loadable segment: no tracer can attach",
		      out);
		o->status = EXIT_INPUT;
	}
	fputs(": ", out);
	put_text(out, *p->note.args ? p->note.args : "(no arguments)");
	if (prev_args && !strcmp(prev_args, p->note.args)) {
		fputs(" (as above)\n", out);
	} else {
		fputc('\n', out);
		text_args(out, obj, p);
	}
	if (o->o->check && !s.in_code) {
		fprintf(out, "    NOT IN CODE: %s\n", stale_why);
		return 1;
	}
	return 0;
}

static int text_group(FILE *out, struct out *o, struct object *obj,
		      const struct group *g)
{
	const struct sdt_elf *f = obj->f;
	const struct sdt_probe *first = group_probe(obj, g);
	struct verdict worst[CONSUMER_COUNT];
	const char *prev_args = NULL;
	int bad = 0;
	struct site s;

	put_text(out, first->note.provider);
	fputc(':', out);
	put_text(out, first->note.name);
	if (g->count > 1)
		fprintf(out, " (%zu sites)", g->count);
	fputc('\n', out);
	for (int c = 0; c < CONSUMER_COUNT; c++)
		worst[c].ok = 1;
	for (size_t i = 0; i < g->count; i++) {
		const struct sdt_probe *p =
			&f->probes[obj->sites[g->first + i]];

		bad |= text_site(out, o, obj, p, i ? prev_args : NULL);
		prev_args = p->note.args;
		if (o->o->check && object_check(obj, p)->bad) {
			const struct verdict *v = object_check(obj, p)->v;

			bad = 1;
			for (int c = 0; c < CONSUMER_COUNT; c++) {
				if (!v[c].ok && worst[c].ok)
					worst[c] = v[c];
			}
		}
	}
	/* One semaphore per provider:name; show the first site's. */
	site_facts(obj, first, &s);
	text_semaphore(out, obj, &s);
	layout_verbose(out, obj, first);
	if (o->o->check) {
		const char *arch = consumer_arch(&f->target);
		text_verdicts(out, arch ? arch : "unknown", worst);
	}
	return bad;
}

void verbose_object(struct out *o, struct object *obj)
{
	FILE *out = o->f;
	size_t shown = 0;
	int bad = 0;

	for (size_t g = 0; g < obj->ngroups; g++) {
		if (object_wanted(o->o,
				  &group_probe(obj, &obj->groups[g])->note))
			shown += obj->groups[g].count;
	}
	if (obj->proc)
		fputc('\n', out);
	put_object_heading(out, obj);
	if (obj->has_bias)
		fprintf(out, ", load bias 0x%" PRIx64, obj->bias);
	fprintf(out, ", %zu probe site%s\n", shown, shown == 1 ? "" : "s");
	for (size_t g = 0; g < obj->ngroups; g++) {
		if (object_wanted(o->o,
				  &group_probe(obj, &obj->groups[g])->note))
			bad |= text_group(out, o, obj, &obj->groups[g]);
	}
	if (bad && o->status == 0)
		o->status = EXIT_CHECK;
}
