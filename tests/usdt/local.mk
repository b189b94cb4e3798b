# tests/usdt: <usdt.h>, libbpf's single-header USDT API on <sys/sdt.h>.
USDT_HEADER_TESTS = \
	tests/usdt/semaphores.sh \
	tests/usdt/readers.sh \
	tests/usdt/cxx.sh \
	tests/usdt/build.sh \
	tests/usdt/sample.sh \
	tests/usdt/install.sh \
	tests/usdt/typed.sh
TESTS += $(USDT_HEADER_TESTS)
EXTRA_DIST += $(USDT_HEADER_TESTS) \
	tests/usdt/lib.sh \
	tests/usdt/api.c \
	tests/usdt/sema-main.c \
	tests/usdt/sema-unit.c \
	tests/usdt/sema-lib.c \
	tests/usdt/values.c \
	tests/usdt/values.cc \
	tests/usdt/values-other.cc \
	tests/usdt/values-shop.h \
	tests/usdt/typed.c
