# Tests: automake's parallel driver. A test exits 0 (pass), 77 (skip, with
# the reason on its output) or 1 (fail). Shell tests source tests/lib.sh.
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	CC='$(CC)'; CXX='$(CXX)'; \
	export top_srcdir top_builddir CC CXX;
EXTRA_DIST += tests/lib.sh tests/stap-header.sh

include tests/core/local.mk
include tests/sdt/local.mk
include tests/dtrace-gen/local.mk
include tests/libstapsdt/local.mk
include tests/sdt-list/local.mk
include tests/libbpf/local.mk
include tests/usdt/local.mk
include tests/packaging/local.mk
include tests/docs/local.mk
include tests/e2e/local.mk
include tests/style/local.mk
