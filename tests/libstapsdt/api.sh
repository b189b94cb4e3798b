# Validation, state rules, public fields, placement: tests/libstapsdt/api-test
# with a private TMPDIR so that it can see what placement leaves behind.
. "$top_srcdir/tests/lib.sh"
mkdir "$T/tmp" || fail "mkdir"
TMPDIR=$T/tmp "$top_builddir/tests/libstapsdt/api-test" || fail "api-test failed"
