/* SPDX-License-Identifier: MIT */
/*
 * Reading stapsdt probes out of an ELF file.
 *
 * libelf does the bounds checking of headers and sections; the notes we
 * decode ourselves (note.c) from the raw section bytes, in the file's own
 * byte order, so a corrupt note costs the probes after it, never a crash.
 * Files may come from a path, an fd (a memfd seen through /proc/PID/fd) or
 * memory (the fuzzer).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <libelf.h>

#include "elfobj.h"
#include "errmsg.h"

#define set_err sdt_errf

static int add_probe(struct sdt_elf *f, const struct sdt_note *n,
		     uint64_t off, size_t *cap)
{
	if (f->nprobes == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct sdt_probe *p = realloc(f->probes, ncap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		f->probes = p;
		*cap = ncap;
	}
	f->probes[f->nprobes].note = *n;
	f->probes[f->nprobes].note_offset = off;
	f->nprobes++;
	return 0;
}

static int read_note_section(struct sdt_elf *f, Elf_Scn *scn, size_t *cap)
{
	Elf_Data *d = elf_rawdata(scn, NULL);
	size_t off = 0;
	struct sdt_note n;
	int r;

	if (!d) {
		snprintf(f->warning, sizeof(f->warning),
			 "note section unreadable: %s", elf_errmsg(-1));
		return 0;
	}
	if (!d->d_buf)
		return 0;
	while ((r = sdt_note_decode(&f->target, d->d_buf, d->d_size, &off,
				    &n)) >= 0) {
		if (r == 1 && (r = add_probe(f, &n, off, cap)) < 0)
			return r;
	}
	if (r == -EINVAL)
		snprintf(f->warning, sizeof(f->warning),
			 "malformed note at offset %zu of %s: later probes lost",
			 off, SDT_NOTE_SECTION);
	return 0;
}

static int read_probes(struct sdt_elf *f, char *err, size_t errlen)
{
	Elf *elf = f->elf_;
	GElf_Ehdr eh;
	size_t shstrndx, cap = 0;
	Elf_Scn *scn = NULL;
	int r;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return set_err(err, errlen, -ENOEXEC, "not an ELF file");
	f->target.elf_class = eh.e_ident[EI_CLASS];
	f->target.byte_order = eh.e_ident[EI_DATA];
	f->target.machine = eh.e_machine;
	f->target.flags = eh.e_flags;
	f->type = eh.e_type;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return set_err(err, errlen, -ENOEXEC,
			       "no section name table: %s", elf_errmsg(-1));

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		if (!strcmp(name, SDT_BASE_SECTION)) {
			f->has_base = 1;
			f->base_addr = sh.sh_addr;
		} else if (sh.sh_type == SHT_NOTE &&
			   !strcmp(name, SDT_NOTE_SECTION)) {
			if ((r = read_note_section(f, scn, &cap)) < 0)
				return set_err(err, errlen, r, "out of memory");
		}
	}
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

int sdt_elf_open_fd(struct sdt_elf *f, int fd, char *err, size_t errlen)
{
	init(f);
	f->fd_ = fd;
	return open_elf(f, elf_begin(fd, ELF_C_READ_MMAP, NULL), err, errlen);
}

int sdt_elf_open(struct sdt_elf *f, const char *path, char *err,
		 size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int r;

	if (fd < 0) {
		r = -errno;
		init(f);
		return set_err(err, errlen, r, "cannot open: %s",
			       strerror(-r));
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
	f->elf_ = NULL;
	f->probes = NULL;
	f->nprobes = 0;
	f->fd_ = -1;
	f->own_fd_ = 0;
}

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

const char *sdt_elf_section_at(const struct sdt_elf *f, uint64_t addr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!f->elf_ || elf_getshdrstrndx(f->elf_, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(f->elf_, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (addr >= sh.sh_addr && addr - sh.sh_addr < sh.sh_size)
			return elf_strptr(f->elf_, shstrndx, sh.sh_name);
	}
	return NULL;
}
