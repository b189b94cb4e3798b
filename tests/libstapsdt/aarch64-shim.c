/* SPDX-License-Identifier: MIT */
/*
 * For the aarch64 run under qemu-user: there is no aarch64 libelf here, so
 * the object comes from gen-object on the host. This stands in for
 * object.c: it copies that file ($LSDT_OBJECT) into the loader's
 * descriptor and reports the layout gen-object printed ($LSDT_LAYOUT:
 * "STUB_ADDR STUB_STRIDE SEMA_ADDR"), numbering the probes in list order
 * exactly as object.c does. Everything else runs as in the library.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "elfobj.h"
#include "internal.h"

int sdt_object_write(SDTProvider_t *p, const struct sdt_target *t, int fd,
		     struct sdt_dso_layout *layout)
{
	const char *path = getenv("LSDT_OBJECT"), *lay = getenv("LSDT_LAYOUT");
	unsigned long long stub, stride, sema;
	char buf[65536];
	ssize_t n;
	unsigned i = 0;
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
	layout->stub_addr = stub;
	layout->stub_stride = stride;
	layout->sema_addr = sema;
	for (SDTProbeList_t *l = p->probes; l; l = l->next)
		sdt_node_of(&l->probe)->index = i++;
	return 0;
}
