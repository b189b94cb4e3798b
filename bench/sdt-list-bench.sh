#!/bin/sh
# sdt-list against bcc's tplist: listing every probe of a binary with
# 10 000 probe sites (built with SystemTap's <sys/sdt.h> where installed,
# else ours), in the same run. Targets: the listing at least 10x faster
# than `tplist -l'; --check at most 1.5x the time of the plain listing
# (verdicts are judged once per distinct spec, not per site).
. "$top_srcdir/bench/lib.sh"
SDT_LIST=$top_builddir/sdt-list/sdt-list
TPLIST=$(command -v tplist-bpfcc || command -v tplist || true)

python3 - "$B/many.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("#include <sys/sdt.h>\n")
    for fn in range(100):
        f.write("void f%d(int i, long l)\n{\n" % fn)
        for p in range(100):
            f.write("\tDTRACE_PROBE2(bench, p%d, i, l);\n" % (fn * 100 + p))
        f.write("}\n")
    f.write("int main(void) { return 0; }\n")
PY
stap_header "$B/stap-inc" && inc=$STAP_INC || inc=-I$top_srcdir/include
# shellcheck disable=SC2086
$CC -O2 $inc -o "$B/many" "$B/many.c" || exit 1
n=$("$SDT_LIST" --json "$B/many" | grep -c '"provider"')

header "sdt-list: list a $n-site binary" "tplist -l"
# Twenty runs each: the two are compared with each other below.
list=$(median_ms 20 "$SDT_LIST" "$B/many")
check=$(median_ms 20 "$SDT_LIST" --check "$B/many")
if [ -n "$TPLIST" ]; then
	# A path with a `/': tplist takes a bare name for a library to find.
	ref=$(median_ms 5 "$TPLIST" -l "$B/many")
	got=$("$TPLIST" -l "$B/many" 2>/dev/null | grep -c 'bench:')
	[ "$got" = "$n" ] || echo "(tplist listed $got probes)"
else
	ref=absent
	echo "(tplist reference absent: bpfcc-tools is not installed)"
fi
row "list (a line per probe), wall" "$list" "$ref" ms ">=10x"
row "list -v (every site), wall" "$(median_ms 10 "$SDT_LIST" -v "$B/many")" "$ref" ms
row "list --json, wall" "$(median_ms 10 "$SDT_LIST" --json "$B/many")" "$ref" ms
row "list --check, wall" "$check" "$ref" ms
row "list --bpftrace, wall" "$(median_ms 10 "$SDT_LIST" --bpftrace "$B/many")" "$ref" ms
# --check at most 1.5x the plain listing: a ratio of at least 1/1.5.
header "sdt-list --check against the plain listing" "listing"
row "--check, wall" "$check" "$list" ms ">=0.67x"
# Instructions do not move with the machine's load: the steadier figure.
if command -v valgrind >/dev/null 2>&1; then
	row "--check, instructions" "$(callgrind_ir "$SDT_LIST" --check "$B/many")" \
		"$(callgrind_ir "$SDT_LIST" "$B/many")" Ir
fi
target_summary
