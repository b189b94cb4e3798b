# tests for sdt-list: listings against readelf (relocatable objects of
# every target too), --check against what bpftrace and gdb really do, -p on
# a live libstapsdt memfd provider, bad and damaged input, type records and
# the one-line listing, the --bpftrace and --perf programs run for real,
# and a libFuzzer run over the note reader and our decoding.
check_PROGRAMS += tests/sdt-list/memfd-host
tests_sdt_list_memfd_host_SOURCES = tests/sdt-list/memfd-host.c
tests_sdt_list_memfd_host_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libstapsdt
tests_sdt_list_memfd_host_LDADD = libstapsdt/libstapsdt.la

SDT_LIST_TESTS = \
	tests/sdt-list/readelf.sh \
	tests/sdt-list/check-bpftrace.sh \
	tests/sdt-list/check-gdb.sh \
	tests/sdt-list/pid.sh \
	tests/sdt-list/pid-paths.sh \
	tests/sdt-list/pid-attach.sh \
	tests/sdt-list/shrinking.sh \
	tests/sdt-list/raw-bytes.sh \
	tests/sdt-list/errors.sh \
	tests/sdt-list/damaged.sh \
	tests/sdt-list/objects.sh \
	tests/sdt-list/typed.sh \
	tests/sdt-list/typed-codes.sh \
	tests/sdt-list/typed-units.sh \
	tests/sdt-list/scripts.sh \
	tests/sdt-list/scripts-sites.sh \
	tests/sdt-list/bt-keywords.sh \
	tests/sdt-list/globs.sh \
	tests/sdt-list/filters.sh \
	tests/sdt-list/fuzz.sh \
	tests/sdt-list/contract-diff.sh \
	tests/sdt-list/diff-constants.sh \
	tests/sdt-list/declared-width.sh \
	tests/sdt-list/contract-against.sh \
	tests/sdt-list/contract-script.sh \
	tests/sdt-list/contract-releases.sh \
	tests/sdt-list/walk.sh \
	tests/sdt-list/note-alias.sh \
	tests/sdt-list/walk-fds.sh \
	tests/sdt-list/walk-attach.sh \
	tests/sdt-list/alloc-fail.sh \
	tests/sdt-list/json-bytes.sh \
	tests/sdt-list/bt-paths.sh \
	tests/sdt-list/hostile-inputs.sh \
	tests/sdt-list/all-processes.sh
TESTS += $(SDT_LIST_TESTS)
EXTRA_DIST += $(SDT_LIST_TESTS) \
	tests/sdt-list/lib.sh \
	tests/sdt-list/probes.c \
	tests/sdt-list/gated.c \
	tests/sdt-list/typed.c \
	tests/sdt-list/typed-codes.c \
	tests/sdt-list/sdtkit-note.h \
	tests/sdt-list/fuzz-notes.c \
	tests/sdt-list/contract/python3.11.bt \
	tests/sdt-list/contract/php8.2.bt \
	tests/sdt-list/contract/ruby3.1.bt \
	tests/sdt-list/contract/libjvm17.bt \
	tests/sdt-list/contract/postgres15.bt \
	tests/sdt-list/contract/bcc-python.bt \
	tests/sdt-list/contract/bcc-php.bt \
	tests/sdt-list/contract/bcc-ruby.bt \
	tests/sdt-list/contract/bcc-java.bt \
	tests/sdt-list/contract/bcc-postgres.bt

# LD_PRELOAD'ed by the tests that make one allocation fail at a time.
check_LTLIBRARIES += tests/tools/libfailalloc.la
tests_tools_libfailalloc_la_SOURCES = tests/tools/failalloc.c
tests_tools_libfailalloc_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
