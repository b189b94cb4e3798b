/* SPDX-License-Identifier: MIT */
/*
 * sdt-list --bpftrace: a bpftrace program for the listed probes.
 *
 * Writing a bpftrace program for a probe means knowing the attach path
 * (for a libstapsdt provider in a live process, a /proc/PID/fd/N path, as
 * its memfd has no name on disk), every argument's size and sign at every
 * site (for the printf format), which arguments are strings (the type
 * record knows; the spec does not), and the tracer's limits. We know all
 * of that, so we write the program: one block per probe, one printf naming
 * each argument. Where bpftrace cannot follow (arguments past its limit, a
 * spec its parser refuses, a name or path its grammar cannot spell) a
 * comment says so instead of a program that fails to load.
 */
#include <stdlib.h>
#include <string.h>

#include "scripts.h"

/*
 * Why bpftrace 0.17 cannot attach to PATH as `usdt:"PATH"', or NULL. Any
 * UTF-8 text goes in quotes (0.17, 0.23 and 0.27 take it); a control
 * character or a byte that is no UTF-8 would not survive the program.
 */
static const char *bt_path_problem(const char *path)
{
	if (!is_shown_utf8(path))
		return "its path holds bytes that cannot be written into a "
		       "program safely";
	if (strpbrk(path, "\"\\"))
		return "bpftrace's attach-point grammar cannot quote its path";
	if (strchr(path, ':'))
		return "bpftrace 0.17 cannot attach to a path holding `:', "
		       "even quoted";
	return NULL;
}

/* Why the probe cannot have a block, or NULL; checks every site's spec. */
static const char *bt_refusal(const struct object *obj, const struct group *g,
			      struct verdict *v)
{
	const struct sdt_probe *p = group_probe(obj, g);
	const char *last = NULL;

	if (!all_word(p->note.provider, "-.") || !all_word(p->note.name, "-."))
		return "bpftrace's attach-point grammar cannot spell this name";
	if (stale_sites(obj, g) == g->count)
		return all_stale;
	for (size_t i = 0; i < g->count; i++) {
		const char *spec =
			obj->f->probes[obj->sites[g->first + i]].note.args;

		if (last && !strcmp(spec, last))
			continue;
		last = spec;
		consumer_check(CONSUMER_BCC, &obj->f->target, spec, v);
		if (!v->ok)
			return v->why;
	}
	return NULL;
}

/* The format of one argument: right at every site (group_signature). */
static const char *bt_format(const struct group_sig *gs, unsigned i)
{
	const struct sig_arg *a = &gs->sig.args[i];

	if (a->is_string)
		return "%s";
	if (a->is_pointer || a->is_float)
		return "0x%lx";
	if (arg_widened(a)) /* cast to the declared type */
		return a->decl_size == 8 ? (a->decl_signed ? "%ld" : "%lu")
					 : (a->decl_signed ? "%d" : "%u");
	if ((gs->sign_differs & (1u << i)) || a->size == 8 || !a->size)
		return a->is_signed ? "%ld" : "%lu";
	return a->is_signed ? "%d" : "%u";
}

/* What the printf leaves out or shows otherwise than one might expect. */
static unsigned bt_comments(FILE *out, const struct object *obj,
			    const struct group_sig *gs)
{
	const struct signature *sig = &gs->sig;
	unsigned max = bpftrace_max_args(&obj->f->target);
	unsigned shown = max && sig->nargs > max ? max : sig->nargs;

	if (gs->min_nargs != gs->max_nargs)
		fprintf(out,
			"\t// its sites have %u to %u arguments: only the %u "
			"every site has are printed (bpftrace aborts reading "
			"one a site lacks)\n",
			gs->min_nargs, gs->max_nargs, gs->min_nargs);
	if (shown + 1 == sig->spec_nargs)
		fprintf(out,
			"\t// bpftrace 0.17 reads only arg0-arg%u on %s: "
			"argument %u is not printed\n",
			shown - 1, sdt_target_name(&obj->f->target), shown);
	else if (shown < sig->spec_nargs)
		fprintf(out,
			"\t// bpftrace 0.17 reads only arg0-arg%u on %s: "
			"arguments %u-%u are not printed\n",
			shown - 1, sdt_target_name(&obj->f->target), shown,
			sig->spec_nargs - 1);
	for (unsigned i = 0; i < shown; i++) {
		const struct sig_arg *a = &sig->args[i];

		if (a->is_float) {
			fprintf(out, "\t// arg%u is floating-point (", i);
			put_text(out, a->type);
			fputs("): bpftrace 0.17 cannot print floats; printed "
			      "as its raw bits\n",
			      out);
			continue;
		}
		if (arg_widened(a)) {
			fprintf(out, "\t// arg%u is declared `", i);
			put_text(out, a->type);
			fprintf(out,
				"' but recorded as %s %d bytes: read as "
				"declared, (%s)arg%u\n",
				a->is_signed ? "signed" : "unsigned", a->size,
				arg_decl_word(a), i);
			continue;
		}
		if (gs->size_differs & (1u << i))
			fprintf(out,
				"\t// arg%u's size differs between sites: "
				"each is read at its own, printed as %d "
				"bytes\n",
				i, a->size);
		if (gs->sign_differs & (1u << i))
			fprintf(out,
				"\t// arg%u is signed at some sites, unsigned "
				"at others: printed signed%s\n",
				i,
				gs->unsigned8 & (1u << i)
					? " (an unsigned value past "
					  "INT64_MAX prints negative)"
					: "");
	}
	return shown;
}

static void bt_printf(FILE *out, const struct sdt_probe *p,
		      const struct group_sig *gs, unsigned shown)
{
	const struct signature *sig = &gs->sig;

	/* Names are all_word(): nothing to escape in a format. */
	fprintf(out, "\tprintf(\"%s:%s", p->note.provider, p->note.name);
	for (unsigned i = 0; i < shown; i++) {
		const char *name = sig->args[i].name;

		if (arg_name_is_identifier(name))
			fprintf(out, " %s", name);
		else
			fprintf(out, " arg%u", i);
		fprintf(out, "=%s", bt_format(gs, i));
	}
	fputs("\\n\"", out);
	for (unsigned i = 0; i < shown; i++) {
		if (sig->args[i].is_string)
			fprintf(out, ", str(arg%u)", i);
		else if (arg_widened(&sig->args[i]))
			fprintf(out, ", (%s)arg%u",
				arg_decl_word(&sig->args[i]), i);
		else
			fprintf(out, ", arg%u", i);
	}
	fputs(");\n", out);
}

/* Some argument the printf shows is read with str(). */
static int bt_reads_string(const struct signature *sig, unsigned shown)
{
	for (unsigned i = 0; i < shown; i++) {
		if (sig->args[i].is_string)
			return 1;
	}
	return 0;
}

/*
 * The printf of the arguments, then the fields of the structs they point
 * at (btstruct.c), with a word beside any str(): a string in a page the
 * program has not touched yet reads as empty, and a user who sees that on
 * a first hit should know why (docs/tracers.md).
 */
static void bt_fields(FILE *out, const struct object *obj,
		      const struct sdt_probe *p, const struct group_sig *gs,
		      unsigned shown)
{
	char *fields = NULL;
	size_t len = 0;
	FILE *m = membuf_open(&fields, &len);
	int strings = bt_reads_string(&gs->sig, shown);

	if (m) {
		layout_bt_probe(m, obj, p, &gs->sig, shown);
		/* Out of memory in the detour: the fields go straight out. */
		if ((ferror(m) | fclose(m)) != 0 || !fields) {
			free(fields);
			fields = NULL;
			len = 0;
			m = NULL;
		}
		strings |= fields && strstr(fields, "str(") != NULL;
	}
	if (strings)
		fputs("\t// str() can print \"\" on a first hit: BPF cannot "
		      "fault in a page the program has not touched yet "
		      "(docs/tracers.md)\n",
		      out);
	bt_printf(out, p, gs, shown);
	if (fields)
		fwrite(fields, 1, len, out);
	else if (!m) /* no memory for the detour */
		layout_bt_probe(out, obj, p, &gs->sig, shown);
	free(fields);
}

static void bt_probe(struct script *sc, const struct object *obj,
		     const struct group *g, const char *path)
{
	FILE *out = sc->body;
	const struct sdt_probe *p = group_probe(obj, g);
	struct group_sig gs;
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
	group_signature(obj, g, &gs);
	fprintf(out, "\nusdt:\"%s\":%s:%s\n{\n", path, p->note.provider,
		p->note.name);
	if ((stale = stale_sites(obj, g)))
		fprintf(out,
			"\t// %zu of its %zu sites are stale notes (in no "
			"executable code): bpftrace warns of an invalid "
			"address there\n",
			stale, g->count);
	shown = bt_comments(out, obj, &gs);
	bt_fields(out, obj, p, &gs, shown);
	fputs("}\n", out);
	sc->sites += g->count;
	sc->points++;
	for (unsigned i = 0; i < shown; i++)
		sc->strings |= gs.sig.args[i].is_string;
}

void bpftrace_object(struct out *o, struct object *obj)
{
	struct script *sc = script_object(o, obj, "\n//");
	char path[4096 + 64];
	const char *why;
	FILE *out;

	if (!sc)
		return;
	out = sc->body;
	fputs("\n// ", out);
	put_text(out, obj->name);
	if (attach_path(o, obj, OPENER_BPFTRACE, path, sizeof(path), &why) <
	    0) {
		fputs(": left out: ", out);
		put_text(out, why);
		fputc('\n', out);
		return;
	}
	if (strcmp(obj->name, path)) {
		fputs(", attached as ", out);
		put_text(out, path);
	}
	fputc('\n', out);
	if ((why = bt_path_problem(path))) {
		fputs("// left out: ", out);
		fputs(why, out);
		if (strchr(path, ':'))
			fputs("; attach to a link to it from a path without "
			      "one (ln -s PATH /tmp/NAME)",
			      out);
		fputc('\n', out);
		return;
	}
	if (!obj->proc && !sdt_elf_is_program(obj->f))
		sc->libraries++;
	for (size_t g = 0; g < obj->ngroups; g++) {
		if (object_wanted(o->o,
				  &group_probe(obj, &obj->groups[g])->note))
			bt_probe(sc, obj, &obj->groups[g], path);
	}
}

void bt_header(FILE *out, const struct out *o, const struct script *sc)
{
	static const char attached[] = "attached: start the program";
	int begin = !o->o->npids && sc->libraries;
	size_t probes = sc->sites + begin;
	char env[128] = "";

	/* bpftrace counts each site, and BEGIN, as a probe and a program. */
	if (probes > 512)
		snprintf(env, sizeof(env),
			 "BPFTRACE_MAX_PROBES=%zu BPFTRACE_MAX_BPF_PROGS=%zu ",
			 probes, probes);
	fputs("#!/usr/bin/env bpftrace\n// Written by sdt-list --bpftrace.\n",
	      out);
	if (o->o->npids == 1)
		fprintf(out, "// Run: %sbpftrace THIS-FILE -p %d\n", env,
			sc->first_pid);
	else if (o->o->npids)
		fprintf(out,
			"// Run: %sbpftrace THIS-FILE (attached by path: "
			"every process that maps these objects is traced)\n",
			env);
	else if (sc->libraries)
		fprintf(out,
			"// Run: %sbpftrace THIS-FILE, then start the program "
			"once it prints \"%s\" (bpftrace -c finds no probe "
			"in a shared object), or %sbpftrace THIS-FILE -p PID "
			"once process PID has loaded it\n",
			env, attached, env);
	else
		fprintf(out,
			"// Run: %sbpftrace THIS-FILE -c 'PROGRAM ARGS' (or "
			"-p PID)\n",
			env);
	if (probes > 512)
		fprintf(out,
			"// %zu probes: over bpftrace's default limit of 512 "
			"probes and programs, hence the variables\n",
			probes);
	/* libbpf's table of argument specs: 256 by default, one per probe. */
	if (sc->points > 256)
		fprintf(out,
			"// %zu probes: bpftrace 0.25 and later attach at most "
			"256 (libbpf's table of USDT argument specs: "
			"\"Argument "
			"list too long\"): for them, split the program\n",
			sc->points);
	if (sc->strings)
		fputs("// An empty str() may be a string in a page the "
		      "program has not touched yet: BPF cannot fault pages "
		      "in.\n",
		      out);
	/* bpftrace says "Attaching" before it attaches; BEGIN runs after. */
	if (begin)
		fprintf(out, "\nBEGIN\n{\n\tprintf(\"%s\\n\");\n}\n", attached);
}
