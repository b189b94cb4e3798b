/* SPDX-License-Identifier: MIT */
/*
 * sdt-list: probes as a contract. Three modes that hold a program's probes
 * to what others depend on, each a file of its own:
 *  - diff.c (--diff OLD NEW): what changed between two builds, and which
 *    changes break a tracing script;
 *  - against.c (--against PROVIDER.d FILE...): whether a build carries
 *    every probe its .d file declares, and why not;
 *  - btscript.c (--script PROG.bt FILE|-p PID): whether each usdt probe a
 *    bpftrace program names would attach, with the arguments it reads.
 * side.c holds what the first and the last share: the objects of a file or
 * a process, open together and named so two releases pair up.
 */
#ifndef SDT_LIST_CONTRACT_H
#define SDT_LIST_CONTRACT_H

#include "sdt-list.h"

/* --- side.c --- */

struct side_object {
	struct sdt_elf f;
	struct object obj;
	char name[4096];
	char soname[256]; /* "" when it has none */
	char key[4096];	  /* what pairs it: SONAME, "(program)", base name */
};

struct side {
	char name[4096]; /* the file's path or "pid N", for messages */
	int pid;	 /* 0: a file */
	struct proc proc;
	int proc_open;
	struct side_object **objs; /* the objects with probes (a file: one) */
	size_t n;
	size_t slots;	   /* allocated objects: n, and one being opened */
	char warning[256]; /* a file's notes were partly unreadable */
};

/*
 * Open PATH, or every mapped object of PID that has probes. 0, or a
 * negative errno with the reason in ERR. side_close() either way.
 */
int side_open_file(struct side *s, const char *path, char *err, size_t len);
int side_open_pid(struct side *s, int pid, char *err, size_t len);
void side_close(struct side *s);

/* Some site of G has a semaphore. */
int group_has_semaphore(const struct object *obj, const struct group *g);

/*
 * Some site of G is in code. A linker that drops a function (--gc-sections)
 * may keep its note: such a probe is gone for every tracer.
 */
int group_is_live(const struct object *obj, const struct group *g);

/* The probe PROVIDER:NAME of OBJ, or NULL. */
const struct group *object_find_group(const struct object *obj,
				      const char *provider, const char *name);

/*
 * "FILE" or "-p PID" at ARGV[*I] (advanced past what it used) into S.
 * Returns 0, or EXIT_INPUT after saying why on stderr.
 */
int side_open_arg(struct side *s, int argc, char **argv, int *i);

/*
 * The whole of PATH (a .d file, a bpftrace program) into a NUL-terminated
 * buffer to free(): a regular file of at most MAX bytes, opened without
 * blocking (never a FIFO or a device). NULL with the reason in ERR.
 */
char *read_text_input(const char *path, size_t max, size_t *len, char *err,
		      size_t errlen);

/* --- the modes: each parses its own command line, returns the status --- */

int diff_main(int argc, char **argv);
int against_main(int argc, char **argv);
int btscript_main(int argc, char **argv);

#endif
