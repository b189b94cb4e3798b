/* SPDX-License-Identifier: MIT */
/*
 * Writing an output file so that nobody ever sees half of it.
 *
 * make runs dtrace-gen in parallel, interrupts it, and reruns it after
 * failures. So the output is written to a fresh temporary file in the
 * target's own directory (rename() is atomic only within one file
 * system), named `.TARGET.XXXXXX' by mkstemp so that two runs never share
 * one, and renamed over the target only once complete. A failure removes
 * the temporary and leaves an earlier output untouched; termination
 * signals are held off in between, so an interrupted run cannot leave the
 * temporary behind either.
 *
 * A target that exists and is not a regular file (-o /dev/null, a pipe)
 * is written in place, once complete: there is nothing to replace. A
 * symbolic link is written through, as open() would: the file it leads
 * to is replaced and the link stays (renaming over the link itself would
 * turn `-o /dev/stdout > probes.h' into a regular file in /dev).
 */
#define _GNU_SOURCE /* mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dtrace-gen.h"
#include "elfobj.h"

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

/*
 * The output is built in memory first (libelf wants a file it can seek
 * in, which a pipe or /dev/null is not), then copied out.
 */
static int write_special(const char *path, int flags, dg_write_fn write_fn,
			 void *ctx, struct dg_diag *diag)
{
	int mem = memfd_create("dtrace-gen", MFD_CLOEXEC), fd, r;

	if (mem < 0) {
		dg_error(diag, path, "cannot make a memory file: %s",
			 strerror(errno));
		return -1;
	}
	r = write_fn(mem, ctx);
	if (r) {
		close(mem);
		return r;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | flags, 0666);
	if (fd < 0) {
		dg_error(diag, path, "cannot open for writing: %s",
			 strerror(errno));
		close(mem);
		return -1;
	}
	r = copy_fd(mem, fd);
	if (close(fd))
		r = -1;
	if (r)
		dg_error(diag, path, "cannot write: %s", strerror(errno));
	close(mem);
	return r;
}

/* The temporary's name: DIR/.BASE.XXXXXX, DIR being PATH's directory. */
static char *temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dirlen;
	size_t n = dirlen + 1 + strlen(base) + sizeof(".XXXXXX");
	char *t = malloc(n);

	if (t)
		snprintf(t, n, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
	return t;
}

static void file_mode(int fd)
{
	mode_t mask = umask(0);

	umask(mask);
	/* What open(O_CREAT, 0666) would have given the target. */
	fchmod(fd, 0666 & ~mask);
}

int dg_output_atomic(const char *path, dg_write_fn write_fn, void *ctx,
		     struct dg_diag *diag)
{
	sigset_t hold, saved;
	struct stat st;
	char *tmp, *real = NULL;
	const char *target = path;
	int fd, r = -1;

	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return write_special(path, 0, write_fn, ctx, diag);
	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		real = realpath(path, NULL);
		/* Dangling: create what it names, as open() would. */
		if (!real)
			return write_special(path, O_CREAT | O_TRUNC, write_fn,
					     ctx, diag);
		target = real;
	}
	tmp = temp_name(target);
	if (!tmp) {
		dg_error(diag, path, "out of memory");
		free(real);
		return -1;
	}
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigaddset(&hold, SIGPIPE);
	sigprocmask(SIG_BLOCK, &hold, &saved);

	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		dg_error(diag, path,
			 "cannot create a temporary file beside it: %s; check "
			 "that its directory exists and is writable",
			 strerror(errno));
		goto out;
	}
	file_mode(fd);
	r = write_fn(fd, ctx);
	if (close(fd) && !r) {
		dg_error(diag, path, "cannot write: %s", strerror(errno));
		r = -1;
	}
	if (!r && rename(tmp, target)) {
		dg_error(diag, path, "cannot replace it: %s", strerror(errno));
		r = -1;
	}
	if (r)
		unlink(tmp);
out:
	sigprocmask(SIG_SETMASK, &saved, NULL);
	free(tmp);
	free(real);
	return r;
}
