# bench for libstapsdt: load time, untraced and traced fire costs.
BENCH_LIST += bench/libstapsdt-bench.sh
BENCH_DEPS += bench/libstapsdt-bench
check_PROGRAMS += bench/libstapsdt-bench
bench_libstapsdt_bench_SOURCES = bench/libstapsdt-bench.c
bench_libstapsdt_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libstapsdt
bench_libstapsdt_bench_LDADD = libstapsdt/libstapsdt.la
EXTRA_DIST += bench/libstapsdt-bench.sh bench/dlopen-floor.c bench/clock.h \
	bench/libstapsdt-ab.c
# libstapsdt at JIT scale: 20,000 single-probe extends.
BENCH_LIST += bench/libstapsdt-jit.sh
BENCH_DEPS += bench/libstapsdt-jit
check_PROGRAMS += bench/libstapsdt-jit
bench_libstapsdt_jit_SOURCES = bench/libstapsdt-jit.c
bench_libstapsdt_jit_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libstapsdt \
	-I$(top_srcdir)/tests/tools
bench_libstapsdt_jit_LDADD = libstapsdt/libstapsdt.la
EXTRA_DIST += bench/libstapsdt-jit.sh
