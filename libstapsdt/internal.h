/* SPDX-License-Identifier: MIT */
/*
 * What the pieces of libstapsdt share and the world does not see.
 *
 *   provider.c  the public API: providers, probes, validation, errors
 *   object.c    provider model -> shared object (through the ELF core)
 *   arch.c      per-architecture probe stubs
 *   loader.c    placement (memfd or private file), dlopen, publish, retire
 *   chunk.c     providerExtend()'s objects with room for more probes
 *   fire.c      probeFire / probeIsEnabled: the lock-free fast paths
 *   rseq.c      probeIsEnabled as an rseq critical section (x86_64)
 *
 * Concurrency, in one place. Fires and enabled checks take no lock: they
 * read a probe's _fire (the stub, or NULL) and its semaphore pointer with
 * atomic loads, then the semaphore and the stub's first word in the object.
 * Load publishes a probe by storing the semaphore and stub pointers and
 * then _fire (release); unload stores NULL into _fire and points the
 * semaphore at a static zero and the stub pointer at idle bytes, then
 * gives the objects back (dlclose, memfd or file, fd).
 * providerExtend() only publishes: the probes added since the last load
 * or extend take free slots of a chunk (chunk.c), and no probe already
 * published is touched, so extending needs no grace period.
 * A fire that read the old pointers just before may still be about to touch
 * the object, so the library's probeFire() and probeIsEnabled() mark the
 * few instructions between reading the pointers and the last touch in a
 * per-thread word (struct sdt_reader), and unload waits, after a
 * membarrier(), until no thread is inside a mark it began before (loader.c).
 * On x86_64 with glibc's rseq, probeIsEnabled() instead runs those
 * instructions as an rseq critical section, which stores nothing, and
 * unload's membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) sends any
 * thread inside one back to its start, to read the idle pointers (rseq.c).
 * The header's inline checks cannot mark: they read the object only while
 * it is loaded (the man page says so). Without membarrier, unloaded objects
 * are kept, hidden, until providerDestroy() as a fallback.
 *
 * Load, unload and destroy serialize on the registry lock, the one piece of
 * global mutable state (it also lists placed files, removed at exit), made
 * fork-safe by pthread_atfork handlers (loader.c).
 */
#ifndef SDT_LIBSTAPSDT_INTERNAL_H
#define SDT_LIBSTAPSDT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "elfobj.h"
#include "libstapsdt.h"
#include "target.h"

/* Longest names: a provider's has to fit in a memfd name (249 bytes). */
#define SDT_PROVIDER_NAME_MAX 200
#define SDT_PROBE_NAME_MAX 255

/* Longest argument type text and name probeSetArgInfo() takes. */
#define SDT_ARG_TEXT_MAX 255

/*
 * probeSetArgInfo()'s copies, per argument "TYPE\0NAME\0" (one
 * allocation, NAME "" when unnamed) or NULL. Allocated at the first call
 * on a probe, so probes without them cost one pointer.
 */
struct sdt_arg_info {
	char *text[SDT_MAX_ARGS];
	unsigned short type_len[SDT_MAX_ARGS]; /* where NAME starts, less 1 */
};

/* providerAddProbe() allocates this; the public node comes first. */
struct sdt_probe_node {
	SDTProbeNode_t pub;
	/*
	 * The stub while loaded, else sdt_unloaded_stub: never NULL, so that
	 * rseq.c's check reads it without testing _fire first.
	 */
	const void *stub;
	signed char types[SDT_MAX_ARGS]; /* all argument types */
	unsigned ordinal; /* 0, or N for the Nth repeat of an earlier name */
	unsigned copies;  /* first of a name: how many repeats followed */
	struct sdt_arg_info *info; /* NULL until probeSetArgInfo() */
};

/*
 * One loaded shared object of a provider: the load's, then one more per
 * providerExtend() that had probes to add (loader.c). Without membarrier,
 * an unloaded one is kept, as `retired', until destroy: then only HANDLE
 * and FD (a reserved descriptor number) are left.
 */
struct sdt_loaded {
	void *handle;
	char *path;	/* what dlopen() took: /proc/PID/fd/N or the file */
	char *dir;	/* file: its private directory, else NULL */
	int fd;		/* the memfd, open while loaded; -1 for a file */
	long owner;	/* file: the pid that placed it, the only remover */
	int shared;	/* file: a child was forked since it was placed */
	uintptr_t base; /* load address */
	struct sdt_chunk *chunk; /* an extend's object with room, else NULL */
	struct sdt_loaded *next; /* the one loaded before */
};

/* providerInit() allocates this; the public provider comes first. */
struct sdt_provider {
	SDTProvider_t pub;
	int loaded;
	int has_arg_info; /* some probe has info: load writes records */
	size_t nprobes;
	size_t nnames;	      /* distinct names: entries in by_name */
	SDTProbe_t **by_name; /* open hash of the probes by name (provider.c) */
	size_t by_name_cap;   /* slots: 0 or a power of two, over 2 * nnames */
	size_t nlive;	      /* probes published: the oldest nlive */
	/*
	 * Loaded objects, newest first; the last is the load's, also named
	 * by pub._handle, _filename and _memfd (the public fields).
	 */
	struct sdt_loaded *objects;
	struct sdt_loaded *retired;
	long placed_in; /* registry: the pid whose list of files holds us */
	struct sdt_provider *next_placed; /* registry: providers with files */
};

/*
 * One per thread that fires: its word says whether the thread is inside
 * probeFire() or probeIsEnabled() (IN), outside (OUT), or has not
 * registered with the loader yet (NEW).
 */
enum { SDT_READER_NEW = 0, SDT_READER_OUT = 1, SDT_READER_IN = 2 };
struct sdt_reader {
	unsigned long word;
	struct sdt_reader *next;
};
extern __thread struct sdt_reader sdt_reader_self
	__attribute__((tls_model("initial-exec")));
unsigned long sdt_reader_register(void);

/*
 * rseq.c: where probeIsEnabled() can run as an rseq critical section
 * (x86_64 with glibc's <sys/rseq.h>), the dynamic linker picks that or the
 * marked check, sdt_enabled_marked() (fire.c), once. sdt_rseq_used says
 * the section was picked: unload then restarts it (loader.c).
 */
#if defined(__x86_64__) && defined(__linux__) && defined(__has_include)
#if __has_include(<sys/rseq.h>)
#define SDT_RSEQ_READER 1
#endif
#endif
#ifdef SDT_RSEQ_READER
int sdt_enabled_marked(SDTProbe_t *probe) __attribute__((visibility("hidden")));
extern int sdt_rseq_used;
#endif

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
/* arch.c: and every stub pointer this, an idle x86_64 stub's bytes. */
extern const unsigned char *const sdt_unloaded_stub;

/* provider.c: record an error on P (message formatted); returns -1. */
int sdt_set_error(SDTProvider_t *p, SDTError_t code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void sdt_clear_error(SDTProvider_t *p);

/* arch.c: the stub for T, or NULL when we have none for that machine. */
struct sdt_stub {
	const unsigned char *code;
	size_t size;
	size_t probe_offset; /* where the note's PC points in the stub */
	/*
	 * 32-bit targets: probeFire() passes uint64_t arguments, two words
	 * each, so at the probe's PC argument I is the memory operand
	 * printf(stack_fmt, 8 * I + stack_first); NULL on 64-bit targets,
	 * where the core's sdt_target_arg_operand() names them.
	 */
	const char *stack_fmt;
	unsigned stack_first;
};
const struct sdt_stub *sdt_stub_for(const struct sdt_target *t);
/* arch.c: the operand of argument INDEX, a SIZE-byte value, at STUB's
 * probe PC, as sdt_target_arg_operand_sized() returns it. */
int sdt_stub_arg_operand(const struct sdt_stub *stub,
			 const struct sdt_target *t, unsigned index,
			 unsigned size, char *buf, size_t len);
/* arch.c: the first 8 bytes of the host's stubs, as loaded (see arch.c). */
uint64_t sdt_stub_idle_word(void);

/*
 * object.c: what sdt_object_write() laid out. probes[i] has its stub at
 * layout.stub_addr + i * layout.stub_stride and its semaphore at
 * layout.sema_addr + 2 * i (relative to the load base).
 */
struct sdt_object {
	struct sdt_dso_layout layout;
	SDTProbe_t **probes; /* malloc()ed, freed by the caller */
	size_t nprobes;
};
/*
 * Write the shared object for the COUNT newest probes of provider P (the
 * first COUNT of its list: all of them for a load, those added since for
 * an extend), for target T, to FD. Reads the model only. Returns 0, or -1
 * with the error set on P.
 */
int sdt_object_write(SDTProvider_t *p, const struct sdt_target *t, int fd,
		     size_t count, struct sdt_object *obj);
/*
 * object.c: the N probes at PROBES (newest first) described for the ELF
 * core into *OUT, their strings in *STRINGS (both malloc()ed, freed by the
 * caller, also on failure); 0, or -1 with the error set.
 */
int sdt_object_describe(SDTProvider_t *p, const struct sdt_target *t,
			SDTProbe_t *const *probes, size_t n,
			struct sdt_dso_probe **out, char **strings);
/*
 * object.c: the typed-probe records (docs/typed-probes.md) of the N probes
 * at PROBES (newest first) into *NOTES (malloc()ed, *SIZE bytes; NULL and
 * 0 when none has one): one per probe whose arguments are all described,
 * repeats of a name included, in the order the probes were added, so a
 * reader that takes a name's first record takes the earliest. A provider
 * that never described an argument skips all of it. 0, or -1 (error set).
 */
int sdt_object_types(SDTProvider_t *p, const struct sdt_target *t,
		     SDTProbe_t *const *probes, size_t n, unsigned char **notes,
		     size_t *size);

/*
 * chunk.c: an extend object with room for probes added later (see there).
 * SLOTS stubs and semaphores, no probe yet.
 */
struct sdt_chunk {
	struct sdt_dso_layout layout;
	size_t used;	     /* slots given to probes, the first USED */
	size_t probe_offset; /* the note's PC in a slot's stub */
	int wfd;	     /* where notes are added; -1 once full */
	long owner;	     /* the process that made it: only it adds to it */
};
int sdt_chunk_write(SDTProvider_t *p, int fd, size_t slots,
		    struct sdt_chunk *c);
/*
 * chunk.c: notes for the N probes at PROBES (newest first, N at most the
 * free slots) added to chunk C loaded at BASE, then the probes published.
 * 0, or -1 with the error set and none of them published.
 */
int sdt_chunk_add(SDTProvider_t *p, struct sdt_chunk *c, uintptr_t base,
		  SDTProbe_t *const *probes, size_t n);

/* loader.c: PROBE fires STUB and reads SEMA from now on. */
void sdt_publish(SDTProbe_t *probe, uintptr_t stub, uintptr_t sema);

/* loader.c */
int sdt_load(struct sdt_provider *p);
int sdt_extend(struct sdt_provider *p); /* sdt_load() when not loaded */
int sdt_unload(struct sdt_provider *p);
void sdt_release(struct sdt_provider *p); /* destroy: unload, dlclose all */

/* The registry lock (loader.c). */
void sdt_registry_lock(void);
void sdt_registry_unlock(void);

#endif
