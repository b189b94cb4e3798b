/* SPDX-License-Identifier: MIT */
/*
 * The parser: tokens into the provider model.
 *
 *   file      := { provider | anything-else }
 *   provider  := "provider" NAME "{" { probe } "}" [";"]
 *   probe     := "probe" NAME "(" params ")" [":" "(" params ")"] ";"
 *   params    := "" | "void" | param { "," param }
 *   param     := any C declaration without an initializer: words, numbers,
 *                `*', `&', brackets and nested parentheses (function
 *                pointers), so `unsigned long long int', `const char *s',
 *                `int (*cb)(void *, int)' and `char buf[16]' all pass.
 *
 * Everything outside providers (typedefs, structs, translators, probe
 * clauses, inline D) is skipped with its brackets balanced, so a `provider'
 * word inside a translator body or a string is never taken for one.
 *
 * Each parameter is kept three ways: its text, tokens one space apart as
 * SystemTap's dtrace writes them, for the header's per-probe comment; and
 * split into the name it declares, if any, and its type with that name
 * left out, for the typed-probe records (docs/typed-probes.md). Splitting
 * follows C's own rule, so no table of typedefs is needed: in the
 * specifiers, an identifier that is not a keyword is a type (a typedef
 * name: `uintptr_t', `conn_t') until a type has been seen, and after that
 * it is the declared name (`unsigned x', `uintptr_t x'); inside the
 * declarator, the first identifier outside parameter lists and array
 * bounds is the name (`int (*cb)(void *, int)', `char buf[N]'). The type
 * text is what was written, with single spaces and `char *' spacing.
 *
 * The probe and provider names are checked here so that every later stage
 * can trust them: C identifiers, no probe declared twice, and no two
 * probes that would end up with the same macro or semaphore name.
 *
 * The first error stops the parse: after a missing `)' or `}' any further
 * message would be a guess.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace-gen.h"
#include "names.h"
#include "typerec.h"

struct parser {
	struct dg_lexer lx;
	struct dg_token tok;  /* the current token */
	struct dg_token prev; /* the one before, for `expected X after' */
	struct dg_model *m;
	struct dg_diag *diag;
	size_t cap;		 /* of m->probes */
	struct dg_strset probes; /* "provider:name" */
	struct dg_strset macros;
	struct dg_strset semas;
	struct dg_strset providers;
	struct dg_buf scratch;
	struct dg_buf type;    /* the type text being built */
	struct dg_token *decl; /* the current parameter's tokens */
	size_t ndecl, decl_cap;
	int warned_stray;
};

static int nomem(struct parser *p)
{
	dg_error(p->diag, NULL, "out of memory while parsing");
	return -ENOMEM;
}

static int advance(struct parser *p)
{
	p->prev = p->tok;
	dg_lex(&p->lx, &p->tok);
	return p->tok.kind == DG_TOK_ERROR ? -EINVAL : 0;
}

static int is_punct(const struct dg_token *t, const char *s)
{
	return t->kind == DG_TOK_PUNCT && t->len == strlen(s) &&
	       !memcmp(t->text, s, t->len);
}

static int is_word(const struct dg_token *t, const char *s)
{
	return t->kind == DG_TOK_IDENT && t->len == strlen(s) &&
	       !memcmp(t->text, s, t->len);
}

/* Where a missing token belongs: right after the previous one. */
static struct dg_loc after_prev(const struct parser *p)
{
	struct dg_loc loc = p->prev.loc;

	loc.col += (unsigned)p->prev.len;
	return loc;
}

static void describe(const struct dg_token *t, char *buf, size_t len)
{
	if (t->kind == DG_TOK_EOF)
		snprintf(buf, len, "end of input");
	else
		snprintf(buf, len, "`%.*s'", t->len > 40 ? 40 : (int)t->len,
			 t->text);
}

static int expected(struct parser *p, const char *what, const char *context)
{
	char found[64];

	describe(&p->tok, found, sizeof(found));
	dg_error_at(p->diag, &p->tok.loc, "expected %s %s, found %s", what,
		    context, found);
	return -EINVAL;
}

/*
 * The current token should be a NAME but is not a plain identifier, or is
 * glued to characters identifiers cannot hold (`foo-bar', `9lives'):
 * report the whole word.
 */
static int bad_name(struct parser *p, const char *kind)
{
	const struct dg_token *t = &p->tok;
	const char *start = t->text, *end = t->text + t->len;
	struct dg_lexer peek = p->lx;
	struct dg_token next;
	struct dg_diag quiet = { 0 };

	if (t->kind != DG_TOK_IDENT && t->kind != DG_TOK_NUMBER &&
	    !is_punct(t, "-") && !is_punct(t, "$") && !is_punct(t, "."))
		return expected(p, kind, "name");
	/* Look ahead on a copy of the lexer, silently. */
	peek.diag = &quiet;
	for (;;) {
		dg_lex(&peek, &next);
		if (next.space_before ||
		    (next.kind != DG_TOK_IDENT && next.kind != DG_TOK_NUMBER &&
		     !is_punct(&next, "-") && !is_punct(&next, "$") &&
		     !is_punct(&next, ".")))
			break;
		end = next.text + next.len;
	}
	/* DTrace reads `__' in a probe name as `-'; in a provider, nothing. */
	char hint[64] = "";
	if (memchr(start, '-', (size_t)(end - start)))
		snprintf(hint, sizeof(hint),
			 "; write %s where the %s name has `-'",
			 strcmp(kind, "probe") ? "`_'" : "`__'", kind);
	dg_error_at(p->diag, &t->loc,
		    "bad %s name `%.*s': names are C identifiers (letters, "
		    "digits and `_', not starting with a digit)%s",
		    kind, (int)(end - start), start, hint);
	return -EINVAL;
}

/* Is the current token an identifier with nothing glued after it? */
static int name_ok(struct parser *p)
{
	struct dg_lexer peek = p->lx;
	struct dg_token next;
	struct dg_diag quiet = { 0 };

	if (p->tok.kind != DG_TOK_IDENT)
		return 0;
	peek.diag = &quiet;
	dg_lex(&peek, &next);
	return next.space_before ||
	       !(is_punct(&next, "-") || is_punct(&next, "$") ||
		 is_punct(&next, "."));
}

static int push_decl(struct parser *p, const struct dg_token *t)
{
	if (p->ndecl == p->decl_cap) {
		size_t cap = p->decl_cap ? p->decl_cap * 2 : 16;
		struct dg_token *nd = realloc(p->decl, cap * sizeof(*nd));

		if (!nd)
			return -1;
		p->decl = nd;
		p->decl_cap = cap;
	}
	p->decl[p->ndecl++] = *t;
	return 0;
}

enum word_kind {
	WORD_OTHER,	/* a typedef name or the declared name */
	WORD_QUALIFIER, /* says nothing about which type */
	WORD_BASIC,	/* a basic type's keyword */
	WORD_TAG,	/* struct, union, enum: a tag name follows */
};

static enum word_kind word_kind(const struct dg_token *t)
{
	static const struct {
		const char *text;
		enum word_kind kind;
	} words[] = {
		{ "void", WORD_BASIC },
		{ "char", WORD_BASIC },
		{ "short", WORD_BASIC },
		{ "int", WORD_BASIC },
		{ "long", WORD_BASIC },
		{ "float", WORD_BASIC },
		{ "double", WORD_BASIC },
		{ "signed", WORD_BASIC },
		{ "unsigned", WORD_BASIC },
		{ "_Bool", WORD_BASIC },
		{ "bool", WORD_BASIC },
		{ "_Complex", WORD_BASIC },
		{ "__int128", WORD_BASIC },
		{ "__signed", WORD_BASIC },
		{ "__signed__", WORD_BASIC },
		{ "const", WORD_QUALIFIER },
		{ "volatile", WORD_QUALIFIER },
		{ "restrict", WORD_QUALIFIER },
		{ "__restrict", WORD_QUALIFIER },
		{ "__restrict__", WORD_QUALIFIER },
		{ "__const", WORD_QUALIFIER },
		{ "__volatile", WORD_QUALIFIER },
		{ "__volatile__", WORD_QUALIFIER },
		{ "_Atomic", WORD_QUALIFIER },
		{ "register", WORD_QUALIFIER },
		{ "userland", WORD_QUALIFIER },
		{ "struct", WORD_TAG },
		{ "union", WORD_TAG },
		{ "enum", WORD_TAG },
	};
	size_t i;

	if (t->kind != DG_TOK_IDENT)
		return WORD_OTHER;
	/* Most words differ in the first byte: test it before the rest. */
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (words[i].text[0] == t->text[0] &&
		    !strncmp(words[i].text, t->text, t->len) &&
		    !words[i].text[t->len])
			return words[i].kind;
	return WORD_OTHER;
}

/* Where the specifiers (`const struct conn', `unsigned long') end. */
static size_t specifiers_end(const struct dg_token *t, size_t n)
{
	size_t i = 0;
	int typed = 0;

	while (i < n && t[i].kind == DG_TOK_IDENT) {
		enum word_kind k = word_kind(&t[i]);

		if (k == WORD_OTHER && typed)
			break; /* the declared name */
		typed |= k != WORD_QUALIFIER;
		i++;
		if (k == WORD_TAG && i < n && t[i].kind == DG_TOK_IDENT)
			i++;
		while (k == WORD_OTHER && i + 1 < n && is_punct(&t[i], "::") &&
		       t[i + 1].kind == DG_TOK_IDENT)
			i += 2; /* C++ `ns::type' */
	}
	return i;
}

/* The index of the bracket that closes the one at T[I] (or N - 1). */
static size_t closing(const struct dg_token *t, size_t n, size_t i)
{
	unsigned depth = 0;

	for (; i < n; i++) {
		if (is_punct(&t[i], "(") || is_punct(&t[i], "["))
			depth++;
		else if ((is_punct(&t[i], ")") || is_punct(&t[i], "]")) &&
			 --depth == 0)
			return i;
	}
	return n - 1;
}

/*
 * The index of the name the parameter T[0..N) declares, or N when it
 * declares none. In the declarator, `(' followed by `*', `&' or `(' groups
 * (a pointer to function or array); any other `(' opens a parameter list.
 */
static size_t declared_name(const struct dg_token *t, size_t n)
{
	size_t i;

	for (i = specifiers_end(t, n); i < n; i++) {
		const struct dg_token *next = i + 1 < n ? &t[i + 1] : NULL;

		if (t[i].kind == DG_TOK_IDENT &&
		    word_kind(&t[i]) != WORD_QUALIFIER)
			return i;
		if (is_punct(&t[i], "[") ||
		    (is_punct(&t[i], "(") && next && !is_punct(next, "*") &&
		     !is_punct(next, "&") && !is_punct(next, "(")))
			i = closing(t, n, i);
	}
	return n;
}

/* No space between A and B: the records' spelling, kept in the core. */
static int glued(const struct dg_token *a, const struct dg_token *b)
{
	return sdt_type_glued(a->text, a->len, b->text, b->len);
}

/*
 * Split the current parameter (p->decl) into its type text and its name
 * ("" when it has none), both in the model's arena.
 */
static int split_param(struct parser *p, const char *probe, unsigned n,
		       const char **type, const char **name)
{
	const struct dg_token *t = p->decl, *last = NULL;
	size_t at = declared_name(t, p->ndecl), i;
	int typed = 0;

	p->type.len = 0;
	for (i = 0; i < p->ndecl; i++) {
		if (i == at)
			continue;
		if (last && !glued(last, &t[i]))
			dg_buf_add(&p->type, " ", 1);
		dg_buf_add(&p->type, t[i].text, t[i].len);
		typed |= t[i].kind == DG_TOK_IDENT;
		last = &t[i];
	}
	if (!typed) {
		dg_error_at(p->diag, &t[0].loc,
			    "parameter %u of probe `%s' has no type", n, probe);
		return -EINVAL;
	}
	*type = dg_arena_strndup(&p->m->arena, p->type.data, p->type.len);
	*name = at < p->ndecl
			? dg_arena_strndup(&p->m->arena, t[at].text, t[at].len)
			: "";
	return *type && *name && !p->type.failed ? 0 : nomem(p);
}

/* One parameter, checked: its text into p->scratch, its tokens p->decl. */
static int param(struct parser *p, const char *probe, unsigned n, int *closed)
{
	struct dg_loc start = p->tok.loc;
	unsigned depth = 0, ntok = 0, nident = 0;
	char found[64];

	p->scratch.len = 0;
	p->ndecl = 0;
	for (;;) {
		const struct dg_token *t = &p->tok;

		if (t->kind == DG_TOK_EOF || is_punct(t, ";") ||
		    is_punct(t, "{") || is_punct(t, "}")) {
			struct dg_loc loc = after_prev(p);

			dg_error_at(p->diag, &loc,
				    "missing `)' to close the parameter list "
				    "of probe `%s'",
				    probe);
			return -EINVAL;
		}
		if (depth == 0 && (is_punct(t, ",") || is_punct(t, ")")))
			break;
		if (t->kind == DG_TOK_PUNCT) {
			if (is_punct(t, "(") || is_punct(t, "[")) {
				depth++;
			} else if (is_punct(t, ")") || is_punct(t, "]")) {
				if (depth == 0)
					goto unexpected;
				depth--;
			} else if (is_punct(t, "...")) {
				dg_error_at(p->diag, &t->loc,
					    "probe `%s' is variadic: probes "
					    "take a fixed number of arguments",
					    probe);
				return -EINVAL;
			} else if (!is_punct(t, "*") && !is_punct(t, "&") &&
				   !is_punct(t, ",") && !is_punct(t, "::")) {
				goto unexpected;
			}
		} else if (t->kind == DG_TOK_IDENT) {
			nident++;
		} else if (t->kind != DG_TOK_NUMBER) {
			goto unexpected;
		}
		/* One space between tokens, `**' kept together: the text
		 * SystemTap's parser gives the comment. */
		if (ntok++ && !(is_punct(t, "*") && !t->space_before &&
				p->scratch.data[p->scratch.len - 1] == '*'))
			dg_buf_add(&p->scratch, " ", 1);
		dg_buf_add(&p->scratch, t->text, t->len);
		if (push_decl(p, t))
			return nomem(p);
		if (advance(p))
			return -EINVAL;
	}
	*closed = is_punct(&p->tok, ")");
	if (!ntok) {
		dg_error_at(p->diag, &p->tok.loc,
			    "parameter %u of probe `%s' is empty", n, probe);
		return -EINVAL;
	}
	if (!nident) {
		dg_error_at(p->diag, &start,
			    "parameter %u of probe `%s' has no type", n, probe);
		return -EINVAL;
	}
	return 0;
unexpected:
	describe(&p->tok, found, sizeof(found));
	dg_error_at(p->diag, &p->tok.loc,
		    "unexpected %s in parameter %u of probe `%s'", found, n,
		    probe);
	return -EINVAL;
}

/* A probe's parameters: as written, and split into types and names. */
struct arglist {
	const char *text[SDT_MAX_ARGS];
	const char *type[SDT_MAX_ARGS];
	const char *name[SDT_MAX_ARGS];
};

/*
 * `( params )' at the current token. Stores up to SDT_MAX_ARGS parameters
 * in ARGS when ARGS is not NULL (the translated list after `:' is checked
 * but not kept: the native types are the ones the macro passes).
 */
static int params(struct parser *p, const char *probe, struct arglist *args,
		  unsigned *nargs)
{
	unsigned n = 0;
	int closed = 0, err;

	if (!is_punct(&p->tok, "("))
		return expected(p, "`('", "after the probe name");
	if (advance(p))
		return -EINVAL;
	while (!closed && !(n == 0 && is_punct(&p->tok, ")"))) {
		if (args && n == SDT_MAX_ARGS) {
			dg_error_at(p->diag, &p->tok.loc,
				    "probe `%s' has more than %d arguments: "
				    "<sys/sdt.h> stops at DTRACE_PROBE%d",
				    probe, SDT_MAX_ARGS, SDT_MAX_ARGS);
			return -EINVAL;
		}
		err = param(p, probe, n + 1, &closed);
		if (err)
			return err;
		if (args) {
			args->text[n] = dg_arena_strndup(
				&p->m->arena, p->scratch.data, p->scratch.len);
			if (!args->text[n] || p->scratch.failed)
				return nomem(p);
			err = split_param(p, probe, n + 1, &args->type[n],
					  &args->name[n]);
			if (err)
				return err;
		}
		n++;
		if (advance(p)) /* past `,' or `)' */
			return -EINVAL;
	}
	if (!closed && advance(p)) /* past the `)' of an empty list */
		return -EINVAL;
	/* (void) declares no arguments, as in C. */
	if (n == 1 && args && !strcmp(args->text[0], "void"))
		n = 0;
	*nargs = n;
	return 0;
}

static char *macro_name(struct dg_arena *a, const char *prov, const char *name)
{
	size_t lp = strlen(prov), ln = strlen(name), i, o = 0;
	char *s = dg_arena_alloc(a, lp + ln + 2);

	if (!s)
		return NULL;
	for (i = 0; i < lp; i++)
		s[o++] = (prov[i] >= 'a' && prov[i] <= 'z') ? prov[i] - 32
							    : prov[i];
	s[o++] = '_';
	for (i = 0; i < ln; i++) {
		char c = name[i];

		/* `__' -> `_', left to right, as SystemTap's dtrace does. */
		if (c == '_' && name[i + 1] == '_')
			i++;
		s[o++] = (c >= 'a' && c <= 'z') ? c - 32 : c;
	}
	s[o] = '\0';
	return s;
}

static int clash(struct parser *p, struct dg_strset *set, const char *key,
		 const struct dg_probe *pr, const char *what)
{
	size_t old;
	int r = dg_strset_add(set, key, p->m->nprobes, &old);
	const struct dg_probe *o;

	if (r < 0)
		return nomem(p);
	if (r == 0)
		return 0;
	o = &p->m->probes[old];
	if (what)
		dg_error_at(p->diag, &pr->loc,
			    "probe `%s' of provider `%s' has the same %s `%s' "
			    "as probe `%s' of provider `%s'; rename one",
			    pr->name, pr->provider, what, key, o->name,
			    o->provider);
	else
		dg_error_at(p->diag, &pr->loc,
			    "probe `%s' is declared twice in provider `%s'",
			    pr->name, pr->provider);
	dg_note_at(p->diag, &o->loc, "`%s' was declared here", o->name);
	return -EINVAL;
}

/* A, then SEP, then B, then TAIL, NUL-terminated, into OUT (big enough). */
static void join(char *out, const char *a, size_t la, const char *sep,
		 const char *b, size_t lb, const char *tail)
{
	size_t ls = strlen(sep);

	memcpy(out, a, la);
	memcpy(out + la, sep, ls);
	memcpy(out + la + ls, b, lb);
	strcpy(out + la + ls + lb, tail);
}

/* PR's semaphore symbol in STYLE (names.h), from the model's arena. */
static const char *semaphore(struct dg_arena *a, const struct dg_probe *pr,
			     enum sdt_sema_style style)
{
	size_t n =
		sdt_semaphore_symbol(NULL, 0, pr->provider, pr->name, style) +
		1;
	char *s = dg_arena_alloc(a, n);

	if (s)
		sdt_semaphore_symbol(s, n, pr->provider, pr->name, style);
	return s;
}

static int add_probe(struct parser *p, struct dg_probe *pr)
{
	struct dg_arena *a = &p->m->arena;
	struct dg_model *m = p->m;
	char *key;
	size_t lp = strlen(pr->provider), ln = strlen(pr->name);
	int err;

	if (m->nprobes == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct dg_probe *np = realloc(m->probes, cap * sizeof(*np));

		if (!np)
			return nomem(p);
		m->probes = np;
		p->cap = cap;
	}
	key = dg_arena_alloc(a, lp + ln + 2);
	pr->macro = macro_name(a, pr->provider, pr->name);
	pr->semaphore = semaphore(a, pr, SDT_SEMA_PROVIDER_PROBE);
	pr->semaphore_v1 = semaphore(a, pr, SDT_SEMA_V1);
	if (!key || !pr->macro || !pr->semaphore || !pr->semaphore_v1)
		return nomem(p);
	join(key, pr->provider, lp, ":", pr->name, ln, "");
	err = clash(p, &p->probes, key, pr, NULL);
	if (!err)
		err = clash(p, &p->macros, pr->macro, pr, "macro name");
	if (!err)
		err = clash(p, &p->semas, pr->semaphore, pr, "semaphore");
	if (err)
		return err;
	m->probes[m->nprobes++] = *pr;
	return 0;
}

/* N pointers from FROM, into the arena (NULL when N is 0). */
static const char **arena_ptrs(struct parser *p, const char *const *from,
			       unsigned n)
{
	const char **to;

	if (!n)
		return NULL;
	to = dg_arena_alloc(&p->m->arena, n * sizeof(*to));
	if (to)
		memcpy(to, from, n * sizeof(*to));
	return to;
}

static int keep_args(struct parser *p, struct dg_probe *pr,
		     const struct arglist *args)
{
	/* `(void)' keeps its text for the comment, as the source says. */
	pr->nparams = pr->nargs ? pr->nargs : args->text[0] != NULL;
	pr->params = arena_ptrs(p, args->text, pr->nparams);
	pr->types = arena_ptrs(p, args->type, pr->nargs);
	pr->names = arena_ptrs(p, args->name, pr->nargs);
	if ((pr->nparams && !pr->params) || (pr->nargs && !pr->names) ||
	    (pr->nargs && !pr->types))
		return nomem(p);
	return 0;
}

/* `probe NAME ( params ) [: ( params )] ;', at `probe'. */
static int probe(struct parser *p, const char *provider)
{
	struct arglist args = { 0 };
	struct dg_probe pr = { 0 };
	unsigned ntrans;
	int err;

	if (advance(p))
		return -EINVAL;
	if (!name_ok(p))
		return bad_name(p, "probe");
	pr.provider = provider;
	pr.loc = p->tok.loc;
	pr.name = dg_arena_strndup(&p->m->arena, p->tok.text, p->tok.len);
	if (!pr.name)
		return nomem(p);
	if (advance(p))
		return -EINVAL;
	err = params(p, pr.name, &args, &pr.nargs);
	if (err)
		return err;
	if (is_punct(&p->tok, ":")) {
		if (advance(p))
			return -EINVAL;
		err = params(p, pr.name, NULL, &ntrans);
		if (err)
			return err;
	}
	if (!is_punct(&p->tok, ";")) {
		struct dg_loc loc = after_prev(p);

		/* SystemTap's dtrace takes the `;' as optional, and its own
		 * tests leave out the last one: allow that one, and only it. */
		if (!is_punct(&p->tok, "}")) {
			dg_error_at(p->diag, &loc,
				    "expected `;' after probe `%s'", pr.name);
			return -EINVAL;
		}
		dg_warning_at(p->diag, &loc,
			      "missing `;' after probe `%s' (accepted before "
			      "`}'); add it",
			      pr.name);
	}
	err = keep_args(p, &pr, &args);
	if (!err)
		err = add_probe(p, &pr);
	if (err)
		return err;
	return is_punct(&p->tok, ";") ? advance(p) : 0;
}

/* `provider NAME { probes } [;]', at NAME. */
static int provider(struct parser *p)
{
	struct dg_loc open;
	const char *name;
	size_t old;
	int r;

	if (!name_ok(p))
		return bad_name(p, "provider");
	name = dg_arena_strndup(&p->m->arena, p->tok.text, p->tok.len);
	if (!name)
		return nomem(p);
	r = dg_strset_add(&p->providers, name, 0, &old);
	if (r < 0)
		return nomem(p);
	if (r == 0)
		p->m->nproviders++;
	if (advance(p))
		return -EINVAL;
	if (!is_punct(&p->tok, "{"))
		return expected(p, "`{'", "after the provider name");
	open = p->tok.loc;
	if (advance(p))
		return -EINVAL;
	while (!is_punct(&p->tok, "}")) {
		if (is_word(&p->tok, "probe")) {
			r = probe(p, name);
			if (r)
				return r;
		} else if (p->tok.kind == DG_TOK_EOF ||
			   is_word(&p->tok, "provider")) {
			struct dg_loc loc = after_prev(p);

			dg_error_at(p->diag, &loc,
				    "missing `}' to close provider `%s'", name);
			dg_note_at(p->diag, &open, "provider `%s' opens here",
				   name);
			return -EINVAL;
		} else {
			char ctx[128];

			snprintf(ctx, sizeof(ctx), "in provider `%s'", name);
			return expected(p, "`probe' or `}'", ctx);
		}
	}
	if (advance(p))
		return -EINVAL;
	if (is_punct(&p->tok, ";") && advance(p))
		return -EINVAL;
	return 0;
}

static int closer_matches(char open, const struct dg_token *t)
{
	return (open == '{' && is_punct(t, "}")) ||
	       (open == '(' && is_punct(t, ")")) ||
	       (open == '[' && is_punct(t, "]"));
}

/*
 * Anything outside providers, up to the next `provider NAME' at the top
 * level: brackets must balance, nothing else is checked.
 */
static int file(struct parser *p)
{
	struct dg_token open = { 0 };
	char *stack = NULL;
	size_t depth = 0, cap = 0;
	int err = 0;

	if (advance(p))
		return -EINVAL;
	while (p->tok.kind != DG_TOK_EOF) {
		const struct dg_token *t = &p->tok;

		if (depth == 0 && is_word(t, "provider")) {
			if (advance(p))
				goto fail;
			if (p->tok.kind == DG_TOK_IDENT ||
			    p->tok.kind == DG_TOK_NUMBER ||
			    is_punct(&p->tok, "{")) {
				err = provider(p);
				if (err)
					goto out;
			}
			continue;
		}
		if (is_word(t, "probe") && !p->warned_stray &&
		    (is_punct(&p->prev, "{") || is_punct(&p->prev, ";") ||
		     is_punct(&p->prev, "}") || p->prev.kind == DG_TOK_EOF)) {
			p->warned_stray = 1;
			dg_warning_at(p->diag, &t->loc,
				      "`probe' outside any provider is "
				      "ignored");
		}
		if (is_punct(t, "{") || is_punct(t, "(") || is_punct(t, "[")) {
			if (depth == cap) {
				char *ns;

				cap = cap ? cap * 2 : 16;
				ns = realloc(stack, cap);
				if (!ns) {
					err = nomem(p);
					goto out;
				}
				stack = ns;
			}
			if (depth == 0)
				open = *t;
			stack[depth++] = *t->text;
		} else if (is_punct(t, "}") || is_punct(t, ")") ||
			   is_punct(t, "]")) {
			if (depth == 0 ||
			    !closer_matches(stack[depth - 1], t)) {
				dg_error_at(p->diag, &t->loc, "unmatched `%c'",
					    *t->text);
				goto fail;
			}
			depth--;
		}
		if (advance(p))
			goto fail;
	}
	if (depth) {
		dg_error_at(p->diag, &open.loc, "`%c' is never closed",
			    *open.text);
		goto fail;
	}
	goto out;
fail:
	err = -EINVAL;
out:
	free(stack);
	return err;
}

int dg_parse(struct dg_model *m, const char *file_name, const char *text,
	     size_t len, int cpp_done, struct dg_diag *diag)
{
	struct parser p;
	int err;

	memset(m, 0, sizeof(*m));
	memset(&p, 0, sizeof(p));
	p.m = m;
	p.diag = diag;
	dg_lexer_init(&p.lx, file_name, text, len, cpp_done, &m->arena, diag);
	err = file(&p);
	/* A file with no provider (QEMU generates ten) is valid and gives
	 * outputs without probes, silently, as with SystemTap's dtrace. */
	if (!err && m->arena.failed)
		err = nomem(&p);
	dg_strset_free(&p.probes);
	dg_strset_free(&p.macros);
	dg_strset_free(&p.semas);
	dg_strset_free(&p.providers);
	dg_buf_free(&p.scratch);
	dg_buf_free(&p.type);
	free(p.decl);
	return err;
}

void dg_model_free(struct dg_model *m)
{
	free(m->probes);
	dg_arena_free(&m->arena);
	memset(m, 0, sizeof(*m));
}
