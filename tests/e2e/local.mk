# End-to-end tests: a user's path through more than one product.
E2E_TESTS = tests/e2e/typed.sh tests/e2e/structs.sh tests/e2e/struct-hostile.sh \
	tests/e2e/struct-cases.sh tests/e2e/struct-corpus.sh
TESTS += $(E2E_TESTS)
EXTRA_DIST += $(E2E_TESTS) tests/e2e/shop.d tests/e2e/shop.c \
	tests/e2e/orders.d tests/e2e/orders.c tests/e2e/pgish.d tests/e2e/pgish.c \
	tests/e2e/widget.d tests/e2e/widget.cc tests/e2e/struct-corpus.py \
	tests/e2e/tricky.d tests/e2e/tricky.c tests/e2e/holder.d tests/e2e/holder.cc
