/* SPDX-License-Identifier: MIT */
/*
 * A live process: which objects it has mapped, where, and what its
 * semaphores hold right now.
 *
 * /proc/PID/maps names every file-backed mapping. We open each object
 * through /proc/PID/map_files/START-END, which reaches deleted files and
 * memfds (libstapsdt's providers show up as "/memfd:NAME (deleted)") as
 * well as ordinary ones; without the privilege map_files needs we fall
 * back to the process's fd that holds a memfd, else to the path as the
 * process sees it, /proc/PID/root/PATH: the same path in our mount
 * namespace may be another file, or a FIFO that blocks whoever opens it.
 * The process's owner controls all of those, and root may be the one
 * listing: nothing is opened that could block, and nothing is read that
 * is not the mapped file by the device and inode maps gives.
 *
 * What we print for tracers to open later is held to the same rule: a
 * path that reaches the file we read (device and inode), or none. The
 * name maps gives is the process's to choose: a newline in it reads
 * `\012', as a file may be named; a link or a mount may stand at its path
 * in the process's namespace (/proc/PID/root/PATH follows both, and an
 * absolute link leads out of that root into ours). So a name is tried in
 * each of its readings and kept only where it reaches the file, else the
 * process's descriptor, else map_files; else the object has no attach
 * path and the outputs say why instead of naming one.
 *
 * Where a probe is at run time: the object is loaded at one bias (zero for
 * ET_EXEC). We find it from a probe's file offset (the core maps addresses
 * to offsets through the program headers) and the executable mapping that
 * holds that offset, so PIE executables, shared objects and memfd objects
 * are all handled the same way; semaphores are then at address + bias and
 * read through /proc/PID/mem.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "sdt-list.h"

__attribute__((format(printf, 4, 5))) static int
set_err(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return code;
}

/*
 * One object per mapped file: maps names a file by path, and dev:inode
 * tell two files behind the same path apart (a library replaced on disk,
 * two libstapsdt memfds of one name).
 */
int pid_parse(const char *s, int *pid)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v <= 0 || v > 0x7fffffff)
		return -1;
	*pid = (int)v;
	return 0;
}

static struct proc_object *object_for(struct proc *p, const char *path,
				      unsigned dev_major, unsigned dev_minor,
				      uint64_t ino)
{
	struct proc_object *o;

	for (size_t i = 0; i < p->nobjs; i++) {
		o = &p->objs[i];
		if (o->ino == ino && o->dev_major == dev_major &&
		    o->dev_minor == dev_minor && !strcmp(o->path, path))
			return o;
	}
	o = realloc(p->objs, (p->nobjs + 1) * sizeof(*o));
	if (!o)
		return NULL;
	p->objs = o;
	o = &p->objs[p->nobjs];
	memset(o, 0, sizeof(*o));
	o->path = strdup(path);
	if (!o->path)
		return NULL;
	p->nobjs++;
	o->dev_major = dev_major;
	o->dev_minor = dev_minor;
	o->ino = ino;
	o->fd = -1;
	o->is_memfd = !strncmp(path, "/memfd:", 7);
	return o;
}

static int add_map(struct proc_object *o, const struct proc_map *m)
{
	struct proc_map *n = realloc(o->maps, (o->nmaps + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	o->maps = n;
	o->maps[o->nmaps++] = *m;
	if (o->nmaps == 1 || m->start < o->lowest)
		o->lowest = m->start;
	return 0;
}

/*
 * ST is the file O's mappings show. Stackable file systems (overlayfs,
 * as in containers) showed in maps the device of the layer beneath,
 * with the same inode, before Linux 6.8: LAX_DEV accepts that where the
 * kernel itself names the mapped file (map_files), never for a path.
 */
static int same_file(const struct proc_object *o, const struct stat *st,
		     int lax_dev)
{
	if ((uint64_t)st->st_ino != o->ino)
		return 0;
	return lax_dev || (major(st->st_dev) == o->dev_major &&
			   minor(st->st_dev) == o->dev_minor);
}

/*
 * The file open on FD, which map_files gave for O with ST, is the one
 * maps showed: by device too, unless it is overlayfs's (the lax case
 * above). The range may have been mapped anew since maps was read.
 */
static int mapped_file(const struct proc_object *o, int fd,
		       const struct stat *st)
{
	struct statfs fs;

	if (same_file(o, st, 0))
		return 1;
	return same_file(o, st, 1) && fstatfs(fd, &fs) == 0 &&
	       fs.f_type == OVERLAYFS_SUPER_MAGIC;
}

/*
 * Open PATH when it is the file O maps: 0 with O->fd set; -EXDEV when it
 * is another file (another mount namespace, a file put in its place);
 * -ENODEV when the mapping is not of a regular file (a device: nothing to
 * list); else -errno. A FIFO or device is never opened (stat first), and
 * the open cannot block (O_NONBLOCK) if one is swapped in after the stat;
 * what was opened is checked again.
 */
static int open_checked(struct proc_object *o, const char *path, int lax_dev)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0)
		return -errno;
	if (!same_file(o, &st, lax_dev))
		return -EXDEV;
	if (!S_ISREG(st.st_mode))
		return -ENODEV;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    !(lax_dev ? mapped_file(o, fd, &st) : same_file(o, &st, 0))) {
		close(fd);
		return -EXDEV;
	}
	o->fd = fd;
	return 0;
}

/*
 * /proc/PID/maps writes a newline in a name as the four characters
 * `\012' and leaves a backslash as it is: a name holding `\012' may be
 * either. Each such sequence doubles the names to try; past this many
 * the name is not guessed at.
 */
#define MAX_NEWLINES 6

static size_t newlines(const char *raw)
{
	size_t n = 0;

	for (const char *s = raw; (s = strstr(s, "\\012")); s += 4)
		n++;
	return n;
}

/* RAW with the sequences whose bit is set in WHICH read as newlines. */
static void decode_name(const char *raw, unsigned which, char *buf, size_t len)
{
	size_t used = 0;
	unsigned bit = 0;

	while (*raw && used + 1 < len) {
		if (!strncmp(raw, "\\012", 4) && (which >> bit++ & 1)) {
			buf[used++] = '\n';
			raw += 4;
		} else {
			buf[used++] = *raw++;
		}
	}
	buf[used] = 0;
}

int path_is_file(const char *path, dev_t dev, ino_t ino)
{
	struct stat st;

	return stat(path, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
}

/*
 * The link's text TARGET is what maps shows as RAW: the name, its
 * newlines written `\012' as maps writes them.
 */
static int same_name(const char *target, const char *raw)
{
	for (; *target; target++) {
		if (*target == '\n') {
			if (strncmp(raw, "\\012", 4))
				return 0;
			raw += 4;
		} else if (*raw++ != *target) {
			return 0;
		}
	}
	return !*raw;
}

/*
 * The process's fd open on O (a memfd, a deleted file): its number, or
 * -1. Tracers attach through /proc/PID/fd/N where the path is no file.
 * The link's text picks the candidates (a stat of every descriptor could
 * wait on a remote file system), dev:inode the one: the text is the
 * process's to choose.
 */
static int fd_of(int pid, const struct proc_object *o)
{
	char dir[64], link[320], target[4096 + 16];
	struct dirent *e;
	struct stat st;
	int fd = -1;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	d = opendir(dir);
	if (!d)
		return -1;
	while (fd < 0 && (e = readdir(d))) {
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%s", dir, e->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		if (same_name(target, o->path) && stat(link, &st) == 0 &&
		    S_ISREG(st.st_mode) && same_file(o, &st, 0))
			fd = atoi(e->d_name);
	}
	closedir(d);
	return fd;
}

/* Why O is not listed, for a warning; nothing for a device mapping. */
static void say_why(struct proc_object *o, int r, int map_files_r,
		    const char *tried)
{
	if (r == -ENODEV)
		return;
	if (r == -EXDEV)
		snprintf(o->why, sizeof(o->why),
			 "not listed: %.300s is another file than the one "
			 "mapped (device and inode differ)",
			 tried);
	else if (map_files_r == -EPERM || map_files_r == -EACCES)
		snprintf(o->why, sizeof(o->why),
			 "not listed: cannot open %.300s: %s (reading "
			 "/proc/PID/map_files needs root)",
			 tried, strerror(-r));
	else
		snprintf(o->why, sizeof(o->why),
			 "not listed: cannot open %.300s: %s", tried,
			 strerror(-r));
}

/*
 * Open O by a name it may have: each reading of maps's escapes, from the
 * process's root (its mount namespace, not ours), then from ours (a
 * chroot: maps gives paths from our root). What is opened must be the
 * mapped file by maps's dev:inode. 0, or the first error.
 */
static int open_by_name(const struct proc *p, struct proc_object *o,
			char *tried, size_t len)
{
	size_t n = newlines(o->path);
	char name[4096], path[4096 + 64];
	int r = -ENOENT, first = 0;

	if (strlen(o->path) >= sizeof(name))
		return -ENAMETOOLONG;
	if (n > MAX_NEWLINES)
		n = 0; /* the name as written, no guessing */
	for (unsigned which = 0; which < 1u << n; which++) {
		decode_name(o->path, which, name, sizeof(name));
		for (int ours = 0; ours <= 1; ours++) {
			if (ours)
				snprintf(path, sizeof(path), "%s", name);
			else
				snprintf(path, sizeof(path), "/proc/%d/root%s",
					 p->pid, name);
			r = open_checked(o, path, 0);
			if (r == 0 || r == -ENODEV)
				return r;
			if (!first) {
				first = r;
				snprintf(tried, len, "%s", path);
			}
		}
	}
	return first ? first : r;
}

/*
 * Through map_files, which names the mapped file itself; else through
 * the process's fd (memfd, deleted), else by its name. Each is checked
 * against the mapping's dev:inode: a path can name another file.
 */
static void open_object(struct proc *p, struct proc_object *o)
{
	const struct proc_map *m = &o->maps[0];
	char map_files[128], tried[4096 + 64];
	int fd, r, rmf;

	snprintf(map_files, sizeof(map_files),
		 "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, p->pid, m->start,
		 m->end);
	rmf = r = open_checked(o, map_files, 1);
	if (r == 0 || r == -ENODEV)
		return;
	/* Without the privilege map_files needs: the fd, else the name. */
	snprintf(tried, sizeof(tried), "%s", map_files);
	fd = fd_of(p->pid, o);
	if (fd >= 0) {
		snprintf(tried, sizeof(tried), "/proc/%d/fd/%d", p->pid, fd);
		r = open_checked(o, tried, 0);
	} else {
		r = open_by_name(p, o, tried, sizeof(tried));
	}
	if (r < 0)
		say_why(o, r, rmf, tried);
}

/* PATH reaches O's file (the one we read): made O's attach path. */
static int try_attach(struct proc_object *o, const char *path)
{
	if (!path_is_file(path, o->st_dev, o->st_ino))
		return 0;
	snprintf(o->attach_path, sizeof(o->attach_path), "%s", path);
	return 1;
}

/*
 * The path tracers are to open for O, which is open: one that reaches the
 * file we read, by device and inode, as the kernel follows it now. By its
 * name (each reading of maps's escapes; the one that reaches it becomes
 * O's name): in our namespace first when the process shares it, through
 * /proc/PID/root first when not. Then the process's fd (a memfd, a deleted
 * file), then map_files. A name can lead elsewhere: the process's owner
 * may put a link or a mount at its path.
 */
static void choose_attach(const struct proc *p, struct proc_object *o)
{
	size_t n = newlines(o->path);
	const char *why = "its name, in our mount namespace and through "
			  "/proc/PID/root, leads to another file or to none";
	char name[4096], path[4096 + 64];
	struct stat st;
	int fd;

	if (fstat(o->fd, &st) < 0) {
		snprintf(o->no_attach, sizeof(o->no_attach),
			 "cannot stat what was read: %s", strerror(errno));
		return;
	}
	o->st_dev = st.st_dev;
	o->st_ino = st.st_ino;
	if (strlen(o->path) >= sizeof(name))
		n = MAX_NEWLINES + 1; /* no path that long to try */
	for (unsigned which = 0; n <= MAX_NEWLINES && which < 1u << n;
	     which++) {
		decode_name(o->path, which, name, sizeof(name));
		for (int i = 0; i < 2; i++) {
			int root = i == !p->other_mnt;

			snprintf(path, sizeof(path), "/proc/%d/root%s", p->pid,
				 name);
			if (try_attach(o, root ? path : name)) {
				memcpy(o->path, name, strlen(name) + 1);
				return;
			}
		}
	}
	fd = fd_of(p->pid, o);
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", p->pid, fd);
	if (fd >= 0 && try_attach(o, path)) {
		/* Its link's text is maps's name with its escapes undone. */
		ssize_t len = readlink(path, name, sizeof(name) - 1);

		if (len > 0) {
			name[len] = 0;
			if (same_name(name, o->path))
				memcpy(o->path, name, (size_t)len + 1);
		}
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64,
		 p->pid, o->maps[0].start, o->maps[0].end);
	if (try_attach(o, path))
		return;
	if (strlen(o->path) >= sizeof(name))
		why = "its name is longer than a path may be";
	else if (n > MAX_NEWLINES)
		why = "its name holds too many `\\012' to try each reading "
		      "(a newline, or those four characters)";
	snprintf(o->no_attach, sizeof(o->no_attach),
		 "no path reaches the mapped file from here: %s, the process "
		 "holds no descriptor for it, and /proc/%d/map_files cannot "
		 "be followed (root only)",
		 why, p->pid);
}

static int read_maps(struct proc *p, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	int r = 0;

	/* Whole lines, however long: a path must never read as a line. */
	while (r == 0 && getline(&line, &cap, f) >= 0) {
		struct proc_object *o;
		struct proc_map m;
		unsigned long long start, end, off, ino;
		unsigned maj, min;
		int pathpos = 0;
		char *path, *nl;

		memset(&m, 0, sizeof(m));
		if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start,
			   &end, m.perms, &off, &maj, &min, &ino,
			   &pathpos) < 7 ||
		    !pathpos)
			continue;
		path = line + pathpos;
		if ((nl = strchr(path, '\n')))
			*nl = 0;
		if (path[0] != '/')
			continue; /* anonymous, [heap], [vdso]... */
		m.start = start;
		m.end = end;
		m.offset = off;
		o = object_for(p, path, maj, min, ino);
		if (!o || add_map(o, &m) < 0)
			r = -ENOMEM;
	}
	free(line);
	return r;
}

/*
 * Whether PID's mount namespace is not ours, as bpftrace -p decides it
 * (by the namespace files' inodes; unreadable counts as ours).
 */
static int other_mount_ns(int pid)
{
	char path[64];
	struct stat ours, theirs;

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
	return stat("/proc/self/ns/mnt", &ours) == 0 &&
	       stat(path, &theirs) == 0 &&
	       (ours.st_ino != theirs.st_ino || ours.st_dev != theirs.st_dev);
}

int proc_open(struct proc *p, int pid, char *err, size_t errlen)
{
	char path[64];
	FILE *f;
	ssize_t n;
	int r;

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->mem_fd = -1;
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f) {
		r = -errno;
		if (r == -ENOENT)
			return set_err(err, errlen, r,
				       "no such process (%s does not exist)",
				       path);
		return set_err(err, errlen, r,
			       "cannot read %s: %s (run as root or as the "
			       "process's owner)",
			       path, strerror(-r));
	}
	r = read_maps(p, f);
	if (!r && ferror(f))
		r = -errno ? -errno : -EIO;
	fclose(f);
	if (r < 0) {
		proc_close(p);
		return set_err(err, errlen, r, "cannot read %s: %s", path,
			       strerror(-r));
	}
	if (p->nobjs == 0) {
		proc_close(p);
		return set_err(err, errlen, -EACCES,
			       "%s lists no mappings: the process is gone, a "
			       "kernel thread, or hidden from us (run as root)",
			       path);
	}
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	n = readlink(path, p->exe, sizeof(p->exe) - 1);
	p->exe[n > 0 ? n : 0] = 0;
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	p->mem_fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	p->other_mnt = other_mount_ns(pid);
	for (size_t i = 0; i < p->nobjs; i++) {
		open_object(p, &p->objs[i]);
		if (p->objs[i].fd >= 0)
			choose_attach(p, &p->objs[i]);
	}
	return 0;
}

void proc_close(struct proc *p)
{
	for (size_t i = 0; i < p->nobjs; i++) {
		if (p->objs[i].fd >= 0)
			close(p->objs[i].fd);
		free(p->objs[i].maps);
		free(p->objs[i].path);
	}
	free(p->objs);
	if (p->mem_fd >= 0)
		close(p->mem_fd);
	p->objs = NULL;
	p->nobjs = 0;
	p->mem_fd = -1;
}

/* The mapping that holds file offset OFF, preferring executable ones. */
static const struct proc_map *map_of_offset(const struct proc_object *o,
					    uint64_t off, int want_exec)
{
	for (size_t i = 0; i < o->nmaps; i++) {
		const struct proc_map *m = &o->maps[i];

		if (want_exec && m->perms[2] != 'x')
			continue;
		if (off >= m->offset && off - m->offset < m->end - m->start)
			return m;
	}
	return NULL;
}

/* The object's load bias, from where its probe sites are mapped. */
static int load_bias(const struct proc_object *o, const struct sdt_elf *f,
		     uint64_t *bias)
{
	for (int want_exec = 1; want_exec >= 0; want_exec--) {
		for (size_t i = 0; i < f->nprobes; i++) {
			uint64_t pc = sdt_probe_addr(f, &f->probes[i]), off;
			const struct proc_map *m;

			if (sdt_elf_addr_to_offset(f, pc, &off) < 0)
				continue;
			m = map_of_offset(o, off, want_exec);
			if (m) {
				*bias = m->start + (off - m->offset) - pc;
				return 0;
			}
		}
	}
	return -ENOENT;
}

int proc_runtime_addr(const struct proc_object *o, const struct sdt_elf *f,
		      uint64_t addr, uint64_t *runtime)
{
	uint64_t bias;

	if (load_bias(o, f, &bias) < 0)
		return -ENOENT;
	*runtime = addr + bias;
	return 0;
}

int proc_read_u16(const struct proc *p, const struct sdt_target *t,
		  uint64_t addr, unsigned *value)
{
	unsigned char b[2];
	ssize_t n;

	if (p->mem_fd < 0)
		return -EACCES;
	n = pread(p->mem_fd, b, 2, (off_t)addr);
	if (n < 0)
		return -errno;
	if (n != 2)
		return -EIO;
	*value = t->byte_order == ELFDATA2MSB ? (unsigned)(b[0] << 8 | b[1])
					      : (unsigned)(b[1] << 8 | b[0]);
	return 0;
}
