# No leak and no invalid access on any path: the API test (errors, state
# rules, both placements) and the probe host through load/unload cycles,
# under valgrind.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
need_cmd valgrind
mkdir "$T/tmp" || fail mkdir
# Valgrind 3.19 cannot read the DWARF 5 clang 14 writes by default.
vg_unreadable() {
	grep -q "debuginfo reader.*Giving up\|I can't recover" "$1" &&
		skip "valgrind cannot read this build's debug info (clang DWARF 5?): configure with CFLAGS='-g -gdwarf-4 -O2'"
}
VG="valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=3"
TMPDIR=$T/tmp "$LIBTOOL" --mode=execute $VG "$top_builddir/tests/libstapsdt/api-test" >"$T/api.log" 2>&1 ||
	vg_unreadable "$T/api.log" ||
	fail "api-test under valgrind: $(grep -v '^ok:' "$T/api.log" | tail -n 30)"
for mode in "" --file; do
	TMPDIR=$T/tmp "$LIBTOOL" --mode=execute $VG "$HOST" $mode --seconds 1.5 --cycle 100 >"$T/host.log" 2>&1 ||
		fail "probe-host $mode under valgrind: $(tail -n 30 "$T/host.log")"
	grep -q '^unloaded' "$T/host.log" || fail "probe-host $mode never unloaded: $(cat "$T/host.log")"
done
left=$(find "$T/tmp" -mindepth 1)
expect_eq "files left behind" "" "$left"
note "valgrind: clean"
