/* SPDX-License-Identifier: MIT */
/*
 * The shared object libstapsdt loads, written without libelf: the library
 * has to build wherever a cross toolchain and its C library do, and the
 * object is small enough that its layout is ours anyway. Class and byte
 * order are the target's: every header and table field goes through the
 * put_* helpers below, which spell the ELF structures of both classes
 * field by field (elfwrite.c writes dtrace-gen's relocatable objects, the
 * same core through libelf).
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
#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfobj.h"
#include "errmsg.h"
#include "strtab.h"

#define set_err sdt_errf

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
 * one write: a write per section was most of the time for the tiny
 * objects libstapsdt loads. Every field is stored in the target's class
 * and byte order by the helpers below.
 */
struct image {
	unsigned char *buf;
	const struct sdt_target *t;
};

/* An N-byte field V at OFF, in the target's byte order. */
static void put_uint(struct image *im, uint64_t off, uint64_t v, unsigned n)
{
	unsigned char *at = im->buf + off;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* The host's own order: the value's first N bytes are the field. */
	if (im->t->byte_order == ELFDATA2LSB) {
		memcpy(at, &v, n);
		return;
	}
#endif
	for (unsigned i = 0; i < n; i++) {
		unsigned shift = im->t->byte_order == ELFDATA2MSB
					 ? 8 * (n - 1 - i)
					 : 8 * i;

		at[i] = (unsigned char)(v >> shift);
	}
}

/* An address-sized field (Addr, Off, Xword/Word by class) at *OFF. */
static void put_word(struct image *im, uint64_t *off, uint64_t v)
{
	unsigned n = im->t->elf_class == ELFCLASS64 ? 8 : 4;

	put_uint(im, *off, v, n);
	*off += n;
}

/* A fixed-size field at *OFF. */
static void put_fixed(struct image *im, uint64_t *off, uint64_t v, unsigned n)
{
	put_uint(im, *off, v, n);
	*off += n;
}

static void put_phdr(struct image *im, uint64_t off, const Elf64_Phdr *p)
{
	put_fixed(im, &off, p->p_type, 4);
	if (im->t->elf_class == ELFCLASS64)
		put_fixed(im, &off, p->p_flags, 4);
	put_word(im, &off, p->p_offset);
	put_word(im, &off, p->p_vaddr);
	put_word(im, &off, p->p_paddr);
	put_word(im, &off, p->p_filesz);
	put_word(im, &off, p->p_memsz);
	if (im->t->elf_class != ELFCLASS64)
		put_fixed(im, &off, p->p_flags, 4);
	put_word(im, &off, p->p_align);
}

static void put_shdr(struct image *im, uint64_t off, const Elf64_Shdr *s)
{
	put_fixed(im, &off, s->sh_name, 4);
	put_fixed(im, &off, s->sh_type, 4);
	put_word(im, &off, s->sh_flags);
	put_word(im, &off, s->sh_addr);
	put_word(im, &off, s->sh_offset);
	put_word(im, &off, s->sh_size);
	put_fixed(im, &off, s->sh_link, 4);
	put_fixed(im, &off, s->sh_info, 4);
	put_word(im, &off, s->sh_addralign);
	put_word(im, &off, s->sh_entsize);
}

/* Elf64_Sym and Elf32_Sym order their fields differently. */
static void put_dsym(struct image *im, uint64_t off, const Elf64_Sym *s)
{
	put_fixed(im, &off, s->st_name, 4);
	if (im->t->elf_class == ELFCLASS64) {
		put_fixed(im, &off, s->st_info, 1);
		put_fixed(im, &off, s->st_other, 1);
		put_fixed(im, &off, s->st_shndx, 2);
		put_word(im, &off, s->st_value);
		put_word(im, &off, s->st_size);
	} else {
		put_word(im, &off, s->st_value);
		put_word(im, &off, s->st_size);
		put_fixed(im, &off, s->st_info, 1);
		put_fixed(im, &off, s->st_other, 1);
		put_fixed(im, &off, s->st_shndx, 2);
	}
}

static void put_dyn(struct image *im, uint64_t off, const Elf64_Dyn *d)
{
	put_word(im, &off, (uint64_t)d->d_tag);
	put_word(im, &off, d->d_un.d_val);
}

static void put_ehdr(struct image *im, const Elf64_Ehdr *e)
{
	uint64_t off = EI_NIDENT;

	memcpy(im->buf, e->e_ident, EI_NIDENT);
	put_fixed(im, &off, e->e_type, 2);
	put_fixed(im, &off, e->e_machine, 2);
	put_fixed(im, &off, e->e_version, 4);
	put_word(im, &off, e->e_entry);
	put_word(im, &off, e->e_phoff);
	put_word(im, &off, e->e_shoff);
	put_fixed(im, &off, e->e_flags, 4);
	put_fixed(im, &off, e->e_ehsize, 2);
	put_fixed(im, &off, e->e_phentsize, 2);
	put_fixed(im, &off, e->e_phnum, 2);
	put_fixed(im, &off, e->e_shentsize, 2);
	put_fixed(im, &off, e->e_shnum, 2);
	put_fixed(im, &off, e->e_shstrndx, 2);
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
	Elf64_Word type;
	Elf64_Xword flags;
	enum dso_sec_id link;
	Elf64_Word info;
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
	Elf64_Word index; /* in the section header table */
	Elf64_Word name;  /* in .shstrtab */
	Elf64_Xword align, entsize;
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
	struct sdt_strtab dynstr, shstr;
	size_t *names; /* each symbol's name in .dynstr */
	size_t soname; /* in .dynstr, 0 for none */
	struct dso_sec sec[DS_COUNT];
	size_t nsecs;
	Elf64_Phdr ph[PH_COUNT];
	Elf64_Dyn dyn[DY_COUNT];
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
static uint64_t dso_addr(const struct dso_layout *l, Elf64_Xword flags,
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

		l->names[stub_sym(i)] =
			sdt_strtab_add(&l->dynstr, p->stub_symbol);
		l->names[sema_sym(i)] =
			sdt_strtab_add(&l->dynstr, p->sema_symbol);
		if (!l->names[stub_sym(i)] || !l->names[sema_sym(i)])
			return -ENOMEM;
	}
	if (d->soname && !(l->soname = sdt_strtab_add(&l->dynstr, d->soname)))
		return -ENOMEM;
	/* Never an empty table: DT_STRTAB must point somewhere. */
	if (!l->dynstr.len && !sdt_strtab_add(&l->dynstr, "x"))
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

static void set_sec(struct dso_layout *l, enum dso_sec_id id, Elf64_Xword align,
		    Elf64_Xword entsize, uint64_t size)
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
	l->symsz = sdt_sym_size(l->t);
	l->page = sdt_target_page_size(l->t);
	l->stride = sdt_align_up(d->stub_size, 16);
	l->nbucket = l->nsyms;
	set_sec(l, DS_NULL, 0, 0, 0);
	set_sec(l, DS_BUILD_ID, 4, 0,
		sdt_note_head_size(BUILD_ID_OWNER) + BUILD_ID_SIZE);
	set_sec(l, DS_HASH, 8, sdt_target_hash_entry_size(l->t),
		hash_words(l) * sdt_target_hash_entry_size(l->t));
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
	Elf64_Word index = 0;

	for (size_t i = 0; i < DS_COUNT; i++) {
		struct dso_sec *s = &l->sec[i];

		if (!s->present)
			continue;
		s->index = index++;
		if (i == DS_NULL)
			continue;
		s->name = (Elf64_Word)sdt_strtab_add(&l->shstr,
						     dso_kinds[i].name);
		if (!s->name)
			return -ENOMEM;
		if (i == DS_SHSTRTAB)
			s->size = l->shstr.len;
		s->offset = sdt_align_up(at, s->align);
		s->addr = dso_addr(l, dso_kinds[i].flags, s->offset);
		at = s->offset + s->size + s->room;
	}
	l->nsecs = index;
	l->shoff = sdt_align_up(at, sdt_target_addr_size(l->t));
	l->file_size = l->shoff + l->nsecs * l->shsize;
	return 0;
}

/* [*START, *END): the allocated sections with SHF_WRITE as in WRITE. */
static void alloc_span(const struct dso_layout *l, Elf64_Xword write,
		       uint64_t *start, uint64_t *end)
{
	*start = UINT64_MAX;
	*end = 0;
	for (size_t i = 0; i < DS_COUNT; i++) {
		const struct dso_sec *s = &l->sec[i];
		Elf64_Xword flags = dso_kinds[i].flags;

		if (!s->present || !(flags & SHF_ALLOC) ||
		    (flags & SHF_WRITE) != write)
			continue;
		if (s->offset < *start)
			*start = s->offset;
		if (s->offset + s->size > *end)
			*end = s->offset + s->size;
	}
}

static Elf64_Phdr phdr(Elf64_Word type, Elf64_Word flags, uint64_t offset,
		       uint64_t addr, uint64_t size, uint64_t align)
{
	return (Elf64_Phdr){ .p_type = type,
			     .p_flags = flags,
			     .p_offset = offset,
			     .p_vaddr = addr,
			     .p_paddr = addr,
			     .p_filesz = size,
			     .p_memsz = size,
			     .p_align = align };
}

static Elf64_Phdr phdr_of_sec(Elf64_Word type, Elf64_Word flags,
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
	const Elf64_Dyn dyn[DY_COUNT] = {
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

	put_ehdr(im,
		 &(Elf64_Ehdr){ .e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3,
					     t->elf_class, t->byte_order,
					     EV_CURRENT, ELFOSABI_NONE },
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
		Elf64_Sym stub = { .st_name = (Elf64_Word)l->names[stub_sym(i)],
				   .st_value = text->addr + i * l->stride,
				   .st_size = l->d->stub_size,
				   .st_info =
					   ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
				   .st_shndx = (Elf64_Half)text->index };
		Elf64_Sym sema = { .st_name = (Elf64_Word)l->names[sema_sym(i)],
				   .st_value = probes->addr + 2 * i,
				   .st_size = 2,
				   .st_info = ELF64_ST_INFO(STB_GLOBAL,
							    STT_OBJECT),
				   .st_shndx = (Elf64_Half)probes->index };

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
	for (size_t i = 0; i < hash_words(l); i++)
		put_uint(im,
			 l->sec[DS_HASH].offset + i * l->sec[DS_HASH].entsize,
			 hash[i], (unsigned)l->sec[DS_HASH].entsize);
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
		Elf64_Shdr sh = { .sh_name = s->name,
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
	r = sdt_check_extra_notes(d->extra_notes, d->extra_notes_size, err,
				  errlen);
	if (r < 0)
		return r;
	r = dso_lay_out(&l);
	if (!r && !(im.buf = calloc(1, l.file_size)))
		r = -ENOMEM;
	if (!r)
		r = dso_emit(&im, &l);
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

	uint64_t off = 0;

	put_word(&im, &off, r->offset);
	put_word(&im, &off, r->size);
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
	const size_t symsz = sdt_sym_size(t);
	uint64_t name = l->strtab.size;
	char *at = names;

	for (size_t i = 0; i < n; i++) {
		const char *sym[2] = { desc[i].stub_symbol,
				       desc[i].sema_symbol };

		for (int k = 0; k < 2; k++) {
			Elf64_Sym s = {
				.st_name = (Elf64_Word)name,
				.st_value =
					k ? l->sema_addr + 2 * (first + i)
					  : l->stub_addr + (first +
							    i) * l->stub_stride,
				.st_size = k ? 2 : l->stub_size,
				.st_info = ELF64_ST_INFO(
					STB_GLOBAL, k ? STT_OBJECT : STT_FUNC),
				.st_shndx = (Elf64_Half)(k ? l->probes_index
							   : l->text_index),
			};
			size_t len = strlen(sym[k]) + 1;

			put_dsym(&im, (2 * i + k) * symsz, &s);
			memcpy(at, sym[k], len);
			at += len;
			name += len;
		}
	}
	return 0;
}

int sdt_dso_add_symbols(int fd, const struct sdt_target *t,
			struct sdt_dso_layout *l,
			const struct sdt_dso_probe *desc, size_t n,
			size_t first, char *err, size_t errlen)
{
	size_t names = 0, syms = 2 * n * sdt_sym_size(t);
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
