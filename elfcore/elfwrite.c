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
 *   then            .note.stapsdt, .shstrtab, section headers (not loaded)
 *
 * P is the target's page size. File offsets are packed; only the virtual
 * addresses step by a page, so each segment keeps offset == vaddr mod P
 * and gets its own pages without the file growing or the mapping
 * reserving more than a few pages. Two segments, not three: each costs the
 * loader an mmap, and the headers need no page of their own.
 */
#include <errno.h>
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
	return t->elf_class == ELFCLASS64 ? sizeof(Elf64_Sym) :
					    sizeof(Elf32_Sym);
}

/* Write SYM as entry I of the symbol table data D. */
static int put_sym(Elf_Data *d, int i, const GElf_Sym *sym)
{
	return gelf_update_sym(d, i, (GElf_Sym *)sym) ? 0 : -EIO;
}

int sdt_write_semaphore_object(int fd, const struct sdt_target *t,
			       const char *const *symbols, size_t n, int hidden,
			       char *err, size_t errlen)
{
	struct strtab shstr = { 0 }, str = { 0 };
	unsigned char *probes = NULL;
	void *syms = NULL;
	Elf *elf = NULL;
	int r = -ENOMEM;

	elf = new_elf(fd, t, ET_REL);
	if (!elf)
		return elf_fail(err, errlen, "cannot start the object");
	probes = calloc(n ? n : 1, 2);
	syms = calloc(n + 1, sym_size(t));
	if (!probes || !syms)
		goto out;

	size_t probes_ndx = 0;
	if (n) {
		struct sec s = { .name = ".probes", .type = SHT_PROGBITS,
				 .flags = SHF_ALLOC | SHF_WRITE, .align = 2,
				 .dtype = ELF_T_BYTE, .buf = probes,
				 .size = 2 * n };
		probes_ndx = add_sec(elf, &shstr, &s);
		if (!probes_ndx)
			goto elf_error;
	}
	struct sec stack = { .name = ".note.GNU-stack", .type = SHT_PROGBITS,
			     .align = 1, .dtype = ELF_T_BYTE };
	if (!add_sec(elf, &shstr, &stack))
		goto elf_error;

	/* Symbol names first: the table's buffer must not move afterwards. */
	size_t *names = calloc(n + 1, sizeof(*names));
	if (!names)
		goto out;
	for (size_t i = 0; i < n; i++) {
		names[i] = strtab_add(&str, symbols[i]);
		if (!names[i]) {
			free(names);
			goto out;
		}
	}
	static char empty[1];
	struct sec strs = { .name = ".strtab", .type = SHT_STRTAB, .align = 1,
			    .dtype = ELF_T_BYTE, .buf = str.len ? str.buf : empty,
			    .size = str.len ? str.len : 1 };
	struct sec symtab = { .name = ".symtab", .type = SHT_SYMTAB,
			      .align = t->elf_class == ELFCLASS64 ? 8 : 4,
			      .dtype = ELF_T_SYM, .buf = syms,
			      .size = (n + 1) * sym_size(t),
			      .entsize = sym_size(t), .info = 1 };
	size_t symtab_ndx = add_sec(elf, &shstr, &symtab);
	size_t str_ndx = symtab_ndx ? add_sec(elf, &shstr, &strs) : 0;
	if (!str_ndx) {
		free(names);
		goto elf_error;
	}
	Elf_Scn *symscn = elf_getscn(elf, symtab_ndx);
	GElf_Shdr sh;
	gelf_getshdr(symscn, &sh);
	sh.sh_link = (GElf_Word)str_ndx;
	gelf_update_shdr(symscn, &sh);
	Elf_Data *symdata = elf_getdata(symscn, NULL);
	GElf_Sym sym = { 0 };
	r = put_sym(symdata, 0, &sym);
	for (size_t i = 0; i < n && !r; i++) {
		sym.st_name = (GElf_Word)names[i];
		sym.st_value = 2 * i;
		sym.st_size = 2;
		sym.st_info = GELF_ST_INFO(STB_GLOBAL, STT_OBJECT);
		sym.st_other = hidden ? STV_HIDDEN : STV_DEFAULT;
		sym.st_shndx = (GElf_Half)probes_ndx;
		r = put_sym(symdata, (int)i + 1, &sym);
	}
	free(names);
	if (r)
		goto elf_error;
	if ((r = finish_shstrtab(elf, &shstr, 0)) < 0)
		goto elf_error;
	/* libelf's own message for a failed write drops the cause. */
	errno = 0;
	if (elf_update(elf, ELF_C_WRITE) < 0) {
		if (!errno)
			goto elf_error;
		r = set_err(err, errlen, -errno, "cannot write the object: %s",
			    strerror(errno));
		goto out;
	}
	r = 0;
	goto out;
elf_error:
	r = elf_fail(err, errlen, "cannot write the object");
out:
	if (r == -ENOMEM)
		set_err(err, errlen, r, "out of memory");
	if (elf)
		elf_end(elf);
	free(probes);
	free(syms);
	free(shstr.buf);
	free(str.buf);
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
static void put(struct image *im, uint64_t off, Elf_Type type,
		const void *src, size_t size)
{
	Elf_Data from = { .d_buf = (void *)src, .d_type = type,
			  .d_size = size, .d_version = EV_CURRENT };
	Elf_Data to = { .d_buf = im->buf + off, .d_type = type,
			.d_size = size, .d_version = EV_CURRENT };
	Elf_Data *r = im->t->elf_class == ELFCLASS64 ?
			      elf64_xlatetof(&to, &from, im->t->byte_order) :
			      elf32_xlatetof(&to, &from, im->t->byte_order);

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
		   { .p_type = p->p_type, .p_flags = p->p_flags,
		     .p_offset = p->p_offset, .p_vaddr = p->p_vaddr,
		     .p_paddr = p->p_paddr, .p_filesz = p->p_filesz,
		     .p_memsz = p->p_memsz, .p_align = p->p_align });
}

static void put_shdr(struct image *im, uint64_t off, const GElf_Shdr *s)
{
	PUT_STRUCT(im, off, ELF_T_SHDR, Shdr,
		   { .sh_name = s->sh_name, .sh_type = s->sh_type,
		     .sh_flags = s->sh_flags, .sh_addr = s->sh_addr,
		     .sh_offset = s->sh_offset, .sh_size = s->sh_size,
		     .sh_link = s->sh_link, .sh_info = s->sh_info,
		     .sh_addralign = s->sh_addralign,
		     .sh_entsize = s->sh_entsize });
}

static void put_dsym(struct image *im, uint64_t off, const GElf_Sym *s)
{
	PUT_STRUCT(im, off, ELF_T_SYM, Sym,
		   { .st_name = s->st_name, .st_info = s->st_info,
		     .st_other = s->st_other, .st_shndx = s->st_shndx,
		     .st_value = s->st_value, .st_size = s->st_size });
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

static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

static void build_id(const unsigned char *buf, size_t size,
		     unsigned char *out)
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

/* A section of the shared object: where it is and what it holds. */
struct dso_sec {
	const char *name;
	GElf_Word type;
	GElf_Xword flags, align, entsize;
	GElf_Word link, info;
	uint64_t addr, offset, size;
};

int sdt_dso_write(int fd, const struct sdt_dso *d,
		  struct sdt_dso_layout *layout, char *err, size_t errlen)
{
	const struct sdt_target *t = &d->target;
	const int is64 = t->elf_class == ELFCLASS64;
	const uint64_t page = sdt_target_page_size(t);
	const unsigned asz = sdt_target_addr_size(t);
	const size_t n = d->nprobes, nsyms = 1 + 2 * n;
	const size_t symsz = sym_size(t);
	const size_t dynsz = is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
	const size_t ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	const size_t phsize = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	const size_t shsize = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	struct strtab dynstr = { 0 }, shstr = { 0 };
	struct image im = { .t = t };
	uint32_t *hash = NULL;
	size_t *names = NULL, soname = 0;
	int r = -ENOMEM;

	if (!d->stub_size || d->stub_probe_offset >= d->stub_size)
		return set_err(err, errlen, -EINVAL, "no stub code given");
	elf_version(EV_CURRENT);

	/* Names into .dynstr, before any pointer into it is taken. */
	names = calloc(nsyms, sizeof(*names));
	if (!names)
		goto out;
	for (size_t i = 0; i < n; i++) {
		names[1 + 2 * i] = strtab_add(&dynstr, d->probes[i].stub_symbol);
		names[2 + 2 * i] = strtab_add(&dynstr, d->probes[i].sema_symbol);
		if (!names[1 + 2 * i] || !names[2 + 2 * i])
			goto out;
	}
	if (d->soname && !(soname = strtab_add(&dynstr, d->soname)))
		goto out;
	if (!dynstr.len && !strtab_add(&dynstr, "x"))
		goto out;

	/* Segment 1, RX: headers, build ID, dynamic linking tables, stubs. */
	const size_t nphdr = 5;
	const uint64_t off_id = align_up(ehsize + nphdr * phsize, 4);
	const uint64_t id_size = 12 + sizeof("GNU") + BUILD_ID_SIZE;
	const size_t nbucket = nsyms;
	const size_t hash_words = 2 + nbucket + nsyms;
	const uint64_t off_hash = align_up(off_id + id_size, 8);
	const uint64_t off_dynsym = align_up(off_hash + hash_words * 4, asz);
	const uint64_t off_dynstr = off_dynsym + nsyms * symsz;
	const uint64_t off_base = off_dynstr + dynstr.len;
	const uint64_t stride = align_up(d->stub_size, 16);
	const uint64_t off_text = align_up(off_base + 1, 16);
	const uint64_t text_size = stride * (n ? n : 1);
	const uint64_t end1 = off_text + text_size;

	/* Segment 2, RW, a page up: .dynamic and the semaphores. */
	const size_t ndyn = 7;
	const uint64_t off_dyn = align_up(end1, 16);
	const uint64_t off_probes = off_dyn + ndyn * dynsz;
	const uint64_t probes_size = 2 * (n ? n : 1);
	const uint64_t end2 = off_probes + probes_size;

	/* Not loaded: notes, section names, section headers. */
	const uint64_t off_notes = align_up(end2, 4);
	uint64_t notes_size = 0;
	for (size_t i = 0; i < n; i++) {
		struct sdt_note note = { .provider = d->probes[i].provider,
					 .name = d->probes[i].name,
					 .args = d->probes[i].args };
		notes_size += sdt_note_size(t, &note);
	}
	struct dso_sec secs[] = {
		{ "", SHT_NULL, 0, 0, 0, 0, 0, 0, 0, 0 },
		{ ".note.gnu.build-id", SHT_NOTE, SHF_ALLOC, 4, 0, 0, 0,
		  off_id, off_id, id_size },
		{ ".hash", SHT_HASH, SHF_ALLOC, 8, 4, 3, 0, off_hash,
		  off_hash, hash_words * 4 },
		{ ".dynsym", SHT_DYNSYM, SHF_ALLOC, asz, symsz, 4, 1,
		  off_dynsym, off_dynsym, nsyms * symsz },
		{ ".dynstr", SHT_STRTAB, SHF_ALLOC, 1, 0, 0, 0, off_dynstr,
		  off_dynstr, dynstr.len },
		{ SDT_BASE_SECTION, SHT_PROGBITS, SHF_ALLOC, 1, 0, 0, 0,
		  off_base, off_base, 1 },
		{ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 16, 0, 0,
		  0, off_text, off_text, text_size },
		{ ".dynamic", SHT_DYNAMIC, SHF_ALLOC | SHF_WRITE, asz, dynsz,
		  4, 0, off_dyn + page, off_dyn, ndyn * dynsz },
		{ ".probes", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 2, 0, 0, 0,
		  off_probes + page, off_probes, probes_size },
		{ SDT_NOTE_SECTION, SHT_NOTE, 0, 4, 0, 0, 0, 0, off_notes,
		  notes_size },
		{ ".shstrtab", SHT_STRTAB, 0, 1, 0, 0, 0, 0, 0, 0 },
	};
	enum { S_TEXT = 6, S_PROBES = 8 };
	const size_t nsecs = sizeof(secs) / sizeof(secs[0]);
	GElf_Word secname[sizeof(secs) / sizeof(secs[0])] = { 0 };
	for (size_t i = 1; i < nsecs; i++) {
		if (!(secname[i] = (GElf_Word)strtab_add(&shstr, secs[i].name)))
			goto out;
	}
	secs[nsecs - 1].offset = off_notes + notes_size;
	secs[nsecs - 1].size = shstr.len;
	const uint64_t off_shdr = align_up(off_notes + notes_size + shstr.len,
					   asz);
	const uint64_t file_size = off_shdr + nsecs * shsize;

	im.buf = calloc(1, file_size);
	hash = calloc(hash_words, 4);
	if (!im.buf || !hash)
		goto out;

	/* Header and program headers. */
	const uint64_t vaddr_dyn = off_dyn + page, vaddr_probes = off_probes + page;
	PUT_STRUCT(&im, 0, ELF_T_EHDR, Ehdr,
		   { .e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3,
				  t->elf_class, t->byte_order, EV_CURRENT,
				  ELFOSABI_NONE },
		     .e_type = ET_DYN, .e_machine = t->machine,
		     .e_version = EV_CURRENT, .e_phoff = ehsize,
		     .e_shoff = off_shdr, .e_flags = t->flags,
		     .e_ehsize = ehsize, .e_phentsize = phsize,
		     .e_phnum = nphdr, .e_shentsize = shsize,
		     .e_shnum = nsecs, .e_shstrndx = nsecs - 1 });
	const GElf_Phdr ph[] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0, 0, end1, end1, page },
		{ PT_LOAD, PF_R | PF_W, off_dyn, vaddr_dyn, vaddr_dyn,
		  end2 - off_dyn, end2 - off_dyn, page },
		{ PT_DYNAMIC, PF_R | PF_W, off_dyn, vaddr_dyn, vaddr_dyn,
		  ndyn * dynsz, ndyn * dynsz, asz },
		{ PT_NOTE, PF_R, off_id, off_id, off_id, id_size, id_size, 4 },
		{ PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0, 16 },
	};
	for (size_t i = 0; i < nphdr; i++)
		put_phdr(&im, ehsize + i * phsize, &ph[i]);

	/* Symbols (stub and semaphore of each probe) and their hash. */
	for (size_t i = 0; i < n; i++) {
		GElf_Sym stub = { .st_name = (GElf_Word)names[1 + 2 * i],
				  .st_value = off_text + i * stride,
				  .st_size = d->stub_size,
				  .st_info = GELF_ST_INFO(STB_GLOBAL, STT_FUNC),
				  .st_shndx = S_TEXT };
		GElf_Sym sema = { .st_name = (GElf_Word)names[2 + 2 * i],
				  .st_value = vaddr_probes + 2 * i,
				  .st_size = 2,
				  .st_info = GELF_ST_INFO(STB_GLOBAL,
							  STT_OBJECT),
				  .st_shndx = S_PROBES };
		put_dsym(&im, off_dynsym + (1 + 2 * i) * symsz, &stub);
		put_dsym(&im, off_dynsym + (2 + 2 * i) * symsz, &sema);
	}
	hash[0] = (uint32_t)nbucket;
	hash[1] = (uint32_t)nsyms;
	uint32_t *bucket = hash + 2, *chain = hash + 2 + nbucket;
	for (size_t i = nsyms - 1; i >= 1; i--) {
		uint32_t h = sysv_hash(dynstr.buf + names[i]) % nbucket;
		chain[i] = bucket[h];
		bucket[h] = (uint32_t)i;
	}
	put(&im, off_hash, ELF_T_WORD, hash, hash_words * 4);
	memcpy(im.buf + off_dynstr, dynstr.buf, dynstr.len);

	/* Stubs, and the notes that point at them (the semaphores stay 0). */
	unsigned char *np = im.buf + off_notes;
	for (size_t i = 0; i < n; i++) {
		struct sdt_note note = {
			.pc = off_text + i * stride + d->stub_probe_offset,
			.base = off_base,
			.semaphore = vaddr_probes + 2 * i,
			.provider = d->probes[i].provider,
			.name = d->probes[i].name,
			.args = d->probes[i].args,
		};
		memcpy(im.buf + off_text + i * stride, d->stub, d->stub_size);
		np += sdt_note_encode(t, &note, np);
	}
	if (!n)
		memcpy(im.buf + off_text, d->stub,
		       d->stub_size < stride ? d->stub_size : stride);

	const GElf_Dyn dyn[] = {
		{ DT_HASH, { off_hash } },
		{ DT_STRTAB, { off_dynstr } },
		{ DT_SYMTAB, { off_dynsym } },
		{ DT_STRSZ, { dynstr.len } },
		{ DT_SYMENT, { symsz } },
		{ soname ? DT_SONAME : DT_NULL, { soname } },
		{ DT_NULL, { 0 } },
	};
	for (size_t i = 0; i < ndyn; i++)
		put_dyn(&im, off_dyn + i * dynsz, &dyn[i]);

	/* Section names and headers. */
	memcpy(im.buf + secs[nsecs - 1].offset, shstr.buf, shstr.len);
	for (size_t i = 0; i < nsecs; i++) {
		const struct dso_sec *s = &secs[i];
		GElf_Shdr sh = { .sh_name = secname[i], .sh_type = s->type,
				 .sh_flags = s->flags, .sh_addr = s->addr,
				 .sh_offset = s->offset, .sh_size = s->size,
				 .sh_link = s->link, .sh_info = s->info,
				 .sh_addralign = s->align,
				 .sh_entsize = s->entsize };
		put_shdr(&im, off_shdr + i * shsize, &sh);
	}
	/* Last, the build ID over everything else (perf keys its cache by it). */
	const uint32_t id_head[3] = { sizeof("GNU"), BUILD_ID_SIZE,
				      NT_GNU_BUILD_ID };
	put(&im, off_id, ELF_T_WORD, id_head, sizeof(id_head));
	memcpy(im.buf + off_id + 12, "GNU", sizeof("GNU"));
	build_id(im.buf, file_size, im.buf + off_id + 12 + sizeof("GNU"));
	if (im.failed) {
		r = elf_fail(err, errlen, "cannot convert the shared object");
		goto out;
	}
	r = sdt_write_all(fd, im.buf, file_size);
	if (r < 0) {
		set_err(err, errlen, r, "cannot write the shared object: %s",
			strerror(-r));
		goto out;
	}
	if (layout) {
		layout->stub_addr = off_text;
		layout->stub_stride = stride;
		layout->sema_addr = vaddr_probes;
		layout->file_size = file_size;
	}
out:
	if (r == -ENOMEM)
		set_err(err, errlen, r, "out of memory");
	free(names);
	free(hash);
	free(im.buf);
	free(shstr.buf);
	free(dynstr.buf);
	return r;
}
