/* SPDX-License-Identifier: MIT */
/*
 * bcc 0.26 (src/cc/usdt/usdt_args.cc), which bpftrace 0.17 parses specs
 * with: a hand-written x86 parser (strtoull numbers, symbols, index
 * registers), aarch64, and regexes for ppc64 and s390x; other machines
 * fall back to the x86 parser. After a bad argument the x86 and aarch64
 * parsers lose every later one. What bpftrace then refuses of a parsed
 * argument is consumer-bpftrace.c's.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consumers.h"

static int is_ppc64(enum sdt_arch a)
{
	return a == SDT_ARCH_PPC64LE || a == SDT_ARCH_PPC64;
}

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
			return refuse(v, argn, "bcc cannot parse `%s'", s);
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

int bcc_check(enum sdt_arch a, const char *spec, struct verdict *v)
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
				      "cannot parse argument %d at `%s'%s; "
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
