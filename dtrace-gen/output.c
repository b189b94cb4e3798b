/* SPDX-License-Identifier: MIT */
/*
 * Writing an output file the way careful tools do: nobody ever sees half
 * of it, a failed or killed run leaves the earlier one as it was, and
 * nobody else can steer the write somewhere we would not have written.
 *
 * Where. dtrace-gen runs as root in package builds, often in directories
 * others can write to. So the name is resolved by hand, one symbolic link
 * at a time, each from a descriptor on the directory the link sits in,
 * and a link is followed only where the kernel itself would follow it for
 * open(O_WRONLY): fs.protected_symlinks refuses, in a sticky
 * world-writable directory, a link owned by neither the follower nor the
 * directory's owner. A file planted there by someone else is refused
 * too, where fs.protected_regular refuses the O_CREAT open a shell's `>'
 * does: its owner could edit our output before the build reads it.
 * Everything after that works from the final directory's descriptor, so
 * a name swapped under us cannot redirect it.
 *
 * How. A regular file (or a name not taken yet) is written to a fresh
 * temporary beside it, created with O_EXCL, and renamed over it once
 * complete: rename() is atomic within one file system, and never follows
 * a link. The temporary's name has a fixed, short length, so any name
 * that fits NAME_MAX still has a temporary that fits. A file replaced
 * keeps its mode and, where we may give it away (we own it, or we are
 * root), its owner and group: writing through open() would have kept
 * them too. (No fsync: like compilers, we leave durability to the file
 * system; ext4 flushes a file renamed over another by itself.)
 *
 * Signals. A run killed while the temporary exists must neither leave it
 * behind nor install a half-written file. So every signal is held while
 * the temporary exists (one system call, where catching each fatal
 * signal would take some fifty: dtrace-gen's time is mostly process
 * start-up). Before the rename, a signal that arrived meanwhile and
 * would end the process (SIGINT, SIGTERM, SIGXFSZ from a file size
 * limit, SIGUSR1, a real-time signal, ...) makes us remove the temporary
 * instead; releasing the signals then ends the process by that signal,
 * with its default action, as the parent expects. A write to a local
 * file does not block for long, so holding signals delays them by no
 * more than the write itself.
 *
 * Other targets. One that exists and is not a regular file (-o /dev/null,
 * a pipe, a terminal) is written in place, from a complete image in
 * memory: there is nothing to replace. A link in /proc (/dev/stdout leads
 * to /proc/self/fd/1) names an open file, not a path: the kernel opens
 * it, appending: `> probes.h' left the file empty, `>> build.log' keeps
 * what it had. A standard stream that was closed when we started holds a
 * placeholder (dg_output_guard_std_fds), which is refused there: writing
 * into it would be writing nothing at all.
 */
#define _GNU_SOURCE /* memfd_create, O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "dtrace-gen.h"
#include "elfobj.h"

#define MAX_LINKS 40 /* the kernel's own limit on links in one lookup */
#define PROC_FS_MAGIC 0x9fa0
#define TEMP_PREFIX ".dtrace-gen-"
#define TEMP_LEN (sizeof(TEMP_PREFIX) - 1 + 8)
#define CLOSED_FD_LINK "/memfd:" DG_CLOSED_FD_NAME

enum target_kind {
	TARGET_NEW,	/* nothing there: create it */
	TARGET_REGULAR, /* a file: replace it */
	TARGET_SPECIAL, /* a device, a pipe: write in place */
	TARGET_PROC,	/* a /proc link: the kernel opens it */
};

/* The output's final name, once links are followed. */
struct target {
	char *text; /* the path being resolved (a link's text after a hop) */
	const char *base; /* its last component, inside TEXT */
	int dirfd;	  /* the directory BASE lives in */
	struct stat st;	  /* what BASE is, unfollowed */
	enum target_kind kind;
};

/* Signals whose default action is to ignore, stop or continue. */
static int harmless_signal(int sig)
{
	return sig == SIGCHLD || sig == SIGCONT || sig == SIGURG ||
	       sig == SIGWINCH || sig == SIGTSTP || sig == SIGTTIN ||
	       sig == SIGTTOU;
}

/*
 * Did a signal arrive while they were held that will end the process
 * once they are not? One neither ignored nor held by whoever started us.
 */
static int fatal_signal_pending(const sigset_t *saved)
{
	struct sigaction act;
	sigset_t pending;
	int sig;

	if (sigpending(&pending))
		return 0;
	for (sig = 1; sig <= SIGRTMAX; sig++) {
		if (!sigismember(&pending, sig) || sigismember(saved, sig) ||
		    harmless_signal(sig))
			continue;
		if (!sigaction(sig, NULL, &act) && act.sa_handler != SIG_IGN)
			return 1;
	}
	return 0;
}

int dg_output_guard_std_fds(void)
{
	struct pollfd fds[3] = { { .fd = 0 }, { .fd = 1 }, { .fd = 2 } };
	int closed = 0, i;

	if (poll(fds, 3, 0) < 0)
		return 0;
	/* Lowest first, so each placeholder lands on its own number. */
	for (i = 0; i < 3; i++) {
		if (!(fds[i].revents & POLLNVAL))
			continue;
		closed |= 1 << i;
		if (memfd_create(DG_CLOSED_FD_NAME, 0) != i)
			break;
	}
	return closed;
}

static int fail(struct dg_diag *diag, const char *path, const char *what,
		int err)
{
	dg_error(diag, path, "%s: %s", what, strerror(err));
	return -1;
}

/* Its directory cannot be opened, or written to. */
static int no_room(struct dg_diag *diag, const char *path)
{
	dg_error(diag, path,
		 "cannot create a temporary file beside it: %s; check that "
		 "its directory exists and is writable",
		 strerror(errno));
	return -1;
}

/* Copy what FROM holds (from its start) to TO. */
static int copy_fd(int from, int to)
{
	char chunk[65536];
	ssize_t n;

	if (lseek(from, 0, SEEK_SET))
		return -1;
	while ((n = read(from, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || sdt_write_all(to, chunk, (size_t)n))
			return -1;
	}
	return 0;
}

/* A /proc link to a standard stream that was closed when we started. */
static int names_closed_stream(const struct target *t)
{
	char link[sizeof(CLOSED_FD_LINK)];
	ssize_t n = readlinkat(t->dirfd, t->base, link, sizeof(link));

	return n == (ssize_t)sizeof(link) &&
	       !memcmp(link, CLOSED_FD_LINK, sizeof(link) - 1);
}

static int open_in_place(const struct target *t, const char *path,
			 struct dg_diag *diag)
{
	int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC, fd;

	if (t->kind == TARGET_PROC && names_closed_stream(t))
		return fail(diag, path,
			    "cannot open for writing: the stream "
			    "it names was closed",
			    EBADF);
	/*
	 * Through /proc the link may lead to a regular file: the one behind
	 * `> probes.h' (the shell emptied it) or `>> build.log'. Appending
	 * writes where the stream's own writes would have gone, in both.
	 */
	flags |= t->kind == TARGET_PROC ? O_APPEND : O_NOFOLLOW;
	fd = openat(t->dirfd, t->base, flags);
	if (fd < 0)
		return fail(diag, path, "cannot open for writing", errno);
	return fd;
}

/*
 * The output is built in memory first (libelf wants a file it can seek
 * in, which a pipe or /dev/null is not), then copied out.
 */
static int write_in_place(const struct target *t, const char *path,
			  dg_write_fn write_fn, void *ctx, struct dg_diag *diag)
{
	int mem = memfd_create("dtrace-gen", MFD_CLOEXEC), fd, r;

	if (mem < 0)
		return fail(diag, path, "cannot make a memory file", errno);
	r = write_fn(mem, ctx);
	fd = r ? -1 : open_in_place(t, path, diag);
	if (fd >= 0) {
		r = copy_fd(mem, fd);
		if (close(fd))
			r = -1;
		if (r)
			fail(diag, path, "cannot write", errno);
	}
	close(mem);
	return fd < 0 ? -1 : r;
}

/* A /proc/sys/fs/NAME setting (0, 1, 2); 1 when it cannot be read. */
static int fs_setting(const char *name)
{
	char path[64], c = '1';
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/fs/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &c, 1) != 1 || c < '0' || c > '9')
			c = '1';
		close(fd);
	}
	return c - '0';
}

/*
 * Whether T's entry sits in a sticky directory and belongs to neither us
 * nor the directory's owner: what the kernel's fs.protected_* settings
 * guard against (someone planting it for us). Gives the directory's mode.
 * The file system uid is the effective one; root is not exempt.
 */
static int planted(const struct target *t, mode_t *dir_mode)
{
	struct stat dir;

	if (t->st.st_uid == geteuid() || fstat(t->dirfd, &dir))
		return 0;
	*dir_mode = dir.st_mode;
	return (dir.st_mode & S_ISVTX) && dir.st_uid != t->st.st_uid;
}

/* The kernel's rule for following a link (fs/namei.c may_follow_link). */
static int may_follow(const struct target *t)
{
	mode_t dir;

	return !planted(t, &dir) || !(dir & S_IWOTH) ||
	       !fs_setting("protected_symlinks");
}

/*
 * The kernel's rule for opening an existing file with O_CREAT, as a
 * shell's `>' or SystemTap's dtrace does (may_create_in_sticky): a file
 * planted in /tmp is refused, not filled with our output for its owner
 * to edit before the build includes it.
 */
static int may_replace(const struct target *t)
{
	const char *name = S_ISREG(t->st.st_mode)    ? "protected_regular"
			   : S_ISFIFO(t->st.st_mode) ? "protected_fifos"
						     : NULL;
	mode_t dir;

	if (!name || !planted(t, &dir) || !(dir & (S_IWOTH | S_IWGRP)))
		return 1;
	return fs_setting(name) < (dir & S_IWOTH ? 1 : 2);
}

static int refuse(const struct target *t, const char *path, const char *setting,
		  struct dg_diag *diag)
{
	dg_error(diag, path,
		 "cannot open for writing: %s: `%s' is in a sticky directory "
		 "others can write to, and belongs neither to you nor to the "
		 "directory's owner (fs.%s)",
		 strerror(EACCES), t->text, setting);
	return -1;
}

/* Open the directory TEXT's last component lives in, relative to AT. */
static int open_parent(struct target *t, int at)
{
	char *slash = strrchr(t->text, '/');
	int fd;

	t->base = slash ? slash + 1 : t->text;
	if (!slash)
		return openat(at, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	*slash = '\0';
	fd = openat(at, slash == t->text ? "/" : t->text,
		    O_PATH | O_DIRECTORY | O_CLOEXEC);
	*slash = '/';
	return fd;
}

/* Replace TEXT by the text of the link at T. */
static int read_link(struct target *t)
{
	char buf[PATH_MAX];
	ssize_t n = readlinkat(t->dirfd, t->base, buf, sizeof(buf));
	char *text;

	if (n < 0)
		return -1;
	if ((size_t)n >= sizeof(buf) || !n) {
		errno = n ? ENAMETOOLONG : ENOENT;
		return -1;
	}
	text = strndup(buf, (size_t)n);
	if (!text)
		return -1;
	free(t->text);
	t->text = text;
	return 0;
}

/* /proc/self/fd and the like: links there are open files, not paths. */
static int on_procfs(int dirfd)
{
	struct statfs fs;

	return !fstatfs(dirfd, &fs) && fs.f_type == PROC_FS_MAGIC;
}

/* Sort out what T's last component is, once it is no link. */
static int classify(struct target *t, const char *path, struct dg_diag *diag)
{
	if (S_ISDIR(t->st.st_mode))
		return fail(diag, path, "cannot write it", EISDIR);
	if (!may_replace(t))
		return refuse(t, path,
			      S_ISREG(t->st.st_mode) ? "protected_regular"
						     : "protected_fifos",
			      diag);
	t->kind = S_ISREG(t->st.st_mode) ? TARGET_REGULAR : TARGET_SPECIAL;
	return 0;
}

static int resolve(struct target *t, const char *path, struct dg_diag *diag)
{
	int at = AT_FDCWD, hops;

	if (!*path)
		return fail(diag, NULL, "the output's name is empty", ENOENT);
	t->text = strdup(path);
	if (!t->text)
		return fail(diag, path, "cannot resolve it", ENOMEM);
	for (hops = 0;; hops++) {
		t->dirfd = open_parent(t, at);
		if (at >= 0)
			close(at);
		if (t->dirfd < 0)
			return no_room(diag, path);
		if (!*t->base)
			return fail(diag, path, "cannot write it", EISDIR);
		if (fstatat(t->dirfd, t->base, &t->st, AT_SYMLINK_NOFOLLOW)) {
			if (errno != ENOENT)
				return fail(diag, path, "cannot look at it",
					    errno);
			t->kind = TARGET_NEW;
			return 0;
		}
		if (!S_ISLNK(t->st.st_mode))
			return classify(t, path, diag);
		if (hops == MAX_LINKS)
			return fail(diag, path, "cannot open for writing",
				    ELOOP);
		if (!may_follow(t))
			return refuse(t, path, "protected_symlinks", diag);
		if (on_procfs(t->dirfd)) {
			t->kind = TARGET_PROC;
			return 0;
		}
		if (read_link(t))
			return fail(diag, path, "cannot read the link", errno);
		at = t->dirfd;
	}
}

/* A fresh file named TEMP_PREFIX and 8 random hex digits in DIRFD. */
static int make_temp(int dirfd, char *name, mode_t mode)
{
	unsigned tries, rnd;
	int fd = -1;

	for (tries = 0; tries < 64; tries++) {
		if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != sizeof(rnd))
			rnd = ((unsigned)getpid() ^ tries) * 2654435761u;
		snprintf(name, TEMP_LEN + 1, TEMP_PREFIX "%08x", rnd);
		fd = openat(dirfd, name,
			    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    mode);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	return fd;
}

static int no_temp(const struct target *t, const char *path,
		   struct dg_diag *diag)
{
	int err = errno;

	/* /dev/fd/9 with nothing open as 9: nothing can be made there. */
	if (on_procfs(t->dirfd))
		return fail(diag, path, "cannot open for writing", ENOENT);
	errno = err;
	return no_room(diag, path);
}

/*
 * What the file being replaced had. Giving the file away fails unless we
 * own it or are root; then at least its group, where we are a member.
 */
static void keep_owner_and_mode(int fd, const struct stat *st)
{
	struct stat now;

	/* Only when they differ: a chown costs ext4 a millisecond. */
	if ((fstat(fd, &now) || now.st_uid != st->st_uid ||
	     now.st_gid != st->st_gid) &&
	    fchown(fd, st->st_uid, st->st_gid))
		(void)!fchown(fd, (uid_t)-1, st->st_gid);
	fchmod(fd, st->st_mode & (S_IRWXU | S_IRWXG | S_IRWXO | S_ISVTX));
}

/*
 * All signals are held from before the temporary exists until it is
 * renamed or removed; one that arrived meanwhile and would kill us
 * undoes the temporary instead of the rename, then takes effect.
 */
static int replace(const struct target *t, const char *path,
		   dg_write_fn write_fn, void *ctx, struct dg_diag *diag)
{
	char name[TEMP_LEN + 1];
	sigset_t all, saved;
	int fd, r;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &saved);
	/* A new file gets what open(O_CREAT, 0666) would have given it. */
	fd = make_temp(t->dirfd, name, t->kind == TARGET_NEW ? 0666 : 0600);
	if (fd < 0) {
		r = no_temp(t, path, diag);
		goto out;
	}
	if (t->kind == TARGET_REGULAR)
		keep_owner_and_mode(fd, &t->st);
	r = write_fn(fd, ctx);
	if (close(fd) && !r)
		r = fail(diag, path, "cannot write", errno);
	if (!r && fatal_signal_pending(&saved))
		r = -1;
	if (!r && renameat(t->dirfd, name, t->dirfd, t->base))
		r = fail(diag, path, "cannot replace it", errno);
	if (r)
		unlinkat(t->dirfd, name, 0);
out:
	sigprocmask(SIG_SETMASK, &saved, NULL);
	return r;
}

int dg_output_atomic(const char *path, dg_write_fn write_fn, void *ctx,
		     struct dg_diag *diag)
{
	struct target t = { .dirfd = -1 };
	int r = resolve(&t, path, diag);

	if (!r && (t.kind == TARGET_NEW || t.kind == TARGET_REGULAR))
		r = replace(&t, path, write_fn, ctx, diag);
	else if (!r)
		r = write_in_place(&t, path, write_fn, ctx, diag);
	if (t.dirfd >= 0)
		close(t.dirfd);
	free(t.text);
	return r;
}
