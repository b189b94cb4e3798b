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
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dtrace-gen.h"

extern char **environ;

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

static int read_all(int fd, struct dg_buf *out)
{
	char chunk[65536];
	ssize_t n;

	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		dg_buf_add(out, chunk, (size_t)n);
	}
}

static int wait_child(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

int dg_preprocess(const char *cpp, const char *const *flags, size_t nflags,
		  const char *input, struct dg_buf *out, struct dg_diag *diag)
{
	posix_spawn_file_actions_t fa;
	char **argv = NULL;
	size_t argc = 0;
	int pipefd[2], status, err, r = -1;
	pid_t pid;

	if (build_argv(cpp, flags, nflags, input, &argv, &argc, diag))
		return -1;
	if (pipe2(pipefd, O_CLOEXEC)) {
		dg_error(diag, NULL,
			 "cannot make a pipe for the preprocessor: %s",
			 strerror(errno));
		goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (err) {
		close(pipefd[0]);
		dg_error(diag, NULL,
			 "cannot run the preprocessor `%s': %s; set CPP to one "
			 "that works",
			 argv[0], strerror(err));
		goto out;
	}
	err = read_all(pipefd[0], out);
	close(pipefd[0]);
	if (wait_child(pid, &status) || err) {
		dg_error(diag, input,
			 "cannot read the preprocessor's output: %s",
			 strerror(err ? -err : errno));
		goto out;
	}
	if (WIFSIGNALED(status)) {
		dg_error(diag, input,
			 "the preprocessor `%s' was killed by "
			 "signal %d",
			 argv[0], WTERMSIG(status));
		goto out;
	}
	if (WEXITSTATUS(status)) {
		dg_error(diag, input,
			 "the preprocessor `%s' failed (exit status %d); its "
			 "messages are above",
			 argv[0], WEXITSTATUS(status));
		goto out;
	}
	if (out->failed) {
		dg_error(diag, input,
			 "out of memory reading the "
			 "preprocessor's output");
		goto out;
	}
	r = 0;
out:
	dg_argv_free(argv, argc);
	return r;
}
