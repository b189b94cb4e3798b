# Unload gives everything back (cycles.c): 100 000 load/unload cycles in a
# memfd and 5 000 in a file under `ulimit -n 64' keep the descriptor and
# mapping counts flat and leave no file; and sdt-list -p no longer lists a
# provider once it is unloaded.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
export TMPDIR=$T
PROG=$top_builddir/tests/libstapsdt/cycles
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$PROG" ] || fail "$PROG is not built"

for run in "100000 memfd" "5000 file"; do
	out=$( (ulimit -n 64 && exec "$PROG" $run) 2>&1) || fail "cycles $run: $out"
	note "$out"
done
left=$(find "$T" -name 'libstapsdt-*')
expect_eq "files left behind" "" "$left"

# sdt-list -p while the host is unloaded (no cycle during the listing).
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"
start_host --cycle 500
listed_while_unloaded sdttest "$SDT_LIST" -p "$HOST_PID"
