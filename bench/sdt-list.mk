# bench for sdt-list: listing a 10 000-probe binary against tplist -l.
BENCH_LIST += bench/sdt-list-bench.sh
EXTRA_DIST += bench/sdt-list-bench.sh
