# bench for dtrace-gen: -h/-G speed against SystemTap's dtrace.
BENCH_LIST += bench/dtrace-gen-speed.sh
BENCH_DEPS += dtrace-gen/dtrace-gen
EXTRA_DIST += bench/dtrace-gen-speed.sh
