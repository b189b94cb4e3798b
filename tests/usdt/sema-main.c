/* SPDX-License-Identifier: MIT */
/*
 * semaphores.sh's program: the implicit semaphore of usdtk:shared is used
 * by two units of the executable (this one and sema-unit.c) and by a
 * shared object (sema-lib.c); the explicit semaphore usdtk_both by the two
 * units. Every 20 ms it fires every probe and, when any semaphore changed,
 * prints what each unit sees:
 *   state exe=A unit=B lib=C explicit=D unit_explicit=E
 * after "ready PID" once at start.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <usdt.h>

USDT_DEFINE_SEMA(usdtk_both);

int unit_fire(int v);
int unit_active(void);
int unit_explicit_active(void);
int lib_fire(int v);
int lib_active(void);

static int exe_fire(int v)
{
	USDT_WITH_SEMA(usdtk, shared, v, 10);
	USDT_WITH_EXPLICIT_SEMA(usdtk_both, usdtk, main_explicit, v);
	return USDT_IS_ACTIVE(usdtk, shared);
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 20 * 1000000 };
	char last[128] = "", now[128];
	long rounds = argc > 1 ? atol(argv[1]) : 3000;

	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (long i = 0; i < rounds; i++) {
		int exe = exe_fire(1), unit = unit_fire(2), lib = lib_fire(3);

		snprintf(now, sizeof(now),
			 "state exe=%d unit=%d lib=%d explicit=%d "
			 "unit_explicit=%d",
			 exe, unit, lib, USDT_SEMA_IS_ACTIVE(usdtk_both),
			 unit_explicit_active());
		if (strcmp(now, last) != 0) {
			printf("%s\n", now);
			fflush(stdout);
			strcpy(last, now);
		}
		nanosleep(&tick, NULL);
	}
	return 0;
}
