# bench for sdt: the untraced cost of a probe site against SystemTap's header.
BENCH_LIST += bench/sdt-cost.sh bench/sdt-compile.sh
EXTRA_DIST += bench/sdt-cost.sh bench/sdt-compile.sh bench/sdt-loop.c
