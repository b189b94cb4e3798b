/* SPDX-License-Identifier: MIT */
/*
 * The public API over the provider model: providers and their probes, the
 * checks that keep a bad name or type from reaching the object writer, and
 * the error a failed call leaves on the provider (a code in `errno', a
 * message in `error' naming the provider, the probe and what to do).
 *
 * Loading and unloading live in loader.c, firing in fire.c.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int sdt_set_error(SDTProvider_t *p, SDTError_t code, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	free(p->error);
	p->error = msg;
	p->errorCode = code;
	return -1;
}

void sdt_clear_error(SDTProvider_t *p)
{
	free(p->error);
	p->error = NULL;
	p->errorCode = noError;
}

/* NULL when NAME is a usable provider or probe name, else why not. */
static const char *name_problem(const char *name)
{
	size_t len;

	if (!name || !*name)
		return "is empty";
	len = strnlen(name, SDT_NAME_MAX + 1);
	if (len > SDT_NAME_MAX)
		return "is longer than 128 characters";
	if (name[0] >= '0' && name[0] <= '9')
		return "starts with a digit";
	for (size_t i = 0; i < len; i++) {
		char c = name[i];

		if (!(c == '_' || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
			return "has a character other than letters, digits "
			       "and '_'";
	}
	return NULL;
}

static int valid_arg_type(int t)
{
	return t == 1 || t == -1 || t == 2 || t == -2 || t == 4 || t == -4 ||
	       t == 8 || t == -8;
}

SDTProvider_t *providerInit(const char *name)
{
	struct sdt_provider *sp;
	SDTProvider_t *p;
	const char *why;

	if (!name)
		return NULL;
	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return NULL;
	p = &sp->pub;
	p->name = strdup(name);
	if (!p->name) {
		free(sp);
		return NULL;
	}
	p->errorCode = noError;
	p->_memfd = -1;
	p->_use_memfd = memfd_enabled;
	/*
	 * A bad name is reported here and again by providerLoad(): bindings
	 * expect a provider back and check errors at load time.
	 */
	why = name_problem(name);
	if (why)
		sdt_set_error(p, invalidNameError,
			      "libstapsdt: provider name '%.*s' %s: use a C "
			      "identifier of at most %d characters",
			      SDT_NAME_MAX, name, why, SDT_NAME_MAX);
	return p;
}

int providerUseMemfd(SDTProvider_t *provider, const MemFDOption_t use_memfd)
{
	int ret = 0;

	if (!provider)
		return 0;
	sdt_registry_lock();
	if (sdt_provider_of(provider)->loaded)
		sdt_set_error(provider, providerStateError,
			      "libstapsdt: provider '%s' is loaded: choose "
			      "the placement before providerLoad()",
			      provider->name);
	else if (use_memfd != memfd_disabled && use_memfd != memfd_enabled)
		sdt_set_error(
		    provider, invalidArgumentError,
		    "libstapsdt: provider '%s': memfd option %d is "
		    "neither memfd_disabled (0) nor memfd_enabled (1)",
		    provider->name, (int)use_memfd);
	else {
		provider->_use_memfd = use_memfd;
		ret = 1;
	}
	sdt_registry_unlock();
	return ret;
}

/*
 * Probe names are unique within a provider. Runtimes declare thousands of
 * probes, so the check goes through an open hash (linear probing, at most
 * half full) rather than down the list.
 */
static size_t name_hash(const char *s)
{
	size_t h = 2166136261u; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static SDTProbe_t **name_slot(struct sdt_provider *sp, const char *name)
{
	size_t mask = sp->by_name_cap - 1, i = name_hash(name) & mask;

	while (sp->by_name[i] && strcmp(sp->by_name[i]->name, name) != 0)
		i = (i + 1) & mask;
	return &sp->by_name[i];
}

static int find_probe(SDTProvider_t *p, const char *name)
{
	struct sdt_provider *sp = sdt_provider_of(p);

	return sp->by_name_cap && *name_slot(sp, name) != NULL;
}

/* Room in the hash for one more probe; -1 when memory is short. */
static int name_index_reserve(struct sdt_provider *sp)
{
	size_t cap = sp->by_name_cap ? sp->by_name_cap : 16;
	SDTProbe_t **old = sp->by_name;
	size_t old_cap = sp->by_name_cap;

	while (cap < 2 * (sp->nprobes + 1))
		cap *= 2;
	if (cap == sp->by_name_cap)
		return 0;
	sp->by_name = calloc(cap, sizeof(*sp->by_name));
	if (!sp->by_name) {
		sp->by_name = old;
		return -1;
	}
	sp->by_name_cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i])
			*name_slot(sp, old[i]->name) = old[i];
	free(old);
	return 0;
}

/* Checks everything about a new probe; 0, or -1 with the error set. */
static int check_probe(SDTProvider_t *p, const char *name, int argc,
		       const int *types)
{
	const char *why = name_problem(name);

	if (sdt_provider_of(p)->loaded)
		return sdt_set_error(p, providerStateError,
				     "libstapsdt: provider '%s' is loaded: "
				     "call providerUnload() before adding "
				     "probe '%.*s'",
				     p->name, SDT_NAME_MAX, name ? name : "");
	if (why)
		return sdt_set_error(p, invalidNameError,
				     "libstapsdt: provider '%s': probe name "
				     "'%.*s' %s: use a C identifier of at most "
				     "%d characters",
				     p->name, SDT_NAME_MAX, name ? name : "",
				     why, SDT_NAME_MAX);
	if (argc < 0 || argc > SDT_MAX_ARGS)
		return sdt_set_error(p, invalidArgumentError,
				     "libstapsdt: probe '%s:%s': %d arguments; "
				     "a probe has 0 to %d",
				     p->name, name, argc, SDT_MAX_ARGS);
	for (int i = 0; i < argc; i++)
		if (!valid_arg_type(types[i]))
			return sdt_set_error(
			    p, invalidArgumentError,
			    "libstapsdt: probe '%s:%s': argument %d has "
			    "type %d; use one of uint8/int8, uint16/int16, "
			    "uint32/int32, uint64/int64 (1, 2, 4, 8, "
			    "negative for signed)",
			    p->name, name, i + 1, types[i]);
	if (find_probe(p, name))
		return sdt_set_error(p, duplicateProbeError,
				     "libstapsdt: provider '%s' already has a "
				     "probe named '%s': probe names must be "
				     "unique within a provider",
				     p->name, name);
	return 0;
}

static SDTProbe_t *add_probe(SDTProvider_t *p, const char *name, int argc,
			     const int *types)
{
	struct sdt_probe_node *n;
	SDTProbe_t *probe;

	if (check_probe(p, name, argc, types) < 0)
		return NULL;
	n = calloc(1, sizeof(*n));
	if (!n || name_index_reserve(sdt_provider_of(p)) < 0 ||
	    !(n->pub.list.probe.name = strdup(name))) {
		free(n);
		sdt_set_error(p, outOfMemoryError,
			      "libstapsdt: probe '%s:%s': out of memory",
			      p->name, name);
		return NULL;
	}
	probe = &n->pub.list.probe;
	for (int i = 0; i < argc; i++) {
		n->types[i] = (signed char)types[i];
		if (i < MAX_ARGUMENTS)
			probe->argFmt[i] = (ArgType_t)types[i];
	}
	probe->argCount = argc;
	probe->provider = p;
	n->pub._semaphore = &sdt_idle_semaphore;
	n->pub._idle_word = sdt_stub_idle_word();
	/* Newest first, as the public library keeps them. */
	n->pub.list.next = p->probes;
	p->probes = &n->pub.list;
	*name_slot(sdt_provider_of(p), probe->name) = probe;
	sdt_provider_of(p)->nprobes++;
	return probe;
}

/* Serialize with load/unload: both read and write the probe list. */
static SDTProbe_t *add_probe_locked(SDTProvider_t *p, const char *name,
				    int argc, const int *types)
{
	SDTProbe_t *probe;

	sdt_registry_lock();
	probe = add_probe(p, name, argc, types);
	sdt_registry_unlock();
	return probe;
}

SDTProbe_t *providerAddProbe(SDTProvider_t *provider, const char *name,
			     int argCount, ...)
{
	int types[SDT_MAX_ARGS] = {0};
	va_list ap;

	if (!provider)
		return NULL;
	/* Read no more varargs than a valid probe has; check_probe() says why.
	 */
	va_start(ap, argCount);
	for (int i = 0; i < argCount && i < SDT_MAX_ARGS; i++)
		types[i] = va_arg(ap, int);
	va_end(ap);
	return add_probe_locked(provider, name, argCount, types);
}

SDTProbe_t *providerAddProbeArgs(SDTProvider_t *provider, const char *name,
				 int argCount, const ArgType_t *types)
{
	int t[SDT_MAX_ARGS] = {0};

	if (!provider)
		return NULL;
	if (argCount > 0 && !types) {
		sdt_set_error(provider, invalidArgumentError,
			      "libstapsdt: probe '%s:%s': %d arguments but no "
			      "types given",
			      provider->name, name ? name : "", argCount);
		return NULL;
	}
	for (int i = 0; i < argCount && i < SDT_MAX_ARGS; i++)
		t[i] = types[i];
	return add_probe_locked(provider, name, argCount, t);
}

ArgType_t probeArgType(const SDTProbe_t *probe, int index)
{
	if (!probe || index < 0 || index >= probe->argCount)
		return noarg;
	return (ArgType_t)sdt_node_of(probe)->types[index];
}

const volatile unsigned short *probeSemaphore(const SDTProbe_t *probe)
{
	if (!probe)
		return &sdt_idle_semaphore;
	return __atomic_load_n(&sdt_node_of(probe)->pub._semaphore,
			       __ATOMIC_ACQUIRE);
}

int providerLoad(SDTProvider_t *provider)
{
	const char *why;
	int ret;

	if (!provider)
		return -1;
	why = name_problem(provider->name);
	if (why)
		return sdt_set_error(provider, invalidNameError,
				     "libstapsdt: provider name '%.*s' %s: use "
				     "a C identifier of at most %d characters",
				     SDT_NAME_MAX, provider->name, why,
				     SDT_NAME_MAX);
	sdt_registry_lock();
	ret = sdt_load(sdt_provider_of(provider));
	sdt_registry_unlock();
	return ret;
}

int providerUnload(SDTProvider_t *provider)
{
	int ret;

	if (!provider)
		return -1;
	sdt_registry_lock();
	ret = sdt_unload(sdt_provider_of(provider));
	sdt_registry_unlock();
	return ret;
}

void providerDestroy(SDTProvider_t *provider)
{
	SDTProbeList_t *n, *next;

	if (!provider)
		return;
	sdt_registry_lock();
	sdt_release(sdt_provider_of(provider));
	sdt_registry_unlock();
	for (n = provider->probes; n; n = next) {
		next = n->next;
		free(n->probe.name);
		free(n);
	}
	free(provider->name);
	free(provider->error);
	free(provider->_filename);
	free(sdt_provider_of(provider)->by_name);
	free(sdt_provider_of(provider));
}
