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
 * Being a non-allocated note it survives ld --gc-sections, strip and
 * objcopy, and linking several objects just concatenates the records.
 * docs/typed-probes.md is the description for readers.
 */
#ifndef SDT_TYPEREC_H
#define SDT_TYPEREC_H

#include <stddef.h>

#include "note.h"
#include "target.h"

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

#endif
