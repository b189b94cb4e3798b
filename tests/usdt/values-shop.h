/* SPDX-License-Identifier: MIT */
/*
 * cxx.sh's probes in C++ code shared by two units (values.cc and
 * values-other.cc): an inline function with an implicit semaphore in a
 * nested namespace, a function template, a member function, and an
 * explicit semaphore declared in a namespace.
 */
#ifndef VALUES_SHOP_H
#define VALUES_SHOP_H
#include <usdt.h>

void want(const char *name, int n, ...);

namespace shop
{
USDT_DECLARE_SEMA(shop_pay);

namespace detail
{
/* One semaphore for both units' calls, whether inlined or not. */
inline int checkout(int items, long cents)
{
	USDT_WITH_SEMA(usdtx, checkout, items, cents);
	want("checkout", 2, (long long)items, (long long)cents);
	return USDT_IS_ACTIVE(usdtx, checkout);
}
} // namespace detail

enum class tier : short { basic = -1, gold = 3 };

struct small {
	unsigned char a, b;
};

/* One site per instantiation, each with its own argument sizes. */
template <typename T> inline void tag(const T &value, int id)
{
	USDT(usdtx, tmpl, value, id);
}

struct cart {
	int items;
	void add(int n, tier t)
	{
		items += n;
		USDT(usdtx, member, this, items, t);
		want("member", 3, (long long)(unsigned long)this,
		     (long long)items, (long long)t);
	}
};

int pay(long cents);
int pay_active();
int other_checkout();
} // namespace shop
#endif
