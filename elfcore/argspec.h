/* SPDX-License-Identifier: MIT */
/*
 * Probe argument specs: "-4@%edi 8@-16(%rbp) 4@$5".
 *
 * Each argument is [-]SIZE@OPERAND. We parse in two strengths:
 *  - sdt_args_parse(): what we promise to emit, and only that: the operand
 *    forms every consumer (libbpf, bcc, bpftrace, gdb, perf) parses, per
 *    architecture (docs/formats.md). Anything else is an error naming the
 *    argument and why. The header, dtrace-gen and libstapsdt are tested
 *    against this.
 *  - sdt_arg_split(): the lenient tokenizer under it, for tools that must
 *    show whatever some other producer wrote.
 */
#ifndef SDT_ARGSPEC_H
#define SDT_ARGSPEC_H

#include <stddef.h>
#include <stdint.h>

#include "target.h"

enum sdt_arg_kind {
	SDT_ARG_REG,   /* value in a register */
	SDT_ARG_MEM,   /* value at register + displacement */
	SDT_ARG_CONST, /* immediate */
};

struct sdt_arg {
	unsigned size; /* 1, 2, 4 or 8 */
	int is_signed;
	enum sdt_arg_kind kind;
	char reg[16];  /* REG: the register; MEM: the base register */
	int64_t value; /* MEM: displacement; CONST: the constant */
};

/*
 * One argument's text: the span of SPEC[*pos..] up to the next separating
 * space. Sets *START and *LEN and advances *POS. Returns 0 at the end of
 * SPEC, 1 otherwise.
 */
int sdt_arg_split(const char *spec, size_t *pos, size_t *start, size_t *len);

/*
 * Parse one argument (TEXT, LEN bytes) strictly for target T. Returns 0,
 * or -EINVAL with a reason in ERR ("8-byte register operand on a 32-bit
 * target", "symbol operand gi(%rip)").
 */
int sdt_arg_parse(const struct sdt_target *t, const char *text, size_t len,
		  struct sdt_arg *arg, char *err, size_t errlen);

/*
 * Parse a whole spec strictly. Returns the number of arguments (0..max),
 * or -EINVAL with "argument N (`TEXT`): reason" in ERR, -E2BIG past MAX.
 */
int sdt_args_parse(const struct sdt_target *t, const char *spec,
		   struct sdt_arg *args, unsigned max, char *err,
		   size_t errlen);

/* Format ARG back into spec syntax for T; returns length or -ERANGE. */
int sdt_arg_format(const struct sdt_target *t, const struct sdt_arg *arg,
		   char *buf, size_t len);

#endif
