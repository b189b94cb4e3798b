#!/bin/sh
# The x86_64 fast site (SDTKIT_FAST_ATTACH, docs/fast-attach.md), without a
# BPF tracer:
#  - bytes: in tests/sdt/probes.c built with gcc, clang, g++ and clang++
#    from -O0 to -O3, every C probe's PC holds `nop; nop5' between
#    `lea -128(%rsp),%rsp' and `lea 128(%rsp),%rsp', and the specs keep
#    their sizes; without the macro (or with it set to 0) every site is a
#    lone nop; STAP_PROBE_ASM and .S probes stay lone nops; with
#    SDTKIT_FAST_ATTACH_NOP10 the PC holds `nop; nop10' (gdb reads it too);
#  - no warning under -Wall -Wextra -pedantic -Werror in any language mode;
#  - gdb stopped at fast sites (tests/sdt/fast-frames.c): the backtrace
#    reads leaf/framed/main whether the frame is %rsp- or %rbp-based
#    (the CFI follows %rsp over the red zone), the arguments are what was
#    passed, and %rsp passed as an argument is the caller's %rsp, not the
#    stepped one.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt/lib.sh"
LC_ALL=C
export LC_ALL
case $(uname -m) in x86_64) ;; *) skip "the fast site is x86_64 only" ;; esac
need_cmd gcc g++ clang clang++ od
[ -x "$SDT_NOTES" ] || fail "$SDT_NOTES is not built"
I="-I$SDT_INCLUDE"
ENTER=488d642480 SITE=900f1f440000 LEAVE=488da42480000000
NOP10=90662e0f1f840000000000

# sites FILE BEFORE AFTER: per probe of FILE, "PROVIDER:NAME HEX" with the
# BEFORE bytes ahead of its PC and AFTER bytes from it.
sites() {
	"$SDT_NOTES" --offsets "$1" >"$T/offsets" || fail "$1: sdt-notes failed"
	while read -r pn rest; do
		off=$(echo "$rest" | sed -n 's/.*pc_off=\(0x[0-9a-f]*\).*/\1/p')
		printf '%s %s\n' "$pn" "$(od -An -tx1 -j $((off - $2)) -N $(($2 + $3)) "$1" | tr -d ' \n')"
	done <"$T/offsets"
}

# expect_all WHAT FILE BEFORE AFTER HEX: every site reads HEX.
expect_all() {
	sites "$2" "$3" "$4" >"$T/sites"
	[ -s "$T/sites" ] || fail "$1: no probes"
	bad=$(awk -v h="$5" '$2 != h' "$T/sites")
	[ -z "$bad" ] || fail "$1: sites are not $5:
$bad"
}

# A lone nop: 90, not followed by the 5-byte nop.
expect_plain() {
	sites "$2" 0 6 >"$T/sites"
	bad=$(awk '$2 !~ /^90/ || $2 == "900f1f440000"' "$T/sites")
	[ -z "$bad" ] || fail "$1: not a lone nop:
$bad"
}

builds=0
for cc in gcc clang g++ clang++; do
	lang=
	case $cc in *++) lang="-x c++" ;; esac
	for o in -O0 -O2 "-O3 -fno-omit-frame-pointer" "-Os -fPIC"; do
		what="$cc $o"
		# shellcheck disable=SC2086
		compile_check "$what fast" "$T/fast" $cc $I $WFLAGS $o $lang \
			-DSDTKIT_FAST_ATTACH "$PROBES_C" -o "$T/fast"
		check_kinds "$T/notes" "$what fast" - 8 8
		expect_all "$what fast" "$T/fast" 5 14 "$ENTER$SITE$LEAVE"
		# shellcheck disable=SC2086
		compile_check "$what" "$T/plain" $cc $I $WFLAGS $o $lang \
			"$PROBES_C" -o "$T/plain"
		expect_plain "$what" "$T/plain"
		builds=$((builds + 1))
	done
done
for std in c89 gnu99 c11; do
	compile_check "gcc -std=$std" "$T/p" gcc $I $WFLAGS -std=$std -O2 \
		-DSDTKIT_FAST_ATTACH "$PROBES_C" -o "$T/p"
	compile_check "clang -std=$std" "$T/p" clang $I $WFLAGS -std=$std -O2 \
		-DSDTKIT_FAST_ATTACH "$PROBES_C" -o "$T/p"
done
for std in c++98 c++11; do
	compile_check "clang++ -std=$std" "$T/p" clang++ $I $WFLAGS -std=$std \
		-O2 -x c++ -DSDTKIT_FAST_ATTACH "$PROBES_C" -o "$T/p"
done
compile_check "SDTKIT_FAST_ATTACH=0" "$T/p" gcc $I $WFLAGS -O2 \
	-DSDTKIT_FAST_ATTACH=0 "$PROBES_C" -o "$T/p"
expect_plain "SDTKIT_FAST_ATTACH=0" "$T/p"
compile_check "nop10" "$T/p" gcc $I $WFLAGS -O2 \
	-DSDTKIT_FAST_ATTACH_NOP10 "$PROBES_C" -o "$T/p"
expect_all "nop10" "$T/p" 0 11 "$NOP10"
note "$builds builds: fast sites where asked, lone nops elsewhere"

# The assembler forms keep the lone nop: their operands may name %rsp.
cat >"$T/asm.c" <<'SRC'
#include <sys/sdt.h>
int main(void)
{
	int v = 7;

	__asm__ __volatile__(STAP_PROBE_ASM(inasm, extended, -4@%0 8@%%rsp)
			     "nop" : : "r"(v));
	return 0;
}
SRC
compile_check "STAP_PROBE_ASM" "$T/asm" gcc $I -O2 -DSDTKIT_FAST_ATTACH \
	"$T/asm.c" "$top_srcdir/tests/sdt/asm-probe.S" -o "$T/asm"
expect_plain "STAP_PROBE_ASM and .S" "$T/asm"

# gdb at the sites of fast-frames.c.
command -v gdb >/dev/null 2>&1 || skip "gdb is not installed (the byte checks passed)"
cat >"$T/cmds" <<'GDB'
set pagination off
set confirm off
break -probe-stap ff:leaf
break -probe-stap ff:framed
run
printf "leaf %ld %ld\n", $_probe_arg0, $_probe_arg1
bt
continue
printf "framed %ld %ld\n", $_probe_arg0, $_probe_arg1
bt
continue
GDB
# frames OUT: "WHAT: FUNCTION..." per stop, the backtrace's function names.
frames() {
	awk '/^(leaf|framed) -?[0-9]/ { if (l) print l; l = $0 ":"; next }
	/^#[0-9]/ { f = ($3 == "in") ? $4 : $2; l = l " " f }
	END { if (l) print l }' "$1"
}
want_frames="leaf 41 123: leaf framed main
framed 166 44: framed main"
for build in "gcc -O2" "gcc -O2 -fno-omit-frame-pointer" "gcc -O0" \
	"gcc -O0 -fomit-frame-pointer" "gcc -O3 -fPIE -pie" "gcc -O2 -flto" "clang -O2" \
	"clang -O0" "g++ -O2 -x c++" "clang++ -O2 -x c++"; do
	# shellcheck disable=SC2086
	$build -g $I -Wall -Wextra -DSDTKIT_FAST_ATTACH \
		"$top_srcdir/tests/sdt/fast-frames.c" -o "$T/ff" 2>"$T/cc.log" ||
		fail "$build: cannot build fast-frames.c: $(cat "$T/cc.log")"
	expect_all "$build fast-frames" "$T/ff" 0 6 "$SITE"
	timeout 60 gdb -batch -x "$T/cmds" "$T/ff" >"$T/gdb.out" 2>&1 ||
		fail "$build: gdb failed: $(tail -n 5 "$T/gdb.out")"
	expect_eq "$build: arguments and backtraces at fast sites" \
		"$want_frames" "$(frames "$T/gdb.out")"
done
gcc -g -O2 $I -DSDTKIT_FAST_ATTACH_NOP10 "$top_srcdir/tests/sdt/fast-frames.c" \
	-o "$T/ff" || fail "gcc -DSDTKIT_FAST_ATTACH_NOP10: cannot build fast-frames.c"
expect_all "nop10 fast-frames" "$T/ff" 0 11 "$NOP10"
timeout 60 gdb -batch -x "$T/cmds" "$T/ff" >"$T/gdb.out" 2>&1 ||
	fail "nop10: gdb failed: $(tail -n 5 "$T/gdb.out")"
expect_eq "nop10: arguments and backtraces" "$want_frames" "$(frames "$T/gdb.out")"
# %rsp as an argument (gcc: clang binds such a variable only to its own
# operands): the value must be the caller's %rsp, 128 above the stepped
# one; with the nop10 form %rsp does not move.
printf '%s\n' 'set pagination off' 'break -probe-stap ff:sp' run \
	'printf "sp %ld\n", $_probe_arg0 - (long)$sp' kill >"$T/sp-cmds"
for form in "SDTKIT_FAST_ATTACH 128" "SDTKIT_FAST_ATTACH_NOP10 0"; do
	set -- $form
	for o in -O0 -O2; do
		gcc -g $o $I -D"$1" "$top_srcdir/tests/sdt/fast-frames.c" \
			-o "$T/ff" || fail "gcc $o -D$1: cannot build fast-frames.c"
		timeout 60 gdb -batch -x "$T/sp-cmds" "$T/ff" >"$T/gdb.out" 2>&1
		expect_eq "gcc $o -D$1: %rsp passed to ff:sp, less the PC's %rsp" \
			"sp $2" "$(grep '^sp ' "$T/gdb.out")"
	done
done
echo "PASS: fast sites where asked, exact for gdb (arguments, %rsp, backtraces); lone nops elsewhere"
