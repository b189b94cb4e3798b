/* SPDX-License-Identifier: MIT */
/*
 * Typed-probe records (typerec.h). Only the note header has a byte order;
 * the descriptor is strings, so one layout serves every target.
 */
#include <string.h>

#include "typerec.h"

static const char *arg_name(const struct sdt_typerec *r, unsigned i)
{
	return r->names && r->names[i] ? r->names[i] : "";
}

/*
 * The count as the descriptor spells it: decimal, no sign or padding, into
 * BUF (at least 11 bytes). Returns its length.
 */
static size_t count_text(unsigned n, char *buf)
{
	char rev[10];
	size_t len = 0, i;

	do {
		rev[len++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	for (i = 0; i < len; i++)
		buf[i] = rev[len - 1 - i];
	buf[len] = '\0';
	return len;
}

static size_t desc_size(const struct sdt_typerec *r)
{
	char count[16];
	size_t size = strlen(r->provider) + 1 + strlen(r->name) + 1 +
		      count_text(r->nargs, count) + 1;

	for (unsigned i = 0; i < r->nargs; i++)
		size += strlen(r->types[i]) + 1 + strlen(arg_name(r, i)) + 1;
	return size;
}

size_t sdt_typerec_size(const struct sdt_typerec *r)
{
	return sdt_note_head_size(SDT_TYPES_OWNER) +
	       sdt_note_align4(desc_size(r));
}

size_t sdt_typerec_encode(const struct sdt_target *t,
			  const struct sdt_typerec *r, unsigned char *buf)
{
	size_t dsz = desc_size(r);
	size_t total =
		sdt_note_head_size(SDT_TYPES_OWNER) + sdt_note_align4(dsz);
	unsigned char *p = buf;
	char count[16];

	p += sdt_note_head_encode(t, SDT_TYPES_OWNER, dsz, SDT_TYPES_NT, p);
	count_text(r->nargs, count);
	p = sdt_note_put_str(p, r->provider);
	p = sdt_note_put_str(p, r->name);
	p = sdt_note_put_str(p, count);
	for (unsigned i = 0; i < r->nargs; i++) {
		p = sdt_note_put_str(p, r->types[i]);
		p = sdt_note_put_str(p, arg_name(r, i));
	}
	memset(p, 0, (size_t)(buf + total - p));
	return total;
}
