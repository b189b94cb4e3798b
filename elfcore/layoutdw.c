/* SPDX-License-Identifier: MIT */
/*
 * Struct layouts from DWARF (layoutdw.h).
 *
 * The walk is one level deep on purpose: the outermost struct's members,
 * and the members of the structs and unions it holds by value. Deeper
 * structs, arrays of structs and anything else we cannot print stay
 * opaque bytes of the right size, so a declaration built from the
 * layout still places every field where the compiler did.
 */
#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layoutdw.h"

#define MAX_MEMBERS 4096 /* the parser's limit (layout.c) */
#define MAX_NESTED 255	 /* and its 256 structs in all */

struct sdt_dwarf {
	Dwfl_Callbacks cb;
	const char *debug_dir;
	Dwfl *dwfl;
	Dwarf *dw;
	const char *file;
	int big_endian;
	char why[320]; /* the first candidate refused, and why */
};

/* ------------------------------------------------------------------ */
/* Finding the debug file                                              */

/*
 * libdwfl's own search (dwfl_standard_find_debuginfo) opens whatever a
 * debug link names: a FIFO blocks in open(), /dev/zero is CRC'd forever,
 * and `../other/x.debug' leaves the places we document. Ours opens only
 * regular files, takes a debug link's name only without a `/', and looks
 * only where docs/struct-layouts.md says.
 */

/* PATH opened for reading if it is a regular file, else -1. */
static int open_regular(const char *path)
{
	struct stat st;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/* The CRC-32 (as .gnu_debuglink's) of a regular file's bytes. */
static int file_crc(int fd, uint32_t *out)
{
	static uint32_t table[256];
	unsigned char buf[65536];
	uint32_t crc = 0xffffffffu;
	off_t at = 0;
	ssize_t n;

	if (!table[1]) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	}
	while ((n = pread(fd, buf, sizeof(buf), at)) > 0) {
		for (ssize_t i = 0; i < n; i++)
			crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
		at += n;
	}
	*out = crc ^ 0xffffffffu;
	return n < 0 ? -1 : 0;
}

/* Does the ELF file open at FD carry the build ID ID (LEN bytes)? */
static int same_build_id(int fd, const void *id, int len)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const void *got;
	ssize_t n = elf ? dwelf_elf_gnu_build_id(elf, &got) : -1;
	int same = n == len && !memcmp(got, id, (size_t)len);

	elf_end(elf);
	return same;
}

/* Try the candidate PATH: its descriptor with *FOUND set, or -1. */
static int try_file(struct sdt_dwarf *d, const char *path, GElf_Word crc,
		    int check_crc, const void *id, int id_len, char **found)
{
	int fd = open_regular(path);
	uint32_t got;

	if (fd < 0) {
		if (errno == EINVAL && !d->why[0])
			snprintf(d->why, sizeof(d->why),
				 "%s is not a regular file: not read", path);
		return -1;
	}
	if ((check_crc && (file_crc(fd, &got) || got != crc)) ||
	    (id_len > 0 && !same_build_id(fd, id, id_len)) ||
	    !(*found = strdup(path))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* DEBUG_DIR/.build-id/xx/yyyy.debug for the module's build ID. */
static int by_build_id(struct sdt_dwarf *d, const unsigned char *id, int len,
		       char **found)
{
	size_t size = strlen(d->debug_dir) + 2 * (size_t)len + 32;
	char *path = malloc(size), *p;
	int fd;

	if (!path || len < 2)
		return free(path), -1;
	p = path + sprintf(path, "%s/.build-id/%02x/", d->debug_dir, id[0]);
	for (int i = 1; i < len; i++)
		p += sprintf(p, "%02x", id[i]);
	strcpy(p, ".debug");
	fd = try_file(d, path, 0, 0, id, len, found);
	free(path);
	return fd;
}

/* The debug link NAME beside FILE, in its .debug/, under DEBUG_DIR. */
static int by_debuglink(struct sdt_dwarf *d, const char *file, const char *name,
			GElf_Word crc, char **found)
{
	const char *slash = strrchr(file, '/');
	char *dir =
		slash ? strndup(file, (size_t)(slash - file + 1)) : strdup("");
	char *abs = dir ? realpath(*dir ? dir : ".", NULL) : NULL;
	size_t size = strlen(d->debug_dir) + (abs ? strlen(abs) : 0) +
		      (dir ? strlen(dir) : 0) + strlen(name) + 16;
	char *path = malloc(size);
	int fd = -1;

	if (dir && path) {
		snprintf(path, size, "%s%s", dir, name);
		fd = try_file(d, path, crc, 1, NULL, 0, found);
		if (fd < 0) {
			snprintf(path, size, "%s.debug/%s", dir, name);
			fd = try_file(d, path, crc, 1, NULL, 0, found);
		}
		if (fd < 0 && abs) {
			snprintf(path, size, "%s%s%s/%s", d->debug_dir,
				 *abs == '/' ? "" : "/", abs, name);
			fd = try_file(d, path, crc, 1, NULL, 0, found);
		}
	}
	free(path);
	free(abs);
	free(dir);
	return fd;
}

/*
 * A dwz file (.gnu_debugaltlink, asked for with no CRC): only under
 * DEBUG_DIR, where Debian's and Fedora's packages put them
 * (/usr/lib/debug/.dwz/...), read from the debug directory in use.
 */
static int by_altlink(struct sdt_dwarf *d, const char *name, char **found)
{
	static const char std[] = "/usr/lib/debug/";
	char *path;
	int fd;

	if (strncmp(name, std, sizeof(std) - 1) || strstr(name, "/../") ||
	    strstr(name, "/./"))
		return -1;
	path = malloc(strlen(d->debug_dir) + strlen(name) + 2);
	if (!path)
		return -1;
	sprintf(path, "%s/%s", d->debug_dir, name + sizeof(std) - 1);
	fd = try_file(d, path, 0, 0, NULL, 0, found);
	free(path);
	return fd;
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata,
			  const char *modname, Dwarf_Addr base,
			  const char *file, const char *link, GElf_Word crc,
			  char **found)
{
	struct sdt_dwarf *d = *userdata;
	const unsigned char *id = NULL;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(mod, &id, &vaddr);
	int fd = -1;

	(void)modname, (void)base;
	if (!d)
		return -1;
	/*
	 * A dwz file's link (.gnu_debugaltlink) comes with no CRC, and names
	 * a path; a .gnu_debuglink always has a CRC and must name no path.
	 */
	if (link && !crc && strchr(link, '/'))
		fd = by_altlink(d, link, found);
	else if (len > 0)
		fd = by_build_id(d, id, len, found);
	if (fd >= 0)
		return fd;
	if (link && strchr(link, '/')) {
		if (!d->why[0])
			snprintf(d->why, sizeof(d->why),
				 "its debug link `%.200s' names another "
				 "directory: not followed",
				 link);
	} else if (link && *link && file) {
		fd = by_debuglink(d, file, link, crc, found);
	}
	return fd;
}

/* The main file is always given: libdwfl never needs to look for it. */
static int find_no_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		       Dwarf_Addr base, char **file_name, Elf **elfp)
{
	(void)mod, (void)userdata, (void)modname, (void)base;
	(void)file_name, (void)elfp;
	return -1;
}

int sdt_dwarf_open(const char *path, int fd, const char *debug_dir,
		   struct sdt_dwarf **out, char *why, size_t why_size)
{
	struct sdt_dwarf *d = calloc(1, sizeof(*d));
	Dwfl_Module *m;
	Dwarf_Addr bias;
	const char *mainfile = NULL, *debugfile = NULL;
	void **userdata = NULL;
	int own;

	*out = NULL;
	if (!d)
		return -ENOMEM;
	d->debug_dir = debug_dir && *debug_dir ? debug_dir : "/usr/lib/debug";
	d->cb.find_elf = find_no_elf;
	d->cb.find_debuginfo = find_debuginfo;
	d->cb.section_address = dwfl_offline_section_address;
	if (!(d->dwfl = dwfl_begin(&d->cb)))
		goto none;
	/* libdwfl keeps (and closes) the descriptor it is given. */
	own = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : open_regular(path);
	if (own < 0) {
		if (errno == EINVAL)
			snprintf(d->why, sizeof(d->why),
				 "%s is not a regular file: not read", path);
		goto none;
	}
	m = dwfl_report_offline(d->dwfl, path, path, own);
	if (!m) {
		close(own);
		goto none;
	}
	dwfl_report_end(d->dwfl, NULL, NULL);
	dwfl_module_info(m, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	if (userdata)
		*userdata = d;
	if (!(d->dw = dwfl_module_getdwarf(m, &bias)))
		goto none;
	dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, &mainfile,
			 &debugfile);
	d->file = debugfile ? debugfile : mainfile ? mainfile : path;
	{
		Elf *elf = dwarf_getelf(d->dw);
		const char *id = elf ? elf_getident(elf, NULL) : NULL;

		d->big_endian = id && id[EI_DATA] == ELFDATA2MSB;
	}
	*out = d;
	return 0;
none:
	if (why && why_size)
		snprintf(why, why_size, "%s", d ? d->why : "");
	sdt_dwarf_close(d);
	return -ENOENT;
}

void sdt_dwarf_close(struct sdt_dwarf *d)
{
	if (!d)
		return;
	if (d->dwfl)
		dwfl_end(d->dwfl);
	free(d);
}

const char *sdt_dwarf_file(const struct sdt_dwarf *d)
{
	return d->file;
}

/* ------------------------------------------------------------------ */
/* Types                                                               */

static int is_aggregate(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

/* T without typedefs and qualifiers; 0, or -1 for void. */
static int peel(Dwarf_Die *t, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	*out = *t;
	for (int depth = 0; depth < 64; depth++) {
		int tag = dwarf_tag(out);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type &&
		    tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type)
			return 0;
		if (!dwarf_attr_integrate(out, DW_AT_type, &a) ||
		    !dwarf_formref_die(&a, out))
			return -1;
	}
	return -1;
}

/* The type DIE a DIE refers to; 0, or -1 (void). */
static int type_of(Dwarf_Die *die, Dwarf_Die *t)
{
	Dwarf_Attribute a;

	if (!dwarf_attr_integrate(die, DW_AT_type, &a) ||
	    !dwarf_formref_die(&a, t))
		return -1;
	return 0;
}

static uint64_t type_size(Dwarf_Die *t)
{
	Dwarf_Word size;

	return dwarf_aggregate_size(t, &size) ? 0 : size;
}

static uint64_t udata(Dwarf_Die *die, int name, int *ok)
{
	Dwarf_Attribute a;
	Dwarf_Word v;

	*ok = dwarf_attr_integrate(die, name, &a) && !dwarf_formudata(&a, &v);
	return *ok ? v : 0;
}

/* The number of elements of array type T (all dimensions); 0: unknown. */
static uint64_t array_count(Dwarf_Die *t)
{
	Dwarf_Die sub;
	uint64_t total = 1;
	int any = 0, ok;

	if (dwarf_child(t, &sub))
		return 0;
	do {
		uint64_t n;

		if (dwarf_tag(&sub) != DW_TAG_subrange_type)
			continue;
		n = udata(&sub, DW_AT_count, &ok);
		if (!ok) {
			n = udata(&sub, DW_AT_upper_bound, &ok);
			if (!ok)
				return 0;
			n++;
		}
		total *= n;
		any = 1;
	} while (!dwarf_siblingof(&sub, &sub));
	return any ? total : 0;
}

/* snprintf that may cut: a type's spelling is for people only. */
static void put(char *b, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b, size, fmt, ap);
	va_end(ap);
}

/* The C spelling of type T into B (SIZE bytes); void when NULL. */
static void type_text(Dwarf_Die *t, char *b, size_t size, int depth)
{
	Dwarf_Die in;
	const char *name = t ? dwarf_diename(t) : NULL;
	char inner[256];
	int has_in = t && !type_of(t, &in);

	if (!t) {
		put(b, size, "void");
		return;
	}
	if (depth > 16) {
		put(b, size, "...");
		return;
	}
	switch (dwarf_tag(t)) {
	case DW_TAG_base_type:
	case DW_TAG_typedef:
		put(b, size, "%s", name ? name : "?");
		return;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
		put(b, size, "%s %s",
		    dwarf_tag(t) == DW_TAG_union_type	      ? "union"
		    : dwarf_tag(t) == DW_TAG_enumeration_type ? "enum"
							      : "struct",
		    name ? name : "{...}");
		return;
	case DW_TAG_subroutine_type:
		type_text(has_in ? &in : NULL, inner, sizeof(inner), depth + 1);
		put(b, size, "%s ()", inner);
		return;
	case DW_TAG_pointer_type:
		if (has_in && dwarf_tag(&in) == DW_TAG_subroutine_type) {
			Dwarf_Die ret;

			type_text(type_of(&in, &ret) ? NULL : &ret, inner,
				  sizeof(inner), depth + 1);
			put(b, size, "%s (*)()", inner);
			return;
		}
		type_text(has_in ? &in : NULL, inner, sizeof(inner), depth + 1);
		put(b, size, "%s%s*", inner,
		    inner[strlen(inner) - 1] == '*' ? "" : " ");
		return;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type: {
		const char *q = dwarf_tag(t) == DW_TAG_const_type ? "const"
								  : "volatile";

		type_text(has_in ? &in : NULL, inner, sizeof(inner), depth + 1);
		if (inner[strlen(inner) - 1] == '*')
			put(b, size, "%s%s", inner, q);
		else
			put(b, size, "%s %s", q, inner);
		return;
	}
	case DW_TAG_array_type: {
		uint64_t n = array_count(t);

		type_text(has_in ? &in : NULL, inner, sizeof(inner), depth + 1);
		if (n)
			put(b, size, "%s [%llu]", inner, (unsigned long long)n);
		else
			put(b, size, "%s []", inner);
		return;
	}
	default:
		type_text(has_in ? &in : NULL, b, size, depth + 1);
		return;
	}
}

/* A plain `char' (the strings' element), not signed or unsigned char. */
static int is_char(Dwarf_Die *t)
{
	const char *name = dwarf_diename(t);

	return dwarf_tag(t) == DW_TAG_base_type && name &&
	       !strcmp(name, "char");
}

/* The kind of a scalar of peeled type T, or 0 for no scalar. */
static char scalar_kind(Dwarf_Die *t, struct sdt_dwarf *d)
{
	Dwarf_Die in;
	int ok;
	uint64_t enc;

	switch (dwarf_tag(t)) {
	case DW_TAG_base_type:
		enc = udata(t, DW_AT_encoding, &ok);
		if (enc == DW_ATE_float)
			return SDT_FK_FLOAT;
		if (enc == DW_ATE_signed || enc == DW_ATE_signed_char)
			return SDT_FK_INT;
		if (enc == DW_ATE_unsigned || enc == DW_ATE_unsigned_char ||
		    enc == DW_ATE_boolean || enc == DW_ATE_UTF)
			return SDT_FK_UINT;
		return 0;
	case DW_TAG_enumeration_type:
		if (!type_of(t, &in) && !peel(&in, &in))
			return scalar_kind(&in, d);
		return SDT_FK_UINT;
	case DW_TAG_pointer_type:
		if (!type_of(t, &in) && !peel(&in, &in) && is_char(&in))
			return SDT_FK_STRPTR;
		return SDT_FK_PTR;
	default:
		return 0;
	}
}

static int scalar_size_ok(char k, uint64_t size)
{
	if (k == SDT_FK_FLOAT)
		return size == 4 || size == 8 || size == 16;
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* ------------------------------------------------------------------ */
/* Structs                                                             */

struct walk {
	struct sdt_dwarf *d;
	struct sdt_strbuf *b;
	const char *top_tag;
	Dwarf_Die nested[MAX_NESTED];
	unsigned nnested;
};

/* The index a struct held by value gets among the layout's structs. */
static unsigned nested_index(struct walk *w, Dwarf_Die *t)
{
	for (unsigned i = 0; i < w->nnested; i++) {
		if (dwarf_dieoffset(&w->nested[i]) == dwarf_dieoffset(t))
			return i + 1;
	}
	if (w->nnested == MAX_NESTED)
		return 0;
	w->nested[w->nnested++] = *t;
	return w->nnested;
}

/*
 * C++ static members are declarations, not in the struct; a base class
 * is an anonymous member holding its fields.
 */
static int is_data_member(Dwarf_Die *m)
{
	int tag = dwarf_tag(m);

	return (tag == DW_TAG_member || tag == DW_TAG_inheritance) &&
	       !dwarf_hasattr(m, DW_AT_declaration) &&
	       !dwarf_hasattr(m, DW_AT_external);
}

/* S's data members into OUT (when not NULL); how many there are. */
static unsigned members(Dwarf_Die *s, Dwarf_Die *out)
{
	Dwarf_Die m;
	unsigned n = 0;

	if (dwarf_child(s, &m))
		return 0;
	do {
		if (!is_data_member(&m))
			continue;
		if (out)
			out[n] = m;
		n++;
	} while (!dwarf_siblingof(&m, &m));
	return n;
}

/*
 * A struct or class with no data member at any depth: C++ gives it one
 * byte, which [[no_unique_address]] (and an empty base) lets the next
 * member share. It holds nothing, so it takes no room in the layout.
 */
static int is_empty(Dwarf_Die *t, int depth)
{
	Dwarf_Die m, mt;

	if (!is_aggregate(dwarf_tag(t)) || depth > 8)
		return 0;
	if (dwarf_child(t, &m))
		return 1;
	do {
		if (!is_data_member(&m))
			continue;
		if (type_of(&m, &mt) || peel(&mt, &mt) ||
		    !is_empty(&mt, depth + 1))
			return 0;
	} while (!dwarf_siblingof(&m, &m));
	return 1;
}

/* A bit-field's first bit from the start of its struct. */
static uint64_t bit_position(struct walk *w, Dwarf_Die *m, uint64_t loc,
			     uint64_t bits)
{
	int ok;
	uint64_t v = udata(m, DW_AT_data_bit_offset, &ok);
	uint64_t from_msb, unit;

	if (ok)
		return v;
	/* DWARF 2 and 3 count from the storage unit's most significant bit. */
	from_msb = udata(m, DW_AT_bit_offset, &ok);
	unit = udata(m, DW_AT_byte_size, &ok);
	if (!ok) {
		Dwarf_Die t;

		unit = type_of(m, &t) ? 0 : type_size(&t);
	}
	if (w->d->big_endian)
		return loc * 8 + from_msb;
	return loc * 8 + unit * 8 - from_msb - bits;
}

/*
 * A member's byte offset: a constant, or in DWARF 2 the expression
 * DW_OP_plus_uconst N. Union members have none: 0.
 */
static uint64_t member_location(Dwarf_Die *m)
{
	Dwarf_Attribute a;
	Dwarf_Word v;
	Dwarf_Op *ops;
	size_t n;

	if (!dwarf_attr_integrate(m, DW_AT_data_member_location, &a))
		return 0;
	if (!dwarf_formudata(&a, &v))
		return v;
	if (!dwarf_getlocation(&a, &ops, &n) && n == 1 &&
	    ops[0].atom == DW_OP_plus_uconst)
		return ops[0].number;
	return 0;
}

/* A C identifier: what the descriptor takes for a field's name. */
static int c_word(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return 0;
	for (; *s; s++) {
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && *s != '_')
			return 0;
	}
	return 1;
}

/*
 * One member's strings: name, type, offset, size, kind, extra. LIMIT is
 * where the next member of a struct starts (bytes; UINT64_MAX: none).
 */
static void put_member(struct walk *w, Dwarf_Die *m, int depth, uint64_t limit)
{
	struct sdt_strbuf *b = w->b;
	const char *name = dwarf_diename(m);
	Dwarf_Die t, p, el;
	char text[256], extra[64] = "";
	uint64_t loc, size, bits, count;
	char kind = SDT_FK_OPAQUE, k;
	int ok, has_t = !type_of(m, &t);

	type_text(has_t ? &t : NULL, text, sizeof(text), 0);
	loc = member_location(m);
	size = has_t ? type_size(&t) : 0;
	bits = udata(m, DW_AT_bit_size, &ok);
	if (!has_t || peel(&t, &p)) {
		/* void: nothing to read */
	} else if (bits) {
		uint64_t at = bit_position(w, m, loc, bits);

		kind = scalar_kind(&p, w->d);
		if (kind != SDT_FK_INT && kind != SDT_FK_UINT)
			kind = SDT_FK_OPAQUE;
		else
			snprintf(extra, sizeof(extra), "%llu:%llu",
				 (unsigned long long)at,
				 (unsigned long long)bits);
		/* Its storage unit, as pahole and the compiler count it. */
		loc = size && size <= 8 ? at / (size * 8) * size : at / 8;
	} else if ((k = scalar_kind(&p, w->d)) && scalar_size_ok(k, size)) {
		kind = k;
	} else if (is_empty(&p, 0)) {
		size = 0; /* holds nothing: the next member may share its byte
			   */
	} else if (is_aggregate(dwarf_tag(&p)) && depth == 0 &&
		   !dwarf_hasattr(&p, DW_AT_declaration)) {
		unsigned i = nested_index(w, &p);

		if (i) {
			kind = SDT_FK_NESTED;
			snprintf(extra, sizeof(extra), "%u", i);
		}
	} else if (dwarf_tag(&p) == DW_TAG_array_type && size &&
		   !type_of(&p, &el) && !peel(&el, &el) &&
		   (count = array_count(&p))) {
		uint64_t esize = type_size(&el);

		if (is_char(&el)) {
			kind = SDT_FK_CHARS;
		} else if ((k = scalar_kind(&el, w->d)) &&
			   scalar_size_ok(k, esize) && esize * count == size) {
			kind = SDT_FK_ARRAY;
			snprintf(extra, sizeof(extra), "%c:%llu:%llu", k,
				 (unsigned long long)esize,
				 (unsigned long long)count);
		}
	}
	/* C++'s hidden members (`_vptr.Widget'): bytes with no name. */
	if (dwarf_hasattr(m, DW_AT_artificial))
		kind = SDT_FK_OPAQUE, extra[0] = '\0';
	/*
	 * C++ puts a derived class's members in a base's tail padding: the
	 * base is then its bytes up to the next member.
	 */
	if (!bits && limit >= loc && loc + size > limit) {
		size = limit - loc;
		kind = SDT_FK_OPAQUE, extra[0] = '\0';
	}
	sdt_strbuf_add(b, name && c_word(name) ? name : "");
	sdt_strbuf_add(b, text);
	sdt_strbuf_addu(b, loc);
	sdt_strbuf_addu(b, size);
	sdt_strbuf_add(b, (char[2]){ kind, 0 });
	sdt_strbuf_add(b, extra);
}

/*
 * Where a member starts, in bits, to order members by: a bit-field where
 * its first bit is (DWARF 2-style bit offsets too, which clang writes).
 */
static uint64_t member_bit(struct walk *w, Dwarf_Die *m)
{
	int ok;
	uint64_t bits = udata(m, DW_AT_bit_size, &ok);

	if (ok && bits)
		return bit_position(w, m, member_location(m), bits);
	return member_location(m) * 8;
}

/*
 * Member DIEs of S in the order of their offsets (C++ lists a base class
 * before the vtable pointer that precedes it), for both passes.
 */
static Dwarf_Die *member_list(struct walk *w, Dwarf_Die *s, unsigned *n)
{
	unsigned count = members(s, NULL);
	Dwarf_Die *m;

	*n = 0;
	if (count > MAX_MEMBERS) {
		errno = E2BIG;
		return NULL;
	}
	if (!(m = malloc((count + 1) * sizeof(*m))))
		return NULL;
	*n = members(s, m);
	for (unsigned i = 1; i < *n; i++) {
		Dwarf_Die key = m[i];
		uint64_t at = member_bit(w, &key);
		unsigned j = i;

		for (; j > 0 && member_bit(w, &m[j - 1]) > at; j--)
			m[j] = m[j - 1];
		m[j] = key;
	}
	return m;
}

static int put_struct(struct walk *w, Dwarf_Die *s, const char *tag, int depth)
{
	unsigned n;
	Dwarf_Die *m = member_list(w, s, &n);

	if (!m)
		return errno == E2BIG ? -E2BIG : -ENOMEM;
	sdt_strbuf_add(w->b,
		       dwarf_tag(s) == DW_TAG_union_type ? "union" : "struct");
	sdt_strbuf_add(w->b, tag);
	sdt_strbuf_addu(w->b, type_size(s));
	sdt_strbuf_addu(w->b, n);
	for (unsigned i = 0; i < n; i++) {
		uint64_t limit = UINT64_MAX;
		int ok;

		/* The next member of a struct that is no bit-field and holds
		 * something (an empty one may share an int's first byte). */
		for (unsigned k = i + 1;
		     k < n && dwarf_tag(s) != DW_TAG_union_type; k++) {
			Dwarf_Die t;

			if (!udata(&m[k], DW_AT_bit_size, &ok) &&
			    !type_of(&m[k], &t) && !peel(&t, &t) &&
			    !is_empty(&t, 0)) {
				limit = member_location(&m[k]);
				break;
			}
		}
		put_member(w, &m[i], depth, limit);
	}
	free(m);
	return 0;
}

/* A tag to declare a nested struct by: its own, else made up. */
static void nested_tag(struct walk *w, Dwarf_Die *s, unsigned i, char *buf,
		       size_t size)
{
	const char *name = dwarf_diename(s);

	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "%s_anon%u", w->top_tag, i);
}

/* The definition named NAME with tag TAG at a unit's top level. */
static int find_named(Dwarf *dw, int tag, const char *name, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu, c;

		if (dwarf_offdie(dw, off + hsize, &cu) &&
		    !dwarf_child(&cu, &c)) {
			do {
				const char *n = dwarf_diename(&c);

				if (dwarf_tag(&c) == tag && n &&
				    !strcmp(n, name) &&
				    !dwarf_hasattr(&c, DW_AT_declaration)) {
					*out = c;
					return 0;
				}
			} while (!dwarf_siblingof(&c, &c));
		}
		off = next;
	}
	return -ENOENT;
}

/* NAME's struct or union; *TAG the name to declare it by. */
static int find_struct(struct sdt_dwarf *d, const char *name, Dwarf_Die *s,
		       const char **tag)
{
	Dwarf_Die t;

	if (!strncmp(name, "struct ", 7) || !strncmp(name, "union ", 6)) {
		int is_struct = name[0] == 's';

		*tag = name + (is_struct ? 7 : 6);
		return find_named(d->dw,
				  is_struct ? DW_TAG_structure_type
					    : DW_TAG_union_type,
				  *tag, s);
	}
	if (find_named(d->dw, DW_TAG_typedef, name, &t)) {
		/* C++ names a struct, class or union without the keyword. */
		static const int tags[] = { DW_TAG_structure_type,
					    DW_TAG_class_type,
					    DW_TAG_union_type };

		*tag = name;
		for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
			if (!find_named(d->dw, tags[i], name, s))
				return 0;
		}
		return -ENOENT;
	}
	if (peel(&t, s) || !is_aggregate(dwarf_tag(s)))
		return -EINVAL;
	*tag = dwarf_diename(s) ? dwarf_diename(s) : name;
	if (dwarf_hasattr(s, DW_AT_declaration))
		return find_named(d->dw, dwarf_tag(s), *tag, s);
	return 0;
}

int sdt_dwarf_layout(struct sdt_dwarf *d, const char *name,
		     struct sdt_strbuf *b)
{
	struct walk w = { .d = d };
	struct sdt_strbuf scratch = { 0 };
	Dwarf_Die s;
	const char *tag;
	int r = find_struct(d, name, &s, &tag);

	if (r)
		return r;
	/* First pass: which structs it holds by value (their indexes). */
	w.b = &scratch;
	w.top_tag = tag;
	r = put_struct(&w, &s, tag, 0);
	sdt_strbuf_free(&scratch);
	if (r)
		return r;
	w.b = b;
	sdt_strbuf_add(b, name);
	sdt_strbuf_addu(b, 1 + w.nnested);
	w.nnested = 0;
	r = put_struct(&w, &s, tag, 0);
	for (unsigned i = 0; i < w.nnested && !r; i++) {
		char ntag[128];

		nested_tag(&w, &w.nested[i], i + 1, ntag, sizeof(ntag));
		r = put_struct(&w, &w.nested[i], ntag, 1);
	}
	return r ? r : b->oom ? -ENOMEM : 0;
}
