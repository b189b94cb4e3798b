/* SPDX-License-Identifier: MIT */
/*
 * The public API over the provider model: providers and their probes (and
 * what tools may know of their arguments: probeSetArgInfo()), the
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
#include "names.h"
#include "typerec.h"

/*
 * The one place that names the field `errno': with <errno.h>'s macro set
 * aside, as in the public header (whichever header brought the macro in).
 */
#pragma push_macro("errno")
#undef errno
static void store_code(SDTProvider_t *p, SDTError_t code)
{
	p->errno = code;
}

SDTError_t providerErrno(const SDTProvider_t *provider)
{
	return provider ? provider->errno : noError;
}
#pragma pop_macro("errno")

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
	store_code(p, code);
	return -1;
}

void sdt_clear_error(SDTProvider_t *p)
{
	free(p->error);
	p->error = NULL;
	store_code(p, noError);
}

/*
 * NULL when NAME can be a provider or probe name, else why not. What the
 * public library takes and tracers still use is allowed (`my-app', `9lives',
 * `probe.x', UTF-8); refused is only what cannot work: nothing, blanks and
 * control bytes (tracers split and print names), ':' (it separates provider
 * and probe in every tracer's syntax), and names longer than MAX.
 */
static const char *name_problem(const char *name, size_t max)
{
	size_t len;

	if (!name || !*name)
		return "is empty";
	len = strnlen(name, max + 1);
	if (len > max)
		return "is too long";
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c == ':')
			return "contains ':'";
		if (c <= ' ' || c == 0x7f)
			return "contains a blank or a control character";
	}
	return NULL;
}

/* Like the public library, a bad provider name is reported by the load. */
SDTProvider_t *providerInit(const char *name)
{
	struct sdt_provider *sp;
	SDTProvider_t *p;

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
	store_code(p, noError);
	p->_memfd = -1;
	p->_use_memfd = memfd_enabled;
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
		sdt_clear_error(provider);
		ret = 1;
	}
	sdt_registry_unlock();
	return ret;
}

/*
 * Probes by name: an open hash (linear probing, at most half full) of the
 * first probe of each name, since runtimes declare thousands of probes and
 * a name is looked up for every one added (duplicates, symbol clashes).
 */
static size_t name_hash(const char *s, size_t len)
{
	size_t h = 2166136261u; /* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* The slot of the LEN-byte name S: its first probe, or an empty slot. */
static SDTProbe_t **name_slot(struct sdt_provider *sp, const char *s,
			      size_t len)
{
	size_t mask = sp->by_name_cap - 1, i = name_hash(s, len) & mask;

	while (sp->by_name[i] && (strncmp(sp->by_name[i]->name, s, len) != 0 ||
				  sp->by_name[i]->name[len] != '\0'))
		i = (i + 1) & mask;
	return &sp->by_name[i];
}

static SDTProbe_t *find_probe(struct sdt_provider *sp, const char *s,
			      size_t len)
{
	return sp->by_name_cap ? *name_slot(sp, s, len) : NULL;
}

/* Room in the hash for one more name; -1 when memory is short. */
static int name_index_reserve(struct sdt_provider *sp)
{
	size_t cap = sp->by_name_cap ? sp->by_name_cap : 16;
	SDTProbe_t **old = sp->by_name;
	size_t old_cap = sp->by_name_cap;

	while (cap < 2 * (sp->nnames + 1))
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
			*name_slot(sp, old[i]->name, strlen(old[i]->name)) =
				old[i];
	free(old);
	return 0;
}

/*
 * A probe's stub symbol is its name and its semaphore's is
 * PROVIDER_PROBE_semaphore (object.c), so probe `P_X_semaphore' and probe
 * `X' of provider P would define one symbol twice. NAME is refused when it
 * completes such a pair, whichever of the two comes first.
 */
static int symbol_clash(SDTProvider_t *p, const char *name)
{
	struct sdt_provider *sp = sdt_provider_of(p);
	size_t plen = strlen(p->name), nlen = strlen(name);
	const size_t slen = sizeof(SDT_SEMAPHORE_SUFFIX) - 1;
	char buf[512], *sema = buf;
	size_t len;
	int clash;

	if (nlen > plen + 1 + slen && strncmp(name, p->name, plen) == 0 &&
	    name[plen] == '_' &&
	    strcmp(name + nlen - slen, SDT_SEMAPHORE_SUFFIX) == 0 &&
	    find_probe(sp, name + plen + 1, nlen - plen - 1 - slen))
		return 1;
	if (!sp->by_name_cap)
		return 0;
	len = sdt_semaphore_symbol(buf, sizeof(buf), p->name, name,
				   SDT_SEMA_PROVIDER_PROBE);
	if (len >= sizeof(buf)) {
		if (!(sema = malloc(len + 1)))
			return 0;
		sdt_semaphore_symbol(sema, len + 1, p->name, name,
				     SDT_SEMA_PROVIDER_PROBE);
	}
	clash = find_probe(sp, sema, len) != NULL;
	if (sema != buf)
		free(sema);
	return clash;
}

static int valid_arg_type(int t)
{
	return t == 1 || t == -1 || t == 2 || t == -2 || t == 4 || t == -4 ||
	       t == 8 || t == -8;
}

/* Checks everything about a new probe; 0, or -1 with the error set. */
static int check_probe(SDTProvider_t *p, const char *name, int argc,
		       const int *types)
{
	const char *why = name_problem(name, SDT_PROBE_NAME_MAX);

	if (why)
		return sdt_set_error(p, invalidNameError,
				     "libstapsdt: provider '%s': probe name "
				     "'%.*s' %s: use at most %d printable "
				     "characters other than ':'",
				     p->name, SDT_PROBE_NAME_MAX,
				     name ? name : "", why, SDT_PROBE_NAME_MAX);
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
	if (symbol_clash(p, name))
		return sdt_set_error(p, duplicateProbeError,
				     "libstapsdt: provider '%s': probe name "
				     "'%s' and another probe's semaphore "
				     "symbol would be one symbol: rename it",
				     p->name, name);
	return 0;
}

/*
 * A name given twice makes two probes, each with its own stub and note:
 * tracers see one probe with several sites, and each probeFire() goes to
 * its own site. The later ones are numbered for their symbols (object.c).
 */
static void index_name(struct sdt_provider *sp, struct sdt_probe_node *n)
{
	const char *name = n->pub.list.probe.name;
	SDTProbe_t **slot = name_slot(sp, name, strlen(name));

	if (*slot) {
		n->ordinal = ++sdt_node_of(*slot)->copies;
		return;
	}
	*slot = &n->pub.list.probe;
	sp->nnames++;
}

static SDTProbe_t *add_probe(SDTProvider_t *p, const char *name, int argc,
			     const int *types)
{
	struct sdt_provider *sp = sdt_provider_of(p);
	struct sdt_probe_node *n;
	SDTProbe_t *probe;

	if (check_probe(p, name, argc, types) < 0)
		return NULL;
	n = calloc(1, sizeof(*n));
	if (!n || name_index_reserve(sp) < 0 ||
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
	n->stub = sdt_unloaded_stub;
	n->pub._idle_word = sdt_stub_idle_word();
	/* Newest first, as the public library keeps them. */
	n->pub.list.next = p->probes;
	p->probes = &n->pub.list;
	index_name(sp, n);
	sp->nprobes++;
	sdt_clear_error(p);
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
	int types[SDT_MAX_ARGS] = { 0 };
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
	int t[SDT_MAX_ARGS] = { 0 };

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

/* NULL when NAME can name an argument (NULL and "" for none), else why. */
static const char *arg_name_problem(const char *name)
{
	size_t len = name ? strnlen(name, SDT_ARG_TEXT_MAX + 1) : 0;

	if (len > SDT_ARG_TEXT_MAX)
		return "is too long";
	if (len && name[0] >= '0' && name[0] <= '9')
		return "starts with a digit";
	for (size_t i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_'))
			return "is not a C identifier";
	}
	return NULL;
}

/* "TYPE\0NAME\0" in one allocation, or NULL when memory is short. */
static char *arg_text(const char *type, size_t tlen, const char *name)
{
	size_t nlen = name ? strlen(name) : 0;
	char *text = malloc(tlen + nlen + 2);

	if (text) {
		memcpy(text, type, tlen + 1);
		memcpy(text + tlen + 1, name ? name : "", nlen + 1);
	}
	return text;
}

/*
 * The type is kept normalized (typerec.h), as dtrace-gen records it from
 * a .d file, so that `char*' and `char *' make one record; the name is a C
 * identifier, as a parameter's name is in a .d file, so that generated
 * programs can print it.
 */
static int set_arg_info(SDTProvider_t *p, struct sdt_probe_node *n, int index,
			const char *ctype, const char *name)
{
	const SDTProbe_t *probe = &n->pub.list.probe;
	char type[SDT_ARG_TEXT_MAX + 1], *text;
	const char *why = "is missing";
	int tlen;

	if (index < 0 || index >= probe->argCount)
		return sdt_set_error(p, invalidArgumentError,
				     "libstapsdt: probe '%s:%s': no argument "
				     "at index %d to describe: it has %d, "
				     "numbered from 0",
				     p->name, probe->name, index,
				     probe->argCount);
	tlen = ctype ? sdt_type_normalize(ctype, type, sizeof(type), &why) : -1;
	if (tlen < 0)
		return sdt_set_error(
			p, invalidArgumentError,
			"libstapsdt: probe '%s:%s': the type of the argument "
			"at index %d "
			"%s: give a C type without the argument's name, "
			"such as 'const char *', of at most %d characters",
			p->name, probe->name, index, why, SDT_ARG_TEXT_MAX);
	why = arg_name_problem(name);
	if (why)
		return sdt_set_error(
			p, invalidNameError,
			"libstapsdt: probe '%s:%s': the name of the "
			"argument at index %d %s: use a C identifier of "
			"at most %d characters, or NULL for none",
			p->name, probe->name, index, why, SDT_ARG_TEXT_MAX);
	if ((!n->info && !(n->info = calloc(1, sizeof(*n->info)))) ||
	    !(text = arg_text(type, (size_t)tlen, name)))
		return sdt_set_error(p, outOfMemoryError,
				     "libstapsdt: probe '%s:%s': out of memory",
				     p->name, probe->name);
	free(n->info->text[index]);
	n->info->text[index] = text;
	n->info->type_len[index] = (unsigned short)tlen;
	sdt_provider_of(p)->has_arg_info = 1;
	sdt_clear_error(p);
	return 0;
}

/* Serialized with load, which reads the info to write the records. */
int probeSetArgInfo(SDTProbe_t *probe, int index, const char *ctype,
		    const char *name)
{
	int ret;

	if (!probe || !probe->provider)
		return -1;
	sdt_registry_lock();
	ret = set_arg_info(probe->provider, sdt_node_of(probe), index, ctype,
			   name);
	sdt_registry_unlock();
	return ret;
}

static void free_arg_info(struct sdt_probe_node *n)
{
	if (!n->info)
		return;
	for (int i = 0; i < SDT_MAX_ARGS; i++)
		free(n->info->text[i]);
	free(n->info);
}

const volatile unsigned short *probeSemaphore(const SDTProbe_t *probe)
{
	if (!probe)
		return &sdt_idle_semaphore;
	return __atomic_load_n(&sdt_node_of(probe)->pub._semaphore,
			       __ATOMIC_ACQUIRE);
}

/*
 * A provider name has to fit in the memfd's or the file's name: one too
 * long is the public library's tmpCreationError, reported at load as there.
 */
static int check_provider_name(SDTProvider_t *p)
{
	const char *why = name_problem(p->name, SIZE_MAX / 4);

	if (!why && strlen(p->name) > SDT_PROVIDER_NAME_MAX)
		return sdt_set_error(p, tmpCreationError,
				     "libstapsdt: provider name '%.40s...' is "
				     "%zu characters: a memfd or file for its "
				     "object takes at most %d",
				     p->name, strlen(p->name),
				     SDT_PROVIDER_NAME_MAX);
	if (why)
		return sdt_set_error(p, invalidNameError,
				     "libstapsdt: provider name '%s' %s: use "
				     "printable characters other than ':'",
				     p->name, why);
	return 0;
}

/* providerLoad() and providerExtend(): checks, then STEP under the lock. */
static int load_step(SDTProvider_t *provider,
		     int (*step)(struct sdt_provider *))
{
	int ret;

	if (!provider)
		return -1;
	if (check_provider_name(provider) < 0)
		return -1;
	sdt_registry_lock();
	ret = step(sdt_provider_of(provider));
	sdt_registry_unlock();
	return ret;
}

int providerLoad(SDTProvider_t *provider)
{
	return load_step(provider, sdt_load);
}

/* Like providerLoad(), which it is on a provider that is not loaded. */
int providerExtend(SDTProvider_t *provider)
{
	return load_step(provider, sdt_extend);
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
		free_arg_info(sdt_node_of(&n->probe));
		free(n->probe.name);
		free(n);
	}
	free(provider->name);
	free(provider->error);
	free(provider->_filename);
	free(sdt_provider_of(provider)->by_name);
	free(sdt_provider_of(provider));
}
