# libstapsdt: providerLoad for 1/100/1000 probes, adding one probe to a
# loaded provider of 1000 (providerExtend, against the unload and reload
# the public library needs for the same change), untraced probeFire,
# probeIsEnabled, the inline checks, and a traced fire under bpftrace
# (bpftrace 0.17 attaches at the note's PC with an int3; the optimized
# 5-byte-nop path is measured by bench/libbpf-traced.sh). The reference is
# the public libstapsdt, built from its source in this run (see
# public_libstapsdt in bench/lib.sh) and timed by the same bench program
# compiled against its header; without its source the column says
# "absent".
. "$top_srcdir/bench/lib.sh"
BENCH=$top_builddir/bench/libstapsdt-bench
export TMPDIR=$B

"$BENCH" >"$B/ours.out" || { echo "libstapsdt-bench failed"; exit 1; }

# The reference: the same program over the public header and library.
REF_BENCH=
if why=$(public_libstapsdt "$B/public"); then
	if $CC -O2 -I"$why/src" -o "$B/public-bench" \
		"$top_srcdir/bench/libstapsdt-bench.c" "$why/out/libstapsdt.so.0" \
		-Wl,-rpath,"$why/out" 2>"$B/public-bench.err" &&
		"$B/public-bench" >"$B/public.out"; then
		REF_BENCH=$B/public-bench
	else
		why="the bench does not build or run over it: $(tail -n 1 "$B/public-bench.err")"
	fi
fi
[ -n "$REF_BENCH" ] || echo "(public libstapsdt reference absent: $why)"

# ours NAME, ref NAME: a figure of our run, of the reference's ("absent"
# without one; "-" where the public library has no such call).
ours() { sed -n "s/^$1 \([0-9.]*\) .*/\1/p" "$B/ours.out"; }
ref() {
	[ -n "$REF_BENCH" ] || { echo absent; return; }
	v=$(sed -n "s/^$1 \([0-9.]*\) .*/\1/p" "$B/public.out")
	echo "${v:--}"
}

header "libstapsdt vs the public libstapsdt (0d53f98), same run" "public"
row "providerLoad, 1 probe" "$(ours load1)" "$(ref load1)" us ">=3x"
row "providerLoad, 100 probes" "$(ours load100)" "$(ref load100)" us ">=3x"
row "providerLoad, 1000 probes" "$(ours load1000)" "$(ref load1000)" us ">=3x"
# The floor under any load: memfd, write and dlopen of the smallest shared
# object (bench/dlopen-floor.c). A load target below it cannot be met by a
# library that dlopens its probes, as libstapsdt's clients rely on.
printf '' >"$B/empty.c"
if $CC -shared -fPIC -O2 -nostdlib -Wl,-z,noseparate-code \
	-Wl,--build-id=none -o "$B/empty.so" "$B/empty.c" 2>/dev/null &&
	$CC -O2 -o "$B/dlopen-floor" "$top_srcdir/bench/dlopen-floor.c" -ldl &&
	floor=$("$B/dlopen-floor" "$B/empty.so" | sed -n 's/^dlopen_floor_us \([0-9.]*\) .*/\1/p'); then
	row "floor: dlopen of an empty object" "$floor" - us
	r=$(ref load1)
	case $r in
	[0-9]*) awk -v r="$r" -v f="$floor" 'BEGIN {
		printf "(3x the public 1-probe load is %.2f us: %s the %.2f us floor)\n",
			r / 3, r / 3 < f ? "below" : "above", f }' ;;
	esac
fi

row "probeFire, untraced" "$(ours fire)" "$(ref fire)" ns "<3"
# The public header has no inline check: its users get the call.
row "probeIsEnabled (header's inline)" "$(ours enabled)" "$(ref enabled)" ns "<1.5"
row "probeIsEnabled (library call)" "$(ours enabled_call)" "$(ref enabled_call)" ns
# The functions as bindings reach them (dlsym, a pointer), both libraries
# in one process, their windows alternating (bench/libstapsdt-ab.c): the
# fair comparison of two calls this short, which the two programs above
# measure at different moments of a shared machine.
ab_enabled=absent ab_fire=absent ab_floor=absent
if [ -n "$REF_BENCH" ] &&
	$CC -O2 -I"$top_srcdir/bench" -o "$B/ab" "$top_srcdir/bench/libstapsdt-ab.c" -ldl 2>"$B/ab.err"; then
	pin=
	command -v taskset >/dev/null 2>&1 && pin="taskset -c $(($(nproc) - 1))"
	if $pin "$B/ab" "$top_builddir/libstapsdt/.libs/libstapsdt.so.0" \
		"$why/out/libstapsdt.so.0" >"$B/ab.out" 2>&1; then
		ab_enabled=$(sed -n 's/^enabled_call //p' "$B/ab.out")
		ab_fire=$(sed -n 's/^fire_call //p' "$B/ab.out")
		ab_floor=$(sed -n 's/^floor //p' "$B/ab.out")
	fi
fi
row "probeIsEnabled, call, one process" "${ab_enabled% *}" "${ab_enabled#* }" ns ">=1x"
# Its floor: the same loop calling a function that only returns. Where
# both libraries' calls cost that, no check can be faster.
row "  floor: a call that does nothing" "$ab_floor" - ns
row "probeFire, call, one process" "${ab_fire% *}" "${ab_fire#* }" ns
row "probeIsEnabledInline (extension)" "$(ours inline)" - ns "<0.5"
row "SDT_SEMAPHORE_ENABLED, kept pointer" "$(ours inline_sema)" - ns
row "bare indirect call (baseline)" "$(ours bare)" "$(ref bare)" ns
row "the timing loop alone (baseline)" "$(ours loop)" "$(ref loop)" ns

# traced_run NAME BENCH TRACER-COMMAND...: ns per fire of BENCH's traced
# mode while the tracer is attached to it.
traced_run() {
	name=$1 bench=$2
	shift 2
	"$bench" traced 200000 >"$B/$name.out" 2>&1 &
	pid=$!
	i=0
	while ! grep -q '^ready' "$B/$name.out" 2>/dev/null; do
		i=$((i + 1)); [ $i -lt 100 ] || break; sleep 0.05
	done
	PID=$pid "$@" >"$B/$name.tracer" 2>&1 &
	tracer=$!
	wait $pid
	kill $tracer 2>/dev/null; wait $tracer 2>/dev/null
	sed -n 's/^traced \([0-9.]*\) .*/\1/p' "$B/$name.out"
}

if [ "$(id -u)" = 0 ] && command -v bpftrace >/dev/null 2>&1; then
	bt() { timeout 60 bpftrace -p "$PID" -e 'usdt:*:benchprov:traced { @c = count(); }'; }
	ref_traced=absent
	[ -n "$REF_BENCH" ] && ref_traced=$(traced_run bt-public "$REF_BENCH" bt)
	row "probeFire, traced (bpftrace, int3)" "$(traced_run bt "$BENCH" bt)" \
		"$ref_traced" ns
	echo "(the traced-fire target, <= 650 ns, is for the optimized path: bench/libbpf-traced.sh)"
else
	echo "(traced fires need root and bpftrace)"
fi

# Adding 1 probe to a loaded provider of 1000 probes. The public library
# has no providerExtend: the same change there is unload, add, load (and
# its tracers lose every probe). Ours does the same by extending.
header "libstapsdt: add 1 probe to a loaded provider of 1000, same run" "public"
row "add + providerExtend (public: reload)" "$(ours extend1000)" "$(ref reload1000)" us ">=20x"
row "add + unload + load (both)" "$(ours reload1000)" "$(ref reload1000)" us
row "add + providerExtend, onto 1 probe" "$(ours extend1)" - us
row "add + providerExtend, 101st extend" "$(ours extend1000_after100)" - us
row "providerLoad, 1 probe (for scale)" "$(ours load1)" "$(ref load1)" us
awk -v e="$(ours extend1000)" -v l="$(ours load1)" -v r="$(ours reload1000)" 'BEGIN {
	if (e > 0 && l > 0)
		printf "(extending 1000 by 1 costs %.2fx a 1-probe load, %.1fx less than our own reload)\n", e / l, r / e }'
target_summary
