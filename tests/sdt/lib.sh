# Shared by the tests/sdt matrix tests: compile tests/sdt/probes.c one way,
# validate every probe with the strict core validator, and check the size
# and signedness the header gave each kind of argument.

PROBES_C=$top_srcdir/tests/sdt/probes.c
WFLAGS="-Wall -Wextra -pedantic -Werror"

# The size prefixes ("-4 4 -8") of probe kinds:NAME in sdt-notes output FILE.
prefixes() {
	sed -n "s/^kinds:$2 .* args=//p" "$1" | sed "s/, /,/g" | tr ' ' '\n' | sed 's/@.*//' |
		tr '\n' ' ' | sed 's/ $//'
}

# check_kinds NOTES WHAT CHAR_SIGN LONG PTR: the expected prefixes for one
# target: CHAR_SIGN is "-" where char is signed, LONG and PTR the sizes.
check_kinds() {
	n=$1 what=$2 cs=$3 l=$4 p=$5
	expect_eq "$what: kinds:ints" "-1 1 -2 2" "$(prefixes "$n" ints)"
	expect_eq "$what: kinds:words" "-4 4 -$l $l" "$(prefixes "$n" words)"
	expect_eq "$what: kinds:misc" "${cs}1 1 4 -4 $p" "$(prefixes "$n" misc)"
	expect_eq "$what: kinds:pointers" "$p $p $p $p" "$(prefixes "$n" pointers)"
	expect_eq "$what: kinds:strings" "$p $p $p" "$(prefixes "$n" strings)"
	expect_eq "$what: kinds:floats" "4 8" "$(prefixes "$n" floats)"
	expect_eq "$what: kinds:functions" "$p $p" "$(prefixes "$n" functions)"
	expect_eq "$what: kinds:fields" "-4 ${cs}1 2 $p" "$(prefixes "$n" fields)"
	expect_eq "$what: kinds:twelve count" 12 \
		"$(prefixes "$n" twelve | wc -w | tr -d ' ')"
	expect_eq "$what: kinds:none" "" "$(prefixes "$n" none)"
}

# compile_check WHAT FILE COMPILE-COMMAND...: build, validate, list notes.
# The C library's own probes, which a static link brings in (glibc 2.43
# has them, with symbol operands), are SystemTap's header's, not ours:
# they are listed, not held to the strict forms.
compile_check() {
	what=$1 out=$2
	shift 2
	if ! "$@" >"$T/cc.log" 2>&1; then
		cat "$T/cc.log" >&2
		fail "$what: does not compile without warnings: $*"
	fi
	if ! "$SDT_NOTES" --foreign libc "$out" >"$T/notes" 2>"$T/notes.err"; then
		cat "$T/notes.err" >&2
		fail "$what: the validator refuses a spec"
	fi
	[ -s "$T/notes" ] || fail "$what: no probes in $out"
}
