#!/bin/sh
# README's demo (`make demo': samples/static/demo.sh) lists the sample's
# probes and traces them live, also from a build directory whose name has
# a space and quotes in it, as a user's clone may: bpftrace reads the
# path in a probe and the command it runs as words, which such a name
# broke.
. "$top_srcdir/tests/lib.sh"
need_bpftrace
for f in samples/static/server sdt-list/sdt-list; do
	[ -x "$top_builddir/$f" ] || fail "$f is not built"
done

# A build directory of the demo's own layout under an awkward name.
odd="$T/my \"odd\" build's dir"
mkdir -p "$odd/samples/static" "$odd/sdt-list" || fail "mkdir"
cp "$top_builddir/samples/static/server" "$odd/samples/static/" || fail "cp"
cp "$top_builddir/sdt-list/sdt-list" "$odd/sdt-list/" || fail "cp"

for dir in "$top_builddir" "$odd"; do
	top_builddir=$dir sh "$top_srcdir/samples/static/demo.sh" >"$T/out" 2>&1 ||
		fail "demo.sh in $dir failed: $(cat "$T/out")"
	grep -q 'check passed: 5 probes' "$T/out" ||
		fail "demo.sh in $dir: no passed check: $(cat "$T/out")"
	grep -q '^   usdt:.*server:server:request$' "$T/out" ||
		fail "demo.sh in $dir: bpftrace listed no probe: $(cat "$T/out")"
	grep -q '^   request [0-9] /' "$T/out" ||
		fail "demo.sh in $dir: no request traced: $(cat "$T/out")"
	grep -q '^   stats ' "$T/out" ||
		fail "demo.sh in $dir: the stats probe was not traced: $(cat "$T/out")"
done
exit 0
