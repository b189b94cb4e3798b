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

#include "em.h"
#include "target.h"

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
	/* Stack arguments at entry: "%d(%%rsp)"-like format and first offset.
	 */
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
static const char *const ppc_regs[] = {
	"3", "4", "5", "6", "7", "8", "9", "10"
};
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
	{ "ppc64", EM_PPC64, ELFCLASS64, ELFDATA2MSB, 1, 65536, REGS(ppc_regs),
	  "%u(1)", 112, 8 },
	{ "s390x", EM_S390, ELFCLASS64, ELFDATA2MSB, 0, 4096, REGS(s390_regs),
	  "%u(%%r15)", 160, 8 },
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
	t->byte_order = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB
								  : ELFDATA2MSB;
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
	return msb ? (uint16_t)(p[0] << 8 | p[1])
		   : (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t get32(const unsigned char *p, int msb)
{
	return msb ? (uint32_t)get16(p, 1) << 16 | get16(p + 2, 1)
		   : (uint32_t)get16(p + 2, 0) << 16 | get16(p, 0);
}

/* LLVM bitcode (clang -flto): an object, but no ELF header to read. */
static int is_bitcode(const unsigned char *e, size_t len)
{
	static const unsigned char raw[] = { 'B', 'C', 0xc0, 0xde };
	static const unsigned char wrapped[] = { 0xde, 0xc0, 0x17, 0x0b };

	return len >= 4 && (!memcmp(e, raw, 4) || !memcmp(e, wrapped, 4));
}

/*
 * A header is believed only when it is whole and says what it is twice:
 * the identification bytes and, read in the byte order they claim,
 * e_version and e_ehsize. A flipped byte-order byte or class byte fails
 * there instead of naming a machine nobody has.
 */
int sdt_target_from_image(struct sdt_target *t, const void *image, size_t len)
{
	const unsigned char *e = image;
	size_t ehsize, flags_off;
	int msb;

	if (!len)
		return -ENODATA;
	if (is_bitcode(e, len))
		return -ENOMSG;
	if (memcmp(e, ELFMAG, len < SELFMAG ? len : SELFMAG))
		return -ENOEXEC;
	if (len < EI_NIDENT || e[EI_VERSION] != EV_CURRENT ||
	    (e[EI_CLASS] != ELFCLASS32 && e[EI_CLASS] != ELFCLASS64) ||
	    (e[EI_DATA] != ELFDATA2LSB && e[EI_DATA] != ELFDATA2MSB))
		return -EBADMSG;
	msb = e[EI_DATA] == ELFDATA2MSB;
	ehsize = e[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr)
					   : sizeof(Elf32_Ehdr);
	/* e_flags, then e_ehsize, follow three address-sized fields. */
	flags_off = e[EI_CLASS] == ELFCLASS64 ? 48 : 36;
	if (len < ehsize || get32(e + 20, msb) != EV_CURRENT ||
	    get16(e + flags_off + 4, msb) != ehsize)
		return -EBADMSG;
	t->elf_class = e[EI_CLASS];
	t->byte_order = e[EI_DATA];
	t->machine = get16(e + 18, msb);
	t->flags = get32(e + flags_off, msb);
	return 0;
}

/*
 * The first object member of an ar archive (static libraries given to
 * dtrace -G): skip the symbol table ("/", "/SYM64/") and the long-name
 * table ("//"), then read the member like a file. Gives its offset and
 * size; -ENOMSG when the archive holds no object, -EBADMSG when a member
 * header is damaged.
 */
static int archive_first_object(int fd, off_t *at, size_t *size)
{
	unsigned char hdr[60];
	off_t off = 8; /* after "!<arch>\n" */

	for (int i = 0; i < 16; i++) {
		ssize_t n = pread(fd, hdr, sizeof(hdr), off);

		if (n == 0)
			return -ENOMSG;
		if (n < 0)
			return -errno;
		if (n != (ssize_t)sizeof(hdr) || hdr[58] != '`' ||
		    hdr[59] != '\n')
			return -EBADMSG;
		char size_text[11];
		memcpy(size_text, hdr + 48, 10);
		size_text[10] = 0;
		char *end;
		long long member = strtoll(size_text, &end, 10);
		if (end == size_text || member < 0)
			return -EBADMSG;
		if (hdr[0] != '/') {
			*at = off + 60;
			*size = (size_t)member;
			return 0;
		}
		off += 60 + member + (member & 1);
	}
	return -EBADMSG;
}

int sdt_target_from_fd(struct sdt_target *t, int fd)
{
	unsigned char buf[64];
	size_t member = sizeof(buf);
	off_t at = 0;
	ssize_t n = pread(fd, buf, sizeof(buf), 0);
	int err;

	if (n >= 8 && !memcmp(buf, "!<thin>\n", 8))
		return -ENOMSG; /* members are other files, named inside */
	if (n >= 8 && !memcmp(buf, "!<arch>\n", 8)) {
		err = archive_first_object(fd, &at, &member);
		if (err)
			return err;
		n = pread(fd, buf, sizeof(buf), at);
	}
	if (n < 0)
		return -errno;
	if ((size_t)n > member)
		n = (ssize_t)member;
	return sdt_target_from_image(t, buf, (size_t)n);
}

int sdt_target_from_file(struct sdt_target *t, const char *path)
{
	/* Non-blocking: a FIFO among the objects must not hang us. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	int err;

	if (fd < 0)
		return -errno;
	err = sdt_target_from_fd(t, fd);
	close(fd);
	return err;
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
		return t->byte_order == ELFDATA2LSB ? SDT_ARCH_PPC64LE
						    : SDT_ARCH_PPC64;
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
	return SDT_MAX_ARGS;
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

	return sdt_target_arg_operand_sized(t, index, a ? a->stack_slot : 8,
					    buf, len);
}

int sdt_target_arg_operand_sized(const struct sdt_target *t, unsigned index,
				 unsigned size, char *buf, size_t len)
{
	const struct arch *a = arch_of(t);
	unsigned tail;
	int n;

	if (!a || !a->stack_fmt || index >= sdt_target_max_args(t))
		return -ENOTSUP;
	/* A big-endian word holds a narrower value in its last bytes. */
	tail = t->byte_order == ELFDATA2MSB && size < a->stack_slot
		       ? a->stack_slot - size
		       : 0;
	if (index < a->narg_regs)
		n = snprintf(buf, len, "%s", a->arg_regs[index]);
	else
		n = snprintf(buf, len, a->stack_fmt,
			     a->stack_first +
				     (index - a->narg_regs) * a->stack_slot +
				     tail);
	if (n < 0 || (size_t)n >= len)
		return -ERANGE;
	return n;
}

unsigned sdt_target_hash_entry_size(const struct sdt_target *t)
{
	return t->machine == EM_S390 && t->elf_class == ELFCLASS64 ? 8 : 4;
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
	{ EM_X86_64, 1, SDT_RELOC_ABS, 8 },    /* R_X86_64_64 */
	{ EM_X86_64, 10, SDT_RELOC_ABS, 4 },   /* R_X86_64_32 */
	{ EM_X86_64, 11, SDT_RELOC_ABS, 4 },   /* R_X86_64_32S */
	{ EM_386, 1, SDT_RELOC_ABS, 4 },       /* R_386_32 */
	{ EM_AARCH64, 257, SDT_RELOC_ABS, 8 }, /* R_AARCH64_ABS64 */
	{ EM_AARCH64, 258, SDT_RELOC_ABS, 4 }, /* R_AARCH64_ABS32 */
	{ EM_ARM, 2, SDT_RELOC_ABS, 4 },       /* R_ARM_ABS32 */
	{ EM_RISCV, 2, SDT_RELOC_ABS, 8 },     /* R_RISCV_64 */
	{ EM_RISCV, 1, SDT_RELOC_ABS, 4 },     /* R_RISCV_32 */
	{ EM_RISCV, 33, SDT_RELOC_ADD, 1 },    /* R_RISCV_ADD8 */
	{ EM_RISCV, 34, SDT_RELOC_ADD, 2 },    /* R_RISCV_ADD16 */
	{ EM_RISCV, 35, SDT_RELOC_ADD, 4 },    /* R_RISCV_ADD32 */
	{ EM_RISCV, 36, SDT_RELOC_ADD, 8 },    /* R_RISCV_ADD64 */
	{ EM_RISCV, 37, SDT_RELOC_SUB, 1 },    /* R_RISCV_SUB8 */
	{ EM_RISCV, 38, SDT_RELOC_SUB, 2 },    /* R_RISCV_SUB16 */
	{ EM_RISCV, 39, SDT_RELOC_SUB, 4 },    /* R_RISCV_SUB32 */
	{ EM_RISCV, 40, SDT_RELOC_SUB, 8 },    /* R_RISCV_SUB64 */
	{ EM_PPC64, 38, SDT_RELOC_ABS, 8 },    /* R_PPC64_ADDR64 */
	{ EM_PPC64, 1, SDT_RELOC_ABS, 4 },     /* R_PPC64_ADDR32 */
	{ EM_S390, 22, SDT_RELOC_ABS, 8 },     /* R_390_64 */
	{ EM_S390, 4, SDT_RELOC_ABS, 4 },      /* R_390_32 */
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
