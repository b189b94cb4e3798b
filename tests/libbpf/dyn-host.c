/* SPDX-License-Identifier: MIT */
/*
 * A libstapsdt provider for dynamic.sh to trace with libbpf: one probe per
 * ArgType_t (its two extremes, the narrow ones passed with junk in the
 * upper bits, which the note's size must make a tracer drop), a probe with
 * all eight types, probes of 0 to 12 int64 arguments and a 12-argument
 * probe mixing every type.
 *
 *   dyn-host [--file] EXPECTED-FILE
 *
 * Loads the provider (into a memfd, or with --file a file), prints "ready
 * PID PATH ENABLED", waits for SIGUSR1 (the tracer is attached), fires
 * every probe once, writes "NAME ARGC V0 V1 ..." per probe to
 * EXPECTED-FILE (each value as its ArgType_t makes it, as a signed 64-bit
 * decimal), prints "fired ENABLED INLINE", waits for a second SIGUSR1 (the
 * tracer is gone) and prints "detached ENABLED INLINE": how many probes
 * probeIsEnabled() and probeIsEnabledInline() call enabled at each step.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libstapsdt.h"

#define MAX_PROBES 32

static const ArgType_t all_types[8] = { uint8,	int8,  uint16, int16,
					uint32, int32, uint64, int64 };

struct dyn_probe {
	SDTProbe_t *probe;
	char name[16];
	int argc;
	ArgType_t types[SDT_MAX_ARGS];
	uint64_t args[SDT_MAX_ARGS];
};

static struct dyn_probe probes[MAX_PROBES];
static int nprobes;

/* What a tracer reads for V passed as TYPE: its low bytes, sign-extended
 * for the signed types. */
static long long as_read(ArgType_t type, uint64_t v)
{
	switch (type) {
	case uint8:
		return (uint8_t)v;
	case int8:
		return (int8_t)(uint8_t)v;
	case uint16:
		return (uint16_t)v;
	case int16:
		return (int16_t)(uint16_t)v;
	case uint32:
		return (uint32_t)v;
	case int32:
		return (int32_t)(uint32_t)v;
	default:
		return (long long)v;
	}
}

static struct dyn_probe *declare(const char *name, int argc)
{
	struct dyn_probe *d = &probes[nprobes++];

	snprintf(d->name, sizeof(d->name), "%s", name);
	d->argc = argc;
	return d;
}

static void declare_all(void)
{
	static const char *const type_names[8] = { "u8",  "i8",	 "u16", "i16",
						   "u32", "i32", "u64", "i64" };
	struct dyn_probe *d;
	char name[16];

	/* Per type: its minimum and maximum; junk above the narrow ones. */
	for (int t = 0; t < 8; t++) {
		int bytes = all_types[t] < 0 ? -all_types[t] : all_types[t];
		uint64_t mask = bytes == 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
		uint64_t junk = 0xa5a5a5a5a5a5a5a5ull & ~mask;

		snprintf(name, sizeof(name), "t_%s", type_names[t]);
		d = declare(name, 2);
		d->types[0] = d->types[1] = all_types[t];
		if (all_types[t] < 0) {
			d->args[0] = junk | ((mask >> 1) + 1); /* minimum */
			d->args[1] = mask >> 1;		       /* maximum */
		} else {
			d->args[0] = junk; /* 0 */
			d->args[1] = mask;
		}
	}
	d = declare("all8", 8);
	for (int i = 0; i < 8; i++) {
		d->types[i] = all_types[i];
		d->args[i] = 0 - 0x0101010101010101ull * (uint64_t)(i + 1);
	}
	for (int n = 0; n <= SDT_MAX_ARGS; n++) {
		snprintf(name, sizeof(name), "a%d", n);
		d = declare(name, n);
		for (int i = 0; i < n; i++) {
			d->types[i] = int64;
			d->args[i] = (uint64_t)((i % 2 ? -1 : 1) *
						(n * 1000LL + i + 1));
		}
	}
	d = declare("m12", SDT_MAX_ARGS);
	for (int i = 0; i < SDT_MAX_ARGS; i++) {
		d->types[i] = all_types[(i * 3) % 8];
		d->args[i] = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1);
	}
	d->types[11] = uint64;
	d->args[11] = (uint64_t)(uintptr_t)&probes; /* a pointer */
}

static int load(SDTProvider_t *p, int use_file)
{
	if (use_file && !providerUseMemfd(p, memfd_disabled))
		return -1;
	for (int i = 0; i < nprobes; i++) {
		probes[i].probe = providerAddProbeArgs(
			p, probes[i].name, probes[i].argc, probes[i].types);
		if (!probes[i].probe)
			return -1;
	}
	return providerLoad(p);
}

static void fire(struct dyn_probe *d, FILE *want)
{
	const uint64_t *a = d->args;

	probeFire(d->probe, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
		  a[8], a[9], a[10], a[11]);
	fprintf(want, "%s %d", d->name, d->argc);
	for (int i = 0; i < d->argc; i++)
		fprintf(want, " %lld", as_read(d->types[i], a[i]));
	fprintf(want, "\n");
}

/* "ENABLED INLINE": probes that probeIsEnabled() and the inline check see. */
static void print_enabled(const char *what)
{
	int enabled = 0, inl = 0;

	for (int i = 0; i < nprobes; i++) {
		enabled += probeIsEnabled(probes[i].probe);
		inl += probeIsEnabledInline(probes[i].probe);
	}
	printf("%s %d %d\n", what, enabled, inl);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int use_file = argc == 3 && strcmp(argv[1], "--file") == 0, sig;
	SDTProvider_t *p;
	sigset_t set;
	FILE *want;

	if (argc != 2 + use_file) {
		fprintf(stderr, "usage: dyn-host [--file] EXPECTED-FILE\n");
		return 2;
	}
	want = fopen(argv[argc - 1], "w");
	if (!want) {
		perror(argv[argc - 1]);
		return 1;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	declare_all();
	p = providerInit("lbdyn");
	if (!p || load(p, use_file) != 0) {
		fprintf(stderr, "dyn-host: %s\n", p ? p->error : "no memory");
		return 1;
	}
	printf("ready %d %s ", (int)getpid(), p->_filename);
	print_enabled("enabled");
	if (sigwait(&set, &sig) != 0)
		return 1;
	print_enabled("attached");
	for (int i = 0; i < nprobes; i++)
		fire(&probes[i], want);
	if (fclose(want) != 0) {
		perror(argv[argc - 1]);
		return 1;
	}
	print_enabled("fired");
	if (sigwait(&set, &sig) != 0)
		return 1;
	print_enabled("detached");
	providerDestroy(p);
	return 0;
}
