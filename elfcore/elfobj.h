/* SPDX-License-Identifier: MIT */
/*
 * Reading probes out of ELF files and writing the two kinds of object our
 * products make, all through libelf/gelf so that class and byte order are
 * the target's, never the host's.
 *
 *  - sdt_elf_*: open an executable, shared object or relocatable object
 *    (from a path, an fd or memory), list its stapsdt notes (in a
 *    relocatable object with their relocations applied, as readelf shows
 *    them) and sdtkit type records, and map addresses to file offsets the
 *    way uprobes want them. A damaged file (headers or sections past its
 *    end) is an error, never an empty listing.
 *  - sdt_write_semaphore_object(): dtrace-gen -G. A relocatable object with
 *    one zeroed 2-byte semaphore per probe in ".probes" and nothing that
 *    records a path or a time.
 *  - sdt_dso_write(): libstapsdt. A minimal shared object that glibc can
 *    dlopen: one stub per probe (the caller gives the machine code), one
 *    semaphore per probe, dynamic symbols for both, and the notes.
 *
 * Errors are negative errnos; where a message helps, it goes into the
 * caller's ERR buffer (may be NULL) naming what failed and why.
 */
#ifndef SDT_ELFOBJ_H
#define SDT_ELFOBJ_H

#include <stddef.h>
#include <stdint.h>

#include "note.h"
#include "target.h"

/* What a relocated address field of a note refers to (ET_REL). */
struct sdt_sym_ref {
	const char *symbol; /* section name for section symbols; NULL: none */
	int64_t offset;	    /* from the symbol: symbol+offset is the address */
	size_t shndx;	/* section the symbol is defined in (0: undefined) */
	int is_section; /* a section symbol: show `.text+0x0', not `.text' */
};

struct sdt_probe {
	struct sdt_note note; /* strings point into the file's note data */
	uint64_t note_offset; /* of the note within its section */
	/*
	 * Relocatable objects: what the note's PC and semaphore are relocated
	 * against; the note's fields then hold symbol value + addend, as
	 * `readelf -n' shows them.
	 */
	struct sdt_sym_ref pc_ref, sema_ref;
	/* private: the descriptor's file offset, for relocations */
	uint64_t desc_offset_;
	size_t shndx_;
};

/* One sdtkit type record: its note type and descriptor bytes. */
struct sdt_type_note {
	const char *desc;
	size_t size;
	unsigned type; /* SDT_TYPES_NT or SDT_TYPES_NT_CODES */
};

/* private: from this address on, section SHNDX holds it (0: none) */
struct sdt_addr_span {
	uint64_t start;
	size_t shndx;
};

struct sdt_elf {
	struct sdt_target target;
	int type;	    /* ET_EXEC, ET_DYN, ET_REL */
	int has_base;	    /* a .stapsdt.base section was found */
	uint64_t base_addr; /* its address in this file */
	struct sdt_probe *probes;
	size_t nprobes;
	struct sdt_type_note *type_notes; /* SDT_TYPES_SECTION, in order */
	size_t ntype_notes;
	int types_damaged; /* SDT_TYPES_SECTION unreadable past some record */
	char warning[256]; /* set when some notes could not be read */
	/* private */
	void *elf_; /* Elf * */
	struct sdt_elf_section *sections_;
	size_t nsections_;
	unsigned char **owned_; /* the note bytes read */
	size_t nowned_;
	const unsigned char *image_;	   /* sdt_elf_open_image()'s bytes */
	struct sdt_addr_span *addr_spans_; /* by start: see elfread.c */
	size_t naddr_spans_;
	uint64_t budget_;	/* what libelf may still read: see elfread.c */
	uint64_t types_budget_; /* the same, for the type records */
	int fd_;
	int own_fd_;
};

/*
 * Open PATH (or FD, or the LEN bytes at IMAGE, which must outlive F) and
 * read its probes. Returns 0, or a negative errno with the reason in ERR:
 * -ENOEXEC not ELF, -EIO unreadable, -EBADMSG damaged (truncated: headers
 * or sections past the end of the file), -EINVAL not a regular file (a
 * FIFO, device or directory: refused without blocking). Malformed notes do
 * not fail the open: the probes before them are kept and F->warning says
 * what was wrong.
 */
int sdt_elf_open(struct sdt_elf *f, const char *path, char *err, size_t errlen);
int sdt_elf_open_fd(struct sdt_elf *f, int fd, char *err, size_t errlen);
int sdt_elf_open_image(struct sdt_elf *f, const void *image, size_t len,
		       char *err, size_t errlen);
void sdt_elf_close(struct sdt_elf *f);

/*
 * The probe's address in this file: its PC moved by the difference between
 * where .stapsdt.base really is and where the note says it is (prelink and
 * the like move sections after notes were written).
 */
uint64_t sdt_probe_addr(const struct sdt_elf *f, const struct sdt_probe *p);

/*
 * The file offset of virtual address ADDR, through the PT_LOAD program
 * headers (what uprobes want). Returns 0, or -ENOENT where no file-backed
 * segment holds ADDR (and always for relocatable objects).
 */
int sdt_elf_addr_to_offset(const struct sdt_elf *f, uint64_t addr,
			   uint64_t *off);

/*
 * 1 when F is a program one runs (ET_EXEC, or ET_DYN with a PT_INTERP: a
 * PIE), 0 for a shared object or anything else.
 */
int sdt_elf_is_program(const struct sdt_elf *f);

/*
 * F's DT_SONAME into BUF: 0, -ENOENT when it has none (a program, an
 * object), -EBADMSG when it is unreadable or longer than LEN.
 */
int sdt_elf_soname(const struct sdt_elf *f, char *buf, size_t len);

/*
 * F's GNU build-id (NT_GNU_BUILD_ID, what debuginfod and perf key objects
 * by) into BUF: its length in bytes, -ENOENT when F has none, -ENOSPC
 * when it is longer than LEN, -EIO when a note section holding it could
 * not be read (out of memory).
 */
int sdt_elf_build_id(const struct sdt_elf *f, unsigned char *buf, size_t len);

/* Name of the allocated section that contains ADDR, or NULL. */
const char *sdt_elf_section_at(const struct sdt_elf *f, uint64_t addr);

/*
 * Name of the section the probe's site is in (for a relocatable object,
 * the one its PC is relocated against), or NULL.
 */
const char *sdt_probe_section(const struct sdt_elf *f,
			      const struct sdt_probe *p);

/*
 * 1 when the probe's site is in executable code: an SHF_EXECINSTR section
 * (the section its PC is relocated against in a relocatable object), or an
 * executable PT_LOAD when the file has no section headers. 0 for a stale
 * note (a linker dropped its code but kept the note) or a damaged one.
 */
int sdt_probe_in_code(const struct sdt_elf *f, const struct sdt_probe *p);

/*
 * Both writers take, optionally, one more note section: EXTRA_NOTES_SIZE
 * bytes at EXTRA_NOTES, whole notes already encoded in the target's byte
 * order (sdt_note_head_encode() helps), each padded to 4. They go verbatim
 * into a non-allocated SHT_NOTE section of this name, aligned to 4 (a
 * size that is not a multiple of 4 is refused, -EINVAL); with
 * EXTRA_NOTES_SIZE 0 there is no such section and the object is the same
 * as without the fields.
 */
#define SDT_EXTRA_NOTE_SECTION SDT_TYPES_SECTION

/*
 * dtrace-gen -G: a relocatable object with the NSYMBOLS symbols in
 * SYMBOLS, each a GLOBAL OBJECT of size 2 in ".probes" (PROGBITS, WA,
 * align 2), in order, hidden when HIDDEN; plus ".note.GNU-stack".
 */
struct sdt_sema_object {
	struct sdt_target target;
	const char *const *symbols;
	size_t nsymbols;
	int hidden;
	const void *extra_notes; /* see SDT_EXTRA_NOTE_SECTION */
	size_t extra_notes_size;
};

/* Write the object O describes to FD. */
int sdt_write_semaphore_object(int fd, const struct sdt_sema_object *o,
			       char *err, size_t errlen);

struct sdt_dso_probe {
	const char *provider;
	const char *name;
	const char *args;	 /* spec, "" for none */
	const char *stub_symbol; /* dynamic FUNC symbol for the stub */
	const char *sema_symbol; /* dynamic OBJECT symbol for the semaphore */
};

struct sdt_dso {
	struct sdt_target target;
	const char *soname;
	const unsigned char *stub; /* one stub's machine code */
	size_t stub_size;
	size_t stub_probe_offset; /* where in the stub the note's PC points */
	const struct sdt_dso_probe *probes;
	size_t nprobes;
	const void *extra_notes; /* see SDT_EXTRA_NOTE_SECTION */
	size_t extra_notes_size;
	/*
	 * Room to grow (libstapsdt's providerExtend()): 0 for an object of
	 * exactly NPROBES probes. Else SLOTS (at least NPROBES) stubs and
	 * semaphores are laid out, the notes of the others to be added with
	 * sdt_dso_append(); the note sections are always present and get
	 * NOTE_ROOM and EXTRA_ROOM bytes of room after their contents.
	 */
	size_t slots;
	size_t note_room, extra_room;
};

/* A non-allocated section that grows (sdt_dso_append()). */
struct sdt_dso_room {
	uint64_t shdr;	 /* file offset of its section header */
	uint64_t offset; /* of its contents */
	uint64_t size, cap;
	uint64_t unit; /* what an append is a multiple of */
};

/* Where things landed, as addresses relative to the load base. */
struct sdt_dso_layout {
	uint64_t stub_addr; /* stub i is at stub_addr + i * stub_stride */
	uint64_t stub_stride;
	uint64_t sema_addr; /* semaphore i (2 bytes) at sema_addr + 2 * i */
	uint64_t base_addr; /* .stapsdt.base, the notes' base field */
	uint64_t slots;	    /* stubs and semaphores laid out */
	uint64_t file_size; /* grows with sdt_dso_append() */
	/* With room to grow only: */
	uint64_t build_id; /* file offset of the build ID's bytes */
	unsigned char id[20];
	struct sdt_dso_room notes, extra;
	/* .symtab and .strtab, for the symbols of probes added later */
	struct sdt_dso_room symtab, strtab;
	uint64_t stub_size;
	unsigned text_index, probes_index; /* section indexes */
};

/*
 * All SIZE bytes of BUF to FD, through short writes and signals. Returns 0,
 * or -errno (errno set too).
 */
int sdt_write_all(int fd, const void *buf, size_t size);

/* libstapsdt: write the shared object D describes to FD, a new empty file. */
int sdt_dso_write(int fd, const struct sdt_dso *d,
		  struct sdt_dso_layout *layout, char *err, size_t errlen);

/*
 * libstapsdt: add the N bytes of notes at BYTES to section R (the layout's
 * notes or extra) of the object written to FD with room to grow, and give
 * the object a new build ID. Readers see the section whole before and
 * after: the bytes go where the header does not yet count them (past its
 * size, or into a new copy at the end of the file once the room is used
 * up, doubled), then the header's offset and size, then the build ID.
 * Returns 0 or a negative errno (message in ERR).
 */
/*
 * libstapsdt: symbols for the N probes DESC describes, whose stubs and
 * semaphores are in slots FIRST on, added to the .symtab of the object
 * written to FD with room to grow (its .dynsym is loaded and cannot grow):
 * profilers and debuggers name the stubs as in an object loaded whole.
 * Returns 0 or a negative errno (message in ERR).
 */
int sdt_dso_add_symbols(int fd, const struct sdt_target *t,
			struct sdt_dso_layout *l,
			const struct sdt_dso_probe *desc, size_t n,
			size_t first, char *err, size_t errlen);

int sdt_dso_append(int fd, const struct sdt_target *t, struct sdt_dso_layout *l,
		   struct sdt_dso_room *r, const void *bytes, size_t n,
		   char *err, size_t errlen);

#endif
