#!/bin/sh
# A narrow integer argument in a register is the whole register, extended
# from the argument's type: tests/sdt/narrowed.c passes 0x8899aabbccddeeff
# cast to int8_t, uint8_t, int16_t, uint16_t, int32_t and uint32_t, whose
# specs name the 64-bit registers (-1@%rdx). Stopped at the probe, gdb
# must read each argument as its narrow value and find its register
# holding that value sign- or zero-extended to 64 bits: gdb 16 narrows a
# register it reads by a cast that gets a negative value out of the narrow
# type's range wrong, so only a register so extended reads right with
# every gdb (docs/tracers.md). bpftrace reads the same six arguments.
# gcc and clang, -O0 and -O2 (the narrowing casts then cost no move).
. "$top_srcdir/tests/lib.sh"
need_cmd gcc clang gdb readelf
LC_ALL=C
export LC_ALL
[ "$(uname -m)" = x86_64 ] || skip "the register names checked are x86_64's"

# Each argument: its value, then its register's, in hex.
want="-1 0xffffffffffffffff
255 0xff
-4353 0xffffffffffffeeff
61183 0xeeff
-857870593 0xffffffffccddeeff
3437096703 0xccddeeff"

builds=0
for cc in gcc clang; do
	for o in -O0 -O2; do
		what="$cc $o"
		exe=$T/narrowed-$cc$o
		$cc -I"$SDT_INCLUDE" $o -Wall -Wextra -Werror -o "$exe" \
			"$top_srcdir/tests/sdt/narrowed.c" || fail "$what: build"
		spec=$(readelf -n "$exe" | sed -n 's/^ *Arguments: //p')
		set -- $spec
		[ $# = 6 ] || fail "$what: expected 6 arguments, got: $spec"
		expect_eq "$what: sizes" "-1 1 -2 2 -4 4" \
			"$(printf '%s\n' $spec | sed 's/@.*//' | tr '\n' ' ' | sed 's/ $//')"
		cmds=$T/cmds
		printf '%s\n' "set pagination off" "set confirm off" \
			"break -probe-stap narrowed:casts" "run" >"$cmds"
		i=0
		for a in $spec; do
			reg=${a#*@%}
			case "$reg" in
			r[a-z0-9]*) ;;
			*) fail "$what: argument $i is no 64-bit register: $a" ;;
			esac
			printf 'printf "@ "\noutput $_probe_arg%d\nprintf " "\noutput/x $%s\necho \\n\n' \
				$i "$reg" >>"$cmds"
			i=$((i + 1))
		done
		echo kill >>"$cmds"
		timeout 60 gdb -batch -nx -x "$cmds" "$exe" >"$T/gdb.out" 2>&1 ||
			{ cat "$T/gdb.out"; fail "$what: gdb failed"; }
		expect_eq "$what: arguments and their registers in gdb ($spec)" \
			"$want" "$(sed -n 's/^@ //p' "$T/gdb.out")"
		builds=$((builds + 1))
	done
done

# bpftrace: the same values, from the same specs.
if ! (need_bpftrace) >"$T/why" 2>&1; then
	note "bpftrace not checked: $(cat "$T/why")"
	echo "PASS: $builds builds, gdb read 6 arguments and registers each"
	exit 0
fi
for cc in gcc clang; do
	for o in -O0 -O2; do
		exe=$T/narrowed-$cc$o
		bpftrace_run -e "usdt:$exe:narrowed:casts {
			printf(\"@ %lld %lld %lld %lld %lld %lld\\n\",
			       arg0, arg1, arg2, arg3, arg4, arg5); }" \
			-c "$exe" >"$T/bt.out" ||
			{ cat "$T/bt.out"; fail "$cc $o: bpftrace failed"; }
		expect_eq "$cc $o: arguments in bpftrace" \
			"@ $(echo "$want" | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//')" \
			"$(grep '^@ ' "$T/bt.out")"
	done
done
echo "PASS: $builds builds, gdb read 6 arguments and registers each, bpftrace the arguments"
