/* SPDX-License-Identifier: MIT */
/*
 * The lexer: the bytes of a .d file (or of cpp's output) into tokens.
 *
 * Provider files are C-like, but the lines around providers can be any D
 * (translators, probe clauses with predicates, aggregations, strings), so
 * the lexer knows every character D uses and leaves it to the parser to
 * decide what belongs where. What it handles itself:
 *
 *  - comments, both kinds, which count as blanks;
 *  - lines starting with `#': line markers (`# 12 "file"', `#line 12')
 *    move the location errors are reported at, pragmas and other
 *    directives are skipped, and `#if' & co, which only -C evaluates, get
 *    one warning when seen without it;
 *  - string and character literals, so a `provider' or a `}' inside one
 *    cannot confuse the parser.
 *
 * Nothing is copied: tokens point into the text.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace-gen.h"

void dg_lexer_init(struct dg_lexer *lx, const char *file, const char *text,
		   size_t len, int cpp_done, struct dg_arena *arena,
		   struct dg_diag *diag)
{
	memset(lx, 0, sizeof(*lx));
	/* Editors on some systems start UTF-8 files with a byte order
	 * mark; SystemTap's dtrace skips it, so do we. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		text += 3;
		len -= 3;
	}
	lx->text = text;
	lx->end = text + len;
	lx->pos = text;
	lx->line_start = text;
	lx->file = file;
	lx->line = 1;
	lx->at_line_start = 1;
	lx->cpp_done = cpp_done;
	lx->arena = arena;
	lx->diag = diag;
}

static void loc_here(const struct dg_lexer *lx, const char *p,
		     struct dg_loc *loc)
{
	loc->file = lx->file;
	loc->line = lx->line;
	loc->col = (unsigned)(p - lx->line_start) + 1;
	loc->line_start = lx->line_start;
	loc->text_end = lx->end;
}

static int is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident_char(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Consume the newline at lx->pos. */
static void newline(struct dg_lexer *lx)
{
	lx->pos++;
	if (lx->line < UINT_MAX)
		lx->line++;
	lx->line_start = lx->pos;
	lx->at_line_start = 1;
}

/* Position of the end of the directive line at P, past `\'-newlines. */
static const char *directive_end(struct dg_lexer *lx, const char *p)
{
	while (p < lx->end && *p != '\n') {
		if (*p == '\\' && p + 1 < lx->end && p[1] == '\n') {
			/* A continued line still counts for locations. */
			lx->pos = p + 1;
			newline(lx);
			p = lx->pos;
			continue;
		}
		p++;
	}
	return p;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && is_blank((unsigned char)*p))
		p++;
	return p;
}

/* The unescaped file name of a line marker, kept in the arena. */
static const char *marker_file(struct dg_lexer *lx, const char *p,
			       const char *eol)
{
	struct dg_buf name = { 0 };
	const char *r = NULL;

	for (p++; p < eol && *p != '"'; p++) {
		if (*p == '\\' && p + 1 < eol)
			p++;
		dg_buf_add(&name, p, 1);
	}
	if (p < eol && !name.failed)
		r = dg_arena_strndup(lx->arena, name.data ? name.data : "",
				     name.len);
	dg_buf_free(&name);
	return r;
}

/*
 * `# 12 "file" 1 3' or `#line 12 "file"': the line after this one is line
 * 12 of file. Malformed markers are ignored, as cpp's own output is the
 * only producer we need to trust.
 */
static void line_marker(struct dg_lexer *lx, const char *p, const char *eol)
{
	unsigned long n = 0;
	const char *file = NULL;

	if (p >= eol || *p < '0' || *p > '9')
		return;
	while (p < eol && *p >= '0' && *p <= '9') {
		n = n * 10 + (unsigned long)(*p - '0');
		if (n > UINT_MAX)
			return;
		p++;
	}
	p = skip_blanks(p, eol);
	if (p < eol && *p == '"') {
		file = marker_file(lx, p, eol);
		if (!file)
			return;
	}
	/* The newline that ends the marker will count one more. */
	lx->line = n ? (unsigned)n - 1 : 0;
	if (file)
		lx->file = file;
}

static int word_is(const char *p, const char *end, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(end - p) >= n && !memcmp(p, w, n) &&
	       (p + n == end || !is_ident_char((unsigned char)p[n]));
}

/* A `#' line: P points at the `#'. Leaves lx->pos at its newline. */
static void directive(struct dg_lexer *lx, const char *p)
{
	static const char *const conds[] = { "if",	"ifdef",   "ifndef",
					     "elif",	"else",	   "endif",
					     "elifdef", "elifndef" };
	const char *hash = p, *eol;
	struct dg_loc loc;
	size_t i;

	loc_here(lx, hash, &loc);
	p = skip_blanks(p + 1, lx->end);
	if (p < lx->end && *p >= '0' && *p <= '9') {
		eol = directive_end(lx, p);
		line_marker(lx, p, eol);
	} else if (word_is(p, lx->end, "line")) {
		eol = directive_end(lx, p);
		line_marker(lx, skip_blanks(p + 4, eol), eol);
	} else {
		for (i = 0; i < sizeof(conds) / sizeof(conds[0]); i++)
			if (word_is(p, lx->end, conds[i]))
				break;
		if (i < sizeof(conds) / sizeof(conds[0]) && !lx->cpp_done &&
		    !lx->warned_cond) {
			lx->warned_cond = 1;
			dg_warning_at(
				lx->diag, &loc,
				"`#%s' is not evaluated without -C: every "
				"line it guards is read; pass -C to "
				"preprocess",
				conds[i]);
		}
		eol = directive_end(lx, p);
	}
	lx->pos = eol;
}

/* Skip a block comment at lx->pos; 0, or -1 when it never ends. */
static int block_comment(struct dg_lexer *lx)
{
	struct dg_loc loc;

	loc_here(lx, lx->pos, &loc);
	lx->pos += 2;
	while (lx->pos < lx->end) {
		if (*lx->pos == '*' && lx->pos + 1 < lx->end &&
		    lx->pos[1] == '/') {
			lx->pos += 2;
			return 0;
		}
		if (*lx->pos == '\n') {
			newline(lx);
			/* A `#' after a comment is not at a line start. */
			lx->at_line_start = 0;
		} else {
			lx->pos++;
		}
	}
	dg_error_at(lx->diag, &loc, "unterminated comment: `/*' has no `*/'");
	return -1;
}

/* Blanks, newlines, comments and `#' lines; 1 if any, -1 on error. */
static int skip_space(struct dg_lexer *lx)
{
	int skipped = 0;

	while (lx->pos < lx->end) {
		unsigned char c = (unsigned char)*lx->pos;

		if (c == '\n') {
			newline(lx);
		} else if (is_blank(c)) {
			lx->pos++;
		} else if (c == '#' && lx->at_line_start) {
			directive(lx, lx->pos);
		} else if (c == '/' && lx->pos + 1 < lx->end &&
			   lx->pos[1] == '*') {
			if (block_comment(lx))
				return -1;
		} else if (c == '/' && lx->pos + 1 < lx->end &&
			   lx->pos[1] == '/') {
			while (lx->pos < lx->end && *lx->pos != '\n')
				lx->pos++;
		} else {
			break;
		}
		skipped = 1;
	}
	return skipped;
}

/* A "string" or 'c' literal, which must end on its line. */
static int quoted(struct dg_lexer *lx, struct dg_token *tok)
{
	char q = *lx->pos;
	const char *p = lx->pos + 1;

	while (p < lx->end && *p != q && *p != '\n') {
		if (*p == '\\' && p + 1 < lx->end && p[1] != '\n')
			p++;
		p++;
	}
	if (p >= lx->end || *p != q) {
		dg_error_at(lx->diag, &tok->loc,
			    "missing terminating %c character", q);
		return -1;
	}
	lx->pos = p + 1;
	return 0;
}

static const char punct1[] = "{}()[];,:*&.<>=!+-/%^|~?@$`#";

void dg_lex(struct dg_lexer *lx, struct dg_token *tok)
{
	int sp = skip_space(lx);
	unsigned char c;
	const char *start = lx->pos;

	memset(tok, 0, sizeof(*tok));
	tok->space_before = sp != 0;
	loc_here(lx, start, &tok->loc);
	tok->text = start;
	if (sp < 0) {
		tok->kind = DG_TOK_ERROR;
		return;
	}
	if (start >= lx->end) {
		tok->kind = DG_TOK_EOF;
		return;
	}
	lx->at_line_start = 0;
	c = (unsigned char)*start;
	if (is_ident_start(c)) {
		while (lx->pos < lx->end &&
		       is_ident_char((unsigned char)*lx->pos))
			lx->pos++;
		tok->kind = DG_TOK_IDENT;
	} else if (c >= '0' && c <= '9') {
		while (lx->pos < lx->end &&
		       (is_ident_char((unsigned char)*lx->pos) ||
			*lx->pos == '.'))
			lx->pos++;
		tok->kind = DG_TOK_NUMBER;
	} else if (c == '"' || c == '\'') {
		tok->kind = quoted(lx, tok) ? DG_TOK_ERROR : DG_TOK_STRING;
	} else if (c == '.' && lx->end - start >= 3 && start[1] == '.' &&
		   start[2] == '.') {
		lx->pos += 3;
		tok->kind = DG_TOK_PUNCT;
	} else if ((c == ':' || c == '-') && lx->end - start >= 2 &&
		   start[1] == (c == ':' ? ':' : '>')) {
		lx->pos += 2;
		tok->kind = DG_TOK_PUNCT;
	} else if (c && strchr(punct1, c)) {
		lx->pos++;
		tok->kind = DG_TOK_PUNCT;
	} else {
		if (c >= 0x21 && c < 0x7f)
			dg_error_at(lx->diag, &tok->loc,
				    "unknown character `%c' in input", c);
		else
			dg_error_at(lx->diag, &tok->loc,
				    "unknown byte 0x%02x in input: .d files "
				    "are ASCII outside comments and strings",
				    c);
		tok->kind = DG_TOK_ERROR;
	}
	tok->len = (size_t)(lx->pos - start);
}
