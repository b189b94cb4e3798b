/* SPDX-License-Identifier: MIT */
/*
 * The type text of typed-probe records (typerec.h): one spelling for both
 * writers. dtrace-gen spaces the tokens of a .d declaration with
 * sdt_type_glued(); libstapsdt gets a type as text from its caller and
 * respells it with sdt_type_normalize(), which splits it into the same
 * tokens and spaces them by the same rule, so `char*' from a program and
 * `char *' from a .d file make one record. Kept apart from the encoder so
 * that what only spells types (the parser, the library's checks) needs no
 * note code.
 */
#include <string.h>

#include "typerec.h"

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
