# tests/sdt: the header-only product, <sys/sdt.h>.
SDT_HEADER_TESTS = \
	tests/sdt/lang-matrix.sh \
	tests/sdt/cross-matrix.sh \
	tests/sdt/negative.sh \
	tests/sdt/version.sh \
	tests/sdt/asm-mode.sh \
	tests/sdt/comdat-link.sh \
	tests/sdt/bpftrace-args.sh \
	tests/sdt/semaphore-tracefs.sh \
	tests/sdt/gdb-probes.sh \
	tests/sdt/gdb-no-semaphore.sh \
	tests/sdt/interop.sh \
	tests/sdt/consumers.sh \
	tests/sdt/sweep.sh \
	tests/sdt/fast-sites.sh \
	tests/sdt/fast-rerun.sh \
	tests/sdt/warnings.sh \
	tests/sdt/regclass.sh \
	tests/sdt/debugger.sh \
	tests/sdt/member-pointer.sh \
	tests/sdt/inlined.sh \
	tests/sdt/typed.sh \
	tests/sdt/narrowed.sh
TESTS += $(SDT_HEADER_TESTS)
EXTRA_DIST += $(SDT_HEADER_TESTS) \
	tests/sdt/lib.sh \
	tests/sdt/probes.c \
	tests/sdt/asm-probe.S \
	tests/sdt/inline.h \
	tests/sdt/values.c \
	tests/sdt/fast-frames.c \
	tests/sdt/semaphore.c \
	tests/sdt/interop-theirs.c \
	tests/sdt/interop-ours.c \
	tests/sdt/sweep.c \
	tests/sdt/sweep-sema.c \
	tests/sdt/sweep.cc \
	tests/sdt/sweep-probes.py \
	tests/sdt/awkward.c \
	tests/sdt/regclass.c \
	tests/sdt/debugger.c \
	tests/sdt/inlined.c \
	tests/sdt/typed.c \
	tests/sdt/narrowed.c
