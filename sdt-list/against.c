/* SPDX-License-Identifier: MIT */
/*
 * sdt-list --against PROVIDER.d FILE...: does the build carry every probe
 * its provider file declares, as declared?
 *
 * A probe the .d declares can vanish without a word: an #ifdef leaves its
 * macro out, the linker's --gc-sections or LTO drops the function that
 * fires it, or it was only ever compiled into some other object. Its users
 * learn when a trace finds nothing. This check makes it a test failure:
 * each declared probe must have a site in the files given, with the
 * declared argument count, and, where the build recorded them (dtrace-gen
 * -G's type records), the declared types.
 *
 * The files are the build's outputs (programs, shared objects) and,
 * optionally, the relocatable objects that went into them. The objects are
 * the evidence for why a probe is missing: a site in an object but not in
 * any linked file was dropped by the linker; a site in no file at all was
 * compiled out (or lives in an object not given). Given only objects, the
 * check is whether some object has each probe.
 *
 * The .d file is read by dtrace-gen's own parser (libsdtdparse), so the
 * two never disagree about what a provider declares.
 */
#include <errno.h>
#include <elf.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../dtrace-gen/dtrace-gen.h"
#include "contract.h"

#define D_FILE_MAX (16u << 20)

struct against_run {
	const char *dfile;
	struct side *files; /* each FILE (or -p PID), opened alone */
	size_t nfiles;
	const struct side_object **objs; /* every object of the files */
	size_t nobjs;
	size_t nlinked; /* of them, not relocatable objects */
	unsigned missing, mismatched, present;
};

static int is_linked(const struct side_object *so)
{
	return so->f.type != ET_REL;
}

/* ------------------------------------------------------------------ */
/* Reading the provider file                                           */

/* ------------------------------------------------------------------ */
/* One declared probe                                                  */

static void put_probe(const struct dg_probe *p)
{
	put_text(stdout, p->provider);
	fputc(':', stdout);
	put_text(stdout, p->name);
}

/* Where a declared probe has sites: a linked file, else an object. */
struct found {
	const struct side_object *linked, *object;
	const struct side_object *stale; /* a linked file's note, no code */
	const struct group *lg;
};

static void find_probe(const struct against_run *r, const struct dg_probe *p,
		       struct found *fd)
{
	memset(fd, 0, sizeof(*fd));
	for (size_t i = 0; i < r->nobjs; i++) {
		const struct side_object *so = r->objs[i];
		const struct group *g;

		g = object_find_group(&so->obj, p->provider, p->name);
		if (!g)
			continue;
		if (!group_is_live(&so->obj, g)) {
			fd->stale = so;
			continue;
		}
		if (is_linked(so) || !r->nlinked) {
			if (!fd->linked) {
				fd->linked = so;
				fd->lg = g;
			}
		} else if (!fd->object) {
			fd->object = so;
		}
	}
}

/*
 * Whether object SO went into the link, as far as its probes tell: 1 when
 * another of its probes is live in a linked file, 0 when none is, -1 when
 * it has no other probe to tell by.
 */
static int object_was_linked(const struct against_run *r,
			     const struct side_object *so,
			     const struct dg_probe *p)
{
	int others = 0;

	for (size_t i = 0; i < so->obj.ngroups; i++) {
		const struct sdt_note *n =
			&group_probe(&so->obj, &so->obj.groups[i])->note;

		if (!strcmp(n->provider, p->provider) &&
		    !strcmp(n->name, p->name))
			continue;
		others = 1;
		for (size_t k = 0; k < r->nobjs; k++) {
			const struct object *o = &r->objs[k]->obj;
			const struct group *g;

			if (!is_linked(r->objs[k]))
				continue;
			g = object_find_group(o, n->provider, n->name);
			if (g && group_is_live(o, g))
				return 1;
		}
	}
	return others ? 0 : -1;
}

static void report_in_object(const struct against_run *r,
			     const struct dg_probe *p, const struct found *fd)
{
	int linked = object_was_linked(r, fd->object, p);

	if (linked == 0) {
		fputs(": only in another object: ", stdout);
		put_text(stdout, fd->object->name);
		fputs(" has a site, but none of its probes is in the linked "
		      "files given (it is not linked into them)\n",
		      stdout);
		return;
	}
	fputs(": dropped by the linker: ", stdout);
	put_text(stdout, fd->object->name);
	fputs(linked > 0 ? " has a site and went into the link, the linked "
			   "files have none (--gc-sections or LTO removed the "
			   "code that fires it)\n"
			 : " has a site, the linked files have none "
			   "(--gc-sections or LTO removed it, or the object "
			   "is not linked in)\n",
	      stdout);
}

static void report_missing(struct against_run *r, const struct dg_probe *p,
			   const struct found *fd)
{
	r->missing++;
	fputs("MISSING ", stdout);
	put_probe(p);
	if (fd->stale) {
		fputs(": dropped by the linker: ", stdout);
		put_text(stdout, fd->stale->name);
		fputs(" keeps its note but not its code (--gc-sections removed "
		      "the function that fires it)\n",
		      stdout);
	} else if (fd->object) {
		report_in_object(r, p, fd);
	} else if (r->nlinked < r->nobjs) {
		fputs(": compiled out: no file given has a site, objects "
		      "included (an #ifdef left the probe out, or it is only "
		      "in "
		      "an object not given)\n",
		      stdout);
	} else {
		fputs(": no file given has a site: compiled out (an #ifdef), "
		      "dropped by the linker, or only in another object (give "
		      "the .o files too to tell which)\n",
		      stdout);
	}
}

/*
 * A declared integer the build records wider or of the other sign (libvirt
 * passes every argument as `(void *)(intptr_t)x'): named. It is a
 * mismatch where a tracer that reads the note gets another value (an
 * `int' -1 recorded as unsigned 8 bytes reads 18446744073709551615); a
 * widening that keeps every value (an unsigned zero-extended) is a note.
 * Returns 1 for a mismatch.
 */
static int check_width(const struct dg_probe *p, const struct found *fd,
		       const struct sig_arg *a, unsigned i)
{
	int bad = arg_misread(a);

	if (!arg_widened(a))
		return 0;
	fputs(bad ? "MISMATCH " : "WIDER ", stdout);
	put_probe(p);
	fprintf(stdout, ": arg%u declared `", i);
	put_text(stdout, p->types[i]);
	fprintf(stdout, "' (%s %d byte%s), ",
		a->decl_signed ? "signed" : "unsigned", a->decl_size,
		a->decl_size == 1 ? "" : "s");
	put_text(stdout, fd->linked->name);
	fprintf(stdout, " records %s %d bytes: %s\n",
		a->is_signed ? "signed" : "unsigned", a->size,
		bad ? "a tracer that reads the note gets another value "
		      "(-1 reads as a large number); pass it as declared"
		    : "every value reads the same");
	return bad;
}

/* The declared argument count and recorded types against the build's. */
static void check_shape(struct against_run *r, const struct dg_probe *p,
			const struct found *fd)
{
	struct group_sig gs;
	int bad = 0, wide = 0;

	group_signature(&fd->linked->obj, fd->lg, &gs);
	if (gs.min_nargs != p->nargs || gs.max_nargs != p->nargs) {
		fputs("MISMATCH ", stdout);
		put_probe(p);
		fprintf(stdout, ": %u argument%s declared, ", p->nargs,
			p->nargs == 1 ? "" : "s");
		put_text(stdout, fd->linked->name);
		if (gs.min_nargs == gs.max_nargs)
			fprintf(stdout, " has %u\n", gs.min_nargs);
		else
			fprintf(stdout, " has %u to %u\n", gs.min_nargs,
				gs.max_nargs);
		bad = 1;
	}
	for (unsigned i = 0; !bad && gs.sig.rec && i < p->nargs; i++) {
		if (!strcmp(gs.sig.args[i].type, p->types[i]))
			continue;
		fputs("MISMATCH ", stdout);
		put_probe(p);
		fprintf(stdout, ": arg%u declared `", i);
		put_text(stdout, p->types[i]);
		fputs("', ", stdout);
		put_text(stdout, fd->linked->name);
		fputs(" records `", stdout);
		put_text(stdout, gs.sig.args[i].type);
		fputs("'\n", stdout);
		bad = 1;
	}
	/* Every argument's width, once the count and types agree: by the
	 * build's record, else by the .d file's declaration (SystemTap's
	 * dtrace records no type). */
	for (unsigned i = 0; !bad && i < p->nargs && i < gs.sig.nargs; i++) {
		struct sig_arg a = gs.sig.args[i];

		if (!gs.sig.rec &&
		    !types_int_decl(&fd->linked->obj.types, p->types[i],
				    &a.decl_size, &a.decl_signed))
			continue;
		wide |= check_width(p, fd, &a, i);
	}
	bad |= wide;
	r->mismatched += bad;
	r->present += !bad;
}

static void check_model(struct against_run *r, const struct dg_model *m)
{
	for (size_t i = 0; i < m->nprobes; i++) {
		struct found fd;

		find_probe(r, &m->probes[i], &fd);
		if (!fd.linked)
			report_missing(r, &m->probes[i], &fd);
		else
			check_shape(r, &m->probes[i], &fd);
	}
	printf("%s: %zu probe%s declared: %u present as declared, %u missing, "
	       "%u different\n",
	       r->dfile, m->nprobes, m->nprobes == 1 ? "" : "s", r->present,
	       r->missing, r->mismatched);
}

/* ------------------------------------------------------------------ */
/* The command line                                                    */

static void against_usage(FILE *out)
{
	fputs("usage: sdt-list --against [-C [-I DIR] [-D NAME[=VALUE]] "
	      "[-U NAME]...]\n"
	      "                PROVIDER.d FILE...\n"
	      "Check that the FILEs (programs, shared objects, and optionally\n"
	      "the .o files linked into them) carry every probe PROVIDER.d\n"
	      "declares, with its argument count and, where recorded, types.\n"
	      "A missing probe is named with why: dropped by the linker (an\n"
	      "object given has it) or compiled out. Exit: 0 all there, 1 "
	      "some\n"
	      "missing or different, 2 an input could not be read.\n"
	      "-C runs the .d file through the C preprocessor ($CPP, else\n"
	      "cpp) with the -I, -D and -U given, as dtrace-gen -C does.\n",
	      out);
}

/* The preprocessor's options before PROVIDER.d: -C, -I/-D/-U (joined or
 * not, in order). */
struct dfile_opts {
	int cpp;
	const char **flags;
	size_t nflags;
	char **owned; /* joined copies of separate -I DIR and the like */
	size_t nowned;
};

static void dfile_opts_free(struct dfile_opts *d)
{
	for (size_t i = 0; i < d->nowned; i++)
		free(d->owned[i]);
	free(d->owned);
	free(d->flags);
}

/* Options from ARGV[*I] on; *I ends at the first word that is not one. */
static int dfile_opts_parse(struct dfile_opts *d, int argc, char **argv, int *i)
{
	d->flags = calloc((size_t)argc, sizeof(*d->flags));
	d->owned = calloc((size_t)argc, sizeof(*d->owned));
	if (!d->flags || !d->owned)
		return -ENOMEM;
	for (; *i < argc; (*i)++) {
		const char *a = argv[*i];
		char *joined;

		if (!strcmp(a, "-C")) {
			d->cpp = 1;
			continue;
		}
		if (a[0] != '-' || !strchr("IDU", a[1]) || !a[1])
			return 0;
		if (a[2]) {
			d->flags[d->nflags++] = a;
			continue;
		}
		if (*i + 1 >= argc)
			return -EINVAL;
		joined = malloc(strlen(argv[*i + 1]) + 3);
		if (!joined)
			return -ENOMEM;
		snprintf(joined, strlen(argv[*i + 1]) + 3, "%s%s", a,
			 argv[*i + 1]);
		d->owned[d->nowned++] = joined;
		d->flags[d->nflags++] = joined;
		(*i)++;
	}
	return 0;
}

/* The .d file through dtrace-gen's parser; a file that declares nothing
 * is no contract (a wrong file named, most likely). */
static int is_help(const char *a)
{
	return !strcmp(a, "-h") || !strcmp(a, "--help");
}

static int unexpected(const char *a)
{
	fputs("sdt-list: --against: unexpected `", stderr);
	put_text(stderr, a);
	fputs("'\n", stderr);
	against_usage(stderr);
	return EXIT_INPUT;
}

/*
 * Root preprocesses a provider file someone else owns with the owner's
 * rights: an `#include "/etc/shadow"' in it must fail as it would for its
 * author, not print that file's lines in a parse error. NULL: run as we
 * are (not root, or the file is root's).
 */
static struct dg_cpp_user *owner_of(const char *path, struct dg_cpp_user *u)
{
	struct passwd *pw;
	struct stat st;

	if (geteuid() != 0 || stat(path, &st) || st.st_uid == 0)
		return NULL;
	pw = getpwuid(st.st_uid);
	u->uid = st.st_uid;
	u->gid = pw ? pw->pw_gid : st.st_gid;
	return u;
}

static int parse_dfile(const char *path, const struct dfile_opts *d,
		       struct dg_model *m)
{
	struct dg_diag diag = { .out = stderr, .prog = "sdt-list" };
	struct dg_buf out = { 0 };
	const char *cpp = getenv("CPP");
	char err[256];
	size_t len;
	char *text;
	int r;

	/* Read first either way: a FIFO or device is refused before cpp
	 * could block on it. */
	text = read_text_input(path, D_FILE_MAX, &len, err, sizeof(err));
	if (text && d->cpp) {
		struct dg_cpp_user owner, *as = owner_of(path, &owner);

		free(text);
		if (dg_preprocess_as(cpp && *cpp ? cpp : "cpp", d->flags,
				     d->nflags, path, as, &out, &diag) < 0) {
			dg_buf_free(&out);
			return -EINVAL;
		}
		len = out.len;
		text = out.data ? out.data : calloc(1, 1);
		snprintf(err, sizeof(err), "out of memory");
	}
	if (!text) {
		fputs("sdt-list: ", stderr);
		put_text(stderr, path);
		fprintf(stderr, ": %s\n", err);
		return -EINVAL;
	}
	r = dg_parse(m, path, text, len, d->cpp, &diag);
	free(text);
	if (r == 0 && !m->nprobes) {
		fputs("sdt-list: ", stderr);
		put_text(stderr, path);
		fputs(": declares no probe: nothing to check against\n",
		      stderr);
		r = -EINVAL;
	}
	return r;
}

/* Every object of every file given, in one list. */
static int gather_objects(struct against_run *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nfiles; i++)
		n += r->files[i].n;
	r->objs = calloc(n ? n : 1, sizeof(*r->objs));
	if (!r->objs) {
		fputs("sdt-list: out of memory\n", stderr);
		return EXIT_INPUT;
	}
	for (size_t i = 0; i < r->nfiles; i++) {
		for (size_t k = 0; k < r->files[i].n; k++) {
			r->objs[r->nobjs++] = r->files[i].objs[k];
			r->nlinked += is_linked(r->files[i].objs[k]);
		}
	}
	return 0;
}

static int open_files(struct against_run *r, int argc, char **argv, int i)
{
	int status = 0;

	r->files = calloc((size_t)argc, sizeof(*r->files));
	if (!r->files)
		return EXIT_INPUT;
	for (; i < argc; i++) {
		int at = i;

		if (!strcmp(argv[i], "--"))
			continue;
		if (argv[i][0] == '-' && strcmp(argv[i], "-p") &&
		    strncmp(argv[i], "--pid", 5) && strncmp(argv[i], "-p", 2))
			return unexpected(argv[i]);
		if (side_open_arg(&r->files[r->nfiles++], argc, argv, &at) ||
		    r->files[r->nfiles - 1].warning[0])
			status = EXIT_INPUT;
		i = at - 1;
	}
	return status ? status : gather_objects(r);
}

int against_main(int argc, char **argv)
{
	struct against_run r = { 0 };
	struct dg_model m = { 0 };
	struct dfile_opts d = { 0 };
	int i = 1, status;

	for (; i < argc; i++) {
		if (is_help(argv[i]) ||
		    (i + 1 < argc && !strcmp(argv[i], "--against") &&
		     is_help(argv[i + 1]))) {
			against_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--against"))
			break;
		return unexpected(argv[i]);
	}
	i++;
	if ((status = dfile_opts_parse(&d, argc, argv, &i)) < 0 ||
	    i + 1 >= argc) {
		fputs(status == -ENOMEM ? "sdt-list: out of memory\n" : "",
		      stderr);
		against_usage(stderr);
		dfile_opts_free(&d);
		return EXIT_INPUT;
	}
	r.dfile = argv[i];
	status = parse_dfile(r.dfile, &d, &m);
	dfile_opts_free(&d);
	if (status < 0) {
		dg_model_free(&m);
		return EXIT_INPUT;
	}
	status = open_files(&r, argc, argv, i + 1);
	if (!status)
		check_model(&r, &m);
	if (!status && (r.missing || r.mismatched))
		status = EXIT_CHECK;
	for (size_t k = 0; k < r.nfiles; k++)
		side_close(&r.files[k]);
	free(r.files);
	free(r.objs);
	dg_model_free(&m);
	if (fflush(stdout) != 0 || ferror(stdout))
		status = EXIT_INPUT;
	return status;
}
