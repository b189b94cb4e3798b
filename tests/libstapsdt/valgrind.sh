# No leak and no invalid access on any path: the API test (errors, state
# rules, both placements) and the probe host through load/unload cycles,
# under valgrind.
#
# They run against a private build of the shared library (same sources,
# same export map) made with $CC and -gdwarf-4: valgrind 3.19 cannot read
# the DWARF 5 clang 14 writes by default (DW_FORM_strx/addrx), and gives
# up on the whole run. DWARF 4 reads with every valgrind and compiler, so
# this runs the same whichever compiler the tree was configured with.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
. "$top_srcdir/tests/libstapsdt/sources.sh"
need_cmd valgrind
S=$top_srcdir
mkdir "$T/tmp" "$T/lib" || fail mkdir

CFL="$LIB_CFLAGS -g -gdwarf-4 -O2"
$CC $CFL -fPIC -shared -Wl,-soname,libstapsdt.so.0 -Wl,-z,defs \
	-Wl,--version-script="$S/libstapsdt/libstapsdt.map" \
	-o "$T/lib/libstapsdt.so.0" $LIB_SRCS $LIB_LIBS >"$T/build.log" 2>&1 ||
	fail "build libstapsdt.so.0 with $CC -gdwarf-4: $(tail -n 20 "$T/build.log")"
for prog in api-test probe-host; do
	$CC $CFL -o "$T/$prog" "$S/tests/libstapsdt/$prog.c" "$T/lib/libstapsdt.so.0" \
		-Wl,-rpath,"$T/lib" >"$T/build.log" 2>&1 ||
		fail "build $prog with $CC -gdwarf-4: $(tail -n 20 "$T/build.log")"
done

VG="valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=3"
# Valgrind that could not read the debug info is a broken test, not a
# clean run: say so plainly.
vg_check() {
	! grep -q "debuginfo reader\|unhandled dwarf2\|Serious error when reading debug info" "$1" ||
		fail "valgrind could not read the debug info of the -gdwarf-4 build: $(head -n 10 "$1")"
}
TMPDIR=$T/tmp timeout 300 $VG "$T/api-test" >"$T/api.log" 2>&1 ||
	{ vg_check "$T/api.log"; fail "api-test under valgrind: $(grep -v '^ok:' "$T/api.log" | tail -n 30)"; }
vg_check "$T/api.log"
for mode in "" --file; do
	TMPDIR=$T/tmp timeout 300 $VG "$T/probe-host" $mode --seconds 1.5 --cycle 100 >"$T/host.log" 2>&1 ||
		{ vg_check "$T/host.log"; fail "probe-host $mode under valgrind: $(tail -n 30 "$T/host.log")"; }
	vg_check "$T/host.log"
	grep -q '^unloaded' "$T/host.log" || fail "probe-host $mode never unloaded: $(cat "$T/host.log")"
done
left=$(find "$T/tmp" -mindepth 1)
expect_eq "files left behind" "" "$left"
note "valgrind ($CC, DWARF 4): clean"
