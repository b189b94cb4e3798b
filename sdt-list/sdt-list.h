/* SPDX-License-Identifier: MIT */
/*
 * sdt-list: what the pieces share.
 *
 * The program is a reader: the ELF core (elfcore/) finds the probes, and
 * small parts of ours turn them into something a person, a script or a
 * tracer can act on:
 *  - object.c: one object's probes (sites grouped by provider:name), the
 *    facts about each site, and the --check verdicts, judged once per
 *    distinct argument spec;
 *  - types.c: the argument types and names dtrace-gen records in
 *    .note.sdtkit, else words from each spec's size and sign (`int32');
 *  - signature.c: one signature right at every site of a probe (the
 *    widest size, the sign all agree with, the arguments all have);
 *  - describe.c: each argument spec in words, strictly where the core's
 *    validator accepts it, leniently (and flagged) where it does not;
 *  - consumers.c: how each tracer (libbpf, bcc/bpftrace, gdb, perf) would
 *    parse the same spec on the binary's architecture, so --check can say
 *    which of them reads every argument and why not; one model per file,
 *    consumer-libbpf.c, -bcc.c, -bpftrace.c, -gdb.c, -perf.c;
 *  - escape.c: names from the file shown safely on a terminal and in JSON;
 *  - proc.c: a live process's mappings, where each object is loaded and
 *    the current value of each semaphore;
 *  - layout.c: the fields of the structs arguments point at, from a layout
 *    note, DWARF or a debug file, for -v and --json; btstruct.c declares
 *    and prints them in the --bpftrace program;
 *  - summary.c (one line per probe, the default), verbose.c (-v: every
 *    site), json.c (--json), scripts.c with script-bpftrace.c and
 *    script-perf.c (--bpftrace, --perf): the outputs.
 *  - walk.c (DIR...) and host.c (--all-processes): inventories, one
 *    record per object (inventory.c: text, or JSON records); peek.c
 *    tells a directory's ELF files with a few threads at once.
 * main.c holds the command line and walks the files and processes.
 */
#ifndef SDT_LIST_H
#define SDT_LIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "argspec.h"
#include "elfobj.h"
#include "target.h"

#define EXIT_CHECK 1
#define EXIT_INPUT 2

/* --- escape.c --- */

/*
 * membuf.c: a FILE writing into *BUF (always NUL-terminated, freed by the
 * caller) and *LEN, like open_memstream(), but a write that finds no
 * memory is an error ferror() and fclose() report. NULL: no memory.
 */
FILE *membuf_open(char **buf, size_t *len);

/* S for a terminal: controls, bad UTF-8 and backslashes escaped. */
void put_text(FILE *out, const char *s);

/* S as a JSON string, quotes included: always valid UTF-8. */
void put_json_str(FILE *out, const char *s);
/* S is valid UTF-8 (or empty). */
int is_utf8(const char *s);
/* S is valid UTF-8 with no control or format character: shown as it is. */
int is_shown_utf8(const char *s);
/*
 * ,"KEY":S and, when S is not UTF-8, ,"KEY_bytes": its bytes percent-
 * encoded (escape.c): a path exact to the byte.
 */
void put_json_path(FILE *out, const char *key, const char *s);
/* Only the ,"KEY_bytes" member, when S is not UTF-8. */
void put_json_exact(FILE *out, const char *key, const char *s);
/* S percent-encoded, as a JSON string (put_json_path's _bytes form). */
void put_json_bytes(FILE *out, const char *s);

/* ,"KEY":"0xV" (null when not VALID), as a JSON member after another. */
void put_json_hex(FILE *out, const char *key, uint64_t v, int valid);

/*
 * S is a C identifier, in ASCII whatever the locale: safe in a tracer's
 * program as written (names from the file that are not become argN).
 */
int arg_name_is_identifier(const char *s);

/* --- describe.c --- */

/* One argument, decoded for display; never fails. */
struct arg_desc {
	char spec[128];	      /* the argument's text as written (truncated) */
	int strict_ok;	      /* the core's strict validator accepts it */
	char strict_why[160]; /* its reason when it does not */
	int has_size;
	int size;	  /* signed as written: -4, 8, 16... */
	int is_float;	  /* "8f@" */
	const char *kind; /* "register", "memory", "constant", "unknown" */
	char words[512];  /* "signed 4 bytes in register %edi" */
};

/* Decode the LEN bytes at TEXT (one argument) for target T. */
void describe_arg(const struct sdt_target *t, const char *text, size_t len,
		  struct arg_desc *d);

/* Only the size, sign and float-ness of the argument at TEXT: cheap. */
void describe_size(const char *text, size_t len, struct arg_desc *d);

/* --- consumers.c --- */

enum consumer {
	CONSUMER_LIBBPF,
	CONSUMER_BCC,	   /* bcc and the bpftrace built on it (up to 0.24) */
	CONSUMER_BPFTRACE, /* bpftrace 0.25 on: libbpf 1.6 on reads for it */
	CONSUMER_GDB,
	CONSUMER_PERF,
	CONSUMER_COUNT
};

struct verdict {
	int ok;	 /* reads every argument */
	int arg; /* first argument it cannot read (0-based), -1: whole probe */
	char why[1024]; /* quotes the spec whole: specs run to ~500 bytes */
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

/*
 * The fetch arguments perf's SDT cache gives a site with SPEC on T
 * ("arg1=%di:s32 arg2=+8(%sp):u64", arguments perf skips left out, their
 * numbers kept), into BUF: what `perf probe' takes for an event at an
 * address. 0, or -1 with the reason in WHY where perf could not add it or
 * we cannot say (x86 only).
 */
int perf_fetch_args(const struct sdt_target *t, const char *spec, char *buf,
		    size_t len, char *why, size_t whylen);

/*
 * How many arguments bpftrace 0.17 to 0.23 let a program read
 * (arg0..argN-1) on T: they reuse the function-argument register count
 * for USDT probes (0.25 on reads all 12). 0 when there is no limit we
 * know of. Printed programs keep to it, so that every version runs them.
 */
unsigned bpftrace_max_args(const struct sdt_target *t);

/* --- proc.c --- */

struct proc_object {
	char *path; /* maps's name, whole, its escapes undone once a file
		       of that name is the mapped one */
	/*
	 * The path tracers open, checked to reach the mapped file from our
	 * mount namespace: the path itself, /proc/PID/root/PATH, the
	 * process's /proc/PID/fd/N or /proc/PID/map_files/START-END. ""
	 * when none does, NO_ATTACH saying why.
	 */
	char attach_path[4096 + 64];
	char no_attach[512];
	int fd;	       /* open on the object's bytes, or -1 */
	char why[512]; /* fd -1: why, for a warning ("": say nothing) */
	int is_memfd;
	unsigned dev_major, dev_minor; /* the mapped file, as maps says */
	uint64_t ino;
	dev_t st_dev; /* FD's file: what a printed path must reach */
	ino_t st_ino;
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
	int mem_fd;    /* /proc/PID/mem, or -1 when unreadable */
	int other_mnt; /* in another mount namespace than ours */
	char exe[4096];
	struct proc_object *objs;
	size_t nobjs;
};

/*
 * Read /proc/PID/maps and open every mapped file-backed object. Returns 0
 * or a negative errno with a message in ERR naming the cause and the fix.
 */
int proc_open(struct proc *p, int pid, char *err, size_t errlen);

/* PATH, followed as the kernel does, is the file DEV:INO: 1, else 0. */
int path_is_file(const char *path, dev_t dev, ino_t ino);

/* S as a process ID (a decimal from 1 to INT_MAX) into PID: 0, or -1. */
int pid_parse(const char *s, int *pid);
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

/* --- types.c --- */

/* One probe's record from SDT_TYPES_SECTION. */
struct type_record {
	const char *provider, *name;
	unsigned nargs;
	const char *type[SDT_MAX_ARGS];
	const char *argname[SDT_MAX_ARGS]; /* "" when the .d gives none */
	int disagrees; /* a later record for the probe says otherwise */
	int of_sites;  /* the compiler's, from a site's own expressions */
	int misfit;    /* ... and a site's size or sign is not the record's */
	size_t order_; /* its place in the file */
};

struct type_table {
	struct type_record *recs; /* sorted by provider, name */
	size_t n;
	int long_size;	 /* the target's C `long', in bytes */
	int char_signed; /* its plain `char' is signed (x86) */
};

/*
 * Read F's type records into TT. A malformed record is skipped with a
 * warning on stderr naming OBJNAME; the listing goes on. 0 or -ENOMEM.
 */
int types_load(struct type_table *tt, const struct sdt_elf *f,
	       const char *objname);
void types_free(struct type_table *tt);

/* The first record for PROVIDER:NAME, or NULL. */
const struct type_record *types_find(const struct type_table *tt,
				     const char *provider, const char *name);

/* One argument as a person or a tracer reads it. */
struct sig_arg {
	const char *type; /* "const char *" (record), else "int32" */
	const char *name; /* "" when unknown */
	int size;	  /* bytes, 0 when the spec gives none */
	int is_signed, is_float;
	int is_string;	/* a char pointer by the record: read with str() */
	int is_pointer; /* by the record */
	int decl_size;	/* the record's integer type in bytes, 0: none */
	int decl_signed;
};

/*
 * A declared integer that the sites record otherwise: wider (libvirt
 * passes every argument as `(void *)(intptr_t)x', so its `int' is
 * unsigned 8 bytes in the note) or of the other sign. A tracer reading
 * the note's way prints -1 as 18446744073709551615; read as declared, the
 * value is right.
 */
int arg_widened(const struct sig_arg *a);

/* ... and reading it the note's way gives a wrong value for some values
 * (a negative one of a signed type, or a large one of an unsigned type of
 * the same size). */
int arg_misread(const struct sig_arg *a);

/*
 * The size and sign of TYPE when it is a C integer type a record or a .d
 * file can name (`int', `unsigned long long', `const short', `uint32_t',
 * `_Bool'), for TT's target: 1, else 0 (pointers, structs, enums, other
 * typedefs).
 */
int types_int_decl(const struct type_table *tt, const char *type, int *size,
		   int *is_signed);

/* The bpftrace integer type of A's declaration: "int32", "uint8". */
const char *arg_decl_word(const struct sig_arg *a);

struct signature {
	unsigned nargs;	     /* at most SDT_MAX_ARGS shown */
	unsigned spec_nargs; /* as the spec has them */
	struct sig_arg args[SDT_MAX_ARGS];
	const struct type_record *rec; /* used for the types, or NULL */
	const struct type_record
		*unused; /* found but not used: counts differ */
	/* found but not used: a site of the probe does not fit it */
	const struct type_record *misfit;
};

/* Probe P's arguments: types and names from TT where it has them. */
void probe_signature(const struct type_table *tt, const struct sdt_probe *p,
		     struct signature *sig);

/* "const char *customer", "int32": TYPE NAME joined as C writes it. */
void put_sig_arg(FILE *out, const struct sig_arg *a);

/* --- object.c --- */

enum format { FMT_SUMMARY, FMT_VERBOSE, FMT_JSON, FMT_BPFTRACE, FMT_PERF };

struct opts {
	int check;
	enum format format;
	int headers; /* name each object (several inputs, or -p) */
	char **patterns;
	size_t npatterns;
	size_t npids; /* -p given this many times */
};

/* Sites of one provider:name: sites[first .. first + count). */
struct group {
	size_t first;
	size_t count;
	size_t order; /* note index of its first site */
};

struct verdict_set {
	struct verdict v[CONSUMER_COUNT];
	int bad; /* some consumer refuses */
};

/* What we know about one object being listed. */
struct object {
	const char *name;	/* as the user knows it */
	char attach[4096 + 64]; /* the path a tracer attaches to */
	const struct sdt_elf *f;
	const struct proc *proc; /* NULL for a file */
	const struct proc_object *pobj;
	/*
	 * A process's object (-p, -a): the file ATTACH must reach where a
	 * tracer resolves it its own way (perf by its text); NO_ATTACH:
	 * why no path reaches it (ATTACH is then ""), else NULL.
	 */
	int has_ident;
	dev_t dev;
	ino_t ino;
	const char *no_attach;
	int has_bias; /* -p: where it is loaded */
	uint64_t bias;
	struct type_table types;
	struct layout_cache *layouts_; /* layout.c: what each type holds */
	size_t *sites;	      /* note indexes, sorted by provider:name */
	struct group *groups; /* in the order each probe first appears */
	size_t ngroups;
	/* --check: verdicts per distinct spec, perf's whole-file verdict */
	struct check_cache *cache_;
	int perf_dead;
	struct verdict perf_why;
	int out_of_memory; /* a verdict could not be kept: see object_check() */
};

struct out {
	const struct opts *o;
	int json_first;
	struct script *script; /* --bpftrace, --perf: written at the end */
	struct globs *globs;   /* which globs matched */
	int status;
	FILE *f;
};

/*
 * Group OBJ->f's sites, load its type records, and (CHECK) find whether
 * perf drops the whole file. 0 or -ENOMEM.
 */
int object_init(struct object *obj, int check);
/* When some verdict of OBJ could not be kept: an error on stderr, status 2. */
void object_said_oom(struct out *o, const struct object *obj);
void object_fini(struct object *obj);

/* OBJ is PO, mapped in a process: its attach path, or why none. */
void object_of_mapped(struct object *obj, const struct proc_object *po);

/* The first site of group G. */
const struct sdt_probe *group_probe(const struct object *obj,
				    const struct group *g);

/* The probes a glob of the command line selects (all without globs). */
int object_wanted(const struct opts *o, const struct sdt_note *n);
/* Probe N's PROVIDER:NAME matches glob PATTERN. */
int object_wanted_by(const char *pattern, const struct sdt_note *n);

/*
 * --- globs.c ---
 * Which globs matched a probe of some input; at the end, each that did
 * not is an error naming the nearest probes. globs_new() is NULL when
 * out of memory; globs_report() returns 1 when some glob matched nothing.
 */
struct globs;
struct globs *globs_new(const struct opts *o);
void globs_see(struct globs *gs, const struct opts *o,
	       const struct object *obj);
/* The same for an inventory's file, before its unselected probes go. */
void globs_see_file(struct globs *gs, const struct opts *o,
		    const struct sdt_elf *f);
int globs_report(const struct globs *gs, const struct opts *o);
void globs_free(struct globs *gs);

/* Facts about one site, for every output. */
struct site {
	const struct sdt_probe *p;
	uint64_t addr;
	int has_off, has_sema_off;
	uint64_t off, sema_off;
	const char *section;
	int in_code; /* in executable code: not a stale note */
	int outside; /* in no loadable segment of a linked file */
	/* -p */
	int has_runtime;
	uint64_t runtime, sema_runtime;
	int sema_read; /* 0 ok, else -errno */
	unsigned sema_value;
};

void site_facts(const struct object *obj, const struct sdt_probe *p,
		struct site *s);

/* The verdicts of every consumer on P's spec (judged once per spec). */
const struct verdict_set *object_check(struct object *obj,
				       const struct sdt_probe *p);

/*
 * Each consumer's first refusal over every site of G into WORST (NULL where
 * it reads them all); 1 when some site is bad.
 */
int group_worst(struct object *obj, const struct group *g,
		const struct verdict *worst[CONSUMER_COUNT]);

/* Why a stale site is one. */
extern const char stale_why[];

/*
 * ADDR as a person reads it: 0x401136, or `.text+0x6' in a .o file;
 * addr_string() unescaped into BUF, put_addr() escaped for a terminal.
 */
void addr_string(char *buf, size_t len, const struct sdt_sym_ref *ref,
		 uint64_t addr);
void put_addr(FILE *out, const struct sdt_sym_ref *ref, uint64_t addr);

/*
 * "NAME: x86_64 shared object or PIE executable in a memfd, attach as
 * /proc/PID/fd/N", without a newline.
 */
void put_object_heading(FILE *out, const struct object *obj);

/* --- signature.c --- */

/* One signature right at every site of a probe, and what differed. */
/*
 * How the sites of one argument encode it: the ones that read a value
 * (a register, memory) and the ones that record a constant (`$1'). A
 * constant reads the same whatever size and sign encode it, as long as
 * they hold its value: gcc 12 writes a bool true as `-4@$1', gcc 15 as
 * `1@$1'.
 */
struct enc_merge {
	int seen;
	int size, is_signed; /* widest; signed if any site is */
	int size_differs, sign_differs;
};

struct arg_enc {
	struct enc_merge var, cst; /* the sites that read, the constants */
	int64_t const_min;	   /* the constants' values, lowest (<= 0) */
	uint64_t const_max;	   /* and highest (>= 0) */
};

struct group_sig {
	struct signature sig; /* the common arguments, widest, signs agreed */
	unsigned min_nargs, max_nargs; /* argument counts over the sites */
	unsigned size_differs;	       /* bit N: argument N's size differs */
	unsigned sign_differs; /* bit N: its sign differs (shown signed) */
	unsigned unsigned8;    /* bit N: some site has it unsigned 8 bytes */
	struct arg_enc enc[SDT_MAX_ARGS];
};

/* 1 when every constant of E reads the same as SIZE bytes of that sign. */
int enc_consts_fit(const struct arg_enc *e, int size, int is_signed);

void group_signature(const struct object *obj, const struct group *g,
		     struct group_sig *gs);

/* --- layout.c, btstruct.c --- */

/*
 * What argument A points at, when it is a pointer to a struct or union
 * whose layout the object carries (*SOURCE says where it was found);
 * NULL otherwise, with *MISSING saying how to get one where the argument
 * is such a pointer but no layout was found (else NULL).
 */
struct sdt_layout;
const struct sdt_layout *arg_layout(const struct object *obj,
				    const struct sig_arg *a,
				    const char **source, const char **missing);
void layout_forget(struct object *obj);
/* -v: the fields of each struct P's arguments point at. */
void layout_verbose(FILE *out, const struct object *obj,
		    const struct sdt_probe *p);
/* --json: `,"layout":{...}' for argument A when it points at a struct. */
void layout_json(FILE *out, const struct object *obj, const struct sig_arg *a);
/*
 * --bpftrace: the program's probes are held until layout_bt_end() puts
 * the struct declarations they need ahead of them; layout_bt_probe()
 * prints the fields of each struct P's arguments point at.
 */
void layout_bt_begin(struct out *o);
void layout_bt_end(struct out *o);
void layout_bt_probe(FILE *out, const struct object *obj,
		     const struct sdt_probe *p, const struct signature *sig,
		     unsigned shown);

/* --- walk.c, host.c: inventories (records written by inventory.c) --- */

/* Every object with probes under PATHS (ONE_FS: -x). Exit status. */
int walk_run(struct out *o, char **paths, size_t n, int one_fs);
/* Every process we can read, by object. Exit status. */
int host_run(struct out *o);

/* --- the outputs --- */

void summary_object(struct out *o, struct object *obj);
void verbose_object(struct out *o, struct object *obj);
void json_object(struct out *o, struct object *obj);
void bpftrace_object(struct out *o, struct object *obj);
void perf_object(struct out *o, struct object *obj);

/*
 * --bpftrace, --perf: the header (how to run it depends on every object)
 * and what the objects wrote. 0, or -ENOMEM.
 */
int script_end(struct out *o);

/*
 * The sites of G record different fields for perf: `perf probe -a
 * sdt_PROV:NAME' stops at "File exists" after the first site.
 */
int perf_sites_differ(const struct object *obj, const struct group *g);

#endif
