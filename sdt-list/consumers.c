/* SPDX-License-Identifier: MIT */
/*
 * What each tracer makes of a probe's argument spec.
 *
 * A spec that readelf shows and our strict validator refuses may still be
 * read by some tracers and not others, and each fails in its own way: one
 * drops the probe, one shifts the later arguments, one reads a wrong value,
 * one forgets the whole binary. --check answers "which consumer reads every
 * argument of this probe, and why not" by running a small model of each
 * consumer's parser, per architecture, written from its public source and
 * checked against the installed tools. One file per model:
 * consumer-libbpf.c, consumer-bcc.c (and consumer-bpftrace.c for what
 * bpftrace up to 0.24 refuses of bcc's parse, and for bpftrace 0.25 on,
 * which reads through libbpf), consumer-gdb.c, consumer-perf.c. The
 * columns are tracer generations, not the installed versions: a verdict
 * does not depend on the machine --check runs on. This file holds what
 * they share and the dispatch.
 *
 * Each model is a table of patterns or registers plus a short walk; adding
 * an architecture is adding a row.
 */
#include <ctype.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consumers.h"

const char *consumer_arch(const struct sdt_target *t)
{
	enum sdt_arch a = sdt_target_arch(t);

	return a == SDT_ARCH_UNKNOWN ? NULL : sdt_arch_name(a);
}

const char *consumer_name(enum consumer c)
{
	static const char *const names[] = { "libbpf", "bcc/bpftrace",
					     "bpftrace 0.25+", "gdb", "perf" };
	return c < CONSUMER_COUNT ? names[c] : "?";
}

int refuse(struct verdict *v, int arg, const char *fmt, ...)
{
	va_list ap;

	v->ok = 0;
	v->arg = arg;
	va_start(ap, fmt);
	vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
	return 0;
}

int in_list(const char *s, const char *const *list)
{
	for (; *list; list++) {
		if (!strcmp(s, *list))
			return 1;
	}
	return 0;
}

int numbered(const char *name, const char *prefix, int lo, int hi,
	     const char *suffix)
{
	size_t n = strlen(prefix);
	char *end;
	long v;

	if (strncmp(name, prefix, n) || !isdigit((unsigned char)name[n]))
		return 0;
	if (name[n] == '0' && isdigit((unsigned char)name[n + 1]))
		return 0;
	v = strtol(name + n, &end, 10);
	return v >= lo && v <= hi && !strcmp(end, suffix);
}

int rx_match(const char *rx, const char *s)
{
	regex_t re;
	regmatch_t m;
	int r;

	if (regcomp(&re, rx, REG_EXTENDED))
		return -1;
	r = regexec(&re, s, 1, &m, 0);
	regfree(&re);
	return r == 0 && m.rm_so == 0 ? (int)m.rm_eo : -1;
}

int consumer_check(enum consumer c, const struct sdt_target *t,
		   const char *spec, struct verdict *v)
{
	enum sdt_arch a = sdt_target_arch(t);

	v->ok = 1;
	v->arg = -1;
	v->why[0] = 0;
	if (a == SDT_ARCH_UNKNOWN) {
		if (*spec)
			refuse(v, -1, "no model for machine %u", t->machine);
		return 0;
	}
	switch (c) {
	case CONSUMER_LIBBPF:
		return libbpf_check(a, spec, 0, v);
	case CONSUMER_BCC:
		return bcc_check(a, spec, v);
	case CONSUMER_BPFTRACE:
		return bpftrace_libbpf_check(a, spec, v);
	case CONSUMER_GDB:
		return gdb_check(a, spec, v);
	case CONSUMER_PERF:
		return perf_check(a, spec, v);
	default:
		return 0;
	}
}
