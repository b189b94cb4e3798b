// SPDX-License-Identifier: MIT
// cxx.sh's second unit: the inline function's probe and semaphore again,
// and the probe of the explicit semaphore defined in values.cc.
#include "values-shop.h"

namespace shop {
int other_checkout()
{
	return detail::checkout(5, -250);
}

int pay(long cents)
{
	USDT_WITH_EXPLICIT_SEMA(shop_pay, usdtx, pay, cents);
	want("pay", 1, (long long)cents);
	return USDT_SEMA_IS_ACTIVE(shop_pay);
}
} // namespace shop
