/* SPDX-License-Identifier: MIT */
/*
 * sdt-list --all-processes: the probes of every process we can read,
 * by object.
 *
 * "Which running processes, in which containers, carry this probe, and
 * which has its semaphore up?" Asked one process at a time (bpftrace -l
 * -p, tplist -p, sdt-list -p) the answer reads the same libraries once
 * per process. Here each process's maps are read (proc.c, which opens
 * every mapping safely and checks it is the mapped file), but an object
 * is read once, by the device and inode its mappings name; objects with
 * the same build-id (one image's libraries in several containers) make
 * one record with several files. Per process we keep only what differs:
 * where it loaded the object, the semaphores' values now, its cgroup, its
 * mount namespace when not ours, its root when it is chrooted, and the
 * path as it sees it.
 *
 * Processes come and go during the scan: one that is gone by the time we
 * read it is counted, not an error; one we may not read (another user's,
 * without root) is counted too. Tracers attach by file, from our mount
 * namespace: each file keeps a path that reaches it from here (the path
 * itself, else through the process's /proc/PID/root, else its fd).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "inventory.h"

/* What maps says of an object: which record holds it, if any. */
struct host_key {
	unsigned major, minor;
	uint64_t ino;
	long rec;    /* index in host->recs, -1: no probes */
	size_t file; /* which of the record's files */
};

struct host {
	struct out *o;
	struct inv_record **recs;
	size_t nrecs;
	struct host_key *keys;
	size_t nkeys;
	size_t *slots; /* index + 1 into keys, 0: free */
	size_t mask;
	struct inv_totals t;
	char our_mnt[64];
};

/* This process's facts every object it maps shares. */
struct host_proc {
	int pid;
	char exe[4096];
	char cgroup[4096];
	char mnt[64];	 /* "" when ours */
	char root[4096]; /* "" unless chrooted */
};

static int read_link(const char *path, char *buf, size_t len)
{
	ssize_t n = readlink(path, buf, len - 1);

	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

/* The cgroup v2 path ("0::/system.slice/x.service"), else the first. */
static void read_cgroup(int pid, char *buf, size_t len)
{
	char path[64], *line = NULL, *c;
	size_t cap = 0;
	FILE *f;

	buf[0] = 0;
	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
	if (!(f = fopen(path, "re")))
		return;
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = 0;
		c = strchr(line, ':');
		c = c ? strchr(c + 1, ':') : NULL;
		if (!c)
			continue;
		if (!buf[0] || !strncmp(line, "0::", 3))
			snprintf(buf, len, "%s", c + 1);
		if (!strncmp(line, "0::", 3))
			break;
	}
	free(line);
	fclose(f);
}

/*
 * 0, or -ENOENT for a process gone or a kernel thread (no executable),
 * -EACCES for one we may not read.
 */
static int proc_facts(const struct host *h, int pid, struct host_proc *hp)
{
	char path[64];
	int r;

	memset(hp, 0, sizeof(*hp));
	hp->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	if ((r = read_link(path, hp->exe, sizeof(hp->exe))) < 0)
		return r == -EPERM ? -EACCES : r;
	read_cgroup(pid, hp->cgroup, sizeof(hp->cgroup));
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
	if (read_link(path, hp->mnt, sizeof(hp->mnt)) < 0 ||
	    !strcmp(hp->mnt, h->our_mnt))
		hp->mnt[0] = 0;
	snprintf(path, sizeof(path), "/proc/%d/root", pid);
	/* Another namespace's root reads "/" from here: chroots only. */
	if (hp->mnt[0] || read_link(path, hp->root, sizeof(hp->root)) < 0 ||
	    !strcmp(hp->root, "/"))
		hp->root[0] = 0;
	return 0;
}

/* The path as the process sees it: a chroot's prefix taken off. */
static const char *seen_path(const struct host_proc *hp, const char *path)
{
	size_t n = strlen(hp->root);

	if (n && !strncmp(path, hp->root, n) && path[n] == '/')
		return path + n;
	return path;
}

static size_t key_hash(unsigned major, unsigned minor, uint64_t ino)
{
	uint64_t h =
		ino * 0x9e3779b97f4a7c15ull ^ ((uint64_t)major << 32 | minor);

	return (size_t)(h ^ h >> 31);
}

/*
 * The key of PO's file, or NULL. A host maps thousands of files in
 * thousands of processes: the keys are found through a hash of their
 * indexes (open addressing, at most half full; 0 is a free slot).
 */
static struct host_key *key_of(struct host *h, const struct proc_object *po)
{
	size_t i = key_hash(po->dev_major, po->dev_minor, po->ino);

	for (; h->slots && h->slots[i & h->mask]; i++) {
		struct host_key *k = &h->keys[h->slots[i & h->mask] - 1];

		if (k->ino == po->ino && k->major == po->dev_major &&
		    k->minor == po->dev_minor)
			return k;
	}
	return NULL;
}

static void slot_put(size_t *slots, size_t mask, const struct host_key *k,
		     size_t index)
{
	size_t i = key_hash(k->major, k->minor, k->ino);

	while (slots[i & mask])
		i++;
	slots[i & mask] = index + 1;
}

static int slots_grow(struct host *h)
{
	size_t cap = h->slots ? 2 * (h->mask + 1) : 256;
	size_t *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < h->nkeys; i++)
		slot_put(slots, cap - 1, &h->keys[i], i);
	free(h->slots);
	h->slots = slots;
	h->mask = cap - 1;
	return 0;
}

static struct host_key *add_key(struct host *h, const struct proc_object *po,
				long rec, size_t file)
{
	struct host_key *k;

	if ((!h->slots || 2 * (h->nkeys + 1) > h->mask + 1) &&
	    slots_grow(h) < 0)
		return NULL;
	k = realloc(h->keys, (h->nkeys + 1) * sizeof(*k));
	if (!k)
		return NULL;
	h->keys = k;
	k = &h->keys[h->nkeys];
	k->major = po->dev_major;
	k->minor = po->dev_minor;
	k->ino = po->ino;
	k->rec = rec;
	k->file = file;
	slot_put(h->slots, h->mask, k, h->nkeys++);
	return k;
}

/* The record REC belongs to by its build-id, else -1. */
static long same_build_id(const struct host *h, const struct inv_record *rec)
{
	for (size_t i = 0; rec->build_id_len && i < h->nrecs; i++) {
		const struct inv_record *r = h->recs[i];

		if (r->build_id_len == rec->build_id_len &&
		    !memcmp(r->build_id, rec->build_id,
			    (size_t)rec->build_id_len))
			return (long)i;
	}
	return -1;
}

static void host_error(struct host *h, int pid, const char *path,
		       const char *msg)
{
	fprintf(stderr, "sdt-list: pid %d: ", pid);
	put_text(stderr, path);
	fputs(": ", stderr);
	put_text(stderr, msg);
	fputc('\n', stderr);
	h->o->status = EXIT_INPUT;
}

/*
 * F is PO's file: when no path reaches it from here, F says why (and so
 * does a line on stderr). 0, or -ENOMEM.
 */
static int no_attach(const struct host_proc *hp, const struct proc_object *po,
		     struct inv_file *f)
{
	if (!po->no_attach[0])
		return 0;
	fprintf(stderr, "sdt-list: pid %d: ", hp->pid);
	put_text(stderr, po->path);
	fputs(": ", stderr);
	put_text(stderr, po->no_attach);
	fputs(": no path given to tracers\n", stderr);
	f->no_attach = strdup(po->no_attach);
	return f->no_attach ? 0 : -ENOMEM;
}

/*
 * Another process maps K's file by a path that reaches it where the first
 * one's did not: tracers get that one.
 */
static int better_path(struct host *h, const struct proc_object *po,
		       const struct host_key *k)
{
	struct inv_file *f = &h->recs[k->rec]->files[k->file];
	char *path;

	if (!f->no_attach || po->no_attach[0] || po->fd < 0)
		return 0;
	if (!(path = strdup(po->attach_path)))
		return -ENOMEM;
	free(f->path);
	free(f->no_attach);
	f->path = path;
	f->no_attach = NULL;
	return 0;
}

/*
 * A new record for PO, or a new file of one with its build-id; an object
 * that cannot be read is said once and not tried again. NULL: no memory.
 */
static struct host_key *read_object(struct host *h, const struct host_proc *hp,
				    const struct proc_object *po)
{
	struct inv_record *rec = calloc(1, sizeof(*rec)), **grown;
	const char *path = po->no_attach[0] ? po->path : po->attach_path;
	char err[256];
	long same;
	int fd, r;

	if (!rec)
		return NULL;
	fd = fcntl(po->fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, sizeof(err),
			 "cannot keep it open: %s (raise ulimit -n)",
			 strerror(errno));
		host_error(h, hp->pid, po->path, err);
		free(rec);
		return add_key(h, po, -1, 0);
	}
	h->t.files++;
	r = inv_record_read(rec, h->o, fd, path, err, sizeof(err));
	h->t.elves += rec->is_elf;
	if (err[0])
		host_error(h, hp->pid, po->path, err);
	if (r <= 0) {
		free(rec);
		return r == -ENOMEM ? NULL : add_key(h, po, -1, 0);
	}
	same = same_build_id(h, rec);
	if (same >= 0) {
		struct inv_record *into = h->recs[same];
		const struct inv_file *f = &rec->files[0];

		r = inv_add_file(into, f->dev, f->ino, f->path);
		inv_record_free(rec);
		free(rec);
		if (r < 0 || no_attach(hp, po, &into->files[into->nfiles - 1]))
			return NULL;
		return add_key(h, po, same, into->nfiles - 1);
	}
	grown = realloc(h->recs, (h->nrecs + 1) * sizeof(*grown));
	if (!grown) {
		inv_record_free(rec);
		free(rec);
		return NULL;
	}
	h->recs = grown;
	h->recs[h->nrecs++] = rec;
	if (no_attach(hp, po, &rec->files[0]))
		return NULL;
	return add_key(h, po, (long)h->nrecs - 1, 0);
}

/* Each probe's semaphore in process P, by group: -2 none, -1 unread. */
static long *semaphores(const struct inv_record *rec, const struct proc *p,
			const struct proc_object *po, int *has_bias)
{
	const struct object *obj = &rec->obj;
	long *v = calloc(obj->ngroups ? obj->ngroups : 1, sizeof(*v));
	uint64_t bias = 0;

	if (!v)
		return NULL;
	*has_bias = proc_runtime_addr(po, &rec->f, 0, &bias) == 0;
	for (size_t g = 0; g < obj->ngroups; g++) {
		const struct sdt_probe *pr = group_probe(obj, &obj->groups[g]);
		unsigned val;

		v[g] = -2;
		if (!pr->note.semaphore)
			continue;
		v[g] = -1;
		if (*has_bias &&
		    proc_read_u16(p, &rec->f.target, pr->note.semaphore + bias,
				  &val) == 0)
			v[g] = val;
	}
	return v;
}

static int add_proc(struct host *h, const struct host_proc *hp,
		    const struct proc *p, const struct proc_object *po,
		    const struct host_key *k)
{
	struct inv_record *rec = h->recs[k->rec];
	struct inv_proc ip = { .pid = hp->pid, .file = k->file };

	/* Two paths to one file in one process (a bind mount): once. */
	if (rec->nprocs && rec->procs[rec->nprocs - 1].pid == hp->pid &&
	    rec->procs[rec->nprocs - 1].file == k->file)
		return 0;
	ip.exe = strdup(seen_path(hp, hp->exe));
	ip.path = strdup(seen_path(hp, po->path));
	ip.cgroup = hp->cgroup[0] ? strdup(hp->cgroup) : NULL;
	ip.mnt_ns = hp->mnt[0] ? strdup(hp->mnt) : NULL;
	ip.root = hp->root[0] ? strdup(hp->root) : NULL;
	ip.semaphore = semaphores(rec, p, po, &ip.has_bias);
	if (!ip.exe || !ip.path || (hp->cgroup[0] && !ip.cgroup) ||
	    (hp->mnt[0] && !ip.mnt_ns) || (hp->root[0] && !ip.root) ||
	    !ip.semaphore || inv_add_proc(rec, &ip) < 0) {
		free(ip.exe);
		free(ip.path);
		free(ip.cgroup);
		free(ip.mnt_ns);
		free(ip.root);
		free(ip.semaphore);
		return -ENOMEM;
	}
	return 0;
}

static int scan_object(struct host *h, const struct host_proc *hp,
		       const struct proc *p, const struct proc_object *po)
{
	struct host_key *k = key_of(h, po);

	if (!k) {
		/* Not ours to read here: maybe through another process. */
		if (po->fd < 0)
			return 0;
		k = read_object(h, hp, po);
		if (!k)
			return -ENOMEM;
	}
	if (k->rec < 0)
		return 0;
	if (better_path(h, po, k) < 0)
		return -ENOMEM;
	return add_proc(h, hp, p, po, k);
}

/*
 * Between listing /proc and reading a process, it may exit (then its
 * directory goes, or it is a zombie with no mappings): counted as gone.
 * A kernel thread has no executable and nothing to list.
 */
static int scan_pid(struct host *h, int pid)
{
	struct host_proc *hp = malloc(sizeof(*hp));
	char path[64], err[512];
	struct proc p;
	int r;

	if (!hp)
		return -ENOMEM;
	snprintf(path, sizeof(path), "/proc/%d", pid);
	r = proc_facts(h, pid, hp);
	if (r == -EACCES)
		h->t.unreadable++;
	else if (r < 0)
		h->t.gone += access(path, F_OK) != 0;
	else if ((r = proc_open(&p, pid, err, sizeof(err))) < 0)
		h->t.gone++;
	if (r < 0) {
		free(hp);
		return 0;
	}
	h->t.processes++;
	r = 0;
	for (size_t i = 0; i < p.nobjs && r == 0; i++)
		r = scan_object(h, hp, &p, &p.objs[i]);
	proc_close(&p);
	free(hp);
	return r;
}

static int by_pid(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Every process id in /proc, in order; NULL on failure (errno set). */
static int *all_pids(size_t *n)
{
	DIR *d = opendir("/proc");
	int *pids = NULL, *grown;
	size_t cap = 0;
	struct dirent *e;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			grown = realloc(pids, cap * sizeof(*pids));
			if (!grown) {
				free(pids);
				closedir(d);
				errno = ENOMEM;
				return NULL;
			}
			pids = grown;
		}
		pids[(*n)++] = atoi(e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(pids, *n, sizeof(*pids), by_pid);
	return pids ? pids : calloc(1, sizeof(*pids));
}

int host_run(struct out *o)
{
	struct host h = { .o = o };
	size_t n;
	int *pids = all_pids(&n), r = 0;

	if (!pids) {
		fprintf(stderr, "sdt-list: cannot list /proc: %s\n",
			strerror(errno));
		return EXIT_INPUT;
	}
	if (read_link("/proc/self/ns/mnt", h.our_mnt, sizeof(h.our_mnt)) < 0)
		h.our_mnt[0] = 0;
	for (size_t i = 0; i < n && r == 0; i++)
		r = scan_pid(&h, pids[i]);
	if (r < 0) {
		fputs("sdt-list: out of memory\n", stderr);
		o->status = EXIT_INPUT;
	}
	inv_begin(o);
	for (size_t i = 0; i < h.nrecs; i++) {
		inv_count(o, h.recs[i], &h.t);
		inv_record_out(o, h.recs[i]);
		inv_record_free(h.recs[i]);
		free(h.recs[i]);
	}
	inv_end(o, &h.t, 1);
	free(h.recs);
	free(h.keys);
	free(h.slots);
	free(pids);
	return o->status;
}
