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
 * aarch64: `nop; ret`.
 *
 * probeFire() and probeIsEnabled() compare the stub's first 8 bytes with
 * the word sdt_stub_idle_word() gives to see breakpoints and patches: the
 * core spaces stubs 16 bytes apart and pads them with zeros, so those 8
 * bytes are all ours.
 */
#include <elf.h>
#include <string.h>

#include "internal.h"

static const unsigned char stub_x86_64[] = {
	0x90,			      /* nop: the probe's PC */
	0x0f, 0x1f, 0x44, 0x00, 0x00, /* nopl 0x0(%rax,%rax,1) */
	0xc3,			      /* ret */
};

static const unsigned char stub_aarch64[] = {
	0x1f, 0x20, 0x03, 0xd5, /* nop: the probe's PC */
	0xc0, 0x03, 0x5f, 0xd6, /* ret */
};

static const struct sdt_stub stubs[] = {
	{ stub_x86_64, sizeof(stub_x86_64), 0 },
	{ stub_aarch64, sizeof(stub_aarch64), 0 },
};

const struct sdt_stub *sdt_stub_for(const struct sdt_target *t)
{
	if (t->machine == EM_X86_64 && t->elf_class == ELFCLASS64 &&
	    t->byte_order == ELFDATA2LSB)
		return &stubs[0];
	if (t->machine == EM_AARCH64 && t->elf_class == ELFCLASS64 &&
	    t->byte_order == ELFDATA2LSB)
		return &stubs[1];
	return NULL;
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
