/* SPDX-License-Identifier: MIT */
/*
 * What the pieces of libstapsdt share and the world does not see.
 *
 *   provider.c  the public API: providers, probes, validation, errors
 *   object.c    provider model -> shared object (through the ELF core)
 *   arch.c      per-architecture probe stubs
 *   loader.c    placement (memfd or private file), dlopen, publish, retire
 *   fire.c      probeFire / probeIsEnabled: the lock-free fast paths
 *
 * Concurrency, in one place. Fires and enabled checks take no lock: they
 * read a probe's _fire (the stub, or NULL) and its semaphore pointer with
 * atomic loads. Load publishes a probe by storing the semaphore pointer and
 * then _fire (release); unload stores NULL into _fire and points the
 * semaphore at a static zero. A fire that read the old pointers just before
 * an unload still touches the old object, so an unloaded object is never
 * unmapped while its provider lives: it is retired (no longer visible to
 * tracers: its memfd is closed or its file removed) and dlclosed by
 * providerDestroy(), after which no thread may fire the provider's probes
 * anyway. Load, unload and destroy serialize on the registry lock, the one
 * piece of global mutable state (it also lists placed files so that they
 * are removed at exit).
 */
#ifndef SDT_LIBSTAPSDT_INTERNAL_H
#define SDT_LIBSTAPSDT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "libstapsdt.h"
#include "target.h"

#define SDT_NAME_MAX 128 /* longest provider or probe name we accept */

/* providerAddProbe() allocates this; the public node comes first. */
struct sdt_probe_node {
	SDTProbeNode_t pub;
	signed char types[SDT_MAX_ARGS]; /* all argument types */
	unsigned index; /* position in the object of the last load */
};

/* A loaded object that was unloaded but may still be touched by a fire. */
struct sdt_retired {
	void *handle;
	int fd; /* reserved descriptor number, or -1 (see loader.c) */
	struct sdt_retired *next;
};

/* providerInit() allocates this; the public provider comes first. */
struct sdt_provider {
	SDTProvider_t pub;
	int loaded;
	size_t nprobes;
	SDTProbe_t **by_name; /* open hash of the probes by name (provider.c) */
	size_t by_name_cap; /* slots: 0 or a power of two, over 2 * nprobes */
	char *dir; /* file mode: the private directory, else NULL */
	struct sdt_retired
	    *live; /* retired entry ready for the loaded object */
	struct sdt_retired *retired;
	struct sdt_provider *next_placed; /* registry: providers with files */
};

static inline struct sdt_provider *sdt_provider_of(SDTProvider_t *p)
{
	return (struct sdt_provider *)(void *)p;
}

static inline struct sdt_probe_node *sdt_node_of(const SDTProbe_t *p)
{
	return (struct sdt_probe_node *)(void *)p;
}

/* Every semaphore reads this while its provider is not loaded. */
extern const volatile unsigned short sdt_idle_semaphore;

/* provider.c: record an error on P (message formatted); returns -1. */
int sdt_set_error(SDTProvider_t *p, SDTError_t code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void sdt_clear_error(SDTProvider_t *p);

/* arch.c: the stub for T, or NULL when we have none for that machine. */
struct sdt_stub {
	const unsigned char *code;
	size_t size;
	size_t probe_offset; /* where the note's PC points in the stub */
};
const struct sdt_stub *sdt_stub_for(const struct sdt_target *t);
/* arch.c: the first 8 bytes of the host's stubs, as loaded (see arch.c). */
uint64_t sdt_stub_idle_word(void);

/*
 * object.c: write the shared object for provider P's probes (in list order,
 * numbering each node's index) for target T to FD; LAYOUT says where the
 * stubs and semaphores landed. Returns 0 or -1 with the error set on P.
 */
struct sdt_dso_layout;
int sdt_object_write(SDTProvider_t *p, const struct sdt_target *t, int fd,
		     struct sdt_dso_layout *layout);

/* loader.c */
int sdt_load(struct sdt_provider *p);
int sdt_unload(struct sdt_provider *p);
void sdt_release(struct sdt_provider *p); /* destroy: unload, dlclose all */

/* The registry lock (loader.c). */
void sdt_registry_lock(void);
void sdt_registry_unlock(void);

#endif
