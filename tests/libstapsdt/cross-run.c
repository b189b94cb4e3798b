/* SPDX-License-Identifier: MIT */
/*
 * Runs on the target (qemu-user), over the library cross-built for it:
 * loads a provider with probes of 0 to 12 arguments of every integer size
 * into a file, checks they are idle, fires each, makes one look traced
 * through its semaphore (as the kernel's ref_ctr would) and fires it into
 * its stub, extends the provider by a probe and fires that, then copies
 * the objects it mapped to $LSDT_OUT for the host's sdt-list --check.
 * Under a debugger, gdb_ready() is where the probes are loaded: then each
 * probe aN fires once with arg_value(0..N-1), for the debugger to read.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "libstapsdt.h"

/* FROM copied to directory TO as NAME; 0 or -1. */
static int copy(const char *from, const char *to, const char *name)
{
	char path[4096], buf[65536];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", to, name);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			return -1;
	close(in);
	return close(out);
}

/* Every object file under DIR's libstapsdt-* directories, to OUT. */
static int copy_objects(const char *dir, const char *out)
{
	DIR *d = opendir(dir), *sub;
	struct dirent *e, *f;
	char path[4096], name[512];
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, "libstapsdt-", 11) == 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if (!(sub = opendir(path)))
				continue;
			while ((f = readdir(sub)))
				if (f->d_name[0] != '.') {
					char file[sizeof(path) + 258];

					snprintf(file, sizeof(file), "%s/%s",
						 path, f->d_name);
					snprintf(name, sizeof(name), "%d-%s", n,
						 f->d_name);
					n += copy(file, out, name) == 0;
				}
			closedir(sub);
		}
	closedir(d);
	return n;
}

/* Argument I's value: every byte differs, and each size's top bit is set. */
static uint64_t arg_value(int i)
{
	return 0x8899aabbccddeeffull - (uint64_t)i * 0x0101010101010101ull;
}

static const ArgType_t sizes[8] = { int8,  uint8,  int16, uint16,
				    int32, uint32, int64, uint64 };

/* What a debugger prints for each argument (see cross.sh), one a line. */
static void print_expected(void)
{
	for (int n = 1; n <= 12; n++)
		for (int i = 0; i < n; i++) {
			ArgType_t t = sizes[(n + i) % 8];
			unsigned bits = 8 * (unsigned)(t < 0 ? -t : t);
			uint64_t v = arg_value(i), top = 1ull << (bits - 1);

			if (bits < 64) {
				v &= (top << 1) - 1;
				if (t < 0 && (v & top))
					v |= ~((top << 1) - 1);
			}
			printf("probe %d arg %d %llx\n", n, i,
			       (unsigned long long)v);
		}
}

__attribute__((noinline)) void gdb_ready(void);
__attribute__((noinline)) void gdb_ready(void)
{
	__asm__ __volatile__("" ::: "memory");
}

int main(void)
{
	ArgType_t types[12];
	SDTProbe_t *a[13], *late;
	SDTProvider_t *p = providerInit("sdtx");
	const char *out = getenv("LSDT_OUT"), *tmp = getenv("TMPDIR");
	char name[8];

	providerUseMemfd(p, memfd_disabled);
	for (int n = 0; n <= 12; n++) {
		for (int i = 0; i < n; i++)
			types[i] = sizes[(n + i) % 8];
		snprintf(name, sizeof(name), "a%d", n);
		a[n] = providerAddProbeArgs(p, name, n, types);
	}
	if (providerLoad(p) != 0) {
		printf("FAIL: load: %s\n", p->error);
		return 1;
	}
	for (int n = 0; n <= 12; n++) {
		CHECK(a[n]->_fire != NULL);
		CHECK(!probeIsEnabled(a[n]));
	}
	if (getenv("LSDT_EXPECT"))
		print_expected();
	gdb_ready();
	probeFire(a[0]);
	probeFire(a[1], arg_value(0));
	probeFire(a[2], arg_value(0), arg_value(1));
	probeFire(a[3], arg_value(0), arg_value(1), arg_value(2));
	probeFire(a[4], arg_value(0), arg_value(1), arg_value(2), arg_value(3));
	probeFire(a[5], arg_value(0), arg_value(1), arg_value(2), arg_value(3),
		  arg_value(4));
	probeFire(a[6], arg_value(0), arg_value(1), arg_value(2), arg_value(3),
		  arg_value(4), arg_value(5));
	probeFire(a[7], arg_value(0), arg_value(1), arg_value(2), arg_value(3),
		  arg_value(4), arg_value(5), arg_value(6));
	probeFire(a[8], arg_value(0), arg_value(1), arg_value(2), arg_value(3),
		  arg_value(4), arg_value(5), arg_value(6), arg_value(7));
	probeFire(a[9], arg_value(0), arg_value(1), arg_value(2), arg_value(3),
		  arg_value(4), arg_value(5), arg_value(6), arg_value(7),
		  arg_value(8));
	probeFire(a[10], arg_value(0), arg_value(1), arg_value(2), arg_value(3),
		  arg_value(4), arg_value(5), arg_value(6), arg_value(7),
		  arg_value(8), arg_value(9));
	probeFire(a[11], arg_value(0), arg_value(1), arg_value(2), arg_value(3),
		  arg_value(4), arg_value(5), arg_value(6), arg_value(7),
		  arg_value(8), arg_value(9), arg_value(10));
	probeFire(a[12], arg_value(0), arg_value(1), arg_value(2), arg_value(3),
		  arg_value(4), arg_value(5), arg_value(6), arg_value(7),
		  arg_value(8), arg_value(9), arg_value(10), arg_value(11));
	/* Traced as ref_ctr would: the stub is called, and returns. */
	*(volatile unsigned short *)probeSemaphore(a[6]) = 1;
	CHECK(probeIsEnabled(a[6]));
	probeFire(a[6], 0x81ull, 0x8202ull, 0x83030303ull,
		  0x8404040404040404ull, 0x85ull, 0x8606ull);
	*(volatile unsigned short *)probeSemaphore(a[6]) = 0;
	CHECK(!probeIsEnabled(a[6]));
	late = providerAddProbeArgs(p, "late", 3, sizes + 5);
	if (providerExtend(p) != 0) {
		printf("FAIL: extend: %s\n", p->error);
		return 1;
	}
	CHECK(late->_fire != NULL && !probeIsEnabled(late));
	probeFire(late, 1ull, 2ull, 3ull);
	if (out && tmp)
		printf("copied %d objects\n", copy_objects(tmp, out));
	CHECK(providerUnload(p) == 0);
	probeFire(a[12], 1ull);
	providerDestroy(p);
	if (!check_failures)
		printf("loaded, fired and extended: 14 probes\n");
	return check_status("cross-run");
}
