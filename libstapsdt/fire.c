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

int probeIsEnabled(SDTProbe_t *probe)
{
	return _sdt_traced_stub(probe) != NULL;
}

#ifdef SDT_NAMED_VARARGS
void probeFire(SDTProbe_t *probe, uint64_t a0, uint64_t a1, uint64_t a2,
	       uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
	       uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11);

void probeFire(SDTProbe_t *probe, uint64_t a0, uint64_t a1, uint64_t a2,
	       uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
	       uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11)
{
	void *stub = _sdt_traced_stub(probe);

	if (!stub)
		return;
	/* Up to 6 arguments all travel in registers: skip the stack ones. */
	if (probe->argCount <= 6)
		((stub6_fn)stub)(a0, a1, a2, a3, a4, a5);
	else
		((stub12_fn)stub)(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,
				  a11);
	/*
	 * Not a tail call: a sibling call would write the stub's stack
	 * arguments over our incoming ones, and a caller that passed fewer
	 * than twelve never gave us those slots.
	 */
	__asm__ __volatile__("" ::: "memory");
}
#else
void probeFire(SDTProbe_t *probe, ...);

void probeFire(SDTProbe_t *probe, ...)
{
	uint64_t a[SDT_MAX_ARGS] = {0};
	void *stub = _sdt_traced_stub(probe);
	va_list ap;

	if (!stub)
		return;
	va_start(ap, probe);
	for (int i = 0; i < probe->argCount && i < SDT_MAX_ARGS; i++)
		a[i] = va_arg(ap, uint64_t);
	va_end(ap);
	((stub12_fn)stub)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8],
			  a[9], a[10], a[11]);
}
#endif
