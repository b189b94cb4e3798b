/* SPDX-License-Identifier: MIT */
/*
 * sdt-list: every USDT probe of a binary or a live process, and whether
 * each tracer can read it.
 *
 *   sdt-list [OPTIONS] FILE...  [PROVIDER:NAME-GLOB...]
 *   sdt-list [OPTIONS] -p PID   [PROVIDER:NAME-GLOB...]
 *   sdt-list [OPTIONS] [-x] DIR... / -a   [PROVIDER:NAME-GLOB...]
 *
 * Users otherwise read `readelf -n' (raw) or bcc's tplist (needs Python,
 * bcc and root), and neither says what the arguments are, whether the
 * specs can actually be read, or how to trace them. This file is the
 * command line and the walk over files and processes; each object's
 * probes are grouped in object.c and shown by one of the outputs (the
 * summary, -v, --json, --bpftrace, --perf; see sdt-list.h). Directories
 * (walk.c) and every process (host.c) are inventories of their own.
 *
 * Exit status: 0 all listed; 1 --check found a probe some consumer cannot
 * read; 2 some input could not be read (each one named on stderr; the
 * others are still listed), a glob matched no probe (globs.c), or the
 * command line was wrong.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* PACKAGE_VERSION */
#endif
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "contract.h"

static void (*const outputs[])(struct out *, struct object *) = {
	[FMT_SUMMARY] = summary_object, [FMT_VERBOSE] = verbose_object,
	[FMT_JSON] = json_object,	[FMT_BPFTRACE] = bpftrace_object,
	[FMT_PERF] = perf_object,
};

static void list_object(struct out *o, struct object *obj)
{
	if (object_init(obj, o->o->check) < 0) {
		fprintf(stderr, "sdt-list: ");
		put_text(stderr, obj->name);
		fputs(": out of memory\n", stderr);
		o->status = EXIT_INPUT;
	} else {
		globs_see(o->globs, o->o, obj);
		outputs[o->o->format](o, obj);
		object_said_oom(o, obj);
	}
	object_fini(obj);
}

/*
 * One line on stderr about input PID (0: a file) NAME, and exit status 2.
 * Names and messages hold bytes of the file or the process (a section
 * name, a path from its maps): escaped like every other output.
 */
static void input_error(struct out *o, int pid, const char *name,
			const char *msg)
{
	fputs("sdt-list: ", stderr);
	if (pid)
		fprintf(stderr, "pid %d: ", pid);
	put_text(stderr, name);
	fputs(": ", stderr);
	put_text(stderr, msg);
	fputc('\n', stderr);
	o->status = EXIT_INPUT;
}

static void list_file(struct out *o, const char *path)
{
	struct sdt_elf f;
	struct object obj = { .name = path, .f = &f };
	char err[256];

	if (sdt_elf_open(&f, path, err, sizeof(err)) < 0) {
		input_error(o, 0, path, err);
		return;
	}
	/* Tracers need a path that holds wherever they are started. */
	if (!realpath(path, obj.attach))
		snprintf(obj.attach, sizeof(obj.attach), "%s", path);
	if (f.warning[0])
		input_error(o, 0, path, f.warning);
	list_object(o, &obj);
	sdt_elf_close(&f);
}

static int list_proc_object(struct out *o, struct proc *p,
			    struct proc_object *po)
{
	struct sdt_elf f;
	struct object obj = {
		.name = po->path, .f = &f, .proc = p, .pobj = po
	};
	char e[256];
	int listed = 0, r;

	if (po->fd < 0) {
		/* Not ours to read, or not the mapped file: never guessed. */
		if (po->why[0])
			input_error(o, p->pid, po->path, po->why);
		return 0;
	}
	r = sdt_elf_open_fd(&f, po->fd, e, sizeof(e));
	if (r == -ENOEXEC)
		return 0; /* a mapped data file, not ELF */
	if (r < 0) {
		/* Damaged, or cut short while we read (its owner may). */
		input_error(o, p->pid, po->path, e);
		return 0;
	}
	object_of_mapped(&obj, po);
	if (po->no_attach[0] && o->o->format != FMT_BPFTRACE &&
	    o->o->format != FMT_PERF) {
		fprintf(stderr, "sdt-list: pid %d: ", p->pid);
		put_text(stderr, po->path);
		fputs(": ", stderr);
		put_text(stderr, po->no_attach);
		fputs(": no path given to tracers\n", stderr);
	}
	if (f.warning[0])
		input_error(o, p->pid, po->path, f.warning);
	if (f.nprobes) {
		listed = 1;
		list_object(o, &obj);
	}
	sdt_elf_close(&f);
	return listed;
}

static void list_pid(struct out *o, int pid)
{
	enum format fmt = o->o->format;
	int readable = fmt == FMT_SUMMARY || fmt == FMT_VERBOSE;
	size_t with_probes = 0;
	struct proc p;
	char err[512];

	if (proc_open(&p, pid, err, sizeof(err)) < 0) {
		fprintf(stderr, "sdt-list: pid %d: ", pid);
		put_text(stderr, err);
		fputc('\n', stderr);
		o->status = EXIT_INPUT;
		return;
	}
	if (readable) {
		fprintf(o->f, "pid %d: ", pid);
		put_text(o->f, p.exe[0] ? p.exe : "(executable unknown)");
		fputc('\n', o->f);
	}
	if (p.mem_fd < 0 && readable)
		fprintf(stderr,
			"sdt-list: pid %d: cannot open /proc/%d/mem: semaphore "
			"values not shown (run as root or as the process's "
			"owner)\n",
			pid, pid);
	for (size_t i = 0; i < p.nobjs; i++)
		with_probes += list_proc_object(o, &p, &p.objs[i]);
	if (readable && !with_probes)
		fprintf(o->f, "no mapped object of pid %d has probes\n", pid);
	proc_close(&p);
}

/* ------------------------------------------------------------------ */
/* The command line                                                    */

static void usage(FILE *out)
{
	fputs("usage: sdt-list [OPTIONS] FILE... [PROVIDER:NAME-GLOB...]\n"
	      "       sdt-list [OPTIONS] -p PID [PROVIDER:NAME-GLOB...]\n"
	      "List the USDT probes (stapsdt notes) of executables, shared\n"
	      "objects, relocatable objects or a running process: one line "
	      "per\n"
	      "probe with its argument types and names, how many sites it has\n"
	      "and its semaphore.\n"
	      "  -p, --pid PID  the process's executable, libraries and memfd\n"
	      "                 providers, with each semaphore's current "
	      "value\n"
	      "  -a, --all-processes  every process we can read, by object:\n"
	      "                 its PIDs, containers and semaphore values\n"
	      "  -x, --one-file-system  a DIR is walked on its own file "
	      "system\n"
	      "  -v, --verbose  every site of each probe, each argument in "
	      "words\n"
	      "  -c, --check    say which tracers (libbpf, bcc/bpftrace,\n"
	      "                 bpftrace 0.25+, gdb, perf) read every\n"
	      "                 argument, and why not; flag\n"
	      "                 stale notes; exit 1 if a probe is unreadable\n"
	      "  -j, --json     one JSON object per probe site\n"
	      "  -b, --bpftrace print a bpftrace program printing every\n"
	      "                 argument of the listed probes\n"
	      "  -P, --perf     print the perf commands that make the listed\n"
	      "                 probes events\n"
	      "  -h, --help     this text\n"
	      "  -V, --version  the version of sdtkit this is\n"
	      "  --diff OLD NEW, --against [-C] PROVIDER.d FILE...,\n"
	      "  --script PROG.bt FILE|-p PID: probes as a contract;\n"
	      "                 see sdt-list(1) or each mode's --help\n"
	      "A DIR is walked for objects with probes (links not followed).\n"
	      "An argument that names no file and holds a `:' is a glob on\n"
	      "PROVIDER:NAME. Exit: 0 ok, 1 --check found unreadable probes,\n"
	      "2 an input could not be read or a glob matched no probe.\n",
	      out);
}

static int is_pattern(const char *arg)
{
	struct stat st;

	return strchr(arg, ':') && stat(arg, &st) != 0;
}

struct inputs {
	int *pids;
	size_t npids;
	char **files;
	size_t nfiles;
	int all_procs; /* -a */
	int one_fs;    /* -x */
	int dirs;      /* some FILE is a directory: a walk */
};

static const struct flag {
	const char *s, *l;
	enum format fmt; /* FMT_SUMMARY: not a format */
	int check;
} flags[] = {
	{ "-c", "--check", FMT_SUMMARY, 1 },
	{ "-v", "--verbose", FMT_VERBOSE, 0 },
	{ "-j", "--json", FMT_JSON, 0 },
	{ "-b", "--bpftrace", FMT_BPFTRACE, 0 },
	{ "-P", "--perf", FMT_PERF, 0 },
};

/* A flag; returns 1 when A was one, -1 on a clash of formats. */
static int take_flag(struct opts *opt, const char *a)
{
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (strcmp(a, flags[i].s) && strcmp(a, flags[i].l))
			continue;
		opt->check |= flags[i].check;
		if (flags[i].fmt == FMT_SUMMARY)
			return 1;
		if (opt->format != FMT_SUMMARY && opt->format != flags[i].fmt) {
			fprintf(stderr,
				"sdt-list: %s and another output option: "
				"choose "
				"one of -v, --json, --bpftrace, --perf\n",
				a);
			return -1;
		}
		opt->format = flags[i].fmt;
		return 1;
	}
	return 0;
}

/* -p PID, -pPID, --pid PID, --pid=PID; returns 1, 0 (not -p) or -1. */
static int take_pid(struct inputs *in, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;

	if (!strcmp(a, "-p") || !strcmp(a, "--pid"))
		v = *i + 1 < argc ? argv[++*i] : NULL;
	else if (!strncmp(a, "--pid=", 6))
		v = a + 6;
	else if (a[1] == 'p' && a[2])
		v = a + 2;
	else
		return 0;
	if (!v || pid_parse(v, &in->pids[in->npids]) < 0) {
		fprintf(stderr, "sdt-list: -p needs a process id, got `%s'\n",
			v ? v : "");
		return -1;
	}
	in->npids++;
	return 1;
}

/* -a, -x: the inventories' options; returns 1 when A was one. */
static int take_inventory(struct inputs *in, const char *a)
{
	if (!strcmp(a, "-a") || !strcmp(a, "--all-processes"))
		in->all_procs = 1;
	else if (!strcmp(a, "-x") || !strcmp(a, "--one-file-system"))
		in->one_fs = 1;
	else
		return 0;
	return 1;
}

/* Returns -1 to go on, else the exit status. */
static int take_option(struct opts *opt, struct inputs *in, int argc,
		       char **argv, int *i)
{
	const char *a = argv[*i];
	int r;

	if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
		printf("sdt-list (sdtkit) %s\n", PACKAGE_VERSION);
		return 0;
	}
	if ((r = take_inventory(in, a)) != 0 || (r = take_flag(opt, a)) != 0 ||
	    (r = take_pid(in, argc, argv, i)) != 0)
		return r > 0 ? -1 : EXIT_INPUT;
	fprintf(stderr, "sdt-list: unknown option `%s'\n", a);
	usage(stderr);
	return EXIT_INPUT;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct opts *opt,
		      struct inputs *in)
{
	int only_args = 0, r;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!only_args && !strcmp(a, "--"))
			only_args = 1;
		else if (!only_args && a[0] == '-' && a[1]) {
			if ((r = take_option(opt, in, argc, argv, &i)) >= 0)
				return r;
		} else if (is_pattern(a))
			opt->patterns[opt->npatterns++] = argv[i];
		else
			in->files[in->nfiles++] = argv[i];
	}
	if (in->all_procs && (in->nfiles || in->npids)) {
		fputs("sdt-list: -a lists every process: give no file or "
		      "-p with it\n",
		      stderr);
		return EXIT_INPUT;
	}
	if (!in->nfiles && !in->npids && !in->all_procs) {
		usage(stderr);
		return EXIT_INPUT;
	}
	for (size_t i = 0; i < in->nfiles && !in->npids; i++) {
		struct stat st;

		in->dirs |= stat(in->files[i], &st) == 0 && S_ISDIR(st.st_mode);
	}
	if (in->one_fs && !in->dirs) {
		fputs("sdt-list: -x stays on the file system of a DIR walked: "
		      "give a directory\n",
		      stderr);
		return EXIT_INPUT;
	}
	opt->headers = in->nfiles + in->npids > 1 || in->npids;
	opt->npids = in->npids;
	return -1;
}

/* The modes with command lines of their own (contract.h). */
static int (*mode_of(int argc, char **argv))(int, char **)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--diff"))
			return diff_main;
		if (!strcmp(argv[i], "--against"))
			return against_main;
		if (!strcmp(argv[i], "--script"))
			return btscript_main;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct opts opt = { 0 };
	struct out o = { .o = &opt, .json_first = 1, .f = stdout };
	struct inputs in = { 0 };
	int (*mode)(int, char **) = mode_of(argc, argv);
	int r;

	if (mode)
		return mode(argc, argv);
	in.pids = calloc((size_t)argc, sizeof(int));
	in.files = calloc((size_t)argc, sizeof(char *));
	opt.patterns = calloc((size_t)argc, sizeof(char *));
	if (!in.pids || !in.files || !opt.patterns) {
		fputs("sdt-list: out of memory\n", stderr);
		return EXIT_INPUT;
	}
	r = parse_args(argc, argv, &opt, &in);
	if (r >= 0)
		goto out;
	if (!(o.globs = globs_new(&opt))) {
		fputs("sdt-list: out of memory\n", stderr);
		r = EXIT_INPUT;
		goto out;
	}
	if (in.all_procs || in.dirs) {
		/* Inventories: -a attaches scripts by file, as several -p. */
		opt.headers = 1;
		opt.npids = in.all_procs ? 2 : 0;
		r = in.all_procs ? host_run(&o)
				 : walk_run(&o, in.files, in.nfiles, in.one_fs);
		if (globs_report(o.globs, &opt))
			r = EXIT_INPUT;
		goto flush;
	}
	if (opt.format == FMT_JSON)
		fputs("[", stdout);
	layout_bt_begin(&o);
	for (size_t i = 0; i < in.nfiles; i++)
		list_file(&o, in.files[i]);
	for (size_t i = 0; i < in.npids; i++)
		list_pid(&o, in.pids[i]);
	if (opt.format == FMT_JSON)
		fputs("\n]\n", stdout);
	if (globs_report(o.globs, &opt))
		o.status = EXIT_INPUT;
	if (script_end(&o) < 0) {
		fputs("sdt-list: out of memory\n", stderr);
		o.status = EXIT_INPUT;
	}
	/* After script_end(): the structs go between its header and probes. */
	layout_bt_end(&o);
	r = o.status;
flush:
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "sdt-list: writing the listing: %s\n",
			strerror(errno));
		r = EXIT_INPUT;
	}
out:
	globs_free(o.globs);
	free(in.pids);
	free(in.files);
	free(opt.patterns);
	return r;
}
