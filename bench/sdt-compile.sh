#!/bin/sh
# What the headers cost to compile, against both references in the same
# run: a unit of 300 four-argument probes (half passing plain names, half
# expressions), compiled with -O2 by gcc and by clang, with the type
# records on (the default). Ours <sys/sdt.h> against SystemTap's
# (systemtap-sdt-dev), ours <usdt.h> against libbpf/usdt's usdt.h, found
# by libbpf_usdt_h (bench/lib.sh: $LIBBPF_USDT_H; "absent" without it).
# Timings alternate ours
# and theirs, 9 runs each, and take each one's median, so that a busy
# moment hits both alike; the time is the compiler's CPU time (user +
# system, from /usr/bin/time), which the other work of a shared machine
# disturbs less than wall time, else wall time. Below the times, where
# they go: the preprocessed size, the function-like macro calls (as
# clang counts them) and the asm operands of each unit.
. "$top_srcdir/bench/lib.sh"
stap_header "$B/stap-inc" # else STAP_INC is empty: "absent"
libbpf_usdt=$(libbpf_usdt_h)
N=300
RUNS=9

# unit MACRO HEADER FILE: N probes MACRO(group, name, four arguments).
unit() {
	awk -v n=$N -v m="$1" -v h="$2" 'BEGIN {
		printf "#include %s\n", h
		print "struct req { int id; long len; const char *path; void *p; };"
		print "void fire(struct req *r, int id, const char *path, unsigned flags)"
		print "{"
		for (i = 0; i < n; i++) {
			if (i % 2)
				printf "\t%s(bench, p%d, id, path, flags, r);\n", m, i
			else
				printf "\t%s(bench, p%d, r->id + %d, r->path, r->len, r->p);\n", m, i, i
		}
		print "}"
	}' >"$3"
}

# pair_ms CC A.c IA B.c IB: "MS-A MS-B", each the median of RUNS compiles
# (-O2 -c), taken in turns; IA and IB are include flags ("" for none).
pair_ms() {
	cc=$1
	for r in $(seq $RUNS); do
		for w in a b; do
			if [ $w = a ]; then f=$2 inc=$3; else f=$4 inc=$5; fi
			if [ -x /usr/bin/time ]; then
				# shellcheck disable=SC2086
				/usr/bin/time -f "%U %S" -o "$B/time" $cc -O2 $inc \
					-c "$f" -o "$B/out.o" || exit 1
				echo "$w $(awk '{ printf "%d", ($1 + $2) * 1000000 }' "$B/time")"
				continue
			fi
			s=$(date +%s%N)
			# shellcheck disable=SC2086
			$cc -O2 $inc -c "$f" -o "$B/out.o" || exit 1
			e=$(date +%s%N)
			echo "$w $(((e - s) / 1000))"
		done
	done | awk '{ v[$1, ++n[$1]] = $2 }
		function med(w,   i, j, t, k) {
			k = n[w]
			for (i = 1; i <= k; i++) a[i] = v[w, i]
			for (i = 1; i <= k; i++)
				for (j = i + 1; j <= k; j++)
					if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return a[int((k + 1) / 2)] / 1000
		}
		END { printf "%.1f %.1f\n", med("a"), med("b") }'
}

# calls ARGS...: the function-like macro calls clang makes preprocessing.
calls() {
	command -v clang >/dev/null 2>&1 || { echo -; return; }
	clang -E -o /dev/null -Xclang -print-stats "$@" 2>&1 |
		sed -n 's|^[0-9]*/\([0-9]*\)/[0-9]* obj/fn/builtin.*|\1|p'
}

# operands FILE: the asm operands the compiler sees in FILE's probes.
operands() {
	$CC -O2 -E -P "$@" | tr -d '\n' | grep -o '"[a-z]*" *(' | wc -l
}

cd "$B" || exit 1
unit STAP_PROBE4 '<sys/sdt.h>' sdt.c
unit USDT '"usdt.h"' usdt.c
mkdir -p ref && [ -n "$libbpf_usdt" ] && cp "$libbpf_usdt" ref/usdt.h
ours_inc="-I$top_srcdir/include"

for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || { echo "($cc absent)"; continue; }
	header "compile $N four-argument probes, $cc -O2 (median of $RUNS, in turns)" "reference"
	if [ -n "$STAP_INC" ]; then
		# shellcheck disable=SC2046
		set -- $(pair_ms $cc sdt.c "$ours_inc" sdt.c "$STAP_INC")
		row "sys/sdt.h vs SystemTap's" "$1" "$2" ms ">=1x"
	else
		row "sys/sdt.h vs SystemTap's" - absent ms ">=1x"
	fi
	if [ -n "$libbpf_usdt" ]; then
		# shellcheck disable=SC2046
		set -- $(pair_ms $cc usdt.c "$ours_inc" usdt.c "-Iref")
		row "usdt.h vs libbpf/usdt's" "$1" "$2" ms ">=1x"
	else
		row "usdt.h vs libbpf/usdt's" - absent ms ">=1x"
	fi
	# shellcheck disable=SC2046
	set -- $(pair_ms $cc sdt.c "$ours_inc" sdt.c "$ours_inc -DSDTKIT_NO_TYPES")
	row "sys/sdt.h, records vs SDTKIT_NO_TYPES" "$1" "$2" ms
done

header "where it goes: the 300-probe units" "reference"
pp() { $CC -E "$@" | wc -c; }
[ -n "$STAP_INC" ] && ref=$(pp "$STAP_INC" sdt.c) || ref=absent
row "sys/sdt.h preprocessed" "$(pp "$ours_inc" sdt.c)" "$ref" bytes
row "sys/sdt.h, no records, preprocessed" \
	"$(pp "$ours_inc" -DSDTKIT_NO_TYPES sdt.c)" "$ref" bytes
[ -n "$STAP_INC" ] && ref=$(calls "$STAP_INC" sdt.c) || ref=absent
row "sys/sdt.h macro calls" "$(calls "$ours_inc" sdt.c)" "$ref" calls
[ -n "$STAP_INC" ] && ref=$(operands "$STAP_INC" sdt.c) || ref=absent
row "sys/sdt.h asm operands" "$(operands "$ours_inc" sdt.c)" "$ref" operands
[ -n "$libbpf_usdt" ] && ref=$(pp -Iref usdt.c) || ref=absent
row "usdt.h preprocessed" "$(pp "$ours_inc" usdt.c)" "$ref" bytes
[ -n "$libbpf_usdt" ] && ref=$(calls -Iref usdt.c) || ref=absent
row "usdt.h macro calls" "$(calls "$ours_inc" usdt.c)" "$ref" calls
[ -n "$libbpf_usdt" ] && ref=$(operands -Iref usdt.c) || ref=absent
row "usdt.h asm operands" "$(operands "$ours_inc" usdt.c)" "$ref" operands
[ -n "$STAP_INC" ] || echo "(SystemTap's sys/sdt.h absent: systemtap-sdt-dev is not installed)"
[ -n "$libbpf_usdt" ] || echo "(libbpf/usdt's usdt.h absent: set LIBBPF_USDT_H to it)"
target_summary
exit 0
