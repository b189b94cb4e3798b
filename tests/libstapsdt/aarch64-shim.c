/* SPDX-License-Identifier: MIT */
/*
 * For the aarch64 run under qemu-user: there is no aarch64 libelf here, so
 * the object comes from gen-object on the host. This stands in for
 * object.c: it copies that file ($LSDT_OBJECT) into the loader's
 * descriptor and reports the layout gen-object printed ($LSDT_LAYOUT:
 * "STUB_ADDR STUB_STRIDE SEMA_ADDR"), with the probes in list order, the
 * order object.c lays them out in. Everything else runs as in the library.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "elfobj.h"
#include "internal.h"

int sdt_object_write(SDTProvider_t *p, const struct sdt_target *t, int fd,
		     size_t count, struct sdt_object *obj)
{
	const char *path = getenv("LSDT_OBJECT"), *lay = getenv("LSDT_LAYOUT");
	unsigned long long stub, stride, sema;
	char buf[65536];
	ssize_t n;
	int in;

	(void)t;
	if (!path || !lay ||
	    sscanf(lay, "%llx %llu %llx", &stub, &stride, &sema) != 3)
		return sdt_set_error(p, elfCreationError,
				     "shim: set LSDT_OBJECT and LSDT_LAYOUT");
	in = open(path, O_RDONLY);
	if (in < 0)
		return sdt_set_error(p, elfCreationError, "shim: %s", path);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n)
			break;
	close(in);
	obj->layout.stub_addr = stub;
	obj->layout.stub_stride = stride;
	obj->layout.sema_addr = sema;
	obj->nprobes = 0;
	obj->probes = calloc(count + 1, sizeof(*obj->probes));
	if (!obj->probes)
		return sdt_set_error(p, outOfMemoryError, "shim: no memory");
	for (SDTProbeList_t *l = p->probes; l && obj->nprobes < count;
	     l = l->next)
		obj->probes[obj->nprobes++] = &l->probe;
	return 0;
}

/* providerExtend()'s objects (chunk.c) need the core's writer: not here. */
int sdt_chunk_write(SDTProvider_t *p, int fd, size_t slots, struct sdt_chunk *c)
{
	(void)fd;
	(void)slots;
	(void)c;
	return sdt_set_error(p, elfCreationError, "shim: no extends here");
}

int sdt_chunk_add(SDTProvider_t *p, struct sdt_chunk *c, uintptr_t base,
		  SDTProbe_t *const *probes, size_t n)
{
	(void)c;
	(void)base;
	(void)probes;
	(void)n;
	return sdt_set_error(p, elfCreationError, "shim: no extends here");
}
