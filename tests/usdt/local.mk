# tests/usdt: <usdt.h>, libbpf's single-header USDT API on <sys/sdt.h>.
USDT_HEADER_TESTS = \
	tests/usdt/semaphores.sh
TESTS += $(USDT_HEADER_TESTS)
EXTRA_DIST += $(USDT_HEADER_TESTS) \
	tests/usdt/lib.sh \
	tests/usdt/sema-main.c \
	tests/usdt/sema-unit.c \
	tests/usdt/sema-lib.c
