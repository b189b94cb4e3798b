/* SPDX-License-Identifier: MIT */
/*
 * A small libbpf-based USDT tracer for the tests and the bench: the way
 * libbpf-tools and other CO-RE programs attach to USDT probes, which no
 * other tracer here (bpftrace and bcc go through bcc's own USDT code)
 * exercises. libbpf parses the note and its argument specs itself, reads
 * up to 12 arguments, and counts semaphores through the kernel's uprobe
 * ref_ctr_offset, so it checks our notes against a third implementation.
 *
 *   usdt-trace [-p PID] [-m record|count] [-t SECONDS] [-v]
 *              BPF-OBJECT BINARY PROVIDER:NAME...
 *   usdt-trace [-p PID] [-t SECONDS] -u FILE-OFFSET BPF-OBJECT BINARY
 *   usdt-trace -l BPF-OBJECT
 *
 * Attaches to each probe (cookie = its position on the command line),
 * prints "attached N", then in record mode one line per hit:
 * "NAME ARGC V0 V1 ..." (each value as a signed 64-bit decimal, or
 * "E<errno>" where bpf_usdt_arg() failed); a probe libbpf refuses gives
 * "attach-error PROVIDER:NAME: reason". Count mode (and -u, a raw uprobe
 * at a file offset) prints "hits N" at the end. Runs until PID exits, a
 * SIGINT/SIGTERM, or SECONDS (default 30; exit 2) pass. -l only loads
 * the object: exit 0 if this machine lets us load BPF programs, 3 if it
 * refuses them (no privilege), 1 on any other error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "usdt-hit.h"

#define MAX_PROBES 256

struct options {
	int pid;
	int seconds;
	int verbose;
	int count;
	int load_only;
	long uprobe_off; /* -1: attach USDT probes */
	const char *object;
	const char *binary;
	char **probes;
	int nprobes;
};

static volatile sig_atomic_t stop;
static int verbose;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int print_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: usdt-trace [-p PID] [-m record|count] [-t SECONDS] "
		"[-v] "
		"BPF-OBJECT BINARY PROVIDER:NAME...\n"
		"       usdt-trace [-p PID] [-t SECONDS] -u FILE-OFFSET "
		"BPF-OBJECT BINARY\n"
		"       usdt-trace -l BPF-OBJECT\n");
	exit(2);
}

static void parse_options(int argc, char **argv, struct options *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->pid = -1;
	o->seconds = 30;
	o->uprobe_off = -1;
	while ((c = getopt(argc, argv, "lp:m:t:u:v")) != -1) {
		switch (c) {
		case 'l':
			o->load_only = 1;
			break;
		case 'p':
			o->pid = atoi(optarg);
			break;
		case 'm':
			if (strcmp(optarg, "count") == 0)
				o->count = 1;
			else if (strcmp(optarg, "record") != 0)
				usage();
			break;
		case 't':
			o->seconds = atoi(optarg);
			break;
		case 'u':
			o->uprobe_off = strtol(optarg, NULL, 0);
			o->count = 1;
			break;
		case 'v':
			o->verbose = 1;
			break;
		default:
			usage();
		}
	}
	if (o->load_only && argc - optind == 1) {
		o->object = argv[optind];
		return;
	}
	if (argc - optind < 2)
		usage();
	o->object = argv[optind];
	o->binary = argv[optind + 1];
	o->probes = argv + optind + 2;
	o->nprobes = argc - optind - 2;
	if ((o->uprobe_off < 0 && o->nprobes < 1) || o->nprobes > MAX_PROBES)
		usage();
}

/* Ring buffer callback: one hit, printed as "NAME ARGC V0 V1 ...". */
static int print_hit(void *ctx, void *data, size_t size)
{
	const struct usdt_hit *h = data;
	char **probes = ctx;
	const char *name;
	int n;

	if (size < sizeof(*h))
		return 0;
	name = strchr(probes[h->cookie], ':') + 1;
	printf("%s %d", name, h->arg_cnt);
	n = h->arg_cnt < USDT_HIT_MAX_ARGS ? h->arg_cnt : USDT_HIT_MAX_ARGS;
	for (int i = 0; i < n; i++) {
		if (h->err[i])
			printf(" E%d", -h->err[i]);
		else
			printf(" %lld", (long long)h->val[i]);
	}
	printf("\n");
	return 0;
}

/* Attach PROG to every probe; returns how many could not be attached. */
static int attach_usdt(struct bpf_program *prog, const struct options *o,
		       struct bpf_link **links)
{
	LIBBPF_OPTS(bpf_usdt_opts, opts);
	int failed = 0;

	for (int i = 0; i < o->nprobes; i++) {
		char provider[256], *colon = strchr(o->probes[i], ':');
		size_t len = colon ? (size_t)(colon - o->probes[i]) : 0;

		if (!colon || len >= sizeof(provider)) {
			fprintf(stderr,
				"usdt-trace: '%s' is not PROVIDER:NAME\n",
				o->probes[i]);
			exit(2);
		}
		memcpy(provider, o->probes[i], len);
		provider[len] = '\0';
		opts.usdt_cookie = (__u64)i;
		links[i] = bpf_program__attach_usdt(prog, o->pid, o->binary,
						    provider, colon + 1, &opts);
		if (!links[i]) {
			printf("attach-error %s: %s\n", o->probes[i],
			       strerror(errno));
			failed++;
		}
	}
	return failed;
}

/* Hits counted by the `count' programs, summed over the CPUs. */
static unsigned long long read_count(struct bpf_object *obj)
{
	int ncpus = libbpf_num_possible_cpus(), fd;
	unsigned long long sum = 0;
	struct usdt_count *vals;
	__u32 key = 0;

	if (ncpus < 1)
		return 0;
	vals = calloc((size_t)ncpus, sizeof(*vals));
	fd = bpf_object__find_map_fd_by_name(obj, "counter");
	if (vals && fd >= 0 && bpf_map_lookup_elem(fd, &key, vals) == 0)
		for (int i = 0; i < ncpus; i++)
			sum += vals[i].hits;
	free(vals);
	return sum;
}

/* An fd that polls readable once PID has exited (a zombie counts). */
static int watch_pid(int pid)
{
	int fd;

	if (pid < 0)
		return -1;
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0) {
		fprintf(stderr, "usdt-trace: cannot watch PID %d: %s\n", pid,
			strerror(errno));
		exit(1);
	}
	return fd;
}

/* Poll the ring buffer until stopped; 2 on time-out, else 0. */
static int run(struct ring_buffer *rb, const struct options *o)
{
	time_t deadline = time(NULL) + o->seconds;
	struct pollfd pfd = { .fd = watch_pid(o->pid), .events = POLLIN };
	int rc = 0;

	while (!stop) {
		if (rb)
			ring_buffer__poll(rb, 20);
		else
			usleep(20000);
		if (pfd.fd >= 0 && poll(&pfd, 1, 0) > 0)
			break;
		if (time(NULL) > deadline) {
			fprintf(stderr, "usdt-trace: gave up after %d s\n",
				o->seconds);
			rc = 2;
			break;
		}
	}
	if (rb)
		ring_buffer__consume(rb);
	if (pfd.fd >= 0)
		close(pfd.fd);
	return rc;
}

int main(int argc, char **argv)
{
	static struct bpf_link *links[MAX_PROBES];
	struct ring_buffer *rb = NULL;
	struct bpf_program *prog;
	struct bpf_object *obj;
	struct options o;
	const char *pname;
	int failed = 0, rc, nlinks;

	parse_options(argc, argv, &o);
	verbose = o.verbose;
	libbpf_set_print(print_libbpf);
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	obj = bpf_object__open_file(o.object, NULL);
	if (!obj) {
		fprintf(stderr, "usdt-trace: cannot open %s: %s\n", o.object,
			strerror(errno));
		return 1;
	}
	if (bpf_object__load(obj)) {
		rc = errno;
		fprintf(stderr, "usdt-trace: cannot load %s: %s%s\n", o.object,
			strerror(rc),
			rc == EPERM ? " (loading BPF needs root or CAP_BPF)"
				    : "");
		return rc == EPERM ? 3 : 1;
	}
	if (o.load_only) {
		bpf_object__close(obj);
		return 0;
	}
	pname = o.uprobe_off >= 0 ? "count_uprobe"
		: o.count	  ? "count"
				  : "record";
	prog = bpf_object__find_program_by_name(obj, pname);
	if (!prog) {
		fprintf(stderr, "usdt-trace: %s has no program '%s'\n",
			o.object, pname);
		return 1;
	}
	if (o.uprobe_off >= 0) {
		links[0] = bpf_program__attach_uprobe(
			prog, false, o.pid, o.binary, (size_t)o.uprobe_off);
		if (!links[0]) {
			fprintf(stderr,
				"usdt-trace: cannot attach a uprobe to %s at "
				"0x%lx: %s\n",
				o.binary, o.uprobe_off, strerror(errno));
			return 1;
		}
		nlinks = 1;
	} else {
		failed = attach_usdt(prog, &o, links);
		nlinks = o.nprobes;
	}
	if (!o.count) {
		rb = ring_buffer__new(
			bpf_map__fd(bpf_object__find_map_by_name(obj, "hits")),
			print_hit, o.probes, NULL);
		if (!rb) {
			fprintf(stderr, "usdt-trace: no ring buffer: %s\n",
				strerror(errno));
			return 1;
		}
	}
	printf("attached %d\n", nlinks - failed);
	rc = run(rb, &o);
	if (o.count)
		printf("hits %llu\n", read_count(obj));
	ring_buffer__free(rb);
	for (int i = 0; i < nlinks; i++)
		bpf_link__destroy(links[i]);
	bpf_object__close(obj);
	if (rc)
		return rc;
	return failed ? 1 : 0;
}
