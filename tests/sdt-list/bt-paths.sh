#!/bin/sh
# bpftrace's grammar and the paths sdt-list prints or judges. Objects whose
# paths hold each printable character bpftrace's lexer may trip on (and
# the sequences `libstdc++', `+-', `+/', `+#', `->', `+=', and UTF-8):
#  - --script with each path unquoted says the installed bpftrace cannot
#    parse it exactly when that bpftrace refuses the program (compiled
#    without attaching: --emit-elf up to 0.23, --dry-run after);
#  - --bpftrace over all of them (and -p of a process running one)
#    prints a program the installed bpftrace takes whole.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_bpftrace
ver=$(bpftrace --version 2>/dev/null | sed -n 's/^bpftrace v\{0,1\}\([0-9]*\.[0-9]*\).*/\1/p')
case $ver in
0.17 | 0.23 | 0.27) ;;
*) skip "bpftrace $ver: its path grammar was not measured (0.17, 0.23, 0.27 were)" ;;
esac
case $ver in
0.1[0-9] | 0.2[0-3]) compile() { bpftrace_run --emit-elf "$T/out.elf" "$1" >/dev/null; } ;;
*) compile() { bpftrace_run --dry-run "$1" >/dev/null; } ;;
esac

cat >"$T/p.c" <<'C'
#include <sys/sdt.h>
int main(int argc, char **argv) { (void)argv; DTRACE_PROBE1(btpath, hit, argc); return 0; }
C
$CC -O2 -I"$SDT_INCLUDE" -o "$T/p" "$T/p.c" || fail "cannot build p.c"
D=$T/paths
mkdir "$D" "$D/a+"
: >"$T/list"
for name in 'a!b' 'a#b' 'a$b' 'a%b' 'a&b' 'a(b' 'a)b' 'a*b' 'a+b' 'a-b' 'a.b' \
	'a;b' 'a<b' 'a=b' 'a>b' 'a?b' 'a@b' 'a[b' 'a]b' 'a^b' 'a_b' 'a`b' \
	'a|b' 'a}b' 'a~b' "a'b" 'libstdc++.so.6' 'a+-b' 'a+/b' 'a+#b' 'a->b' \
	'a+=b' 'a--b' "$(printf 'a\303\251b')"; do
	cp "$T/p" "$D/$name" || fail "cannot write $D/$name"
	echo "$D/$name" >>"$T/list"
done
n=$(wc -l <"$T/list")

# --script: the verdict on each unquoted path against the real grammar.
refused=0
while read -r f; do
	printf 'usdt:%s:btpath:hit { @n = count(); }\n' "$f" >"$T/one.bt"
	"$SDT_LIST" --script "$T/one.bt" "$f" >"$T/script.out" 2>&1
	if grep -q "bpftrace .*\b$ver\b.* cannot parse the path" "$T/script.out"; then
		says=refused
	else
		says=parsed
	fi
	if compile "$T/one.bt"; then real=parsed; else real=refused; fi
	[ "$says" = "$real" ] ||
		fail "$(basename "$f"): sdt-list --script says bpftrace $ver $says it, bpftrace $real it: $(cat "$T/script.out") / $(tail -n 3 "$T/.bpftrace.out")"
	[ $real = parsed ] || refused=$((refused + 1))
done <"$T/list"
note "--script: $n unquoted paths, $refused refused by bpftrace $ver, each as sdt-list said"

# --bpftrace: one program over all of them compiles.
"$SDT_LIST" --bpftrace "$D" >"$T/all.bt" 2>"$T/all.err" ||
	fail "--bpftrace $D failed: $(cat "$T/all.err")"
[ "$(grep -c '^usdt:' "$T/all.bt")" = $n ] ||
	fail "--bpftrace left paths out: $(grep -c '^usdt:' "$T/all.bt") of $n blocks"
BPFTRACE_MAX_PROBES=1024 compile "$T/all.bt" ||
	fail "bpftrace $ver refuses sdt-list's program: $(tail -n 5 "$T/.bpftrace.out")"
"$SDT_LIST" --script "$T/all.bt" "$D/a_b" >"$T/script.out" 2>&1 ||
	fail "--script finds problems in its own program: $(head -n 5 "$T/script.out")"

# -p: a process running one of them (bpftrace resolves the path itself).
PIDS=
trap 'for p in $PIDS; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT
cat >"$T/w.c" <<'C'
#include <sys/sdt.h>
#include <unistd.h>
int main(void) { DTRACE_PROBE(btpath, wait); pause(); return 0; }
C
$CC -O2 -I"$SDT_INCLUDE" -o "$D/libw++.so.1" "$T/w.c" || fail "cannot build w.c"
"$D/libw++.so.1" &
PIDS=$!
wait_exe $PIDS "$D/libw++.so.1"
"$SDT_LIST" --bpftrace -p $PIDS >"$T/pid.bt" 2>"$T/pid.err" ||
	fail "--bpftrace -p failed: $(cat "$T/pid.err")"
grep -q '^usdt:"' "$T/pid.bt" || fail "-p: the path is not quoted: $(grep usdt: "$T/pid.bt")"
compile "$T/pid.bt" || fail "bpftrace $ver refuses the -p program: $(tail -n 5 "$T/.bpftrace.out")"
note "--bpftrace over $n paths and with -p: bpftrace $ver takes the programs"
