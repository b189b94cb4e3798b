/* SPDX-License-Identifier: MIT */
/*
 * gdb 13 (stap-probe.c + per-architecture prefixes and registers): an
 * optional single-digit size, then one operand; at an error gdb keeps
 * the arguments before the bad one and loses it and every later one. It rejects
 * %r8b..%r15b (its names are r8l..r15l), hex constants and symbols. No riscv64
 * support (gdb 16 and 18 have it; this column keeps gdb 13's answer).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consumers.h"

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

/*
 * gdb parses a probe's arguments in order and keeps those it parsed before
 * an error ($_probe_argc counts them; checked with gdb 13): the bad
 * argument and every later one are lost.
 */
static int gdb_refuse(struct verdict *v, int argn, const char *arg, int len,
		      const char *why)
{
	if (!argn)
		return refuse(v, argn,
			      ARGFMT ": %s; gdb shows the probe with no "
				     "arguments",
			      argn, len, arg, why);
	return refuse(v, argn,
		      ARGFMT ": %s; gdb reads only the %d argument%s before "
			     "it",
		      argn, len, arg, why, argn, argn == 1 ? "" : "s");
}

int gdb_check(enum sdt_arch a, const char *spec, struct verdict *v)
{
	size_t pos = 0, start, len;
	int argn = 0;

	if (*spec && (a == SDT_ARCH_RISCV64 || a == SDT_ARCH_UNKNOWN))
		return refuse(v, -1,
			      "gdb 13 cannot evaluate probe arguments on %s",
			      sdt_arch_name(a));
	while (sdt_arg_split(spec, &pos, &start, &len)) {
		struct cur c = { spec + start, spec + start + len };
		char why[160] = "";
		int ok;

		/* Only "N@" or "-N@", N one digit, is taken as a size. */
		if ((len >= 3 && c.p[0] == '-' &&
		     isdigit((unsigned char)c.p[1]) && c.p[2] == '@') ||
		    (len >= 2 && isdigit((unsigned char)c.p[0]) &&
		     c.p[1] == '@')) {
			char d = c.p[0] == '-' ? c.p[1] : c.p[0];
			if (d != '1' && d != '2' && d != '4' && d != '8') {
				snprintf(why, sizeof(why),
					 "unrecognized size `%c'", d);
				return gdb_refuse(v, argn, spec + start,
						  (int)len, why);
			}
			c.p += c.p[0] == '-' ? 3 : 2;
		} else if (len >= 2 && isdigit((unsigned char)c.p[0]) &&
			   memchr(c.p, '@', len)) {
			return gdb_refuse(v, argn, spec + start, (int)len,
					  "size not a single digit 1/2/4/8");
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
			return gdb_refuse(v, argn, spec + start, (int)len, why);
		argn++;
	}
	return 0;
}
