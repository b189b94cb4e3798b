#!/bin/sh
# sdt-list against bcc's tplist: listing every probe of a binary with
# 10 000 probes (built with SystemTap's <sys/sdt.h>), in the same run.
# Target: at least 10x faster. Also --check and --json on the same file.
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
$CC -O2 -o "$B/many" "$B/many.c" || exit 1
n=$("$SDT_LIST" --json "$B/many" | grep -c '"provider"')

header "sdt-list: list a $n-probe binary" "tplist -l"
ours=$(median_ms 5 "$SDT_LIST" "$B/many")
if [ -n "$TPLIST" ]; then
	ref=$(median_ms 3 "$TPLIST" -l "$B/many")
	got=$("$TPLIST" -l "$B/many" 2>/dev/null | grep -c 'bench:')
	[ "$got" = "$n" ] || echo "(tplist listed $got probes)"
else
	ref=absent
	echo "(tplist reference absent: bpfcc-tools is not installed)"
fi
row "list (text), wall" "$ours" "$ref" ms ">=10x"
row "list --json, wall" "$(median_ms 5 "$SDT_LIST" --json "$B/many")" "$ref" ms
row "list --check, wall" "$(median_ms 5 "$SDT_LIST" --check "$B/many")" "$ref" ms
if command -v valgrind >/dev/null 2>&1; then
	row "list (text), instructions" "$(callgrind_ir "$SDT_LIST" "$B/many")" - Ir
fi
target_summary
