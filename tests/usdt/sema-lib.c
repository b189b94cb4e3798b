/* SPDX-License-Identifier: MIT */
/* A shared object with a probe of the same name: a semaphore of its own. */
#include <usdt.h>

int lib_fire(int v);

int lib_fire(int v)
{
	USDT_WITH_SEMA(usdtk, shared, v, 30);
	return USDT_IS_ACTIVE(usdtk, shared);
}
