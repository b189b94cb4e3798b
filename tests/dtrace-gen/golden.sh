#!/bin/sh
# Golden outputs: -h byte for byte, -G by its ELF facts (obj_summary) and
# its typed-probe records (read by typerec.py), for each input under
# inputs/, plus determinism: the same bytes again, from
# another directory and another path to the input.
# DG_UPDATE_GOLDEN=1 rewrites the golden files (review the diff!).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"

need_cmd readelf cmp python3

# The -G object's .note.sdtkit section and its records, one a line.
types_summary() {
	LC_ALL=C readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] \(\.note\.sdtkit\) *\([A-Z_]*\) *[0-9a-f]* [0-9a-f]* \([0-9a-f]*\) [0-9a-f]* *\([A-Z]*\) *[0-9]* *[0-9]* *\([0-9]*\)$/section \1 \2 size=\3 flags=\4 align=\5/p'
	python3 "$DG_DATA/typerec.py" "$1"
}
gold=$DG_DATA/golden
fails=0
for d in "$DG_DATA"/inputs/*.d; do
	name=$(basename "$d" .d)
	flags=
	case $name in postgresql | typed) flags=-C ;; esac
	"$DG" $flags -h -s "$d" -o "$T/$name.h" 2>"$T/err" ||
		fail "$name: -h failed: $(cat "$T/err")"
	"$DG" $flags -G -s "$d" -o "$T/$name.o" 2>"$T/err" ||
		fail "$name: -G failed: $(cat "$T/err")"
	"$DG" $flags -G -DSTAP_SDT_V2 -s "$d" -o "$T/$name-v2.o" ||
		fail "$name: -G -DSTAP_SDT_V2 failed"
	{ obj_summary "$T/$name.o"; types_summary "$T/$name.o"
	  echo "# -DSTAP_SDT_V2"; obj_summary "$T/$name-v2.o"; } >"$T/$name.o.txt"
	if [ -n "${DG_UPDATE_GOLDEN:-}" ]; then
		cp "$T/$name.h" "$gold/$name.h"
		cp "$T/$name.o.txt" "$gold/$name.o.txt"
		continue
	fi
	if ! cmp -s "$gold/$name.h" "$T/$name.h"; then
		diff -u "$gold/$name.h" "$T/$name.h" | head -40
		echo "FAIL: $name.h differs from the golden header" >&2
		fails=$((fails + 1))
	fi
	if ! cmp -s "$gold/$name.o.txt" "$T/$name.o.txt"; then
		diff -u "$gold/$name.o.txt" "$T/$name.o.txt" | head -40
		echo "FAIL: $name.o differs from the golden object facts" >&2
		fails=$((fails + 1))
	fi

	# Deterministic: same bytes from elsewhere, through another path.
	mkdir -p "$T/other/dir" && cp "$d" "$T/other/dir/x.d"
	(cd "$T/other" && "$DG" $flags -h -s dir/x.d -o again.h &&
		"$DG" $flags -G -s ./dir/../dir/x.d -o again.o) ||
		fail "$name: second run failed"
	cmp -s "$T/$name.h" "$T/other/again.h" || fail "$name: -h is not deterministic"
	cmp -s "$T/$name.o" "$T/other/again.o" || fail "$name: -G is not deterministic"
	grep -a -q -F -e "$T" -e "$name.d" -e "x.d" "$T/$name.o" "$T/other/again.o" &&
		fail "$name: the object records a path"
done
[ $fails = 0 ] || fail "$fails golden mismatches"
exit 0
