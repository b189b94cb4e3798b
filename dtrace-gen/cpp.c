/* SPDX-License-Identifier: MIT */
/*
 * -C: the .d file goes through the C preprocessor first (PostgreSQL's
 * probes.d #defines its own type names; others #include or #if).
 *
 * The command is $CPP (default `cpp'), split into words the way a shell
 * would, as SystemTap's dtrace does, followed by the -I/-D/-U options in
 * the order given, then `-x c' (a `.d' file is D source to gcc's driver)
 * and the input. Its output is read from a pipe: no temporary file, so
 * parallel runs cannot collide and nothing is left behind. Its stderr is
 * ours, so its own diagnostics reach the user unchanged. The line markers
 * in its output let errors point into the original file.
 *
 * The file is someone else's (sdt-list --against runs as root over
 * provider files others wrote), so the run is bounded: a name can never
 * be an option (`-okeep.d' goes as `./-okeep.d', or gcc would write
 * keep.d), and what never ends is stopped with a clear error. An
 * `#include' of a FIFO blocks cpp forever, one of /dev/zero grows cc1 by
 * a gigabyte a second, a terminal stops it (its process group is in the
 * background). So cpp runs in a process group of its own, with at most
 * CPP_DATA_MAX of data (cc1 then fails with its own "out of memory"),
 * for at most CPP_SECONDS, writing at most CPP_OUTPUT_MAX; past a bound
 * the whole group is killed, cc1 with it (`cpp -E' writes no temporary
 * file). The signals a user ends us with end that group first. A .d file
 * takes cpp some 20 ms: the bounds are far from any real one.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dtrace-gen.h"

void dg_argv_free(char **argv, size_t argc)
{
	size_t i;

	if (!argv)
		return;
	for (i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

static int push_word(char ***argv, size_t *argc, struct dg_buf *w)
{
	char **nv = realloc(*argv, (*argc + 2) * sizeof(**argv));
	char *s;

	if (!nv)
		return -ENOMEM;
	*argv = nv;
	s = strdup(w->data ? w->data : "");
	if (!s || w->failed) {
		free(s);
		return -ENOMEM;
	}
	nv[(*argc)++] = s;
	nv[*argc] = NULL;
	w->len = 0;
	if (w->data)
		w->data[0] = '\0';
	return 0;
}

/*
 * POSIX shell quoting without expansions: blanks separate words, '...'
 * is literal, "..." keeps its backslash escapes for \ " $ ` and newline,
 * a backslash outside quotes takes the next character literally. Returns
 * 0, -EINVAL for an unterminated quote, or -ENOMEM.
 */
int dg_shell_split(const char *s, char ***argv, size_t *argc)
{
	struct dg_buf w = { 0 };
	int in_word = 0, err = 0;

	*argv = NULL;
	*argc = 0;
	while (*s && !err) {
		char c = *s++;

		if (c == ' ' || c == '\t' || c == '\n') {
			if (in_word)
				err = push_word(argv, argc, &w);
			in_word = 0;
			continue;
		}
		in_word = 1;
		if (c == '\'') {
			const char *q = strchr(s, '\'');

			if (!q) {
				err = -EINVAL;
				break;
			}
			dg_buf_add(&w, s, (size_t)(q - s));
			s = q + 1;
		} else if (c == '"') {
			while (*s && *s != '"') {
				if (*s == '\\' && s[1] &&
				    strchr("\\\"$`\n", s[1])) {
					/* An escaped newline joins lines. */
					if (s[1] != '\n')
						dg_buf_add(&w, s + 1, 1);
					s += 2;
					continue;
				}
				dg_buf_add(&w, s++, 1);
			}
			if (!*s) {
				err = -EINVAL;
				break;
			}
			s++;
		} else if (c == '\\') {
			if (*s && *s != '\n')
				dg_buf_add(&w, s, 1);
			if (*s)
				s++;
		} else {
			dg_buf_add(&w, &c, 1);
		}
	}
	if (!err && in_word)
		err = push_word(argv, argc, &w);
	if (!err && w.failed)
		err = -ENOMEM;
	dg_buf_free(&w);
	if (err) {
		dg_argv_free(*argv, *argc);
		*argv = NULL;
		*argc = 0;
	}
	return err;
}

static int build_argv(const char *cpp, const char *const *flags, size_t nflags,
		      const char *input, char ***argvp, size_t *argcp,
		      struct dg_diag *diag)
{
	const char *tail[] = { "-x", "c", input };
	size_t argc, i, n = sizeof(tail) / sizeof(tail[0]);
	char **argv, **nv;
	int err;

	/* An empty -I would take the next word as its directory. */
	for (i = 0; i < nflags; i++) {
		if (!flags[i][2]) {
			dg_error(diag, NULL,
				 "option `%s' has an empty value: give a "
				 "directory or a macro name",
				 flags[i]);
			return -1;
		}
	}
	err = dg_shell_split(cpp, &argv, &argc);
	if (err == -EINVAL) {
		dg_error(diag, NULL,
			 "CPP=`%s' has an unterminated quote; fix the "
			 "variable or unset it to use `cpp'",
			 cpp);
		return -1;
	}
	if (!err && !argc) {
		dg_argv_free(argv, argc);
		return build_argv("cpp", flags, nflags, input, argvp, argcp,
				  diag);
	}
	nv = err ? NULL : realloc(argv, (argc + nflags + n + 1) * sizeof(*nv));
	if (!nv)
		goto nomem;
	argv = nv;
	for (i = 0; i < nflags + n; i++) {
		argv[argc] = strdup(i < nflags ? flags[i] : tail[i - nflags]);
		if (!argv[argc])
			goto nomem;
		argv[++argc] = NULL;
	}
	*argvp = argv;
	*argcp = argc;
	return 0;
nomem:
	dg_argv_free(argv, argc);
	dg_error(diag, NULL, "out of memory starting the preprocessor");
	return -1;
}

/* The limits of one run (see the top of the file). */
#define CPP_SECONDS 5
#define CPP_DATA_MAX (256ul << 20)
#define CPP_OUTPUT_MAX (16ul << 20)

/* The signals that end us by default and that a user sends on purpose:
 * the preprocessor's group must end with us. */
static const int ending_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/*
 * The child: a process group of its own (so the whole group, cc1 and all,
 * can be killed), a bound on its data, our pipe as its stdout. Only
 * async-signal-safe calls until exec. An exec failure goes to the parent
 * through ERRFD (close-on-exec: it reads end of file once exec works).
 */
static void run_child(char **argv, int outfd, int errfd, const sigset_t *mask,
		      const struct dg_cpp_user *as) __attribute__((noreturn));

static void run_child(char **argv, int outfd, int errfd, const sigset_t *mask,
		      const struct dg_cpp_user *as)
{
	struct rlimit rl;
	int e;

	setpgid(0, 0);
	if (as && (setgroups(0, NULL) || setresgid(as->gid, as->gid, as->gid) ||
		   setresuid(as->uid, as->uid, as->uid)))
		goto failed;
	if (!getrlimit(RLIMIT_DATA, &rl)) {
		if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > CPP_DATA_MAX)
			rl.rlim_max = CPP_DATA_MAX;
		if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > rl.rlim_max)
			rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_DATA, &rl);
	}
	if (dup2(outfd, STDOUT_FILENO) >= 0) {
		sigprocmask(SIG_SETMASK, mask, NULL);
		execvp(argv[0], argv);
	}
failed:
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Reads the child's output until end of file, the deadline, more than
 * CPP_OUTPUT_MAX bytes, or one of the ending signals (whose number goes
 * to *SIG; it stays consumed: the caller raises it again). Returns 0 at
 * end of file, -ETIMEDOUT, -EFBIG, -EINTR for a signal, or -errno.
 */
static int read_bounded(int fd, int sigfd, long long deadline, int *sig,
			struct dg_buf *out)
{
	char chunk[65536];
	ssize_t n;

	for (;;) {
		struct pollfd p[2] = { { .fd = fd, .events = POLLIN },
				       { .fd = sigfd, .events = POLLIN } };
		long long left = deadline - now_ms();
		int r;

		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(p, 2, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (p[1].revents) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) == sizeof(si) &&
			    si.ssi_signo != SIGCHLD) {
				*sig = (int)si.ssi_signo;
				return -EINTR;
			}
		}
		if (!p[0].revents)
			continue;
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		if ((size_t)n > CPP_OUTPUT_MAX - out->len)
			return -EFBIG;
		dg_buf_add(out, chunk, (size_t)n);
	}
}

/* The group ends whatever it does; then the child is reaped. */
static void kill_group(pid_t pid)
{
	int status;

	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/*
 * After end of file: the child's exit status, within the deadline (a
 * preprocessor that closed its output and went on is killed). SIGCHLD is
 * among the signals SIGFD reads. Returns 0, -ETIMEDOUT, -EINTR (signal in
 * *SIG) or -errno.
 */
static int wait_bounded(pid_t pid, int sigfd, long long deadline, int *sig,
			int *status)
{
	for (;;) {
		struct pollfd p = { .fd = sigfd, .events = POLLIN };
		struct signalfd_siginfo si;
		long long left = deadline - now_ms();
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)left) <= 0)
			continue;
		if (read(sigfd, &si, sizeof(si)) == sizeof(si) &&
		    si.ssi_signo != SIGCHLD) {
			*sig = (int)si.ssi_signo;
			return -EINTR;
		}
	}
}

/*
 * Input names go to the preprocessor as files, never as options: one
 * that starts with `-' (`-okeep.d' would be gcc's -o, `-' its standard
 * input) is given as `./NAME', the same file.
 */
static const char *input_arg(const char *input, char **own)
{
	*own = NULL;
	if (input[0] != '-')
		return input;
	*own = malloc(strlen(input) + 3);
	if (*own) {
		memcpy(*own, "./", 2);
		strcpy(*own + 2, input);
	}
	return *own;
}

static void report_status(int status, const char *prog, const char *input,
			  struct dg_diag *diag)
{
	if (WIFSIGNALED(status))
		dg_error(diag, input,
			 "the preprocessor `%s' was killed by "
			 "signal %d",
			 prog, WTERMSIG(status));
	else
		dg_error(diag, input,
			 "the preprocessor `%s' failed (exit status %d); its "
			 "messages are above",
			 prog, WEXITSTATUS(status));
}

int dg_preprocess(const char *cpp, const char *const *flags, size_t nflags,
		  const char *input, struct dg_buf *out, struct dg_diag *diag)
{
	return dg_preprocess_as(cpp, flags, nflags, input, NULL, out, diag);
}

int dg_preprocess_as(const char *cpp, const char *const *flags, size_t nflags,
		     const char *input, const struct dg_cpp_user *as,
		     struct dg_buf *out, struct dg_diag *diag)
{
	int pipefd[2] = { -1, -1 }, errpipe[2] = { -1, -1 }, sigfd = -1;
	int status = 0, err, e, sig = 0, r = -1;
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old_chld;
	sigset_t ending, old;
	char **argv = NULL, *own;
	const char *arg = input_arg(input, &own);
	long long deadline;
	size_t argc = 0;
	pid_t pid;

	if (!arg) {
		dg_error(diag, NULL, "out of memory starting the preprocessor");
		return -1;
	}
	err = build_argv(cpp, flags, nflags, arg, &argv, &argc, diag);
	free(own);
	if (err)
		return -1;
	sigemptyset(&ending);
	for (size_t i = 0; i < sizeof(ending_signals) / sizeof(int); i++)
		sigaddset(&ending, ending_signals[i]);
	/* The child's end wakes the wait; an ignored SIGCHLD would not. */
	sigaddset(&ending, SIGCHLD);
	if (pipe2(pipefd, O_CLOEXEC) || pipe2(errpipe, O_CLOEXEC)) {
		dg_error(diag, NULL,
			 "cannot make a pipe for the preprocessor: %s",
			 strerror(errno));
		goto out;
	}
	/* Held from before the fork: a signal that arrives from here on
	 * ends the preprocessor's group first, then us. */
	sigaction(SIGCHLD, &dfl, &old_chld);
	sigprocmask(SIG_BLOCK, &ending, &old);
	sigfd = signalfd(-1, &ending, SFD_CLOEXEC);
	if (sigfd < 0) {
		dg_error(diag, NULL, "cannot watch signals: %s",
			 strerror(errno));
		goto unmask;
	}
	pid = fork();
	if (pid < 0) {
		dg_error(diag, NULL, "cannot start the preprocessor: %s",
			 strerror(errno));
		goto unmask;
	}
	if (pid == 0)
		run_child(argv, pipefd[1], errpipe[1], &old, as);
	setpgid(pid, pid); /* as the child does: whichever runs first */
	close(pipefd[1]);
	close(errpipe[1]);
	pipefd[1] = errpipe[1] = -1;
	deadline = now_ms() + CPP_SECONDS * 1000;
	if (read(errpipe[0], &e, sizeof(e)) == sizeof(e)) {
		kill_group(pid);
		dg_error(diag, NULL,
			 "cannot run the preprocessor `%s': %s; set CPP to one "
			 "that works",
			 argv[0], strerror(e));
		goto unmask;
	}
	err = read_bounded(pipefd[0], sigfd, deadline, &sig, out);
	if (!err)
		err = wait_bounded(pid, sigfd, deadline, &sig, &status);
	if (err)
		kill_group(pid);
	if (err == -ETIMEDOUT)
		dg_error(diag, input,
			 "the preprocessor `%s' did not finish in %d seconds "
			 "and was stopped: does the file include a FIFO, a "
			 "device, a terminal or something very large?",
			 argv[0], CPP_SECONDS);
	else if (err == -EFBIG)
		dg_error(diag, input,
			 "the preprocessor `%s' wrote more than %lu MiB and "
			 "was stopped: does the file include a device or "
			 "something that large?",
			 argv[0], CPP_OUTPUT_MAX >> 20);
	else if (err && err != -EINTR)
		dg_error(diag, input,
			 "cannot read the preprocessor's output: %s",
			 strerror(-err));
	else if (!err && (!WIFEXITED(status) || WEXITSTATUS(status)))
		report_status(status, argv[0], input, diag);
	else if (!err && out->failed)
		dg_error(diag, input,
			 "out of memory reading the "
			 "preprocessor's output");
	else if (!err)
		r = 0;
unmask:
	if (sigfd >= 0)
		close(sigfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
	if (sig) {
		/* Ended as the signal would have ended us, group first. */
		signal(sig, SIG_DFL);
		raise(sig);
	}
out:
	for (int i = 0; i < 2; i++) {
		if (pipefd[i] >= 0)
			close(pipefd[i]);
		if (errpipe[i] >= 0)
			close(errpipe[i]);
	}
	dg_argv_free(argv, argc);
	return r;
}
