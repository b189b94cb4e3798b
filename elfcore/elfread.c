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

/*
 * The most bytes of one section we read. Sections are read into memory
 * now: a sparse file claiming a note section of gigabytes must not cost
 * gigabytes and seconds of zeros. Ten thousand probe sites take 600 kB.
 */
#define SECTION_READ_MAX (64ull << 20)

struct sdt_elf_section {
	const char *name; /* "" when unnamed */
	uint64_t addr, size, offset, flags;
	uint32_t type, link, info;
	Elf_Scn *scn;
	int charged; /* its bytes counted against the file's size */
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
		return set_err(err, errlen, -EBADMSG,
			       "damaged ELF file: cannot count its program "
			       "headers: %s",
			       elf_errmsg(-1));
	if (n && !within(eh->e_phoff, (uint64_t)n * eh->e_phentsize, size))
		return set_err(
			err, errlen, -EBADMSG,
			"truncated or damaged ELF file: %zu program headers at "
			"offset 0x%llx end past the end of the file (%llu "
			"bytes)",
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
			return set_err(err, errlen, -EBADMSG,
				       "truncated or damaged ELF file: "
				       "loadable segment "
				       "%zu (offset 0x%llx, 0x%llx bytes) ends "
				       "past the "
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

static int names_too_big(Elf *elf, size_t shstrndx)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_getscn(elf, shstrndx);

	return scn && gelf_getshdr(scn, &sh) && sh.sh_size > SECTION_READ_MAX;
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
			"truncated or damaged ELF file: section headers at "
			"offset "
			"0x%llx lie past the end of the file (%llu bytes)",
			(unsigned long long)eh->e_shoff,
			(unsigned long long)size);
	if (!n && eh->e_shoff && elf_getshdrnum(elf, &n) != 0)
		return set_err(err, errlen, -EBADMSG,
			       "truncated or damaged ELF file: cannot count "
			       "its sections: %s",
			       elf_errmsg(-1));
	if (n && !within(eh->e_shoff, (uint64_t)n * eh->e_shentsize, size))
		return set_err(
			err, errlen, -EBADMSG,
			"truncated or damaged ELF file: %zu section headers at "
			"offset 0x%llx end past the end of the file (%llu "
			"bytes)",
			n, (unsigned long long)eh->e_shoff,
			(unsigned long long)size);
	if (!n)
		return 0; /* stripped of section headers: nothing to list */
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return set_err(err, errlen, -EBADMSG,
			       "damaged ELF file: no section name table: %s",
			       elf_errmsg(-1));
	if (names_too_big(elf, shstrndx))
		return set_err(err, errlen, -EBADMSG,
			       "damaged ELF file: its section name table is "
			       "larger than %llu MiB",
			       SECTION_READ_MAX >> 20);
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
/* Note bytes, read once                                               */

/*
 * Section headers are the file's word on where its notes are, and a hostile
 * file can give ten thousand of them the same bytes: read per section, 70 kB
 * of notes would become ten million probes and gigabytes. So the note
 * sections' file ranges are merged into spans, each span is read once, and
 * the notes are decoded in file order: a section that starts inside bytes
 * already decoded goes on where the decoding stopped, as if the sections
 * that overlap were one. Every note is decoded once, a file's probe count
 * is bounded by its size, and the work by the bytes its notes cover.
 */
struct note_span {
	uint64_t start, end; /* file offsets */
	unsigned char *bytes;
};

struct note_sec {
	size_t shndx;
	uint64_t start, end; /* file offsets */
};

/* What the absolute relocation at file OFFSET refers to. */
struct ref_at {
	uint64_t offset;
	struct sdt_sym_ref ref;
};

struct note_bytes {
	struct note_span *spans; /* in file order, disjoint */
	size_t nspans;
	struct ref_at *refs; /* sorted by offset once complete */
	size_t nrefs, refs_cap;
};

/* Keep BYTES for the life of F: its probes' strings point into them. */
static int own(struct sdt_elf *f, unsigned char *bytes)
{
	unsigned char **n =
		realloc(f->owned_, (f->nowned_ + 1) * sizeof(*f->owned_));

	if (!n)
		return -ENOMEM;
	f->owned_ = n;
	n[f->nowned_++] = bytes;
	return 0;
}

static int read_at(const struct sdt_elf *f, uint64_t off, size_t len,
		   unsigned char *buf)
{
	if (f->image_) {
		memcpy(buf, f->image_ + off, len);
		return 0;
	}
	while (len) {
		ssize_t n = pread(f->fd_, buf, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO; /* it shrank under us */
		buf += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* The span that holds file bytes [OFF, OFF + LEN), or NULL. */
static struct note_span *span_of(const struct note_bytes *nb, uint64_t off,
				 uint64_t len)
{
	size_t lo = 0, hi = nb->nspans;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct note_span *sp = &nb->spans[mid];

		if (off < sp->start)
			hi = mid;
		else if (off >= sp->end)
			lo = mid + 1;
		else
			return len <= sp->end - off ? sp : NULL;
	}
	return NULL;
}

/*
 * Merge the ranges of SECS (sorted) into spans and read each. The bytes
 * stay with F: its probes' strings point into them.
 */
static int read_spans(struct sdt_elf *f, const struct note_sec *secs,
		      size_t nsecs, struct note_bytes *nb)
{
	uint64_t total = 0;
	int r;

	nb->spans = calloc(nsecs ? nsecs : 1, sizeof(*nb->spans));
	if (!nb->spans)
		return -ENOMEM;
	for (size_t i = 0; i < nsecs; i++) {
		struct note_span *sp =
			nb->nspans ? &nb->spans[nb->nspans - 1] : NULL;

		if (sp && secs[i].start < sp->end) {
			if (secs[i].end > sp->end)
				sp->end = secs[i].end;
			continue;
		}
		sp = &nb->spans[nb->nspans++];
		sp->start = secs[i].start;
		sp->end = secs[i].end;
	}
	for (size_t i = 0; i < nb->nspans; i++) {
		struct note_span *sp = &nb->spans[i];
		size_t len = (size_t)(sp->end - sp->start);

		total += len;
		if (total > SECTION_READ_MAX) {
			warn(f, "%s not read past %llu MiB of notes",
			     SDT_NOTE_SECTION, SECTION_READ_MAX >> 20);
			nb->nspans = i;
			break;
		}
		if (!(sp->bytes = malloc(len)) || (r = own(f, sp->bytes)) < 0) {
			free(sp->bytes);
			sp->bytes = NULL;
			return -ENOMEM;
		}
		if ((r = read_at(f, sp->start, len, sp->bytes)) < 0) {
			warn(f, "%s unreadable: %s", SDT_NOTE_SECTION,
			     strerror(-r));
			nb->nspans = i;
			break;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Relocations of the notes of a relocatable object                    */

struct reloc {
	uint64_t offset; /* in the note section */
	uint32_t type;
	size_t sym;
	int64_t addend;
	int rela; /* REL keeps the addend in the field */
};

static uint64_t field_get(const struct sdt_target *t, const unsigned char *p,
			  unsigned size)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t)
			     p[t->byte_order == ELFDATA2MSB ? i : size - 1 - i]
		     << 8 * (size - 1 - i);
	return v;
}

static void field_put(const struct sdt_target *t, unsigned char *p,
		      unsigned size, uint64_t v)
{
	for (unsigned i = 0; i < size; i++)
		p[t->byte_order == ELFDATA2MSB ? i : size - 1 - i] =
			(unsigned char)(v >> 8 * (size - 1 - i));
}

/*
 * Symbol INDEX of SYMTAB as a listing names it, and its value + ADDEND.
 * Section symbols and assembler-local labels (riscv keeps `.L' labels for
 * linker relaxation) read as section+offset; others by name.
 */
static int ref_of(const struct sdt_elf *f, const struct sdt_elf_section *symtab,
		  size_t index, int64_t addend, struct sdt_sym_ref *ref,
		  uint64_t *value)
{
	Elf_Data *d = elf_getdata(symtab->scn, NULL);
	const char *name;
	GElf_Sym sym;

	if (!d || !gelf_getsym(d, (int)index, &sym))
		return -1;
	*value = sym.st_value + (uint64_t)addend;
	name = elf_strptr(f->elf_, symtab->link, sym.st_name);
	ref->shndx = sym.st_shndx < f->nsections_ ? sym.st_shndx : 0;
	ref->is_section = GELF_ST_TYPE(sym.st_info) == STT_SECTION ||
			  (GELF_ST_BIND(sym.st_info) == STB_LOCAL &&
			   GELF_ST_TYPE(sym.st_info) == STT_NOTYPE && name &&
			   !strncmp(name, ".L", 2));
	if (ref->is_section) {
		name = ref->shndx ? f->sections_[ref->shndx].name : NULL;
		ref->offset = (int64_t)*value;
	} else {
		ref->offset = addend;
	}
	ref->symbol = name;
	return name ? 0 : -1;
}

static int add_ref(struct note_bytes *nb, uint64_t offset,
		   const struct sdt_sym_ref *ref)
{
	if (nb->nrefs == nb->refs_cap) {
		size_t ncap = nb->refs_cap ? 2 * nb->refs_cap : 64;
		struct ref_at *n = realloc(nb->refs, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		nb->refs = n;
		nb->refs_cap = ncap;
	}
	nb->refs[nb->nrefs].offset = offset;
	nb->refs[nb->nrefs].ref = *ref;
	nb->nrefs++;
	return 0;
}

/* Apply R, a relocation of note section NOTES, to the bytes read. */
static int apply_reloc(struct sdt_elf *f, struct note_bytes *nb,
		       const struct sdt_elf_section *notes,
		       const struct sdt_elf_section *symtab,
		       const struct reloc *r)
{
	const struct sdt_target *t = &f->target;
	unsigned size;
	enum sdt_reloc_op op = sdt_target_data_reloc(t, r->type, &size);
	struct note_span *sp;
	unsigned char *field;
	int64_t addend = r->addend;
	struct sdt_sym_ref ref;
	uint64_t value, at = notes->offset + r->offset;

	if (op == SDT_RELOC_NONE) {
		if (r->type) /* R_*_NONE is 0 everywhere */
			warn(f, "relocation type %u in %s not applied", r->type,
			     SDT_NOTE_SECTION);
		return 0;
	}
	if (r->offset > notes->size || size > notes->size - r->offset) {
		warn(f, "a relocation of %s lies outside it", SDT_NOTE_SECTION);
		return 0;
	}
	if (!(sp = span_of(nb, at, size)))
		return 0; /* past what was read: the warning is there */
	field = sp->bytes + (at - sp->start);
	if (!r->rela)
		addend = (int64_t)field_get(t, field, size);
	if (ref_of(f, symtab, r->sym, addend, &ref, &value) < 0) {
		warn(f, "a relocation of %s names an unreadable symbol",
		     SDT_NOTE_SECTION);
		return 0;
	}
	if (op == SDT_RELOC_ADD)
		value = field_get(t, field, size) + value;
	else if (op == SDT_RELOC_SUB)
		value = field_get(t, field, size) - value;
	field_put(t, field, size, value);
	if (op == SDT_RELOC_ABS && size == sdt_target_addr_size(t))
		return add_ref(nb, at, &ref);
	return 0;
}

static int apply_relocs(struct sdt_elf *f, const struct sdt_elf_section *rs,
			struct note_bytes *nb)
{
	Elf_Data *d = elf_getdata(rs->scn, NULL);
	int rela = rs->type == SHT_RELA;
	size_t n = d ? d->d_size / gelf_fsize(f->elf_,
					      rela ? ELF_T_RELA : ELF_T_REL, 1,
					      EV_CURRENT)
		     : 0;
	int r = 0;

	if (!d || rs->link >= f->nsections_) {
		warn(f, "relocations of %s unreadable: addresses not relocated",
		     SDT_NOTE_SECTION);
		return 0;
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		struct reloc rl = { .rela = rela };
		GElf_Rela ra = { 0 };
		GElf_Rel rel;

		if (rela ? !gelf_getrela(d, (int)i, &ra)
			 : !gelf_getrel(d, (int)i, &rel))
			break;
		if (!rela) {
			ra.r_offset = rel.r_offset;
			ra.r_info = rel.r_info;
		}
		rl.offset = ra.r_offset;
		rl.addend = ra.r_addend;
		rl.type = (uint32_t)GELF_R_TYPE(ra.r_info);
		rl.sym = (size_t)GELF_R_SYM(ra.r_info);
		r = apply_reloc(f, nb, &f->sections_[rs->info],
				&f->sections_[rs->link], &rl);
	}
	return r;
}

static int cmp_refs(const void *a, const void *b)
{
	uint64_t oa = ((const struct ref_at *)a)->offset;
	uint64_t ob = ((const struct ref_at *)b)->offset;

	return oa < ob ? -1 : oa > ob;
}

/*
 * Libelf reads each section it is asked for into memory of its own, so
 * sections that alias each other would cost their size each time. What
 * the relocations make it read is charged against the file's size, and
 * what the type records make it read against the file's size again
 * (BUDGET, one of the two): sections that do not overlap never exceed
 * it, and relocations that do cannot cost the file its type records.
 */
static int charge(struct sdt_elf *f, size_t i, uint64_t *budget)
{
	struct sdt_elf_section *s;

	if (i >= f->nsections_)
		return -1;
	s = &f->sections_[i];
	if (s->charged || s->type == SHT_NOBITS)
		return 0;
	if (s->size > SECTION_READ_MAX || s->size > *budget)
		return -1;
	*budget -= s->size;
	s->charged = 1;
	return 0;
}

/* Apply every relocation of every note section read, as readelf does. */
static int relocate(struct sdt_elf *f, const unsigned char *is_note,
		    struct note_bytes *nb)
{
	int r = 0;

	for (size_t i = 1; i < f->nsections_ && r == 0; i++) {
		const struct sdt_elf_section *s = &f->sections_[i];

		if ((s->type != SHT_REL && s->type != SHT_RELA) || !s->scn ||
		    s->info >= f->nsections_ || !is_note[s->info])
			continue;
		if (charge(f, i, &f->budget_) < 0 ||
		    charge(f, s->link, &f->budget_) < 0 ||
		    charge(f, f->sections_[s->link].link, &f->budget_) < 0) {
			warn(f,
			     "relocations of %s too large to read, or "
			     "overlapping: addresses not relocated",
			     SDT_NOTE_SECTION);
			continue;
		}
		r = apply_relocs(f, s, nb);
	}
	if (nb->nrefs)
		qsort(nb->refs, nb->nrefs, sizeof(*nb->refs), cmp_refs);
	return r;
}

/* The reference of the field at file offset OFFSET, or none. */
static struct sdt_sym_ref ref_for(const struct note_bytes *nb, uint64_t offset)
{
	struct ref_at key = { .offset = offset };
	const struct ref_at *r = nb->nrefs ? bsearch(&key, nb->refs, nb->nrefs,
						     sizeof(key), cmp_refs)
					   : NULL;

	return r ? r->ref : (struct sdt_sym_ref){ 0 };
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

/*
 * Decode the notes of note section S from file offset *AT to its end, from
 * the bytes read; *AT ends where the decoding stopped.
 */
static int decode_notes(struct sdt_elf *f, const struct note_sec *s,
			const struct note_bytes *nb, uint64_t *at, size_t *cap)
{
	unsigned asz = sdt_target_addr_size(&f->target);
	const struct note_span *sp = span_of(nb, *at, s->end - *at);
	const unsigned char *buf;
	size_t size, off = 0, prev = 0;
	struct sdt_probe p;
	int r;

	if (!sp)
		return 0; /* not read: the warning says why */
	buf = sp->bytes + (*at - sp->start);
	size = (size_t)(s->end - *at);
	memset(&p, 0, sizeof(p));
	p.shndx_ = s->shndx;
	while ((r = sdt_note_decode(&f->target, buf, size, &off, &p.note)) >=
	       0) {
		uint64_t note_at = *at + prev;

		prev = off;
		if (r != 1)
			continue;
		p.note_offset = note_at - (f->sections_[s->shndx].offset);
		/* The strings follow the three address fields. */
		p.desc_offset_ =
			*at +
			(uint64_t)((const unsigned char *)p.note.provider -
				   buf) -
			3 * asz;
		p.pc_ref = ref_for(nb, p.desc_offset_);
		p.sema_ref = ref_for(nb, p.desc_offset_ + 2 * asz);
		if ((r = add_probe(f, &p, cap)) < 0)
			return r;
	}
	if (r == -EINVAL)
		warn(f,
		     "malformed note at offset %llu of %s: later probes lost",
		     (unsigned long long)(*at + off -
					  f->sections_[s->shndx].offset),
		     SDT_NOTE_SECTION);
	*at += off;
	return 0;
}

static int cmp_secs(const void *a, const void *b)
{
	const struct note_sec *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1; /* the widest first */
	return x->shndx < y->shndx ? -1 : x->shndx > y->shndx;
}

/* Listings keep the file's order: by section, then within it. */
static int cmp_probes(const void *a, const void *b)
{
	const struct sdt_probe *x = a, *y = b;

	if (x->shndx_ != y->shndx_)
		return x->shndx_ < y->shndx_ ? -1 : 1;
	return x->note_offset < y->note_offset	 ? -1
	       : x->note_offset > y->note_offset ? 1
						 : 0;
}

/* SECS (sorted) one after another, each note once. */
static int decode_sections(struct sdt_elf *f, const struct note_sec *secs,
			   size_t nsecs, const struct note_bytes *nb)
{
	uint64_t done = 0; /* where the decoding last stopped */
	size_t cap = 0;
	int overlap = 0, r = 0;

	for (size_t i = 0; i < nsecs && r == 0; i++) {
		uint64_t at = secs[i].start;

		if (at < done) {
			overlap = 1;
			at = done;
		}
		if (at >= secs[i].end)
			continue;
		r = decode_notes(f, &secs[i], nb, &at, &cap);
		if (at > done)
			done = at;
	}
	if (overlap)
		warn(f,
		     "%s sections overlap in the file: their notes are "
		     "read once",
		     SDT_NOTE_SECTION);
	if (f->nprobes > 1)
		qsort(f->probes, f->nprobes, sizeof(*f->probes), cmp_probes);
	return r;
}

static int read_note_sections(struct sdt_elf *f, struct note_sec *secs,
			      size_t nsecs, const unsigned char *is_note)
{
	struct note_bytes nb = { 0 };
	int r;

	qsort(secs, nsecs, sizeof(*secs), cmp_secs);
	r = read_spans(f, secs, nsecs, &nb);
	/* A relocatable object's notes are only whole once relocated. */
	if (r == 0 && f->type == ET_REL)
		r = relocate(f, is_note, &nb);
	if (r == 0)
		r = decode_sections(f, secs, nsecs, &nb);
	free(nb.spans);
	free(nb.refs);
	return r;
}

static int add_type_note(struct sdt_elf *f, const char *desc, size_t size,
			 unsigned type)
{
	struct sdt_type_note *n = realloc(
		f->type_notes, (f->ntype_notes + 1) * sizeof(*f->type_notes));

	if (!n)
		return -ENOMEM;
	f->type_notes = n;
	n[f->ntype_notes].desc = desc;
	n[f->ntype_notes].size = size;
	n[f->ntype_notes].type = type;
	f->ntype_notes++;
	return 0;
}

/* sdtkit type records: libelf turns the note headers to our byte order. */
static int read_type_section(struct sdt_elf *f, size_t i)
{
	Elf_Data *d;
	size_t off = 0, next, name_at, desc_at;
	GElf_Nhdr nh;
	int r;

	/* Damage here costs type names, never the listing: no warning(). */
	if (charge(f, i, &f->types_budget_) < 0) {
		f->types_damaged = 1;
		return 0;
	}
	/*
	 * The section lies within the file (read_section()): libelf failing
	 * to read it is a failure to allocate, an error, not damage that
	 * would cost the names silently.
	 */
	d = elf_getdata(f->sections_[i].scn, NULL);
	if (!d)
		return -ENOMEM;
	if (d->d_size && !d->d_buf) {
		f->types_damaged = 1;
		return 0;
	}
	for (; off < d->d_size; off = next) {
		const char *name;

		next = gelf_getnote(d, off, &nh, &name_at, &desc_at);
		if (!next) {
			f->types_damaged = 1;
			break;
		}
		name = (const char *)d->d_buf + name_at;
		if ((nh.n_type != SDT_TYPES_NT &&
		     nh.n_type != SDT_TYPES_NT_CODES) ||
		    nh.n_namesz != sizeof(SDT_TYPES_OWNER) ||
		    memcmp(name, SDT_TYPES_OWNER, sizeof(SDT_TYPES_OWNER)))
			continue;
		r = add_type_note(f, (const char *)d->d_buf + desc_at,
				  nh.n_descsz, nh.n_type);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * Type sections that alias one another are read once (their records would
 * count twice); one that overlaps another in part is read whole, within the
 * budget charge() keeps.
 */
static int read_type_sections(struct sdt_elf *f, struct note_sec *secs,
			      size_t nsecs)
{
	uint64_t covered = 0;
	size_t keep = 0;
	int r = 0;

	qsort(secs, nsecs, sizeof(*secs), cmp_secs);
	for (size_t i = 0; i < nsecs; i++) {
		if (secs[i].end <= covered && secs[i].start < secs[i].end) {
			f->types_damaged = 1;
			continue;
		}
		if (secs[i].end > covered)
			covered = secs[i].end;
		secs[keep++] = secs[i];
	}
	/* Records in the order of their sections. */
	for (size_t i = 1; i < keep; i++) {
		struct note_sec s = secs[i];
		size_t j = i;

		for (; j > 0 && secs[j - 1].shndx > s.shndx; j--)
			secs[j] = secs[j - 1];
		secs[j] = s;
	}
	for (size_t i = 0; i < keep && r == 0; i++)
		r = read_type_section(f, secs[i].shndx);
	return r;
}

static int read_notes(struct sdt_elf *f)
{
	size_t n = f->nsections_, nnotes = 0, ntypes = 0;
	struct note_sec *notes = calloc(n ? n : 1, sizeof(*notes));
	struct note_sec *types = calloc(n ? n : 1, sizeof(*types));
	unsigned char *is_note = calloc(n ? n : 1, 1);
	int r = -ENOMEM;

	if (!notes || !types || !is_note)
		goto out;
	for (size_t i = 1; i < n; i++) {
		const struct sdt_elf_section *s = &f->sections_[i];
		struct note_sec ns = { i, s->offset, s->offset + s->size };

		if (!s->scn)
			continue;
		if (!strcmp(s->name, SDT_BASE_SECTION)) {
			f->has_base = 1;
			f->base_addr = s->addr;
		} else if (s->type == SHT_NOTE && s->size > SECTION_READ_MAX &&
			   (!strcmp(s->name, SDT_NOTE_SECTION) ||
			    !strcmp(s->name, SDT_TYPES_SECTION))) {
			warn(f, "%s not read: %llu bytes, more than %llu MiB",
			     s->name, (unsigned long long)s->size,
			     SECTION_READ_MAX >> 20);
		} else if (s->type == SHT_NOTE &&
			   !strcmp(s->name, SDT_NOTE_SECTION)) {
			is_note[i] = 1;
			if (s->size)
				notes[nnotes++] = ns;
		} else if (s->type == SHT_NOTE &&
			   !strcmp(s->name, SDT_TYPES_SECTION)) {
			types[ntypes++] = ns;
		}
	}
	r = read_note_sections(f, notes, nnotes, is_note);
	if (r == 0)
		r = read_type_sections(f, types, ntypes);
out:
	free(notes);
	free(types);
	free(is_note);
	return r;
}

/* ------------------------------------------------------------------ */
/* Which section holds an address                                      */

/*
 * Every probe asks which allocated section holds its address: the first
 * in header order that does. A walk over the headers per probe costs
 * sections times probes, which a hostile file makes billions, so the
 * answer is worked out once for every stretch of the address space
 * between section boundaries (a sweep over the boundaries with a heap of
 * the sections open there, lowest index on top) and looked up by binary
 * search.
 */
struct bound {
	uint64_t at;
	size_t shndx;
	int open; /* 1 the section starts here, 0 it ends */
};

static int cmp_bounds(const void *a, const void *b)
{
	const struct bound *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

static void heap_push(size_t *heap, size_t *n, size_t v)
{
	size_t i = (*n)++;

	for (; i && heap[(i - 1) / 2] > v; i = (i - 1) / 2)
		heap[i] = heap[(i - 1) / 2];
	heap[i] = v;
}

static void heap_pop(size_t *heap, size_t *n)
{
	size_t v = heap[--*n], i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && heap[c + 1] < heap[c])
			c++;
		if (heap[c] >= v)
			break;
		heap[i] = heap[c];
		i = c;
	}
	if (*n)
		heap[i] = v;
}

static int index_addresses(struct sdt_elf *f)
{
	size_t n = 0, nheap = 0, nspans = 0;
	struct bound *b = calloc(2 * f->nsections_ + 1, sizeof(*b));
	size_t *heap = calloc(f->nsections_ + 1, sizeof(*heap));
	unsigned char *open = calloc(f->nsections_ + 1, 1);
	struct sdt_addr_span *spans =
		calloc(2 * f->nsections_ + 1, sizeof(*spans));
	int r = -ENOMEM;

	if (!b || !heap || !open || !spans)
		goto out;
	for (size_t i = 1; f->type != ET_REL && i < f->nsections_; i++) {
		const struct sdt_elf_section *s = &f->sections_[i];

		if (!(s->flags & SHF_ALLOC) || !s->size)
			continue;
		b[n++] = (struct bound){ s->addr, i, 1 };
		if (s->size <= UINT64_MAX - s->addr)
			b[n++] = (struct bound){ s->addr + s->size, i, 0 };
	}
	qsort(b, n, sizeof(*b), cmp_bounds);
	for (size_t i = 0; i < n;) {
		uint64_t at = b[i].at;
		size_t top;

		for (; i < n && b[i].at == at; i++) {
			open[b[i].shndx] = b[i].open;
			if (b[i].open)
				heap_push(heap, &nheap, b[i].shndx);
		}
		while (nheap && !open[heap[0]])
			heap_pop(heap, &nheap);
		top = nheap ? heap[0] : 0;
		if (!nspans || spans[nspans - 1].shndx != top)
			spans[nspans++] = (struct sdt_addr_span){ at, top };
	}
	f->addr_spans_ = spans;
	f->naddr_spans_ = nspans;
	spans = NULL;
	r = 0;
out:
	free(b);
	free(heap);
	free(open);
	free(spans);
	return r;
}

/* ------------------------------------------------------------------ */
/* Opening                                                             */

static int read_probes(struct sdt_elf *f, uint64_t size, char *err,
		       size_t errlen)
{
	Elf *elf = f->elf_;
	GElf_Ehdr eh;
	int r;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return set_err(err, errlen, -ENOEXEC, "not an ELF file");
	f->target.elf_class = eh.e_ident[EI_CLASS];
	f->target.byte_order = eh.e_ident[EI_DATA];
	f->target.machine = eh.e_machine;
	f->target.flags = eh.e_flags;
	f->type = eh.e_type;
	if ((r = check_segments(elf, &eh, size, err, errlen)) < 0 ||
	    (r = read_sections(f, &eh, size, err, errlen)) < 0)
		return r;
	if ((r = read_notes(f)) < 0 || (r = index_addresses(f)) < 0)
		return set_err(err, errlen, r, "out of memory");
	return 0;
}

static int open_elf(struct sdt_elf *f, Elf *elf, uint64_t size, char *err,
		    size_t errlen)
{
	int r;

	/*
	 * libelf answers any file that is not ELF with an object of kind
	 * ELF_K_NONE: no object at all is a failure to read (out of memory),
	 * never "not ELF", which callers pass over without a word.
	 */
	if (!elf)
		return set_err(err, errlen, -EIO, "cannot read as ELF: %s",
			       elf_errmsg(-1));
	f->elf_ = elf;
	f->budget_ = size;
	f->types_budget_ = size;
	r = read_probes(f, size, err, errlen);
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
static int check_regular(int fd, uint64_t *size, char *err, size_t errlen)
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
	*size = (uint64_t)st.st_size;
	return 0;
}

int sdt_elf_open_fd(struct sdt_elf *f, int fd, char *err, size_t errlen)
{
	uint64_t size = 0;
	int r;

	init(f);
	if ((r = check_regular(fd, &size, err, errlen)) < 0)
		return r;
	f->fd_ = fd;
	/*
	 * Read, never map: a mapped file that shrinks under us (its owner
	 * truncates it, as anyone may do to a file of theirs that root lists
	 * through -p) is a SIGBUS. libelf reads lazily with pread, and only
	 * the headers and the sections we ask for; a short read is an error.
	 */
	return open_elf(f, elf_begin(fd, ELF_C_READ, NULL), size, err, errlen);
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
	f->image_ = image;
	return open_elf(f, elf_memory((char *)image, len), len, err, errlen);
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
	free(f->addr_spans_);
	f->addr_spans_ = NULL;
	f->naddr_spans_ = 0;
	for (size_t i = 0; i < f->nowned_; i++)
		free(f->owned_[i]);
	free(f->owned_);
	f->owned_ = NULL;
	f->nowned_ = 0;
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

int sdt_elf_is_program(const struct sdt_elf *f)
{
	size_t n;

	if (f->type == ET_EXEC)
		return 1;
	if (f->type != ET_DYN || !f->elf_ || elf_getphdrnum(f->elf_, &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(f->elf_, (int)i, &ph) &&
		    ph.p_type == PT_INTERP)
			return 1;
	}
	return 0;
}

static const struct sdt_elf_section *section_at(const struct sdt_elf *f,
						uint64_t addr)
{
	const struct sdt_addr_span *sp = f->addr_spans_;
	size_t lo = 0, hi = f->naddr_spans_;

	if (f->type == ET_REL)
		return NULL; /* every section is at address 0 */
	/* The last span that starts at or before ADDR. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sp[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && sp[lo - 1].shndx ? &f->sections_[sp[lo - 1].shndx] : NULL;
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

/* The string DT_SONAME names in the dynamic section, through its strtab. */
static int soname_in(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, char *buf,
		     size_t len)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = d && sh->sh_entsize ? d->d_size / sh->sh_entsize : 0;
	GElf_Dyn dyn;

	for (size_t i = 0; i < n && gelf_getdyn(d, (int)i, &dyn); i++) {
		const char *s;

		if (dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag != DT_SONAME)
			continue;
		s = elf_strptr(elf, sh->sh_link, (size_t)dyn.d_un.d_val);
		if (!s || strlen(s) >= len)
			return -EBADMSG;
		memcpy(buf, s, strlen(s) + 1);
		return 0;
	}
	return -ENOENT;
}

int sdt_elf_soname(const struct sdt_elf *f, char *buf, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (!f->elf_ || !len)
		return -ENOENT;
	buf[0] = '\0';
	while ((scn = elf_nextscn(f->elf_, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNAMIC)
			return soname_in(f->elf_, scn, &sh, buf, len);
	}
	return -ENOENT;
}

/* ------------------------------------------------------------------ */
/* Identity                                                            */

/* The GNU build-id note among the notes of one small allocated section. */
static int build_id_in(Elf_Scn *scn, unsigned char *buf, size_t len)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, next, name_at, desc_at;
	GElf_Nhdr nh;

	if (!d)
		return -EIO; /* out of memory, or unreadable: not "none" */
	if (!d->d_buf)
		return -ENOENT;
	for (; off < d->d_size; off = next) {
		next = gelf_getnote(d, off, &nh, &name_at, &desc_at);
		if (!next)
			break;
		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp((const char *)d->d_buf + name_at, "GNU", 4) ||
		    !nh.n_descsz)
			continue;
		if (nh.n_descsz > len)
			return -ENOSPC;
		memcpy(buf, (const char *)d->d_buf + desc_at, nh.n_descsz);
		return (int)nh.n_descsz;
	}
	return -ENOENT;
}

int sdt_elf_build_id(const struct sdt_elf *f, unsigned char *buf, size_t len)
{
	int r;

	/* Linkers put it in an allocated note section of a few dozen bytes. */
	for (size_t i = 1; i < f->nsections_; i++) {
		const struct sdt_elf_section *s = &f->sections_[i];

		if (!s->scn || s->type != SHT_NOTE || !(s->flags & SHF_ALLOC) ||
		    s->size > 4096)
			continue;
		r = build_id_in(s->scn, buf, len);
		if (r != -ENOENT)
			return r;
	}
	return -ENOENT;
}
