/* SPDX-License-Identifier: MIT */
/*
 * Inside the consumer models: what consumers.c shares with the one file
 * per tracer (consumer-libbpf.c, consumer-bcc.c, consumer-bpftrace.c,
 * consumer-gdb.c, consumer-perf.c). The rest of sdt-list sees only
 * consumer_check() and friends in sdt-list.h.
 */
#ifndef SDT_LIST_CONSUMERS_H
#define SDT_LIST_CONSUMERS_H

#include "sdt-list.h"

/* Fill V with "cannot read argument ARG" and a reason; returns 0. */
int refuse(struct verdict *v, int arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* S is one of the NULL-terminated LIST. */
int in_list(const char *s, const char *const *list);

/* NAME is PREFIX followed by a decimal number in [LO, HI], then SUFFIX. */
int numbered(const char *name, const char *prefix, int lo, int hi,
	     const char *suffix);

/* Length of the match of the POSIX ERE RX at the start of S, or -1. */
int rx_match(const char *rx, const char *s);

/* The argument text at SPEC[START..START+LEN), for messages. */
#define ARGFMT "argument %d (`%.*s')"

/* One argument as bcc's parser took it, for bpftrace's checks. */
struct bcc_arg {
	int has_size;
	int size;
	int has_const;
	int has_deref;
	int has_ident;
	char ident[64];
	char base[16]; /* bcc's normalized name: "ax", "r8", "ip", "xmm0" */
	char index[16];
};

/* What bpftrace 0.17 refuses of an x86 argument bcc parsed: 1 if none. */
int bpftrace_x86_ok(const struct bcc_arg *a, int argn, struct verdict *v);

/*
 * Each model: 0, or 1 when the spec makes it drop the whole file. SIB: the
 * index-register forms of libbpf 1.6 on (x86).
 */
int libbpf_check(enum sdt_arch a, const char *spec, int sib, struct verdict *v);
int bpftrace_libbpf_check(enum sdt_arch a, const char *spec, struct verdict *v);
int bcc_check(enum sdt_arch a, const char *spec, struct verdict *v);
int gdb_check(enum sdt_arch a, const char *spec, struct verdict *v);
int perf_check(enum sdt_arch a, const char *spec, struct verdict *v);

#endif
