/* SPDX-License-Identifier: MIT */
/*
 * sdt-list --bpftrace and --perf: ready-to-run tracing of the listed
 * probes.
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
 *
 * How to run it depends on every object: bpftrace -c finds no probe in a
 * shared object, and more than 512 sites need its limits raised. So the
 * objects write into a buffer and script_end() puts the header, with the
 * run line right for all of them, before it.
 *
 * --perf writes the perf commands for the same probes: perf finds SDT
 * probes through its build-id cache, so the binary is added first, then
 * one `perf probe' per probe creates the event to record. perf puts every
 * site of a probe under one event, which the kernel allows only while the
 * sites record the same fields; where they differ, each site becomes its
 * own event at its file offset, with the fields perf would have recorded
 * (through tracefs where the probe has a semaphore, which perf probe
 * cannot give an event at an address).
 * The cleanup line deletes exactly the events the commands made.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sdt-list.h"

/* What the header needs from every object, and what they wrote. */
struct script {
	FILE *body; /* everything after the header */
	char *body_buf;
	size_t body_len;
	FILE *events; /* perf: " -d 'sdt_P:N'" per event made */
	char *events_buf;
	size_t events_len;
	char **providers; /* perf: the event groups, for perf record */
	size_t nproviders;
	size_t sites;	   /* bpftrace: the sites it attaches to, one by one */
	int libraries;	   /* files that are shared objects: no -c */
	int strings;	   /* some printf reads a string with str() */
	int first_pid;	   /* -p: the first process seen */
	struct stat *seen; /* several -p: the files written, by dev:inode */
	size_t nseen;
	int bad_memory; /* a buffer could not grow */
};

static struct script *script_of(struct out *o)
{
	struct script *sc = o->script;

	if (sc)
		return sc;
	sc = calloc(1, sizeof(*sc));
	if (!sc)
		return NULL;
	sc->body = open_memstream(&sc->body_buf, &sc->body_len);
	sc->events = open_memstream(&sc->events_buf, &sc->events_len);
	if (!sc->body || !sc->events) {
		if (sc->body)
			fclose(sc->body);
		free(sc->body_buf);
		free(sc);
		return NULL;
	}
	o->script = sc;
	return sc;
}

/* Bytes that may stand in a name unquoted (ASCII, never locale-bent). */
static int word_char(char c, const char *extra)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || (c && strchr(extra, c));
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

/* Printable ASCII only: safe on a terminal as it stands. */
static int all_printable(const char *s)
{
	for (; *s; s++) {
		if (*s < 0x20 || *s > 0x7e)
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

static size_t wanted_groups(const struct out *o, const struct object *obj)
{
	size_t n = 0;

	for (size_t g = 0; g < obj->ngroups; g++)
		n += object_wanted(o->o,
				   &group_probe(obj, &obj->groups[g])->note);
	return n;
}

/*
 * The path a tracer opens for OBJ. For a process seen by -p, a path from
 * its maps is one in its mount namespace: through /proc/PID/root it is
 * the same file from ours (PROC_ROOT; bpftrace -p does that itself).
 */
static void attach_path(const struct object *obj, int proc_root, char *buf,
			size_t len)
{
	if (obj->proc && proc_root && strncmp(obj->attach, "/proc/", 6))
		snprintf(buf, len, "/proc/%d/root%s", obj->proc->pid,
			 obj->attach);
	else
		snprintf(buf, len, "%s", obj->attach);
}

static void note_pid(struct script *sc, const struct object *obj)
{
	if (obj->proc && !sc->first_pid)
		sc->first_pid = obj->proc->pid;
}

/*
 * With several -p, processes share files (a library, the same program):
 * tracers attach by file, so a second block or event for one would trace
 * every hit twice, and perf would refuse the event as existing. Returns 1
 * when OBJ's file was written already.
 */
static int seen_before(struct script *sc, const struct out *o,
		       const struct object *obj)
{
	char path[4096 + 64];
	struct stat st, *grown;

	if (!obj->proc || o->o->npids < 2)
		return 0;
	attach_path(obj, 1, path, sizeof(path));
	if (stat(path, &st) < 0)
		return 0;
	for (size_t i = 0; i < sc->nseen; i++) {
		if (sc->seen[i].st_dev == st.st_dev &&
		    sc->seen[i].st_ino == st.st_ino)
			return 1;
	}
	grown = realloc(sc->seen, (sc->nseen + 1) * sizeof(*grown));
	if (!grown) {
		sc->bad_memory = 1;
		return 0;
	}
	sc->seen = grown;
	sc->seen[sc->nseen++] = st;
	return 0;
}

/* ------------------------------------------------------------------ */
/* bpftrace                                                            */

/* Why bpftrace 0.17 cannot attach to PATH as `usdt:"PATH"', or NULL. */
static const char *bt_path_problem(const char *path)
{
	if (!all_printable(path))
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
	for (unsigned i = 0; i < shown; i++)
		fprintf(out,
			sig->args[i].is_string ? ", str(arg%u)" : ", arg%u", i);
	fputs(");\n", out);
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
	bt_printf(out, p, &gs, shown);
	fputs("}\n", out);
	sc->sites += g->count;
	for (unsigned i = 0; i < shown; i++)
		sc->strings |= gs.sig.args[i].is_string;
}

void bpftrace_object(struct out *o, struct object *obj)
{
	struct script *sc = script_of(o);
	char path[4096 + 64];
	const char *why;
	FILE *out;

	if (!sc) {
		o->status = EXIT_INPUT;
		return;
	}
	out = sc->body;
	note_pid(sc, obj);
	/* -p: only the objects that have a probe to trace. */
	if (obj->proc && !wanted_groups(o, obj))
		return;
	if (seen_before(sc, o, obj)) {
		fputs("\n// ", out);
		put_text(out, obj->name);
		fprintf(out, " of pid %d: the same file as above\n",
			obj->proc->pid);
		return;
	}
	if (relocatable(out, obj, "\n//"))
		return;
	/* With one -p, bpftrace resolves paths in that process itself. */
	attach_path(obj, o->o->npids > 1, path, sizeof(path));
	fputs("\n// ", out);
	put_text(out, obj->name);
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

static void bt_header(FILE *out, const struct out *o, const struct script *sc)
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
	if (sc->strings)
		fputs("// An empty str() may be a string in a page the "
		      "program has not touched yet: BPF cannot fault pages "
		      "in.\n",
		      out);
	/* bpftrace says "Attaching" before it attaches; BEGIN runs after. */
	if (begin)
		fprintf(out, "\nBEGIN\n{\n\tprintf(\"%s\\n\");\n}\n", attached);
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

static int has_semaphore(const struct sdt_probe *p)
{
	return p->note.semaphore || p->sema_ref.symbol;
}

/* The fields perf records at a site, or its raw spec where we cannot say. */
static void perf_fields(const struct object *obj, const struct sdt_probe *p,
			char *buf, size_t len)
{
	char why[256];

	if (perf_fetch_args(&obj->f->target, p->note.args, buf, len, why,
			    sizeof(why)) < 0)
		snprintf(buf, len, "?%s", p->note.args);
}

int perf_sites_differ(const struct object *obj, const struct group *g)
{
	char first[1024], other[1024];
	int have = 0;

	for (size_t i = 0; i < g->count; i++) {
		const struct sdt_probe *p =
			&obj->f->probes[obj->sites[g->first + i]];
		struct site s;

		site_facts(obj, p, &s);
		if (!s.in_code || s.outside)
			continue;
		perf_fields(obj, p, have ? other : first, sizeof(first));
		if (have && strcmp(first, other))
			return 1;
		have = 1;
	}
	return 0;
}

static void perf_add_event(struct script *sc, const char *provider,
			   const char *event)
{
	size_t i;

	fprintf(sc->events, " -d 'sdt_%s:%s'", provider, event);
	for (i = 0; i < sc->nproviders; i++) {
		if (!strcmp(sc->providers[i], provider))
			return;
	}
	char **grown = realloc(sc->providers, (i + 1) * sizeof(*grown));
	if (!grown || !(grown[i] = strdup(provider))) {
		if (grown)
			sc->providers = grown;
		sc->bad_memory = 1;
		return;
	}
	sc->providers = grown;
	sc->nproviders++;
}

/* Where perf's own commands cannot take a site: the kernel's interface. */
static const char uprobe_events[] = "/sys/kernel/tracing/uprobe_events";

/*
 * One site as its own event. perf probe places an event at a file offset
 * but has no way to give it a semaphore; tracefs does (OFF(SEMA_OFF)), and
 * perf records such an event like its own.
 */
static void perf_site_event(FILE *out, const char *path, const char *provider,
			    const char *event, const struct site *s,
			    const char *args, int sema)
{
	char line[4096 + 2048];

	if (!sema) {
		fputs("perf probe -x ", out);
		put_shell_word(out, path);
		fprintf(out, " -a 'sdt_%s:%s=0x%llx%s%s'\n", provider, event,
			(unsigned long long)s->off, *args ? " " : "", args);
		return;
	}
	snprintf(line, sizeof(line), "p:sdt_%s/%s %s:0x%llx(0x%llx)%s%s",
		 provider, event, path, (unsigned long long)s->off,
		 (unsigned long long)s->sema_off, *args ? " " : "", args);
	fputs("echo ", out);
	put_shell_word(out, line);
	fprintf(out, " >>%s\n", uprobe_events);
}

/* Why one site cannot be an event of its own, or NULL. */
static const char *site_problem(const struct site *s, const char *path,
				int sema)
{
	if (!s->has_off)
		return "no file offset for its address";
	if (sema && !s->has_sema_off)
		return "no file offset for its semaphore";
	if (sema && strpbrk(path, " \t"))
		return "tracefs cannot name a path holding a space";
	return NULL;
}

/* One event per site, at its file offset: sites that perf cannot merge. */
static void perf_each_site(struct script *sc, const struct object *obj,
			   const struct group *g, const char *path)
{
	FILE *out = sc->body;
	const struct sdt_probe *p = group_probe(obj, g);
	int sema = has_semaphore(p);
	unsigned made = 0;

	fputs("# ", out);
	put_probe_name(out, p);
	fprintf(out,
		": its sites record different fields, which one event cannot "
		"hold (perf probe -a sdt_PROVIDER:NAME stops at \"File "
		"exists\"): one event per site%s\n",
		sema ? ", through tracefs, which can raise its semaphore" : "");
	for (size_t i = 0; i < g->count; i++) {
		const struct sdt_probe *q =
			&obj->f->probes[obj->sites[g->first + i]];
		char args[1024], why[256], event[300];
		const char *problem;
		struct site s;

		site_facts(obj, q, &s);
		if (!s.in_code || s.outside)
			continue;
		problem = site_problem(&s, path, sema);
		if (!problem &&
		    perf_fetch_args(&obj->f->target, q->note.args, args,
				    sizeof(args), why, sizeof(why)) < 0)
			problem = why;
		if (problem) {
			fprintf(out, "# site at 0x%llx: left out: ",
				(unsigned long long)s.addr);
			put_text(out, problem);
			fputc('\n', out);
			continue;
		}
		if (made)
			snprintf(event, sizeof(event), "%s_%u", p->note.name,
				 made);
		else
			snprintf(event, sizeof(event), "%s", p->note.name);
		made++;
		perf_site_event(out, path, p->note.provider, event, &s, args,
				sema);
		perf_add_event(sc, p->note.provider, event);
	}
}

/*
 * perf's verdict on every site of G: 1 when perf cannot add the event (a
 * register the kernel does not know, a size that empties its cache), the
 * reason in V; else 0, V holding the first field it skips, if any.
 */
static int perf_refuses(const struct object *obj, const struct group *g,
			struct verdict *v)
{
	struct verdict first = { .ok = 1, .arg = -1 };
	const char *last = NULL;

	for (size_t i = 0; i < g->count; i++) {
		const char *spec =
			obj->f->probes[obj->sites[g->first + i]].note.args;

		if (last && !strcmp(spec, last))
			continue;
		last = spec;
		if (consumer_check(CONSUMER_PERF, &obj->f->target, spec, v) ||
		    (!v->ok && !strstr(v->why, "skipped: not recorded")))
			return 1;
		if (!v->ok && first.ok)
			first = *v;
	}
	*v = first;
	return 0;
}

static void perf_probe(struct script *sc, struct object *obj,
		       const struct group *g, const char *path)
{
	FILE *out = sc->body;
	const struct sdt_probe *p = group_probe(obj, g);
	enum sdt_arch a = sdt_target_arch(&obj->f->target);
	struct verdict v;

	/* perf names the event sdt_PROVIDER:NAME: a C-like word each. */
	if (!all_word(p->note.provider, "") || !all_word(p->note.name, "")) {
		fputs("# ", out);
		put_probe_name(out, p);
		fputs(": left out: perf cannot name an event after it\n", out);
		return;
	}
	if (stale_sites(obj, g) == g->count) {
		fprintf(out, "# %s:%s: left out: %s\n", p->note.provider,
			p->note.name, all_stale);
		return;
	}
	if (perf_refuses(obj, g, &v)) {
		fprintf(out, "# %s:%s: left out: ", p->note.provider,
			p->note.name);
		put_text(out, v.why);
		fputc('\n', out);
		return;
	}
	if (!v.ok) {
		fprintf(out, "# %s:%s: ", p->note.provider, p->note.name);
		put_text(out, v.why);
		fputc('\n', out);
	}
	if (!perf_sites_differ(obj, g)) {
		fputs("perf probe -x ", out);
		put_shell_word(out, path);
		fprintf(out, " -a sdt_%s:%s\n", p->note.provider, p->note.name);
		perf_add_event(sc, p->note.provider, p->note.name);
		return;
	}
	if (a != SDT_ARCH_X86_64 && a != SDT_ARCH_I386) {
		fprintf(out,
			"# %s:%s: left out: its sites record different "
			"fields, which one event cannot hold (perf probe -a "
			"stops at \"File exists\"), and sdt-list writes "
			"events per site for x86 only\n",
			p->note.provider, p->note.name);
		return;
	}
	perf_each_site(sc, obj, g, path);
}

void perf_object(struct out *o, struct object *obj)
{
	struct script *sc = script_of(o);
	char path[4096 + 64];
	FILE *out;

	if (!sc) {
		o->status = EXIT_INPUT;
		return;
	}
	out = sc->body;
	note_pid(sc, obj);
	if (obj->proc && !wanted_groups(o, obj))
		return;
	if (seen_before(sc, o, obj)) {
		fputs("# ", out);
		put_text(out, obj->name);
		fprintf(out, " of pid %d: the same file as above\n",
			obj->proc->pid);
		return;
	}
	if (relocatable(out, obj, "#"))
		return;
	attach_path(obj, 1, path, sizeof(path));
	fputs("# ", out);
	put_text(out, obj->name);
	if (!all_printable(path)) {
		fputs(": left out: its path holds bytes that cannot be written "
		      "into a command safely\n",
		      out);
		return;
	}
	fputs("\nperf buildid-cache --add ", out);
	put_shell_word(out, path);
	fputc('\n', out);
	for (size_t g = 0; g < obj->ngroups; g++) {
		if (object_wanted(o->o,
				  &group_probe(obj, &obj->groups[g])->note))
			perf_probe(sc, obj, &obj->groups[g], path);
	}
}

static void perf_header(FILE *out, const struct out *o, const struct script *sc)
{
	fputs("# Written by sdt-list --perf.\n# Run these, then: perf record",
	      out);
	for (size_t i = 0; i < sc->nproviders; i++)
		fprintf(out, " -e 'sdt_%s:*'", sc->providers[i]);
	if (o->o->npids == 1)
		fprintf(out, " -p %d", sc->first_pid);
	else if (o->o->npids)
		fputs(" -a", out);
	else
		fputs(" -- PROGRAM ARGS (or -p PID)", out);
	fputs("; perf script\n", out);
}

int script_end(struct out *o)
{
	struct script *sc = o->script;
	int perf = o->o->format == FMT_PERF;
	int r = 0;

	if (!sc)
		return 0;
	if (fclose(sc->body) || fclose(sc->events) || sc->bad_memory)
		r = -1;
	if (!r) {
		if (perf)
			perf_header(o->f, o, sc);
		else
			bt_header(o->f, o, sc);
		fwrite(sc->body_buf, 1, sc->body_len, o->f);
		if (!sc->body_len)
			fprintf(o->f, "%s no probe matches\n",
				perf ? "#" : "\n//");
		if (perf && sc->events_len)
			fprintf(o->f, "# remove the events: perf probe%s\n",
				sc->events_buf);
	}
	for (size_t i = 0; i < sc->nproviders; i++)
		free(sc->providers[i]);
	free(sc->providers);
	free(sc->seen);
	free(sc->body_buf);
	free(sc->events_buf);
	free(sc);
	o->script = NULL;
	return r;
}
