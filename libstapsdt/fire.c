/* SPDX-License-Identifier: MIT */
/*
 * probeFire() and probeIsEnabled(): the two calls a runtime makes all the
 * time, so the only ones that must be fast. Neither takes a lock nor makes
 * a syscall; internal.h says why what they read is always mapped.
 *
 * A probe is idle when its semaphore is 0 and its stub's bytes are the ones
 * we wrote: a tracer counts the semaphore (uprobe ref_ctr), plants an int3,
 * or rewrites the 5-byte nop into a call (optimized uprobes). Idle, a fire
 * costs the call, the semaphore's load and the stub word's, and returns.
 *
 * probeFire() is declared variadic, but a variadic C function spills all
 * argument registers on entry, before the idle test could skip them. On
 * x86_64 and aarch64 (Linux) integer varargs are passed exactly like named
 * arguments, so we define it here with twelve named uint64_t parameters;
 * those the caller did not pass are never used (the stub ignores them, and
 * no consumer reads past the probe's argument count), and never written:
 * see the end of probeFire(). Other machines get a plain variadic
 * definition.
 *
 * Both mark where they read the object (reader_enter/leave): unload waits
 * for a thread inside a mark before it unmaps the object (loader.c). A
 * mark is a load and two stores of a thread-local word, no atomic
 * read-modify-write, no fence (membarrier() on the unload side stands in).
 * Those stores cost as much as probeIsEnabled()'s whole check: where rseq
 * can stand in for them (rseq.c), the marked probeIsEnabled() here is only
 * the fallback the dynamic linker did not pick.
 */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#define probeFire sdt_public_variadic_probeFire
#include "internal.h"
#undef probeFire
#undef probeIsEnabled /* the header's inline one: here is the function */

#if defined(__x86_64__) ||                                                     \
	(defined(__aarch64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#define SDT_NAMED_VARARGS 1
#endif

typedef void (*stub6_fn)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
			 uint64_t);
typedef void (*stub12_fn)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
			  uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
			  uint64_t, uint64_t);

/*
 * A traced fire hands the stub each argument as a parameter of its type
 * would arrive (the ABIs of riscv64, ppc64 and s390x extend narrow ones to
 * the register so): its low bytes, extended by its sign to 64 bits. Then a
 * tracer that reads a whole register sees the argument, and gdb 16 reads
 * each argument right: it narrows a register like `-1@x0' with a cast
 * that, for a negative value beyond the narrow type's range, yields the
 * negated result (docs/tracers.md). Idle fires never get here.
 */
static inline uint64_t widen(signed char type, uint64_t v)
{
	switch (type) {
	case int8:
		return (uint64_t)(int64_t)(int8_t)v;
	case uint8:
		return (uint8_t)v;
	case int16:
		return (uint64_t)(int64_t)(int16_t)v;
	case uint16:
		return (uint16_t)v;
	case int32:
		return (uint64_t)(int64_t)(int32_t)v;
	case uint32:
		return (uint32_t)v;
	default: /* 64 bits, or no argument */
		return v;
	}
}

/*
 * Marking: this thread's word goes SDT_READER_OUT -> IN -> OUT. Only
 * constants are stored, and the word read on entry only steers a branch,
 * so back-to-back calls do not wait for each other's stores. The word is
 * not OUT on entry when the thread has not registered yet (NEW) or when a
 * signal handler fires inside a fire (IN): both go the slow way, the nested
 * call unmarked (the outer mark covers it).
 */
static inline unsigned long reader_word(void)
{
	return __atomic_load_n(&sdt_reader_self.word, __ATOMIC_RELAXED);
}

static inline void reader_enter(void)
{
	__atomic_store_n(&sdt_reader_self.word, SDT_READER_IN,
			 __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline void reader_leave(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&sdt_reader_self.word, SDT_READER_OUT,
			 __ATOMIC_RELAXED);
}

/* Without rseq (rseq.c), this is probeIsEnabled() itself. */
#ifdef SDT_RSEQ_READER
#define enabled_marked sdt_enabled_marked
#else
#define enabled_marked probeIsEnabled
#endif

__attribute__((noinline, cold)) static int enabled_slow(SDTProbe_t *probe,
							unsigned long w)
{
	if (w != SDT_READER_NEW)
		return _sdt_traced_stub(probe) != NULL;
	sdt_reader_register();
	return enabled_marked(probe);
}

int enabled_marked(SDTProbe_t *probe)
{
	unsigned long w = reader_word();
	int on;

	if (__builtin_expect(w != SDT_READER_OUT, 0))
		return enabled_slow(probe, w);
	reader_enter();
	on = _sdt_traced_stub(probe) != NULL;
	reader_leave();
	return on;
}

#ifdef SDT_NAMED_VARARGS
void probeFire(SDTProbe_t *probe, uint64_t a0, uint64_t a1, uint64_t a2,
	       uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
	       uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11);

/* The traced path, out of line so that the idle one needs no frame. */
__attribute__((noinline, cold)) static void
fire_stub(void *stub, const SDTProbe_t *probe, int marked, uint64_t a0,
	  uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
	  uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9, uint64_t a10,
	  uint64_t a11)
{
	const signed char *t = sdt_node_of(probe)->types;

	a0 = widen(t[0], a0);
	a1 = widen(t[1], a1);
	a2 = widen(t[2], a2);
	a3 = widen(t[3], a3);
	a4 = widen(t[4], a4);
	a5 = widen(t[5], a5);
	/* Up to 6 arguments all travel in registers: skip the stack ones. */
	if (probe->argCount <= 6)
		((stub6_fn)stub)(a0, a1, a2, a3, a4, a5);
	else
		((stub12_fn)stub)(a0, a1, a2, a3, a4, a5, widen(t[6], a6),
				  widen(t[7], a7), widen(t[8], a8),
				  widen(t[9], a9), widen(t[10], a10),
				  widen(t[11], a11));
	if (marked)
		reader_leave();
}

/* Not registered yet, or nested in a fire (a signal handler). */
__attribute__((noinline, cold)) static void
fire_slow(SDTProbe_t *probe, unsigned long w, uint64_t a0, uint64_t a1,
	  uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
	  uint64_t a7, uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11)
{
	void *stub;

	if (w == SDT_READER_NEW) {
		sdt_reader_register();
		probeFire(probe, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,
			  a11);
	} else if ((stub = _sdt_traced_stub(probe)) != NULL) {
		fire_stub(stub, probe, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8,
			  a9, a10, a11);
	}
	__asm__ __volatile__("" ::: "memory"); /* see probeFire() */
}

void probeFire(SDTProbe_t *probe, uint64_t a0, uint64_t a1, uint64_t a2,
	       uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
	       uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11)
{
	unsigned long w = reader_word();
	void *stub;

	if (__builtin_expect(w != SDT_READER_OUT, 0)) {
		fire_slow(probe, w, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,
			  a11);
		goto out;
	}
	reader_enter();
	stub = _sdt_traced_stub(probe);
	if (__builtin_expect(!stub, 1)) {
		reader_leave();
		return;
	}
	fire_stub(stub, probe, 1, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,
		  a11);
out:
	/*
	 * Never a tail call: a sibling call would write the stub's stack
	 * arguments over our incoming ones, and a caller that passed fewer
	 * than twelve never gave us those slots.
	 */
	__asm__ __volatile__("" ::: "memory");
}
#else
void probeFire(SDTProbe_t *probe, ...);

void probeFire(SDTProbe_t *probe, ...)
{
	uint64_t a[SDT_MAX_ARGS] = { 0 };
	unsigned long w = reader_word();
	void *stub;
	va_list ap;

	if (w == SDT_READER_NEW)
		w = sdt_reader_register();
	if (w == SDT_READER_OUT)
		reader_enter();
	stub = _sdt_traced_stub(probe);
	if (stub) {
		va_start(ap, probe);
		for (int i = 0; i < probe->argCount && i < SDT_MAX_ARGS; i++)
			a[i] = widen(sdt_node_of(probe)->types[i],
				     va_arg(ap, uint64_t));
		va_end(ap);
		((stub12_fn)stub)(a[0], a[1], a[2], a[3], a[4], a[5], a[6],
				  a[7], a[8], a[9], a[10], a[11]);
	}
	if (w == SDT_READER_OUT)
		reader_leave();
}
#endif
