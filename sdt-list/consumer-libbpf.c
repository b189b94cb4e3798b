/* SPDX-License-Identifier: MIT */
/*
 * libbpf 1.1 (src/usdt.c, parse_usdt_arg): a few sscanf() patterns per
 * architecture, tried in order over the rest of the spec, then a register
 * table. We run the same patterns through sscanf(), so its quirks (what
 * %ld stops at, %15s) are the real ones. No ppc64 parser. libbpf 1.5 reads
 * the same; libbpf 1.6 on (1.7 in Debian unstable, under bpftrace 0.25
 * and later) first tries four x86 patterns with an index register
 * (`8@-96(%rbp,%rax,8)'): the `sib' forms below.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consumers.h"

enum scan_layout {
	SZ_OFF_REG,	      /* size, displacement, register name */
	SZ_REG_OFF,	      /* size, register name, displacement */
	SZ_REG,		      /* size, register name */
	SZ_OFF,		      /* size, constant */
	SZ_OFF_NUM,	      /* size, displacement, register number */
	SZ_NUM,		      /* size, register number */
	SZ_OFF_REG_IDX_SCALE, /* size, displacement, base, index, scale */
	SZ_REG_IDX_SCALE,     /* size, base, index, scale */
	SZ_OFF_REG_IDX,	      /* size, displacement, base, index */
	SZ_REG_IDX,	      /* size, base, index */
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

/* libbpf 1.6 on: the index-register forms, then the others. */
static const struct scan_form libbpf_x86_sib[] = {
	{ " %d @ %ld ( %%%15[^,] , %%%15[^,] , %d ) %n", SZ_OFF_REG_IDX_SCALE,
	  5 },
	{ " %d @ ( %%%15[^,] , %%%15[^,] , %d ) %n", SZ_REG_IDX_SCALE, 4 },
	{ " %d @ %ld ( %%%15[^,] , %%%15[^)] ) %n", SZ_OFF_REG_IDX, 4 },
	{ " %d @ ( %%%15[^,] , %%%15[^)] ) %n", SZ_REG_IDX, 3 },
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

static const struct scan_form *libbpf_forms(enum sdt_arch a, int sib)
{
	switch (a) {
	case SDT_ARCH_X86_64:
	case SDT_ARCH_I386:
		return sib ? libbpf_x86_sib : libbpf_x86;
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
	char reg[16], idx[16];
	int size, len, scale;
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
		case SZ_OFF_REG_IDX_SCALE:
			got = sscanf(s, f->fmt, &sc->size, &sc->off, sc->reg,
				     sc->idx, &sc->scale, &sc->len);
			break;
		case SZ_REG_IDX_SCALE:
			got = sscanf(s, f->fmt, &sc->size, sc->reg, sc->idx,
				     &sc->scale, &sc->len);
			break;
		case SZ_OFF_REG_IDX:
			got = sscanf(s, f->fmt, &sc->size, &sc->off, sc->reg,
				     sc->idx, &sc->len);
			break;
		case SZ_REG_IDX:
			got = sscanf(s, f->fmt, &sc->size, sc->reg, sc->idx,
				     &sc->len);
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
	int has_idx = f->layout >= SZ_OFF_REG_IDX_SCALE;

	if ((f->layout == SZ_OFF_REG || f->layout == SZ_REG_OFF ||
	     f->layout == SZ_REG || has_idx) &&
	    !libbpf_reg_ok(a, sc->reg))
		return refuse(v, argn,
			      "argument %d: unrecognized register `%s'", argn,
			      sc->reg);
	if (has_idx && !libbpf_reg_ok(a, sc->idx))
		return refuse(v, argn,
			      "argument %d: unrecognized index register `%s'",
			      argn, sc->idx);
	if (has_idx && sc->scale != 1 && sc->scale != 2 && sc->scale != 4 &&
	    sc->scale != 8)
		return refuse(v, argn, "argument %d: invalid SIB scale %d",
			      argn, sc->scale);
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

int libbpf_check(enum sdt_arch a, const char *spec, int sib, struct verdict *v)
{
	const struct scan_form *forms = libbpf_forms(a, sib);
	const char *s = spec;

	for (int argn = 0; *s; argn++) {
		const struct scan_form *f;
		struct scanned sc = { .reg = "", .scale = 1 };

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
				      "argument %d: unrecognized spec `%s'",
				      argn, s);
		if (!libbpf_arg_ok(a, f, &sc, argn, v))
			return 0;
		s += sc.len;
	}
	return 0;
}
