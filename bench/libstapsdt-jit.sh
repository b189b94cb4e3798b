# libstapsdt at JIT scale (bench/libstapsdt-jit.c): 20,000 single-probe
# additions to a loaded provider with providerExtend(), the median of the
# last 50 extends at 50, 1,000, 10,000 and 20,000 additions, with the
# process's descriptors and mappings then, and the unload and destroy of
# it all. Beside it, the same change in the public libstapsdt (built from
# its source in this run, see public_libstapsdt in bench/lib.sh), which has
# no extend: add one probe to a loaded provider of that size by unloading
# and loading again (and every tracer attached loses its probes).
. "$top_srcdir/bench/lib.sh"
BENCH=$top_builddir/bench/libstapsdt-jit
N=20000
export TMPDIR=$B

"$BENCH" extend $N >"$B/jit.out" || { echo "libstapsdt-jit failed"; exit 1; }

REF=
if why=$(public_libstapsdt "$B/public"); then
	if $CC -O2 -I"$why/src" -I"$top_srcdir/tests/tools" -o "$B/public-jit" \
		"$top_srcdir/bench/libstapsdt-jit.c" "$why/out/libstapsdt.so.0" \
		-Wl,-rpath,"$why/out" 2>"$B/public-jit.err" &&
		"$B/public-jit" reload $N >"$B/public.out"; then
		REF=$B/public.out
	else
		why="the bench does not build or run over it: $(tail -n 1 "$B/public-jit.err")"
	fi
fi
[ -n "$REF" ] || echo "(public libstapsdt reference absent: $why)"

ours() { sed -n "s/^$1 \([0-9.]*\) .*/\1/p" "$B/jit.out"; }
ref() {
	[ -n "$REF" ] || { echo absent; return; }
	sed -n "s/^$1 \([0-9.]*\) .*/\1/p" "$REF"
}

base=$(ours extend_us_50)
header "libstapsdt: one probe added per extend, $N times, same run" "public"
for k in 50 1000 10000 20000; do
	# The issue's targets: the median at 20,000 at most twice the one at
	# 50; descriptors and mappings at most 2% of the additions there.
	t= tf= tm=
	if [ $k = 20000 ]; then
		t="<=$(awk -v b="$base" 'BEGIN { printf "%.2f", 2 * b }')"
		tf="<=$((k / 50))" tm="<=$((k / 50))"
	fi
	row "add+extend, ${k}th (public: reload)" "$(ours extend_us_$k)" \
		"$(ref reload_us_$k)" us "$t"
	row "  descriptors after $k" "$(ours fds_$k)" - count "$tf"
	row "  mappings after $k" "$(ours maps_$k)" - count "$tm"
done
row "unload + destroy of $N" "$(ours unload_destroy_ms)" - ms "<50"

# sdt-list -p on a process grown so (its probes listed from every object).
SDT_LIST=$top_builddir/sdt-list/sdt-list
"$BENCH" hold $N >"$B/hold.out" 2>&1 &
holder=$!
i=0
while ! grep -q '^grown' "$B/hold.out" 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 600 ] && kill -0 $holder 2>/dev/null || break; sleep 0.05
done
if grep -q '^grown' "$B/hold.out" && [ -x "$SDT_LIST" ]; then
	listed=$("$SDT_LIST" -p $holder 2>/dev/null | grep -c '^jitbench:fn')
	row "sdt-list -p, $listed probes" "$(median_ms 5 "$SDT_LIST" -p $holder)" - ms "<1000"
else
	echo "(sdt-list -p not measured: $(cat "$B/hold.out"))"
fi
kill $holder 2>/dev/null
wait $holder 2>/dev/null
target_summary
