/* SPDX-License-Identifier: MIT */
/*
 * perf (util/probe-file.c, arch/ * /util/perf_regs.c): a size outside
 * -8..8 empties perf's SDT cache for the whole binary; operands go through
 * a per-architecture regex (constants and anything else are silently
 * skipped: the argument is not recorded) and a register rename, and the
 * kernel must know the register or the event cannot be added.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consumers.h"

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

/*
 * An x86 operand as perf's SDT cache records it: the register renamed to
 * the kernel's name, and a memory operand's offset signed ("(%rax)" is
 * "+0(%ax)", "8(%rsp)" is "+8(%sp)"). CONV may be NULL.
 */
static int perf_x86_op(enum sdt_arch a, const char *op, char *why, size_t len,
		       char *conv, size_t convlen)
{
	char reg[32];
	const char *pct = strchr(op, '%');

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
	if (!kernel_x86_reg(a, reg)) {
		snprintf(why, len,
			 "the kernel knows no register %%%s: perf cannot add "
			 "the event",
			 reg);
		return 0;
	}
	if (!conv)
		return 1;
	if (!strchr(op, '('))
		snprintf(conv, convlen, "%%%s", reg);
	else
		snprintf(conv, convlen, "%s%.*s%%%s)",
			 op[0] == '('			 ? "+0"
			 : isdigit((unsigned char)op[0]) ? "+"
							 : "",
			 (int)(pct - op), op, reg);
	return 1;
}

static int perf_aarch64_op(const char *op, char *why, size_t len)
{
	if (rx_match("^[xw][0-9]{1,2}$", op) > 0) {
		if (op[0] == 'x' && numbered(op, "x", 0, 30, ""))
			return 1;
		snprintf(why, len,
			 "the kernel knows no register %%%.8s: perf cannot "
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
int perf_check(enum sdt_arch a, const char *spec, struct verdict *v)
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
			ok = perf_x86_op(a, op, why, sizeof(why), NULL, 0);
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

int perf_fetch_args(const struct sdt_target *t, const char *spec, char *buf,
		    size_t len, char *why, size_t whylen)
{
	enum sdt_arch a = sdt_target_arch(t);
	const char *s = spec;
	size_t used = 0;
	int argn = 0;

	buf[0] = 0;
	if (a != SDT_ARCH_X86_64 && a != SDT_ARCH_I386) {
		snprintf(why, whylen,
			 "sdt-list writes perf's fetch arguments for x86 only");
		return -1;
	}
	while (*s) {
		char item[256], conv[300], skip[160];
		const char *op;
		long size = 0;
		size_t n;
		int w;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		n = strcspn(s, " \t\n");
		snprintf(item, sizeof(item), "%.*s", (int)n, s);
		s += n;
		argn++;
		op = strchr(item, '@');
		if (op) {
			size = strtol(item, NULL, 10);
			op++;
		} else {
			op = item;
		}
		if (!perf_x86_op(a, op, skip, sizeof(skip), conv,
				 sizeof(conv))) {
			if (strncmp(skip, "skipped", 7)) {
				snprintf(why, whylen, "argument %d (`%s'): %s",
					 argn - 1, item, skip);
				return -1;
			}
			continue; /* perf leaves it out, keeping the number */
		}
		if (size)
			w = snprintf(buf + used, len - used, "%sarg%d=%s:%c%ld",
				     used ? " " : "", argn, conv,
				     size < 0 ? 's' : 'u', labs(size) * 8);
		else
			w = snprintf(buf + used, len - used, "%sarg%d=%s",
				     used ? " " : "", argn, conv);
		if (w < 0 || (size_t)w >= len - used) {
			snprintf(why, whylen, "its spec is too long");
			return -1;
		}
		used += (size_t)w;
	}
	return 0;
}
