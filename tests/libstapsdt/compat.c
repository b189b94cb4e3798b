/* SPDX-License-Identifier: MIT */
/*
 * A program written against the public libstapsdt API, the way its
 * bindings use it: every call, the public fields read directly, the Go
 * binding's own idle-stub check, and the structure layout that ctypes-style
 * bindings hard-code (LP64 offsets of the public header). Built as C and as
 * C++ by compat.sh and run against our library.
 */
#include <libstapsdt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if 6 != MAX_ARGUMENTS
#error "MAX_ARGUMENTS must stay 6"
#endif

static int bad;

static void expect(int ok, const char *what)
{
	if (!ok) {
		printf("FAIL: %s\n", what);
		bad = 1;
	}
}

#define OFF(type, field, want)                                                 \
	expect(offsetof(type, field) == (want), #type "." #field " offset")

int main(void)
{
	SDTProvider_t *provider;
	SDTProbe_t *probe, *wide;
	SDTProbeList_t *node;
	int count = 0;

	if (sizeof(void *) == 8) {
		OFF(SDTProbe_t, name, 0);
		OFF(SDTProbe_t, argFmt, 8);
		OFF(SDTProbe_t, _fire, 32);
		OFF(SDTProbe_t, provider, 40);
		OFF(SDTProbe_t, argCount, 48);
		expect(sizeof(SDTProbe_t) == 56, "sizeof(SDTProbe_t)");
		OFF(SDTProbeList_t, next, 56);
		OFF(SDTProvider_t, name, 0);
		OFF(SDTProvider_t, probes, 8);
		OFF(SDTProvider_t, errno, 16);
		OFF(SDTProvider_t, error, 24);
		OFF(SDTProvider_t, _handle, 32);
		OFF(SDTProvider_t, _filename, 40);
		OFF(SDTProvider_t, _memfd, 48);
		OFF(SDTProvider_t, _use_memfd, 52);
		expect(sizeof(SDTProvider_t) == 56, "sizeof(SDTProvider_t)");
	}
	expect(noError == -1 && elfCreationError == 0 &&
		       tmpCreationError == 1 && sharedLibraryOpenError == 2 &&
		       symbolLoadingError == 3 && sharedLibraryCloseError == 4,
	       "SDTError_t values");
	expect(noarg == 0 && uint8 == 1 && int8 == -1 && uint16 == 2 &&
		       int16 == -2 && uint32 == 4 && int32 == -4 &&
		       uint64 == 8 && int64 == -8,
	       "ArgType_t values");
	expect(memfd_disabled == 0 && memfd_enabled == 1, "MemFDOption_t");

	provider = providerInit("compat-app");
	expect(provider != NULL, "providerInit");
	if (!provider)
		return 1;
	expect(strcmp(provider->name, "compat-app") == 0, "provider->name");
	expect(provider->errno == noError && provider->error == NULL,
	       "no error after init");
	expect(providerUseMemfd(provider, memfd_enabled) == 1,
	       "providerUseMemfd");
	probe = providerAddProbe(provider, "six", 6, uint8, int8, uint16, int16,
				 uint32, int32);
	wide = providerAddProbe(provider, "wide-1", 2, uint64, int64);
	expect(probe && wide, "providerAddProbe");
	if (!probe || !wide)
		return 1;
	expect(strcmp(probe->name, "six") == 0 && probe->argCount == 6,
	       "probe name and argCount");
	expect(probe->argFmt[0] == uint8 && probe->argFmt[5] == int32,
	       "probe argFmt");
	expect(probe->provider == provider && probe->_fire == NULL,
	       "probe provider, _fire before load");
	for (node = provider->probes; node; node = node->next)
		count++;
	expect(count == 2, "provider->probes lists both probes");

	if (providerLoad(provider) != 0) {
		printf("FAIL: providerLoad: %s\n", provider->error);
		return 1;
	}
	expect(probe->_fire != NULL && provider->_handle != NULL,
	       "_fire and _handle after load");
#if defined(__x86_64__)
	expect(*(uint8_t *)probe->_fire == 0x90, "idle stub starts with 0x90");
	/* The public library's own idle test, which its bindings copy. */
	expect(((*(uint8_t *)probe->_fire) & 0x90) == 0x90,
	       "idle stub passes the public (b & 0x90) == 0x90 test");
#endif
	expect(probeIsEnabled(probe) == 0, "probeIsEnabled untraced");
	probeFire(probe, 1, -1, 2, -2, 3, -3);
	probeFire(wide, (uint64_t)-1, (int64_t)-1, 99); /* one extra, ignored */
	expect(providerLoad(provider) == 0 && provider->errno == noError,
	       "a second providerLoad is 0");
	expect(providerUnload(provider) == 0, "providerUnload");
	expect(probe->_fire == NULL, "_fire after unload");
	expect(providerUnload(provider) == 0, "a second providerUnload is 0");
	probeFire(probe, 1, 2, 3, 4, 5, 6);

	expect(providerUseMemfd(provider, memfd_disabled) == 1,
	       "providerUseMemfd(memfd_disabled)");
	if (providerLoad(provider) != 0) {
		printf("FAIL: providerLoad (file): %s\n", provider->error);
		return 1;
	}
	expect(provider->_filename != NULL, "_filename in file mode");
	probeFire(wide, 1, 2);
	providerDestroy(provider);
	if (!bad)
		printf("compat: all public calls and fields behave\n");
	return bad;
}
