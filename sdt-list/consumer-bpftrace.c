/* SPDX-License-Identifier: MIT */
/*
 * bpftrace up to 0.24 on top of bcc's parse (consumer-bcc.c): it refuses
 * sizes other than 1/2/4/8 (it aborts), registers it has no offset for
 * (%xmmN) and symbol operands ("deref ident is not handled yet": wrong
 * values), and reads at most as many arguments as the machine passes in
 * registers.
 *
 * bpftrace 0.25 on hands each probe to libbpf's
 * bpf_program__attach_usdt() and reads arguments with libbpf's BPF side:
 * what libbpf cannot parse, bpftrace cannot attach ("Failed to attach usdt
 * probe: Invalid argument"), and the whole run stops there. The libbpf it
 * is built with is 1.6 or later where it ships (Debian unstable: 0.27
 * with libbpf 1.7), so the index-register forms are read.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consumers.h"

/* bpftrace 0.17's limits on what bcc parsed (x86_64 pt_regs). */
int bpftrace_x86_ok(const struct bcc_arg *a, int argn, struct verdict *v)
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

int bpftrace_libbpf_check(enum sdt_arch a, const char *spec, struct verdict *v)
{
	struct verdict lib = { .ok = 1, .arg = -1 };

	libbpf_check(a, spec, 1, &lib);
	if (!lib.ok)
		refuse(v, lib.arg,
		       "%.900s (libbpf refuses the probe: bpftrace cannot "
		       "attach it)",
		       lib.why);
	return 0;
}

unsigned bpftrace_max_args(const struct sdt_target *t)
{
	return sdt_target_arg_regs(t);
}
