# The objects providerExtend() fills, read back as tracers read them
# (extend-room.c): 200 probes with long names, some with types, one extend
# each, so that the note sections outgrow their room and move; every probe
# found once, where the library fires it; a forked child's extend in an
# object of its own. In a memfd and in a file; no file left behind.
. "$top_srcdir/tests/lib.sh"
export TMPDIR=$T
PROG=$top_builddir/tests/libstapsdt/extend-room
[ -x "$PROG" ] || fail "$PROG is not built"
for mode in memfd file; do
	out=$("$PROG" $mode 2>&1) || fail "extend-room $mode: $out"
	note "$out"
done
left=$(find "$T" -name 'libstapsdt-*')
expect_eq "files left behind" "" "$left"
