/* SPDX-License-Identifier: MIT */
/*
 * One probe argument in words: "signed 4 bytes in register %edi".
 *
 * The core's strict parser (elfcore/argspec.c) decides whether an argument
 * is one of the forms every consumer reads; when it is, we describe the
 * parsed argument. Binaries built with other headers carry forms it
 * refuses (`8f@%xmm0', `-4@gi(%rip)', `16@...'): those we still describe,
 * from a lenient look at the text, and say why they are not portable, so
 * the listing never hides a probe behind an error.
 */
#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-list.h"

static void size_words(const struct arg_desc *d, char *buf, size_t len)
{
	int n = abs(d->size);

	if (!d->has_size)
		snprintf(buf, len, "size not given,");
	else if (d->is_float)
		snprintf(buf, len, "%d-byte float", n);
	else if (n == 1 || n == 2 || n == 4 || n == 8)
		snprintf(buf, len, "%s %d byte%s",
			 d->size < 0 ? "signed" : "unsigned", n,
			 n == 1 ? "" : "s");
	else
		snprintf(buf, len, "invalid size %d,", d->size);
}

/* How the target's assembler names a register, for the words. */
static void reg_words(const struct sdt_target *t, const char *reg, char *buf,
		      size_t len)
{
	switch (t->machine) {
	case EM_X86_64:
	case EM_386:
	case EM_S390:
		snprintf(buf, len, "%%%s", reg);
		break;
	case EM_PPC64:
		snprintf(buf, len, "r%s", reg);
		break;
	default:
		snprintf(buf, len, "%s", reg);
		break;
	}
}

/* Split "[-]N[f]@" off the front; returns the operand. */
static const char *take_size(struct arg_desc *d, const char *text)
{
	const char *p = text;
	char *end;
	long v;

	if (*p == '-' || *p == '+')
		p++;
	if (!isdigit((unsigned char)*p))
		return text;
	v = strtol(text, &end, 10);
	if (*end == 'f') {
		d->is_float = 1;
		end++;
	}
	if (*end != '@') {
		d->is_float = 0;
		return text;
	}
	d->has_size = 1;
	d->size = v < -1000 ? -1000 : v > 1000 ? 1000 : (int)v;
	return end + 1;
}

/* Lenient: what kind of operand the text looks like on this machine. */
static const char *guess_kind(const struct sdt_target *t, const char *op)
{
	int has_mem = strchr(op, '(') || strchr(op, '[');
	unsigned char c = (unsigned char)op[0];

	if (!c)
		return "unknown";
	switch (t->machine) {
	case EM_X86_64:
	case EM_386:
		if (c == '$')
			return "constant";
		if (has_mem || strchr(op, ':'))
			return "memory";
		return c == '%' ? "register" : "unknown";
	case EM_ARM:
		if (c == '#')
			return "constant";
		break;
	case EM_PPC64:
		if (c == 'i' && (isdigit((unsigned char)op[1]) || op[1] == '-'))
			return "constant";
		if (has_mem)
			return "memory";
		return isdigit(c) || c == '%' ? "register" : "unknown";
	default:
		break;
	}
	if (has_mem)
		return "memory";
	if (isdigit(c) || c == '-')
		return "constant";
	return isalpha(c) || c == '%' ? "register" : "unknown";
}

static void strict_words(const struct sdt_target *t, const struct sdt_arg *a,
			 const char *op, const char *sz, char *buf, size_t len)
{
	char reg[24];

	switch (a->kind) {
	case SDT_ARG_REG:
		reg_words(t, a->reg, reg, sizeof(reg));
		snprintf(buf, len, "%s in register %s", sz, reg);
		break;
	case SDT_ARG_MEM:
		snprintf(buf, len, "%s at %s", sz, op);
		break;
	case SDT_ARG_CONST:
		snprintf(buf, len, "%s constant %lld", sz, (long long)a->value);
		break;
	}
}

void describe_arg(const struct sdt_target *t, const char *text, size_t len,
		  struct arg_desc *d)
{
	struct sdt_arg a;
	const char *op;
	char sz[48];

	memset(d, 0, sizeof(*d));
	if (len >= sizeof(d->spec))
		len = sizeof(d->spec) - 1;
	memcpy(d->spec, text, len);
	d->spec[len] = 0;
	op = take_size(d, d->spec);
	size_words(d, sz, sizeof(sz));

	if (sdt_arg_parse(t, text, len, &a, d->strict_why,
			  sizeof(d->strict_why)) == 0) {
		d->strict_ok = 1;
		d->kind = a.kind == SDT_ARG_REG	  ? "register"
			  : a.kind == SDT_ARG_MEM ? "memory"
						  : "constant";
		strict_words(t, &a, op, sz, d->words, sizeof(d->words));
		return;
	}
	d->kind = guess_kind(t, op);
	if (!strcmp(d->kind, "register"))
		snprintf(d->words, sizeof(d->words),
			 "%s in register %s (not portable: %s)", sz, op,
			 d->strict_why);
	else if (!strcmp(d->kind, "memory"))
		snprintf(d->words, sizeof(d->words),
			 "%s at %s (not portable: %s)", sz, op, d->strict_why);
	else if (!strcmp(d->kind, "constant"))
		snprintf(d->words, sizeof(d->words),
			 "%s constant %s (not portable: %s)", sz, op,
			 d->strict_why);
	else
		snprintf(d->words, sizeof(d->words),
			 "%s operand `%s' (not portable: %s)", sz, op,
			 d->strict_why);
}

void describe_size(const char *text, size_t len, struct arg_desc *d)
{
	d->has_size = 0;
	d->is_float = 0;
	if (len >= sizeof(d->spec))
		len = sizeof(d->spec) - 1;
	memcpy(d->spec, text, len);
	d->spec[len] = 0;
	take_size(d, d->spec);
}
