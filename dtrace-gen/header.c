/* SPDX-License-Identifier: MIT */
/*
 * The -h header: for each probe, the macro that fires it, its _ENABLED()
 * test and the declaration of its semaphore, over <sys/sdt.h>.
 *
 * What projects depend on follows SystemTap's dtrace: the same macro and
 * semaphore names, `#define _SDT_HAS_SEMAPHORES 1' and `#define
 * STAP_HAS_SEMAPHORES 1' spelled so that the usual sed scripts keep
 * working (`s/POSTGRESQL_/TRACE_POSTGRESQL_/', `char *' to `const char
 * *'), STAP_SDT_V1 switching to the old `name_semaphore' symbols, and a
 * comment with the parameter list above each probe.
 *
 * The rest is written once, at the top, as macros that each probe's lines
 * call with only what is its own: a header is compiled in every file that
 * includes it, so its size is build time (100 probes: under 30 KB, where
 * SystemTap's dtrace writes 55 KB).
 *
 * One thing differs on purpose: _ENABLED() reads the semaphore through a
 * volatile lvalue. The tracer changes it behind the compiler's back, and a
 * plain read in a loop may be hoisted out of it (seen with gcc -O2), so
 * the loop would never notice a tracer that attaches while it runs.
 *
 * Three things are added.
 *
 * <sys/sdt.h> is included as C++ in C++: its C++ parts (templates) then
 * compile where a program includes the header inside `extern "C" {' (as
 * CPython's pydtrace.h does), with ours and with SystemTap's.
 *
 * An #error when <sys/sdt.h> was included earlier without semaphores: its
 * probe macros would then never point at a semaphore, and _ENABLED()
 * would stay 0 while the probe is traced, with no diagnostic. Not once a
 * generated header came first: glib turns `#define _SDT_HAS_SEMAPHORES 1'
 * into an #undef on purpose, and a second such header must still build
 * (so the message avoids that exact text too).
 *
 * Each probe's typed-probe record (argument types and names,
 * docs/typed-probes.md), so that builds carry it whatever -G object they
 * link. The probe macro hands it to sdtkit's <sys/sdt.h> (_SDT_DPROBE_n),
 * which writes it at the probe's sites: only probes the program fires
 * get one, once per linked file, -flto included; it adds no instruction
 * and leaves the code and the stapsdt notes exactly as they were. With
 * another <sys/sdt.h> the macro is DTRACE_PROBEn, as SystemTap's header
 * writes it, and -G writes the records. Projects edit generated headers
 * (memcached turns every `char *' into `const char *'), so the types and
 * names are written as octal escapes that no edit of C text matches, and
 * the record says it came from a header: a -G record, made from the .d
 * file, wins over it. Each distinct argument list is spelled once, as a
 * macro named by a hash of it, which the probes that share it name.
 *
 * The output depends on the model only: no dates, paths or versions.
 */
#include <stdlib.h>

#include "dtrace-gen.h"
#include "note.h"
#include "typerec.h"

/* The spelled-out argument lists: macro SIG_PREFIX and a number. */
#define SIG_PREFIX "_SDTKIT_"

/*
 * The macros every header shares, defined by the first one a file
 * includes (the guard names the macros' version: a header that needed
 * others would use a new guard and new names). Provider and probe names
 * are pasted and stringized by the macros the header's lines call, before
 * any macro of the program's could replace them (a probe named `read').
 * The record's note header: namesz (the owner with its NUL), descsz (the
 * assembler counts it), type.
 */
_Static_assert(sizeof(SDT_TYPES_OWNER) == 7 && SDT_TYPES_NT == 1,
	       "the record's note header below spells these");

static const char machinery[] =
	"#if defined _SYS_SDT_H && !defined _SDT_HAS_SEMAPHORES && "
	"!defined _SDTKIT_GEN_1 && !defined _SDTKIT_GEN_2\n"
	"#error \"<sys/sdt.h> came before this header without "
	"_SDT_HAS_SEMAPHORES (no semaphores: _ENABLED() stays 0): include "
	"this header first, or define _SDT_HAS_SEMAPHORES before "
	"<sys/sdt.h>\"\n"
	"#endif\n"
	"#define _SDT_HAS_SEMAPHORES 1\n"
	"#define STAP_HAS_SEMAPHORES 1 /* deprecated */\n\n"
	"#ifdef __cplusplus\n"
	"extern \"C++\" {\n"
	"#endif\n"
	"#include <sys/sdt.h>\n"
	"#ifdef __cplusplus\n"
	"}\n"
	"#endif\n\n"
	"#ifndef _SDTKIT_GEN_2\n"
	"#define _SDTKIT_GEN_2 1\n"
	"#if defined STAP_SDT_V1\n"
	"#define _SDTKIT_ON(p, n) _SDTKIT_READ (n##_semaphore)\n"
	"#define _SDTKIT_SEMA(p, n) _SDTKIT_DECL (n##_semaphore)\n"
	"#else\n"
	"#define _SDTKIT_ON(p, n) _SDTKIT_READ (p##_##n##_semaphore)\n"
	"#define _SDTKIT_SEMA(p, n) _SDTKIT_DECL (p##_##n##_semaphore)\n"
	"#endif\n"
	"#define _SDTKIT_READ(s) "
	"__builtin_expect (*(volatile unsigned short *) &s, 0)\n"
	"#define _SDTKIT_DECL(s) __extension__ extern unsigned short s "
	"__attribute__ ((unused, section (\".probes\")))\n"
	"/* Argument types and names (typed-probe records) in octal, which "
	"edits of this\n"
	"   text leave alone, for sdtkit's <sys/sdt.h> to write at the "
	"probes' sites. */\n"
	"#endif\n\n";

/*
 * The distinct argument lists of a header (count, then each argument's
 * type and name), numbered in order of first use: probes often share one,
 * and a list is spelled once, as a macro the probes name. An
 * open-addressing table of probe indexes.
 */
struct sigs {
	const struct dg_probe **first; /* by number: the probe that has it */
	size_t n;
	unsigned *slot; /* number + 1, or 0 when free */
	size_t mask;
	unsigned *use; /* each probe's number */
};

static size_t sig_hash(const struct dg_probe *p)
{
	size_t h = 5381 + p->nargs;

	for (unsigned i = 0; i < p->nargs; i++) {
		for (const char *s = p->types[i]; *s; s++)
			h = h * 33 + (unsigned char)*s;
		for (const char *s = p->names[i]; *s; s++)
			h = h * 33 + (unsigned char)*s;
		h = h * 33 + 1;
	}
	return h ^ (h >> 15);
}

static int same_sig(const struct dg_probe *a, const struct dg_probe *b)
{
	if (a->nargs != b->nargs)
		return 0;
	for (unsigned i = 0; i < a->nargs; i++) {
		if (strcmp(a->types[i], b->types[i]) ||
		    strcmp(a->names[i], b->names[i]))
			return 0;
	}
	return 1;
}

static unsigned sig_number(struct sigs *t, const struct dg_probe *p)
{
	size_t i = sig_hash(p) & t->mask;

	for (; t->slot[i]; i = (i + 1) & t->mask) {
		if (same_sig(t->first[t->slot[i] - 1], p))
			return t->slot[i] - 1;
	}
	t->first[t->n] = p;
	t->slot[i] = (unsigned)++t->n;
	return (unsigned)t->n - 1;
}

/* Number every probe's list; -1 when memory runs out. */
static int sigs_build(struct sigs *t, const struct dg_model *m)
{
	size_t cap = 16, n = m->nprobes ? m->nprobes : 1;

	while (cap < 2 * n)
		cap *= 2;
	memset(t, 0, sizeof(*t));
	t->mask = cap - 1;
	t->slot = calloc(cap, sizeof(*t->slot));
	t->first = malloc(n * sizeof(*t->first));
	t->use = malloc(n * sizeof(*t->use));
	if (!t->slot || !t->first || !t->use)
		return -1;
	for (size_t i = 0; i < m->nprobes; i++)
		t->use[i] = sig_number(t, &m->probes[i]);
	return 0;
}

static void sigs_free(struct sigs *t)
{
	free(t->slot);
	free(t->first);
	free(t->use);
}

/*
 * S as octal escapes, in a C string that the compiler hands to the
 * assembler: `\143' for `c', then `\\0' (the assembler's NUL) at its end.
 * What follows that NUL is a type or a name, which never starts with a
 * digit, so the two cannot run together into one escape.
 */
static void put_octal(const char *s, struct dg_buf *out)
{
	size_t n = strlen(s);
	char *p;

	if (dg_buf_reserve(out, 4 * n + 3))
		return;
	p = out->data + out->len;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		*p++ = '\\';
		*p++ = (char)('0' + (c >> 6));
		*p++ = (char)('0' + ((c >> 3) & 7));
		*p++ = (char)('0' + (c & 7));
	}
	memcpy(p, "\\\\0", 3);
	out->len += 4 * n + 3;
	out->data[out->len] = '\0';
}

/*
 * List K's macro: named by a hash of the list, so that headers included
 * together (QEMU's, all of provider qemu) define one name alike or two
 * names, never one name two ways; they stay defined for the probes'
 * sites.
 */
static void sig_macro(const struct sigs *t, unsigned k, struct dg_buf *out)
{
	const struct dg_probe *p = t->first[k];
	unsigned long long h = 14695981039346656037ULL;
	char hex[9];

	h = (h ^ p->nargs) * 1099511628211ULL;
	for (unsigned i = 0; i < p->nargs; i++) {
		for (const char *c = p->types[i]; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
		h = (h ^ 0x100) * 1099511628211ULL;
		for (const char *c = p->names[i]; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
		h = (h ^ 0x101) * 1099511628211ULL;
	}
	for (int d = 0; d < 8; d++, h /= 62)
		hex[d] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ"
			 "RSTUVWXYZ"[h % 62];
	hex[8] = '\0';
	dg_buf_cat(out, SIG_PREFIX, hex, NULL);
}

static void sig_defines(const struct sigs *t, struct dg_buf *out)
{
	char count[16];

	for (size_t k = 0; k < t->n; k++) {
		const struct dg_probe *p = t->first[k];

		snprintf(count, sizeof(count), "%u", p->nargs);
		dg_buf_puts(out, "#define ");
		sig_macro(t, (unsigned)k, out);
		dg_buf_puts(out, " \"");
		put_octal(count, out);
		for (unsigned i = 0; i < p->nargs; i++) {
			put_octal(p->types[i], out);
			put_octal(p->names[i], out);
		}
		dg_buf_puts(out, "\"\n");
	}
}

/*
 * _SDTKIT_Pn for each argument count n the probes have: with sdtkit's
 * <sys/sdt.h>, its probe that writes the .d record at the site; with
 * another, DTRACE_PROBEn. Outside the shared guard: headers included
 * together each define the counts they use, alike.
 */
static void fire_macros(const struct dg_model *m, struct dg_buf *out)
{
	unsigned char used[SDT_MAX_ARGS + 1] = { 0 };

	for (size_t i = 0; i < m->nprobes; i++)
		used[m->probes[i].nargs] = 1;
	dg_buf_puts(out, "#ifdef _SDT_DPROBE_1\n");
	for (unsigned n = 0; n <= SDT_MAX_ARGS; n++) {
		if (!used[n])
			continue;
		dg_buf_puts(out, "#define _SDTKIT_P");
		dg_buf_uint(out, n);
		dg_buf_puts(out, " _SDT_DPROBE_");
		dg_buf_uint(out, n);
		dg_buf_puts(out, "\n");
	}
	dg_buf_puts(out, "#else\n");
	for (unsigned n = 0; n <= SDT_MAX_ARGS; n++) {
		if (!used[n])
			continue;
		dg_buf_puts(out, "#define _SDTKIT_P");
		dg_buf_uint(out, n);
		dg_buf_puts(out, "(s, p, n");
		for (unsigned i = 1; i <= n; i++) {
			dg_buf_puts(out, ", a");
			dg_buf_uint(out, i);
		}
		dg_buf_puts(out, ") DTRACE_PROBE");
		if (n)
			dg_buf_uint(out, n);
		dg_buf_puts(out, " (p, n");
		for (unsigned i = 1; i <= n; i++) {
			dg_buf_puts(out, ", a");
			dg_buf_uint(out, i);
		}
		dg_buf_puts(out, ")\n");
	}
	dg_buf_puts(out, "#endif\n");
}

static void comment(const struct dg_probe *p, struct dg_buf *out)
{
	unsigned i;

	dg_buf_cat(out, "/* ", p->macro, " (", NULL);
	for (i = 0; i < p->nparams; i++)
		dg_buf_cat(out, i ? ", " : " ", p->params[i], NULL);
	dg_buf_puts(out, " ) */\n");
}

static void enabled(const struct dg_probe *p, struct dg_buf *out)
{
	dg_buf_cat(out, "#define ", p->macro, "_ENABLED() _SDTKIT_ON (",
		   p->provider, ", ", p->name, ")\n", NULL);
}

static void fire(const struct dg_probe *p, const struct sigs *t, unsigned k,
		 struct dg_buf *out)
{
	unsigned i;

	dg_buf_cat(out, "#define ", p->macro, "(", NULL);
	for (i = 0; i < p->nargs; i++) {
		dg_buf_puts(out, i ? ", arg" : "arg");
		dg_buf_uint(out, i + 1);
	}
	dg_buf_puts(out, ") _SDTKIT_P");
	dg_buf_uint(out, p->nargs);
	dg_buf_puts(out, " (");
	sig_macro(t, k, out);
	dg_buf_cat(out, ", ", p->provider, ", ", p->name, NULL);
	for (i = 0; i < p->nargs; i++) {
		dg_buf_puts(out, ", arg");
		dg_buf_uint(out, i + 1);
	}
	dg_buf_puts(out, ")\n");
}

/* Its semaphore. */
static void declare(const struct dg_probe *p, struct dg_buf *out)
{
	dg_buf_cat(out, "_SDTKIT_SEMA (", p->provider, ", ", p->name, ");\n",
		   NULL);
}

/* About the bytes the text for P takes, so the buffer grows once. */
static size_t probe_text_size(const struct dg_probe *p)
{
	size_t size = 100 + 3 * strlen(p->provider) + 3 * strlen(p->name) +
		      3 * strlen(p->macro) + 30 * p->nargs;

	for (unsigned i = 0; i < p->nparams; i++)
		size += strlen(p->params[i]) + 2;
	return size;
}

static size_t sigs_text_size(const struct sigs *t)
{
	size_t size = 0;

	for (size_t k = 0; k < t->n; k++) {
		const struct dg_probe *p = t->first[k];

		size += 50;
		for (unsigned i = 0; i < p->nargs; i++)
			size += 4 * (strlen(p->types[i]) +
				     strlen(p->names[i])) +
				6;
	}
	return size;
}

void dg_header_write(const struct dg_model *m, struct dg_buf *out)
{
	size_t i, size = sizeof(machinery) + 128;
	struct sigs t;

	if (sigs_build(&t, m)) {
		sigs_free(&t);
		out->failed = 1;
		return;
	}
	for (i = 0; i < m->nprobes; i++)
		size += probe_text_size(&m->probes[i]);
	dg_buf_reserve(out, size + sigs_text_size(&t));

	dg_buf_puts(out, "/* Generated by dtrace-gen from a provider "
			 "description: do not edit. */\n\n");
	dg_buf_add(out, machinery, sizeof(machinery) - 1);
	sig_defines(&t, out);
	fire_macros(m, out);
	for (i = 0; i < m->nprobes; i++) {
		const struct dg_probe *p = &m->probes[i];

		dg_buf_puts(out, "\n");
		comment(p, out);
		enabled(p, out);
		fire(p, &t, t.use[i], out);
		declare(p, out);
	}
	sigs_free(&t);
}
