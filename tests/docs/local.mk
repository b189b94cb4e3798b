# tests/docs: the documentation and the repository's hygiene: man pages
# render without warnings and agree with --help, .gitignore covers builds.
DOCS_TESTS = \
	tests/docs/bench-table.sh \
	tests/docs/demo.sh \
	tests/docs/gitignore.sh \
	tests/docs/links.sh \
	tests/docs/man.sh \
	tests/docs/man-links.sh \
	tests/docs/examples.sh
TESTS += $(DOCS_TESTS)
# examples.py runs the documents' examples (examples.sh, over a staged
# install); using-it.sh replays README's "Using it" over a real one, so
# it runs after `make install', not in make check (.ci/run runs it).
EXTRA_DIST += $(DOCS_TESTS) tests/docs/examples.py tests/docs/using-it.sh
