/* SPDX-License-Identifier: MIT */
/*
 * Reading stapsdt probes out of an ELF file.
 *
 * libelf does the bounds checking of headers and sections; the notes we
 * decode ourselves (note.c) from the raw section bytes, in the file's own
 * byte order, so a corrupt note costs the probes after it, never a crash.
 * Files may come from a path, an fd (a memfd seen through /proc/PID/fd) or
 * memory (the fuzzer).
 *
 * Three things make a listing honest rather than merely safe:
 *  - A damaged file is an error. libelf quietly shows a file whose section
 *    headers lie past its end as one without sections, which would read
 *    as "no probes"; we check every header and section against the
 *    file's size first and name what is cut off.
 *  - A relocatable object's notes hold zeros where the linker will put
 *    addresses: we apply their relocations (REL and RELA, the absolute
 *    data types the target table knows) the way readelf does, and keep
 *    the symbols so a listing can say `.text+0x6' and name semaphores.
 *  - Only regular files are read: a FIFO would block and a directory
 *    gives a baffling error, so both are refused up front without waiting.
 * The section headers are copied once into a small table: every probe asks
 * which section holds it, and a libelf walk per probe is too slow for
 * binaries with thousands of sites.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gelf.h>
#include <libelf.h>

#include "elfobj.h"
#include "errmsg.h"

#define set_err sdt_errf

struct sdt_elf_section {
	const char *name; /* "" when unnamed */
	uint64_t addr, size, offset, flags;
	uint32_t type, link, info;
	Elf_Scn *scn;
};

__attribute__((format(printf, 2, 3))) static void warn(struct sdt_elf *f,
						       const char *fmt, ...)
{
	va_list ap;

	if (f->warning[0])
		return; /* the first problem is the one to fix first */
	va_start(ap, fmt);
	vsnprintf(f->warning, sizeof(f->warning), fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ */
/* The file's layout, checked against its size                         */

static int within(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

static int check_segments(Elf *elf, const GElf_Ehdr *eh, uint64_t size,
			  char *err, size_t errlen)
{
	/* libelf counts headers past the end as none: trust the header. */
	size_t n = eh->e_phnum;

	if (n == PN_XNUM && elf_getphdrnum(elf, &n) != 0)
		return set_err(
		    err, errlen, -EBADMSG,
		    "damaged ELF file: cannot count its program headers: %s",
		    elf_errmsg(-1));
	if (n && !within(eh->e_phoff, (uint64_t)n * eh->e_phentsize, size))
		return set_err(
		    err, errlen, -EBADMSG,
		    "truncated or damaged ELF file: %zu program headers at "
		    "offset 0x%llx end past the end of the file (%llu bytes)",
		    n, (unsigned long long)eh->e_phoff,
		    (unsigned long long)size);
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			return set_err(err, errlen, -EBADMSG,
				       "damaged ELF file: program header %zu "
				       "unreadable: %s",
				       i, elf_errmsg(-1));
		if (ph.p_type == PT_LOAD &&
		    !within(ph.p_offset, ph.p_filesz, size))
			return set_err(
			    err, errlen, -EBADMSG,
			    "truncated or damaged ELF file: loadable segment "
			    "%zu (offset 0x%llx, 0x%llx bytes) ends past the "
			    "end of the file (%llu bytes)",
			    i, (unsigned long long)ph.p_offset,
			    (unsigned long long)ph.p_filesz,
			    (unsigned long long)size);
	}
	return 0;
}

static int read_section(struct sdt_elf *f, Elf_Scn *scn, size_t shstrndx,
			uint64_t size, char *err, size_t errlen)
{
	struct sdt_elf_section *s = &f->sections_[elf_ndxscn(scn)];
	const char *name;
	GElf_Shdr sh;

	if (!gelf_getshdr(scn, &sh))
		return set_err(
		    err, errlen, -EBADMSG,
		    "damaged ELF file: section header %zu unreadable: %s",
		    elf_ndxscn(scn), elf_errmsg(-1));
	name = elf_strptr(f->elf_, shstrndx, sh.sh_name);
	s->name = name ? name : "";
	s->addr = sh.sh_addr;
	s->size = sh.sh_size;
	s->offset = sh.sh_offset;
	s->flags = sh.sh_flags;
	s->type = sh.sh_type;
	s->link = sh.sh_link;
	s->info = sh.sh_info;
	s->scn = scn;
	if (sh.sh_type != SHT_NOBITS && !within(sh.sh_offset, sh.sh_size, size))
		return set_err(err, errlen, -EBADMSG,
			       "truncated or damaged ELF file: section %.64s "
			       "(offset 0x%llx, 0x%llx bytes) ends past the "
			       "end of the file (%llu bytes)",
			       s->name, (unsigned long long)sh.sh_offset,
			       (unsigned long long)sh.sh_size,
			       (unsigned long long)size);
	return 0;
}

/* Copy the section headers, refusing any that lie outside the file. */
static int read_sections(struct sdt_elf *f, const GElf_Ehdr *eh, uint64_t size,
			 char *err, size_t errlen)
{
	Elf *elf = f->elf_;
	size_t n = eh->e_shnum, shstrndx;
	Elf_Scn *scn = NULL;
	int r;

	/* Extended numbering keeps the count in section 0; else trust e_shnum.
	 */
	if (!n && eh->e_shoff && !within(eh->e_shoff, eh->e_shentsize, size))
		return set_err(
		    err, errlen, -EBADMSG,
		    "truncated or damaged ELF file: section headers at offset "
		    "0x%llx lie past the end of the file (%llu bytes)",
		    (unsigned long long)eh->e_shoff, (unsigned long long)size);
	if (!n && eh->e_shoff && elf_getshdrnum(elf, &n) != 0)
		return set_err(err, errlen, -EBADMSG,
			       "truncated or damaged ELF file: cannot count "
			       "its sections: %s",
			       elf_errmsg(-1));
	if (n && !within(eh->e_shoff, (uint64_t)n * eh->e_shentsize, size))
		return set_err(
		    err, errlen, -EBADMSG,
		    "truncated or damaged ELF file: %zu section headers at "
		    "offset 0x%llx end past the end of the file (%llu bytes)",
		    n, (unsigned long long)eh->e_shoff,
		    (unsigned long long)size);
	if (!n)
		return 0; /* stripped of section headers: nothing to list */
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return set_err(err, errlen, -EBADMSG,
			       "damaged ELF file: no section name table: %s",
			       elf_errmsg(-1));
	f->sections_ = calloc(n, sizeof(*f->sections_));
	if (!f->sections_)
		return set_err(err, errlen, -ENOMEM, "out of memory");
	f->nsections_ = n;
	while ((scn = elf_nextscn(elf, scn))) {
		if (elf_ndxscn(scn) >= n)
			break;
		if ((r = read_section(f, scn, shstrndx, size, err, errlen)) < 0)
			return r;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Notes                                                               */

static int add_probe(struct sdt_elf *f, const struct sdt_probe *p, size_t *cap)
{
	if (f->nprobes == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct sdt_probe *np = realloc(f->probes, ncap * sizeof(*np));
		if (!np)
			return -ENOMEM;
		f->probes = np;
		*cap = ncap;
	}
	f->probes[f->nprobes++] = *p;
	return 0;
}

static int read_note_section(struct sdt_elf *f, size_t shndx, size_t *cap)
{
	Elf_Data *d = elf_rawdata(f->sections_[shndx].scn, NULL);
	unsigned asz = sdt_target_addr_size(&f->target);
	struct sdt_probe p;
	size_t off = 0;
	int r;

	if (!d) {
		warn(f, "note section unreadable: %s", elf_errmsg(-1));
		return 0;
	}
	if (!d->d_buf)
		return 0;
	memset(&p, 0, sizeof(p));
	p.shndx_ = shndx;
	while ((r = sdt_note_decode(&f->target, d->d_buf, d->d_size, &off,
				    &p.note)) >= 0) {
		if (r != 1)
			continue;
		p.note_offset = off;
		/* The strings follow the three address fields. */
		p.desc_offset_ =
		    (size_t)((const unsigned char *)p.note.provider -
			     (const unsigned char *)d->d_buf) -
		    3 * asz;
		if ((r = add_probe(f, &p, cap)) < 0)
			return r;
	}
	if (r == -EINVAL)
		warn(f, "malformed note at offset %zu of %s: later probes lost",
		     off, SDT_NOTE_SECTION);
	return 0;
}

static int add_type_note(struct sdt_elf *f, const char *desc, size_t size)
{
	struct sdt_type_note *n = realloc(
	    f->type_notes, (f->ntype_notes + 1) * sizeof(*f->type_notes));

	if (!n)
		return -ENOMEM;
	f->type_notes = n;
	n[f->ntype_notes].desc = desc;
	n[f->ntype_notes].size = size;
	f->ntype_notes++;
	return 0;
}

/* sdtkit type records: libelf turns the note headers to our byte order. */
static int read_type_section(struct sdt_elf *f, Elf_Scn *scn)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, name_at, desc_at;
	GElf_Nhdr nh;
	int r;

	if (!d || !d->d_buf) {
		warn(f, "%s unreadable: type records ignored",
		     SDT_TYPES_SECTION);
		return 0;
	}
	while (off < d->d_size &&
	       (off = gelf_getnote(d, off, &nh, &name_at, &desc_at)) > 0) {
		const char *name = (const char *)d->d_buf + name_at;

		if (nh.n_type != SDT_TYPES_NT ||
		    nh.n_namesz != sizeof(SDT_TYPES_OWNER) ||
		    memcmp(name, SDT_TYPES_OWNER, sizeof(SDT_TYPES_OWNER)))
			continue;
		r = add_type_note(f, (const char *)d->d_buf + desc_at,
				  nh.n_descsz);
		if (r < 0)
			return r;
	}
	return 0;
}

static int read_notes(struct sdt_elf *f)
{
	size_t cap = 0;
	int r = 0;

	for (size_t i = 1; i < f->nsections_ && r >= 0; i++) {
		const struct sdt_elf_section *s = &f->sections_[i];

		if (!s->scn)
			continue;
		if (!strcmp(s->name, SDT_BASE_SECTION)) {
			f->has_base = 1;
			f->base_addr = s->addr;
		} else if (s->type == SHT_NOTE &&
			   !strcmp(s->name, SDT_NOTE_SECTION)) {
			r = read_note_section(f, i, &cap);
		} else if (s->type == SHT_NOTE &&
			   !strcmp(s->name, SDT_TYPES_SECTION)) {
			r = read_type_section(f, s->scn);
		}
	}
	return r;
}

/* ------------------------------------------------------------------ */
/* Relocations of the notes of a relocatable object                    */

struct reloc {
	uint64_t offset; /* in the note section */
	uint32_t type;
	size_t sym;
	int64_t addend;
	int has_addend; /* RELA; REL keeps the addend in the field */
};

/* The probe whose address fields hold OFF of note section SHNDX. */
static struct sdt_probe *probe_at(struct sdt_elf *f, size_t shndx, uint64_t off)
{
	size_t lo = 0, hi = f->nprobes;
	uint64_t span = 3 * sdt_target_addr_size(&f->target);

	/* Notes are read section by section, in offset order. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sdt_probe *p = &f->probes[mid];

		if (p->shndx_ < shndx ||
		    (p->shndx_ == shndx && p->desc_offset_ + span <= off))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->nprobes && f->probes[lo].shndx_ == shndx &&
	    f->probes[lo].desc_offset_ <= off)
		return &f->probes[lo];
	return NULL;
}

static int symbol_of(struct sdt_elf *f, const struct sdt_elf_section *symtab,
		     size_t index, GElf_Sym *sym, const char **name)
{
	Elf_Data *d = elf_getdata(symtab->scn, NULL);

	if (!d || !gelf_getsym(d, (int)index, sym))
		return -1;
	if (GELF_ST_TYPE(sym->st_info) == STT_SECTION) {
		*name = sym->st_shndx < f->nsections_
			    ? f->sections_[sym->st_shndx].name
			    : NULL;
	} else {
		*name = elf_strptr(f->elf_, symtab->link, sym->st_name);
	}
	return *name ? 0 : -1;
}

static void apply_reloc(struct sdt_elf *f, size_t note_shndx,
			const struct sdt_elf_section *symtab,
			const struct reloc *r)
{
	unsigned asz = sdt_target_addr_size(&f->target);
	struct sdt_probe *p = probe_at(f, note_shndx, r->offset);
	unsigned size = sdt_target_abs_reloc_size(&f->target, r->type);
	uint64_t *field, field_no;
	struct sdt_sym_ref *ref = NULL;
	const char *name;
	GElf_Sym sym;

	if (!p || r->type == 0)
		return; /* not in an address field, or R_*_NONE */
	field_no = (r->offset - p->desc_offset_) / asz;
	if (size != asz || (r->offset - p->desc_offset_) % asz) {
		warn(f,
		     "%s:%s: relocation type %u at offset 0x%llx of %s is not "
		     "an absolute %u-byte address: not applied",
		     p->note.provider, p->note.name, r->type,
		     (unsigned long long)r->offset, SDT_NOTE_SECTION, asz);
		return;
	}
	if (symbol_of(f, symtab, r->sym, &sym, &name) < 0) {
		warn(f, "%s:%s: relocation against an unreadable symbol %zu",
		     p->note.provider, p->note.name, r->sym);
		return;
	}
	field = field_no == 0	? &p->note.pc
		: field_no == 1 ? &p->note.base
				: &p->note.semaphore;
	ref = field_no == 0 ? &p->pc_ref : field_no == 2 ? &p->sema_ref : NULL;
	/* REL: the addend is what the assembler left in the field. */
	int64_t addend = r->has_addend ? r->addend : (int64_t)*field;
	*field = sym.st_value + (uint64_t)addend;
	if (!ref)
		return;
	ref->symbol = name;
	ref->shndx = sym.st_shndx < f->nsections_ ? sym.st_shndx : 0;
	ref->is_section = GELF_ST_TYPE(sym.st_info) == STT_SECTION;
	ref->offset = ref->is_section ? (int64_t)*field : addend;
}

static void relocate_notes(struct sdt_elf *f, const struct sdt_elf_section *rs)
{
	Elf_Data *d = elf_getdata(rs->scn, NULL);
	int rela = rs->type == SHT_RELA;
	size_t n =
	    d ? d->d_size / gelf_fsize(f->elf_, rela ? ELF_T_RELA : ELF_T_REL,
				       1, EV_CURRENT)
	      : 0;

	if (!d || rs->link >= f->nsections_) {
		warn(f, "relocations of %s unreadable: addresses not relocated",
		     SDT_NOTE_SECTION);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct reloc r = {.has_addend = rela};
		GElf_Rela ra;
		GElf_Rel rl;

		if (rela ? !gelf_getrela(d, (int)i, &ra)
			 : !gelf_getrel(d, (int)i, &rl))
			break;
		if (!rela) {
			ra.r_offset = rl.r_offset;
			ra.r_info = rl.r_info;
			ra.r_addend = 0;
		}
		r.offset = ra.r_offset;
		r.addend = ra.r_addend;
		r.type = (uint32_t)GELF_R_TYPE(ra.r_info);
		r.sym = (size_t)GELF_R_SYM(ra.r_info);
		apply_reloc(f, rs->info, &f->sections_[rs->link], &r);
	}
}

static void relocate(struct sdt_elf *f)
{
	for (size_t i = 1; i < f->nsections_; i++) {
		const struct sdt_elf_section *s = &f->sections_[i];

		if ((s->type != SHT_REL && s->type != SHT_RELA) ||
		    s->info >= f->nsections_ || !s->scn)
			continue;
		if (f->sections_[s->info].type == SHT_NOTE &&
		    !strcmp(f->sections_[s->info].name, SDT_NOTE_SECTION))
			relocate_notes(f, s);
	}
}

/* ------------------------------------------------------------------ */
/* Opening                                                             */

static int read_probes(struct sdt_elf *f, char *err, size_t errlen)
{
	Elf *elf = f->elf_;
	GElf_Ehdr eh;
	size_t size = 0;
	int r;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return set_err(err, errlen, -ENOEXEC, "not an ELF file");
	f->target.elf_class = eh.e_ident[EI_CLASS];
	f->target.byte_order = eh.e_ident[EI_DATA];
	f->target.machine = eh.e_machine;
	f->target.flags = eh.e_flags;
	f->type = eh.e_type;
	if (!elf_rawfile(elf, &size))
		return set_err(err, errlen, -EIO, "cannot read the file: %s",
			       elf_errmsg(-1));
	if ((r = check_segments(elf, &eh, size, err, errlen)) < 0 ||
	    (r = read_sections(f, &eh, size, err, errlen)) < 0)
		return r;
	if ((r = read_notes(f)) < 0)
		return set_err(err, errlen, r, "out of memory");
	if (f->type == ET_REL)
		relocate(f);
	return 0;
}

static int open_elf(struct sdt_elf *f, Elf *elf, char *err, size_t errlen)
{
	int r;

	if (!elf)
		return set_err(err, errlen, -ENOEXEC, "cannot read as ELF: %s",
			       elf_errmsg(-1));
	f->elf_ = elf;
	r = read_probes(f, err, errlen);
	if (r < 0)
		sdt_elf_close(f);
	return r;
}

static void init(struct sdt_elf *f)
{
	memset(f, 0, sizeof(*f));
	f->fd_ = -1;
	elf_version(EV_CURRENT);
}

static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode)	? "a directory"
	       : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISCHR(mode)	? "a character device"
	       : S_ISBLK(mode)	? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
				: "not a plain file";
}

/* Only regular files (memfds are): anything else would block or mislead. */
static int check_regular(int fd, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return set_err(err, errlen, -errno, "cannot stat: %s",
			       strerror(errno));
	if (!S_ISREG(st.st_mode))
		return set_err(err, errlen, -EINVAL,
			       "not a regular file (%s): give an executable, "
			       "shared object or relocatable object",
			       file_kind(st.st_mode));
	return 0;
}

int sdt_elf_open_fd(struct sdt_elf *f, int fd, char *err, size_t errlen)
{
	int r;

	init(f);
	if ((r = check_regular(fd, err, errlen)) < 0)
		return r;
	f->fd_ = fd;
	return open_elf(f, elf_begin(fd, ELF_C_READ_MMAP, NULL), err, errlen);
}

int sdt_elf_open(struct sdt_elf *f, const char *path, char *err, size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	int r;

	if (fd < 0) {
		r = -errno;
		init(f);
		return set_err(err, errlen, r, "cannot open: %s", strerror(-r));
	}
	r = sdt_elf_open_fd(f, fd, err, errlen);
	if (r < 0) {
		close(fd);
		return r;
	}
	f->own_fd_ = 1;
	return 0;
}

int sdt_elf_open_image(struct sdt_elf *f, const void *image, size_t len,
		       char *err, size_t errlen)
{
	init(f);
	return open_elf(f, elf_memory((char *)image, len), err, errlen);
}

void sdt_elf_close(struct sdt_elf *f)
{
	if (f->elf_)
		elf_end(f->elf_);
	if (f->own_fd_ && f->fd_ >= 0)
		close(f->fd_);
	free(f->probes);
	free(f->type_notes);
	free(f->sections_);
	f->elf_ = NULL;
	f->probes = NULL;
	f->nprobes = 0;
	f->type_notes = NULL;
	f->ntype_notes = 0;
	f->sections_ = NULL;
	f->nsections_ = 0;
	f->fd_ = -1;
	f->own_fd_ = 0;
}

/* ------------------------------------------------------------------ */
/* Addresses                                                           */

uint64_t sdt_probe_addr(const struct sdt_elf *f, const struct sdt_probe *p)
{
	if (f->has_base && p->note.base)
		return p->note.pc + (f->base_addr - p->note.base);
	return p->note.pc;
}

int sdt_elf_addr_to_offset(const struct sdt_elf *f, uint64_t addr,
			   uint64_t *off)
{
	size_t n;

	if (!f->elf_ || elf_getphdrnum(f->elf_, &n) != 0)
		return -ENOENT;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(f->elf_, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr - ph.p_vaddr < ph.p_filesz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

static const struct sdt_elf_section *section_at(const struct sdt_elf *f,
						uint64_t addr)
{
	if (f->type == ET_REL)
		return NULL; /* every section is at address 0 */
	for (size_t i = 1; i < f->nsections_; i++) {
		const struct sdt_elf_section *s = &f->sections_[i];

		if ((s->flags & SHF_ALLOC) && addr >= s->addr &&
		    addr - s->addr < s->size)
			return s;
	}
	return NULL;
}

const char *sdt_elf_section_at(const struct sdt_elf *f, uint64_t addr)
{
	const struct sdt_elf_section *s = section_at(f, addr);

	return s ? s->name : NULL;
}

const char *sdt_probe_section(const struct sdt_elf *f,
			      const struct sdt_probe *p)
{
	if (f->type == ET_REL)
		return p->pc_ref.symbol && p->pc_ref.shndx
			   ? f->sections_[p->pc_ref.shndx].name
			   : NULL;
	return sdt_elf_section_at(f, sdt_probe_addr(f, p));
}

/* No section headers: an executable PT_LOAD must hold ADDR. */
static int in_exec_segment(const struct sdt_elf *f, uint64_t addr)
{
	size_t n;

	if (!f->elf_ || elf_getphdrnum(f->elf_, &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(f->elf_, (int)i, &ph) ||
		    ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		if (addr >= ph.p_vaddr && addr - ph.p_vaddr < ph.p_filesz)
			return 1;
	}
	return 0;
}

int sdt_probe_in_code(const struct sdt_elf *f, const struct sdt_probe *p)
{
	const struct sdt_elf_section *s;
	uint64_t addr = sdt_probe_addr(f, p);

	if (f->type == ET_REL)
		return p->pc_ref.symbol && p->pc_ref.shndx &&
		       (f->sections_[p->pc_ref.shndx].flags & SHF_EXECINSTR);
	if (!f->nsections_)
		return in_exec_segment(f, addr);
	s = section_at(f, addr);
	return s && s->type != SHT_NOBITS && (s->flags & SHF_EXECINSTR);
}
