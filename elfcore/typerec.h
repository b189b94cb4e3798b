/* SPDX-License-Identifier: MIT */
/*
 * Argument types of probes, as ELF notes of their own.
 *
 * A stapsdt note tells a tracer where an argument is and how many bytes it
 * has, never what it is. The provider's .d file does say (`const char
 * *query'), so dtrace-gen keeps that in a second note section that no
 * tracer reads today and that never touches the stapsdt notes:
 *
 *   section SDT_TYPES_SECTION (SHT_NOTE, not allocated, align 4)
 *   note    owner SDT_TYPES_OWNER, type SDT_TYPES_NT
 *   desc    provider, probe, argument count (decimal), then per argument
 *           its C type and its name ("" when unnamed), each NUL-terminated
 *
 * <sys/sdt.h> and <usdt.h> write the types the compiler saw at a site in
 * a compact record of their own, type SDT_TYPES_NT_CODES (a byte per
 * argument naming its type, then the argument texts): the assembler
 * copies bytes rather than pasting type texts. Nothing here writes those;
 * sdt-list reads both (types.c) into the same record.
 *
 * Being a non-allocated note it survives ld --gc-sections, strip and
 * objcopy, and linking several objects just concatenates the records.
 * docs/typed-probes.md is the description for readers.
 *
 * The type text has one spelling (`char *const *'), whoever writes it:
 * dtrace-gen from the tokens of a .d declaration, libstapsdt from the text
 * a caller passes. Both space tokens by sdt_type_glued(), so a record
 * reads the same from either (typetext.c).
 */
#ifndef SDT_TYPEREC_H
#define SDT_TYPEREC_H

#include <stddef.h>

#include "note.h"
#include "target.h"

/*
 * The optional string after a record's arguments that marks it as written
 * by a generated header: a fallback, used only where no record without
 * the mark (one dtrace-gen -G made from the .d file) describes the probe.
 */
#define SDT_TYPES_FROM_HEADER "header"

/*
 * The string after that mark in a record <usdt.h> wrote from the types
 * the compiler saw at a probe's sites: it ranks after a generated
 * header's, and its records of one probe may differ (sites that pass
 * different types), which is no conflict. Its empty types are the ones
 * the compiler could not classify.
 */
#define SDT_TYPES_FROM_USDT "usdt"

struct sdt_typerec {
	const char *provider; /* as the stapsdt note names them */
	const char *name;
	unsigned nargs;
	const char *const *types; /* nargs normalized C types */
	const char *const *names; /* nargs names, "" or NULL when unnamed */
};

/* Bytes the encoded record takes, header and padding included. */
size_t sdt_typerec_size(const struct sdt_typerec *r);

/* Encode R for T into BUF (sdt_typerec_size() bytes); returns that size. */
size_t sdt_typerec_encode(const struct sdt_target *t,
			  const struct sdt_typerec *r, unsigned char *buf);

/*
 * 1 when tokens A and B (ALEN and BLEN bytes), in this order, are written
 * with no space between them in a type text: `char *const *',
 * `int (*)(void *, int)', `ns::conn_t'.
 */
int sdt_type_glued(const char *a, size_t alen, const char *b, size_t blen);

/*
 * TEXT, a C type without a declared name as a person wrote it
 * (`char*const  *'), in the records' spelling (`char *const *') into OUT
 * (SIZE bytes, NUL-terminated). Its tokens may be identifiers, numbers,
 * `*', `&', `(', `)', `[', `]', `,' and `::', blanks between them; it
 * names at least one identifier and pairs its brackets. Returns the
 * length, or -1 with *WHY saying what is wrong (also when OUT is short).
 */
int sdt_type_normalize(const char *text, char *out, size_t size,
		       const char **why);

#endif
