# bench for libbpf-traced fires: sdt.h and libstapsdt probes under a
# libbpf tracer (built by the script from tests/libbpf, as the tests do).
BENCH_LIST += bench/libbpf-traced.sh
EXTRA_DIST += bench/libbpf-traced.sh bench/libbpf-loop.c
