/* SPDX-License-Identifier: MIT */
/*
 * The probe stubs, one per architecture we run on.
 *
 * A stub is the function probeFire() calls while a tracer is attached: the
 * probe site, then a return. Arguments arrive where the ABI puts them at a
 * function's first instruction, which is where the note's argument specs
 * (from sdt_target_arg_operand()) say they are.
 *
 * x86_64: `nop; nopl 0(%rax,%rax,1); ret`. A tracer that attaches at the
 * 5-byte nop (the nop combo some libbpf versions look for; a raw uprobe at
 * PC + 1) gets the kernels with the uprobe syscall to turn it into a call
 * instead of an int3 trap: bench/libbpf-traced.sh measures both paths.
 * Rewriting those 5 bytes is only safe where no red zone is live, as at a
 * function's entry. The note's PC is the first byte, as for any other site.
 *
 * aarch64: `nop; ret`. i386 has x86_64's bytes. riscv64:
 * `nop; ret` (uncompressed). ppc64le: `nop; blr` (called through a
 * pointer with r12 at the entry, it needs no TOC). s390x: `nop; br %r14`.
 *
 * The 32-bit targets get uint64_t arguments in pairs of words. i386 finds
 * them all on the stack, argument I at 4 + 8 * I(%esp). arm (AAPCS) passes
 * the first two in r0:r1 and r2:r3, which no spec can name as one 8-byte
 * value, then the rest on the stack: so its stub (ARM state, as a pointer
 * with bit 0 clear is called) first pushes r0-r3, and at its probe PC, the
 * second instruction, argument I is at [sp, #8 * I]; then it drops them
 * and returns: `push {r0-r3}; nop; add sp, sp, #16; bx lr'.
 *
 * probeFire() and probeIsEnabled() compare the stub's first 8 bytes with
 * the word sdt_stub_idle_word() gives to see breakpoints and patches: the
 * core spaces stubs 16 bytes apart and pads them with zeros, so those 8
 * bytes are all ours. rseq.c's probeIsEnabled() compares x86_64's first
 * 4 with the constant 0x441f0f90 (a breakpoint at the PC changes the
 * first, one at the 5-byte nop or its call the second): change both
 * together.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const unsigned char stub_x86_64[] = {
	0x90,			      /* nop: the probe's PC */
	0x0f, 0x1f, 0x44, 0x00, 0x00, /* nopl 0x0(%rax,%rax,1) */
	0xc3,			      /* ret */
};

/* What the stub pointer of a probe not loaded points at (internal.h). */
const unsigned char *const sdt_unloaded_stub = stub_x86_64;

static const unsigned char stub_aarch64[] = {
	0x1f, 0x20, 0x03, 0xd5, /* nop: the probe's PC */
	0xc0, 0x03, 0x5f, 0xd6, /* ret */
};

static const unsigned char stub_arm[] = {
	0x0f, 0x00, 0x2d, 0xe9, /* push {r0, r1, r2, r3} */
	0x00, 0xf0, 0x20, 0xe3, /* nop: the probe's PC */
	0x10, 0xd0, 0x8d, 0xe2, /* add sp, sp, #16 */
	0x1e, 0xff, 0x2f, 0xe1, /* bx lr */
};

static const unsigned char stub_riscv64[] = {
	0x13, 0x00, 0x00, 0x00, /* nop (addi x0, x0, 0): the probe's PC */
	0x67, 0x80, 0x00, 0x00, /* ret (jalr x0, 0(ra)) */
};

static const unsigned char stub_ppc64le[] = {
	0x00, 0x00, 0x00, 0x60, /* nop: the probe's PC */
	0x20, 0x00, 0x80, 0x4e, /* blr */
};

static const unsigned char stub_s390x[] = {
	0x47, 0x00, 0x00, 0x00, /* nop (bc 0, 0): the probe's PC */
	0x07, 0xfe,		/* br %r14 */
};

#define STUB(row, bytes) [row] = { bytes, sizeof(bytes), 0, NULL, 0 }

/* By the target table's rows (target.h): one stub per architecture. */
static const struct sdt_stub stubs[SDT_ARCH_UNKNOWN] = {
	STUB(SDT_ARCH_X86_64, stub_x86_64),
	[SDT_ARCH_I386] = { stub_x86_64, sizeof(stub_x86_64), 0, "%u(%%esp)",
			    4 },
	STUB(SDT_ARCH_AARCH64, stub_aarch64),
	[SDT_ARCH_ARM] = { stub_arm, sizeof(stub_arm), 4, "[sp, #%u]", 0 },
	STUB(SDT_ARCH_RISCV64, stub_riscv64),
	STUB(SDT_ARCH_PPC64LE, stub_ppc64le),
	STUB(SDT_ARCH_S390X, stub_s390x),
};

const struct sdt_stub *sdt_stub_for(const struct sdt_target *t)
{
	enum sdt_arch a = sdt_target_arch(t);
	struct sdt_target row;

	/* The row's own class and byte order only (ppc64 has no stub). */
	if (a == SDT_ARCH_UNKNOWN || !stubs[a].code ||
	    sdt_target_from_name(&row, sdt_arch_name(a)) < 0 ||
	    row.elf_class != t->elf_class || row.byte_order != t->byte_order)
		return NULL;
	return &stubs[a];
}

int sdt_stub_arg_operand(const struct sdt_stub *stub,
			 const struct sdt_target *t, unsigned index,
			 unsigned size, char *buf, size_t len)
{
	int n;

	if (!stub->stack_fmt)
		return sdt_target_arg_operand_sized(t, index, size, buf, len);
	if (index >= SDT_MAX_ARGS)
		return -ENOTSUP;
	n = snprintf(buf, len, stub->stack_fmt, stub->stack_first + 8 * index);
	return n < 0 || (size_t)n >= len ? -ERANGE : n;
}

uint64_t sdt_stub_idle_word(void)
{
	static uint64_t cached; /* 0 until computed, as for no stub at all */
	unsigned char bytes[8] = { 0 };
	const struct sdt_stub *stub;
	struct sdt_target host;
	uint64_t word = __atomic_load_n(&cached, __ATOMIC_RELAXED);

	if (word)
		return word;
	sdt_target_host(&host);
	stub = sdt_stub_for(&host);
	if (!stub)
		return 0;
	memcpy(bytes, stub->code, stub->size < 8 ? stub->size : 8);
	memcpy(&word, bytes, sizeof(bytes));
	__atomic_store_n(&cached, word, __ATOMIC_RELAXED);
	return word;
}
