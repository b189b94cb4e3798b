/* SPDX-License-Identifier: MIT */
/*
 * The NT_STAPSDT note, written once.
 *
 * Layout (docs/formats.md): an Elf_Nhdr {namesz 8, descsz, type 3}, the
 * name "stapsdt\0", then the descriptor: probe PC, .stapsdt.base address
 * and semaphore address (each address-sized, in the target's byte order),
 * then provider, name and argument spec, each NUL-terminated, the whole
 * padded to 4 bytes. The encoder writes exactly what the header's
 * assembler template emits; the decoder accepts what any producer wrote
 * and refuses anything that does not fit in the bytes given.
 */
#ifndef SDT_NOTE_H
#define SDT_NOTE_H

#include <stddef.h>
#include <stdint.h>

#include "target.h"

#define SDT_NOTE_TYPE 3
#define SDT_NOTE_OWNER "stapsdt"
#define SDT_NOTE_SECTION ".note.stapsdt"
#define SDT_BASE_SECTION ".stapsdt.base"

/*
 * sdtkit's record of each probe's argument types and names (dtrace-gen
 * -G): notes of owner SDT_TYPES_OWNER and type SDT_TYPES_NT in a
 * non-allocated SHT_NOTE section SDT_TYPES_SECTION; descriptor = provider,
 * probe, argument count (decimal), then per argument its C type and name,
 * each NUL-terminated. Format: docs/typed-probes.md; encoder: typerec.h.
 *
 * The headers' records of the types the compiler saw (<sys/sdt.h>,
 * <usdt.h>) take type SDT_TYPES_NT_CODES: provider and probe, then one
 * byte for the count and one byte per argument naming its type by a
 * number, then each argument's text as the site wrote it: the assembler
 * need not paste type texts together. Type 2 is the struct layouts' (layout.h).
 */
#define SDT_TYPES_SECTION ".note.sdtkit"
#define SDT_TYPES_OWNER "sdtkit"
#define SDT_TYPES_NT 1
#define SDT_TYPES_NT_CODES 3

/* An ELF note header {namesz, descsz, type}: 12 bytes in either class. */
#define SDT_NOTE_HEADER_SIZE 12

struct sdt_note {
	uint64_t pc;
	uint64_t base;
	uint64_t semaphore;
	const char *provider;
	const char *name;
	const char *args; /* "" for no arguments */
};

/* Bytes the encoded note takes, header and padding included. */
size_t sdt_note_size(const struct sdt_target *t, const struct sdt_note *n);

/* Encode N into BUF (sdt_note_size() bytes); returns that size. */
size_t sdt_note_encode(const struct sdt_target *t, const struct sdt_note *n,
		       unsigned char *buf);

/* Bytes a note's header and its OWNER (NUL-terminated, padded to 4) take. */
size_t sdt_note_head_size(const char *owner);

/*
 * Write the header of a note of TYPE with a DESCSZ-byte descriptor, then
 * OWNER padded to 4, into BUF in T's byte order; the descriptor goes right
 * after. Returns sdt_note_head_size(OWNER).
 */
size_t sdt_note_head_encode(const struct sdt_target *t, const char *owner,
			    size_t descsz, uint32_t type, unsigned char *buf);

/* Copy S and its NUL to P (descriptors of strings); returns what follows. */
unsigned char *sdt_note_put_str(unsigned char *p, const char *s);

/*
 * The NUL-terminated string at *P within [*P, END), moving *P past it; NULL
 * when no NUL comes before END (*P is then left alone).
 */
const char *sdt_note_take_str(const unsigned char **p,
			      const unsigned char *end);

/* N rounded up to the 4 bytes that note names and descriptors take. */
static inline size_t sdt_note_align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/*
 * Decode the note at BUF[*OFF..LEN), advance *OFF past it. Strings in N
 * point into BUF. Returns 1 for a stapsdt note, 0 for another note (skipped),
 * -EINVAL for bytes that are not a well-formed note (*OFF is left alone),
 * -ENOENT at the end.
 */
int sdt_note_decode(const struct sdt_target *t, const unsigned char *buf,
		    size_t len, size_t *off, struct sdt_note *n);

#endif
