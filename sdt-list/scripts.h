/* SPDX-License-Identifier: MIT */
/*
 * Inside --bpftrace and --perf: what scripts.c (the run, its header and
 * the facts both outputs need) shares with script-bpftrace.c and
 * script-perf.c. The rest of sdt-list sees bpftrace_object(),
 * perf_object() and script_end() in sdt-list.h.
 */
#ifndef SDT_LIST_SCRIPTS_H
#define SDT_LIST_SCRIPTS_H

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
	size_t points;	   /* bpftrace: its usdt attach points (probes) */
	int libraries;	   /* files that are shared objects: no -c */
	int strings;	   /* some printf reads a string with str() */
	int first_pid;	   /* -p: the first process seen */
	struct stat *seen; /* several -p: the files written, by dev:inode */
	size_t nseen;
	int bad_memory; /* a buffer could not grow */
};

/* The run's script, made on first use; NULL when out of memory. */
struct script *script_of(struct out *o);

/* S is ASCII letters, digits, `_' and EXTRA only, and not empty. */
int all_word(const char *s, const char *extra);

/* Printable ASCII only: safe on a terminal as it stands. */
int all_printable(const char *s);

/* How many of the group's sites no tracer can attach to. */
size_t stale_sites(const struct object *obj, const struct group *g);
extern const char all_stale[];

/* PROVIDER:NAME, escaped. */
void put_probe_name(FILE *out, const struct sdt_probe *p);

/* Who will open the path written for an object, and how. */
enum opener {
	OPENER_KERNEL,	 /* as it stands (tracefs, bpftrace by path) */
	OPENER_BPFTRACE, /* bpftrace, -p PID unless several -p */
	OPENER_PERF,	 /* perf probe -x: its text, links resolved */
};

/*
 * The path OPENER is to open for OBJ, into BUF: 0; or -1 when no path
 * reaches a process's object as OPENER follows it, the reason in *WHY
 * (then said on stderr, and the exit status is 2).
 */
int attach_path(struct out *o, const struct object *obj, enum opener opener,
		char *buf, size_t len, const char **why);

/*
 * What --bpftrace and --perf do first with each object: NULL when it gets
 * no text (no memory, with the status set; under -p no probe to trace; a
 * file already written for another process, or a relocatable object, each
 * said in a comment that starts with LEAD), else the script to write to.
 */
struct script *script_object(struct out *o, const struct object *obj,
			     const char *lead);

/* The headers, written by script_end() before the objects' text. */
void bt_header(FILE *out, const struct out *o, const struct script *sc);
void perf_header(FILE *out, const struct out *o, const struct script *sc);

#endif
