#!/bin/sh
# Every argument of every probe our header emits is readable by every
# consumer sdt-list models (libbpf, bcc/bpftrace, gdb, perf), on the
# machines where all of them have an argument parser: x86_64, i386 and
# aarch64, with gcc and clang, from -O0 to -O3, PIC or not. Constants too:
# perf records no value for a constant operand, so none may be emitted.
. "$top_srcdir/tests/lib.sh"
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"

n=0
for cc in gcc clang i686-linux-gnu-gcc "clang --target=i686-linux-gnu" \
	aarch64-linux-gnu-gcc "clang --target=aarch64-linux-gnu"; do
	command -v ${cc%% *} >/dev/null 2>&1 || skip "${cc%% *} is not installed"
	for o in -O0 -O1 "-O2 -fPIC" -O3; do
		$cc -I"$SDT_INCLUDE" $o -c "$top_srcdir/tests/sdt/probes.c" \
			-o "$T/p.o" || fail "$cc $o: does not compile"
		if ! "$SDT_LIST" --check "$T/p.o" >"$T/check" 2>&1; then
			grep -B3 -A3 'NO' "$T/check" | head -n 40 >&2
			fail "$cc $o: some probe is unreadable by some consumer"
		fi
		n=$((n + 1))
	done
done
note "$n builds: every probe readable by libbpf, bcc/bpftrace, gdb and perf"

# The real perf, on this machine: it must record every argument of every
# probe (a skipped constant or an unparsed operand shows as a missing argN).
need_tracefs
need_cmd perf
tracefs_lock # perf names its events sdt_PROVIDER:NAME
$CC -I"$SDT_INCLUDE" -O2 -fPIC -shared "$top_srcdir/tests/sdt/probes.c" \
	-o "$T/libprobes.so" || fail "cannot build the probe library"
"$SDT_NOTES" "$T/libprobes.so" >"$T/notes" || fail "sdt-notes refused a spec"
# perf finds SDT probes through its build-id cache: a private one per run.
perf_() { timeout 60 perf --buildid-dir "$T/debug" "$@"; }
out=$(perf_ buildid-cache --add "$T/libprobes.so" 2>&1) ||
	fail "perf buildid-cache --add: $out"
checked=0
while read -r pn rest; do
	prov=${pn%%:*} name=${pn#*:}
	spec=${rest#*args=}
	want=0
	for a in $spec; do
		case $a in *@*) want=$((want + 1)) ;; esac
	done
	out=$(perf_ probe -x "$T/libprobes.so" -a "sdt_$prov:$name" 2>&1) ||
		fail "perf cannot add sdt_$prov:$name: $out"
	line=$(grep "^p:sdt_$prov/$name " "$TRACEFS/uprobe_events")
	perf_ probe -q -d "sdt_$prov:$name" >/dev/null 2>&1
	got=$(printf '%s\n' "$line" | tr ' ' '\n' | grep -c '^arg[0-9]*=')
	[ "$got" = "$want" ] ||
		fail "perf records $got of $want arguments of $pn ($spec): $line"
	checked=$((checked + 1))
done <"$T/notes"
[ "$checked" -gt 10 ] || fail "only $checked probes checked with perf"
note "perf records every argument of $checked probes"
