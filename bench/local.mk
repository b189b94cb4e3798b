# Benchmarks: `make bench'. Each fragment adds its scripts to BENCH_LIST.
EXTRA_DIST += bench/lib.sh
include bench/sdt.mk
include bench/dtrace-gen.mk
include bench/libstapsdt.mk
include bench/sdt-list.mk
include bench/libbpf.mk
