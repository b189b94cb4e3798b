/* SPDX-License-Identifier: MIT */
/*
 * Probes for the sdt-list tests, built with SystemTap's <sys/sdt.h> or
 * ours: plain register arguments, a probe with several sites, one with a
 * semaphore (gated.c), a constant, and (with SystemTap's header, which lets the
 * compiler pick any operand) a float and a global: the float always comes
 * out as `8f@...', the global as whatever the compiler picks (gcc:
 * `-4@gi(%rip)', clang: a stack slot or a register). With -DODD_SPECS
 * (x86_64), also specs written by hand that some consumers refuse,
 * among them the symbol operand `-4@gi(%rip)' whatever the compiler, and
 * the offset-plus-symbol `8@8+gl(%rip)' of glibc 2.43's own probes.
 *
 *   probes addr   print the semaphore's address, then fire forever
 *   probes        fire every probe every 10 ms, for at most 60 s
 */
#include <sys/sdt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* gated.c: a probe with a semaphore (a header setting is per file). */
void fire_gated(int i);
extern volatile unsigned short probes_gated_semaphore;

int gi = 7;
long gl[2] = { 5, 6 };
volatile double dd = 2.5;

static inline __attribute__((always_inline)) void twice(int v)
{
	DTRACE_PROBE1(probes, multi, v);
}

__attribute__((noinline)) static void fire(int i, long l, double d)
{
	DTRACE_PROBE2(probes, regs, i, l);
	twice(i);
	twice(i + 1);
	DTRACE_PROBE1(probes, cst, 42);
	fire_gated(i);
#ifdef FLOAT_GLOBAL
	DTRACE_PROBE1(probes, flt, d);
	DTRACE_PROBE1(probes, glob, gi);
#endif
	(void)d;
	/* The specs below are stringified as written: no formatting. */
	/* clang-format off */
#ifdef ODD_SPECS
	__asm__ __volatile__(STAP_PROBE_ASM(odd, r8b, 1@%r8b));
	__asm__ __volatile__(STAP_PROBE_ASM(odd, xmm, 8@%xmm0));
	__asm__ __volatile__(STAP_PROBE_ASM(odd, idx, 8@(%rax,%rbx,8)));
	__asm__ __volatile__(STAP_PROBE_ASM(odd, hex, 4@$0x10));
	__asm__ __volatile__(STAP_PROBE_ASM(odd, s3, 3@%eax));
	__asm__ __volatile__(STAP_PROBE_ASM(odd, shift, 8f@%rax -4@%edi));
	__asm__ __volatile__(STAP_PROBE_ASM(odd, nosize, %edi));
	__asm__ __volatile__(STAP_PROBE_ASM(odd, seg, 8@%fs:0));
	__asm__ __volatile__(STAP_PROBE_ASM(odd, twoargs, -4@%edi 8@%rsi));
	__asm__ __volatile__(STAP_PROBE_ASM(odd, sym, -4@gi(%rip)));
	__asm__ __volatile__(STAP_PROBE_ASM(odd, symoff, 8@8+gl(%rip)));
	__asm__ __volatile__(STAP_PROBE_ASM(odd, later, -4@%edi 4@$0x10));
#endif
#ifdef ODD_SIZE16
	__asm__ __volatile__(STAP_PROBE_ASM(odd, s16, 16@%rax));
#endif
	/* clang-format on */
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "addr")) {
		printf("%p\n", (void *)&probes_gated_semaphore);
		fflush(stdout);
	}
	for (int i = 1; i <= 6000; i++) {
		fire(i, i * 3L + 1000, dd);
		usleep(10000);
	}
	return 0;
}
