#!/bin/sh
# The untraced cost of a probe site, ours against SystemTap's <sys/sdt.h>:
# instructions per loop iteration above a loop without a probe (callgrind,
# stable from run to run), and the .text bytes a probe site adds, for
# probes with 0, 2, 6 and 12 arguments compiled with -O2.
. "$top_srcdir/bench/lib.sh"
theirs=/usr/include/x86_64-linux-gnu/sys/sdt.h
[ -f "$theirs" ] || theirs=/usr/include/sys/sdt.h
if [ ! -f "$theirs" ] || ! command -v valgrind >/dev/null 2>&1; then
	echo "sdt-cost: needs valgrind and SystemTap's sys/sdt.h (systemtap-sdt-dev)"
	exit 0
fi
ours=$top_srcdir/include/sys/sdt.h
src=$top_srcdir/bench/sdt-loop.c
n=1000000

build() { # NAME HEADER ARGS
	$CC -O2 -DSDT_HEADER="\"$2\"" -DARGS=$3 "$src" -o "$B/$1" &&
		$CC -O2 -DSDT_HEADER="\"$2\"" -DARGS=$3 -c "$src" -o "$B/$1.o"
}
text() { size -A "$1" | awk '$1 ~ /^\.text/ { t += $2 } END { print t }'; }

build base "$ours" -1 || exit 1
base_ir=$(callgrind_ir "$B/base" $n)
base_text=$(text "$B/base.o")

header "untraced probe cost, $CC -O2, per iteration" "systemtap"
for a in 0 2 6 12; do
	build ours$a "$ours" $a && build theirs$a "$theirs" $a || exit 1
	o=$(callgrind_ir "$B/ours$a" $n)
	t=$(callgrind_ir "$B/theirs$a" $n)
	row "instructions, $a args" \
		$(awk -v a="$o" -v b="$base_ir" -v n=$n 'BEGIN { printf "%.2f", (a - b) / n }') \
		$(awk -v a="$t" -v b="$base_ir" -v n=$n 'BEGIN { printf "%.2f", (a - b) / n }') \
		insn
	row "text bytes per site, $a args" \
		$(($(text "$B/ours$a.o") - base_text)) \
		$(($(text "$B/theirs$a.o") - base_text)) bytes
done
