/* SPDX-License-Identifier: MIT */
/*
 * Strict argument-spec parsing: the forms we promise every consumer can
 * read, per architecture, and nothing else.
 *
 * The operand grammar per machine (docs/formats.md, "Argument specs"):
 *   x86_64, i386  %reg   N(%reg)   (%reg)   $N
 *   aarch64       xN sp  [xN, N]   [xN]     N
 *   arm           rN     [rN, #N]  [rN]     #N
 *   riscv64       abi    N(abi)             N
 *   ppc64         N      N(N)               (constants go in registers)
 *   s390x         %rN    N(%rN)             N
 * Register names are checked against what libbpf, bcc, gdb and perf all
 * know; displacements and constants are decimal, as compilers print them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "em.h"
#include "errmsg.h"

/* Every parse error is -EINVAL with a reason. */
#define fail(err, errlen, ...) sdt_errf(err, errlen, -EINVAL, __VA_ARGS__)

/* PREFIX, then 0..MAX in decimal without leading zeros: "x30", "r12". */
static int numbered_reg(const char *r, char prefix, long max)
{
	char *end;

	if (r[0] != prefix || !isdigit((unsigned char)r[1]) ||
	    (r[1] == '0' && r[2]))
		return 0;
	long n = strtol(r + 1, &end, 10);
	return !*end && n <= max;
}

int sdt_arg_split(const char *spec, size_t *pos, size_t *start, size_t *len)
{
	size_t i = *pos;
	int depth = 0;

	while (spec[i] == ' ' || spec[i] == '\t')
		i++;
	if (!spec[i]) {
		*pos = i;
		return 0;
	}
	*start = i;
	/* "[x1, 8]" holds a space: only spaces outside brackets separate. */
	for (; spec[i]; i++) {
		if (spec[i] == '[' || spec[i] == '(')
			depth++;
		else if ((spec[i] == ']' || spec[i] == ')') && depth > 0)
			depth--;
		else if ((spec[i] == ' ' || spec[i] == '\t') && depth == 0)
			break;
	}
	*len = i - *start;
	*pos = i;
	return 1;
}

/* A cursor over one argument's text. */
struct cur {
	const char *p;
	const char *end;
};

static int at_end(const struct cur *c)
{
	return c->p >= c->end;
}

static int eat(struct cur *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
		return 0;
	c->p += n;
	return 1;
}

/* A decimal integer with optional sign; no leading zeros beyond "0". */
static int take_int(struct cur *c, int64_t *v)
{
	const char *p = c->p;
	int neg = 0;
	uint64_t acc = 0;

	if (p < c->end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	const char *digits = p;
	while (p < c->end && isdigit((unsigned char)*p)) {
		unsigned d = (unsigned)(*p - '0');
		if (acc > (UINT64_MAX - d) / 10)
			return 0;
		acc = acc * 10 + d;
		p++;
	}
	if (p == digits)
		return 0;
	/* Reject "0x10": hex is not what compilers emit, and not all read it.
	 */
	if (p < c->end && isalpha((unsigned char)*p))
		return 0;
	if (neg ? acc > (uint64_t)INT64_MAX + 1 : acc > (uint64_t)UINT64_MAX)
		return 0;
	*v = neg ? (int64_t)(0 - acc) : (int64_t)acc;
	c->p = p;
	return 1;
}

/* Letters and digits: a register name's characters. */
static int take_name(struct cur *c, char *buf, size_t len)
{
	size_t n = 0;

	while (c->p + n < c->end && isalnum((unsigned char)c->p[n]))
		n++;
	if (n == 0 || n >= len)
		return 0;
	memcpy(buf, c->p, n);
	buf[n] = 0;
	c->p += n;
	return 1;
}

/* The operand is a register name; WHY names what was missing. */
static int reg_operand(struct cur *c, struct sdt_arg *a, const char *why,
		       char *err, size_t errlen)
{
	a->kind = SDT_ARG_REG;
	if (!take_name(c, a->reg, sizeof(a->reg)))
		return fail(err, errlen, "%s", why);
	return 0;
}

/* The operand is a decimal constant; WHY says what else it may be. */
static int const_operand(struct cur *c, struct sdt_arg *a, const char *why,
			 char *err, size_t errlen)
{
	a->kind = SDT_ARG_CONST;
	if (!take_int(c, &a->value))
		return fail(err, errlen, "constant is not a decimal number%s",
			    why);
	return 0;
}

static int in_list(const char *name, const char *const *list)
{
	for (; *list; list++) {
		if (strcmp(name, *list) == 0)
			return 1;
	}
	return 0;
}

/* Register widths for x86: 8, 4, 2 or 1 byte views; 0 if unknown. */
static unsigned x86_reg_width(const char *r, int is64)
{
	static const char *const r64[] = { "rax", "rbx", "rcx", "rdx", "rsi",
					   "rdi", "rbp", "rsp", NULL };
	static const char *const r32[] = { "eax", "ebx", "ecx", "edx", "esi",
					   "edi", "ebp", "esp", NULL };
	static const char *const r16[] = { "ax", "bx", "cx", "dx", "si",
					   "di", "bp", "sp", NULL };
	static const char *const r8[] = { "al", "bl", "cl", "dl", NULL };
	static const char *const r8x[] = { "sil", "dil", "bpl", "spl", NULL };

	if (in_list(r, r32))
		return 4;
	if (in_list(r, r16))
		return 2;
	if (in_list(r, r8))
		return 1;
	if (!is64)
		return 0;
	if (in_list(r, r64))
		return 8;
	if (in_list(r, r8x))
		return 1;
	/* r8..r15 with d/w suffixes; the b suffix is refused (gdb 13). */
	if (r[0] == 'r' && isdigit((unsigned char)r[1])) {
		char *end;
		long n = strtol(r + 1, &end, 10);
		if (n < 8 || n > 15)
			return 0;
		if (!*end)
			return 8;
		if (!strcmp(end, "d"))
			return 4;
		if (!strcmp(end, "w"))
			return 2;
	}
	return 0;
}

static int x86_reg(struct cur *c, struct sdt_arg *a, int is64, char *err,
		   size_t errlen, unsigned *width)
{
	if (!eat(c, "%"))
		return fail(err, errlen, "expected a %%register");
	if (!take_name(c, a->reg, sizeof(a->reg)))
		return fail(err, errlen, "expected a register name after %%");
	*width = x86_reg_width(a->reg, is64);
	if (!*width) {
		if (!strcmp(a->reg, "rip") || !strcmp(a->reg, "eip"))
			return fail(err, errlen,
				    "instruction-pointer-relative operand");
		if (!strncmp(a->reg, "xmm", 3) || !strncmp(a->reg, "ymm", 3) ||
		    !strncmp(a->reg, "st", 2))
			return fail(err, errlen,
				    "vector or float register %%%s", a->reg);
		if (!strcmp(a->reg, "fs") || !strcmp(a->reg, "gs"))
			return fail(err, errlen, "segment register %%%s",
				    a->reg);
		return fail(err, errlen,
			    "register %%%s is not one every consumer knows",
			    a->reg);
	}
	return 0;
}

static int parse_x86(struct cur *c, struct sdt_arg *a, int is64, char *err,
		     size_t errlen)
{
	unsigned width;
	int r;

	if (eat(c, "$"))
		return const_operand(c, a, " (symbol or relocation?)", err,
				     errlen);
	if (c->p < c->end && *c->p == '%') {
		a->kind = SDT_ARG_REG;
		if ((r = x86_reg(c, a, is64, err, errlen, &width)))
			return r;
		if (c->p < c->end && *c->p == ':')
			return fail(err, errlen, "segment-prefixed operand");
		if (a->size > width)
			return fail(
				err, errlen,
				"%u-byte value in the %u-byte register %%%s",
				a->size, width, a->reg);
		return 0;
	}
	a->kind = SDT_ARG_MEM;
	a->value = 0;
	/* "mp_(%rip)", "mp_+8(%rip)", and glibc 2.43's "8+mp_(%rip)". */
	if ((c->p < c->end && *c->p != '(' && !take_int(c, &a->value)) ||
	    (c->p < c->end && (*c->p == '+' || *c->p == '-')))
		return fail(err, errlen,
			    "memory operand with a symbol or relocation");
	if (!eat(c, "("))
		return fail(err, errlen,
			    "expected (%%reg) after the displacement");
	if ((r = x86_reg(c, a, is64, err, errlen, &width)))
		return r;
	if (width != (is64 ? 8u : 4u))
		return fail(err, errlen,
			    "base register %%%s is not address-sized", a->reg);
	if (c->p < c->end && *c->p == ',')
		return fail(err, errlen, "index register in a memory operand");
	if (!eat(c, ")"))
		return fail(err, errlen, "expected ) after the base register");
	return 0;
}

/* After "[": "reg]" or "reg, IMMn]" (IMM: "" on aarch64, "#" on arm). */
static int parse_bracket(struct cur *c, struct sdt_arg *a, const char *imm,
			 char *err, size_t errlen)
{
	a->kind = SDT_ARG_MEM;
	a->value = 0;
	if (!take_name(c, a->reg, sizeof(a->reg)))
		return fail(err, errlen, "expected a base register");
	if (eat(c, ", ") && (!eat(c, imm) || !take_int(c, &a->value)))
		return fail(err, errlen, "expected %sN, a decimal offset", imm);
	if (!eat(c, "]"))
		return fail(err, errlen,
			    "expected ] (index and writeback forms are not "
			    "read by every consumer)");
	return 0;
}

/* aarch64 and arm: a register, or "[reg]" or "[reg, IMMn]". */
static int bracket_or_reg(struct cur *c, struct sdt_arg *a, const char *imm,
			  char *err, size_t errlen)
{
	if (eat(c, "["))
		return parse_bracket(c, a, imm, err, errlen);
	return reg_operand(c, a, "expected a register", err, errlen);
}

static int parse_aarch64(struct cur *c, struct sdt_arg *a, char *err,
			 size_t errlen)
{
	int r;

	if (c->p < c->end && (isdigit((unsigned char)*c->p) || *c->p == '-'))
		return const_operand(c, a, "", err, errlen);
	r = bracket_or_reg(c, a, "", err, errlen);
	if (r)
		return r;
	if (!strcmp(a->reg, "sp") || numbered_reg(a->reg, 'x', 30))
		return 0;
	if (a->reg[0] == 'v' || a->reg[0] == 'd' || a->reg[0] == 's' ||
	    a->reg[0] == 'q')
		return fail(err, errlen, "vector or float register %s", a->reg);
	return fail(err, errlen, "register %s is not one every consumer knows",
		    a->reg);
}

static int arm_reg_ok(const char *r)
{
	static const char *const names[] = { "fp", "ip", "sp", "lr", NULL };

	return in_list(r, names) || numbered_reg(r, 'r', 12);
}

static int parse_arm(struct cur *c, struct sdt_arg *a, char *err, size_t errlen)
{
	int r;

	if (eat(c, "#"))
		return const_operand(c, a, "", err, errlen);
	r = bracket_or_reg(c, a, "#", err, errlen);
	if (r)
		return r;
	if (!arm_reg_ok(a->reg))
		return fail(err, errlen,
			    "register %s is not one every consumer knows",
			    a->reg);
	return 0;
}

static int riscv_reg_ok(const char *r)
{
	static const char *const names[] = {
		"zero", "ra",  "sp", "gp", "tp", "t0", "t1", "t2", "s0",
		"fp",	"s1",  "a0", "a1", "a2", "a3", "a4", "a5", "a6",
		"a7",	"s2",  "s3", "s4", "s5", "s6", "s7", "s8", "s9",
		"s10",	"s11", "t3", "t4", "t5", "t6", NULL
	};
	return in_list(r, names);
}

static int parse_riscv(struct cur *c, struct sdt_arg *a, char *err,
		       size_t errlen)
{
	int64_t v;

	if (c->p < c->end && (isdigit((unsigned char)*c->p) || *c->p == '-')) {
		if (!take_int(c, &v))
			return fail(err, errlen, "expected a decimal number");
		a->value = v;
		if (!eat(c, "(")) {
			a->kind = SDT_ARG_CONST;
			return 0;
		}
		a->kind = SDT_ARG_MEM;
		if (!take_name(c, a->reg, sizeof(a->reg)) || !eat(c, ")"))
			return fail(err, errlen, "expected (register)");
	} else if (reg_operand(c, a, "symbol or unknown operand", err,
			       errlen)) {
		return -EINVAL;
	}
	if (!riscv_reg_ok(a->reg))
		return fail(err, errlen,
			    "register %s is not an integer ABI register",
			    a->reg);
	return 0;
}

static int parse_ppc(struct cur *c, struct sdt_arg *a, char *err, size_t errlen)
{
	int64_t v, r;

	if (!take_int(c, &v))
		return fail(err, errlen, "expected a register number or N(N)");
	if (eat(c, "(")) {
		if (!take_int(c, &r) || !eat(c, ")"))
			return fail(err, errlen, "expected (register number)");
		a->kind = SDT_ARG_MEM;
		a->value = v;
	} else {
		a->kind = SDT_ARG_REG;
		r = v;
		a->value = 0;
	}
	if (r < 0 || r > 31)
		return fail(err, errlen, "%lld is not a general register",
			    (long long)r);
	snprintf(a->reg, sizeof(a->reg), "%d", (int)r);
	return 0;
}

static int s390_reg(struct cur *c, struct sdt_arg *a, char *err, size_t errlen)
{
	if (!eat(c, "%") || !take_name(c, a->reg, sizeof(a->reg)))
		return fail(err, errlen, "expected %%rN");
	if (numbered_reg(a->reg, 'r', 15))
		return 0;
	return fail(err, errlen, "register %%%s is not a general register",
		    a->reg);
}

static int parse_s390(struct cur *c, struct sdt_arg *a, char *err,
		      size_t errlen)
{
	if (c->p < c->end && *c->p == '%') {
		a->kind = SDT_ARG_REG;
		return s390_reg(c, a, err, errlen);
	}
	if (!take_int(c, &a->value))
		return fail(err, errlen, "symbol or unknown operand");
	if (!eat(c, "(")) {
		a->kind = SDT_ARG_CONST;
		return 0;
	}
	a->kind = SDT_ARG_MEM;
	int r = s390_reg(c, a, err, errlen);
	if (r)
		return r;
	if (c->p < c->end && *c->p == ',')
		return fail(err, errlen, "index register in a memory operand");
	if (!eat(c, ")"))
		return fail(err, errlen, "expected )");
	return 0;
}

static int parse_x86_64(struct cur *c, struct sdt_arg *a, char *err,
			size_t errlen)
{
	return parse_x86(c, a, 1, err, errlen);
}

static int parse_i386(struct cur *c, struct sdt_arg *a, char *err,
		      size_t errlen)
{
	return parse_x86(c, a, 0, err, errlen);
}

/*
 * How each architecture's assembler writes operands: the parser for what
 * we accept, and the formats we write back (an immediate, a register, a
 * memory operand with its displacement after or, REG_FIRST, before it).
 * CLASS 0 matches both classes; x32 has the 4-byte addresses of i386.
 */
static const struct syntax {
	uint16_t machine;
	unsigned char elf_class;
	int (*parse)(struct cur *c, struct sdt_arg *a, char *err,
		     size_t errlen);
	const char *imm, *reg, *mem;
	int reg_first;
} syntaxes[] = {
	{ EM_X86_64, ELFCLASS64, parse_x86_64, "$%lld", "%%%s", "%lld(%%%s)",
	  0 },
	{ EM_X86_64, ELFCLASS32, parse_i386, "$%lld", "%%%s", "%lld(%%%s)", 0 },
	{ EM_386, 0, parse_i386, "$%lld", "%%%s", "%lld(%%%s)", 0 },
	{ EM_AARCH64, 0, parse_aarch64, "%lld", "%s", "[%s, %lld]", 1 },
	{ EM_ARM, 0, parse_arm, "#%lld", "%s", "[%s, #%lld]", 1 },
	{ EM_RISCV, 0, parse_riscv, "%lld", "%s", "%lld(%s)", 0 },
	{ EM_PPC64, 0, parse_ppc, "%lld", "%s", "%lld(%s)", 0 },
	{ EM_S390, 0, parse_s390, "%lld", "%%%s", "%lld(%%%s)", 0 },
};

static const struct syntax *syntax_of(const struct sdt_target *t)
{
	for (size_t i = 0; i < sizeof(syntaxes) / sizeof(syntaxes[0]); i++) {
		const struct syntax *s = &syntaxes[i];

		if (s->machine == t->machine &&
		    (!s->elf_class || s->elf_class == t->elf_class))
			return s;
	}
	return NULL;
}

int sdt_arg_parse(const struct sdt_target *t, const char *text, size_t len,
		  struct sdt_arg *a, char *err, size_t errlen)
{
	struct cur c = { text, text + len };
	int64_t size;
	int r;

	memset(a, 0, sizeof(*a));
	const char *at = memchr(text, '@', len);
	if (at && at > text && at[-1] == 'f')
		return fail(
			err, errlen,
			"float size suffix `f' is not read by every consumer");
	if (!take_int(&c, &size) || !eat(&c, "@"))
		return fail(err, errlen, "expected [-]SIZE@OPERAND");
	a->is_signed = size < 0;
	a->size = (unsigned)(size < 0 ? -size : size);
	if (a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8)
		return fail(err, errlen, "size %u is not 1, 2, 4 or 8",
			    a->size);
	if (at_end(&c))
		return fail(err, errlen, "missing operand");

	const struct syntax *syn = syntax_of(t);
	if (!syn)
		return fail(err, errlen, "no argument syntax known for %s",
			    sdt_target_name(t));
	r = syn->parse(&c, a, err, errlen);
	if (r)
		return r;
	if (!at_end(&c))
		return fail(err, errlen, "unexpected `%.*s' after the operand",
			    (int)(c.end - c.p), c.p);
	if (a->kind == SDT_ARG_REG && a->size == 8 &&
	    t->elf_class == ELFCLASS32)
		return fail(err, errlen,
			    "8-byte value in one register of a 32-bit target");
	return 0;
}

int sdt_args_parse(const struct sdt_target *t, const char *spec,
		   struct sdt_arg *args, unsigned max, char *err, size_t errlen)
{
	size_t pos = 0, start, len;
	unsigned n = 0;
	char why[160];

	while (sdt_arg_split(spec, &pos, &start, &len)) {
		if (n >= max) {
			fail(err, errlen, "more than %u arguments", max);
			return -E2BIG;
		}
		if (sdt_arg_parse(t, spec + start, len, &args[n], why,
				  sizeof(why)))
			return fail(err, errlen, "argument %u (`%.*s'): %s",
				    n + 1, (int)len, spec + start, why);
		n++;
	}
	return (int)n;
}

int sdt_arg_format(const struct sdt_target *t, const struct sdt_arg *a,
		   char *buf, size_t len)
{
	/* Unknown machines: N, reg, N(reg), which most assemblers write. */
	static const struct syntax plain = { 0,	   0,	       NULL, "%lld",
					     "%s", "%lld(%s)", 0 };
	const struct syntax *syn = syntax_of(t);
	long long v = (long long)a->value;
	int n = snprintf(buf, len, "%s%u@", a->is_signed ? "-" : "", a->size);
	int m;

	if (!syn)
		syn = &plain;
	if (n < 0 || (size_t)n >= len)
		return -ERANGE;
	if (a->kind == SDT_ARG_CONST)
		m = snprintf(buf + n, len - n, syn->imm, v);
	else if (a->kind == SDT_ARG_REG)
		m = snprintf(buf + n, len - n, syn->reg, a->reg);
	else if (syn->reg_first)
		m = snprintf(buf + n, len - n, syn->mem, a->reg, v);
	else
		m = snprintf(buf + n, len - n, syn->mem, v, a->reg);
	if (m < 0 || (size_t)m >= len - n)
		return -ERANGE;
	return n + m;
}
