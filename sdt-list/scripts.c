/* SPDX-License-Identifier: MIT */
/*
 * sdt-list --bpftrace and --perf: ready-to-run tracing of the listed
 * probes.
 *
 * Writing a bpftrace program for a probe means knowing the attach path
 * (for a libstapsdt provider in a live process, a /proc/PID/fd/N path, as
 * its memfd has no name on disk), every argument's size and sign (for the
 * printf format), which arguments are strings (the type record knows; the
 * spec does not), and the tracer's limits. We know all of that, so we
 * write the program: one block per probe, one printf naming each argument.
 * Where bpftrace cannot follow (arguments past its limit, floats, a spec
 * its parser refuses, a name its grammar cannot spell) a comment says so
 * instead of a program that fails to load.
 *
 * --perf writes the perf commands for the same probes: perf finds SDT
 * probes through its build-id cache, so the binary is added first, then
 * one `perf probe' per probe creates the event to record.
 */
#include <elf.h>
#include <string.h>

#include "sdt-list.h"

/* Bytes that may stand in a name unquoted (ASCII, never locale-bent). */
static int word_char(char c, const char *extra)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || strchr(extra, c);
}

static int all_word(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++) {
		if (!word_char(*s, extra))
			return 0;
	}
	return 1;
}

/* How many of the group's sites no tracer can attach to. */
static size_t stale_sites(const struct object *obj, const struct group *g)
{
	size_t n = 0;

	for (size_t i = 0; i < g->count; i++) {
		struct site s;

		site_facts(obj, &obj->f->probes[obj->sites[g->first + i]], &s);
		n += !s.in_code || s.outside;
	}
	return n;
}

static const char all_stale[] = "every site is a stale note (in no executable "
				"code): nothing to attach to";

/* A relocatable object is no place to attach: say so instead. */
static int relocatable(FILE *out, const struct object *obj, const char *lead)
{
	if (obj->f->type != ET_REL)
		return 0;
	fprintf(out, "%s ", lead);
	put_text(out, obj->name);
	fprintf(out, " is a relocatable object: trace the executable or shared "
		     "object it is linked into\n");
	return 1;
}

static void put_probe_name(FILE *out, const struct sdt_probe *p)
{
	put_text(out, p->note.provider);
	fputc(':', out);
	put_text(out, p->note.name);
}

/* ------------------------------------------------------------------ */
/* bpftrace                                                            */

/* S inside a bpftrace string literal that is also a printf format. */
static void put_bt_format_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '%')
			fputs("%%", out);
		else if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else
			fputc(*s, out);
	}
}

/* The attach path, quoted where bpftrace's grammar needs it. */
static int put_bt_path(FILE *out, const char *path)
{
	if (all_word(path, "/.-+"))
		fputs(path, out);
	else if (!strpbrk(path, "\"\\\n"))
		fprintf(out, "\"%s\"", path);
	else
		return -1;
	return 0;
}

static const char *bt_format(const struct sig_arg *a)
{
	if (a->is_string)
		return "%s";
	if (a->is_pointer)
		return "0x%lx";
	if (a->size == 8 || !a->size)
		return a->is_signed ? "%ld" : "%lu";
	return a->is_signed ? "%d" : "%u";
}

/* Why the probe cannot have a block, or NULL. */
static const char *bt_refusal(const struct object *obj, const struct group *g,
			      struct verdict *v)
{
	const struct sdt_probe *p = group_probe(obj, g);

	if (!all_word(p->note.provider, "-.") || !all_word(p->note.name, "-."))
		return "bpftrace's attach-point grammar cannot spell this name";
	if (all_word(obj->attach, "/.-+") == 0 &&
	    strpbrk(obj->attach, "\"\\\n"))
		return "bpftrace's attach-point grammar cannot spell this path";
	if (stale_sites(obj, g) == g->count)
		return all_stale;
	consumer_check(CONSUMER_BCC, &obj->f->target, p->note.args, v);
	return v->ok ? NULL : v->why;
}

/* Comments for the arguments the printf leaves out. */
static unsigned bt_limits(FILE *out, const struct object *obj,
			  const struct signature *sig)
{
	unsigned max = bpftrace_max_args(&obj->f->target);
	unsigned shown = max && sig->nargs > max ? max : sig->nargs;

	if (shown < sig->spec_nargs)
		fprintf(out,
			"\t// bpftrace 0.17 reads only arg0-arg%u on %s: "
			"arguments %u-%u are not printed\n",
			shown - 1, sdt_target_name(&obj->f->target), shown,
			sig->spec_nargs - 1);
	for (unsigned i = 0; i < shown; i++) {
		if (sig->args[i].is_float)
			fprintf(out,
				"\t// arg%u is floating-point: bpftrace cannot "
				"read it, not printed\n",
				i);
	}
	return shown;
}

static void bt_printf(FILE *out, const struct sdt_probe *p,
		      const struct signature *sig, unsigned shown)
{
	fputs("\tprintf(\"", out);
	put_bt_format_text(out, p->note.provider);
	fputc(':', out);
	put_bt_format_text(out, p->note.name);
	for (unsigned i = 0; i < shown; i++) {
		if (sig->args[i].is_float)
			continue;
		if (sig->args[i].name[0]) {
			fputc(' ', out);
			put_bt_format_text(out, sig->args[i].name);
		} else {
			fprintf(out, " arg%u", i);
		}
		fprintf(out, "=%s", bt_format(&sig->args[i]));
	}
	fputs("\\n\"", out);
	for (unsigned i = 0; i < shown; i++) {
		if (sig->args[i].is_float)
			continue;
		fprintf(out,
			sig->args[i].is_string ? ", str(arg%u)" : ", arg%u", i);
	}
	fputs(");\n", out);
}

static void bt_probe(FILE *out, const struct object *obj, const struct group *g)
{
	const struct sdt_probe *p = group_probe(obj, g);
	struct signature sig;
	struct verdict v;
	const char *why = bt_refusal(obj, g, &v);
	size_t stale;
	unsigned shown;

	if (why) {
		fputs("\n// ", out);
		put_probe_name(out, p);
		fputs(": left out: ", out);
		put_text(out, why);
		fputc('\n', out);
		return;
	}
	probe_signature(&obj->types, p, &sig);
	fputs("\nusdt:", out);
	put_bt_path(out, obj->attach);
	fprintf(out, ":%s:%s\n{\n", p->note.provider, p->note.name);
	if ((stale = stale_sites(obj, g)))
		fprintf(out,
			"\t// %zu of its %zu sites are stale notes (in no "
			"executable code): bpftrace warns of an invalid "
			"address there\n",
			stale, g->count);
	shown = bt_limits(out, obj, &sig);
	bt_printf(out, p, &sig, shown);
	layout_bt_probe(out, obj, p, &sig, shown);
	fputs("}\n", out);
}

/* Once per run: what wrote this and how to run it. */
static void script_header(struct out *o, const struct object *obj, int bpftrace)
{
	const char *how = bpftrace
				  ? "// Run: bpftrace THIS-FILE"
				  : "# Run these, then: perf record -e 'sdt_*'";

	if (o->started)
		return;
	o->started = 1;
	if (bpftrace)
		fputs("#!/usr/bin/env bpftrace\n", o->f);
	fprintf(o->f, "%s Written by sdt-list --%s.\n%s", bpftrace ? "//" : "#",
		bpftrace ? "bpftrace" : "perf", how);
	if (obj->proc)
		fprintf(o->f, " -p %d", obj->proc->pid);
	else
		fputs(bpftrace ? " -c 'PROGRAM ARGS' (or -p PID)"
			       : " -- PROGRAM ARGS (or -p PID)",
		      o->f);
	fputs(bpftrace ? "\n" : "; perf script\n", o->f);
}

void bpftrace_object(struct out *o, struct object *obj)
{
	script_header(o, obj, 1);
	if (relocatable(o->f, obj, "\n//"))
		return;
	fputs("\n// ", o->f);
	put_text(o->f, obj->name);
	if (strcmp(obj->name, obj->attach)) {
		fputs(", attached as ", o->f);
		put_text(o->f, obj->attach);
	}
	fputc('\n', o->f);
	for (size_t g = 0; g < obj->ngroups; g++) {
		if (object_wanted(o->o,
				  &group_probe(obj, &obj->groups[g])->note))
			bt_probe(o->f, obj, &obj->groups[g]);
	}
}

/* ------------------------------------------------------------------ */
/* perf                                                                */

/* S for a POSIX shell, in single quotes. */
static void put_shell_word(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	}
	fputc('\'', out);
}

static void perf_probe(FILE *out, struct object *obj, const struct group *g)
{
	const struct sdt_probe *p = group_probe(obj, g);
	struct verdict v;

	/* perf names the event sdt_PROVIDER:NAME: a C-like word each. */
	if (!all_word(p->note.provider, "") || !all_word(p->note.name, "")) {
		fputs("# ", out);
		put_probe_name(out, p);
		fputs(": left out: perf cannot name an event after it\n", out);
		return;
	}
	if (stale_sites(obj, g) == g->count) {
		fputs("# ", out);
		put_probe_name(out, p);
		fprintf(out, ": left out: %s\n", all_stale);
		return;
	}
	consumer_check(CONSUMER_PERF, &obj->f->target, p->note.args, &v);
	if (!v.ok) {
		fputs("# ", out);
		put_probe_name(out, p);
		fputs(": ", out);
		put_text(out, v.why);
		fputc('\n', out);
	}
	fputs("perf probe -x ", out);
	put_shell_word(out, obj->attach);
	fprintf(out, " -a sdt_%s:%s\n", p->note.provider, p->note.name);
}

void perf_object(struct out *o, struct object *obj)
{
	FILE *out = o->f;

	script_header(o, obj, 0);
	if (relocatable(out, obj, "#"))
		return;
	fputs("# ", out);
	put_text(out, obj->name);
	fputs("\nperf buildid-cache --add ", out);
	put_shell_word(out, obj->attach);
	fputc('\n', out);
	for (size_t g = 0; g < obj->ngroups; g++) {
		if (object_wanted(o->o,
				  &group_probe(obj, &obj->groups[g])->note))
			perf_probe(out, obj, &obj->groups[g]);
	}
	fputs("# remove the events: perf probe -d 'sdt_*'\n", out);
}
