# Style: the C sources as the repository's .clang-format leaves them.
STYLE_TESTS = tests/style/format.sh
TESTS += $(STYLE_TESTS)
EXTRA_DIST += $(STYLE_TESTS)
