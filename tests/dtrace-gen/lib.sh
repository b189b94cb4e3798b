# Shared by the dtrace-gen tests, sourced after tests/lib.sh: where the
# generator is, and the tracefs plumbing the tracer tests need.

# memcheck.sh reruns some tests with DG_UNDER_TEST: an instrumented build.
DG=${DG_UNDER_TEST:-$top_builddir/dtrace-gen/dtrace-gen}
DG_DATA=$top_srcdir/tests/dtrace-gen
[ -x "$DG" ] || fail "$DG is not built"

# An x86-64 argument spec operand (`%rbx', `-16(%rbp)', `$5') as a tracefs
# fetch argument; SIZE (from the spec, e.g. -8) gives its type. Prints
# nothing for forms tracefs cannot fetch.
spec_fetcharg() {
	awk -v spec="$1" '
	function reg(r) {
		sub(/^%/, "", r)
		if (r ~ /^r[0-9]+[dwb]?$/) { sub(/[dwb]$/, "", r); return "%" r }
		if (r ~ /^(sil|dil|bpl|spl)$/) { sub(/l$/, "", r); return "%" r }
		if (r ~ /^[re]?(ax|bx|cx|dx|si|di|bp|sp)$/) { sub(/^[re]/, "", r); return "%" r }
		if (r ~ /^[abcd]l$/) { sub(/l$/, "x", r); return "%" r }
		return ""
	}
	BEGIN {
		at = index(spec, "@"); size = substr(spec, 1, at - 1); op = substr(spec, at + 1)
		t = (size ~ /^-/ ? "s" : "u") (size < 0 ? -size : size) * 8
		if (op ~ /^\$-?[0-9]+$/) { f = "\\" substr(op, 2) }
		else if (op ~ /^%/) { f = reg(op) }
		else if (op ~ /^-?[0-9]*\(%[a-z0-9]+\)$/) {
			off = op; sub(/\(.*/, "", off); if (off == "") off = 0
			r = op; sub(/^[^(]*\(/, "", r); sub(/\)$/, "", r)
			r = reg(r); if (r == "") exit
			f = (off < 0 ? "" : "+") off "(" r ")"
		}
		if (f != "") print f ":" t
	}'
}

# The Nth (1-based) argument of probe PROV:NAME in FILE as sdt-notes says.
probe_arg() {
	"$SDT_NOTES" "$1" | awk -v p="$2" -v n="$3" '
		$1 == p { sub(/.*args=/, ""); split($0, a, " "); print a[n] }'
}

# A private tracefs instance, so parallel tests never read each other's
# events: $TR_INST. Removed by tr_cleanup, with the events of group $TR_GRP.
tr_setup() {
	need_tracefs
	TR_GRP=$1
	TR_INST=$TRACEFS/instances/$1
	mkdir "$TR_INST" || skip "cannot make a tracefs instance"
}

tr_cleanup() {
	[ -n "${TR_GRP:-}" ] || return 0
	for e in "$TR_INST"/events/"$TR_GRP"/*/enable; do
		[ -e "$e" ] && echo 0 >"$e"
	done 2>/dev/null
	for e in $(grep "^p:$TR_GRP/" "$TRACEFS/uprobe_events" 2>/dev/null |
		sed 's/^p:\([^ ]*\).*/\1/'); do
		echo "-:$e" >>"$TRACEFS/uprobe_events"
	done 2>/dev/null
	rmdir "$TR_INST" 2>/dev/null
	TR_GRP=
}

# Wait up to SECS for PATTERN to appear in FILE at least COUNT times.
wait_for() {
	_wf_i=0
	while [ "$(grep -c -- "$2" "$1" 2>/dev/null)" -lt "${3:-1}" ]; do
		_wf_i=$((_wf_i + 1))
		[ $_wf_i -gt $((${4:-15} * 10)) ] && return 1
		sleep 0.1
	done
	return 0
}

# What matters in a -G object, one fact a line: ELF header fields, the
# .probes and .note.GNU-stack sections, the semaphore symbols in order.
obj_summary() {
	LC_ALL=C readelf -hW "$1" | sed -n \
		's/^ *\(Class\|Data\|Type\|Machine\): *\(.*\)$/\1: \2/p'
	LC_ALL=C readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] \(\.probes\|\.note\.GNU-stack\) *\([A-Z_]*\) *[0-9a-f]* [0-9a-f]* \([0-9a-f]*\) [0-9a-f]* *\([A-Z]*\) *[0-9]* *[0-9]* *\([0-9]*\)$/section \1 \2 size=\3 flags=\4 align=\5/p'
	LC_ALL=C readelf -sW "$1" | awk '$8 ~ /_semaphore$/ {
		print "symbol", $8, "value=" $2, "size=" $3, $4, $5, $6,
		      ($7 == "UND" ? "undefined" : "defined") }'
}

# The macro names a header defines, sorted.
macro_set() {
	sed -n 's/^#define \([A-Za-z0-9_]*\).*/\1/p' "$1" | sort -u
}
