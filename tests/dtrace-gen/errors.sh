#!/bin/sh
# Each kind of error, with its exact FILE:LINE:COL, the offending line and
# the caret; exit status 1; no output written, an earlier one untouched.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"
cd "$T" || fail "cd"

# check INPUT(printf format) EXPECTED-FIRST-LINE [EXPECTED-CARET-LINE]
n=0
check() {
	n=$((n + 1))
	printf "$1" >in$n.d
	echo "earlier" >out.h
	"$DG" -h -s in$n.d -o out.h 2>err
	rc=$?
	[ $rc = 1 ] || fail "case $n: exit status $rc, expected 1 ($2)"
	expect_eq "case $n: message" "$2" "$(head -n 1 err)"
	[ -z "${3:-}" ] || expect_eq "case $n: caret" "$3" "$(sed -n 3p err)"
	expect_eq "case $n: earlier output" earlier "$(cat out.h)"
	ls -a | grep -q '^\.out\.h\.' && fail "case $n: temporary file left"
	return 0
}

check 'provider a {\n\tprobe x(int\n};\n' \
	"in1.d:2:13: error: missing \`)' to close the parameter list of probe \`x'" \
	"	$(printf '%11s')^"
check 'provider a {\n\tprobe x(int) probe y();\n};\n' \
	"in2.d:2:14: error: expected \`;' after probe \`x'" "	$(printf '%12s')^"
check 'provider a {\n\tprobe x(int);\n' \
	"in3.d:2:15: error: missing \`}' to close provider \`a'"
check 'provider a { probe x(); };\n/* open\n' \
	"in4.d:2:1: error: unterminated comment: \`/*' has no \`*/'" '^'
check 'provider a { probe 9x(); };\n' \
	"in5.d:1:20: error: bad probe name \`9x': names are C identifiers (letters, digits and \`_', not starting with a digit)"
check 'provider my-prov { probe x(); };\n' \
	"in6.d:1:10: error: bad provider name \`my-prov': names are C identifiers (letters, digits and \`_', not starting with a digit); write \`_' where the provider name has \`-'"
check 'provider a {\n probe x(int,int,int,int,int,int,int,int,int,int,int,int,long);\n};\n' \
	"in7.d:2:58: error: probe \`x' has more than 12 arguments: <sys/sdt.h> stops at DTRACE_PROBE12" \
	"$(printf '%57s')^"
check 'provider a {\n probe x();\n probe x(int);\n};\n' \
	"in8.d:3:8: error: probe \`x' is declared twice in provider \`a'"
check 'provider a { probe x__y(); probe x_y(); };\n' \
	"in9.d:1:34: error: probe \`x_y' of provider \`a' has the same macro name \`A_X_Y' as probe \`x__y' of provider \`a'; rename one"
check 'provider a { probe x(int); };\n\001\n' \
	"in10.d:2:1: error: unknown byte 0x01 in input: .d files are ASCII outside comments and strings"
check 'provider a { probe x(int a = 1); };\n' \
	"in11.d:1:28: error: unexpected \`=' in parameter 1 of probe \`x'"
check 'provider a { probe x(int, ); };\n' \
	"in12.d:1:27: error: parameter 2 of probe \`x' is empty"
check 'provider a { probe x(...); };\n' \
	"in13.d:1:22: error: probe \`x' is variadic: probes take a fixed number of arguments"
check 'provider a { bogus x(); };\n' \
	"in14.d:1:14: error: expected \`probe' or \`}' in provider \`a', found \`bogus'"
check 'provider a { probe x(); };\n}\n' "in15.d:2:1: error: unmatched \`}'"
check 'typedef struct {\n int a;\n' "in16.d:1:16: error: \`{' is never closed"
check 'provider a { probe x(); };\nsyscall::open:entry /execname == "oops/ { }\n' \
	"in17.d:2:34: error: missing terminating \" character"
# Line markers steer the location (cpp output, #line).
check '# 40 "orig.d"\nprovider a {\n probe x(int a = 1);\n};\n' \
	"orig.d:41:16: error: unexpected \`=' in parameter 1 of probe \`x'"
check '#line 7 "gen.d"\nprovider a {\n probe x(;\n};\n' \
	"gen.d:8:10: error: missing \`)' to close the parameter list of probe \`x'"

# A byte order mark is skipped, and columns count from after it.
check '\357\273\277provider a { probe x(int = 1); };\n' \
	"in$((n + 1)).d:1:26: error: unexpected \`=' in parameter 1 of probe \`x'"
# A `-' in a probe name: DTrace's `__' stands for it.
check 'provider a { probe my-probe(); };\n' \
	"in$((n + 1)).d:1:20: error: bad probe name \`my-probe': names are C identifiers (letters, digits and \`_', not starting with a digit); write \`__' where the probe name has \`-'"

# Unreadable input, unwritable output.
echo earlier >out.h
"$DG" -h -s missing.d -o out.h 2>err && fail "missing input accepted"
expect_eq "missing input" "missing.d: error: cannot read it: No such file or directory" "$(cat err)"
printf 'provider a { probe x(); };\n' >ok.d
"$DG" -h -s ok.d -o nodir/out.h 2>err && fail "output in a missing directory accepted"
expect_eq "unwritable output" "nodir/out.h: error: cannot create a temporary file beside it: No such file or directory; check that its directory exists and is writable" "$(cat err)"
if [ "$(id -u)" != 0 ]; then
	mkdir ro && chmod a-w ro
	"$DG" -h -s ok.d -o ro/out.h 2>/dev/null && fail "read-only directory accepted"
fi
# -G on the same errors writes nothing either.
printf 'provider a { probe x(; };\n' >bad.d
echo earlier >out.o
"$DG" -G -s bad.d -o out.o 2>/dev/null && fail "-G accepted bad input"
expect_eq "-G earlier output" earlier "$(cat out.o)"
# Warnings go to stderr, and do not fail the run.
printf '#if 0\nprovider a { probe x(); };\n#endif\n' >warn.d
"$DG" -h -s warn.d -o warn.h >out 2>err || fail "a warning failed the run"
[ -s out ] && fail "something was printed on stdout: $(cat out)"
grep -q "^warn.d:1:1: warning: \`#if' is not evaluated without -C" err ||
	fail "no #if warning: $(cat err)"
# Bytes a terminal acts on never reach it raw: in a message (a quoted
# token, an option, a path) as \xNN, a backslash as \\, valid UTF-8 as it
# is except C1 controls and bidirectional overrides; in the quoted line as
# `?'.
check 'provider a { probe "\033[31mred"(); };\n' \
	"in$((n + 1)).d:1:20: error: expected probe name, found \`\"\\x1b[31mred\"'" \
	"$(printf '%19s')^"
grep -q '"?\[31mred"' err || fail "the quoted line: $(sed -n 2p err)"
check 'provider a { probe x(int, "\302\233 \342\200\256 caf\303\251 \\\\"); };\n' \
	"in$((n + 1)).d:1:27: error: unexpected \`\"\\xc2\\x9b \\xe2\\x80\\xae caf$(printf '\303\251') \\\\\\\\\"' in parameter 2 of probe \`x'"
"$DG" -h "$(printf -- '-\033]0;x\007')" 2>err && fail "a bad option was accepted"
expect_eq "a bad option" "error: unknown option \`-\\x1b]0;x\\x07'" \
	"$(head -n 1 err | sed 's/^[^ ]*: //')"
"$DG" -h -s "$(printf 'in\033[2J.d')" 2>err && fail "a missing input was accepted"
expect_eq "a path" 'in\x1b[2J.d: error: cannot read it: No such file or directory' "$(cat err)"
tr -d '\t\n -~' <err | grep -q . && fail "a control byte was printed raw"
# SystemTap's dtrace lets the last probe of a block go without its `;':
# a warning, not an error (but between two probes it stays an error, above).
printf 'provider a {\n\tprobe x(int)\n}\n' >semi.d
"$DG" -h -s semi.d -o semi.h 2>err || fail "a missing last \`;' failed the run: $(cat err)"
expect_eq "missing last ;" \
	"semi.d:2:14: warning: missing \`;' after probe \`x' (accepted before \`}'); add it" \
	"$(head -n 1 err)"
grep -q '^#define A_X(arg1) ' semi.h || fail "the probe without \`;' is missing"
exit 0
