/* SPDX-License-Identifier: MIT */
/*
 * The table of architectures we know. One row per (machine, class, byte
 * order): its name, the registers that carry a function's first integer
 * arguments, where the rest sit on the stack at entry, and the page size
 * its loadable segments must be aligned to.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elf.h>

#include "target.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif
#ifndef EF_PPC64_ABI
#define EF_PPC64_ABI 3
#endif

struct arch {
	const char *name;
	uint16_t machine;
	unsigned char elf_class;
	unsigned char byte_order;
	uint32_t flags;
	uint64_t page_size;
	/* Integer argument registers at function entry, as spec operands. */
	const char *const *arg_regs;
	unsigned narg_regs;
	/* Stack arguments at entry: "%d(%%rsp)"-like format and first offset. */
	const char *stack_fmt;
	unsigned stack_first;
	unsigned stack_slot;
};

static const char *const x86_64_regs[] = { "%rdi", "%rsi", "%rdx",
					   "%rcx", "%r8",  "%r9" };
static const char *const aarch64_regs[] = { "x0", "x1", "x2", "x3",
					    "x4", "x5", "x6", "x7" };
static const char *const riscv_regs[] = { "a0", "a1", "a2", "a3",
					  "a4", "a5", "a6", "a7" };
static const char *const arm_regs[] = { "r0", "r1", "r2", "r3" };
static const char *const ppc_regs[] = { "3", "4", "5", "6",
					"7", "8", "9", "10" };
static const char *const s390_regs[] = { "%r2", "%r3", "%r4", "%r5", "%r6" };

#define REGS(a) a, sizeof(a) / sizeof(a[0])

static const struct arch arches[] = {
	{ "x86_64", EM_X86_64, ELFCLASS64, ELFDATA2LSB, 0, 4096,
	  REGS(x86_64_regs), "%u(%%rsp)", 8, 8 },
	{ "i386", EM_386, ELFCLASS32, ELFDATA2LSB, 0, 4096, NULL, 0,
	  "%u(%%esp)", 4, 4 },
	{ "aarch64", EM_AARCH64, ELFCLASS64, ELFDATA2LSB, 0, 65536,
	  REGS(aarch64_regs), "[sp, %u]", 0, 8 },
	{ "arm", EM_ARM, ELFCLASS32, ELFDATA2LSB, 0x05000400, 65536,
	  REGS(arm_regs), "[sp, #%u]", 0, 4 },
	{ "riscv64", EM_RISCV, ELFCLASS64, ELFDATA2LSB, 0x0005, 4096,
	  REGS(riscv_regs), "%u(sp)", 0, 8 },
	/* ELFv2: the parameter save area starts 32 bytes above the caller's
	 * stack pointer; arguments past the eighth sit after its 64 bytes. */
	{ "ppc64le", EM_PPC64, ELFCLASS64, ELFDATA2LSB, 2, 65536,
	  REGS(ppc_regs), "%u(1)", 96, 8 },
	/* ELFv1 keeps a 48-byte header before the save area. */
	{ "ppc64", EM_PPC64, ELFCLASS64, ELFDATA2MSB, 1, 65536,
	  REGS(ppc_regs), "%u(1)", 112, 8 },
	{ "s390x", EM_S390, ELFCLASS64, ELFDATA2MSB, 0, 4096,
	  REGS(s390_regs), "%u(%%r15)", 160, 8 },
};

#define NARCHES (sizeof(arches) / sizeof(arches[0]))

static const struct arch *arch_of(const struct sdt_target *t)
{
	for (size_t i = 0; i < NARCHES; i++) {
		if (arches[i].machine == t->machine &&
		    arches[i].elf_class == t->elf_class &&
		    arches[i].byte_order == t->byte_order)
			return &arches[i];
	}
	/* Same machine, other byte order or class: still name the machine. */
	for (size_t i = 0; i < NARCHES; i++) {
		if (arches[i].machine == t->machine)
			return &arches[i];
	}
	return NULL;
}

static void target_from_arch(struct sdt_target *t, const struct arch *a)
{
	t->elf_class = a->elf_class;
	t->byte_order = a->byte_order;
	t->machine = a->machine;
	t->flags = a->flags;
}

void sdt_target_host(struct sdt_target *t)
{
	const char *name =
#if defined(__x86_64__) && defined(__ILP32__)
		"x32";
#elif defined(__x86_64__)
		"x86_64";
#elif defined(__i386__)
		"i386";
#elif defined(__aarch64__)
		"aarch64";
#elif defined(__arm__)
		"arm";
#elif defined(__riscv) && __riscv_xlen == 64
		"riscv64";
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		"ppc64le";
#elif defined(__powerpc64__)
		"ppc64";
#elif defined(__s390x__)
		"s390x";
#else
		"unknown";
#endif
	if (sdt_target_from_name(t, name) == 0)
		return;
	/* A host we have no row for: describe it from what we were built as. */
	t->elf_class = sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
	t->byte_order = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ?
				ELFDATA2LSB :
				ELFDATA2MSB;
	t->machine = EM_NONE;
	t->flags = 0;
}

int sdt_target_from_name(struct sdt_target *t, const char *name)
{
	for (size_t i = 0; i < NARCHES; i++) {
		if (strcmp(arches[i].name, name) == 0) {
			target_from_arch(t, &arches[i]);
			return 0;
		}
	}
	return -ENOENT;
}

static uint16_t get16(const unsigned char *p, int msb)
{
	return msb ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t get32(const unsigned char *p, int msb)
{
	return msb ? (uint32_t)get16(p, 1) << 16 | get16(p + 2, 1) :
		     (uint32_t)get16(p + 2, 0) << 16 | get16(p, 0);
}

int sdt_target_from_image(struct sdt_target *t, const void *image, size_t len)
{
	const unsigned char *e = image;

	if (len < EI_NIDENT + 4 || memcmp(e, ELFMAG, SELFMAG) != 0)
		return -ENOEXEC;
	if (e[EI_CLASS] != ELFCLASS32 && e[EI_CLASS] != ELFCLASS64)
		return -ENOEXEC;
	if (e[EI_DATA] != ELFDATA2LSB && e[EI_DATA] != ELFDATA2MSB)
		return -ENOEXEC;
	int msb = e[EI_DATA] == ELFDATA2MSB;
	/* e_flags sits after e_entry, e_phoff and e_shoff: address-sized. */
	size_t flags_off = e[EI_CLASS] == ELFCLASS64 ? 48 : 36;

	t->elf_class = e[EI_CLASS];
	t->byte_order = e[EI_DATA];
	t->machine = get16(e + 18, msb);
	t->flags = len >= flags_off + 4 ? get32(e + flags_off, msb) : 0;
	return 0;
}

/*
 * The first object member of an ar archive (static libraries given to
 * dtrace -G): skip the symbol table ("/", "/SYM64/") and the long-name
 * table ("//"), then read the member like a file. Returns its offset.
 */
static int archive_first_object(int fd, off_t *at)
{
	unsigned char hdr[60];
	off_t off = 8; /* after "!<arch>\n" */

	for (int i = 0; i < 16; i++) {
		if (pread(fd, hdr, sizeof(hdr), off) != (ssize_t)sizeof(hdr) ||
		    hdr[58] != '`' || hdr[59] != '\n')
			return -ENOEXEC;
		char size_text[11];
		memcpy(size_text, hdr + 48, 10);
		size_text[10] = 0;
		char *end;
		long long size = strtoll(size_text, &end, 10);
		if (end == size_text || size < 0)
			return -ENOEXEC;
		if (hdr[0] != '/') {
			*at = off + 60;
			return 0;
		}
		off += 60 + size + (size & 1);
	}
	return -ENOEXEC;
}

int sdt_target_from_file(struct sdt_target *t, const char *path)
{
	unsigned char buf[64];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t at = 0;
	int err = 0;

	if (fd < 0)
		return -errno;
	ssize_t n = pread(fd, buf, sizeof(buf), 0);
	if (n >= 8 && memcmp(buf, "!<arch>\n", 8) == 0) {
		err = archive_first_object(fd, &at);
		if (!err)
			n = pread(fd, buf, sizeof(buf), at);
	}
	if (n < 0)
		err = -errno;
	close(fd);
	if (err)
		return err;
	return sdt_target_from_image(t, buf, (size_t)n);
}

const char *sdt_target_name(const struct sdt_target *t)
{
	const struct arch *a = arch_of(t);

	if (a && t->machine == EM_PPC64)
		return t->byte_order == ELFDATA2LSB ? "ppc64le" : "ppc64";
	return a ? a->name : "unknown";
}

_Static_assert(NARCHES == SDT_ARCH_UNKNOWN,
	       "enum sdt_arch has one value per row of arches[]");

enum sdt_arch sdt_target_arch(const struct sdt_target *t)
{
	const struct arch *a = arch_of(t);

	if (!a)
		return SDT_ARCH_UNKNOWN;
	if (t->machine == EM_PPC64)
		return t->byte_order == ELFDATA2LSB ? SDT_ARCH_PPC64LE :
						      SDT_ARCH_PPC64;
	return (enum sdt_arch)(a - arches);
}

const char *sdt_arch_name(enum sdt_arch a)
{
	return a < SDT_ARCH_UNKNOWN ? arches[a].name : "unknown";
}

unsigned sdt_target_addr_size(const struct sdt_target *t)
{
	return t->elf_class == ELFCLASS64 ? 8 : 4;
}

int sdt_target_known(const struct sdt_target *t)
{
	return arch_of(t) != NULL;
}

unsigned sdt_target_max_args(const struct sdt_target *t)
{
	const struct arch *a = arch_of(t);

	if (!a || !a->stack_fmt)
		return 0;
	return 12;
}

unsigned sdt_target_arg_regs(const struct sdt_target *t)
{
	const struct arch *a = arch_of(t);

	return a ? a->narg_regs : 0;
}

int sdt_target_arg_operand(const struct sdt_target *t, unsigned index,
			   char *buf, size_t len)
{
	const struct arch *a = arch_of(t);
	int n;

	if (!a || !a->stack_fmt || index >= sdt_target_max_args(t))
		return -ENOTSUP;
	if (index < a->narg_regs)
		n = snprintf(buf, len, "%s", a->arg_regs[index]);
	else
		n = snprintf(buf, len, a->stack_fmt,
			     a->stack_first +
				     (index - a->narg_regs) * a->stack_slot);
	if (n < 0 || (size_t)n >= len)
		return -ERANGE;
	return n;
}

uint64_t sdt_target_page_size(const struct sdt_target *t)
{
	const struct arch *a = arch_of(t);

	return a ? a->page_size : 65536;
}

/*
 * Data relocations per machine (the ABI documents' numbers), kept apart
 * from the arch rows: only readers of relocatable objects need them.
 */
static const struct data_reloc {
	uint16_t machine;
	uint16_t type;
	unsigned char op; /* enum sdt_reloc_op */
	unsigned char size;
} data_relocs[] = {
	{ EM_X86_64, 1, SDT_RELOC_ABS, 8 }, /* R_X86_64_64 */
	{ EM_X86_64, 10, SDT_RELOC_ABS, 4 }, /* R_X86_64_32 */
	{ EM_X86_64, 11, SDT_RELOC_ABS, 4 }, /* R_X86_64_32S */
	{ EM_386, 1, SDT_RELOC_ABS, 4 }, /* R_386_32 */
	{ EM_AARCH64, 257, SDT_RELOC_ABS, 8 }, /* R_AARCH64_ABS64 */
	{ EM_AARCH64, 258, SDT_RELOC_ABS, 4 }, /* R_AARCH64_ABS32 */
	{ EM_ARM, 2, SDT_RELOC_ABS, 4 }, /* R_ARM_ABS32 */
	{ EM_RISCV, 2, SDT_RELOC_ABS, 8 }, /* R_RISCV_64 */
	{ EM_RISCV, 1, SDT_RELOC_ABS, 4 }, /* R_RISCV_32 */
	{ EM_RISCV, 33, SDT_RELOC_ADD, 1 }, /* R_RISCV_ADD8 */
	{ EM_RISCV, 34, SDT_RELOC_ADD, 2 }, /* R_RISCV_ADD16 */
	{ EM_RISCV, 35, SDT_RELOC_ADD, 4 }, /* R_RISCV_ADD32 */
	{ EM_RISCV, 36, SDT_RELOC_ADD, 8 }, /* R_RISCV_ADD64 */
	{ EM_RISCV, 37, SDT_RELOC_SUB, 1 }, /* R_RISCV_SUB8 */
	{ EM_RISCV, 38, SDT_RELOC_SUB, 2 }, /* R_RISCV_SUB16 */
	{ EM_RISCV, 39, SDT_RELOC_SUB, 4 }, /* R_RISCV_SUB32 */
	{ EM_RISCV, 40, SDT_RELOC_SUB, 8 }, /* R_RISCV_SUB64 */
	{ EM_PPC64, 38, SDT_RELOC_ABS, 8 }, /* R_PPC64_ADDR64 */
	{ EM_PPC64, 1, SDT_RELOC_ABS, 4 }, /* R_PPC64_ADDR32 */
	{ EM_S390, 22, SDT_RELOC_ABS, 8 }, /* R_390_64 */
	{ EM_S390, 4, SDT_RELOC_ABS, 4 }, /* R_390_32 */
};

enum sdt_reloc_op sdt_target_data_reloc(const struct sdt_target *t,
					uint32_t type, unsigned *size)
{
	for (size_t i = 0; i < sizeof(data_relocs) / sizeof(data_relocs[0]);
	     i++) {
		if (data_relocs[i].machine == t->machine &&
		    data_relocs[i].type == type) {
			*size = data_relocs[i].size;
			return (enum sdt_reloc_op)data_relocs[i].op;
		}
	}
	*size = 0;
	return SDT_RELOC_NONE;
}
