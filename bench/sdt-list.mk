# bench for sdt-list: listing a 10 000-probe binary against tplist -l.
BENCH_LIST += bench/sdt-list-bench.sh
EXTRA_DIST += bench/sdt-list-bench.sh
# and its inventories: a whole /usr against readelf -n, every process
# against bpftrace -l -p once per process.
BENCH_LIST += bench/sdt-list-inventory.sh
EXTRA_DIST += bench/sdt-list-inventory.sh
