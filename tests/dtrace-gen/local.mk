# tests/dtrace-gen: the generator against golden files, SystemTap's dtrace,
# compilers and linkers, real tracers, and a fuzzer.
DTRACE_GEN_TESTS = \
	tests/dtrace-gen/golden.sh \
	tests/dtrace-gen/compat.sh \
	tests/dtrace-gen/errors.sh \
	tests/dtrace-gen/atomic.sh \
	tests/dtrace-gen/links.sh \
	tests/dtrace-gen/signals.sh \
	tests/dtrace-gen/objects.sh \
	tests/dtrace-gen/missing.sh \
	tests/dtrace-gen/cli.sh \
	tests/dtrace-gen/compile.sh \
	tests/dtrace-gen/link.sh \
	tests/dtrace-gen/archive.sh \
	tests/dtrace-gen/enabled-loop.sh \
	tests/dtrace-gen/sample.sh \
	tests/dtrace-gen/fuzz.sh \
	tests/dtrace-gen/memcheck.sh \
	tests/dtrace-gen/typed.sh \
	tests/dtrace-gen/include-order.sh \
	tests/dtrace-gen/edited.sh \
	tests/dtrace-gen/size.sh \
	tests/dtrace-gen/cpp-bounds.sh \
	tests/dtrace-gen/used-records.sh
TESTS += $(DTRACE_GEN_TESTS)
EXTRA_DIST += $(DTRACE_GEN_TESTS) \
	tests/dtrace-gen/lib.sh \
	tests/dtrace-gen/fuzz-parser.c \
	tests/dtrace-gen/typerec.py \
	tests/dtrace-gen/inputs/edge.d \
	tests/dtrace-gen/inputs/glib.d \
	tests/dtrace-gen/inputs/memcached.d \
	tests/dtrace-gen/inputs/node.d \
	tests/dtrace-gen/inputs/postgresql.d \
	tests/dtrace-gen/inputs/python.d \
	tests/dtrace-gen/inputs/quirks.d \
	tests/dtrace-gen/inputs/typed.d \
	tests/dtrace-gen/golden/edge.h tests/dtrace-gen/golden/edge.o.txt \
	tests/dtrace-gen/golden/glib.h tests/dtrace-gen/golden/glib.o.txt \
	tests/dtrace-gen/golden/memcached.h \
	tests/dtrace-gen/golden/memcached.o.txt \
	tests/dtrace-gen/golden/node.h tests/dtrace-gen/golden/node.o.txt \
	tests/dtrace-gen/golden/postgresql.h \
	tests/dtrace-gen/golden/postgresql.o.txt \
	tests/dtrace-gen/golden/python.h tests/dtrace-gen/golden/python.o.txt \
	tests/dtrace-gen/golden/quirks.h tests/dtrace-gen/golden/quirks.o.txt \
	tests/dtrace-gen/golden/typed.h tests/dtrace-gen/golden/typed.o.txt
