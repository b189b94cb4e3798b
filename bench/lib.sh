# Shared by the benchmark scripts (`make bench'). Source it first. Each
# benchmark prints tables in one form: what was measured, ours, the
# reference tool's figure measured in the same run (never a figure copied
# from elsewhere: a reference that cannot run here is "absent"), the unit,
# the ratio reference / ours (higher is better: above 1 we are faster or
# smaller), and the row's target with a pass/FAIL mark.

: "${top_srcdir:?run through make bench}" "${top_builddir:?run through make bench}"
CC=${CC:-cc}
B=$(mktemp -d "${TMPDIR:-/tmp}/sdtkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$B"' EXIT

# stap_header DIR: STAP_INC, the flag under which <sys/sdt.h> is
# SystemTap's (the tests' helper, shared).
. "$top_srcdir/tests/stap-header.sh"

# median_ms RUNS CMD...: the median wall time of RUNS runs of CMD, in ms.
# hyperfine (no shell, warmed up) where installed: a date-based loop adds
# a few milliseconds of its own, which hides fast tools' real times. With
# PREPARE set, that shell command runs before each run, untimed.
median_ms() {
	runs=$1
	shift
	if command -v hyperfine >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
		hyperfine -N -w 3 -r "$runs" --export-json "$B/hf.json" \
			${PREPARE:+--prepare "$PREPARE"} -- "$*" \
			>/dev/null 2>&1 &&
			python3 -c 'import json,sys; print("%.3f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$B/hf.json" &&
			return 0
	fi
	i=0
	while [ "$i" -lt "$runs" ]; do
		[ -z "${PREPARE:-}" ] || sh -c "$PREPARE"
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1
		e=$(date +%s%N)
		echo $(((e - s) / 1000))
		i=$((i + 1))
	done | sort -n | awk '{ v[NR] = $1 } END { printf "%.3f\n", v[int((NR + 1) / 2)] / 1000 }'
}

# callgrind_ir CMD...: instructions executed by CMD (stable across runs).
callgrind_ir() {
	valgrind --tool=callgrind --callgrind-out-file="$B/cg.out" "$@" \
		>/dev/null 2>"$B/cg.err" || return 1
	sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$B/cg.out"
}

# ratio REF OURS: REF / OURS with two decimals ("-" unless both are numbers).
ratio() {
	awk -v r="$1" -v o="$2" 'BEGIN {
		num = "^[0-9]+([.][0-9]+)?$"
		if (r !~ num || o !~ num || o + 0 == 0) print "-";
		else printf "%.2f\n", r / o }'
}

# target_mark OURS RATIO TARGET: "ok" or "FAIL" and the target, "-" for no
# target. TARGET is <N, <=N, >N or >=N on our figure, or the same with an
# x (">=3x") on the ratio; a figure that was not measured gives "n/a".
# Each mark is also counted in $B/targets for target_summary.
target_mark() {
	[ -n "$3" ] || { echo -; return; }
	awk -v ours="$1" -v ratio="$2" -v t="$3" 'BEGIN {
		match(t, /^[<>]=?/)
		op = substr(t, 1, RLENGTH); lim = substr(t, RLENGTH + 1)
		v = ours
		if (lim ~ /x$/) { v = ratio; sub(/x$/, "", lim) }
		if (v !~ /^[0-9]+([.][0-9]+)?$/) { print "n/a " t; exit }
		v += 0; lim += 0
		ok = op == "<" ? v < lim : op == "<=" ? v <= lim : \
		     op == ">" ? v > lim : v >= lim
		print (ok ? "ok " : "FAIL ") t }' | tee -a "$B/targets"
}

# target_summary: one line counting this script's marks.
target_summary() {
	[ -s "$B/targets" ] || return 0
	awk '{ n[$1]++ } END {
		printf "targets: %d ok, %d FAIL, %d not measured\n",
			n["ok"], n["FAIL"], n["n/a"] }' "$B/targets"
}

# row WHAT OURS REF UNIT [TARGET]: one aligned table row with the ratio
# and, when TARGET is given, its mark.
row() {
	r=$(ratio "$3" "$2")
	printf '%-36s %12s %12s %-5s %7s  %s\n' "$1" "${2:--}" "${3:--}" "$4" \
		"$r" "$(target_mark "$2" "$r" "${5:-}")"
}

# header TITLE REFNAME: the table's title, the legend and column names.
header() {
	printf '\n== %s\n' "$1"
	echo "   ratio = $2 / sdtkit: higher is better (above 1, sdtkit is faster or smaller);"
	echo "   target: sdtkit's goal (x: on the ratio), ok or FAIL; \"absent\": no reference here"
	printf '%-36s %12s %12s %-5s %7s  %s\n' "measure" "sdtkit" "$2" "unit" \
		"ratio" "target"
}

# public_libstapsdt DIR: build the public libstapsdt (github.com/
# linux-usdt/libstapsdt, 0d53f98) in DIR from its source tarball: in
# $LIBSTAPSDT_REF, else beside the source tree in ../shared/anchors/. Prints
# the source directory (src/libstapsdt.h, out/libstapsdt.so.0), or why
# there is none, and fails.
public_libstapsdt() {
	tarball=${LIBSTAPSDT_REF:-$top_srcdir/../shared/anchors/libstapsdt-0d53f98.tar.gz}
	if [ ! -f "$tarball" ]; then
		echo "no public libstapsdt source at $tarball (set LIBSTAPSDT_REF)"
		return 1
	fi
	mkdir -p "$1" && tar -xzf "$tarball" -C "$1" || {
		echo "cannot unpack $tarball"
		return 1
	}
	src=$(find "$1" -mindepth 2 -maxdepth 3 -name libstapsdt.h -path '*/src/*' | head -n 1)
	src=${src%/src/libstapsdt.h}
	if [ -z "$src" ] || ! make -C "$src" CC="$CC" CFLAGS="-std=gnu11 -O2" \
		out/libstapsdt.so.0 >"$1/build.log" 2>&1; then
		echo "the public libstapsdt does not build here: $(tail -n 1 "$1/build.log")"
		return 1
	fi
	echo "$src"
}

# libbpf_usdt_h: libbpf/usdt's single header (usdt.h), for same-run
# comparisons: $LIBBPF_USDT_H, else beside the source tree in
# ../shared/anchors/usdt.h. Prints its path, or nothing when absent.
libbpf_usdt_h() {
	h=${LIBBPF_USDT_H:-$top_srcdir/../shared/anchors/usdt.h}
	[ -f "$h" ] && echo "$h"
	return 0
}
