/* SPDX-License-Identifier: MIT */
/*
 * What usdt-args.bpf.c hands to usdt-trace.c: a probe hit through the ring
 * buffer, hit counts through a per-CPU array. Shared so that both sides
 * agree on the layout.
 */
#ifndef USDT_HIT_H
#define USDT_HIT_H

/* libbpf 1.1 reads at most this many USDT arguments (BPF_USDT_MAX_ARG_CNT). */
#define USDT_HIT_MAX_ARGS 12

struct usdt_hit {
	__u64 cookie; /* the attachment's usdt_cookie: an index of the probe */
	__s64 val[USDT_HIT_MAX_ARGS];
	__s32 err[USDT_HIT_MAX_ARGS]; /* bpf_usdt_arg()'s return, 0 if read */
	__s32 arg_cnt; /* bpf_usdt_arg_cnt(): arguments in the note's spec */
	__s32 pad;
};

/* The `count' programs' per-CPU tally. */
struct usdt_count {
	__u64 hits;
	__u64 sum; /* of the first arguments, so that they are really read */
};

#endif
