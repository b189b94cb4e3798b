/* SPDX-License-Identifier: MIT */
/*
 * probeIsEnabled() inside a restartable sequence (rseq), where the kernel
 * and the C library give every thread one: x86_64, glibc 2.35 or later,
 * rseq not turned off (glibc.pthread.rseq=0), a kernel that has it.
 *
 * Why. A mark around the check (fire.c: a thread-local word stored twice)
 * is what lets unload wait for a reader still touching the object it is
 * about to unmap. Those stores cost about as much as the whole check did,
 * and bindings call this function before every fire. In a critical section
 * the kernel does that work instead: the thread points its rseq area's
 * rseq_cs at our descriptor, and a thread preempted, signalled or
 * interrupted by membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) inside
 * the section resumes at its start, where it reads the probe again. Unload
 * points the probes away from the object and then makes that membarrier
 * call (loader.c): from then on no thread can be past the probe's pointers
 * with an old one, so the object can go. Measured in one process with the
 * public library's function (bench/libstapsdt-ab.c), the marked check
 * took 1.5 times as long, this one as long as the public one.
 *
 * It relies on every thread having the rseq area glibc registered: a
 * thread that unregistered it (or started by a raw clone()) is not
 * restarted, and may read an object an unload is unmapping.
 *
 * The pointer is stored only when it is not already ours: the kernel
 * clears it when it finds the thread outside the section (at a preemption
 * or a signal) and other code of the thread may point it at its own
 * sections, so most calls load and compare it, and store nothing. That
 * test is itself inside the section: once it has seen our descriptor, no
 * one can change the word without the section restarting first (only the
 * kernel does, on the way back to the thread, and it restarts us then).
 *
 * The word keeps pointing at our descriptor after we return, so the
 * library is never unloaded from the process (-z nodelete): the kernel
 * reads the descriptor at the thread's next preemption.
 *
 * The choice between this and the marked check is made once, by the
 * dynamic linker (an IFUNC), not per call; without rseq, or on other
 * machines, probeIsEnabled() is the marked check (fire.c).
 *
 * The check itself is the one _sdt_traced_stub() makes, with the stub's
 * idle bytes a constant: the first 4 bytes of every x86_64 stub (arch.c),
 * `nop' and the start of the 5-byte nop, which an int3 at the probe's PC,
 * an int3 at PC + 1 or the 5-byte nop rewritten into a call all change.
 */
#include "internal.h"

#ifdef SDT_RSEQ_READER
#include <stddef.h>
#include <sys/rseq.h>

#undef probeIsEnabled /* the header's inline one: here is the function */

/* The offsets the assembly below reads the probe at. */
_Static_assert(offsetof(struct sdt_probe_node, pub._semaphore) == 0x40,
	       "SDTProbeNode_t._semaphore");
_Static_assert(offsetof(struct sdt_probe_node, stub) == 0x50,
	       "struct sdt_probe_node.stub");
_Static_assert(offsetof(struct rseq, rseq_cs) == 8, "struct rseq.rseq_cs");
_Static_assert(RSEQ_SIG == 0x53053053, "the signature glibc registers");

/* __rseq_offset, copied where the check reaches it in one load. */
long sdt_rseq_offset __attribute__((visibility("hidden")));
int sdt_rseq_used;

int sdt_enabled_rseq(SDTProbe_t *probe) __attribute__((visibility("hidden")));

/*
 * The section runs from .Lcs_start to .Lcs_end (the ret); the abort
 * handler follows RSEQ_SIG (as ud1's operand, for disassemblers) and
 * starts over. It reads the semaphore and stub pointers, never NULL (a
 * probe not loaded has the static zero and sdt_unloaded_stub), not _fire:
 * one test less. Idle, the result is 0 straight from the test's OR. The layout
 * keeps each branch of the idle path inside a 32-byte block
 * (Skylake-derived cores run a branch across one from their slow decoder)
 * once the function starts a 64-byte line.
 */
__asm__("	.text\n"
	"	.p2align 6\n"
	"	.hidden sdt_enabled_rseq\n"
	"	.globl sdt_enabled_rseq\n"
	"	.type sdt_enabled_rseq, @function\n"
	"sdt_enabled_rseq:\n"
	"	movq sdt_rseq_offset(%rip), %rax\n"
	"	leaq .Lsdt_rseq_cs(%rip), %rcx\n"
	".Lcs_start:\n"
	"	cmpq %rcx, %fs:8(%rax)\n" /* rseq_cs is ours */
	"	jne .Lcs_enter\n"
	"	testq %rdi, %rdi\n"
	"	je .Lcs_zero\n"
	"	movq 0x40(%rdi), %rcx\n" /* node->pub._semaphore */
	"	movq 0x50(%rdi), %rdx\n" /* node->stub */
	"	movzwl (%rcx), %eax\n"
	"	movl (%rdx), %edx\n"
	"	xorl $0x441f0f90, %edx\n" /* 90 0f 1f 44: arch.c */
	"	orl %edx, %eax\n"
	"	jne .Lcs_one\n"
	".Lcs_end:\n"
	"	ret\n"
	".Lcs_zero:\n"
	"	xorl %eax, %eax\n"
	"	ret\n"
	".Lcs_one:\n"
	"	movl $1, %eax\n"
	"	ret\n"
	".Lcs_enter:\n"
	"	movq %rcx, %fs:8(%rax)\n"
	"	jmp .Lcs_start\n"
	"	.byte 0x0f, 0xb9, 0x3d\n"
	"	.long 0x53053053\n" /* RSEQ_SIG */
	".Lcs_abort:\n"
	"	jmp sdt_enabled_rseq\n"
	"	.size sdt_enabled_rseq, .-sdt_enabled_rseq\n"
	"	.section .data.rel.ro, \"aw\"\n"
	"	.p2align 5\n"
	".Lsdt_rseq_cs:\n"
	"	.long 0, 0\n" /* version, flags */
	"	.quad .Lcs_start, .Lcs_end - .Lcs_start, .Lcs_abort\n"
	"	.text\n");

typedef int (*enabled_fn)(SDTProbe_t *probe);
/* clang's no_sanitize("thread") still calls TSan at the entry. */
#if defined(__has_attribute)
#if __has_attribute(disable_sanitizer_instrumentation)
#define SDT_UNINSTRUMENTED                                                     \
	__attribute__((used, disable_sanitizer_instrumentation,                \
		       no_sanitize("address", "undefined", "thread")))
#endif
#endif
#ifndef SDT_UNINSTRUMENTED
#define SDT_UNINSTRUMENTED                                                     \
	__attribute__((used, no_sanitize("address", "undefined", "thread")))
#endif

/*
 * Run by the dynamic linker, perhaps before anything else of the process
 * is set up (sanitizers' shadow memory included: not instrumented). glibc
 * sets __rseq_offset once it has registered the main thread, and
 * __rseq_size to 0 when it did not (or was told not to): both must say
 * yes, or it is the marked check. Threads it creates later register too.
 */
static enabled_fn resolve_enabled(void) SDT_UNINSTRUMENTED;
static enabled_fn resolve_enabled(void)
{
	if (__rseq_size == 0 || __rseq_offset == 0)
		return sdt_enabled_marked;
	sdt_rseq_offset = (long)__rseq_offset;
	__atomic_store_n(&sdt_rseq_used, 1, __ATOMIC_RELAXED);
	return sdt_enabled_rseq;
}

int probeIsEnabled(SDTProbe_t *probe) __attribute__((ifunc("resolve_enabled")));
#endif
