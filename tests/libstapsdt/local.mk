# tests/libstapsdt: the runtime library, with and without real tracers.
check_PROGRAMS += tests/libstapsdt/api-test tests/libstapsdt/probe-host \
	tests/libstapsdt/gen-object tests/libstapsdt/cycles \
	tests/libstapsdt/extend-host tests/libstapsdt/extend-cycles \
	tests/libstapsdt/extend-room tests/libstapsdt/rseq
tests_libstapsdt_rseq_SOURCES = tests/libstapsdt/rseq.c tests/tools/check.h
tests_libstapsdt_rseq_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libstapsdt \
	-I$(top_srcdir)/tests/tools
tests_libstapsdt_rseq_LDADD = libstapsdt/libstapsdt.la -lpthread
tests_libstapsdt_api_test_SOURCES = tests/libstapsdt/api-test.c
tests_libstapsdt_api_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libstapsdt
tests_libstapsdt_api_test_LDADD = libstapsdt/libstapsdt.la
tests_libstapsdt_probe_host_SOURCES = tests/libstapsdt/probe-host.c
tests_libstapsdt_probe_host_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/libstapsdt
tests_libstapsdt_probe_host_LDADD = libstapsdt/libstapsdt.la
tests_libstapsdt_cycles_SOURCES = tests/libstapsdt/cycles.c \
	tests/tools/resources.h
tests_libstapsdt_cycles_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/libstapsdt -I$(top_srcdir)/tests/tools
tests_libstapsdt_cycles_LDADD = libstapsdt/libstapsdt.la
tests_libstapsdt_extend_host_SOURCES = tests/libstapsdt/extend-host.c
tests_libstapsdt_extend_host_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/libstapsdt
tests_libstapsdt_extend_host_LDADD = libstapsdt/libstapsdt.la
tests_libstapsdt_extend_cycles_SOURCES = tests/libstapsdt/extend-cycles.c \
	tests/tools/resources.h
tests_libstapsdt_extend_cycles_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/libstapsdt -I$(top_srcdir)/tests/tools
tests_libstapsdt_extend_cycles_LDADD = libstapsdt/libstapsdt.la
tests_libstapsdt_extend_room_SOURCES = tests/libstapsdt/extend-room.c
tests_libstapsdt_extend_room_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/libstapsdt -I$(top_srcdir)/elfcore \
	-I$(top_srcdir)/tests/tools
tests_libstapsdt_extend_room_LDADD = libstapsdt/libstapsdt.la \
	elfcore/libsdtcore.la $(LIBELF_LIBS)
# Writes a provider's object for any target (aarch64 from an x86 host):
# the library's sources linked in, so its internals are reachable.
tests_libstapsdt_gen_object_SOURCES = tests/libstapsdt/gen-object.c \
	$(LIBSTAPSDT_SOURCES) libstapsdt/internal.h
tests_libstapsdt_gen_object_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/libstapsdt
tests_libstapsdt_gen_object_LDADD = elfcore/libsdtcore.la $(LIBELF_LIBS) \
	-ldl -lpthread

LIBSTAPSDT_TESTS = \
	tests/libstapsdt/api.sh \
	tests/libstapsdt/compat.sh \
	tests/libstapsdt/placement.sh \
	tests/libstapsdt/bpftrace-list.sh \
	tests/libstapsdt/bpftrace-args.sh \
	tests/libstapsdt/typed-args.sh \
	tests/libstapsdt/gdb-args.sh \
	tests/libstapsdt/enabled.sh \
	tests/libstapsdt/perf.sh \
	tests/libstapsdt/unload-attached.sh \
	tests/libstapsdt/stress.sh \
	tests/libstapsdt/rseq.sh \
	tests/libstapsdt/cycles.sh \
	tests/libstapsdt/cgo.sh \
	tests/libstapsdt/python.sh \
	tests/libstapsdt/valgrind.sh \
	tests/libstapsdt/aarch64.sh \
	tests/libstapsdt/cross.sh \
	tests/libstapsdt/extend-timeline.sh \
	tests/libstapsdt/extend-additions.sh \
	tests/libstapsdt/extend-cycles.sh \
	tests/libstapsdt/extend-stress.sh \
	tests/libstapsdt/extend-scale.sh \
	tests/libstapsdt/extend-room.sh
TESTS += $(LIBSTAPSDT_TESTS)
EXTRA_DIST += $(LIBSTAPSDT_TESTS) \
	tests/libstapsdt/lib.sh \
	tests/libstapsdt/sources.sh \
	tests/libstapsdt/compat.c \
	tests/libstapsdt/compat-errno.c \
	tests/libstapsdt/stress.c \
	tests/libstapsdt/fork-stress.c \
	tests/libstapsdt/extend-stress.c \
	tests/libstapsdt/cgo-host.go \
	tests/libstapsdt/ctypes-host.py \
	tests/libstapsdt/aarch64-run.c \
	tests/libstapsdt/cross-run.c \
	tests/libstapsdt/aarch64-shim.c
