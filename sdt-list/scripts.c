/* SPDX-License-Identifier: MIT */
/*
 * sdt-list --bpftrace and --perf: ready-to-run tracing of the listed
 * probes. script-bpftrace.c writes the bpftrace program, script-perf.c
 * the perf commands; this file holds what both need.
 *
 * How to run the result depends on every object: bpftrace -c finds no
 * probe in a shared object, more than 512 sites need its limits raised,
 * perf record names every event group. So the objects write into a buffer
 * and script_end() puts the header, with the run line right for all of
 * them, before it.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scripts.h"

struct script *script_of(struct out *o)
{
	struct script *sc = o->script;

	if (sc)
		return sc;
	sc = calloc(1, sizeof(*sc));
	if (!sc)
		return NULL;
	sc->body = membuf_open(&sc->body_buf, &sc->body_len);
	sc->events = membuf_open(&sc->events_buf, &sc->events_len);
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

int all_word(const char *s, const char *extra)
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
int all_printable(const char *s)
{
	for (; *s; s++) {
		if (*s < 0x20 || *s > 0x7e)
			return 0;
	}
	return 1;
}

/* How many of the group's sites no tracer can attach to. */
size_t stale_sites(const struct object *obj, const struct group *g)
{
	size_t n = 0;

	for (size_t i = 0; i < g->count; i++) {
		struct site s;

		site_facts(obj, &obj->f->probes[obj->sites[g->first + i]], &s);
		n += !s.in_code || s.outside;
	}
	return n;
}

const char all_stale[] = "every site is a stale note (in no executable "
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

void put_probe_name(FILE *out, const struct sdt_probe *p)
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
void attach_path(const struct object *obj, int proc_root, char *buf, size_t len)
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

struct script *script_object(struct out *o, const struct object *obj,
			     const char *lead)
{
	struct script *sc = script_of(o);

	if (!sc) {
		fputs("sdt-list: ", stderr);
		put_text(stderr, obj->name);
		fputs(": out of memory: left out of the program\n", stderr);
		o->status = EXIT_INPUT;
		return NULL;
	}
	note_pid(sc, obj);
	/* -p: only the objects that have a probe to trace. */
	if (obj->proc && !wanted_groups(o, obj))
		return NULL;
	if (seen_before(sc, o, obj)) {
		fprintf(sc->body, "%s ", lead);
		put_text(sc->body, obj->name);
		fprintf(sc->body, " of pid %d: the same file as above\n",
			obj->proc->pid);
		return NULL;
	}
	return relocatable(sc->body, obj, lead) ? NULL : sc;
}

/*
 * bpftrace refuses a program without a probe ("unexpected end of file"):
 * rather than write one, say why on stderr, with the comments that tell
 * why each probe was left out, and exit 2.
 */
static void no_program(struct out *o, const struct script *sc)
{
	fputs("sdt-list: no probe for bpftrace to trace: no program "
	      "written\n",
	      stderr);
	fwrite(sc->body_buf, 1, sc->body_len, stderr);
	o->status = EXIT_INPUT;
}

int script_end(struct out *o)
{
	struct script *sc = o->script;
	int perf = o->o->format == FMT_PERF;
	int r = 0;

	if (!sc)
		return 0;
	/* A membuf that could not grow says so by its error flag. */
	if (ferror(sc->body) | ferror(sc->events))
		r = -1;
	if (fclose(sc->body) | fclose(sc->events) || sc->bad_memory ||
	    !sc->body_buf || !sc->events_buf)
		r = -1;
	if (!r && !perf && !sc->sites) {
		no_program(o, sc);
	} else if (!r) {
		if (perf)
			perf_header(o->f, o, sc);
		else
			bt_header(o->f, o, sc);
		fwrite(sc->body_buf, 1, sc->body_len, o->f);
		if (!sc->body_len)
			fputs("# no probe to trace\n", o->f);
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
