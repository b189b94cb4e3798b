/*
 * Probes in always-inline functions, the way libbpf's own USDT tests
 * place them, for inlined.sh and a libbpf-based tracer:
 *  - inlined:konst, inlined at 300 sites, each passing its own constant
 *    (0 to 299). A header that writes constants into the spec ("$17")
 *    gives 300 different specs, more than libbpf's 256 spec slots, and
 *    libbpf refuses the probe; ours puts each constant in a register, so
 *    every site has the same spec and all 300 attach;
 *  - inlined:mixed, 12 arguments at two sites: array elements indexed by a
 *    variable, a volatile struct's signed char, a negative constant, a
 *    64-bit pattern, an address, sums and quotients; guarded by a
 *    semaphore this file defines itself.
 * It prints "ready PID", waits for SIGUSR1 (the tracer is attached),
 * fires every site once, writing to argv[1] the "NAME ARGC VALUES..." line
 * libbpf should report per hit, prints "fired", and exits at the next
 * SIGUSR1.
 */
#define _POSIX_C_SOURCE 200809L
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#define INLINE static inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))

/* With _SDT_HAS_SEMAPHORES every probe has one; only mixed tests its own. */
#define SEMAPHORE(name) __attribute__((section(".probes"))) unsigned short name
SEMAPHORE(inlined_konst_semaphore);
SEMAPHORE(inlined_mixed_semaphore);

static volatile int pick = 2;
static volatile uint64_t pattern = 0x0123456789abcdefULL;
static volatile short levels[] = { -10, -20, -30, -40 };
static volatile struct {
	int id;
	signed char small;
} rec = { 3, -100 };

static FILE *want;
static volatile sig_atomic_t go;
static sigset_t unblocked;

static void on_usr1(int sig)
{
	(void)sig;
	go++;
}

/* Until the N-th SIGUSR1: blocked but here, so none is missed. */
static void wait_usr1(int n)
{
	while (go < n)
		sigsuspend(&unblocked);
}

INLINE void konst(int k)
{
	STAP_PROBE1(inlined, konst, k);
}

INLINE void mixed(int x)
{
	long y = 40;

	if (inlined_mixed_semaphore)
		STAP_PROBE12(inlined, mixed, x, x * 2, y, x + y, -5, y / 8,
			     pattern, &pattern, levels[x], levels[pick],
			     rec.small, rec.id);
	fprintf(want, "mixed 12 %d %d %ld %ld -5 %ld %lld %lld %d %d %d %d\n",
		x, x * 2, y, x + y, y / 8, (long long)pattern,
		(long long)(uintptr_t)&pattern, levels[x], levels[pick],
		rec.small, rec.id);
}

/* Ten, then a hundred, inlined copies, each with its own constant. */
#define TEN(f, b)                                                              \
	f(b + 0);                                                              \
	f(b + 1);                                                              \
	f(b + 2);                                                              \
	f(b + 3);                                                              \
	f(b + 4);                                                              \
	f(b + 5);                                                              \
	f(b + 6);                                                              \
	f(b + 7);                                                              \
	f(b + 8);                                                              \
	f(b + 9)
#define HUNDRED(f, b)                                                          \
	TEN(f, b + 0);                                                         \
	TEN(f, b + 10);                                                        \
	TEN(f, b + 20);                                                        \
	TEN(f, b + 30);                                                        \
	TEN(f, b + 40);                                                        \
	TEN(f, b + 50);                                                        \
	TEN(f, b + 60);                                                        \
	TEN(f, b + 70);                                                        \
	TEN(f, b + 80);                                                        \
	TEN(f, b + 90)

NOINLINE static void fire_konst(void)
{
	int k;

	HUNDRED(konst, 0);
	HUNDRED(konst, 100);
	HUNDRED(konst, 200);
	for (k = 0; k < 300; k++)
		fprintf(want, "konst 1 %d\n", k);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { 0 };
	sigset_t usr1;

	if (argc != 2 || !(want = fopen(argv[1], "w")))
		return 2;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &unblocked);
	sa.sa_handler = on_usr1; /* stays installed, unlike signal()'s */
	sigaction(SIGUSR1, &sa, NULL);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	wait_usr1(1);
	fire_konst();
	mixed(1);
	mixed(3);
	fclose(want);
	printf("fired\n");
	fflush(stdout);
	wait_usr1(2);
	return 0;
}
