#!/bin/sh
# gdb on tests/sdt/debugger.c, built the ways debuggers' own SDT tests
# build theirs (-O0 -g, with and without PIE, -O2 without debug info; each
# with semaphores the program defines itself or none), with gcc and clang:
# the file compiles only if _SDT_NOTE_TYPE is 3; `info probes' lists every
# probe; $_probe_argc outside a probe is an error; a probe with two sites
# is one breakpoint with two locations whose argument counts differ; an
# argument past the last is an error; strings, a function pointer's result,
# an int in %xmm0, bit-fields, a char array and STAP_PROBEV's 12 arguments
# read back; and a probe guarded by its semaphore fires under gdb, which
# counts the semaphore up.
. "$top_srcdir/tests/lib.sh"
need_cmd gcc clang gdb
LC_ALL=C
export LC_ALL
SRC=$top_srcdir/tests/sdt/debugger.c

# q NAME EXPR: gdb arguments printing "@NAME=VALUE" (or gdb's error).
q() {
	printf '%s\n' "-ex" "echo @$1=" "-ex" "output $2" "-ex" 'echo \n'
}
args() {
	printf '%s\n' -ex "set pagination off" -ex "set confirm off" \
		-ex "info probes stap app" -ex "break main" -ex "run"
	q outside '$_probe_argc'
	printf '%s\n' -ex "delete" -ex "break -probe-stap app:twice" -ex "continue"
	q twice_argc '$_probe_argc'
	q twice_arg0 '$_probe_arg0'
	q twice_arg1 '$_probe_arg1'
	printf '%s\n' -ex "continue"
	q twice2_argc '$_probe_argc'
	printf '%s\n' -ex "delete" -ex "break -probe-stap app:strings" -ex "continue"
	q strings_argc '$_probe_argc'
	q strings_id '$_probe_arg0'
	q strings_even '(const char *)$_probe_arg1'
	q strings_first '(const char *)$_probe_arg2'
	printf '%s\n' -ex "continue"
	q strings_odd '(const char *)$_probe_arg1'
	printf '%s\n' -ex "delete" -ex "break -probe-stap app:xmm" -ex "continue"
	q xmm '/x $_probe_arg0'
	printf '%s\n' -ex "delete" -ex "break -probe-stap app:bits" -ex "continue"
	q bits_on '$_probe_arg0'
	q bits_tri '$_probe_arg1'
	q bits_tag '$_probe_arg2'
	q bits_wide '$_probe_arg3'
	q bits_name '(const char *)$_probe_arg4'
	printf '%s\n' -ex "delete" -ex "break -probe-stap app:none" \
		-ex "break -probe-stap app:many" -ex "continue"
	q none_argc '$_probe_argc'
	printf '%s\n' -ex "continue"
	q many_argc '$_probe_argc'
	q many_first '$_probe_arg0'
	q many_last '$_probe_arg11'
}

expected='@outside=No probe at PC ADDR
@twice_argc=1
@twice_arg0=5
@twice_arg1=Invalid probe argument 1 -- probe has 1 arguments available
@twice2_argc=0
@strings_argc=4
@strings_id=42
@strings_even=ADDR "even one"
@strings_first=ADDR "first message"
@strings_odd=ADDR "odd one"
@xmm=0x1234
@bits_on=1
@bits_tri=-2
@bits_tag=200
@bits_wide=100000
@bits_name=ADDR "flags"
@none_argc=0
@many_argc=12
@many_first=7
@many_last=18'

runs=0
for cc in gcc clang; do
	for how in "-O0 -g" "-O0 -g -fno-PIE -no-pie" "-O0 -g -fPIE -pie" \
		"-O0 -g -DWITH_SEMAPHORES" "-O2" "-O2 -DWITH_SEMAPHORES"; do
		what="$cc $how"
		$cc -I"$SDT_INCLUDE" -Wall -Wextra -Werror $how "$SRC" -o "$T/dbg" ||
			fail "$what: does not compile"
		"$T/dbg" || fail "$what: the program fails"
		{ args && echo "$T/dbg"; } >"$T/args"
		# One argument per line: the gdb commands keep their spaces.
		tr '\n' '\0' <"$T/args" | xargs -0 timeout 60 gdb -batch -nx \
			>"$T/out" 2>&1
		for p in twice strings xmm bits none many; do
			grep -Eq "^stap +app +$p +0x" "$T/out" ||
				{ cat "$T/out"; fail "$what: info probes lacks app:$p"; }
		done
		expect_eq "$what: the twice probe's sites" 2 \
			"$(grep -Ec '^stap +app +twice +0x' "$T/out")"
		grep -q '^Breakpoint [0-9]* at 0x[0-9a-f]*.* (2 locations)' "$T/out" ||
			{ cat "$T/out"; fail "$what: app:twice is not one breakpoint at 2 locations"; }
		expect_eq "$what: what gdb reads" "$expected" \
			"$(grep '^@' "$T/out" | sed 's/0x[0-9a-f]*/ADDR/; s/^@xmm=ADDR/@xmm=0x1234/')"
		runs=$((runs + 1))
	done
done
echo "PASS: $runs builds: gdb lists, stops at and reads every probe"
