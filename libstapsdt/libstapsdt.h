/* SPDX-License-Identifier: MIT */
/*
 * libstapsdt: USDT probes declared at run time.
 *
 * A runtime (a JIT, an interpreter) that cannot put probes in its own
 * binary declares a provider and its probes here; providerLoad() writes a
 * tiny shared object with one stub function, one semaphore and one
 * NT_STAPSDT note per probe, and loads it. Tracers (bpftrace, bcc, perf,
 * gdb, libbpf) see those probes like any other USDT probe; probeFire()
 * calls the stub only while something is attached.
 *
 * This header is a drop-in for the public libstapsdt API: the names,
 * enumerator values and structure layouts below are those of that library,
 * so its bindings keep working unchanged. What goes beyond it (probes with
 * up to 12 arguments, the semaphore, the inline enabled check, argument
 * types for tools, more error codes, numbered after the public ones, a
 * provider that grows while loaded) is marked "Extension" and uses new
 * names only.
 *
 * C89 and C++98 up; it may be included before or after <errno.h> (see the
 * note on SDTProvider.errno).
 */
#ifndef _LIBSTAPSDT_H
#define _LIBSTAPSDT_H

#ifdef __cplusplus
extern "C" {
#endif

/* A 64-bit word, also in C89 and C++98 (pedantic). */
#if defined(__GNUC__) && defined(__UINT64_TYPE__)
__extension__ typedef __UINT64_TYPE__ _sdt_u64;
#else
typedef unsigned long long _sdt_u64;
#endif

/* Argument slots in SDTProbe.argFmt (the public ABI; see SDT_MAX_ARGS). */
#define MAX_ARGUMENTS 6

/* Extension: the most arguments a probe may have. */
#define SDT_MAX_ARGS 12

typedef enum {
	noError = -1,
	elfCreationError = 0,
	tmpCreationError = 1, /* also: a provider name too long for a file */
	sharedLibraryOpenError = 2,
	symbolLoadingError = 3,
	sharedLibraryCloseError = 4, /* also: _handle was dlclosed by others */
	/* Extension: conditions the public library does not detect. */
	invalidNameError = 5, /* empty, blank, control bytes, ':', too long */
	duplicateProbeError = 6,  /* probe name = another's semaphore symbol */
	invalidArgumentError = 7, /* argCount outside 0..12, bad ArgType_t */
	providerStateError = 8,	  /* placement changed while loaded */
	outOfMemoryError = 9
} SDTError_t;

typedef enum {
	noarg = 0,
	uint8 = 1,
	int8 = -1,
	uint16 = 2,
	int16 = -2,
	uint32 = 4,
	int32 = -4,
	uint64 = 8,
	int64 = -8
} ArgType_t;

typedef enum { memfd_disabled = 0, memfd_enabled = 1 } MemFDOption_t;

struct SDTProvider;

typedef struct SDTProbe {
	char *name;
	ArgType_t argFmt[MAX_ARGUMENTS]; /* the first 6 argument types */
	void *_fire;			 /* the stub while loaded, else NULL */
	struct SDTProvider *provider;
	int argCount;
} SDTProbe_t;

typedef struct SDTProbeList_ {
	SDTProbe_t probe;
	struct SDTProbeList_ *next;
} SDTProbeList_t;

/*
 * The field `errno' clashes with the errno macro of <errno.h> when that is
 * included first. It is declared with the macro set aside, so that the
 * layout and the name are the public ones, a plain member that cgo, ctypes
 * and bindgen see. Code that has the macro in scope reads the field with
 * providerErrno() instead.
 */
#ifdef errno
#define _SDT_ERRNO_WAS_MACRO 1
#pragma push_macro("errno")
#undef errno
#endif

typedef struct SDTProvider {
	char *name;
	SDTProbeList_t *probes; /* newest first */
	SDTError_t errno;	/* noError, or what the last call failed with */
	char *error; /* NULL, or a message saying what failed and why */

	/* private */
	void *_handle;
	char *_filename;
	int _memfd;
	MemFDOption_t _use_memfd;
} SDTProvider_t;

#ifdef _SDT_ERRNO_WAS_MACRO
#pragma pop_macro("errno")
#undef _SDT_ERRNO_WAS_MACRO
#endif

/* Extension: PROVIDER->errno, for code where errno is <errno.h>'s macro. */
SDTError_t providerErrno(const SDTProvider_t *provider);

/*
 * A new, empty provider; NULL only when memory is short or NAME is NULL.
 * Names: any printable characters but blanks and ':' (my-app, 9lives); a
 * bad provider name is reported by providerLoad().
 */
SDTProvider_t *providerInit(const char *name);

/*
 * Where providerLoad() puts the shared object: a memfd (the default, seen by
 * tracers through /proc/PID/fd) or a file in a private directory (for tools
 * that need a path). Returns 1, or 0 when the provider is loaded.
 */
int providerUseMemfd(SDTProvider_t *provider, const MemFDOption_t use_memfd);

/*
 * Declare probe NAME with ARGCOUNT arguments (0..12; the public library
 * stops at 6), followed by one ArgType_t per argument. Returns the probe,
 * or NULL with provider->errno and provider->error set. A name given again
 * makes another site of the same probe, with its own stub. Added while the
 * provider is loaded, a probe takes effect at the next providerExtend(),
 * or at the next load.
 */
SDTProbe_t *providerAddProbe(SDTProvider_t *provider, const char *name,
			     int argCount, ...);

/*
 * Build and load the shared object. Returns 0 (also, doing nothing, when
 * the provider is loaded already), or -1 with errno/error set.
 */
int providerLoad(SDTProvider_t *provider);

/*
 * Extension: make the probes added since the last load or extend live in
 * the loaded provider, for runtimes that declare probes as code appears.
 * They go into one more small object of their own: every probe already
 * loaded keeps its site, its semaphore and its attached tracers, and the
 * cost is that of the new probes only. Tracers that look afterwards see
 * the new ones (bpftrace -l, bpftrace -p started later, sdt-list -p). On a
 * provider that is not loaded it is providerLoad(). Returns 0 (also when
 * there is nothing to add), or -1 with errno/error set as providerLoad()
 * sets them; the probes not added stay pending for the next call.
 */
int providerExtend(SDTProvider_t *provider);

/*
 * Make the probes disappear for tracers and give back what the load and
 * the extends took (mappings, memfds or files, descriptors); they may be
 * fired (as no-ops),
 * added to and loaded again. Returns 0 (also when not loaded), or -1 with
 * errno/error set (sharedLibraryCloseError: _handle was closed elsewhere).
 */
int providerUnload(SDTProvider_t *provider);

/*
 * Unload and free the provider and its probes. No other thread may use them
 * any more (as with free()).
 */
void providerDestroy(SDTProvider_t *provider);

/*
 * Fire PROBE with its arguments, each read as a uint64_t (extra ones are
 * ignored). Costs a call and two loads while nothing is attached; safe to
 * call from any thread, also while another thread loads, extends or
 * unloads.
 */
void probeFire(SDTProbe_t *probe, ...);

/* 1 while a tracer is attached to PROBE, else 0. Lock-free, no syscall. */
int probeIsEnabled(SDTProbe_t *probe);

/*
 * Extension: providerAddProbe() with the argument types in an array, for
 * bindings that cannot build a C variadic call.
 */
SDTProbe_t *providerAddProbeArgs(SDTProvider_t *provider, const char *name,
				 int argCount, const ArgType_t *types);

/* Extension: the type of argument INDEX (0-based), noarg past argCount. */
ArgType_t probeArgType(const SDTProbe_t *probe, int index);

/*
 * Extension: what argument INDEX (0-based) of PROBE is, for tools: CTYPE
 * its C type without the name ("const char *", "uint64_t"), NAME a C
 * identifier, or NULL or "" for none. providerLoad() records the types of
 * each probe whose every argument was described (the .note.sdtkit record
 * dtrace-gen writes), so that `sdt-list' shows `app:req(const char *path,
 * int status)' and a generated bpftrace program reads the string. Call it
 * before providerLoad(); on a loaded provider it takes effect at the next
 * load. Returns 0, or -1 with provider->errno and provider->error set.
 */
int probeSetArgInfo(SDTProbe_t *probe, int index, const char *ctype,
		    const char *name);

/*
 * Extension: the probe's semaphore, counted up by tracers that attach
 * through it (uprobe ref_ctr: bpftrace, libbpf, perf). A pointer taken
 * while the provider is loaded is valid until it is unloaded; one taken
 * while it is not loaded points at a 0 that stays valid.
 */
const volatile unsigned short *probeSemaphore(const SDTProbe_t *probe);

/*
 * Extension: what providerAddProbe() really allocates. The semaphore
 * pointer sits right after the public list node so that the check below
 * can be inlined; nothing else here is public.
 */
typedef struct SDTProbeNode_ {
	SDTProbeList_t list;
	const volatile unsigned short *_semaphore;
	/* The stub's first 8 bytes as loaded, before any tracer touched it. */
	_sdt_u64 _idle_word;
} SDTProbeNode_t;

#if defined(__cplusplus) ||                                                    \
	(defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define _SDT_INLINE static inline
#else
#define _SDT_INLINE static __inline__
#endif

/*
 * Extension: the inline enabled check, one load more than reading a cached
 * probeSemaphore(). It sees tracers that count the semaphore (bpftrace,
 * libbpf, perf with ref_ctr); probeIsEnabled() also sees those that only
 * plant a breakpoint. Like every inline form here it reads the loaded
 * object directly: not while another thread may unload the provider (the
 * library's functions are safe then).
 */
_SDT_INLINE int probeIsEnabledInline(const SDTProbe_t *probe)
{
	const SDTProbeNode_t *node =
		(const SDTProbeNode_t *)(const void *)probe;
#if defined(__GNUC__)
	const volatile unsigned short *sema =
		__atomic_load_n(&node->_semaphore, __ATOMIC_RELAXED);
#else
	const volatile unsigned short *sema = node->_semaphore;
#endif
	return *sema != 0;
}

/* Extension: the same over a semaphore pointer kept by the caller. */
#define SDT_SEMAPHORE_ENABLED(sema) (*(sema) != 0)

#if defined(__GNUC__)
/*
 * The test behind probeFire() and probeIsEnabled(), the one the library
 * itself uses: PROBE's stub while a tracer is attached (its semaphore is
 * counted, or the stub's first bytes differ from those loaded), else NULL.
 */
_SDT_INLINE void *_sdt_traced_stub(const SDTProbe_t *probe)
{
	const SDTProbeNode_t *node =
		(const SDTProbeNode_t *)(const void *)probe;
	void *stub;
	const volatile unsigned short *sema;
	_sdt_u64 word;

	if (!probe)
		return 0;
	stub = __atomic_load_n(&probe->_fire, __ATOMIC_ACQUIRE);
	if (!stub)
		return 0;
	sema = __atomic_load_n(&node->_semaphore, __ATOMIC_RELAXED);
	word = __atomic_load_n((const _sdt_u64 *)stub, __ATOMIC_RELAXED);
	return ((*sema != 0) | (word != node->_idle_word)) ? stub : 0;
}

/*
 * probeIsEnabled() itself, inlined: a runtime asks it before every fire,
 * and a call costs more than the test. Taking the function's address, or
 * defining LIBSTAPSDT_NO_INLINE, still gets the library's function, the
 * one to use while another thread may unload the provider.
 */
#ifndef LIBSTAPSDT_NO_INLINE
#define probeIsEnabled(probe) (_sdt_traced_stub(probe) != 0)
#endif
#endif

#undef _SDT_INLINE

#ifdef __cplusplus
}
#endif

#endif
