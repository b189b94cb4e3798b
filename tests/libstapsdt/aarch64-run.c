/* SPDX-License-Identifier: MIT */
/*
 * Runs on aarch64 (qemu-user): the library's loader and fast paths over
 * the object gen-object wrote for aarch64 (see aarch64-shim.c). Loads it
 * from a memfd and from a file, checks the stubs are `nop; ret' and idle,
 * fires every probe with up to 12 arguments, makes a probe look traced
 * through its semaphore (as the kernel's ref_ctr would) and fires it into
 * the stub, then unloads and destroys.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libstapsdt.h"

static int bad;

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c)) {                                                    \
			printf("FAIL line %d: %s\n", __LINE__, #c);            \
			bad = 1;                                               \
		}                                                              \
	} while (0)

int main(void)
{
	static const ArgType_t t64[12] = { int64, int64, int64, int64,
					   int64, int64, int64, int64,
					   int64, int64, int64, int64 };
	static const ArgType_t tm12[] = { int8,	 uint8,	 int16, uint16,
					  int32, uint32, int64, uint64,
					  int8,	 int16,	 int32, int64 };
	static const unsigned char stub[] = { 0x1f, 0x20, 0x03, 0xd5,
					      0xc0, 0x03, 0x5f, 0xd6 };
	SDTProbe_t *a[13], *m12;
	char name[8];

	for (int mode = 0; mode < 2; mode++) {
		SDTProvider_t *p = providerInit("sdttest");

		if (mode)
			providerUseMemfd(p, memfd_disabled);
		for (int n = 0; n <= 12; n++) {
			snprintf(name, sizeof(name), "a%d", n);
			a[n] = providerAddProbeArgs(p, name, n, t64);
		}
		m12 = providerAddProbeArgs(p, "m12", 12, tm12);
		if (providerLoad(p) != 0) {
			printf("FAIL: load: %s\n", p->error);
			return 1;
		}
		printf("aarch64: loaded from %s\n", p->_filename);
		for (int n = 0; n <= 12; n++) {
			CHECK(a[n]->_fire &&
			      memcmp(a[n]->_fire, stub, sizeof(stub)) == 0);
			CHECK(!probeIsEnabled(a[n]) &&
			      !probeIsEnabledInline(a[n]));
		}
		probeFire(a[0]);
		probeFire(a[3], 1, 2, 3);
		probeFire(a[12], 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
		/* Traced through the semaphore: the stub really runs. */
		*(volatile unsigned short *)probeSemaphore(m12) = 1;
		CHECK(probeIsEnabled(m12) && probeIsEnabledInline(m12));
		CHECK(!probeIsEnabled(a[12]));
		probeFire(m12, -1, 255, -2, 65535, -3, 4000000000u, -5,
			  (uint64_t)-1, -128, -32768, -7, -8);
		*(volatile unsigned short *)probeSemaphore(m12) = 0;
		CHECK(!probeIsEnabled(m12));
		CHECK(providerUnload(p) == 0 && a[1]->_fire == NULL);
		probeFire(m12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
		CHECK(providerLoad(p) == 0);
		providerDestroy(p);
	}
	if (!bad)
		printf("aarch64: stubs idle, fired with 0..12 arguments, "
		       "semaphore seen, unloaded\n");
	return bad;
}
