/* SPDX-License-Identifier: MIT */
/*
 * sdt-list DIR...: every object with probes under some directories.
 *
 * "Which programs on this machine have probes?" is a question about a
 * tree, not a file: most of its files are scripts, data or objects
 * without notes, and an answer that names each of them buries the few
 * that matter. So the walk lists only objects with probes (through
 * inventory.c, as records) and ends with what it read.
 *
 * The tree may be anyone's, and root may be walking it: symbolic links
 * are not followed (as find does by default; a link given on the command
 * line is), so no link loop or link into another tree is walked; a
 * directory is entered once by device and inode, so a bind mount of a
 * directory inside itself ends too; a device is never opened and a FIFO
 * never waited on (readdir's kind, else fstatat without following links,
 * then an open with O_NOFOLLOW and O_NONBLOCK, checked with fstat once
 * its first bytes say ELF, which a FIFO's never do); each ELF file is read
 * once however many hard links name it. --one-file-system stays on the
 * device of each directory named, as find -xdev does. Entries are visited
 * in name order, so two walks of one tree list alike.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inventory.h"

/* Deeper trees are reported, not walked: each level holds a descriptor. */
#define WALK_DEPTH_MAX 256
#define WALK_PATH_MAX 4096
/* Files peeked at in parallel: disks answer many reads at once. */
#define WALK_THREADS 8
/* The most files a walk holds open at once (fewer under a low ulimit -n). */
#define WALK_OPEN_MAX 64

/* The inodes met so far: open addressing over (device, inode). */
struct seen_key {
	dev_t dev;
	ino_t ino;
};

struct seen {
	struct seen_key *keys;
	size_t mask, n;
};

struct walk {
	struct out *o;
	struct seen seen;
	struct inv_totals t;
	int one_fs;
	dev_t top_dev;
	struct peek *pk;
	char path[WALK_PATH_MAX];
};

static size_t seen_hash(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev;

	return (size_t)(h ^ h >> 29);
}

static int seen_grow(struct seen *s)
{
	size_t cap = s->keys ? (s->mask + 1) * 2 : 1024;
	struct seen_key *k = calloc(cap, sizeof(*k));

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; s->keys && i <= s->mask; i++) {
		size_t j = seen_hash(s->keys[i].dev, s->keys[i].ino);

		if (!s->keys[i].ino)
			continue;
		while (k[j & (cap - 1)].ino)
			j++;
		k[j & (cap - 1)] = s->keys[i];
	}
	free(s->keys);
	s->keys = k;
	s->mask = cap - 1;
	return 0;
}

/* 1 when ST's inode was met before, else 0 (now it is), or -ENOMEM. */
static int seen_before(struct seen *s, const struct stat *st)
{
	size_t i;

	if ((s->n + 1) * 2 > (s->keys ? s->mask + 1 : 0) && seen_grow(s) < 0)
		return -ENOMEM;
	for (i = seen_hash(st->st_dev, st->st_ino);; i++) {
		struct seen_key *k = &s->keys[i & s->mask];

		if (!k->ino) {
			k->dev = st->st_dev;
			k->ino = st->st_ino ? st->st_ino : 1;
			s->n++;
			return 0;
		}
		if (k->dev == st->st_dev && k->ino == st->st_ino)
			return 1;
	}
}

static void walk_error(struct walk *w, const char *path, const char *msg)
{
	fputs("sdt-list: ", stderr);
	put_text(stderr, path);
	fputs(": ", stderr);
	put_text(stderr, msg);
	fputc('\n', stderr);
	w->o->status = EXIT_INPUT;
}

static void walk_errno(struct walk *w, const char *path, const char *what,
		       int err)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "%s: %s", what, strerror(err));
	walk_error(w, path, msg);
}

/* seen_before() for the walk at w->path: out of memory is said. */
static int seen_once(struct walk *w, const struct stat *st)
{
	int r = seen_before(&w->seen, st);

	if (r < 0)
		walk_error(w, w->path, "out of memory: not read");
	return r;
}

/* One regular file open on FD: listed when it is an object with probes. */
static void read_file(struct walk *w, int fd, const char *path, int named)
{
	struct inv_record rec;
	char err[256];
	int r;

	w->t.files++;
	r = inv_record_read(&rec, w->o, fd, path, err, sizeof(err));
	if (err[0])
		walk_error(w, path, err);
	if (r < 0)
		return;
	w->t.elves += rec.is_elf;
	if (r == 0) {
		/* Not ELF, or no probes: said only of a file one named. */
		if (named && !rec.is_elf)
			walk_error(w, path, "not an ELF file");
		else if (named)
			fprintf(stderr, "sdt-list: %s: no probes\n", path);
		return;
	}
	inv_count(w->o, &rec, &w->t);
	inv_record_out(w->o, &rec);
	inv_record_free(&rec);
}

/* A directory entry: its name and, where the file system says, kind. */
struct name {
	char *s;
	unsigned char type;
	int kind;    /* S_IFREG, S_IFDIR, or 0: passed over */
	size_t item; /* S_IFREG: its peek_item */
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct name *)a)->s, ((const struct name *)b)->s);
}

/* The entries of directory D but links, sorted; NULL with *N 0 if none. */
static struct name *dir_names(DIR *d, size_t *n, int *err)
{
	struct name *names = NULL, *grown;
	size_t cap = 0;
	struct dirent *e;

	*n = 0;
	*err = 0;
	errno = 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (e->d_type == DT_LNK)
			continue; /* not followed */
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			grown = realloc(names, cap * sizeof(*names));
			if (!grown)
				goto nomem;
			names = grown;
		}
		names[*n].type = e->d_type;
		if (!(names[*n].s = strdup(e->d_name)))
			goto nomem;
		++*n;
	}
	*err = errno;
	if (*n)
		qsort(names, *n, sizeof(*names), by_name);
	return names;
nomem:
	*err = ENOMEM;
	return names;
}

static void walk_dir(struct walk *w, int dfd, size_t len, int depth);

/*
 * The kind of entry NAME is, from readdir where the file system says:
 * then no stat is needed before the open, which checks it again. Only
 * root makes device nodes, and a FIFO swapped in for a regular file
 * opens without blocking (O_NONBLOCK) and fails the check after.
 */
static int entry_kind(struct walk *w, int dfd, const char *name,
		      unsigned char type, struct stat *st)
{
	if (type == DT_REG || type == DT_DIR)
		return type == DT_REG ? S_IFREG : S_IFDIR;
	if (fstatat(dfd, name, st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT) /* gone since readdir: not an error */
			walk_errno(w, w->path, "cannot stat", errno);
		return 0;
	}
	return (int)(st->st_mode & S_IFMT);
}

/* w->path becomes the path of entry NAME: 0, or -1 when too long. */
static int enter(struct walk *w, size_t len, const char *name)
{
	size_t nlen = strlen(name);

	if (len + 1 + nlen >= sizeof(w->path)) {
		w->path[len] = 0;
		walk_error(w, w->path,
			   "an entry's path is longer than 4095 bytes: not "
			   "walked");
		return -1;
	}
	w->path[len] = '/';
	memcpy(w->path + len + 1, name, nlen + 1);
	return 0;
}

/* Subdirectory NAME of the directory open on DFD. */
static void walk_subdir(struct walk *w, int dfd, const char *name, size_t len,
			int depth)
{
	struct stat st;
	int fd = openat(dfd, name,
			O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_DIRECTORY);

	if (fd < 0) {
		/* Gone, or something else put in its place: passed over. */
		if (errno != ENOENT && errno != ELOOP && errno != ENOTDIR)
			walk_errno(w, w->path, "cannot open", errno);
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    (w->one_fs && st.st_dev != w->top_dev) || seen_once(w, &st) != 0) {
		close(fd);
		return;
	}
	walk_dir(w, fd, len + 1 + strlen(name), depth + 1);
}

/* A regular file, peeked at: listed when an object with probes. */
static void walk_file(struct walk *w, struct peek_item *it)
{
	if (it->err) {
		walk_errno(w, w->path, "cannot open", it->err);
		return;
	}
	if (it->fd < 0) {
		w->t.files++; /* not ELF (or gone): not a word */
		return;
	}
	if (seen_once(w, &it->st) != 0) {
		close(it->fd);
		return;
	}
	read_file(w, it->fd, w->path, 0);
}

/*
 * The kind of each of NAMES, and an item for each regular file (its ITEM
 * says which); nothing is opened yet.
 */
static struct peek_item *file_items(struct walk *w, int dfd, struct name *names,
				    size_t n, size_t len)
{
	struct peek_item *items = calloc(n ? n : 1, sizeof(*items));
	size_t m = 0;

	if (!items)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		struct stat st;

		names[i].kind = 0;
		if (enter(w, len, names[i].s) < 0)
			continue;
		names[i].kind =
			entry_kind(w, dfd, names[i].s, names[i].type, &st);
		if (names[i].kind != S_IFREG)
			continue;
		names[i].item = m;
		items[m].fd = -1;
		items[m++].name = names[i].s;
	}
	return items;
}

/*
 * How many files to hold open at once, at directory DEPTH (each level holds
 * its directory's descriptor): a directory of thousands of objects must not
 * run out of descriptors, whatever `ulimit -n' says.
 */
static size_t window(int depth)
{
	struct rlimit rl;
	rlim_t room;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return WALK_OPEN_MAX;
	/* stdin, stdout, stderr, the directories, and a little to spare */
	room = rl.rlim_cur > (rlim_t)depth + 16 ? rl.rlim_cur - depth - 16 : 1;
	return room / 2 < WALK_OPEN_MAX ? (room / 2 ? room / 2 : 1)
					: WALK_OPEN_MAX;
}

/*
 * Open and peek at the regular files from NAMES[I] on, up to the next
 * subdirectory (walked with none of them open) and at most window() of
 * them: the files of one window are peeked at together (peek.c). Returns
 * the item after the last one peeked at.
 */
static size_t peek_window(struct walk *w, int dfd, struct name *names, size_t i,
			  size_t n, struct peek_item *items, int depth)
{
	size_t first = names[i].item, m = 0, max = window(depth);

	for (; i < n && m < max && names[i].kind != S_IFDIR; i++)
		if (names[i].kind == S_IFREG)
			m++;
	peek_batch(w->pk, dfd, items + first, m);
	return first + m;
}

/* The directory open on DFD (closed here), whose path is w->path[0..len). */
static void walk_dir(struct walk *w, int dfd, size_t len, int depth)
{
	struct peek_item *items = NULL;
	struct name *names;
	size_t n;
	int err;
	DIR *d;

	w->path[len] = 0;
	if (depth > WALK_DEPTH_MAX) {
		walk_error(w, w->path,
			   "more than 256 directory levels deep: not walked");
		close(dfd);
		return;
	}
	d = fdopendir(dfd);
	if (!d) {
		walk_errno(w, w->path, "cannot read directory", errno);
		close(dfd);
		return;
	}
	names = dir_names(d, &n, &err);
	if (err == ENOMEM)
		walk_error(w, w->path, "out of memory: listed in part");
	else if (err)
		walk_errno(w, w->path, "cannot read directory", err);
	if (n && !(items = file_items(w, dirfd(d), names, n, len))) {
		walk_error(w, w->path, "out of memory: not walked");
		n = 0;
	}
	for (size_t i = 0, peeked = 0; i < n; i++) {
		/* Links, FIFOs, devices, sockets: never opened. */
		if (names[i].kind == S_IFDIR && enter(w, len, names[i].s) == 0)
			walk_subdir(w, dirfd(d), names[i].s, len, depth);
		if (names[i].kind != S_IFREG)
			continue;
		if (names[i].item >= peeked)
			peeked = peek_window(w, dirfd(d), names, i, n, items,
					     depth);
		if (enter(w, len, names[i].s) == 0)
			walk_file(w, &items[names[i].item]);
		else if (items[names[i].item].fd >= 0)
			close(items[names[i].item].fd);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i].s);
	free(items);
	free(names);
	closedir(d);
}

/* A command-line argument: a link to it is followed, as find -H does. */
static void walk_top(struct walk *w, const char *arg)
{
	size_t len = strlen(arg);
	struct stat st, fst;
	int fd;

	if (stat(arg, &st) < 0) {
		walk_errno(w, arg, "cannot stat", errno);
		return;
	}
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
		walk_error(w, arg, "not a directory or regular file: not read");
		return;
	}
	if (len >= sizeof(w->path)) {
		walk_error(w, arg, "path longer than 4095 bytes");
		return;
	}
	fd = open(arg, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY |
			       (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0));
	if (fd < 0 || fstat(fd, &fst) < 0 || fst.st_ino != st.st_ino ||
	    fst.st_dev != st.st_dev) {
		walk_errno(w, arg, "cannot open", fd < 0 ? errno : EAGAIN);
		if (fd >= 0)
			close(fd);
		return;
	}
	if (seen_once(w, &st) != 0) {
		close(fd);
		return;
	}
	memcpy(w->path, arg, len + 1);
	/* "/usr/" and "/usr" list the same paths. */
	while (len > 1 && w->path[len - 1] == '/')
		len--;
	if (len == 1 && w->path[0] == '/')
		len = 0;
	w->top_dev = st.st_dev;
	if (S_ISDIR(st.st_mode))
		walk_dir(w, fd, len, 0);
	else
		read_file(w, fd, arg, 1);
}

int walk_run(struct out *o, char **paths, size_t n, int one_fs)
{
	struct walk *w = calloc(1, sizeof(*w));

	if (!w) {
		fputs("sdt-list: out of memory\n", stderr);
		return EXIT_INPUT;
	}
	w->o = o;
	w->one_fs = one_fs;
	w->pk = peek_start(WALK_THREADS);
	inv_begin(o);
	for (size_t i = 0; i < n; i++)
		walk_top(w, paths[i]);
	inv_end(o, &w->t, 0);
	peek_stop(w->pk);
	free(w->seen.keys);
	free(w);
	return o->status;
}
