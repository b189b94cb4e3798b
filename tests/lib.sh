# Shared by the shell tests. Source it first: it finds the tree, gives each
# test a private scratch directory, and says how to skip (exit 77, with the
# reason) and how to fail (exit 1, with what was expected and what was seen).

: "${top_srcdir:?run through make check}" "${top_builddir:?run through make check}"
CC=${CC:-cc}
CXX=${CXX:-c++}
SDT_NOTES=$top_builddir/tests/tools/sdt-notes
SDT_INCLUDE=$top_srcdir/include
TRACEFS=/sys/kernel/tracing

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "# $*"; }

need_cmd() {
	for c; do
		command -v "$c" >/dev/null 2>&1 || skip "$c is not installed"
	done
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "attaching tracers needs root"
}

# A scratch directory removed on exit: $T.
T=$(mktemp -d "${TMPDIR:-/tmp}/sdtkit-test.XXXXXX") || fail "mktemp"
trap 'rm -rf "$T"' EXIT

# tracefs, mounted if a fresh machine has not mounted it yet.
need_tracefs() {
	need_root
	if [ ! -e "$TRACEFS/uprobe_events" ]; then
		mount -t tracefs nodev "$TRACEFS" 2>/dev/null ||
			skip "cannot mount tracefs on $TRACEFS"
	fi
	[ -w "$TRACEFS/uprobe_events" ] || skip "$TRACEFS/uprobe_events is not writable"
}

# bpftrace that can really load programs here (root, BPF allowed).
need_bpftrace() {
	need_root
	need_cmd bpftrace
	need_tracefs
	out=$(timeout 60 bpftrace -e 'BEGIN { printf("ok\n"); exit(); }' 2>&1)
	case "$out" in
	*ok*) ;;
	*) skip "bpftrace cannot load programs here: $(echo "$out" | tail -n 1)" ;;
	esac
}

# bpftrace with a time limit, its harmless RLIMIT_MEMLOCK chatter dropped.
# Output to stdout; exit status is bpftrace's (124 on time-out).
bpftrace_run() {
	timeout 60 bpftrace "$@" >"$T/.bpftrace.out" 2>&1
	rc=$?
	grep -v 'RLIMIT_MEMLOCK' "$T/.bpftrace.out"
	return $rc
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	[ "$2" = "$3" ] && return 0
	printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3" >&2
	exit 1
}

# mk_sources FRAGMENT VAR: the .c files of VAR in FRAGMENT (both from the
# top source dir), as paths under $top_srcdir.
mk_sources() {
	awk -v var="$2" -v dir="$top_srcdir" '
	!on && $0 ~ "^" var "[ \t]*[+]?=" { on = 1; sub(/^[^=]*=/, "") }
	on {
		more = sub(/\\[ \t]*$/, "")
		n = split($0, w, /[ \t]+/)
		for (i = 1; i <= n; i++)
			if (w[i] ~ /\.c$/) print dir "/" w[i]
		if (!more) on = 0
	}' "$top_srcdir/$1"
}
