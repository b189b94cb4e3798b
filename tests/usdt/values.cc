// SPDX-License-Identifier: MIT
// cxx.sh's program: <usdt.h> in C++ (provider usdtx). Same usage and
// output as values.c: values WANT-FILE [now].
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <unistd.h>
#include "values-shop.h"

static FILE *want_file;

void want(const char *name, int n, ...)
{
	va_list ap;

	va_start(ap, n);
	std::fprintf(want_file, "%s %d", name, n);
	for (int i = 0; i < n; i++)
		std::fprintf(want_file, " %lld", va_arg(ap, long long));
	std::fprintf(want_file, "\n");
	va_end(ap);
}

namespace shop {
USDT_DEFINE_SEMA(shop_pay);

int pay_active()
{
	return USDT_SEMA_IS_ACTIVE(shop_pay);
}
} // namespace shop

static void fire_all()
{
	int a = shop::detail::checkout(3, 1999);
	int b = shop::other_checkout();
	int c = shop::pay(-4200);

	shop::tag(42, 1);
	want("tmpl", 2, 42LL, 1LL);
	shop::tag(-7LL, 2);
	want("tmpl", 2, -7LL, 2LL);
	shop::tag(shop::small{ 7, 8 }, 3);
	want("tmpl", 2, (long long)(7 | 8 << 8), 3LL);

	shop::cart cart = { 1 };
	cart.add(2, shop::tier::basic);
	cart.add(4, shop::tier::gold);

	auto lambda = [&](unsigned short z) {
		USDT(usdtx, lambda, z, cart.items);
		want("lambda", 2, (long long)z, (long long)cart.items);
	};
	lambda(65535);

	// Whether each semaphore was up, as seen from here.
	USDT(usdtx, state, a, b, c, shop::pay_active());
	want("state", 4, (long long)a, (long long)b, (long long)c,
	     (long long)shop::pay_active());
}

int main(int argc, char **argv)
{
	sigset_t set;
	int sig;

	if (argc < 2) {
		std::fprintf(stderr, "usage: values WANT-FILE [now]\n");
		return 2;
	}
	want_file = std::fopen(argv[1], "w");
	if (!want_file) {
		std::perror(argv[1]);
		return 1;
	}
	if (argc > 2) {
		fire_all();
		return std::fclose(want_file) != 0;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, nullptr);
	std::printf("ready %d\n", (int)getpid());
	std::fflush(stdout);
	if (sigwait(&set, &sig) != 0)
		return 1;
	fire_all();
	if (std::fclose(want_file) != 0)
		return 1;
	std::printf("fired 0 0\n");
	std::fflush(stdout);
	return sigwait(&set, &sig) != 0;
}
