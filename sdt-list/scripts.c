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
 * A process's object (-p, -a) is named by a path proc.c found to reach the
 * mapped file. Tracers follow a path their own ways: bpftrace -p puts
 * /proc/PID/root before it when the process is in another mount namespace;
 * perf probe -x resolves its links by their text (realpath), from our
 * root, which also turns /proc/PID/root, fd and map_files paths into the
 * names their links hold. Each way must reach the same file, by device
 * and inode; perf is given the resolved path, which holds no link.
 * bpftrace 0.17 -p looks a path up among the process's mapped names,
 * where a map_files path is none.
 */
int attach_path(struct out *o, const struct object *obj, enum opener opener,
		char *buf, size_t len, const char **why)
{
	int pid = obj->proc ? obj->proc->pid : 0;
	char root[64];
	char *real;

	*why = NULL;
	snprintf(buf, len, "%s", obj->attach);
	if (!obj->has_ident)
		return 0;
	snprintf(root, sizeof(root), "/proc/%d/root", pid);
	if (obj->no_attach) {
		*why = obj->no_attach;
	} else if (opener == OPENER_BPFTRACE && o->o->npids == 1 &&
		   strstr(buf, "/map_files/")) {
		*why = "bpftrace -p finds no probe by a /proc/PID/map_files "
		       "path (0.17: \"couldn't get argument 0\"); run the "
		       "program written with -p given twice, or with -a";
	} else if (opener == OPENER_BPFTRACE && o->o->npids == 1 &&
		   obj->proc->other_mnt && strncmp(buf, root, strlen(root))) {
		snprintf(buf, len, "%s%s", root, obj->attach);
		if (!path_is_file(buf, obj->dev, obj->ino))
			*why = "bpftrace -p follows its path from the "
			       "process's root (/proc/PID/root), where it "
			       "leads to another file or to none";
		snprintf(buf, len, "%s", obj->attach);
	} else if (opener == OPENER_PERF) {
		real = realpath(obj->attach, NULL);
		if (!real || !path_is_file(real, obj->dev, obj->ino))
			*why = "perf follows its path by the text of its "
			       "links (realpath), which leads to another file "
			       "or to none";
		else
			snprintf(buf, len, "%s", real);
		free(real);
	}
	if (!*why)
		return 0;
	fputs("sdt-list: ", stderr);
	if (pid)
		fprintf(stderr, "pid %d: ", pid);
	put_text(stderr, obj->name);
	fputs(": left out: ", stderr);
	put_text(stderr, *why);
	fputc('\n', stderr);
	o->status = EXIT_INPUT;
	return -1;
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
	struct stat st, *grown;

	if (!obj->proc || o->o->npids < 2 || !obj->attach[0])
		return 0;
	if (stat(obj->attach, &st) < 0)
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
