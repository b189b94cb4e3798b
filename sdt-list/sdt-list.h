/* SPDX-License-Identifier: MIT */
/*
 * sdt-list: what the pieces share.
 *
 * The program is a reader: the ELF core (elfcore/) finds the probes, and
 * three small parts of ours turn them into something a person or a script
 * can act on:
 *  - describe.c: each argument spec in words, strictly where the core's
 *    validator accepts it, leniently (and flagged) where it does not;
 *  - consumers.c: how each tracer (libbpf, bcc/bpftrace, gdb, perf) would
 *    parse the same spec on the binary's architecture, so --check can say
 *    which of them reads every argument and why not;
 *  - escape.c: names from the file shown safely on a terminal and in JSON;
 *  - proc.c: a live process's mappings, where each object is loaded and
 *    the current value of each semaphore.
 * main.c holds the command line and the two output formats (text, JSON).
 */
#ifndef SDT_LIST_H
#define SDT_LIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "argspec.h"
#include "elfobj.h"
#include "target.h"

/* --- escape.c --- */

/* S for a terminal: controls, bad UTF-8 and backslashes escaped. */
void put_text(FILE *out, const char *s);

/* S as a JSON string, quotes included: always valid UTF-8. */
void put_json_str(FILE *out, const char *s);

/* --- describe.c --- */

/* One argument, decoded for display; never fails. */
struct arg_desc {
	char spec[128]; /* the argument's text as written (truncated) */
	int strict_ok; /* the core's strict validator accepts it */
	char strict_why[160]; /* its reason when it does not */
	int has_size;
	int size; /* signed as written: -4, 8, 16... */
	int is_float; /* "8f@" */
	const char *kind; /* "register", "memory", "constant", "unknown" */
	char words[512]; /* "signed 4 bytes in register %edi" */
};

/* Decode the LEN bytes at TEXT (one argument) for target T. */
void describe_arg(const struct sdt_target *t, const char *text, size_t len,
		  struct arg_desc *d);

/* --- consumers.c --- */

enum consumer {
	CONSUMER_LIBBPF,
	CONSUMER_BCC, /* bcc and the bpftrace built on it */
	CONSUMER_GDB,
	CONSUMER_PERF,
	CONSUMER_COUNT
};

struct verdict {
	int ok; /* reads every argument */
	int arg; /* first argument it cannot read (0-based), -1: whole probe */
	char why[256];
};

const char *consumer_name(enum consumer c);

/* The machines --check has models for ("x86_64", "aarch64", ...), or NULL. */
const char *consumer_arch(const struct sdt_target *t);

/*
 * How consumer C handles the probe argument SPEC on target T. Returns 1
 * when the spec is one that makes the consumer give up on the whole file
 * (perf drops its SDT cache for a binary over one bad size), else 0.
 */
int consumer_check(enum consumer c, const struct sdt_target *t,
		   const char *spec, struct verdict *v);

/* --- proc.c --- */

struct proc_object {
	char path[4096]; /* as /proc/PID/maps names it */
	char open_path[128]; /* what we opened: /proc/PID/map_files/... */
	int fd; /* open on the object's bytes, or -1 */
	int is_memfd;
	uint64_t lowest; /* lowest mapped address */
	/* private: the object's mappings */
	struct proc_map *maps;
	size_t nmaps;
};

struct proc_map {
	uint64_t start, end, offset;
	char perms[5];
};

struct proc {
	int pid;
	int mem_fd; /* /proc/PID/mem, or -1 when unreadable */
	char exe[4096];
	struct proc_object *objs;
	size_t nobjs;
};

/*
 * Read /proc/PID/maps and open every mapped file-backed object. Returns 0
 * or a negative errno with a message in ERR naming the cause and the fix.
 */
int proc_open(struct proc *p, int pid, char *err, size_t errlen);
void proc_close(struct proc *p);

/*
 * Where the object's virtual address ADDR (FILE_OFF its file offset when
 * known, else -1) is in the process. Returns 0 or -ENOENT.
 */
int proc_runtime_addr(const struct proc_object *o, const struct sdt_elf *f,
		      uint64_t addr, uint64_t *runtime);

/* Read the 2-byte semaphore at runtime address ADDR. 0 or -errno. */
int proc_read_u16(const struct proc *p, const struct sdt_target *t,
		  uint64_t addr, unsigned *value);

#endif
