#!/bin/sh
# A C++ probe argument that is a pointer to a data member (an offset of
# the size of a pointer): every C++ compiler installed builds it, C++98 and
# C++17, -O0 and -O2, warning-free, and gdb reads the offset and the
# member's value at the probe. clang 19 and later refuse a pointer-to-member
# in a register-constrained asm operand, SystemTap's header and ours alike,
# unless the header passes the pointer's bits as an integer (ours does);
# with SystemTap's header the program is expected to fail there. A pointer
# to a member function (two words) stays refused by the header's check.
. "$top_srcdir/tests/lib.sh"
need_cmd gdb
cd "$T" || fail "cd"

cat >mp.cc <<'CC'
#include <stddef.h>
#include <sys/sdt.h>
struct S {
	int a;
	long b;
	int c;
};
int main()
{
	long S::*mp = &S::b;
	S s = { 1, 2, 3 };
	s.*mp += 40;
	DTRACE_PROBE3(mp, data, mp, s.*mp, (int)offsetof(S, b));
	return 0;
}
CC
cat >mfp.cc <<'CC'
#include <sys/sdt.h>
struct S {
	int f() { return 1; }
};
int main()
{
	int (S::*mfp)() = &S::f;
	DTRACE_PROBE1(mp, func, mfp);
	return 0;
}
CC
n=0
for cxx in "$CXX" g++ clang++; do
	command -v "${cxx%% *}" >/dev/null 2>&1 || continue
	case " $seen " in *" $cxx "*) continue ;; esac
	seen="${seen:-} $cxx"
	ver=$($cxx --version | head -n 1)
	for std in c++98 c++17; do
		for opt in -O0 -O2; do
			what="$cxx -std=$std $opt"
			$cxx -std=$std $opt -g -Wall -Wextra -Werror -I"$SDT_INCLUDE" \
				mp.cc -o mp 2>err || fail "$what: $(cat err)"
			out=$(gdb -q -batch -ex 'break -probe-stap mp:data' -ex run \
				-ex 'printf "got %d %d %d\n", $_probe_arg0, $_probe_arg1, $_probe_arg2' \
				./mp 2>&1 | grep '^got')
			# The offset of b, b's value, and the offset the program computed.
			off=$(echo "$out" | awk '{ print $4 }')
			expect_eq "$what: what gdb read" "got $off 42 $off" "$out"
			n=$((n + 1))
		done
	done
	$cxx -I"$SDT_INCLUDE" -c mfp.cc -o mfp.o 2>err &&
		fail "$cxx: a pointer to a member function was taken"
	grep -q 'sys/sdt.h: a probe argument must be' err ||
		fail "$cxx: a pointer to a member function: no message from the check: $(cat err)"
	# SystemTap's header, where installed, for the record.
	if echo '#include <sys/sdt.h>' | $cxx -x c++ -dM -E - 2>/dev/null | grep -q 'define _SDT_ASM_BODY'; then
		if $cxx -std=c++17 -O2 mp.cc -o stap 2>err; then
			note "$ver: SystemTap's header takes the member pointer"
		else
			note "$ver: SystemTap's header fails: $(grep -m 1 error err)"
		fi
	fi
done
[ $n -gt 0 ] || skip "no C++ compiler"
echo "PASS: a pointer to a data member reaches gdb from $n builds"
