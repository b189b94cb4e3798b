/* SPDX-License-Identifier: MIT */
/*
 * Writing the two objects our products make, through libelf so that class
 * and byte order are always the target's.
 *
 * The relocatable object (dtrace-gen -G) is laid out by libelf: we give it
 * sections and symbols, nothing else, so the bytes depend only on the
 * input. The shared object (libstapsdt) we lay out ourselves
 * (ELF_F_LAYOUT), because program headers must agree with section
 * addresses and the note needs final addresses:
 *
 *   offset 0    R   ELF header, program headers, .hash .dynsym .dynstr
 *                   .stapsdt.base                       vaddr = offset
 *   then        RX  .text: one stub per probe           vaddr = offset + P
 *   then        RW  .dynamic, .probes (semaphores)      vaddr = offset + 2P
 *   then            .note.stapsdt, .shstrtab, section headers (not loaded)
 *
 * P is the target's page size. File offsets are packed; only the virtual
 * addresses step by a page, so each segment keeps offset == vaddr mod P
 * and gets its own pages without the file growing or the mapping
 * reserving more than a few pages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	if (elf_update(elf, ELF_C_WRITE) < 0)
		goto elf_error;
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

/* Everything sdt_dso_write allocates, freed in one place. */
struct dso_bufs {
	struct strtab shstr, dynstr;
	void *dynsym;
	uint32_t *hash;
	unsigned char *text, *probes, *notes;
	void *dynamic;
};

static void dso_bufs_free(struct dso_bufs *b)
{
	free(b->shstr.buf);
	free(b->dynstr.buf);
	free(b->dynsym);
	free(b->hash);
	free(b->text);
	free(b->probes);
	free(b->notes);
	free(b->dynamic);
}

int sdt_dso_write(int fd, const struct sdt_dso *d,
		  struct sdt_dso_layout *layout, char *err, size_t errlen)
{
	const struct sdt_target *t = &d->target;
	const uint64_t page = sdt_target_page_size(t);
	const unsigned asz = sdt_target_addr_size(t);
	const size_t n = d->nprobes, nsyms = 1 + 2 * n;
	const size_t symsz = sym_size(t);
	const size_t dynsz = t->elf_class == ELFCLASS64 ? sizeof(Elf64_Dyn) :
							 sizeof(Elf32_Dyn);
	struct dso_bufs b = { 0 };
	Elf *elf = NULL;
	int r = -ENOMEM;

	if (!d->stub_size || d->stub_probe_offset >= d->stub_size)
		return set_err(err, errlen, -EINVAL, "no stub code given");

	/* Names into .dynstr, before any pointer into it is taken. */
	size_t *names = calloc(nsyms, sizeof(*names));
	size_t soname = 0;
	if (!names)
		goto out;
	for (size_t i = 0; i < n; i++) {
		names[1 + 2 * i] = strtab_add(&b.dynstr, d->probes[i].stub_symbol);
		names[2 + 2 * i] = strtab_add(&b.dynstr, d->probes[i].sema_symbol);
		if (!names[1 + 2 * i] || !names[2 + 2 * i])
			goto out;
	}
	if (d->soname && !(soname = strtab_add(&b.dynstr, d->soname)))
		goto out;
	if (!b.dynstr.len && !strtab_add(&b.dynstr, "x"))
		goto out;

	/* Segment 1: headers and dynamic linking tables. */
	const size_t ehsize = t->elf_class == ELFCLASS64 ? sizeof(Elf64_Ehdr) :
							  sizeof(Elf32_Ehdr);
	const size_t phsize = t->elf_class == ELFCLASS64 ? sizeof(Elf64_Phdr) :
							  sizeof(Elf32_Phdr);
	const size_t nphdr = 5;
	const size_t nbucket = nsyms;
	const size_t hash_size = (2 + nbucket + nsyms) * 4;
	uint64_t off_hash = align_up(ehsize + nphdr * phsize, 8);
	uint64_t off_dynsym = align_up(off_hash + hash_size, asz);
	uint64_t off_dynstr = off_dynsym + nsyms * symsz;
	uint64_t off_base = off_dynstr + b.dynstr.len;
	uint64_t end1 = off_base + 1;

	/* Segment 2: stubs. */
	const uint64_t stride = align_up(d->stub_size, 16);
	uint64_t off_text = align_up(end1, 16);
	uint64_t text_size = stride * (n ? n : 1);
	uint64_t vaddr_text = off_text + page;

	/* Segment 3: .dynamic and semaphores. */
	const size_t ndyn = 7;
	uint64_t off_dyn = align_up(off_text + text_size, 16);
	uint64_t vaddr_dyn = off_dyn + 2 * page;
	uint64_t off_probes = off_dyn + ndyn * dynsz;
	uint64_t probes_size = 2 * (n ? n : 1);
	uint64_t end3 = off_probes + probes_size;

	/* Not loaded: notes, names, section headers. */
	uint64_t off_notes = align_up(end3, 4);
	size_t notes_size = 0;
	for (size_t i = 0; i < n; i++) {
		struct sdt_note note = { .provider = d->probes[i].provider,
					 .name = d->probes[i].name,
					 .args = d->probes[i].args };
		notes_size += sdt_note_size(t, &note);
	}

	b.hash = calloc(2 + nbucket + nsyms, 4);
	b.dynsym = calloc(nsyms, symsz);
	b.text = malloc(text_size);
	b.probes = calloc(probes_size, 1);
	b.notes = malloc(notes_size ? notes_size : 1);
	b.dynamic = calloc(ndyn, dynsz);
	if (!b.hash || !b.dynsym || !b.text || !b.probes || !b.notes ||
	    !b.dynamic)
		goto out;

	uint64_t vaddr_base = off_base;
	uint64_t vaddr_probes = off_probes + 2 * page;
	unsigned char *np = b.notes;
	for (size_t i = 0; i < n; i++) {
		struct sdt_note note = {
			.pc = vaddr_text + i * stride + d->stub_probe_offset,
			.base = vaddr_base,
			.semaphore = vaddr_probes + 2 * i,
			.provider = d->probes[i].provider,
			.name = d->probes[i].name,
			.args = d->probes[i].args,
		};
		memcpy(b.text + i * stride, d->stub, d->stub_size);
		memset(b.text + i * stride + d->stub_size, 0,
		       stride - d->stub_size);
		np += sdt_note_encode(t, &note, np);
	}
	if (!n)
		memcpy(b.text, d->stub, d->stub_size < stride ? d->stub_size : stride);

	/* Hash chains: bucket h % nbucket, chained through symbol indices. */
	b.hash[0] = (uint32_t)nbucket;
	b.hash[1] = (uint32_t)nsyms;
	uint32_t *bucket = b.hash + 2, *chain = b.hash + 2 + nbucket;
	for (size_t i = nsyms - 1; i >= 1; i--) {
		uint32_t h = sysv_hash(b.dynstr.buf + names[i]) % nbucket;
		chain[i] = bucket[h];
		bucket[h] = (uint32_t)i;
	}

	elf = new_elf(fd, t, ET_DYN);
	if (!elf)
		goto elf_error;
	elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);

	static unsigned char base_byte[1];
	struct sec secs[] = {
		{ ".hash", SHT_HASH, SHF_ALLOC, 8, ELF_T_WORD, b.hash,
		  hash_size, 4, 2, 0, off_hash, off_hash },
		{ ".dynsym", SHT_DYNSYM, SHF_ALLOC, asz, ELF_T_SYM, b.dynsym,
		  nsyms * symsz, symsz, 3, 1, off_dynsym, off_dynsym },
		{ ".dynstr", SHT_STRTAB, SHF_ALLOC, 1, ELF_T_BYTE,
		  b.dynstr.buf, b.dynstr.len, 0, 0, 0, off_dynstr,
		  off_dynstr },
		{ SDT_BASE_SECTION, SHT_PROGBITS, SHF_ALLOC, 1, ELF_T_BYTE,
		  base_byte, 1, 0, 0, 0, vaddr_base, off_base },
		{ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 16,
		  ELF_T_BYTE, b.text, text_size, 0, 0, 0, vaddr_text,
		  off_text },
		{ ".dynamic", SHT_DYNAMIC, SHF_ALLOC | SHF_WRITE, asz,
		  ELF_T_DYN, b.dynamic, ndyn * dynsz, dynsz, 3, 0, vaddr_dyn,
		  off_dyn },
		{ ".probes", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 2,
		  ELF_T_BYTE, b.probes, probes_size, 0, 0, 0, vaddr_probes,
		  off_probes },
		{ SDT_NOTE_SECTION, SHT_NOTE, 0, 4, ELF_T_BYTE, b.notes,
		  notes_size, 0, 0, 0, 0, off_notes },
	};
	const size_t nsecs = sizeof(secs) / sizeof(secs[0]);
	enum { S_HASH = 1, S_DYNSYM, S_DYNSTR, S_BASE, S_TEXT, S_DYN, S_PROBES };
	for (size_t i = 0; i < nsecs; i++) {
		if (add_sec(elf, &b.shstr, &secs[i]) != i + 1)
			goto elf_error;
	}
	uint64_t off_shstr = off_notes + notes_size;
	/* ".shstrtab" itself is added by finish_shstrtab. */
	uint64_t off_shdr = align_up(off_shstr + b.shstr.len +
					     sizeof(".shstrtab"),
				     asz);
	if ((r = finish_shstrtab(elf, &b.shstr, off_shstr)) < 0)
		goto elf_error;

	/* Dynamic symbols: stub and semaphore of each probe. */
	Elf_Data *symdata = elf_getdata(elf_getscn(elf, S_DYNSYM), NULL);
	GElf_Sym sym = { 0 };
	r = put_sym(symdata, 0, &sym);
	for (size_t i = 0; i < n && !r; i++) {
		sym.st_name = (GElf_Word)names[1 + 2 * i];
		sym.st_value = vaddr_text + i * stride;
		sym.st_size = d->stub_size;
		sym.st_info = GELF_ST_INFO(STB_GLOBAL, STT_FUNC);
		sym.st_other = STV_DEFAULT;
		sym.st_shndx = S_TEXT;
		r = put_sym(symdata, (int)(1 + 2 * i), &sym);
		sym.st_name = (GElf_Word)names[2 + 2 * i];
		sym.st_value = vaddr_probes + 2 * i;
		sym.st_size = 2;
		sym.st_info = GELF_ST_INFO(STB_GLOBAL, STT_OBJECT);
		sym.st_shndx = S_PROBES;
		if (!r)
			r = put_sym(symdata, (int)(2 + 2 * i), &sym);
	}
	if (r)
		goto elf_error;

	Elf_Data *dyndata = elf_getdata(elf_getscn(elf, S_DYN), NULL);
	GElf_Dyn dyn[] = {
		{ DT_HASH, { off_hash } },
		{ DT_STRTAB, { off_dynstr } },
		{ DT_SYMTAB, { off_dynsym } },
		{ DT_STRSZ, { b.dynstr.len } },
		{ DT_SYMENT, { symsz } },
		{ soname ? DT_SONAME : DT_NULL, { soname } },
		{ DT_NULL, { 0 } },
	};
	for (size_t i = 0; i < ndyn; i++) {
		if (!gelf_update_dyn(dyndata, (int)i, &dyn[i]))
			goto elf_error;
	}

	GElf_Ehdr eh;
	if (!gelf_getehdr(elf, &eh))
		goto elf_error;
	eh.e_phoff = ehsize;
	eh.e_shoff = off_shdr;
	eh.e_entry = 0;
	if (!gelf_update_ehdr(elf, &eh) || !gelf_newphdr(elf, nphdr))
		goto elf_error;
	GElf_Phdr ph[] = {
		{ PT_LOAD, PF_R, 0, 0, 0, end1, end1, page },
		{ PT_LOAD, PF_R | PF_X, off_text, vaddr_text, vaddr_text,
		  text_size, text_size, page },
		{ PT_LOAD, PF_R | PF_W, off_dyn, vaddr_dyn, vaddr_dyn,
		  end3 - off_dyn, end3 - off_dyn, page },
		{ PT_DYNAMIC, PF_R | PF_W, off_dyn, vaddr_dyn, vaddr_dyn,
		  ndyn * dynsz, ndyn * dynsz, asz },
		{ PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0, 16 },
	};
	for (size_t i = 0; i < nphdr; i++) {
		if (!gelf_update_phdr(elf, (int)i, &ph[i]))
			goto elf_error;
	}
	if (elf_update(elf, ELF_C_WRITE) < 0)
		goto elf_error;

	if (layout) {
		layout->stub_addr = vaddr_text;
		layout->stub_stride = stride;
		layout->sema_addr = vaddr_probes;
		layout->file_size =
			off_shdr + (nsecs + 2) * (t->elf_class == ELFCLASS64 ?
							  sizeof(Elf64_Shdr) :
							  sizeof(Elf32_Shdr));
	}
	r = 0;
	goto out;
elf_error:
	r = elf_fail(err, errlen, "cannot write the shared object");
out:
	if (r == -ENOMEM)
		set_err(err, errlen, r, "out of memory");
	if (elf)
		elf_end(elf);
	free(names);
	dso_bufs_free(&b);
	return r;
}
