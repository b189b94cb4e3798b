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
 */
#include <stdarg.h>
#include <stdio.h>
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

static void report_at(struct dg_diag *d, const struct dg_loc *loc,
		      const char *kind, const char *fmt, va_list ap)
{
	if (!d->out)
		return;
	fprintf(d->out, "%s:%u:%u: %s: ", loc->file, loc->line, loc->col, kind);
	vfprintf(d->out, fmt, ap);
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
	if (!d->out)
		return;
	fprintf(d->out, "%s: %s: ", what ? what : d->prog, kind);
	vfprintf(d->out, fmt, ap);
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
