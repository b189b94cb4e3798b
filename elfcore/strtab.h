/* SPDX-License-Identifier: MIT */
/*
 * What both object writers (elfwrite.c, dsowrite.c) share: a string table
 * under construction, alignment, the symbol size, and the check of the
 * extra notes a caller hands in.
 */
#ifndef SDT_STRTAB_H
#define SDT_STRTAB_H

#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elfobj.h"
#include "errmsg.h"

static inline uint64_t sdt_align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* A string table under construction; offset 0 is the empty string. */
struct sdt_strtab {
	char *buf;
	size_t len;
	size_t cap;
};

/* STR's offset in S, or 0 when memory is short. */
static inline size_t sdt_strtab_add(struct sdt_strtab *s, const char *str)
{
	size_t n = strlen(str) + 1;

	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 256;
		char *b;

		while (cap < s->len + n)
			cap *= 2;
		b = realloc(s->buf, cap);
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

static inline size_t sdt_sym_size(const struct sdt_target *t)
{
	return t->elf_class == ELFCLASS64 ? sizeof(Elf64_Sym)
					  : sizeof(Elf32_Sym);
}

/* Extra notes must be whole notes, each padded to 4 bytes. */
static inline int sdt_check_extra_notes(const void *notes, size_t size,
					char *err, size_t errlen)
{
	if (size && (!notes || size % 4))
		return sdt_errf(err, errlen, -EINVAL,
				"%s: %zu bytes are not whole padded notes",
				SDT_EXTRA_NOTE_SECTION, size);
	return 0;
}

#endif
