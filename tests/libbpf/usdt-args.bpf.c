/* SPDX-License-Identifier: MIT */
/*
 * The BPF side of tests/libbpf/usdt-trace: what a libbpf-based tracer
 * (one built on <bpf/usdt.bpf.h>, like the kernel's selftests or a
 * libbpf-tools program) sees at a USDT probe.
 *
 * `record' copies every hit to a ring buffer: the attach cookie (which
 * probe), the argument count libbpf parsed from the note, and each of up
 * to BPF_USDT_MAX_ARG_CNT (12) arguments with bpf_usdt_arg()'s return
 * code, so user space can say which argument libbpf failed to read.
 * `count' and `count_uprobe' only count hits (and read the first
 * argument, as a real tracer would): they time the traced path itself.
 *
 * Compiled by the tests with `clang -O2 -g -target bpf'; no vmlinux.h is
 * needed, the x86_64 pt_regs layout comes from bpf_tracing.h.
 */
#include <stdbool.h> /* usdt.bpf.h expects bool from vmlinux.h */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/usdt.bpf.h>

#include "usdt-hit.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} hits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct usdt_count);
} counter SEC(".maps");

SEC("usdt")
int record(struct pt_regs *ctx)
{
	struct usdt_hit *h = bpf_ringbuf_reserve(&hits, sizeof(*h), 0);
	long val;

	if (!h)
		return 0;
	h->cookie = bpf_usdt_cookie(ctx);
	h->arg_cnt = bpf_usdt_arg_cnt(ctx);
	for (int i = 0; i < USDT_HIT_MAX_ARGS; i++) {
		val = 0;
		h->err[i] = bpf_usdt_arg(ctx, i, &val);
		h->val[i] = val;
	}
	bpf_ringbuf_submit(h, 0);
	return 0;
}

static void count_hit(long arg0)
{
	__u32 key = 0;
	struct usdt_count *c = bpf_map_lookup_elem(&counter, &key);

	if (c) {
		c->hits++;
		c->sum += arg0; /* keeps the argument read: tracers read args */
	}
}

SEC("usdt")
int count(struct pt_regs *ctx)
{
	long arg0 = 0;

	bpf_usdt_arg(ctx, 0, &arg0);
	count_hit(arg0);
	return 0;
}

SEC("uprobe")
int count_uprobe(struct pt_regs *ctx)
{
	count_hit((long)PT_REGS_PARM1(ctx));
	return 0;
}
