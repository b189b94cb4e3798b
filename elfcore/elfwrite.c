/* SPDX-License-Identifier: MIT */
/*
 * Writing the relocatable object dtrace-gen -G makes, through libelf so
 * that class and byte order are always the target's: we give it sections
 * and symbols, nothing else, so the bytes depend only on the input. The
 * shared object libstapsdt loads has a writer of its own (dsowrite.c),
 * without libelf.
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
#include "strtab.h"

#define set_err sdt_errf

static int elf_fail(char *err, size_t errlen, const char *what)
{
	return set_err(err, errlen, -EIO, "%s: %s", what, elf_errmsg(-1));
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
static size_t add_sec(Elf *elf, struct sdt_strtab *shstr, struct sec *s)
{
	Elf_Scn *scn = elf_newscn(elf);
	Elf_Data *d;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh))
		return 0;
	size_t name = sdt_strtab_add(shstr, s->name);
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
static int finish_shstrtab(Elf *elf, struct sdt_strtab *shstr, GElf_Off offset)
{
	size_t name = sdt_strtab_add(shstr, ".shstrtab");
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

/* Write SYM as entry I of the symbol table data D. */
static int put_sym(Elf_Data *d, int i, const GElf_Sym *sym)
{
	return gelf_update_sym(d, i, (GElf_Sym *)sym) ? 0 : -EIO;
}

/* The relocatable object while libelf builds it. */
struct sema_build {
	Elf *elf;
	struct sdt_strtab shstr, str;
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
		if (!(b->names[i] = sdt_strtab_add(&b->str, o->symbols[i])))
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
			      .size = (n + 1) * sdt_sym_size(t),
			      .entsize = sdt_sym_size(t),
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
	int r = sdt_check_extra_notes(o->extra_notes, o->extra_notes_size, err,
				      errlen);

	if (r < 0)
		return r;
	b.elf = new_elf(fd, &o->target, ET_REL);
	if (!b.elf)
		return elf_fail(err, errlen, "cannot start the object");
	b.probes = calloc(n ? n : 1, 2);
	b.syms = calloc(n + 1, sdt_sym_size(&o->target));
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
