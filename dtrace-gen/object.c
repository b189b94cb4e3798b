/* SPDX-License-Identifier: MIT */
/*
 * The -G object: one zeroed 2-byte semaphore per probe in `.probes', for
 * the header's _ENABLED() and the notes' semaphore addresses to point at.
 * The ELF itself is the core's job (sdt_write_semaphore_object); this file
 * decides what goes into it.
 *
 * The target. SystemTap compiles a C file with $CC $CFLAGS, so its object
 * fits whatever the build compiles for. We run no compiler, so we look
 * for the same answer in what we are given, most telling first:
 *
 *  1. the object files on the command line (the ones the probes are
 *     linked with; a libtool `.lo' names its real object inside). Each
 *     must be a regular file holding a whole ELF header of a machine we
 *     know: a damaged one, or one we cannot write for, is an error, as
 *     an object built on a misread machine would not link. One that is
 *     missing or cannot be read is a warning and is left out: builds
 *     such as PHP's run -G once over the objects in `.libs' and once
 *     over those beside it, knowing only one set exists, and SystemTap's
 *     dtrace never opens them. The readable ones decide; with none,
 *     the steps below do, as when no object is given;
 *  2. -32 / -64, on x86;
 *  3. $CC and $CFLAGS: a cross compiler's triplet (`aarch64-linux-gnu-gcc',
 *     `clang --target=...') or -m32/-m64;
 *  4. the machine we run on.
 *
 * Symbols are hidden unless STAP_SDT_V2 or V1 is defined (-D), as with
 * SystemTap; V1 also names them `probe_semaphore', without the provider.
 *
 * The object also carries typed-probe records (argument types and names,
 * docs/typed-probes.md) in a note section of its own; they hold no
 * address, so they need no relocation and link anywhere. Only for the
 * probes that have a site in the objects given, and that the objects do
 * not already describe as the .d file does (sdtkit's <sys/sdt.h> writes
 * the generated header's record at each site): a program that fires 3
 * of a provider's 100 probes carries 3 records. Without objects, or
 * with an archive among them, every probe's, as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dtrace-gen.h"
#include "elfobj.h"
#include "note.h"
#include "target.h"
#include "typerec.h"

static int same_target(const struct sdt_target *a, const struct sdt_target *b)
{
	return a->elf_class == b->elf_class && a->byte_order == b->byte_order &&
	       a->machine == b->machine;
}

/*
 * Open an object named on the command line, for reading its header. Only
 * a regular file is opened at all: a FIFO would wait for a writer forever
 * and a device may act on being opened. The file is checked again once
 * open, in case it was swapped in between. Returns the descriptor, -1
 * when PATH is something other than a file (reported), or SKIPPED when
 * it cannot be read (warned).
 */
enum { SKIPPED = -2 };

static void warn_unreadable(struct dg_diag *diag, const char *path, int err)
{
	dg_warning(diag, path,
		   "cannot read it: %s; left out (its machine and struct "
		   "layouts are not used)",
		   strerror(err));
}

static int open_object(const char *path, struct dg_diag *diag)
{
	struct stat st;
	int fd;

	if (stat(path, &st))
		goto unreadable;
	if (!S_ISREG(st.st_mode))
		goto not_a_file;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		goto unreadable;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		return fd;
	close(fd);
not_a_file:
	dg_error(diag, path, "is %s, not an object file",
		 S_ISDIR(st.st_mode)	? "a directory"
		 : S_ISFIFO(st.st_mode) ? "a FIFO"
		 : S_ISSOCK(st.st_mode) ? "a socket"
					: "a device");
	return -1;
unreadable:
	warn_unreadable(diag, path, errno);
	return SKIPPED;
}

/*
 * A libtool object (`foo.lo') is a text file naming the real one,
 * relative to its own directory: pic_object='.libs/foo.o'. Returns the
 * path to use (malloc'd), or NULL when PATH (open as FD) is not one.
 */
static char *libtool_object(int fd, const char *path)
{
	static const char *const keys[] = { "pic_object='",
					    "non_pic_object='" };
	char text[4096], *line, *end, *r = NULL;
	const char *slash;
	ssize_t n;
	size_t i;

	n = strlen(path);
	if (n < 3 || strcmp(path + n - 3, ".lo"))
		return NULL;
	n = pread(fd, text, sizeof(text) - 1, 0);
	text[n > 0 ? n : 0] = '\0';
	slash = strrchr(path, '/');
	for (i = 0; i < 2 && !r; i++) {
		for (line = text; line && *line;
		     line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
			size_t k = strlen(keys[i]), dir;

			if (strncmp(line, keys[i], k))
				continue;
			line += k;
			end = strchr(line, '\'');
			if (!end || !strncmp(line, "none'", 5))
				break;
			dir = slash && line[0] != '/'
				      ? (size_t)(slash - path) + 1
				      : 0;
			r = malloc(dir + (size_t)(end - line) + 1);
			if (r)
				sprintf(r, "%.*s%.*s", (int)dir, path,
					(int)(end - line), line);
			break;
		}
	}
	return r;
}

/*
 * What sdt_target_from_fd()'s answer ERR for PATH means for -G: 1 it
 * decides, 0 it names no machine, SKIPPED it could not be read (both
 * warned), -1 it is no object we can follow (reported).
 */
static int object_verdict(const struct sdt_target *t, const char *path, int err,
			  struct dg_diag *diag)
{
	switch (err) {
	case 0:
		if (sdt_target_known(t))
			return 1;
		dg_error(diag, path,
			 "is for machine %u (%u-bit), for which dtrace-gen "
			 "cannot write objects",
			 t->machine, sdt_target_addr_size(t) * 8);
		return -1;
	case -ENOMSG:
		dg_warning(diag, path,
			   "names no machine (LLVM bitcode, or an archive "
			   "without objects); not used to choose the "
			   "object's machine");
		return 0;
	case -EBADMSG:
		dg_error(diag, path,
			 "is not a well-formed object: its ELF "
			 "header is damaged or cut short");
		return -1;
	case -ENOEXEC:
		dg_error(diag, path,
			 "is not an object file (neither ELF nor "
			 "an archive)");
		return -1;
	case -ENODATA:
		dg_error(diag, path, "is empty, not an object file");
		return -1;
	default:
		warn_unreadable(diag, path, -err);
		return SKIPPED;
	}
}

/*
 * The target of the object ARG (through its .lo). Returns 1 when it names
 * one, 0 when it names none (warned), SKIPPED when it cannot be read
 * (warned), -1 when it is no usable object (reported).
 */
static int object_target(struct sdt_target *t, const char *arg,
			 struct dg_diag *diag)
{
	int fd = open_object(arg, diag), err;
	char *real;

	if (fd < 0)
		return fd;
	real = libtool_object(fd, arg);
	if (real) {
		close(fd);
		fd = open_object(real, diag);
		if (fd < 0) {
			free(real);
			return fd;
		}
	}
	err = sdt_target_from_fd(t, fd);
	close(fd);
	err = object_verdict(t, real ? real : arg, err, diag);
	free(real);
	return err;
}

/*
 * Step 1. Returns 1 when some object decided, 0 when none did, -1. Counts
 * in *SKIPPED the objects that could not be read.
 */
static int target_from_objects(struct sdt_target *t,
			       const struct dg_object_opts *o, size_t *skipped,
			       struct dg_diag *diag)
{
	const char *first = NULL;
	size_t i;

	for (i = 0; i < o->nobjects; i++) {
		struct sdt_target this;
		int r = object_target(&this, o->objects[i], diag);

		*skipped += r == SKIPPED;
		if (r == -1)
			return -1;
		if (r <= 0)
			continue;
		if (!first) {
			*t = this;
			first = o->objects[i];
		} else if (!same_target(t, &this)) {
			dg_error(diag, o->objects[i],
				 "is for %s (%d-bit) but %s is for %s "
				 "(%d-bit); the probes object can link with "
				 "only one: pass objects of one target",
				 sdt_target_name(&this),
				 this.elf_class == 1 ? 32 : 64, first,
				 sdt_target_name(t),
				 t->elf_class == 1 ? 32 : 64);
			return -1;
		}
	}
	return first != NULL;
}

/* The architecture part of a GNU triplet, as the core names targets. */
static const char *triplet_arch(const char *s, size_t n)
{
	static const struct {
		const char *prefix, *name;
	} map[] = {
		{ "x86_64-", "x86_64" },
		{ "amd64-", "x86_64" },
		{ "i386-", "i386" },
		{ "i486-", "i386" },
		{ "i586-", "i386" },
		{ "i686-", "i386" },
		{ "aarch64-", "aarch64" },
		{ "arm64-", "aarch64" },
		{ "arm", "arm" },
		{ "riscv64", "riscv64" },
		{ "powerpc64le-", "ppc64le" },
		{ "ppc64le-", "ppc64le" },
		{ "powerpc64-", "ppc64" },
		{ "ppc64-", "ppc64" },
		{ "s390x-", "s390x" },
	};
	size_t i, k;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		k = strlen(map[i].prefix);
		if (n > k && !strncmp(s, map[i].prefix, k))
			return map[i].name;
	}
	return NULL;
}

static const char *either(const char *a, const char *b)
{
	return a ? a : b;
}

/* Step 3: what $CC and $CFLAGS compile for, when they say. */
static const char *target_from_cc(const struct dg_object_opts *o, int *bits)
{
	const char *vars[] = { o->cc, o->cflags }, *arch = NULL;
	size_t v, i, argc;
	char **argv;

	for (v = 0; v < 2; v++) {
		if (!vars[v] || dg_shell_split(vars[v], &argv, &argc))
			continue;
		for (i = 0; i < argc; i++) {
			const char *w = argv[i], *base = strrchr(w, '/');

			if (!strcmp(w, "-m32"))
				*bits = 32;
			else if (!strcmp(w, "-m64"))
				*bits = 64;
			else if (!strncmp(w, "--target=", 9))
				arch = either(
					triplet_arch(w + 9, strlen(w + 9)),
					arch);
			else if (!strcmp(w, "-target") && i + 1 < argc)
				arch = either(triplet_arch(argv[i + 1],
							   strlen(argv[i + 1])),
					      arch);
			else if (v == 0 && w[0] != '-')
				arch = either(
					triplet_arch(
						base ? base + 1 : w,
						strlen(base ? base + 1 : w)),
					arch);
		}
		dg_argv_free(argv, argc);
	}
	return arch;
}

/* -32 / -64 on x86 pick i386 or x86_64; elsewhere they must agree. */
static void apply_bits(struct sdt_target *t, int bits, struct dg_diag *diag)
{
	const char *want = bits == 32 ? "i386" : "x86_64";
	unsigned have = sdt_target_addr_size(t) * 8;

	if (!bits || (unsigned)bits == have)
		return;
	if (!strcmp(sdt_target_name(t), "x86_64") ||
	    !strcmp(sdt_target_name(t), "i386")) {
		sdt_target_from_name(t, want);
		return;
	}
	dg_warning(diag, NULL, "-%d is ignored: the object is for %s", bits,
		   sdt_target_name(t));
}

static int choose_target(struct sdt_target *t, const struct dg_object_opts *o,
			 struct dg_diag *diag)
{
	size_t skipped = 0;
	int r = target_from_objects(t, o, &skipped, diag), cc_bits = 0;
	const char *arch;

	if (r < 0)
		return -1;
	if (r > 0) {
		if (o->bits && (unsigned)o->bits != sdt_target_addr_size(t) * 8)
			dg_warning(diag, NULL,
				   "-%d is ignored: the objects given are "
				   "%u-bit",
				   o->bits, sdt_target_addr_size(t) * 8);
		return 0;
	}
	sdt_target_host(t);
	arch = target_from_cc(o, &cc_bits);
	if (arch && sdt_target_from_name(t, arch))
		sdt_target_host(t);
	apply_bits(t, o->bits ? o->bits : cc_bits, diag);
	if (skipped && skipped == o->nobjects)
		dg_warning(diag, NULL,
			   "no object given could be read: the object is for "
			   "%s (%u-bit), as when none is given",
			   sdt_target_name(t), sdt_target_addr_size(t) * 8);
	return 0;
}

static int v1_clash(const struct dg_object *obj, const struct dg_model *m,
		    struct dg_diag *diag)
{
	struct dg_strset seen = { 0 };
	size_t i, old;
	int r = 0;

	for (i = 0; i < obj->sema.nsymbols && !r; i++) {
		r = dg_strset_add(&seen, obj->symbols[i], i, &old);
		if (r > 0) {
			dg_error_at(diag, &m->probes[i].loc,
				    "with STAP_SDT_V1, probe `%s' of `%s' and "
				    "probe `%s' of `%s' both need the "
				    "semaphore `%s'; rename one or drop V1",
				    m->probes[i].name, m->probes[i].provider,
				    m->probes[old].name,
				    m->probes[old].provider, obj->symbols[i]);
		} else if (r < 0) {
			dg_error(diag, NULL, "out of memory");
		}
	}
	dg_strset_free(&seen);
	return r ? -1 : 0;
}

/* The index of PROVIDER:NAME in M, or -1. */
static long probe_index(const struct dg_model *m, const char *provider,
			const char *name)
{
	for (size_t i = 0; i < m->nprobes; i++) {
		if (!strcmp(m->probes[i].provider, provider) &&
		    !strcmp(m->probes[i].name, name))
			return (long)i;
	}
	return -1;
}

/*
 * Whether type note N is a generated header's record (marked "header",
 * not "usdt") of probe P of M that says what the .d file says. A compact
 * record (SDT_TYPES_NT_CODES) is always the compiler's, never a header's.
 */
static long header_record_of(const struct dg_model *m,
			     const struct sdt_type_note *n)
{
	const unsigned char *at = (const unsigned char *)n->desc;
	const unsigned char *end = at + n->size;
	const char *provider = sdt_note_take_str(&at, end);
	const char *name = provider ? sdt_note_take_str(&at, end) : NULL;
	const char *count = name ? sdt_note_take_str(&at, end) : NULL;
	const char *from, *kind;
	char want[16];
	long i;

	if (n->type != SDT_TYPES_NT)
		return -1;
	if (!count || (i = probe_index(m, provider, name)) < 0)
		return -1;
	snprintf(want, sizeof(want), "%u", m->probes[i].nargs);
	if (strcmp(count, want))
		return -1;
	for (unsigned a = 0; a < m->probes[i].nargs; a++) {
		const char *type = sdt_note_take_str(&at, end);
		const char *arg = type ? sdt_note_take_str(&at, end) : NULL;

		if (!arg || strcmp(type, m->probes[i].types[a]) ||
		    strcmp(arg, m->probes[i].names[a]))
			return -1;
	}
	from = at < end ? sdt_note_take_str(&at, end) : NULL;
	kind = at < end ? sdt_note_take_str(&at, end) : NULL;
	if (!from || strcmp(from, SDT_TYPES_FROM_HEADER) ||
	    (kind && !strcmp(kind, SDT_TYPES_FROM_USDT)))
		return -1;
	return i;
}

/*
 * Which probes of M get a record (WANT[i] set): those with a site in some
 * object and no header record in any. 1 when the objects cannot tell
 * (none given or none readable, an archive): then every probe.
 */
static int records_wanted(const struct dg_model *m,
			  const struct dg_object_opts *o, unsigned char *want,
			  unsigned char *described)
{
	size_t nread = 0;

	for (size_t k = 0; k < o->nobjects; k++) {
		int fd = open(o->objects[k], O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		char *real = fd < 0 ? NULL : libtool_object(fd, o->objects[k]);
		const char *path = real ? real : o->objects[k];
		char magic[8], err[256];
		struct sdt_elf f;

		if (fd >= 0)
			close(fd);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0 && read(fd, magic, 8) == 8 &&
		    !memcmp(magic, "!<arch>\n", 8)) {
			close(fd);
			free(real);
			return 1;
		}
		if (fd < 0) { /* missing (warned about): not given */
			free(real);
			continue;
		}
		close(fd);
		nread++;
		/* LLVM bitcode (-flto): its sites write their own records. */
		if (sdt_elf_open(&f, path, err, sizeof(err))) {
			free(real);
			continue;
		}
		free(real);
		for (size_t i = 0; i < f.nprobes; i++) {
			long p = probe_index(m, f.probes[i].note.provider,
					     f.probes[i].note.name);

			if (p >= 0)
				want[p] = 1;
		}
		for (size_t i = 0; i < f.ntype_notes; i++) {
			long p = header_record_of(m, &f.type_notes[i]);

			if (p >= 0)
				described[p] = 1;
		}
		sdt_elf_close(&f);
	}
	if (!nread)
		return 1;
	for (size_t i = 0; i < m->nprobes; i++)
		want[i] &= !described[i];
	return 0;
}

static struct sdt_typerec typerec_of(const struct dg_probe *p)
{
	struct sdt_typerec r = { .provider = p->provider,
				 .name = p->name,
				 .nargs = p->nargs,
				 .types = p->types,
				 .names = p->names };
	return r;
}

/*
 * The records of the probes records_wanted() picks, in declaration order,
 * in the target's byte order.
 */
static int encode_types(struct dg_object *obj, const struct dg_model *m,
			const struct dg_object_opts *o)
{
	size_t i, size = 0, at = 0, n = m->nprobes ? m->nprobes : 1;
	unsigned char *want = calloc(n, 2);

	if (!want)
		return -1;
	if (records_wanted(m, o, want, want + n))
		memset(want, 1, n);
	for (i = 0; i < m->nprobes; i++) {
		struct sdt_typerec r = typerec_of(&m->probes[i]);

		if (want[i])
			size += sdt_typerec_size(&r);
	}
	obj->types = malloc(size ? size : 1);
	if (!obj->types) {
		free(want);
		return -1;
	}
	for (i = 0; i < m->nprobes; i++) {
		struct sdt_typerec r = typerec_of(&m->probes[i]);

		if (want[i])
			at += sdt_typerec_encode(&obj->sema.target, &r,
						 obj->types + at);
	}
	free(want);
	obj->sema.extra_notes = obj->types;
	obj->sema.extra_notes_size = size;
	return 0;
}

int dg_object_prepare(struct dg_object *obj, const struct dg_model *m,
		      const struct dg_object_opts *o, struct dg_diag *diag)
{
	memset(obj, 0, sizeof(*obj));
	if (choose_target(&obj->sema.target, o, diag))
		return -1;
	obj->symbols = calloc(m->nprobes + 1, sizeof(*obj->symbols));
	if (!obj->symbols || encode_types(obj, m, o)) {
		dg_error(diag, NULL, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < m->nprobes; i++)
		obj->symbols[i] = o->v1 ? m->probes[i].semaphore_v1
					: m->probes[i].semaphore;
	obj->sema.symbols = obj->symbols;
	obj->sema.nsymbols = m->nprobes;
	obj->sema.hidden = !o->v1 && !o->v2;
	if (dg_layout_append(obj, m, o, diag))
		return -1;
	/* Without V1 the parser already made these unique. */
	return o->v1 ? v1_clash(obj, m, diag) : 0;
}

int dg_object_write(int fd, const struct dg_object *obj, const char *out,
		    struct dg_diag *diag)
{
	char err[256] = "";
	int r;

	r = sdt_write_semaphore_object(fd, &obj->sema, err, sizeof(err));
	if (r) {
		if (err[0])
			dg_error(diag, out, "%s", err);
		else
			dg_error(diag, out, "cannot write the object: %s",
				 strerror(-r));
		return -1;
	}
	return 0;
}

void dg_object_free(struct dg_object *obj)
{
	free(obj->symbols);
	free(obj->types);
	memset(obj, 0, sizeof(*obj));
}
