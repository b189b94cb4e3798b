/* SPDX-License-Identifier: MIT */
/*
 * Target description: what an ELF file we read or write is built for.
 *
 * Everything that differs between architectures and that both dtrace-gen
 * and libstapsdt need lives here: ELF class, byte order, machine, the
 * e_flags a new object must carry to link with the target's objects, and
 * where a function finds its integer arguments on entry (for probe stubs).
 * Consumers of probe notes (the test dumper, sdt-list) use the same table
 * to name the architecture and to validate argument specs (argspec.h).
 */
#ifndef SDT_TARGET_H
#define SDT_TARGET_H

#include <stddef.h>
#include <stdint.h>

/*
 * Arguments a probe can carry: <sys/sdt.h> stops at STAP_PROBE12 and
 * libbpf reads at most 12 argument specs.
 */
#define SDT_MAX_ARGS 12

struct sdt_target {
	unsigned char elf_class;  /* ELFCLASS32 or ELFCLASS64 */
	unsigned char byte_order; /* ELFDATA2LSB or ELFDATA2MSB */
	uint16_t machine;	  /* EM_* */
	uint32_t flags;		  /* e_flags written into new objects */
};

/* The architecture we were compiled for. */
void sdt_target_host(struct sdt_target *t);

/*
 * Read class, byte order, machine and flags from the ELF header of PATH
 * (or of the first object in PATH, an ar archive). Returns 0, or a
 * negative errno: -ENOEXEC when PATH is no object file (neither ELF nor
 * an archive), -EBADMSG when its ELF header (or an archive member's
 * header) is damaged or cut short, -ENOMSG when it is an object that
 * names no machine (LLVM bitcode, an archive without object members),
 * -ENODATA when it is empty. The machine may still be one we do not know
 * (sdt_target_known()).
 */
int sdt_target_from_file(struct sdt_target *t, const char *path);

/* Same, from a file open for reading. */
int sdt_target_from_fd(struct sdt_target *t, int fd);

/* Same, from the first LEN bytes of an image (a whole ELF header). */
int sdt_target_from_image(struct sdt_target *t, const void *image, size_t len);

/*
 * Look a target up by name: "x86_64", "i386", "aarch64", "arm", "riscv64",
 * "ppc64le", "ppc64", "s390x". Returns 0 or -ENOENT.
 */
int sdt_target_from_name(struct sdt_target *t, const char *name);

/* Name as above; "unknown" for a machine we have no table for. */
const char *sdt_target_name(const struct sdt_target *t);

/*
 * The table's rows, for code that keeps per-architecture tables of its own
 * (sdt-list's models of each tracer): one value per row, in its order.
 */
enum sdt_arch {
	SDT_ARCH_X86_64,
	SDT_ARCH_I386,
	SDT_ARCH_AARCH64,
	SDT_ARCH_ARM,
	SDT_ARCH_RISCV64,
	SDT_ARCH_PPC64LE,
	SDT_ARCH_PPC64,
	SDT_ARCH_S390X,
	SDT_ARCH_UNKNOWN
};

/* T's row (ppc64le or ppc64 by byte order), or SDT_ARCH_UNKNOWN. */
enum sdt_arch sdt_target_arch(const struct sdt_target *t);

/* The row's name ("x86_64"), "unknown" for SDT_ARCH_UNKNOWN. */
const char *sdt_arch_name(enum sdt_arch a);

/* 4 or 8: the size of an address, and so of a note's address fields. */
unsigned sdt_target_addr_size(const struct sdt_target *t);

/* True when we know the machine's argument-spec syntax. */
int sdt_target_known(const struct sdt_target *t);

/*
 * Write into BUF the operand under which a function of this target finds
 * integer argument INDEX (0-based, each argument one machine word) at its
 * first instruction, in the syntax of probe argument specs: "%rdi",
 * "8(%rsp)", "x0", "[sp, 8]". Returns the length written, -ERANGE if BUF
 * is too small, -ENOTSUP for an index or machine we do not describe.
 */
int sdt_target_arg_operand(const struct sdt_target *t, unsigned index,
			   char *buf, size_t len);

/*
 * The same for a value of SIZE bytes (1, 2, 4 or 8) passed in the word: on
 * a big-endian machine a stack operand names the word's last SIZE bytes,
 * where the value is (s390x: argument 6 as a 1-byte value is 167(%r15)).
 */
int sdt_target_arg_operand_sized(const struct sdt_target *t, unsigned index,
				 unsigned size, char *buf, size_t len);

/*
 * How many arguments sdt_target_arg_operand() describes: SDT_MAX_ARGS, or
 * 0 for a machine we cannot describe.
 */
unsigned sdt_target_max_args(const struct sdt_target *t);

/* How many of those the target passes in registers (0: all on the stack). */
unsigned sdt_target_arg_regs(const struct sdt_target *t);

/*
 * Bytes of one word of a shared object's DT_HASH table: 4, but 8 on
 * 64-bit s390 (its ABI widens the table, and ld.so reads it so).
 */
unsigned sdt_target_hash_entry_size(const struct sdt_target *t);

/* Page size to align loadable segments of a shared object to. */
uint64_t sdt_target_page_size(const struct sdt_target *t);

/* What a data relocation does to its field, given S + A. */
enum sdt_reloc_op {
	SDT_RELOC_NONE, /* not a data relocation we know */
	SDT_RELOC_ABS,	/* field = S + A (`.8byte sym') */
	SDT_RELOC_ADD,	/* field += S + A (riscv label differences) */
	SDT_RELOC_SUB,	/* field -= S + A */
};

/*
 * The data relocation TYPE of target T: what it does and (in *SIZE) the
 * bytes of its field, 1 to 8. What an assembler emits for the fields of a
 * note: `.8byte sym', `.4byte sym', and on riscv `.4byte 2f-1f' as an
 * ADD/SUB pair, since linker relaxation may move the labels.
 */
enum sdt_reloc_op sdt_target_data_reloc(const struct sdt_target *t,
					uint32_t type, unsigned *size);

#endif
