/* SPDX-License-Identifier: MIT */
/*
 * Inside the two inventory modes of sdt-list: what walk.c (every object
 * with probes under some directories) and host.c (every object some
 * process maps, with those processes) share with inventory.c, which
 * writes their records: the text listing with its totals, or one JSON
 * record per object (docs/inventory.schema.json). The rest of sdt-list
 * sees walk_run() and host_run() in sdt-list.h.
 */
#ifndef SDT_LIST_INVENTORY_H
#define SDT_LIST_INVENTORY_H

#include <sys/stat.h>
#include <sys/types.h>

#include "sdt-list.h"

/* A build-id longer than this is shown as none (SHA-1 ones are 20). */
#define INV_BUILD_ID_MAX 64

/* One process that maps an object. */
struct inv_proc {
	int pid;
	char *exe;	 /* its executable, as it sees it */
	char *path;	 /* the object's path as the process sees it */
	char *cgroup;	 /* its cgroup v2 path, or NULL */
	char *mnt_ns;	 /* "mnt:[N]" when not ours, else NULL */
	char *root;	 /* its root when a chroot, else NULL */
	size_t file;	 /* which of the record's files it maps */
	int has_bias;	 /* its load address is known */
	long *semaphore; /* per group: value, -1 unread, -2 none */
};

/* One file behind a record: a record may stand for several copies. */
struct inv_file {
	dev_t dev;
	ino_t ino;
	char *path; /* a path to it from our mount namespace */
	/* -a: why no path reaches it (PATH is then the process's name for
	 * it, not one to attach to), else NULL */
	char *no_attach;
};

/* One object: a build-id, else one file (device and inode). */
struct inv_record {
	struct sdt_elf f;
	int fd;
	int is_elf; /* set by inv_record_read() even when it returns 0 */
	struct object obj;
	unsigned char build_id[INV_BUILD_ID_MAX];
	int build_id_len; /* 0: none */
	uint64_t size;
	struct inv_file *files;
	size_t nfiles;
	struct inv_proc *procs;
	size_t nprocs;
};

/* What an inventory found, for its last line or JSON member. */
struct inv_totals {
	size_t files;	/* regular files read (walk) or objects mapped */
	size_t elves;	/* of them ELF */
	size_t objects; /* with probes */
	size_t probes, sites;
	size_t processes, unreadable, gone; /* host */
};

/* The file open on FD starts as ELF files do (one pread, no stat). */
int inv_elf_magic(int fd);

/*
 * Read the ELF object open on FD (the record keeps FD, closing it in
 * inv_record_free()) into REC, named NAME from our mount namespace.
 * Returns 1 with REC ready (object_init() done) when it has probes, 0
 * when it has none the globs select or is not ELF (FD closed), or a
 * negative errno with the reason in ERR. Notes it could not read (the
 * file's warning) leave ERR set with 0 or 1: the caller says so.
 */
int inv_record_read(struct inv_record *rec, const struct out *o, int fd,
		    const char *name, char *err, size_t errlen);
void inv_record_free(struct inv_record *rec);

/* Add a file or a process to REC; 0 or -ENOMEM. */
int inv_add_file(struct inv_record *rec, dev_t dev, ino_t ino,
		 const char *path);
int inv_add_proc(struct inv_record *rec, const struct inv_proc *p);

/* The build-id in hex into BUF (2 * INV_BUILD_ID_MAX + 1), "" if none. */
void inv_build_id_hex(const struct inv_record *rec, char *buf);

/* peek.c: which of a directory's files are ELF, a few threads at once. */
struct peek_item {
	const char *name; /* in the directory */
	int fd;		  /* out: open on it when an ELF regular file, or -1 */
	int err;	  /* out: why it could not be opened (0: no matter) */
	struct stat st;	  /* out: when FD is open */
};
struct peek;
/* A pool of NTHREADS; NULL (no memory) works too, in one thread. */
struct peek *peek_start(unsigned nthreads);
void peek_stop(struct peek *pk);
/* Fill ITEMS, the N regular files of the directory open on DFD. */
void peek_batch(struct peek *pk, int dfd, struct peek_item *items, size_t n);

/* Start and end the run's output; one record in between, as it comes. */
void inv_begin(struct out *o);
void inv_record_out(struct out *o, struct inv_record *rec);
void inv_end(struct out *o, const struct inv_totals *t, int host);

/* What one record adds to the totals (the probes the globs select). */
void inv_count(const struct out *o, const struct inv_record *rec,
	       struct inv_totals *t);

#endif
