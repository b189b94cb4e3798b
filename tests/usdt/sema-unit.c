/* SPDX-License-Identifier: MIT */
/* The executable's second unit: the same implicit and explicit semaphores. */
#include <usdt.h>

USDT_DECLARE_SEMA(usdtk_both);

int unit_fire(int v);
int unit_explicit_active(void);

int unit_fire(int v)
{
	USDT_WITH_SEMA(usdtk, shared, v, 20);
	USDT_WITH_EXPLICIT_SEMA(usdtk_both, usdtk, unit_explicit, v);
	return USDT_IS_ACTIVE(usdtk, shared);
}

int unit_explicit_active(void)
{
	return USDT_SEMA_IS_ACTIVE(usdtk_both);
}
