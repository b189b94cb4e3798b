/* SPDX-License-Identifier: MIT */
/*
 * Showing names we did not choose. Provider, probe and type names come
 * from the file, and libstapsdt lets a program name probes with any bytes:
 * a listing must neither let them drive the terminal (C0 and C1 controls,
 * which UTF-8 terminals act on too) nor let them disguise what follows
 * (bidirectional and zero-width characters), and JSON must stay valid
 * UTF-8 whatever the bytes were.
 */
#include <stdio.h>

#include "sdt-list.h"

/* Length of a valid UTF-8 sequence at S, or 0. */
static int utf8_len(const unsigned char *s)
{
	int n, i;
	unsigned cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	cp = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/* The code point of the valid N-byte UTF-8 sequence at S. */
static unsigned utf8_cp(const unsigned char *s, int n)
{
	unsigned cp = n == 1 ? s[0] : s[0] & (0x7fu >> n);

	for (int i = 1; i < n; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

/*
 * Characters a terminal acts on or that reorder what is shown: C0 and C1
 * controls, DEL, and the bidirectional and zero-width format characters
 * (a name must not be able to hide or disguise what follows it).
 */
static int is_control(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
	       (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
}

/*
 * Text: controls, invalid UTF-8 and backslashes are shown as \xNN (\\),
 * byte by byte, so the output is unambiguous and safe on a terminal.
 */
void put_text(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t plain = 0;
		int n;

		/* Most names are plain ASCII: write runs of it at once. */
		while (p[plain] >= 0x20 && p[plain] < 0x7f && p[plain] != '\\')
			plain++;
		fwrite(p, 1, plain, out);
		p += plain;
		if (!*p)
			break;
		n = *p < 0x80 ? 1 : utf8_len(p);
		if (*p == '\\') {
			fputs("\\\\", out);
			p++;
		} else if (n == 0) {
			fprintf(out, "\\x%02x", *p++);
		} else if (is_control(utf8_cp(p, n))) {
			for (int i = 0; i < n; i++)
				fprintf(out, "\\x%02x", *p++);
		} else {
			fwrite(p, 1, (size_t)n, out);
			p += n;
		}
	}
}

/*
 * JSON string: escaped (controls, C1 and format characters as \uNNNN),
 * and always valid UTF-8 (bad bytes become U+FFFD).
 */
void put_json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		int n = *p < 0x80 ? 1 : utf8_len(p);

		if (*p == '"' || *p == '\\') {
			fputc('\\', out);
			fputc(*p++, out);
		} else if (n == 0) {
			fputs("\\ufffd", out);
			p++;
		} else if (is_control(utf8_cp(p, n))) {
			fprintf(out, "\\u%04x", utf8_cp(p, n));
			p += n;
		} else {
			fwrite(p, 1, (size_t)n, out);
			p += n;
		}
	}
	fputc('"', out);
}

int is_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = *p < 0x80 ? 1 : utf8_len(p);

		if (!n)
			return 0;
		p += n;
	}
	return 1;
}

int is_shown_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = *p < 0x80 ? 1 : utf8_len(p);

		if (!n || is_control(utf8_cp(p, n)))
			return 0;
		p += n;
	}
	return 1;
}

/*
 * JSON strings are Unicode: a byte that is no UTF-8 becomes U+FFFD there,
 * and two paths that differ only in such bytes would read alike. The
 * bytes themselves go beside it, percent-encoded: printable ASCII but `%'
 * as it is, every other byte as %XX (upper-case hex). Decoding %XX back
 * gives the path exactly.
 */
void put_json_path(FILE *out, const char *key, const char *s)
{
	fprintf(out, ",\"%s\":", key);
	put_json_str(out, s);
	put_json_exact(out, key, s);
}

void put_json_exact(FILE *out, const char *key, const char *s)
{
	if (is_utf8(s))
		return;
	fprintf(out, ",\"%s_bytes\":", key);
	put_json_bytes(out, s);
}

void put_json_bytes(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p >= 0x20 && *p < 0x7f && *p != '%')
			fputc(*p, out);
		else
			fprintf(out, "%%%02X", *p);
	}
	fputc('"', out);
}

int arg_name_is_identifier(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
	      *s == '_'))
		return 0;
	for (s++; *s; s++) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	}
	return 1;
}
