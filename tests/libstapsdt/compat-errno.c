/* SPDX-License-Identifier: MIT */
/*
 * <errno.h> first, then our header: the public header breaks here (its
 * field `errno' meets the errno macro). Ours compiles, errno still works,
 * and the field is read through providerErrno().
 */
#include <errno.h>
#include <libstapsdt.h>
#include <stdio.h>

int main(void)
{
	SDTProvider_t *p = providerInit("errno_first");

	errno = 0;
	if (!p || providerErrno(p) != noError || errno != 0)
		return 1;
	if (providerAddProbe(p, "bad:name", 0) != NULL ||
	    providerErrno(p) != invalidNameError)
		return 1;
	printf("errno first: %s\n", p->error);
	providerDestroy(p);
	return 0;
}
