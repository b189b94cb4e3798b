#!/bin/sh
# gdb reads our notes: `info probes` lists every probe of tests/sdt/values.c,
# and stopped at a probe, $_probe_argc and $_probe_arg0..11 are the values
# the program passed (all twelve, where bpftrace 0.17 stops at six).
. "$top_srcdir/tests/lib.sh"
need_cmd gdb

cat >"$T/cmds" <<'GDB'
set pagination off
set confirm off
set print pretty off
info probes stap vals
break -probe-stap vals:a11
break -probe-stap vals:a12
run
printf "argc a11 %d\n", $_probe_argc
echo a11
printf " "
output $_probe_arg0
printf " "
output $_probe_arg1
printf " "
output $_probe_arg2
printf " "
output $_probe_arg3
printf " "
output $_probe_arg4
printf " "
output $_probe_arg5
printf " "
output $_probe_arg6
printf " "
output $_probe_arg7
printf " "
output $_probe_arg8
printf " "
output $_probe_arg9
printf " "
output $_probe_arg10
echo \n
continue
printf "argc a12 %d\n", $_probe_argc
printf "a12 %s ", (char *)$_probe_arg0
output $_probe_arg1
printf " "
output $_probe_arg2
printf " "
output $_probe_arg3
printf " "
output $_probe_arg4
printf " "
output $_probe_arg5
printf " "
output $_probe_arg6
printf " "
output $_probe_arg7
printf " "
output $_probe_arg8
printf " %s ", (char *)$_probe_arg9
output $_probe_arg10
printf " %s\n", (char *)$_probe_arg11
continue
GDB

runs=0
for cc in gcc clang; do
	for o in -O0 -O2; do
		exe=$T/values-$cc$o
		$cc -I"$SDT_INCLUDE" $o -g -o "$exe" \
			"$top_srcdir/tests/sdt/values.c" || fail "$cc $o: build"
		timeout 60 gdb -batch -nx -x "$T/cmds" --args "$exe" "$T/expected" \
			>"$T/out" 2>&1 || { cat "$T/out"; fail "$cc $o: gdb failed"; }
		for p in a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 strings floats; do
			grep -Eq "^stap +vals +$p +0x" "$T/out" ||
				{ cat "$T/out"; fail "$cc $o: info probes lacks vals:$p"; }
		done
		expect_eq "$cc $o: argc" "argc a11 11
argc a12 12" "$(grep '^argc' "$T/out")"
		expect_eq "$cc $o: a11 and a12 read by gdb" \
			"$(grep -E '^a1[12] ' "$T/expected")" \
			"$(grep -E '^a1[12] ' "$T/out")"
		runs=$((runs + 1))
	done
done
echo "PASS: $runs builds: gdb lists every probe and reads all 12 arguments"
