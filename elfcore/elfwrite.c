/* SPDX-License-Identifier: MIT */
/*
 * Writing the two objects our products make, through libelf so that class
 * and byte order are always the target's.
 *
 * The relocatable object (dtrace-gen -G) is laid out by libelf: we give it
 * sections and symbols, nothing else, so the bytes depend only on the
 * input. The shared object (libstapsdt) we lay out ourselves, because
 * program headers must agree with section addresses and the note needs
 * final addresses, and build as one image (see `struct image'):
 *
 *   offset 0    RX  ELF header, program headers, .note.gnu.build-id,
 *                   .hash .dynsym .dynstr .stapsdt.base,
 *                   .text: one stub per probe
 *                                                       vaddr = offset
 *   then        RW  .dynamic, .probes (semaphores)      vaddr = offset + P
 *   then            .note.stapsdt, .note.sdtkit (when given), .shstrtab,
 *                   section headers (not loaded)
 *
 * P is the target's page size. An object with room to grow (sdt_dso.slots)
 * has stubs and semaphores for every slot, both note sections, and free
 * bytes after each for notes added later by sdt_dso_append(), which moves
 * a section whose room is used up past the end of the file.
 *
 * File offsets are packed; only the virtual
 * addresses step by a page, so each segment keeps offset == vaddr mod P
 * and gets its own pages without the file growing or the mapping
 * reserving more than a few pages. Two segments, not three: each costs the
 * loader an mmap, and the headers need no page of their own.
 *
 * It is written in two steps. First a layout (`struct dso_layout'):
 * every size, offset, address and index, each count taken from the table
 * it counts, so adding a section, program header or dynamic entry is one
 * row. Then emitters that only copy what the layout says into the image.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <libelf.h>

#include "elfobj.h"
#include "errmsg.h"

#define set_err sdt_errf

static int elf_fail(char *err, size_t errlen, const char *what)
{
	return set_err(err, errlen, -EIO, "%s: %s", what, elf_errmsg(-1));
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* A string table under construction; offset 0 is the empty string. */
struct strtab {
	char *buf;
	size_t len;
	size_t cap;
};

static size_t strtab_add(struct strtab *s, const char *str)
{
	size_t n = strlen(str) + 1;

	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 256;
		while (cap < s->len + n)
			cap *= 2;
		char *b = realloc(s->buf, cap);
		if (!b)
			return 0;
		s->buf = b;
		s->cap = cap;
	}
	if (s->len == 0)
		s->buf[s->len++] = 0;
	memcpy(s->buf + s->len, str, n);
	s->len += n;
	return s->len - n;
}

static Elf *new_elf(int fd, const struct sdt_target *t, int type)
{
	Elf *elf;
	GElf_Ehdr eh;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!elf)
		return NULL;
	if (!gelf_newehdr(elf, t->elf_class) || !gelf_getehdr(elf, &eh)) {
		elf_end(elf);
		return NULL;
	}
	eh.e_ident[EI_DATA] = t->byte_order;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_machine = t->machine;
	eh.e_type = (GElf_Half)type;
	eh.e_version = EV_CURRENT;
	eh.e_flags = t->flags;
	if (!gelf_update_ehdr(elf, &eh)) {
		elf_end(elf);
		return NULL;
	}
	return elf;
}

struct sec {
	const char *name;
	GElf_Word type;
	GElf_Xword flags;
	GElf_Xword align;
	Elf_Type dtype;
	void *buf;
	size_t size;
	GElf_Xword entsize;
	GElf_Word link; /* index of another section */
	GElf_Word info;
	/* ELF_F_LAYOUT only */
	GElf_Addr addr;
	GElf_Off offset;
};

/* Add S to ELF; its name is added to SHSTR. Returns the section index. */
static size_t add_sec(Elf *elf, struct strtab *shstr, struct sec *s)
{
	Elf_Scn *scn = elf_newscn(elf);
	Elf_Data *d;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh))
		return 0;
	size_t name = strtab_add(shstr, s->name);
	if (!name)
		return 0;
	d = elf_newdata(scn);
	if (!d)
		return 0;
	d->d_buf = s->buf;
	d->d_size = s->size;
	d->d_type = s->dtype;
	d->d_align = s->align;
	d->d_off = 0;
	d->d_version = EV_CURRENT;
	sh.sh_name = (GElf_Word)name;
	sh.sh_type = s->type;
	sh.sh_flags = s->flags;
	sh.sh_addralign = s->align;
	sh.sh_entsize = s->entsize;
	sh.sh_link = s->link;
	sh.sh_info = s->info;
	sh.sh_addr = s->addr;
	sh.sh_offset = s->offset;
	sh.sh_size = s->size;
	if (!gelf_update_shdr(scn, &sh))
		return 0;
	return elf_ndxscn(scn);
}

/*
 * The section name table, last, and the header's pointer to it. Its own
 * name goes in before the table's bytes are handed to libelf, so the
 * buffer no longer moves.
 */
static int finish_shstrtab(Elf *elf, struct strtab *shstr, GElf_Off offset)
{
	size_t name = strtab_add(shstr, ".shstrtab");
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;
	GElf_Ehdr eh;

	if (!name)
		return -ENOMEM;
	scn = elf_newscn(elf);
	d = scn ? elf_newdata(scn) : NULL;
	if (!d || !gelf_getshdr(scn, &sh))
		return -EIO;
	d->d_buf = shstr->buf;
	d->d_size = shstr->len;
	d->d_type = ELF_T_BYTE;
	d->d_align = 1;
	sh.sh_name = (GElf_Word)name;
	sh.sh_type = SHT_STRTAB;
	sh.sh_addralign = 1;
	sh.sh_offset = offset;
	sh.sh_size = shstr->len;
	if (!gelf_update_shdr(scn, &sh) || !gelf_getehdr(elf, &eh))
		return -EIO;
	/* Far below SHN_LORESERVE: we write a handful of sections. */
	eh.e_shstrndx = (GElf_Half)elf_ndxscn(scn);
	return gelf_update_ehdr(elf, &eh) ? 0 : -EIO;
}

static size_t sym_size(const struct sdt_target *t)
{
	return t->elf_class == ELFCLASS64 ? sizeof(Elf64_Sym)
					  : sizeof(Elf32_Sym);
}

/* Write SYM as entry I of the symbol table data D. */
static int put_sym(Elf_Data *d, int i, const GElf_Sym *sym)
{
	return gelf_update_sym(d, i, (GElf_Sym *)sym) ? 0 : -EIO;
}

/*
 * Both writers refuse extra notes that cannot be whole notes: a note
 * section is a sequence of 4-byte-padded notes, and a consumer walking it
 * would misread everything after a ragged end.
 */
static int check_extra_notes(const void *notes, size_t size, char *err,
			     size_t errlen)
{
	if (size && (!notes || size % 4))
		return set_err(err, errlen, -EINVAL,
			       "%s: %zu bytes are not whole padded notes",
			       SDT_EXTRA_NOTE_SECTION, size);
	return 0;
}

/* The relocatable object while libelf builds it. */
struct sema_build {
	Elf *elf;
	struct strtab shstr, str;
	unsigned char *probes; /* the zeroed semaphores */
	void *syms;
	size_t *names; /* of symbol i + 1 in .strtab */
	size_t probes_ndx;
};

/* .probes (when there are semaphores), .note.GNU-stack, the extra notes. */
static int sema_add_sections(struct sema_build *b,
			     const struct sdt_sema_object *o)
{
	struct sec probes = { .name = ".probes",
			      .type = SHT_PROGBITS,
			      .flags = SHF_ALLOC | SHF_WRITE,
			      .align = 2,
			      .dtype = ELF_T_BYTE,
			      .buf = b->probes,
			      .size = 2 * o->nsymbols };
	struct sec stack = { .name = ".note.GNU-stack",
			     .type = SHT_PROGBITS,
			     .align = 1,
			     .dtype = ELF_T_BYTE };
	struct sec extra = { .name = SDT_EXTRA_NOTE_SECTION,
			     .type = SHT_NOTE,
			     .align = 4,
			     .dtype = ELF_T_BYTE,
			     .buf = (void *)o->extra_notes,
			     .size = o->extra_notes_size };

	if (o->nsymbols &&
	    !(b->probes_ndx = add_sec(b->elf, &b->shstr, &probes)))
		return -EIO;
	if (!add_sec(b->elf, &b->shstr, &stack))
		return -EIO;
	if (extra.size && !add_sec(b->elf, &b->shstr, &extra))
		return -EIO;
	return 0;
}

/* Symbol I + 1: semaphore I, at 2 * I in .probes. */
static int sema_put_symbols(struct sema_build *b, Elf_Scn *symscn,
			    const struct sdt_sema_object *o)
{
	Elf_Data *symdata = elf_getdata(symscn, NULL);
	GElf_Sym sym = { 0 };
	int r = symdata ? put_sym(symdata, 0, &sym) : -EIO;

	for (size_t i = 0; i < o->nsymbols && !r; i++) {
		sym.st_name = (GElf_Word)b->names[i];
		sym.st_value = 2 * i;
		sym.st_size = 2;
		sym.st_info = GELF_ST_INFO(STB_GLOBAL, STT_OBJECT);
		sym.st_other = o->hidden ? STV_HIDDEN : STV_DEFAULT;
		sym.st_shndx = (GElf_Half)b->probes_ndx;
		r = put_sym(symdata, (int)i + 1, &sym);
	}
	return r;
}

/* .symtab and .strtab; names go in first, so .strtab's buffer stays put. */
static int sema_add_symtab(struct sema_build *b,
			   const struct sdt_sema_object *o)
{
	const struct sdt_target *t = &o->target;
	const size_t n = o->nsymbols;
	static char empty[1];
	GElf_Shdr sh;

	for (size_t i = 0; i < n; i++) {
		if (!(b->names[i] = strtab_add(&b->str, o->symbols[i])))
			return -ENOMEM;
	}
	struct sec strs = { .name = ".strtab",
			    .type = SHT_STRTAB,
			    .align = 1,
			    .dtype = ELF_T_BYTE,
			    .buf = b->str.len ? b->str.buf : empty,
			    .size = b->str.len ? b->str.len : 1 };
	struct sec symtab = { .name = ".symtab",
			      .type = SHT_SYMTAB,
			      .align = sdt_target_addr_size(t),
			      .dtype = ELF_T_SYM,
			      .buf = b->syms,
			      .size = (n + 1) * sym_size(t),
			      .entsize = sym_size(t),
			      .info = 1 };
	size_t symtab_ndx = add_sec(b->elf, &b->shstr, &symtab);
	size_t str_ndx = symtab_ndx ? add_sec(b->elf, &b->shstr, &strs) : 0;
	Elf_Scn *symscn = str_ndx ? elf_getscn(b->elf, symtab_ndx) : NULL;

	if (!symscn || !gelf_getshdr(symscn, &sh))
		return -EIO;
	sh.sh_link = (GElf_Word)str_ndx;
	if (!gelf_update_shdr(symscn, &sh))
		return -EIO;
	return sema_put_symbols(b, symscn, o);
}

int sdt_write_semaphore_object(int fd, const struct sdt_sema_object *o,
			       char *err, size_t errlen)
{
	const size_t n = o->nsymbols;
	struct sema_build b = { 0 };
	int r = check_extra_notes(o->extra_notes, o->extra_notes_size, err,
				  errlen);

	if (r < 0)
		return r;
	b.elf = new_elf(fd, &o->target, ET_REL);
	if (!b.elf)
		return elf_fail(err, errlen, "cannot start the object");
	b.probes = calloc(n ? n : 1, 2);
	b.syms = calloc(n + 1, sym_size(&o->target));
	b.names = calloc(n + 1, sizeof(*b.names));
	r = -ENOMEM;
	if (b.probes && b.syms && b.names) {
		r = sema_add_sections(&b, o);
		if (!r)
			r = sema_add_symtab(&b, o);
		if (!r)
			r = finish_shstrtab(b.elf, &b.shstr, 0);
		errno = 0;
		if (!r && elf_update(b.elf, ELF_C_WRITE) < 0)
			r = errno ? -errno : -EIO;
	}
	/* libelf's own message for a failed write drops the cause (errno). */
	if (r == -ENOMEM)
		set_err(err, errlen, r, "out of memory");
	else if (r == -EIO)
		r = elf_fail(err, errlen, "cannot write the object");
	else if (r < 0)
		set_err(err, errlen, r, "cannot write the object: %s",
			strerror(-r));
	elf_end(b.elf);
	free(b.probes);
	free(b.syms);
	free(b.names);
	free(b.shstr.buf);
	free(b.str.buf);
	return r;
}

/* The System V symbol hash that DT_HASH tables use. */
static uint32_t sysv_hash(const char *s)
{
	uint32_t h = 0, g;

	for (; *s; s++) {
		h = (h << 4) + (unsigned char)*s;
		g = h & 0xf0000000u;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

/*
 * The shared object is built as one file image in memory and written with
 * one write: libelf's own writer issues a write per section, and for the
 * tiny objects libstapsdt loads those system calls were most of the time.
 * libelf still converts every header and table to the target's class and
 * byte order (elfNN_xlatetof).
 */
struct image {
	unsigned char *buf;
	const struct sdt_target *t;
	int failed;
};

/* SIZE bytes of TYPE items at SRC (the class's struct form) to OFF. */
static void put(struct image *im, uint64_t off, Elf_Type type, const void *src,
		size_t size)
{
	Elf_Data from = { .d_buf = (void *)src,
			  .d_type = type,
			  .d_size = size,
			  .d_version = EV_CURRENT };
	Elf_Data to = { .d_buf = im->buf + off,
			.d_type = type,
			.d_size = size,
			.d_version = EV_CURRENT };
	Elf_Data *r = im->t->elf_class == ELFCLASS64
			      ? elf64_xlatetof(&to, &from, im->t->byte_order)
			      : elf32_xlatetof(&to, &from, im->t->byte_order);

	if (!r)
		im->failed = 1;
}

/*
 * One ELF structure at OFF, spelled once for both classes: the class's own
 * struct (Elf64_NAME or Elf32_NAME) is initialised from the same designated
 * initializer, narrowing for ELFCLASS32, then converted.
 */
#define PUT_STRUCT(im, off, etype, name, ...)                                  \
	do {                                                                   \
		if ((im)->t->elf_class == ELFCLASS64) {                        \
			Elf64_##name e_ = __VA_ARGS__;                         \
			put(im, off, etype, &e_, sizeof(e_));                  \
		} else {                                                       \
			Elf32_##name e_ = __VA_ARGS__;                         \
			put(im, off, etype, &e_, sizeof(e_));                  \
		}                                                              \
	} while (0)

static void put_phdr(struct image *im, uint64_t off, const GElf_Phdr *p)
{
	PUT_STRUCT(im, off, ELF_T_PHDR, Phdr,
		   { .p_type = p->p_type,
		     .p_flags = p->p_flags,
		     .p_offset = p->p_offset,
		     .p_vaddr = p->p_vaddr,
		     .p_paddr = p->p_paddr,
		     .p_filesz = p->p_filesz,
		     .p_memsz = p->p_memsz,
		     .p_align = p->p_align });
}

static void put_shdr(struct image *im, uint64_t off, const GElf_Shdr *s)
{
	PUT_STRUCT(im, off, ELF_T_SHDR, Shdr,
		   { .sh_name = s->sh_name,
		     .sh_type = s->sh_type,
		     .sh_flags = s->sh_flags,
		     .sh_addr = s->sh_addr,
		     .sh_offset = s->sh_offset,
		     .sh_size = s->sh_size,
		     .sh_link = s->sh_link,
		     .sh_info = s->sh_info,
		     .sh_addralign = s->sh_addralign,
		     .sh_entsize = s->sh_entsize });
}

static void put_dsym(struct image *im, uint64_t off, const GElf_Sym *s)
{
	PUT_STRUCT(im, off, ELF_T_SYM, Sym,
		   { .st_name = s->st_name,
		     .st_info = s->st_info,
		     .st_other = s->st_other,
		     .st_shndx = s->st_shndx,
		     .st_value = s->st_value,
		     .st_size = s->st_size });
}

static void put_dyn(struct image *im, uint64_t off, const GElf_Dyn *d)
{
	PUT_STRUCT(im, off, ELF_T_DYN, Dyn,
		   { .d_tag = d->d_tag, .d_un.d_val = d->d_un.d_val });
}

int sdt_write_all(int fd, const void *buf, size_t size)
{
	const char *p = buf;

	while (size) {
		ssize_t w = write(fd, p, size);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -errno;
		}
		p += w;
		size -= (size_t)w;
	}
	return 0;
}

/*
 * A build ID for the shared object: tools that cache objects by it (perf
 * buildid-cache, which `perf probe' needs for SDT events) refuse objects
 * without one. Any digest of the contents does: four multiply-mix lanes
 * over the image's 32-byte blocks (independent, so they run in parallel),
 * finished and folded into ld's default 20 bytes. OUT, inside BUF, is
 * still zero while hashing.
 */
#define BUILD_ID_SIZE 20
#define BUILD_ID_OWNER "GNU"

static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

static void build_id(const unsigned char *buf, size_t size, unsigned char *out)
{
	uint64_t h[4] = { size, 0x9e3779b97f4a7c15ull, 0x6a09e667f3bcc909ull,
			  0xbb67ae8584caa73bull };
	unsigned char tail[32] = { 0 };
	size_t i;

	for (i = 0; i < size; i += 32) {
		const unsigned char *p = buf + i;
		uint64_t w[4];

		if (i + 32 > size) {
			memcpy(tail, p, size - i);
			p = tail;
		}
		memcpy(w, p, sizeof(w));
		for (int k = 0; k < 4; k++) {
			h[k] = (h[k] ^ w[k]) * 0x9fb21c651e98df25ull;
			h[k] ^= h[k] >> 31;
		}
	}
	uint64_t f[3] = { mix64(h[0] ^ mix64(h[1])), mix64(h[2] ^ mix64(h[3])),
			  mix64(h[0] + h[1] + h[2] + h[3]) };
	for (int j = 0; j < BUILD_ID_SIZE; j++)
		out[j] = (unsigned char)(f[j / 8] >> (8 * (j % 8)));
}

/*
 * The shared object's sections, in file order. The enum is the row in
 * dso_kinds and in the layout; the index in the file is counted while
 * laying out, as .note.sdtkit is left out when it would be empty.
 */
enum dso_sec_id {
	DS_NULL,
	DS_BUILD_ID,
	DS_HASH,
	DS_DYNSYM,
	DS_DYNSTR,
	DS_BASE,
	DS_TEXT,
	DS_DYNAMIC,
	DS_PROBES,
	DS_NOTES,
	DS_EXTRA,
	DS_SYMTAB,
	DS_STRTAB,
	DS_SHSTRTAB,
	DS_COUNT
};

/* What each section is, on any target. LINK is another row. */
static const struct dso_sec_kind {
	const char *name;
	GElf_Word type;
	GElf_Xword flags;
	enum dso_sec_id link;
	GElf_Word info;
} dso_kinds[DS_COUNT] = {
	[DS_NULL] = { "", SHT_NULL, 0, DS_NULL, 0 },
	[DS_BUILD_ID] = { ".note.gnu.build-id", SHT_NOTE, SHF_ALLOC, DS_NULL,
			  0 },
	[DS_HASH] = { ".hash", SHT_HASH, SHF_ALLOC, DS_DYNSYM, 0 },
	/* Info: the first global symbol; only the null symbol is local. */
	[DS_DYNSYM] = { ".dynsym", SHT_DYNSYM, SHF_ALLOC, DS_DYNSTR, 1 },
	[DS_DYNSTR] = { ".dynstr", SHT_STRTAB, SHF_ALLOC, DS_NULL, 0 },
	[DS_BASE] = { SDT_BASE_SECTION, SHT_PROGBITS, SHF_ALLOC, DS_NULL, 0 },
	[DS_TEXT] = { ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, DS_NULL,
		      0 },
	[DS_DYNAMIC] = { ".dynamic", SHT_DYNAMIC, SHF_ALLOC | SHF_WRITE,
			 DS_DYNSTR, 0 },
	[DS_PROBES] = { ".probes", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, DS_NULL,
			0 },
	[DS_NOTES] = { SDT_NOTE_SECTION, SHT_NOTE, 0, DS_NULL, 0 },
	[DS_EXTRA] = { SDT_EXTRA_NOTE_SECTION, SHT_NOTE, 0, DS_NULL, 0 },
	/* Objects with room only; info: the first global symbol. */
	[DS_SYMTAB] = { ".symtab", SHT_SYMTAB, 0, DS_STRTAB, 1 },
	[DS_STRTAB] = { ".strtab", SHT_STRTAB, 0, DS_NULL, 0 },
	[DS_SHSTRTAB] = { ".shstrtab", SHT_STRTAB, 0, DS_NULL, 0 },
};

/* Program headers and .dynamic entries, by what each one is for. */
enum { PH_RX, PH_RW, PH_DYNAMIC, PH_NOTE, PH_STACK, PH_COUNT };
enum {
	DY_HASH,
	DY_STRTAB,
	DY_SYMTAB,
	DY_STRSZ,
	DY_SYMENT,
	DY_SONAME,
	DY_END,
	DY_COUNT
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* .strtab bytes to reserve per slot of an object with room. */
#define SYMBOL_ROOM_PER_SLOT 48

/* Where a section landed. */
struct dso_sec {
	int present;
	GElf_Word index; /* in the section header table */
	GElf_Word name;	 /* in .shstrtab */
	GElf_Xword align, entsize;
	uint64_t offset, addr, size;
	uint64_t room; /* free bytes kept after it (sdt_dso.note_room...) */
};

/*
 * Everything about the shared object that is known before a byte of it is
 * written: every count is the size of the table it counts, every offset
 * follows from the sizes, so the emitters below only copy.
 */
struct dso_layout {
	const struct sdt_dso *d;
	const struct sdt_target *t;
	size_t ehsize, phsize, shsize, symsz, dynsz;
	uint64_t page;
	uint64_t stride; /* from one stub to the next in .text */
	size_t slots;	 /* stubs and semaphores: probes, or the room given */
	size_t nsyms; /* the null symbol, then a stub and a semaphore a probe */
	size_t nbucket;
	struct strtab dynstr, shstr;
	size_t *names; /* each symbol's name in .dynstr */
	size_t soname; /* in .dynstr, 0 for none */
	struct dso_sec sec[DS_COUNT];
	size_t nsecs;
	GElf_Phdr ph[PH_COUNT];
	GElf_Dyn dyn[DY_COUNT];
	uint64_t shoff, file_size;
};

static size_t stub_sym(size_t probe)
{
	return 1 + 2 * probe;
}

static size_t sema_sym(size_t probe)
{
	return 2 + 2 * probe;
}

static size_t hash_words(const struct dso_layout *l)
{
	return 2 + l->nbucket + l->nsyms;
}

/* RX sections are mapped where they are in the file; RW ones a page up. */
static uint64_t dso_addr(const struct dso_layout *l, GElf_Xword flags,
			 uint64_t offset)
{
	if (!(flags & SHF_ALLOC))
		return 0;
	return flags & SHF_WRITE ? offset + l->page : offset;
}

/* Symbol names and the soname into .dynstr, before its size is needed. */
static int dso_names(struct dso_layout *l)
{
	const struct sdt_dso *d = l->d;

	l->names = calloc(l->nsyms, sizeof(*l->names));
	if (!l->names)
		return -ENOMEM;
	for (size_t i = 0; i < d->nprobes; i++) {
		const struct sdt_dso_probe *p = &d->probes[i];

		l->names[stub_sym(i)] = strtab_add(&l->dynstr, p->stub_symbol);
		l->names[sema_sym(i)] = strtab_add(&l->dynstr, p->sema_symbol);
		if (!l->names[stub_sym(i)] || !l->names[sema_sym(i)])
			return -ENOMEM;
	}
	if (d->soname && !(l->soname = strtab_add(&l->dynstr, d->soname)))
		return -ENOMEM;
	/* Never an empty table: DT_STRTAB must point somewhere. */
	if (!l->dynstr.len && !strtab_add(&l->dynstr, "x"))
		return -ENOMEM;
	return 0;
}

static uint64_t dso_notes_size(const struct dso_layout *l)
{
	uint64_t size = 0;

	for (size_t i = 0; i < l->d->nprobes; i++) {
		const struct sdt_dso_probe *p = &l->d->probes[i];
		struct sdt_note note = { .provider = p->provider,
					 .name = p->name,
					 .args = p->args };

		size += sdt_note_size(l->t, &note);
	}
	return size;
}

static void set_sec(struct dso_layout *l, enum dso_sec_id id, GElf_Xword align,
		    GElf_Xword entsize, uint64_t size)
{
	l->sec[id] = (struct dso_sec){
		.present = 1, .align = align, .entsize = entsize, .size = size
	};
}

/* Every section's size and alignment; .shstrtab's comes with the names. */
static void dso_sizes(struct dso_layout *l)
{
	const struct sdt_dso *d = l->d;
	const int is64 = l->t->elf_class == ELFCLASS64;
	const unsigned asz = sdt_target_addr_size(l->t);
	const size_t slots = l->slots;

	l->ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	l->phsize = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	l->shsize = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	l->dynsz = is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
	l->symsz = sym_size(l->t);
	l->page = sdt_target_page_size(l->t);
	l->stride = align_up(d->stub_size, 16);
	l->nbucket = l->nsyms;
	set_sec(l, DS_NULL, 0, 0, 0);
	set_sec(l, DS_BUILD_ID, 4, 0,
		sdt_note_head_size(BUILD_ID_OWNER) + BUILD_ID_SIZE);
	set_sec(l, DS_HASH, 8, 4, hash_words(l) * 4);
	set_sec(l, DS_DYNSYM, asz, l->symsz, l->nsyms * l->symsz);
	set_sec(l, DS_DYNSTR, 1, 0, l->dynstr.len);
	set_sec(l, DS_BASE, 1, 0, 1);
	set_sec(l, DS_TEXT, 16, 0, l->stride * slots);
	set_sec(l, DS_DYNAMIC, asz, l->dynsz, ARRAY_SIZE(l->dyn) * l->dynsz);
	set_sec(l, DS_PROBES, 2, 0, 2 * slots);
	set_sec(l, DS_NOTES, 4, 0, dso_notes_size(l));
	set_sec(l, DS_EXTRA, 4, 0, d->extra_notes_size);
	/* An object with room keeps the section for types added later. */
	l->sec[DS_EXTRA].present = d->extra_notes_size > 0 || d->slots;
	if (d->slots) {
		l->sec[DS_NOTES].room = sdt_note_align4(d->note_room);
		l->sec[DS_EXTRA].room = sdt_note_align4(d->extra_room);
	}
	/* The null symbol and the empty name; room for the slots' own. */
	set_sec(l, DS_SYMTAB, asz, l->symsz, l->symsz);
	set_sec(l, DS_STRTAB, 1, 0, 1);
	l->sec[DS_SYMTAB].present = l->sec[DS_STRTAB].present = d->slots > 0;
	l->sec[DS_SYMTAB].room = 2 * slots * l->symsz;
	l->sec[DS_STRTAB].room = slots * SYMBOL_ROOM_PER_SLOT;
	set_sec(l, DS_SHSTRTAB, 1, 0, 0);
}

/*
 * Offsets packed in table order after the program headers, addresses by
 * dso_addr(), section indexes and names counted over the sections
 * present; the section headers last.
 */
static int dso_place(struct dso_layout *l)
{
	uint64_t at = l->ehsize + ARRAY_SIZE(l->ph) * l->phsize;
	GElf_Word index = 0;

	for (size_t i = 0; i < DS_COUNT; i++) {
		struct dso_sec *s = &l->sec[i];

		if (!s->present)
			continue;
		s->index = index++;
		if (i == DS_NULL)
			continue;
		s->name = (GElf_Word)strtab_add(&l->shstr, dso_kinds[i].name);
		if (!s->name)
			return -ENOMEM;
		if (i == DS_SHSTRTAB)
			s->size = l->shstr.len;
		s->offset = align_up(at, s->align);
		s->addr = dso_addr(l, dso_kinds[i].flags, s->offset);
		at = s->offset + s->size + s->room;
	}
	l->nsecs = index;
	l->shoff = align_up(at, sdt_target_addr_size(l->t));
	l->file_size = l->shoff + l->nsecs * l->shsize;
	return 0;
}

/* [*START, *END): the allocated sections with SHF_WRITE as in WRITE. */
static void alloc_span(const struct dso_layout *l, GElf_Xword write,
		       uint64_t *start, uint64_t *end)
{
	*start = UINT64_MAX;
	*end = 0;
	for (size_t i = 0; i < DS_COUNT; i++) {
		const struct dso_sec *s = &l->sec[i];
		GElf_Xword flags = dso_kinds[i].flags;

		if (!s->present || !(flags & SHF_ALLOC) ||
		    (flags & SHF_WRITE) != write)
			continue;
		if (s->offset < *start)
			*start = s->offset;
		if (s->offset + s->size > *end)
			*end = s->offset + s->size;
	}
}

static GElf_Phdr phdr(GElf_Word type, GElf_Word flags, uint64_t offset,
		      uint64_t addr, uint64_t size, uint64_t align)
{
	return (GElf_Phdr){ .p_type = type,
			    .p_flags = flags,
			    .p_offset = offset,
			    .p_vaddr = addr,
			    .p_paddr = addr,
			    .p_filesz = size,
			    .p_memsz = size,
			    .p_align = align };
}

static GElf_Phdr phdr_of_sec(GElf_Word type, GElf_Word flags,
			     const struct dso_sec *s)
{
	return phdr(type, flags, s->offset, s->addr, s->size, s->align);
}

/* Two loads (the RX one from offset 0: it maps the headers too). */
static void dso_segments(struct dso_layout *l)
{
	uint64_t rx_start, rx_end, rw_start, rw_end;

	alloc_span(l, 0, &rx_start, &rx_end);
	alloc_span(l, SHF_WRITE, &rw_start, &rw_end);
	l->ph[PH_RX] = phdr(PT_LOAD, PF_R | PF_X, 0, 0, rx_end, l->page);
	l->ph[PH_RW] = phdr(PT_LOAD, PF_R | PF_W, rw_start,
			    dso_addr(l, SHF_ALLOC | SHF_WRITE, rw_start),
			    rw_end - rw_start, l->page);
	l->ph[PH_DYNAMIC] =
		phdr_of_sec(PT_DYNAMIC, PF_R | PF_W, &l->sec[DS_DYNAMIC]);
	l->ph[PH_NOTE] = phdr_of_sec(PT_NOTE, PF_R, &l->sec[DS_BUILD_ID]);
	l->ph[PH_STACK] = phdr(PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 16);
}

static void dso_dynamic(struct dso_layout *l)
{
	const GElf_Dyn dyn[DY_COUNT] = {
		[DY_HASH] = { DT_HASH, { l->sec[DS_HASH].addr } },
		[DY_STRTAB] = { DT_STRTAB, { l->sec[DS_DYNSTR].addr } },
		[DY_SYMTAB] = { DT_SYMTAB, { l->sec[DS_DYNSYM].addr } },
		[DY_STRSZ] = { DT_STRSZ, { l->dynstr.len } },
		[DY_SYMENT] = { DT_SYMENT, { l->symsz } },
		/* Without a soname, an early end: the table keeps its size. */
		[DY_SONAME] = { l->soname ? DT_SONAME : DT_NULL,
				{ l->soname } },
		[DY_END] = { DT_NULL, { 0 } },
	};

	memcpy(l->dyn, dyn, sizeof(dyn));
}

static int dso_lay_out(struct dso_layout *l)
{
	int r;

	/* One stub and one semaphore even for no probe: no empty segment. */
	l->slots = l->d->nprobes > l->d->slots ? l->d->nprobes : l->d->slots;
	if (!l->slots)
		l->slots = 1;
	l->nsyms = stub_sym(l->d->nprobes);
	r = dso_names(l);
	if (r < 0)
		return r;
	dso_sizes(l);
	r = dso_place(l);
	if (r < 0)
		return r;
	dso_segments(l);
	dso_dynamic(l);
	return 0;
}

static void emit_headers(struct image *im, const struct dso_layout *l)
{
	const struct sdt_target *t = l->t;

	PUT_STRUCT(
		im, 0, ELF_T_EHDR, Ehdr,
		{ .e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, t->elf_class,
			       t->byte_order, EV_CURRENT, ELFOSABI_NONE },
		  .e_type = ET_DYN,
		  .e_machine = t->machine,
		  .e_version = EV_CURRENT,
		  .e_phoff = l->ehsize,
		  .e_shoff = l->shoff,
		  .e_flags = t->flags,
		  .e_ehsize = l->ehsize,
		  .e_phentsize = l->phsize,
		  .e_phnum = ARRAY_SIZE(l->ph),
		  .e_shentsize = l->shsize,
		  .e_shnum = l->nsecs,
		  .e_shstrndx = l->sec[DS_SHSTRTAB].index });
	for (size_t i = 0; i < ARRAY_SIZE(l->ph); i++)
		put_phdr(im, l->ehsize + i * l->phsize, &l->ph[i]);
}

/* Each probe's stub (FUNC in .text) and semaphore (OBJECT in .probes). */
static void emit_symbols(struct image *im, const struct dso_layout *l)
{
	const struct dso_sec *text = &l->sec[DS_TEXT];
	const struct dso_sec *probes = &l->sec[DS_PROBES];
	const uint64_t at = l->sec[DS_DYNSYM].offset;

	for (size_t i = 0; i < l->d->nprobes; i++) {
		GElf_Sym stub = { .st_name = (GElf_Word)l->names[stub_sym(i)],
				  .st_value = text->addr + i * l->stride,
				  .st_size = l->d->stub_size,
				  .st_info = GELF_ST_INFO(STB_GLOBAL, STT_FUNC),
				  .st_shndx = (GElf_Half)text->index };
		GElf_Sym sema = { .st_name = (GElf_Word)l->names[sema_sym(i)],
				  .st_value = probes->addr + 2 * i,
				  .st_size = 2,
				  .st_info =
					  GELF_ST_INFO(STB_GLOBAL, STT_OBJECT),
				  .st_shndx = (GElf_Half)probes->index };

		put_dsym(im, at + stub_sym(i) * l->symsz, &stub);
		put_dsym(im, at + sema_sym(i) * l->symsz, &sema);
	}
}

/* The DT_HASH table: nbucket, nchain, the buckets, the chains. */
static int emit_hash(struct image *im, const struct dso_layout *l)
{
	uint32_t *hash = calloc(hash_words(l), 4);

	if (!hash)
		return -ENOMEM;
	hash[0] = (uint32_t)l->nbucket;
	hash[1] = (uint32_t)l->nsyms;
	uint32_t *bucket = hash + 2, *chain = hash + 2 + l->nbucket;
	for (size_t i = l->nsyms - 1; i >= 1; i--) {
		uint32_t h =
			sysv_hash(l->dynstr.buf + l->names[i]) % l->nbucket;
		chain[i] = bucket[h];
		bucket[h] = (uint32_t)i;
	}
	put(im, l->sec[DS_HASH].offset, ELF_T_WORD, hash, hash_words(l) * 4);
	free(hash);
	return 0;
}

/* Stubs, and the notes that point at them (the semaphores stay 0). */
static void emit_probes(struct image *im, const struct dso_layout *l)
{
	const struct sdt_dso *d = l->d;
	const struct dso_sec *text = &l->sec[DS_TEXT];
	unsigned char *np = im->buf + l->sec[DS_NOTES].offset;

	for (size_t i = 0; i < d->nprobes; i++) {
		struct sdt_note note = {
			.pc = text->addr + i * l->stride + d->stub_probe_offset,
			.base = l->sec[DS_BASE].addr,
			.semaphore = l->sec[DS_PROBES].addr + 2 * i,
			.provider = d->probes[i].provider,
			.name = d->probes[i].name,
			.args = d->probes[i].args,
		};
		np += sdt_note_encode(l->t, &note, np);
	}
	/* Every slot's stub now: a probe added later only gets a note. */
	for (size_t i = 0; i < l->slots; i++)
		memcpy(im->buf + text->offset + i * l->stride, d->stub,
		       d->stub_size < l->stride ? d->stub_size : l->stride);
}

/* .dynamic, the string tables, the extra notes, the section headers. */
static void emit_tables(struct image *im, const struct dso_layout *l)
{
	const struct dso_sec *dyn = &l->sec[DS_DYNAMIC];

	for (size_t i = 0; i < ARRAY_SIZE(l->dyn); i++)
		put_dyn(im, dyn->offset + i * l->dynsz, &l->dyn[i]);
	memcpy(im->buf + l->sec[DS_DYNSTR].offset, l->dynstr.buf,
	       l->dynstr.len);
	memcpy(im->buf + l->sec[DS_SHSTRTAB].offset, l->shstr.buf,
	       l->shstr.len);
	if (l->d->extra_notes_size)
		memcpy(im->buf + l->sec[DS_EXTRA].offset, l->d->extra_notes,
		       l->d->extra_notes_size);
	for (size_t i = 0; i < DS_COUNT; i++) {
		const struct dso_sec *s = &l->sec[i];
		const struct dso_sec_kind *k = &dso_kinds[i];
		GElf_Shdr sh = { .sh_name = s->name,
				 .sh_type = k->type,
				 .sh_flags = k->flags,
				 .sh_addr = s->addr,
				 .sh_offset = s->offset,
				 .sh_size = s->size,
				 .sh_link = l->sec[k->link].index,
				 .sh_info = k->info,
				 .sh_addralign = s->align,
				 .sh_entsize = s->entsize };

		if (s->present)
			put_shdr(im, l->shoff + s->index * l->shsize, &sh);
	}
}

/* Last: the build ID hashes everything else (perf keys its cache by it). */
static void emit_build_id(struct image *im, const struct dso_layout *l)
{
	unsigned char *note = im->buf + l->sec[DS_BUILD_ID].offset;

	note += sdt_note_head_encode(l->t, BUILD_ID_OWNER, BUILD_ID_SIZE,
				     NT_GNU_BUILD_ID, note);
	build_id(im->buf, l->file_size, note);
}

static int dso_emit(struct image *im, const struct dso_layout *l)
{
	int r;

	emit_headers(im, l);
	emit_symbols(im, l);
	r = emit_hash(im, l);
	if (r < 0)
		return r;
	emit_probes(im, l);
	emit_tables(im, l);
	emit_build_id(im, l);
	return 0;
}

static void room_of(const struct dso_layout *l, enum dso_sec_id id,
		    uint64_t unit, struct sdt_dso_room *r)
{
	const struct dso_sec *s = &l->sec[id];

	*r = (struct sdt_dso_room){ .shdr = l->shoff + s->index * l->shsize,
				    .offset = s->offset,
				    .size = s->size,
				    .cap = s->size + s->room,
				    .unit = unit };
}

/* What the caller learns of the object written from L's IMAGE. */
static void dso_report(const struct dso_layout *l, const unsigned char *image,
		       struct sdt_dso_layout *out)
{
	memset(out, 0, sizeof(*out));
	out->stub_addr = l->sec[DS_TEXT].addr;
	out->stub_stride = l->stride;
	out->sema_addr = l->sec[DS_PROBES].addr;
	out->base_addr = l->sec[DS_BASE].addr;
	out->slots = l->slots;
	out->file_size = l->file_size;
	if (!l->d->slots)
		return;
	out->build_id =
		l->sec[DS_BUILD_ID].offset + sdt_note_head_size(BUILD_ID_OWNER);
	memcpy(out->id, image + out->build_id, BUILD_ID_SIZE);
	room_of(l, DS_NOTES, 4, &out->notes);
	room_of(l, DS_EXTRA, 4, &out->extra);
	room_of(l, DS_SYMTAB, l->symsz, &out->symtab);
	room_of(l, DS_STRTAB, 1, &out->strtab);
	out->stub_size = l->d->stub_size;
	out->text_index = l->sec[DS_TEXT].index;
	out->probes_index = l->sec[DS_PROBES].index;
}

int sdt_dso_write(int fd, const struct sdt_dso *d,
		  struct sdt_dso_layout *layout, char *err, size_t errlen)
{
	struct dso_layout l = { .d = d, .t = &d->target };
	struct image im = { .t = &d->target };
	int r;

	if (!d->stub_size || d->stub_probe_offset >= d->stub_size)
		return set_err(err, errlen, -EINVAL, "no stub code given");
	if (d->slots && d->slots > UINT32_MAX / 4)
		return set_err(err, errlen, -E2BIG,
			       "room for %zu probes asked: at most %u",
			       d->slots, (unsigned)(UINT32_MAX / 4));
	r = check_extra_notes(d->extra_notes, d->extra_notes_size, err, errlen);
	if (r < 0)
		return r;
	elf_version(EV_CURRENT);
	r = dso_lay_out(&l);
	if (!r && !(im.buf = calloc(1, l.file_size)))
		r = -ENOMEM;
	if (!r)
		r = dso_emit(&im, &l);
	if (!r && im.failed)
		r = elf_fail(err, errlen, "cannot convert the shared object");
	if (!r) {
		r = sdt_write_all(fd, im.buf, l.file_size);
		if (r < 0)
			set_err(err, errlen, r,
				"cannot write the shared object: %s",
				strerror(-r));
	}
	if (r == -ENOMEM)
		set_err(err, errlen, r, "out of memory");
	if (!r && layout)
		dso_report(&l, im.buf, layout);
	free(l.names);
	free(im.buf);
	free(l.shstr.buf);
	free(l.dynstr.buf);
	return r;
}

/*
 * Growing an object in place (sdt_dso_append()). Tracers read a file's
 * notes when they attach, through the section headers, and attach by
 * inode and offset: so a probe appears when its note is counted by its
 * section's header, and nothing a tracer already uses ever moves.
 */

/* All N bytes of BUF to FD at OFF; 0 or -errno. */
static int pwrite_all(int fd, const void *buf, size_t n, uint64_t off)
{
	const unsigned char *p = buf;

	while (n) {
		ssize_t w = pwrite(fd, p, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w == 0 ? -EIO : -errno;
		p += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

static int pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	unsigned char *p = buf;

	while (n) {
		ssize_t r = pread(fd, p, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r == 0 ? -EIO : -errno;
		p += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

/*
 * The section's sh_offset and sh_size, which follow each other in both
 * classes, in one write: a reader sees the old pair or the new one.
 */
static int put_room_header(int fd, const struct sdt_target *t,
			   const struct sdt_dso_room *r)
{
	unsigned char buf[16];
	struct image im = { .buf = buf, .t = t };
	const int is64 = t->elf_class == ELFCLASS64;
	uint64_t where = r->shdr + (is64 ? offsetof(Elf64_Shdr, sh_offset)
					 : offsetof(Elf32_Shdr, sh_offset));

	if (is64) {
		const uint64_t v[2] = { r->offset, r->size };

		put(&im, 0, ELF_T_XWORD, v, sizeof(v));
	} else {
		const uint32_t v[2] = { (uint32_t)r->offset,
					(uint32_t)r->size };

		put(&im, 0, ELF_T_WORD, v, sizeof(v));
	}
	if (im.failed)
		return -EINVAL;
	return pwrite_all(fd, buf, is64 ? 16 : 8, where);
}

/*
 * R's contents moved to the end of the file with twice the room (or room
 * for NEED more bytes), the old copy left in place for readers that have
 * the old header. R says where the new copy is; its header is not written.
 */
static int move_room(int fd, struct sdt_dso_layout *l, struct sdt_dso_room *r,
		     uint64_t need)
{
	uint64_t cap = r->cap ? 2 * r->cap : 256;
	uint64_t at = (l->file_size + 7) & ~(uint64_t)7;
	unsigned char *old = NULL;
	int ret = 0;

	while (cap < r->size + need)
		cap *= 2;
	if (r->size) {
		old = malloc(r->size);
		if (!old)
			return -ENOMEM;
		ret = pread_all(fd, old, r->size, r->offset);
		if (!ret)
			ret = pwrite_all(fd, old, r->size, at);
		free(old);
	}
	if (ret)
		return ret;
	/* The room itself is written, zero, with the next notes. */
	r->offset = at;
	r->cap = cap;
	l->file_size = at + cap;
	return 0;
}

/* A new build ID: the old one's digest with the added bytes. */
static int renew_build_id(int fd, struct sdt_dso_layout *l, const void *bytes,
			  size_t n)
{
	unsigned char *buf = malloc(BUILD_ID_SIZE + n);

	if (!buf)
		return -ENOMEM;
	memcpy(buf, l->id, BUILD_ID_SIZE);
	memcpy(buf + BUILD_ID_SIZE, bytes, n);
	build_id(buf, BUILD_ID_SIZE + n, l->id);
	free(buf);
	return pwrite_all(fd, l->id, BUILD_ID_SIZE, l->build_id);
}

int sdt_dso_append(int fd, const struct sdt_target *t, struct sdt_dso_layout *l,
		   struct sdt_dso_room *r, const void *bytes, size_t n,
		   char *err, size_t errlen)
{
	struct sdt_dso_room next = *r;
	struct sdt_dso_layout grown = *l;
	int ret = 0;

	if (!n)
		return 0;
	if (!r->unit || n % r->unit || !l->build_id)
		return set_err(err, errlen, -EINVAL,
			       "cannot append %zu bytes to a section: %s", n,
			       l->build_id ? "not a whole number of entries"
					   : "the object has no room to grow");
	if (next.size + n > next.cap)
		ret = move_room(fd, &grown, &next, n);
	if (!ret)
		ret = pwrite_all(fd, bytes, n, next.offset + next.size);
	next.size += n;
	if (!ret)
		ret = put_room_header(fd, t, &next);
	if (!ret)
		ret = renew_build_id(fd, &grown, bytes, n);
	if (ret)
		return set_err(err, errlen, ret,
			       "cannot add notes to the object: %s",
			       strerror(-ret));
	*l = grown;
	*r = next;
	return 0;
}

/* Each probe's stub (FUNC) and semaphore (OBJECT), as in .dynsym. */
static int encode_symbols(const struct sdt_target *t,
			  const struct sdt_dso_layout *l,
			  const struct sdt_dso_probe *desc, size_t n,
			  size_t first, unsigned char *syms, char *names)
{
	struct image im = { .buf = syms, .t = t };
	const size_t symsz = sym_size(t);
	uint64_t name = l->strtab.size;
	char *at = names;

	for (size_t i = 0; i < n; i++) {
		const char *sym[2] = { desc[i].stub_symbol,
				       desc[i].sema_symbol };

		for (int k = 0; k < 2; k++) {
			GElf_Sym s = {
				.st_name = (GElf_Word)name,
				.st_value =
					k ? l->sema_addr + 2 * (first + i)
					  : l->stub_addr + (first +
							    i) * l->stub_stride,
				.st_size = k ? 2 : l->stub_size,
				.st_info = GELF_ST_INFO(
					STB_GLOBAL, k ? STT_OBJECT : STT_FUNC),
				.st_shndx = (GElf_Half)(k ? l->probes_index
							  : l->text_index),
			};
			size_t len = strlen(sym[k]) + 1;

			put_dsym(&im, (2 * i + k) * symsz, &s);
			memcpy(at, sym[k], len);
			at += len;
			name += len;
		}
	}
	return im.failed ? -EINVAL : (int)0;
}

int sdt_dso_add_symbols(int fd, const struct sdt_target *t,
			struct sdt_dso_layout *l,
			const struct sdt_dso_probe *desc, size_t n,
			size_t first, char *err, size_t errlen)
{
	size_t names = 0, syms = 2 * n * sym_size(t);
	unsigned char *symbuf;
	char *namebuf;
	int r;

	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		names += strlen(desc[i].stub_symbol) +
			 strlen(desc[i].sema_symbol) + 2;
	symbuf = calloc(1, syms);
	namebuf = malloc(names);
	r = symbuf && namebuf
		    ? encode_symbols(t, l, desc, n, first, symbuf, namebuf)
		    : -ENOMEM;
	if (r < 0)
		set_err(err, errlen, r, "cannot encode %zu symbols", 2 * n);
	/* Names first: a reader never sees a symbol without its name. */
	if (!r)
		r = sdt_dso_append(fd, t, l, &l->strtab, namebuf, names, err,
				   errlen);
	if (!r)
		r = sdt_dso_append(fd, t, l, &l->symtab, symbuf, syms, err,
				   errlen);
	free(symbuf);
	free(namebuf);
	return r;
}
