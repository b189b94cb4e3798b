/* SPDX-License-Identifier: MIT */
/*
 * Typed-probe records (typerec.h). Only the note header has a byte order;
 * the descriptor is strings, so one layout serves every target. The type
 * text's spacing rule lives here too, for both writers.
 */
#include <string.h>

#include "typerec.h"

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

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
	return sdt_note_head_size(SDT_TYPES_OWNER) + align4(desc_size(r));
}

size_t sdt_typerec_encode(const struct sdt_target *t,
			  const struct sdt_typerec *r, unsigned char *buf)
{
	size_t dsz = desc_size(r), total = sdt_typerec_size(r);
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

/* ------------------------------------------------------------------ */
/* The type text                                                       */

static int token_is(const char *t, size_t n, const char *s)
{
	return n == strlen(s) && memcmp(t, s, n) == 0;
}

int sdt_type_glued(const char *a, size_t alen, const char *b, size_t blen)
{
	if (token_is(a, alen, "(") || token_is(a, alen, "[") ||
	    token_is(a, alen, "*") || token_is(a, alen, "&") ||
	    token_is(a, alen, "::"))
		return 1;
	if (token_is(b, blen, ")") || token_is(b, blen, "]") ||
	    token_is(b, blen, ",") || token_is(b, blen, "::"))
		return 1;
	return (token_is(b, blen, "(") || token_is(b, blen, "[")) &&
	       (token_is(a, alen, ")") || token_is(a, alen, "]"));
}

/* ASCII only: a locale must not make a byte a letter. */
static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Length of the token at S (not a blank), or 0 when none starts there. */
static size_t type_token(const char *s)
{
	size_t n = 0;

	while (word_char(s[n]))
		n++;
	if (n)
		return n;
	if (s[0] == ':')
		return s[1] == ':' ? 2 : 0;
	return s[0] && strchr("*&()[],", s[0]) ? 1 : 0;
}

#define TYPE_NESTING_MAX 16

/* Open brackets of the text so far, innermost last. */
struct brackets {
	char open[TYPE_NESTING_MAX];
	unsigned depth;
};

/* Track the token at S; -1 with *WHY when it breaks the pairing. */
static int track_bracket(struct brackets *b, const char *s, const char **why)
{
	if (*s == '(' || *s == '[') {
		if (b->depth == TYPE_NESTING_MAX) {
			*why = "nests brackets too deeply";
			return -1;
		}
		b->open[b->depth++] = *s;
	} else if (*s == ')' || *s == ']') {
		if (!b->depth ||
		    b->open[--b->depth] != (*s == ')' ? '(' : '[')) {
			*why = "has unpaired brackets";
			return -1;
		}
	}
	return 0;
}

int sdt_type_normalize(const char *text, char *out, size_t size,
		       const char **why)
{
	struct brackets b = { .depth = 0 };
	const char *last = NULL;
	size_t last_len = 0, len = 0;
	int named = 0;

	for (const char *s = text; *s; s += last_len) {
		size_t n;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		n = type_token(s);
		*why = "contains a character that no C type has";
		if (!n || track_bracket(&b, s, why) < 0)
			return -1;
		named |= word_char(*s) && !(*s >= '0' && *s <= '9');
		if (len + n + 2 > size) {
			*why = "is too long";
			return -1;
		}
		if (last && !sdt_type_glued(last, last_len, s, n))
			out[len++] = ' ';
		memcpy(out + len, s, n);
		len += n;
		last = s;
		last_len = n;
	}
	*why = b.depth	? "has unpaired brackets"
	       : !named ? "names no type"
			: NULL;
	if (*why)
		return -1;
	out[len] = '\0';
	return (int)len;
}
