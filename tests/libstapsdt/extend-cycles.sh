# Extends give everything back (extend-cycles.c): 10 000 add/unload cycles
# in a memfd and 2 000 in a file, then rounds of 1000 extends each, keep
# the descriptor and mapping counts flat after each unload and leave no
# file. The runs have 64 descriptors: a round of 1000 extends needs 6.
. "$top_srcdir/tests/lib.sh"
export TMPDIR=$T
PROG=$top_builddir/tests/libstapsdt/extend-cycles
[ -x "$PROG" ] || fail "$PROG is not built"

for run in "10000 memfd" "2000 file"; do
	out=$( (ulimit -n 64 && exec "$PROG" $run) 2>&1) || fail "extend-cycles $run: $out"
	note "$out"
done
left=$(find "$T" -name 'libstapsdt-*')
expect_eq "files left behind" "" "$left"
