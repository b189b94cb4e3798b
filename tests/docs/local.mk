# tests/docs: the documentation and the repository's hygiene: man pages
# render without warnings and agree with --help, .gitignore covers builds.
DOCS_TESTS = \
	tests/docs/bench-table.sh \
	tests/docs/gitignore.sh \
	tests/docs/links.sh \
	tests/docs/man.sh \
	tests/docs/man-links.sh \
	tests/docs/examples.sh
TESTS += $(DOCS_TESTS)
EXTRA_DIST += $(DOCS_TESTS)
