# Shared by the benchmark scripts (`make bench'). Source it first. Each
# benchmark prints a table: what was measured, ours, the reference tool's
# figure measured in the same run, and the ratio (reference / ours, so a
# number above 1 means we are faster or smaller).

: "${top_srcdir:?run through make bench}" "${top_builddir:?run through make bench}"
CC=${CC:-cc}
B=$(mktemp -d "${TMPDIR:-/tmp}/sdtkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$B"' EXIT

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

# ratio REF OURS: REF / OURS with two decimals ("-" if either is missing).
ratio() {
	awk -v r="$1" -v o="$2" 'BEGIN {
		if (r == "" || o == "" || r == "-" || o == "-" || o + 0 == 0) print "-";
		else printf "%.2f\n", r / o }'
}

# row WHAT OURS REF UNIT: one aligned table row with the ratio.
row() {
	printf '%-34s %14s %14s %-6s %8s\n' "$1" "$2" "$3" "$4" "$(ratio "$3" "$2")"
}

# header TITLE REFNAME: the table's title and column names.
header() {
	printf '\n== %s\n' "$1"
	printf '%-34s %14s %14s %-6s %8s\n' "measure" "sdtkit" "$2" "unit" "ratio"
}
