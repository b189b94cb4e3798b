/* SPDX-License-Identifier: MIT */
/*
 * dtrace-gen: the command line of SystemTap's `dtrace -h' / `dtrace -G',
 * which real builds call, in front of a generator that reads provider
 * descriptions properly and writes its outputs atomically.
 *
 * The options are SystemTap's, fixed where it was loose: -I/-D/-U also
 * in separate form, -s/-o also joined, exactly one -s; the
 * flags Solaris users pass (-32/-64 on x86, -fpic/-fPIC, -x ARG, -k,
 * --types) are accepted. -h and -G together write both files from one
 * reading (a build system's one step: meson's custom_target with two
 * outputs). Diagnostics go to stderr, nothing to stdout but
 * --help and --version (which fail if it cannot be written). Exit status
 * 0, or 1 after an error.
 *
 * This file only decides what to do; each stage is in its own file (see
 * dtrace-gen.h).
 */
#define _GNU_SOURCE /* strdup, O_CLOEXEC in strict C11 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dtrace-gen.h"
#include "elfobj.h"

/* What to write: -h, -G or both. */
enum { MODE_HEADER = 1, MODE_OBJECT = 2, MODE_BOTH = 3 };

struct options {
	int mode;
	const char *input;
	const char *output[2]; /* the last two -o, older first */
	int noutputs;	       /* how many -o were given */
	int cpp;
	const char **cpp_flags; /* -I/-D/-U, joined, in order */
	size_t ncpp_flags;
	const char **objects;
	size_t nobjects;
	int bits;
	int v1, v2;
};

/* After "usage: PROG". */
static const char usage_args[] =
	" -h|-G|-h -G -s FILE.d [-o OUTPUT]... [-C] [-I DIR] [-D NAME[=VALUE]] "
	"[-U NAME] [OBJECT...]\n";

static void usage(const char *prog)
{
	fputs("usage: ", stderr);
	dg_put_safe(stderr, prog);
	fputs(usage_args, stderr);
	fputs("Try `", stderr);
	dg_put_safe(stderr, prog);
	fputs(" --help' for more information.\n", stderr);
}

static void help(const char *prog)
{
	fputs("usage: ", stdout);
	dg_put_safe(stdout, prog);
	fputs(usage_args, stdout);
	printf("\n"
	       "Generate the header (-h) or the semaphore object (-G) for the "
	       "probes that\n"
	       "the provider description FILE.d declares; a drop-in for "
	       "SystemTap's dtrace.\n"
	       "\n"
	       "  -h            write a header with one macro per probe\n"
	       "  -G            write an object with one semaphore per probe\n"
	       "  -s FILE       read the provider description from FILE\n"
	       "  -o OUTPUT     write OUTPUT (default: FILE's base name with "
	       ".h or .o)\n"
	       "                -h -G: both, from one reading; -o twice, the "
	       "header's\n"
	       "                then the object's\n"
	       "  -C            run FILE through $CPP (default: cpp) first\n"
	       "  -I DIR, -D NAME[=VALUE], -U NAME\n"
	       "                passed to the preprocessor; -DSTAP_SDT_V2 "
	       "(or V1) also\n"
	       "                makes -G's semaphores visible outside the "
	       "module\n"
	       "  -32, -64      -G for 32- or 64-bit x86 when no OBJECT "
	       "says (else\n"
	       "                $CC and $CFLAGS decide: a cross compiler, "
	       "--target=, -m32)\n"
	       "  OBJECT...     with -G: the objects the probes are linked "
	       "with; the\n"
	       "                semaphore object takes their machine, and "
	       "the layouts of\n"
	       "                the structs probes point at from their "
	       "DWARF (-g); one\n"
	       "                that cannot be read is left out with a "
	       "warning\n"
	       "  -k, -x ARG, -fpic, -fPIC, --types\n"
	       "                accepted for compatibility, no effect\n"
	       "  --help        this text\n"
	       "  --version     the version\n");
}

/* STAP_SDT_V1/V2 decide -G's symbols, as they decide SystemTap's. */
static void track_define(struct options *o, const char *flag)
{
	const char *name = flag + 2;
	size_t n = strcspn(name, "=");
	int set = flag[1] == 'D';

	if (n == 11 && !strncmp(name, "STAP_SDT_V1", 11))
		o->v1 = set;
	else if (n == 11 && !strncmp(name, "STAP_SDT_V2", 11))
		o->v2 = set;
}

static int add_flag(const char ***list, size_t *n, const char *s)
{
	const char **nl = realloc(*list, (*n + 1) * sizeof(**list));

	if (!nl)
		return -1;
	nl[(*n)++] = s;
	*list = nl;
	return 0;
}

/* -I/-D/-U in either form, kept joined for cpp. */
static int cpp_flag(struct options *o, char **argv, int *i, int argc)
{
	const char *a = argv[*i];
	char *joined;

	if (a[2]) {
		joined = strdup(a);
	} else {
		if (*i + 1 >= argc)
			return -EINVAL;
		joined = malloc(strlen(argv[*i + 1]) + 3);
		if (joined)
			sprintf(joined, "%.2s%s", a, argv[++*i]);
	}
	if (!joined || add_flag(&o->cpp_flags, &o->ncpp_flags, joined)) {
		free(joined);
		return -ENOMEM;
	}
	if (a[1] != 'I')
		track_define(o, joined);
	return 0;
}

/* The argument of -s/-o: joined (-sFILE) or the next word. */
static const char *value(char **argv, int *i, int argc)
{
	if (argv[*i][2])
		return argv[*i] + 2;
	return *i + 1 < argc ? argv[++*i] : NULL;
}

/* Returns 0 to go on, 1 to stop with success, -1 to fail. */
static int parse_args(struct options *o, int argc, char **argv,
		      struct dg_diag *diag)
{
	const char *prog = diag->prog, *v, *a = NULL;
	int i, dashdash = 0, r;

	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (dashdash || a[0] != '-' || !a[1]) {
			if (add_flag(&o->objects, &o->nobjects, a))
				goto nomem;
		} else if (!strcmp(a, "--")) {
			dashdash = 1;
		} else if (!strcmp(a, "--help")) {
			help(prog);
			return 1;
		} else if (!strcmp(a, "--version")) {
			printf("dtrace-gen (sdtkit) %s\n", PACKAGE_VERSION);
			return 1;
		} else if (!strcmp(a, "-h")) {
			o->mode |= MODE_HEADER;
		} else if (!strcmp(a, "-G")) {
			o->mode |= MODE_OBJECT;
		} else if (a[1] == 's' || a[1] == 'o') {
			v = value(argv, &i, argc);
			if (!v)
				goto missing;
			if (a[1] == 's' && o->input) {
				dg_error(diag, NULL,
					 "only one -s FILE is read, and two "
					 "were given");
				return -1;
			}
			if (a[1] == 's') {
				o->input = v;
				continue;
			}
			o->output[0] = o->output[1];
			o->output[1] = v;
			o->noutputs++;
		} else if (a[1] == 'I' || a[1] == 'D' || a[1] == 'U') {
			r = cpp_flag(o, argv, &i, argc);
			if (r == -EINVAL)
				goto missing;
			if (r)
				goto nomem;
		} else if (!strcmp(a, "-C")) {
			o->cpp = 1;
		} else if (!strcmp(a, "-32") || !strcmp(a, "-64")) {
			o->bits = atoi(a + 1);
		} else if (a[1] == 'x') {
			if (!a[2] && ++i >= argc)
				goto missing;
		} else if (!strcmp(a, "-k") || !strcmp(a, "-fpic") ||
			   !strcmp(a, "-fPIC") || !strcmp(a, "-fpie") ||
			   !strcmp(a, "-fPIE") ||
			   !strcmp(a, "--no-pyparsing")) {
			/* Nothing to keep, nothing to compile. */
		} else if (!strcmp(a, "--types")) {
			dg_note(diag, NULL, "obsolete option --types ignored");
		} else {
			dg_error(diag, NULL, "unknown option `%s'", a);
			usage(prog);
			return -1;
		}
	}
	if (!o->mode || !o->input) {
		dg_error(diag, NULL, "%s",
			 !o->mode ? "say what to write: -h or -G"
				  : "no input: give -s FILE.d");
		usage(prog);
		return -1;
	}
	if (o->mode == MODE_BOTH && o->noutputs && o->noutputs != 2) {
		dg_error(diag, NULL,
			 "-h and -G write two files: give -o twice, the "
			 "header's then the object's, or not at all");
		usage(prog);
		return -1;
	}
	return 0;
missing:
	dg_error(diag, NULL, "option `%s' requires an argument", a);
	usage(prog);
	return -1;
nomem:
	dg_error(diag, NULL, "out of memory");
	return -1;
}

/* SystemTap passes $CFLAGS to the compiler, so -D's there count for -G. */
static void defines_from_cflags(struct options *o, const char *cflags)
{
	size_t argc, i;
	char **argv;

	if (!cflags || dg_shell_split(cflags, &argv, &argc))
		return;
	for (i = 0; i < argc; i++) {
		char flag[64];

		if ((!strcmp(argv[i], "-D") || !strcmp(argv[i], "-U")) &&
		    i + 1 < argc) {
			snprintf(flag, sizeof(flag), "%s%s", argv[i],
				 argv[i + 1]);
			track_define(o, flag);
			i++;
		} else if (!strncmp(argv[i], "-D", 2) ||
			   !strncmp(argv[i], "-U", 2)) {
			track_define(o, argv[i]);
		}
	}
	dg_argv_free(argv, argc);
}

/* FILE.d -> FILE.h in the current directory, as SystemTap does. */
static char *default_output(const char *input, const char *suffix)
{
	const char *base = strrchr(input, '/'), *dot;
	size_t n;
	char *r;

	base = base ? base + 1 : input;
	dot = strrchr(base, '.');
	n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	r = malloc(n + strlen(suffix) + 1);
	if (r)
		sprintf(r, "%.*s%s", (int)n, base, suffix);
	return r;
}

/* ST is the placeholder standing for a stdin closed when we started. */
static int closed_stdin(const struct stat *st)
{
	struct stat in;

	return !fstat(0, &in) && in.st_dev == st->st_dev &&
	       in.st_ino == st->st_ino;
}

static int read_file(const char *path, int stdin_closed, struct dg_buf *out,
		     struct dg_diag *diag)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t n;

	if (fd < 0) {
		dg_error(diag, path, "cannot read it: %s", strerror(errno));
		return -1;
	}
	if (!fstat(fd, &st) && S_ISDIR(st.st_mode)) {
		dg_error(diag, path, "is a directory, not a .d file");
		close(fd);
		return -1;
	}
	if (stdin_closed && closed_stdin(&st)) {
		dg_error(diag, path,
			 "cannot read it: standard input is closed");
		close(fd);
		return -1;
	}
	/* Straight into the buffer, sized by the file when it has a size
	 * and doubled whenever a read fills it. */
	if (S_ISREG(st.st_mode) && st.st_size > 0)
		dg_buf_reserve(out, (size_t)st.st_size + 1);
	for (n = 0; !dg_buf_reserve(out, 1);) {
		n = read(fd, out->data + out->len, out->cap - out->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		out->len += (size_t)n;
		out->data[out->len] = '\0';
	}
	if (n < 0)
		dg_error(diag, path, "cannot read it: %s", strerror(errno));
	else if (out->failed)
		dg_error(diag, path, "out of memory reading it");
	close(fd);
	return n < 0 || out->failed ? -1 : 0;
}

struct header_job {
	struct dg_buf text;
	const char *path;
	struct dg_diag *diag;
};

static int write_header(int fd, void *ctx)
{
	struct header_job *h = ctx;

	if (sdt_write_all(fd, h->text.data, h->text.len)) {
		dg_error(h->diag, h->path, "cannot write: %s", strerror(errno));
		return -1;
	}
	return 0;
}

struct object_job {
	struct dg_object obj;
	const char *path;
	struct dg_diag *diag;
};

static int write_object(int fd, void *ctx)
{
	struct object_job *j = ctx;

	return dg_object_write(fd, &j->obj, j->path, j->diag);
}

/* A and B name one file: the same name, or one existing inode. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return 1;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * Writes what O asks for into OUT (the header's name, then the object's).
 * Both are made before either is written, so that an error leaves
 * neither file changed.
 */
static int generate(const struct options *o, const struct dg_model *m,
		    char *const out[2], struct dg_diag *diag)
{
	struct dg_object_opts oo;
	struct header_job h;
	struct object_job j;
	int r = 0;

	memset(&oo, 0, sizeof(oo));
	memset(&h, 0, sizeof(h));
	memset(&j, 0, sizeof(j));
	h.path = out[0];
	j.path = out[1];
	h.diag = j.diag = diag;

	if (o->mode & MODE_HEADER) {
		if (o->mode == MODE_HEADER && o->nobjects)
			dg_warning(diag, NULL,
				   "object files are only read with -G; `%s' "
				   "is ignored",
				   o->objects[0]);
		dg_header_write(m, &h.text);
		if (h.text.failed) {
			dg_error(diag, h.path, "out of memory");
			r = -1;
		}
	}
	if (o->mode == MODE_BOTH && same_file(out[0], out[1])) {
		dg_error(diag, out[1],
			 "is also the header's name: -h and -G need two files");
		r = -1;
	}
	if (!r && (o->mode & MODE_OBJECT)) {
		oo.objects = o->objects;
		oo.nobjects = o->nobjects;
		oo.bits = o->bits;
		oo.v1 = o->v1;
		oo.v2 = o->v2;
		oo.cc = getenv("CC");
		oo.cflags = getenv("CFLAGS");
		r = dg_object_prepare(&j.obj, m, &oo, diag);
	}
	if (!r && (o->mode & MODE_HEADER))
		r = dg_output_atomic(h.path, write_header, &h, diag);
	if (!r && (o->mode & MODE_OBJECT))
		r = dg_output_atomic(j.path, write_object, &j, diag);
	dg_buf_free(&h.text);
	dg_object_free(&j.obj);
	return r;
}

/* --help, --version: what they print must have arrived. */
static int flush_stdout(struct dg_diag *diag, int closed)
{
	if (closed)
		errno = EBADF;
	else if (!fflush(stdout) && !ferror(stdout))
		return 0;
	dg_error(diag, NULL, "cannot write to standard output: %s",
		 strerror(errno));
	return -1;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct dg_diag diag = { stderr, "dtrace-gen", 0, 0 };
	struct dg_model m = { 0 };
	struct dg_buf text = { 0 };
	char *out[2] = { NULL, NULL };
	const char *cpp;
	int r, closed;

	closed = dg_output_guard_std_fds();
	if (argc > 0 && argv[0][0])
		diag.prog = argv[0];
	r = parse_args(&o, argc, argv, &diag);
	if (r) {
		if (r > 0)
			r = flush_stdout(&diag, closed & 2);
		goto done;
	}
	defines_from_cflags(&o, getenv("CFLAGS"));
	/* Re-apply the command line: it has the last word over $CFLAGS. */
	for (size_t i = 0; i < o.ncpp_flags; i++)
		if (o.cpp_flags[i][1] != 'I')
			track_define(&o, o.cpp_flags[i]);
	/* -h's name in out[0], -G's in out[1]: with both, the two -o in
	 * order (parse_args), else the last -o, else FILE's base name. */
	for (int k = 0; k < 2; k++) {
		const char *given = o.output[o.mode == MODE_BOTH ? k : 1];

		if (!(o.mode & (k ? MODE_OBJECT : MODE_HEADER)))
			continue;
		out[k] = given ? strdup(given)
			       : default_output(o.input, k ? ".o" : ".h");
		if (!out[k]) {
			dg_error(&diag, NULL, "out of memory");
			r = -1;
			goto done;
		}
	}
	if (o.cpp) {
		cpp = getenv("CPP");
		r = dg_preprocess(cpp && *cpp ? cpp : "cpp", o.cpp_flags,
				  o.ncpp_flags, o.input, &text, &diag);
	} else {
		r = read_file(o.input, closed & 1, &text, &diag);
	}
	if (!r)
		r = dg_parse(&m, o.input, text.data ? text.data : "", text.len,
			     o.cpp, &diag)
			    ? -1
			    : 0;
	if (!r)
		r = generate(&o, &m, out, &diag);
done:
	dg_model_free(&m);
	dg_buf_free(&text);
	for (size_t i = 0; i < o.ncpp_flags; i++)
		free((char *)o.cpp_flags[i]);
	free(o.cpp_flags);
	free(o.objects);
	free(out[0]);
	free(out[1]);
	return r < 0 ? 1 : 0;
}
