# tests/libbpf: probes read back by a libbpf-based tracer (usdt-trace.c and
# its BPF object, built by the tests themselves with clang and -lbpf so that
# the build needs neither).
TESTS += \
	tests/libbpf/static.sh \
	tests/libbpf/dynamic.sh \
	tests/libbpf/fast-attach.sh \
	tests/libbpf/fast-redzone.sh
EXTRA_DIST += \
	tests/libbpf/lib.sh \
	tests/libbpf/usdt-trace.c \
	tests/libbpf/usdt-args.bpf.c \
	tests/libbpf/usdt-hit.h \
	tests/libbpf/probes.c \
	tests/libbpf/sema.c \
	tests/libbpf/dyn-host.c \
	tests/libbpf/redzone.c \
	tests/libbpf/static.sh \
	tests/libbpf/dynamic.sh \
	tests/libbpf/fast-attach.sh \
	tests/libbpf/fast-redzone.sh
# The tracer built on libbpf f7081a6b (from the reference tarball beside the
# tree), kept between the tests of a run: see tests/libbpf/lib.sh.
CLEANFILES += \
	tests/libbpf/usdt-trace-f7081a6b \
	tests/libbpf/usdt-args-f7081a6b.bpf.o
