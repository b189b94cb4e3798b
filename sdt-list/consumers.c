/* SPDX-License-Identifier: MIT */
/*
 * What each tracer makes of a probe's argument spec.
 *
 * A spec that readelf shows and our strict validator refuses may still be
 * read by some tracers and not others, and each fails in its own way: one
 * drops the probe, one shifts the later arguments, one reads a wrong value,
 * one forgets the whole binary. --check answers "which consumer reads every
 * argument of this probe, and why not" by running a small model of each
 * consumer's parser, per architecture, written from its public source and
 * checked against the installed tools:
 *
 *  - libbpf 1.1 (src/usdt.c, parse_usdt_arg): a few sscanf() patterns per
 *    architecture, tried in order over the rest of the spec, then a
 *    register table. We run the same patterns through sscanf(), so its
 *    quirks (what %ld stops at, %15s) are the real ones. No ppc64 parser.
 *  - bcc 0.26 (src/cc/usdt/usdt_args.cc) and bpftrace 0.17 on top of it:
 *    a hand-written x86 parser (strtoull numbers, symbols, index
 *    registers), aarch64, and regexes for ppc64 and s390x; other machines
 *    fall back to the x86 parser. After a bad argument the x86 and aarch64
 *    parsers lose every later one. bpftrace then refuses sizes other than
 *    1/2/4/8 (it aborts), registers it has no offset for (%xmmN) and
 *    symbol operands ("deref ident is not handled yet": wrong values).
 *  - gdb 13 (stap-probe.c + per-architecture prefixes and registers): an
 *    optional single-digit size, then one operand; any error and gdb shows
 *    the probe with no arguments at all. It rejects %r8b..%r15b (its names
 *    are r8l..r15l), hex constants and symbols. No riscv64 support.
 *  - perf (util/probe-file.c, arch/ * /util/perf_regs.c): a size outside
 *    -8..8 empties perf's SDT cache for the whole binary; operands go
 *    through a per-architecture regex (constants and anything else are
 *    silently skipped: the argument is not recorded) and a register rename,
 *    and the kernel must know the register or the event cannot be added.
 *
 * Each model is a table of patterns or registers plus a short walk; adding
 * an architecture is adding a row.
 */
#include <ctype.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-list.h"

static int is_ppc64(enum sdt_arch a)
{
	return a == SDT_ARCH_PPC64LE || a == SDT_ARCH_PPC64;
}

const char *consumer_arch(const struct sdt_target *t)
{
	enum sdt_arch a = sdt_target_arch(t);

	return a == SDT_ARCH_UNKNOWN ? NULL : sdt_arch_name(a);
}

const char *consumer_name(enum consumer c)
{
	static const char *const names[] = { "libbpf", "bcc/bpftrace", "gdb",
					     "perf" };
	return c < CONSUMER_COUNT ? names[c] : "?";
}

static int refuse(struct verdict *v, int arg, const char *fmt, ...)
{
	va_list ap;

	v->ok = 0;
	v->arg = arg;
	va_start(ap, fmt);
	vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
	return 0;
}

static int in_list(const char *s, const char *const *list)
{
	for (; *list; list++) {
		if (!strcmp(s, *list))
			return 1;
	}
	return 0;
}

/* NAME is PREFIX followed by a decimal number in [LO, HI], then SUFFIX. */
static int numbered(const char *name, const char *prefix, int lo, int hi,
		    const char *suffix)
{
	size_t n = strlen(prefix);
	char *end;
	long v;

	if (strncmp(name, prefix, n) || !isdigit((unsigned char)name[n]))
		return 0;
	if (name[n] == '0' && isdigit((unsigned char)name[n + 1]))
		return 0;
	v = strtol(name + n, &end, 10);
	return v >= lo && v <= hi && !strcmp(end, suffix);
}

/* The argument text at SPEC[START..START+LEN), for messages. */
#define ARGFMT "argument %d (`%.*s')"

/* ------------------------------------------------------------------ */
/* libbpf                                                              */

enum scan_layout {
	SZ_OFF_REG, /* size, displacement, register name */
	SZ_REG_OFF, /* size, register name, displacement */
	SZ_REG,	    /* size, register name */
	SZ_OFF,	    /* size, constant */
	SZ_OFF_NUM, /* size, displacement, register number */
	SZ_NUM,	    /* size, register number */
};

struct scan_form {
	const char *fmt;
	enum scan_layout layout;
	int nconv;
};

/* Per architecture, in the order libbpf tries them; NULL-terminated. */
static const struct scan_form libbpf_x86[] = {
	{ " %d @ %ld ( %%%15[^)] ) %n", SZ_OFF_REG, 3 },
	{ " %d @ ( %%%15[^)] ) %n", SZ_REG, 2 },
	{ " %d @ %%%15s %n", SZ_REG, 2 },
	{ " %d @ $%ld %n", SZ_OFF, 2 },
	{ NULL, 0, 0 },
};

static const struct scan_form libbpf_s390[] = {
	{ " %d @ %ld ( %%r%u ) %n", SZ_OFF_NUM, 3 },
	{ " %d @ %%r%u %n", SZ_NUM, 2 },
	{ " %d @ %ld %n", SZ_OFF, 2 },
	{ NULL, 0, 0 },
};

static const struct scan_form libbpf_aarch64[] = {
	{ " %d @ [ %15[a-z0-9] , %ld ] %n", SZ_REG_OFF, 3 },
	{ " %d @ [ %15[a-z0-9] ] %n", SZ_REG, 2 },
	{ " %d @ %ld %n", SZ_OFF, 2 },
	{ " %d @ %15[a-z0-9] %n", SZ_REG, 2 },
	{ NULL, 0, 0 },
};

static const struct scan_form libbpf_riscv[] = {
	{ " %d @ %ld ( %15[a-z0-9] ) %n", SZ_OFF_REG, 3 },
	{ " %d @ %ld %n", SZ_OFF, 2 },
	{ " %d @ %15[a-z0-9] %n", SZ_REG, 2 },
	{ NULL, 0, 0 },
};

static const struct scan_form libbpf_arm[] = {
	{ " %d @ [ %15[a-z0-9] , #%ld ] %n", SZ_REG_OFF, 3 },
	{ " %d @ [ %15[a-z0-9] ] %n", SZ_REG, 2 },
	{ " %d @ #%ld %n", SZ_OFF, 2 },
	{ " %d @ %15[a-z0-9] %n", SZ_REG, 2 },
	{ NULL, 0, 0 },
};

static int libbpf_reg_ok(enum sdt_arch a, const char *r)
{
	static const char *const x86_common[] = {
		"rip", "eip", "rax", "eax", "ax",  "al",  "rbx", "ebx", "bx",
		"bl",  "rcx", "ecx", "cx",  "cl",  "rdx", "edx", "dx",	"dl",
		"rsi", "esi", "si",  "sil", "rdi", "edi", "di",	 "dil", "rbp",
		"ebp", "bp",  "bpl", "rsp", "esp", "sp",  "spl", NULL
	};
	static const char *const riscv[] = {
		"ra", "sp", "gp", "tp", "a0", "a1", "a2",  "a3",
		"a4", "a5", "a6", "a7", "s0", "s1", "s2",  "s3",
		"s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
		"t0", "t1", "t2", "t3", "t4", "t5", "t6",  NULL
	};
	static const char *const arm[] = { "fp", "ip", "sp", "lr", "pc", NULL };
	int n;

	switch (a) {
	case SDT_ARCH_X86_64:
		if (numbered(r, "r", 8, 15, "") ||
		    numbered(r, "r", 8, 15, "d") ||
		    numbered(r, "r", 8, 15, "w") ||
		    numbered(r, "r", 8, 15, "b"))
			return 1;
		/* fall through */
	case SDT_ARCH_I386:
		return in_list(r, x86_common);
	case SDT_ARCH_AARCH64:
		/* sscanf("x%d"): "x07" and "x5junk" pass, as in libbpf. */
		if (sscanf(r, "x%d", &n) == 1)
			return n >= 0 && n < 31;
		return !strcmp(r, "sp");
	case SDT_ARCH_RISCV64:
		return in_list(r, riscv);
	case SDT_ARCH_ARM:
		return numbered(r, "r", 0, 10, "") || in_list(r, arm);
	default:
		return 0;
	}
}

static const struct scan_form *libbpf_forms(enum sdt_arch a)
{
	switch (a) {
	case SDT_ARCH_X86_64:
	case SDT_ARCH_I386:
		return libbpf_x86;
	case SDT_ARCH_S390X:
		return libbpf_s390;
	case SDT_ARCH_AARCH64:
		return libbpf_aarch64;
	case SDT_ARCH_RISCV64:
		return libbpf_riscv;
	case SDT_ARCH_ARM:
		return libbpf_arm;
	default:
		return NULL;
	}
}

/* What one of libbpf's sscanf() patterns took from an argument. */
struct scanned {
	char reg[16];
	int size, len;
	unsigned num;
	long off;
};

/* The first of FORMS that matches the argument at S, or NULL. */
static const struct scan_form *libbpf_scan(const struct scan_form *forms,
					   const char *s, struct scanned *sc)
{
	for (const struct scan_form *f = forms; f->fmt; f++) {
		int got = 0;

		sc->len = -1;
		switch (f->layout) {
		case SZ_OFF_REG:
			got = sscanf(s, f->fmt, &sc->size, &sc->off, sc->reg,
				     &sc->len);
			break;
		case SZ_REG_OFF:
			got = sscanf(s, f->fmt, &sc->size, sc->reg, &sc->off,
				     &sc->len);
			break;
		case SZ_REG:
			got = sscanf(s, f->fmt, &sc->size, sc->reg, &sc->len);
			break;
		case SZ_OFF:
			got = sscanf(s, f->fmt, &sc->size, &sc->off, &sc->len);
			break;
		case SZ_OFF_NUM:
			got = sscanf(s, f->fmt, &sc->size, &sc->off, &sc->num,
				     &sc->len);
			break;
		case SZ_NUM:
			got = sscanf(s, f->fmt, &sc->size, &sc->num, &sc->len);
			break;
		}
		if (got == f->nconv && sc->len > 0)
			return f;
	}
	return NULL;
}

/* What libbpf checks after a pattern matched: register, then size. */
static int libbpf_arg_ok(enum sdt_arch a, const struct scan_form *f,
			 const struct scanned *sc, int argn, struct verdict *v)
{
	int size = sc->size < 0 ? -sc->size : sc->size;

	if ((f->layout == SZ_OFF_REG || f->layout == SZ_REG_OFF ||
	     f->layout == SZ_REG) &&
	    !libbpf_reg_ok(a, sc->reg))
		return refuse(v, argn,
			      "argument %d: unrecognized register `%s'", argn,
			      sc->reg);
	if ((f->layout == SZ_OFF_NUM || f->layout == SZ_NUM) && sc->num > 15)
		return refuse(v, argn,
			      "argument %d: unrecognized register `%%r%u'",
			      argn, sc->num);
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return refuse(v, argn,
			      "argument %d: unsupported argument size %d", argn,
			      size);
	return 1;
}

static int libbpf_check(enum sdt_arch a, const char *spec, struct verdict *v)
{
	const struct scan_form *forms = libbpf_forms(a);
	const char *s = spec;

	for (int argn = 0; *s; argn++) {
		const struct scan_form *f;
		struct scanned sc = { .reg = "" };

		/* libbpf's USDT_MAX_ARGS is the spec format's limit. */
		if (argn >= SDT_MAX_ARGS)
			return refuse(v, argn, "more than %d arguments",
				      SDT_MAX_ARGS);
		if (!forms)
			return refuse(
				v, argn,
				"libbpf has no USDT argument parser for %s",
				sdt_arch_name(a));
		f = libbpf_scan(forms, s, &sc);
		if (!f)
			return refuse(v, argn,
				      "argument %d: unrecognized spec `%.40s'",
				      argn, s);
		if (!libbpf_arg_ok(a, f, &sc, argn, v))
			return 0;
		s += sc.len;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* bcc (and bpftrace over it)                                          */

struct bcc_arg {
	int has_size;
	int size;
	int has_const;
	int has_deref;
	int has_ident;
	char ident[64];
	char base[16]; /* bcc's normalized name: "ax", "r8", "ip", "xmm0" */
	char index[16];
};

struct bcc_reg {
	const char *name;
	const char *norm;
	int size;
};

/* bcc's x86 register table: name, normalized name, width. */
static const struct bcc_reg bcc_x86_regs[] = {
	{ "rax", "ax", 8 }, { "eax", "ax", 4 }, { "ax", "ax", 2 },
	{ "al", "ax", 1 },  { "rbx", "bx", 8 }, { "ebx", "bx", 4 },
	{ "bx", "bx", 2 },  { "bl", "bx", 1 },	{ "rcx", "cx", 8 },
	{ "ecx", "cx", 4 }, { "cx", "cx", 2 },	{ "cl", "cx", 1 },
	{ "rdx", "dx", 8 }, { "edx", "dx", 4 }, { "dx", "dx", 2 },
	{ "dl", "dx", 1 },  { "rsi", "si", 8 }, { "esi", "si", 4 },
	{ "si", "si", 2 },  { "sil", "si", 1 }, { "rdi", "di", 8 },
	{ "edi", "di", 4 }, { "di", "di", 2 },	{ "dil", "di", 1 },
	{ "rbp", "bp", 8 }, { "ebp", "bp", 4 }, { "bp", "bp", 2 },
	{ "bpl", "bp", 1 }, { "rsp", "sp", 8 }, { "esp", "sp", 4 },
	{ "sp", "sp", 2 },  { "spl", "sp", 1 }, { "rip", "ip", 8 },
	{ NULL, NULL, 0 },
};

static int bcc_x86_reg(const char *name, char *norm, size_t len, int *size)
{
	for (const struct bcc_reg *r = bcc_x86_regs; r->name; r++) {
		if (!strcmp(name, r->name)) {
			snprintf(norm, len, "%s", r->norm);
			*size = r->size;
			return 1;
		}
	}
	static const char *const suffix[] = { "", "d", "w", "b" };
	static const int width[] = { 8, 4, 2, 1 };
	for (int i = 0; i < 4; i++) {
		if (numbered(name, "r", 8, 15, suffix[i])) {
			snprintf(norm, len, "r%ld", strtol(name + 1, NULL, 10));
			*size = width[i];
			return 1;
		}
	}
	if (numbered(name, "xmm", 0, 15, "")) {
		snprintf(norm, len, "%.6s", name);
		*size = 16;
		return 1;
	}
	return 0;
}

/* bcc's parse_number: strtoull in base 0 (so "0x10", " 8", "-4"). */
static long bcc_number(const char *s, long pos, long long *v, int *got)
{
	char *end;
	unsigned long long x = strtoull(s + pos, &end, 0);

	*got = end > s + pos;
	if (*got)
		*v = (long long)x;
	return end - s;
}

static long bcc_register(const char *s, long pos, char *norm, size_t len,
			 int *size)
{
	long start = pos + 1;
	char name[32];

	if (s[pos] != '%')
		return -start;
	pos = start;
	while (isalnum((unsigned char)s[pos]))
		pos++;
	if (pos - start >= (long)sizeof(name))
		return -start;
	memcpy(name, s + start, (size_t)(pos - start));
	name[pos - start] = 0;
	if (!bcc_x86_reg(name, norm, len, size))
		return -start;
	return pos;
}

static long bcc_base(const char *s, long pos, struct bcc_arg *a)
{
	int size;
	long r = bcc_register(s, pos, a->base, sizeof(a->base), &size);

	if (r >= 0 && !a->has_size) {
		a->has_size = 1;
		a->size = size;
	}
	return r;
}

static long bcc_ident(const char *s, long pos, struct bcc_arg *a)
{
	long start = pos;

	if (isalpha((unsigned char)s[pos]) || s[pos] == '_') {
		pos++;
		while (isalnum((unsigned char)s[pos]) || s[pos] == '_')
			pos++;
		a->has_ident = 1;
		snprintf(a->ident, sizeof(a->ident), "%.*s", (int)(pos - start),
			 s + start);
	}
	return pos;
}

static long bcc_x86_expr(const char *s, long pos, struct bcc_arg *a)
{
	long long v;
	int got, size;

	if (s[pos] == '$') {
		pos = bcc_number(s, pos + 1, &v, &got);
		a->has_const = got;
		return pos;
	}
	if (s[pos] == '%')
		return bcc_base(s, pos, a);
	a->has_deref = 1;
	if (isdigit((unsigned char)s[pos]) || s[pos] == '-') {
		pos = bcc_number(s, pos, &v, &got);
		if (s[pos] == '+') {
			pos = bcc_ident(s, pos + 1, a);
			if (!a->has_ident)
				return -pos;
		}
	} else {
		pos = bcc_ident(s, pos, a);
		if (s[pos] == '+' || s[pos] == '-')
			pos = bcc_number(s, pos, &v, &got);
	}
	if (s[pos] != '(')
		return -pos;
	pos = bcc_base(s, pos + 1, a);
	if (pos < 0)
		return pos;
	if (s[pos] == ',') {
		pos = bcc_register(s, pos + 1, a->index, sizeof(a->index),
				   &size);
		if (pos < 0)
			return pos;
		if (s[pos] == ',')
			pos = bcc_number(s, pos + 1, &v, &got);
	}
	return s[pos] == ')' ? pos + 1 : -pos;
}

/* One argument at S[POS..]; returns the position after it or -(error). */
static long bcc_x86_one(const char *s, long pos, struct bcc_arg *a)
{
	if (isdigit((unsigned char)s[pos]) || s[pos] == '-') {
		long long v;
		int got;
		long m = bcc_number(s, pos, &v, &got);

		if (s[m] == '@' && got) {
			a->has_size = 1;
			a->size = (int)v;
			return bcc_x86_expr(s, m + 1, a);
		}
	}
	return bcc_x86_expr(s, pos, a);
}

static long bcc_aarch64_reg(const char *s, long pos, char *norm, size_t len)
{
	if (s[pos] == 'x') {
		long long n;
		int got;
		long end = bcc_number(s, pos + 1, &n, &got);

		if (!got || n < 0 || n > 31)
			return -(pos + 1);
		snprintf(norm, len, n == 31 ? "sp" : "regs[%lld]", n);
		return end;
	}
	if (s[pos] == 's' && s[pos + 1] == 'p') {
		snprintf(norm, len, "sp");
		return pos + 2;
	}
	return -pos;
}

static long bcc_aarch64_one(const char *s, long pos, struct bcc_arg *a)
{
	long long v;
	int got;

	pos = bcc_number(s, pos, &v, &got);
	if (!got ||
	    !(llabs(v) == 1 || llabs(v) == 2 || llabs(v) == 4 || llabs(v) == 8))
		return -pos;
	a->has_size = 1;
	a->size = (int)v;
	if (s[pos] != '@')
		return -pos;
	pos++;
	if (s[pos] == 'x' || s[pos] == 's')
		return bcc_aarch64_reg(s, pos, a->base, sizeof(a->base));
	if (s[pos] == '[') {
		a->has_deref = 1;
		pos = bcc_aarch64_reg(s, pos + 1, a->base, sizeof(a->base));
		if (pos < 0)
			return pos;
		if (s[pos] == ',') {
			long p = bcc_number(s, pos + 1, &v, &got);
			if (!got)
				return -(pos + 1);
			pos = p;
		}
		return s[pos] == ']' ? pos + 1 : -pos;
	}
	pos = bcc_number(s, pos, &v, &got);
	if (!got)
		return -pos;
	a->has_const = 1;
	return pos;
}

/* bcc's ECMAScript regexes for ppc64 and s390x, in POSIX ERE. */
struct bcc_rx {
	const char *size;
	const char *ops[4];
};

static const struct bcc_rx bcc_ppc = {
	"^-?[1248]@",
	{ "^i-?[0-9]+( +|$)", "^(%r)?([1-2]?[0-9]|3[0-1])( +|$)",
	  "^-?[0-9]+\\((%r)?([1-2]?[0-9]|3[0-1])\\)( +|$)",
	  "^(%r)?([1-2]?[0-9]|3[0-1]),(%r)?([1-2]?[0-9]|3[0-1])( +|$)" },
};

static const struct bcc_rx bcc_s390 = {
	"^-?[0-9]+@",
	{ "^-?[0-9]+( +|$)", "^%r([0-9]|1[0-5])( +|$)",
	  "^(-?[0-9]+)?\\(%r([0-9]|1[0-5])(,%r([0-9]|1[0-5]))?\\)( +|$)",
	  NULL },
};

/* Length of the match of RX at the start of S, or -1. */
static int rx_match(const char *rx, const char *s)
{
	regex_t re;
	regmatch_t m;
	int r;

	if (regcomp(&re, rx, REG_EXTENDED))
		return -1;
	r = regexec(&re, s, 1, &m, 0);
	regfree(&re);
	return r == 0 && m.rm_so == 0 ? (int)m.rm_eo : -1;
}

static int bcc_regex_check(const struct bcc_rx *rx, const char *spec,
			   struct verdict *v)
{
	const char *s = spec;
	int argn = 0;

	while (isspace((unsigned char)*s))
		s++;
	while (*s) {
		int n = rx_match(rx->size, s), m = -1;
		long size = strtol(s, NULL, 10);

		if (n > 0) {
			for (int i = 0; i < 4 && rx->ops[i] && m < 0; i++)
				m = rx_match(rx->ops[i], s + n);
		}
		if (n <= 0 || m < 0)
			return refuse(v, argn, "bcc cannot parse `%.40s'", s);
		if (labs(size) != 1 && labs(size) != 2 && labs(size) != 4 &&
		    labs(size) != 8)
			return refuse(v, argn,
				      "bpftrace aborts on argument size %ld",
				      size);
		s += n + m;
		while (isspace((unsigned char)*s))
			s++;
		argn++;
	}
	return 0;
}

/* bpftrace 0.17's limits on what bcc parsed (x86_64 pt_regs). */
static int bpftrace_x86_ok(const struct bcc_arg *a, int argn, struct verdict *v)
{
	static const char *const regs[] = { "r15", "r14", "r13", "r12", "bp",
					    "bx",  "r11", "r10", "r9",	"r8",
					    "ax",  "cx",  "dx",	 "si",	"di",
					    "ip",  "sp",  NULL };

	if (!a->has_size || !(abs(a->size) == 1 || abs(a->size) == 2 ||
			      abs(a->size) == 4 || abs(a->size) == 8))
		return refuse(
			v, argn,
			"argument %d: bpftrace aborts on argument size %d",
			argn, a->has_size ? a->size : 0);
	if (a->base[0] && !in_list(a->base, regs))
		return refuse(
			v, argn,
			"argument %d: bpftrace knows no offset for register %s",
			argn, a->base);
	if (a->index[0] && !in_list(a->index, regs))
		return refuse(
			v, argn,
			"argument %d: bpftrace knows no offset for register %s",
			argn, a->index);
	if (a->has_ident)
		return refuse(v, argn,
			      "argument %d: symbol operand `%s': bpftrace does "
			      "not resolve it (\"deref ident is not handled "
			      "yet\") and reads a wrong value",
			      argn, a->ident);
	if (!a->has_const && !a->base[0])
		return refuse(v, argn, "argument %d: no value to read", argn);
	return 1;
}

static int bcc_check(enum sdt_arch a, const char *spec, struct verdict *v)
{
	long pos = 0;
	int argn = 0;

	if (is_ppc64(a))
		return bcc_regex_check(&bcc_ppc, spec, v);
	if (a == SDT_ARCH_S390X)
		return bcc_regex_check(&bcc_s390, spec, v);
	while (isspace((unsigned char)spec[pos]))
		pos++;
	while (spec[pos]) {
		struct bcc_arg arg;
		long r;

		memset(&arg, 0, sizeof(arg));
		r = a == SDT_ARCH_AARCH64 ? bcc_aarch64_one(spec, pos, &arg)
					  : bcc_x86_one(spec, pos, &arg);
		/* A parse that ends inside a word, or consumes nothing. */
		if (r >= 0 &&
		    (r <= pos || (spec[r] && !isspace((unsigned char)spec[r]))))
			r = -r;
		if (r <= 0) {
			const char *fallback =
				a == SDT_ARCH_ARM || a == SDT_ARCH_RISCV64
					? " (bcc 0.26 has no parser for this "
					  "architecture and uses its x86 one)"
					: "";
			return refuse(v, argn,
				      "cannot parse argument %d at `%.20s'%s; "
				      "it and every later argument are lost",
				      argn, spec + (-r), fallback);
		}
		if ((a == SDT_ARCH_X86_64 || a == SDT_ARCH_I386) &&
		    !bpftrace_x86_ok(&arg, argn, v))
			return 0;
		pos = r;
		while (isspace((unsigned char)spec[pos]))
			pos++;
		argn++;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* gdb                                                                 */

/* gdb's user-visible register names per architecture. */
static int gdb_reg_ok(enum sdt_arch a, const char *r)
{
	static const char *const x86[] = {
		"eax",	  "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp",
		"ax",	  "bx",	 "cx",	"dx",  "si",  "di",  "bp",  "sp",
		"al",	  "bl",	 "cl",	"dl",  "ah",  "bh",  "ch",  "dh",
		"eflags", "cs",	 "ss",	"ds",  "es",  "fs",  "gs",  NULL
	};
	static const char *const amd64[] = {
		"rax", "rbx", "rcx", "rdx", "rsi", "rdi",     "rbp",	 "rsp",
		"rip", "sil", "dil", "bpl", "spl", "fs_base", "gs_base", NULL
	};
	static const char *const arm[] = { "sp", "lr", "pc", "fp",
					   "ip", "sl", "sb", NULL };
	static const char *const a64[] = {
		"sp", "pc", "fp", "lr", "cpsr", NULL
	};

	switch (a) {
	case SDT_ARCH_X86_64:
		if (in_list(r, amd64) || numbered(r, "r", 8, 15, "") ||
		    numbered(r, "r", 8, 15, "d") ||
		    numbered(r, "r", 8, 15, "w") ||
		    numbered(r, "r", 8, 15, "l") ||
		    numbered(r, "xmm", 0, 15, "") ||
		    numbered(r, "ymm", 0, 15, ""))
			return 1;
		/* fall through */
	case SDT_ARCH_I386:
		return in_list(r, x86) || numbered(r, "eip", 0, 0, "") ||
		       !strcmp(r, "eip") || numbered(r, "st", 0, 7, "") ||
		       numbered(r, "xmm", 0, 7, "");
	case SDT_ARCH_AARCH64:
		if (in_list(r, a64))
			return 1;
		if (numbered(r, "x", 0, 30, "") || numbered(r, "w", 0, 30, ""))
			return 1;
		for (const char *p = "vqdshb"; *p; p++) {
			char pre[2] = { *p, 0 };
			if (numbered(r, pre, 0, 31, ""))
				return 1;
		}
		return 0;
	case SDT_ARCH_ARM:
		return numbered(r, "r", 0, 15, "") || in_list(r, arm) ||
		       numbered(r, "a", 1, 4, "") || numbered(r, "v", 1, 8, "");
	default:
		return 0;
	}
}

struct cur {
	const char *p;
	const char *end;
};

static int c_eat(struct cur *c, char ch)
{
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return 1;
	}
	return 0;
}

static int c_int(struct cur *c)
{
	const char *p = c->p;

	if (p < c->end && *p == '-')
		p++;
	if (p >= c->end || !isdigit((unsigned char)*p))
		return 0;
	while (p < c->end && isdigit((unsigned char)*p))
		p++;
	c->p = p;
	return 1;
}

static int c_name(struct cur *c, char *buf, size_t len)
{
	size_t n = 0;

	while (c->p + n < c->end &&
	       (isalnum((unsigned char)c->p[n]) || c->p[n] == '_'))
		n++;
	if (!n || n >= len)
		return 0;
	memcpy(buf, c->p, n);
	buf[n] = 0;
	c->p += n;
	return 1;
}

/* A %reg (x86, s390x) known to gdb; sets WHY when it is not. */
static int gdb_pct_reg(enum sdt_arch a, struct cur *c, char *why, size_t len)
{
	char r[32];

	if (!c_eat(c, '%') || !c_name(c, r, sizeof(r))) {
		snprintf(why, len, "expected %%register");
		return 0;
	}
	if (a == SDT_ARCH_S390X ? numbered(r, "r", 0, 15, "")
				: gdb_reg_ok(a, r))
		return 1;
	snprintf(why, len, "invalid register name `%s'", r);
	return 0;
}

static int gdb_x86_op(enum sdt_arch a, struct cur *c, char *why, size_t len)
{
	if (c_eat(c, '$')) {
		if (!c_int(c)) {
			snprintf(why, len, "constant is not a decimal number");
			return 0;
		}
		return 1;
	}
	if (c->p < c->end && *c->p == '%')
		return gdb_pct_reg(a, c, why, len);
	if (c->p < c->end && (isalpha((unsigned char)*c->p) || *c->p == '_')) {
		snprintf(why, len, "cannot parse a symbol operand");
		return 0;
	}
	c_int(c);
	if (!c_eat(c, '(')) {
		snprintf(why, len, "cannot parse the operand");
		return 0;
	}
	if (!gdb_pct_reg(a, c, why, len))
		return 0;
	if (c_eat(c, ',')) {
		if (!gdb_pct_reg(a, c, why, len))
			return 0;
		if (c_eat(c, ',') && !c_int(c)) {
			snprintf(why, len, "bad scale");
			return 0;
		}
	}
	if (!c_eat(c, ')')) {
		snprintf(why, len, "expected `)'");
		return 0;
	}
	return 1;
}

static int gdb_bare_reg(enum sdt_arch a, struct cur *c, char *why, size_t len)
{
	char r[32];

	if (!c_name(c, r, sizeof(r))) {
		snprintf(why, len, "expected a register");
		return 0;
	}
	if (gdb_reg_ok(a, r))
		return 1;
	snprintf(why, len, "invalid register name `%s'", r);
	return 0;
}

/* aarch64 and arm: reg, #imm (aarch64 also bare imm), [reg, #?imm]. */
static int gdb_arm_op(enum sdt_arch a, struct cur *c, char *why, size_t len)
{
	if (c_eat(c, '#') ||
	    (a == SDT_ARCH_AARCH64 && c->p < c->end &&
	     (isdigit((unsigned char)*c->p) || *c->p == '-'))) {
		if (c_int(c))
			return 1;
		snprintf(why, len, "constant is not a decimal number");
		return 0;
	}
	if (!c_eat(c, '['))
		return gdb_bare_reg(a, c, why, len);
	if (!gdb_bare_reg(a, c, why, len))
		return 0;
	if (c_eat(c, ',')) {
		while (c_eat(c, ' '))
			;
		if (!c_eat(c, '#') && a == SDT_ARCH_ARM) {
			snprintf(why, len, "expected #offset");
			return 0;
		}
		if (!c_int(c)) {
			snprintf(why, len, "bad offset");
			return 0;
		}
	}
	if (!c_eat(c, ']')) {
		snprintf(why, len, "expected `]'");
		return 0;
	}
	return 1;
}

static int gdb_ppc_regnum(struct cur *c)
{
	const char *p = c->p;
	char r[8];
	size_t n = 0;

	if (c->end - p >= 2 && p[0] == '%' && p[1] == 'r')
		p += 2;
	else if (p < c->end && *p == 'r')
		p++;
	while (p + n < c->end && isdigit((unsigned char)p[n]) && n < 3)
		n++;
	if (!n)
		return 0;
	memcpy(r, p, n);
	r[n] = 0;
	if (atoi(r) > 31 || (r[0] == '0' && n > 1))
		return 0;
	c->p = p + n;
	return 1;
}

static int gdb_ppc_op(struct cur *c, char *why, size_t len)
{
	struct cur save = *c;

	if (c_eat(c, 'i')) {
		if (c_int(c))
			return 1;
		snprintf(why, len, "bad constant");
		return 0;
	}
	if (c_int(c) && c_eat(c, '(')) {
		if (gdb_ppc_regnum(c) && c_eat(c, ')'))
			return 1;
		snprintf(why, len, "bad memory operand");
		return 0;
	}
	*c = save;
	if (gdb_ppc_regnum(c))
		return 1;
	snprintf(why, len, "cannot parse the operand");
	return 0;
}

static int gdb_s390_op(struct cur *c, char *why, size_t len)
{
	if (c->p < c->end && *c->p == '%')
		return gdb_pct_reg(SDT_ARCH_S390X, c, why, len);
	int had = c_int(c);
	if (!c_eat(c, '(')) {
		if (had)
			return 1;
		snprintf(why, len, "cannot parse the operand");
		return 0;
	}
	if (!gdb_pct_reg(SDT_ARCH_S390X, c, why, len))
		return 0;
	if (!c_eat(c, ')')) {
		snprintf(why, len,
			 "expected `)' (index registers are not read)");
		return 0;
	}
	return 1;
}

static int gdb_check(enum sdt_arch a, const char *spec, struct verdict *v)
{
	size_t pos = 0, start, len;
	int argn = 0;

	while (sdt_arg_split(spec, &pos, &start, &len)) {
		struct cur c = { spec + start, spec + start + len };
		char why[160] = "";
		int ok;

		if (a == SDT_ARCH_RISCV64 || a == SDT_ARCH_UNKNOWN)
			return refuse(
				v, -1,
				"gdb 13 cannot evaluate probe arguments on %s",
				sdt_arch_name(a));
		/* Only "N@" or "-N@", N one digit, is taken as a size. */
		if ((len >= 3 && c.p[0] == '-' &&
		     isdigit((unsigned char)c.p[1]) && c.p[2] == '@') ||
		    (len >= 2 && isdigit((unsigned char)c.p[0]) &&
		     c.p[1] == '@')) {
			char d = c.p[0] == '-' ? c.p[1] : c.p[0];
			if (d != '1' && d != '2' && d != '4' && d != '8')
				return refuse(
					v, -1,
					ARGFMT
					": unrecognized size `%c'; gdb "
					"shows the probe with no arguments",
					argn, (int)len, spec + start, d);
			c.p += c.p[0] == '-' ? 3 : 2;
		} else if (len >= 2 && isdigit((unsigned char)c.p[0]) &&
			   memchr(c.p, '@', len)) {
			return refuse(v, -1,
				      ARGFMT
				      ": size not a single digit 1/2/4/8; gdb "
				      "shows the probe with no arguments",
				      argn, (int)len, spec + start);
		}
		switch (a) {
		case SDT_ARCH_X86_64:
		case SDT_ARCH_I386:
			ok = gdb_x86_op(a, &c, why, sizeof(why));
			break;
		case SDT_ARCH_AARCH64:
		case SDT_ARCH_ARM:
			ok = gdb_arm_op(a, &c, why, sizeof(why));
			break;
		case SDT_ARCH_PPC64LE:
		case SDT_ARCH_PPC64:
			ok = gdb_ppc_op(&c, why, sizeof(why));
			break;
		default:
			ok = gdb_s390_op(&c, why, sizeof(why));
			break;
		}
		if (ok && c.p != c.end) {
			ok = 0;
			snprintf(why, sizeof(why), "cannot parse `%.*s'",
				 (int)(c.end - c.p), c.p);
		}
		if (!ok)
			return refuse(
				v, -1,
				ARGFMT
				": %s; gdb shows the probe with no arguments",
				argn, (int)len, spec + start, why);
		argn++;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* perf                                                                */

struct rename {
	const char *from;
	const char *to;
};

/* perf's x86 sdt_rename_register() table, the rNN rows folded below. */
static const struct rename perf_x86_rename[] = {
	{ "eax", "ax" }, { "rax", "ax" }, { "al", "ax" },  { "ah", "ax" },
	{ "ebx", "bx" }, { "rbx", "bx" }, { "bl", "bx" },  { "bh", "bx" },
	{ "ecx", "cx" }, { "rcx", "cx" }, { "cl", "cx" },  { "ch", "cx" },
	{ "edx", "dx" }, { "rdx", "dx" }, { "dl", "dx" },  { "dh", "dx" },
	{ "esi", "si" }, { "rsi", "si" }, { "sil", "si" }, { "edi", "di" },
	{ "rdi", "di" }, { "dil", "di" }, { "ebp", "bp" }, { "rbp", "bp" },
	{ "bpl", "bp" }, { "rsp", "sp" }, { "esp", "sp" }, { "spl", "sp" },
	{ NULL, NULL },
};

/* Names the kernel's x86 fetch-args know (regs_query_register_offset). */
static int kernel_x86_reg(enum sdt_arch a, const char *r)
{
	static const char *const names[] = {
		"ax",	 "bx", "cx", "dx", "si", "di", "bp", "sp",	"ip",
		"flags", "cs", "ss", "ds", "es", "fs", "gs", "orig_ax", NULL
	};

	return in_list(r, names) ||
	       (a == SDT_ARCH_X86_64 && numbered(r, "r", 8, 15, ""));
}

static int is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * perf's x86 operand regex, ^[+-]?[0-9]*\(?%[a-z][a-z0-9]+\)?$, by hand
 * (compiling it per argument was most of --check's time): the register
 * name after `%' into REG, or 0 when the operand does not match.
 */
static int perf_x86_match(const char *op, char *reg, size_t len)
{
	const char *p = op, *name;

	if (*p == '+' || *p == '-')
		p++;
	while (is_digit(*p))
		p++;
	if (*p == '(')
		p++;
	if (*p != '%' || !is_lower(p[1]))
		return 0;
	name = ++p;
	for (p++; is_lower(*p) || is_digit(*p); p++)
		;
	if (p - name < 2)
		return 0;
	if ((size_t)(p - name) >= len)
		return 0;
	snprintf(reg, len, "%.*s", (int)(p - name), name);
	if (*p == ')')
		p++;
	return *p == 0;
}

static int perf_x86_op(enum sdt_arch a, const char *op, char *why, size_t len)
{
	char reg[32];

	/* perf also skips registers of more than five letters. */
	if (strchr(op, ',') || strchr(op, '$') ||
	    !perf_x86_match(op, reg, sizeof(reg)) || strlen(reg) > 5) {
		snprintf(why, len, "skipped: not recorded");
		return 0;
	}
	for (const struct rename *t = perf_x86_rename; t->from; t++) {
		if (!strcmp(reg, t->from)) {
			snprintf(reg, sizeof(reg), "%s", t->to);
			break;
		}
	}
	if (numbered(reg, "r", 8, 15, "b") || numbered(reg, "r", 8, 15, "w") ||
	    numbered(reg, "r", 8, 15, "d"))
		reg[strlen(reg) - 1] = 0;
	if (kernel_x86_reg(a, reg))
		return 1;
	snprintf(why, len,
		 "the kernel knows no register %%%s: perf cannot add the event",
		 reg);
	return 0;
}

static int perf_aarch64_op(const char *op, char *why, size_t len)
{
	if (rx_match("^[xw][0-9]{1,2}$", op) > 0) {
		if (op[0] == 'x' && numbered(op, "x", 0, 30, ""))
			return 1;
		snprintf(why, len,
			 "the kernel knows no register %%%.40s: perf cannot "
			 "add the event",
			 op);
		return 0;
	}
	if (rx_match("^\\[sp(, )?([0-9]+)?\\]$", op) > 0)
		return 1;
	snprintf(why, len, "skipped: not recorded");
	return 0;
}

static int perf_ppc_op(const char *op, char *why, size_t len)
{
	if (rx_match("^(%r)?([1-2]?[0-9]|3[0-1])$", op) > 0 ||
	    rx_match("^(-)?([0-9]+)\\((%r)?([1-2]?[0-9]|3[0-1])\\)$", op) > 0)
		return 1;
	snprintf(why, len, "skipped: not recorded");
	return 0;
}

/* Returns 1 when the spec empties perf's SDT cache for the whole file. */
static int perf_check(enum sdt_arch a, const char *spec, struct verdict *v)
{
	const char *s = spec;
	int argn = 0;

	while (*s) {
		char item[256], why[160] = "";
		const char *op;
		size_t n;
		int ok;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		n = strcspn(s, " \t\n");
		/* perf glues "-4@[sp," and "12]" back together (arm64). */
		if (n >= 4 && !strncmp(s + n - 4, "[sp,", 4) && s[n]) {
			size_t m = strspn(s + n, " \t\n");
			n += m + strcspn(s + n + m, " \t\n");
		}
		snprintf(item, sizeof(item), "%.*s", (int)n, s);
		s += n;
		op = strchr(item, '@');
		if (op) {
			long size = strtol(item, NULL, 10);
			if (size < -8 || size > 8) {
				refuse(v, argn,
				       "argument %d (`%s'): size %ld makes "
				       "perf "
				       "drop the SDT probes of the whole "
				       "binary",
				       argn, item, size);
				return 1;
			}
			op++;
		} else {
			op = item;
		}
		switch (a) {
		case SDT_ARCH_X86_64:
		case SDT_ARCH_I386:
			ok = perf_x86_op(a, op, why, sizeof(why));
			break;
		case SDT_ARCH_AARCH64:
			ok = perf_aarch64_op(op, why, sizeof(why));
			break;
		case SDT_ARCH_PPC64LE:
		case SDT_ARCH_PPC64:
			ok = perf_ppc_op(op, why, sizeof(why));
			break;
		default:
			ok = 0;
			snprintf(why, sizeof(why),
				 "skipped: perf has no SDT argument parser for "
				 "%s",
				 sdt_arch_name(a));
			break;
		}
		if (!ok && v->ok)
			refuse(v, argn, "argument %d (`%s'): %s", argn, item,
			       why);
		argn++;
	}
	return 0;
}

unsigned bpftrace_max_args(const struct sdt_target *t)
{
	return sdt_target_arg_regs(t);
}

int consumer_check(enum consumer c, const struct sdt_target *t,
		   const char *spec, struct verdict *v)
{
	enum sdt_arch a = sdt_target_arch(t);

	v->ok = 1;
	v->arg = -1;
	v->why[0] = 0;
	if (a == SDT_ARCH_UNKNOWN) {
		if (*spec)
			refuse(v, -1, "no model for machine %u", t->machine);
		return 0;
	}
	switch (c) {
	case CONSUMER_LIBBPF:
		return libbpf_check(a, spec, v);
	case CONSUMER_BCC:
		return bcc_check(a, spec, v);
	case CONSUMER_GDB:
		return gdb_check(a, spec, v);
	case CONSUMER_PERF:
		return perf_check(a, spec, v);
	default:
		return 0;
	}
}
