/* SPDX-License-Identifier: MIT */
/*
 * Writes the shared object libstapsdt would load for a test provider, for
 * any target the core knows: `gen-object TARGET OUT'. The aarch64 test
 * checks that object's notes, symbols and segments from an x86 host, then
 * loads and fires it under qemu-user. Prints the layout the loader would
 * use and, per probe, "probe INDEX NAME ARGC".
 *
 * Provider `sdttest': aN with N int64 arguments (N = 0..12) and m12 with
 * all eight types.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "elfobj.h"
#include "internal.h"

int main(int argc, char **argv)
{
	static const ArgType_t t64[SDT_MAX_ARGS] = {
		int64, int64, int64, int64, int64, int64,
		int64, int64, int64, int64, int64, int64,
	};
	static const ArgType_t tm12[] = { int8,	 uint8,	 int16, uint16,
					  int32, uint32, int64, uint64,
					  int8,	 int16,	 int32, int64 };
	struct sdt_object obj;
	struct sdt_target t;
	SDTProvider_t *p;
	char name[8];
	int fd;

	if (argc != 3 || sdt_target_from_name(&t, argv[1]) < 0) {
		fprintf(stderr, "usage: gen-object TARGET OUT\n");
		return 2;
	}
	p = providerInit("sdttest");
	for (int n = 0; n <= SDT_MAX_ARGS; n++) {
		snprintf(name, sizeof(name), "a%d", n);
		providerAddProbeArgs(p, name, n, t64);
	}
	providerAddProbeArgs(p, "m12", 12, tm12);
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[2]);
		return 1;
	}
	if (sdt_object_write(p, &t, fd, sdt_provider_of(p)->nprobes, &obj) <
	    0) {
		fprintf(stderr, "gen-object: %s\n", p->error);
		return 1;
	}
	close(fd);
	printf("layout stub_addr=0x%llx stub_stride=%llu sema_addr=0x%llx\n",
	       (unsigned long long)obj.layout.stub_addr,
	       (unsigned long long)obj.layout.stub_stride,
	       (unsigned long long)obj.layout.sema_addr);
	for (size_t i = 0; i < obj.nprobes; i++)
		printf("probe %zu %s %d\n", i, obj.probes[i]->name,
		       obj.probes[i]->argCount);
	free(obj.probes);
	providerDestroy(p);
	return 0;
}
