# tests/packaging: the samples built against a staged `make install' (the
# way users and other build systems find sdtkit), and the Debian packages.
PACKAGING_TESTS = \
	tests/packaging/cmake.sh \
	tests/packaging/cmake-names.sh \
	tests/packaging/cmake-debug.sh \
	tests/packaging/prefix.sh \
	tests/packaging/meson.sh \
	tests/packaging/autotools.sh \
	tests/packaging/deb.sh
TESTS += $(PACKAGING_TESTS)
EXTRA_DIST += $(PACKAGING_TESTS) tests/packaging/lib.sh
