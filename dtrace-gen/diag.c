/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics in the form compilers use, so editors and build logs can
 * jump to them:
 *
 *   probes.d:12:20: error: expected `;' after probe `start'
 *   	probe start(int x)
 *   	                  ^
 *
 * FILE and LINE are the ones line markers name (cpp output, #line), so an
 * error in preprocessed input points into the file the user wrote. The
 * quoted line is the text we actually read; when the two differ (after
 * -C) the caret still points at the right token of what we parsed.
 *
 * Whatever came from the input or the command line (a token, a name, a
 * path) may hold bytes a terminal acts on. The quoted line shows each
 * control byte as `?', keeping the caret's column; the message and the
 * file name show them as \xNN (and a backslash as \\), so `found
 * "\x1b[31mred"' names the byte instead of turning the terminal red.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace-gen.h"

/* The offending line, then a caret under column COL (tabs kept). */
static void show_line(FILE *out, const struct dg_loc *loc)
{
	const char *p = loc->line_start, *end = loc->text_end;
	const char *eol;
	unsigned i;

	if (!p || p > end)
		return;
	eol = memchr(p, '\n', (size_t)(end - p));
	if (!eol)
		eol = end;
	for (const char *q = p; q < eol; q++) {
		unsigned char c = (unsigned char)*q;

		/* Control bytes would garble a terminal: show them as `?'. */
		fputc(c == '\t' || (c >= 0x20 && c != 0x7f) ? c : '?', out);
	}
	fputc('\n', out);
	for (i = 1; i < loc->col && p + i - 1 < eol; i++)
		fputc(p[i - 1] == '\t' ? '\t' : ' ', out);
	fputs("^\n", out);
}

/* Length of the valid UTF-8 sequence at S (of N bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n, unsigned *cp)
{
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;

	if (s[0] < 0xc2 || s[0] > 0xf4 || len > n)
		return 0;
	*cp = s[0] & (0x7fu >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (*cp < 0x800 || (*cp >= 0xd800 && *cp <= 0xdfff))) ||
	    (len == 4 && (*cp < 0x10000 || *cp > 0x10ffff)))
		return 0;
	return len;
}

/*
 * Characters a terminal acts on, or that hide or reorder what follows: C1
 * controls and the bidirectional and zero-width format characters.
 */
static int acts_on_terminal(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
}

/* S (N bytes) with what a terminal would act on as \xNN. */
static void put_safe(FILE *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		size_t len = 1;
		unsigned cp = *p;
		int bad;

		if (cp >= 0x80)
			len = utf8_len(p, (size_t)(end - p), &cp);
		bad = !len || cp < 0x20 || cp == 0x7f || acts_on_terminal(cp);
		if (!len)
			len = 1;
		if (*p == '\\') {
			fputs("\\\\", out);
		} else if (bad) {
			for (size_t i = 0; i < len; i++)
				fprintf(out, "\\x%02x", p[i]);
		} else {
			fwrite(p, 1, len, out);
		}
		p += len;
	}
}

void dg_put_safe(FILE *out, const char *s)
{
	put_safe(out, s, strlen(s));
}

/* The message FMT, AP made, shown safely; unformattable: as it stands. */
static void put_message(FILE *out, const char *fmt, va_list ap)
{
	va_list again;
	char small[256], *buf = small;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (buf)
			vsnprintf(buf, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	if (n < 0 || !buf)
		put_safe(out, fmt, strlen(fmt));
	else
		put_safe(out, buf, (size_t)n);
	if (buf != small)
		free(buf);
}

static void report_at(struct dg_diag *d, const struct dg_loc *loc,
		      const char *kind, const char *fmt, va_list ap)
{
	if (!d->out)
		return;
	put_safe(d->out, loc->file, strlen(loc->file));
	fprintf(d->out, ":%u:%u: %s: ", loc->line, loc->col, kind);
	put_message(d->out, fmt, ap);
	fputc('\n', d->out);
	show_line(d->out, loc);
}

void dg_error_at(struct dg_diag *d, const struct dg_loc *loc, const char *fmt,
		 ...)
{
	va_list ap;

	d->errors++;
	va_start(ap, fmt);
	report_at(d, loc, "error", fmt, ap);
	va_end(ap);
}

void dg_warning_at(struct dg_diag *d, const struct dg_loc *loc, const char *fmt,
		   ...)
{
	va_list ap;

	d->warnings++;
	va_start(ap, fmt);
	report_at(d, loc, "warning", fmt, ap);
	va_end(ap);
}

void dg_note_at(struct dg_diag *d, const struct dg_loc *loc, const char *fmt,
		...)
{
	va_list ap;

	va_start(ap, fmt);
	report_at(d, loc, "note", fmt, ap);
	va_end(ap);
}

static void report(struct dg_diag *d, const char *what, const char *kind,
		   const char *fmt, va_list ap)
{
	if (!what)
		what = d->prog;
	if (!d->out)
		return;
	put_safe(d->out, what, strlen(what));
	fprintf(d->out, ": %s: ", kind);
	put_message(d->out, fmt, ap);
	fputc('\n', d->out);
}

void dg_error(struct dg_diag *d, const char *what, const char *fmt, ...)
{
	va_list ap;

	d->errors++;
	va_start(ap, fmt);
	report(d, what, "error", fmt, ap);
	va_end(ap);
}

void dg_warning(struct dg_diag *d, const char *what, const char *fmt, ...)
{
	va_list ap;

	d->warnings++;
	va_start(ap, fmt);
	report(d, what, "warning", fmt, ap);
	va_end(ap);
}

void dg_note(struct dg_diag *d, const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(d, what, "note", fmt, ap);
	va_end(ap);
}
