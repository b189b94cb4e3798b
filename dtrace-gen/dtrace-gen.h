/* SPDX-License-Identifier: MIT */
/*
 * dtrace-gen's internal interface: the stages of the generator and the
 * provider model that connects them.
 *
 *   main.c    command line: what to read, what to write, which flags
 *   cpp.c     -C: run $CPP over the input, read its output into memory
 *   lexer.c   bytes -> tokens; comments, `#' lines and line markers
 *   parser.c  tokens -> provider model (struct dg_model), checked
 *   header.c  model -> -h header text
 *   object.c  model -> -G object, through the ELF core
 *   output.c  write a file atomically and safely (temp beside, rename)
 *   diag.c    errors and warnings as FILE:LINE:COL with line and caret
 *   buf.c     growable byte buffer and the arena the model lives in
 *
 * The lexer, parser and header writer touch no files and no global state,
 * so the fuzzer links them alone.
 */
#ifndef DTRACE_GEN_H
#define DTRACE_GEN_H

#include <stdarg.h>
#include <sys/types.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "elfobj.h"
#include "target.h" /* SDT_MAX_ARGS: DTRACE_PROBE12 is <sys/sdt.h>'s last */

/* ---- buf.c -------------------------------------------------------------- */

struct dg_buf {
	char *data;
	size_t len, cap;
	int failed; /* an allocation failed: the contents are incomplete */
};

int dg_buf_grow(struct dg_buf *b, size_t extra);

/* Room for EXTRA more bytes and a NUL; 0, or -1 once an allocation failed. */
static inline int dg_buf_reserve(struct dg_buf *b, size_t extra)
{
	if (__builtin_expect(!b->failed && extra < b->cap - b->len, 1))
		return 0;
	return dg_buf_grow(b, extra);
}

/* Keeps the contents NUL-terminated, so they can be used as a string. */
static inline void dg_buf_add(struct dg_buf *b, const char *s, size_t n)
{
	if (dg_buf_reserve(b, n))
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}
void dg_buf_puts(struct dg_buf *b, const char *s);
void dg_buf_cat(struct dg_buf *b, ...) __attribute__((sentinel));
void dg_buf_uint(struct dg_buf *b, unsigned v);
void dg_buf_printf(struct dg_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dg_buf_free(struct dg_buf *b);

/*
 * Everything the model points to is carved from one arena and freed at
 * once: the parser never has to unwind half-built probes on an error.
 */
struct dg_arena {
	struct dg_arena_block *head;
	int failed;
};

void *dg_arena_alloc(struct dg_arena *a, size_t size);
char *dg_arena_strndup(struct dg_arena *a, const char *s, size_t n);
void dg_arena_free(struct dg_arena *a);

/* A set of strings, each with a number (an index into the caller's list). */
struct dg_strset {
	const char **keys;
	size_t *vals;
	size_t cap, n;
};

/*
 * Add KEY (not copied) with VAL. Returns 0 when added, 1 when KEY was
 * there already (its number in *OLD), -1 when out of memory.
 */
int dg_strset_add(struct dg_strset *s, const char *key, size_t val,
		  size_t *old);
void dg_strset_free(struct dg_strset *s);

/* ---- diag.c ------------------------------------------------------------- */

/* A place in the input: FILE and LINE as line markers say, COL in bytes. */
struct dg_loc {
	const char *file;
	unsigned line, col;
	const char *line_start; /* that line's text in the buffer we read */
	const char *text_end;	/* end of that buffer */
};

struct dg_diag {
	FILE *out; /* NULL: count only (the fuzzer) */
	const char *prog;
	unsigned errors, warnings;
};

void dg_error_at(struct dg_diag *d, const struct dg_loc *loc, const char *fmt,
		 ...) __attribute__((format(printf, 3, 4)));
void dg_warning_at(struct dg_diag *d, const struct dg_loc *loc, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));
void dg_note_at(struct dg_diag *d, const struct dg_loc *loc, const char *fmt,
		...) __attribute__((format(printf, 3, 4)));
/* Errors without a place in the input: "WHAT: error: ..." */
void dg_error(struct dg_diag *d, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void dg_warning(struct dg_diag *d, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void dg_note(struct dg_diag *d, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* S with the bytes a terminal would act on shown as \xNN. */
void dg_put_safe(FILE *out, const char *s);

/* ---- lexer.c ------------------------------------------------------------ */

enum dg_tok_kind {
	DG_TOK_EOF,
	DG_TOK_IDENT,
	DG_TOK_NUMBER,
	DG_TOK_STRING, /* "..." or '...', only meaningful outside providers */
	DG_TOK_PUNCT,  /* one character, or `...', `::', `->' */
	DG_TOK_ERROR,  /* the lexer already reported it */
};

struct dg_token {
	enum dg_tok_kind kind;
	const char *text;
	size_t len;
	int space_before; /* whitespace or a comment separates it from the last
			   */
	struct dg_loc loc;
};

struct dg_lexer {
	const char *text, *end, *pos;
	const char *line_start;
	const char *file; /* as line markers name it */
	unsigned line;
	int at_line_start; /* only blanks since the last newline */
	int cpp_done;	   /* input came through -C: #if was handled already */
	int warned_cond;   /* warned once about #if without -C */
	struct dg_arena *arena; /* file names from line markers */
	struct dg_diag *diag;
};

void dg_lexer_init(struct dg_lexer *lx, const char *file, const char *text,
		   size_t len, int cpp_done, struct dg_arena *arena,
		   struct dg_diag *diag);
/* The next token; DG_TOK_ERROR after reporting a lexical error. */
void dg_lex(struct dg_lexer *lx, struct dg_token *tok);

/* ---- parser.c ----------------------------------------------------------- */

struct dg_probe {
	const char *name;	  /* as written */
	const char *macro;	  /* PROVIDER_NAME: upper-cased, `__' -> `_' */
	const char *provider;	  /* as written */
	const char *semaphore;	  /* its symbol: PROVIDER_NAME_semaphore */
	const char *semaphore_v1; /* with STAP_SDT_V1: NAME_semaphore */
	unsigned nargs;		  /* the macro's arity */
	unsigned nparams;    /* texts in PARAMS: 1 for `(void)', else nargs */
	const char **params; /* each parameter's tokens, one space apart */
	const char **types;  /* each argument's C type, name left out, spaced
				as docs/typed-probes.md says (nargs) */
	const char **names;  /* each argument's name, "" when unnamed (nargs) */
	struct dg_loc loc;
};

struct dg_model {
	struct dg_probe *probes; /* in declaration order */
	size_t nprobes;
	size_t nproviders;
	struct dg_arena arena;
};

/*
 * Parse LEN bytes of TEXT, named FILE, into M. CPP_DONE: the text is the
 * preprocessor's output. Returns 0, or -EINVAL after reporting the first
 * error through DIAG, or -ENOMEM. dg_model_free() either way.
 */
int dg_parse(struct dg_model *m, const char *file, const char *text, size_t len,
	     int cpp_done, struct dg_diag *diag);
void dg_model_free(struct dg_model *m);

/* ---- header.c ----------------------------------------------------------- */

/* Append the -h header for M to OUT. */
void dg_header_write(const struct dg_model *m, struct dg_buf *out);

/* ---- cpp.c -------------------------------------------------------------- */

/*
 * Run the preprocessor (CPP: a command line, split like a shell does) with
 * FLAGS (the -I/-D/-U options, in order) over INPUT, as C. Its output goes
 * to OUT; its stderr passes through to ours. Returns 0 or -1 (reported).
 */
int dg_preprocess(const char *cpp, const char *const *flags, size_t nflags,
		  const char *input, struct dg_buf *out, struct dg_diag *diag);

/*
 * The same as the user AS (root only): what the file includes is read
 * with its owner's rights, so a provider file someone else wrote cannot
 * pull a file only root may read into the output or the messages.
 */
struct dg_cpp_user {
	uid_t uid;
	gid_t gid;
};
int dg_preprocess_as(const char *cpp, const char *const *flags, size_t nflags,
		     const char *input, const struct dg_cpp_user *as,
		     struct dg_buf *out, struct dg_diag *diag);

/* Split S like a POSIX shell (quotes, backslashes; no expansions). */
int dg_shell_split(const char *s, char ***argv, size_t *argc);
void dg_argv_free(char **argv, size_t argc);

/* ---- object.c ----------------------------------------------------------- */

struct dg_object_opts {
	const char *const *objects; /* files the probes are linked with */
	size_t nobjects;
	int bits;		 /* 32 or 64 from -32/-64, else 0 */
	int v1, v2;		 /* STAP_SDT_V1 / STAP_SDT_V2 defined */
	const char *cc, *cflags; /* $CC and $CFLAGS, for cross builds */
};

struct dg_object {
	struct sdt_sema_object sema; /* what the core writes */
	const char **symbols; /* sema.symbols in probe order: the model's */
	unsigned char *types; /* sema.extra_notes: the typed-probe records */
};

/*
 * Decide the target and the symbols of M's -G object. Returns 0, or -1
 * after reporting why (objects for different machines, V1 name clashes).
 */
int dg_object_prepare(struct dg_object *obj, const struct dg_model *m,
		      const struct dg_object_opts *o, struct dg_diag *diag);
/* Write it to FD, named OUT in messages. Returns 0 or -1 (reported). */
int dg_object_write(int fd, const struct dg_object *obj, const char *out,
		    struct dg_diag *diag);
void dg_object_free(struct dg_object *obj);

/* ---- layout.c ----------------------------------------------------------- */

/*
 * Add to OBJ's notes the layout of each struct M's probe arguments point
 * at, from the DWARF of O's objects (docs/struct-layouts.md). A type no
 * object describes gets none. Returns 0, or -1 (reported: no memory).
 */
int dg_layout_append(struct dg_object *obj, const struct dg_model *m,
		     const struct dg_object_opts *o, struct dg_diag *diag);

/* ---- output.c ----------------------------------------------------------- */

/*
 * Create PATH atomically: WRITE(fd, ctx) fills a temporary file made
 * beside PATH, which is then renamed over it. On any failure, or a fatal
 * signal, the temporary is removed and PATH is left as it was. Symbolic
 * links are followed only where the kernel would follow them. Returns 0
 * or -1 (reported).
 */
typedef int (*dg_write_fn)(int fd, void *ctx);
int dg_output_atomic(const char *path, dg_write_fn write_fn, void *ctx,
		     struct dg_diag *diag);

/*
 * Fill each of descriptors 0, 1 and 2 that is closed with a placeholder
 * (a memory file named DG_CLOSED_FD_NAME), so that no file we open takes
 * its number: diagnostics would land in an output, and -o /dev/stdout
 * would reopen one of our own files. Returns the closed ones as a bit
 * mask (bit N for descriptor N). Call first thing.
 */
#define DG_CLOSED_FD_NAME "dtrace-gen: closed descriptor"
int dg_output_guard_std_fds(void);

#endif
