# tests/sdt: the header-only product, <sys/sdt.h>.
TESTS += \
	tests/sdt/lang-matrix.sh \
	tests/sdt/cross-matrix.sh \
	tests/sdt/negative.sh \
	tests/sdt/asm-mode.sh \
	tests/sdt/comdat-link.sh \
	tests/sdt/bpftrace-args.sh \
	tests/sdt/semaphore-tracefs.sh \
	tests/sdt/gdb-probes.sh \
	tests/sdt/interop.sh \
	tests/sdt/consumers.sh \
	tests/sdt/sweep.sh
EXTRA_DIST += \
	tests/sdt/spec-lib.sh \
	tests/sdt/probes.c \
	tests/sdt/lang-matrix.sh \
	tests/sdt/cross-matrix.sh \
	tests/sdt/negative.sh \
	tests/sdt/asm-mode.sh \
	tests/sdt/asm-probe.S \
	tests/sdt/comdat-link.sh \
	tests/sdt/inline.h \
	tests/sdt/bpftrace-args.sh \
	tests/sdt/values.c \
	tests/sdt/semaphore-tracefs.sh \
	tests/sdt/semaphore.c \
	tests/sdt/gdb-probes.sh \
	tests/sdt/interop.sh \
	tests/sdt/interop-theirs.c \
	tests/sdt/interop-ours.c \
	tests/sdt/consumers.sh \
	tests/sdt/sweep.sh \
	tests/sdt/sweep.c \
	tests/sdt/sweep-sema.c \
	tests/sdt/sweep.cc \
	tests/sdt/sweep-probes.py
