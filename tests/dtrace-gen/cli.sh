#!/bin/sh
# The command line: SystemTap's options in both forms, default output
# names, misuse, and -C through $CPP (split like a shell, run as C, -I/-D/
# -U passed, #if honoured, its failure shown, its line markers used).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"
mkdir "$T/w" && cd "$T/w" || fail "cd"
printf 'provider a { probe x(int); };\n' >probes.d

"$DG" -h -s probes.d && [ -f probes.h ] || fail "default -h output probes.h"
"$DG" -G -sprobes.d && [ -f probes.o ] || fail "default -G output probes.o, -sFILE"
mkdir sub && "$DG" -h -s probes.d -osub/x.h && [ -f sub/x.h ] || fail "-oFILE"
"$DG" -h -k -x nolibs -xlazyload -64 -fPIC -fpic -DPIC --types -s probes.d -o y.h 2>err ||
	fail "compatibility flags rejected: $(cat err)"
"$DG" --help | grep -q -- '-s FILE' || fail "--help"
# --version says configure's version.
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h")
[ -n "$version" ] || fail "no PACKAGE_VERSION in config.h"
expect_eq "--version" "dtrace-gen (sdtkit) $version" "$("$DG" --version)"
# What --help and --version print must arrive: a closed or full stdout
# is an error, and so is -o /dev/stdout with stdout closed.
"$DG" --help >&- 2>err && fail "--help with stdout closed succeeded"
grep -q "cannot write to standard output" err || fail "--help >&-: $(cat err)"
if [ -w /dev/full ]; then
	"$DG" --version >/dev/full 2>err && fail "--version to a full device succeeded"
	grep -q "No space left" err || fail "--version >/dev/full: $(cat err)"
fi
"$DG" -h -s probes.d -o /dev/stdout >&- 2>err && fail "-o /dev/stdout with stdout closed succeeded"
grep -q "^/dev/stdout: error: .*closed" err || fail "-o /dev/stdout >&-: $(cat err)"
"$DG" -h -s probes.d -o /dev/stdout >out.h && "$DG" -h -s probes.d -o ref.h &&
	cmp -s ref.h out.h || fail "-o /dev/stdout"
"$DG" -h -s /dev/stdin -o in.h <&- 2>err && fail "-s /dev/stdin with stdin closed succeeded"
grep -q "standard input is closed" err || fail "-s /dev/stdin <&-: $(cat err)"
"$DG" -h -s probes.d -o /dev/fd/9 9>&- 2>err && fail "-o /dev/fd/9, 9 not open, succeeded"
grep -q "^/dev/fd/9: error: cannot open for writing: No such file" err || fail "-o /dev/fd/9: $(cat err)"
"$DG" -h -s probes.d -o "" 2>err && fail "an empty output name accepted"
grep -q "error: the output's name is empty" err || fail "-o '': $(cat err)"
# An option missing its argument says so, last on the line or not.
for opt in -x -o -s -I -D -U; do
	"$DG" -h -s probes.d $opt >out 2>err && fail "$opt without its argument accepted"
	grep -q "error: option \`$opt' requires an argument" err ||
		fail "$opt last: $(cat err)"
done
for bad in "-h" "-s probes.d" "-q -h -s probes.d" "-h -s" \
	"-h -G -s probes.d -o one.h" "-h -G -s probes.d -o a.h -o b.o -o c.o"; do
	"$DG" $bad >out 2>err && fail "accepted: $bad"
	[ -s out ] && fail "misuse printed to stdout: $bad"
	grep -q '^usage:' err || fail "no usage for: $bad: $(cat err)"
done

# -h -G: both files from one reading (a build system's one step), the
# same bytes as two runs; -o twice names them in that order.
"$DG" -h -s probes.d -o one.h && "$DG" -G -s probes.d -o one.o ||
	fail "-h and -G one at a time"
mkdir both && (cd both && "$DG" -G -h -s ../probes.d) ||
	fail "-G -h without -o"
cmp -s one.h both/probes.h && cmp -s one.o both/probes.o ||
	fail "-G -h wrote other bytes than -h and -G alone"
"$DG" -h -G -s probes.d -o two.h -o two.o && cmp -s one.h two.h &&
	cmp -s one.o two.o || fail "-h -G -o two.h -o two.o"
# One name for both, or an error in either half: neither file changes.
echo keep >keep.h && echo keep >keep.o && ln -s keep.h alias.h
for args in "-o keep.h -o keep.h" "-o keep.h -o alias.h" "-o keep.h -o keep.o both"; do
	# shellcheck disable=SC2086
	"$DG" -h -G -s probes.d $args 2>err && fail "accepted: -h -G $args"
	[ "$(cat keep.h keep.o)" = "keep
keep" ] || fail "-h -G $args changed a file: $(cat err)"
done
grep -q "error: is a directory, not an object file" err || fail "-h -G with a directory: $(cat err)"

# -C: #if evaluated, -D/-U/-I both forms, a .d suffix still read as C.
mkdir inc && printf '#define EXTRA_PROBE probe extra(long);\n' >inc/extra.h
cat >c.d <<'D'
#include "extra.h"
provider c {
#if defined(WITH_A) && !defined(NO_B)
	probe a(int);
#endif
#ifdef NO_B
	probe b(int);
#endif
	EXTRA_PROBE
};
D
"$DG" -C -I inc -DWITH_A -h -s c.d -o c.h || fail "-C"
expect_eq "-C macros" "C_A C_EXTRA" "$(sed -n 's/^#define \(C_[A-Z]*\)(.*/\1/p' c.h | xargs)"
"$DG" -C -Iinc -D WITH_A -DNO_B -U NO_B -h -s c.d -o c2.h || fail "-C separate forms"
expect_eq "-C -U" "C_A C_EXTRA" "$(sed -n 's/^#define \(C_[A-Z]*\)(.*/\1/p' c2.h | xargs)"
"$DG" -C -Iinc -DNO_B -h -s c.d -o c3.h || fail "-C -DNO_B"
expect_eq "-C -DNO_B" "C_B C_EXTRA" "$(sed -n 's/^#define \(C_[A-Z]*\)(.*/\1/p' c3.h | xargs)"
# $CPP split like a shell.
CPP="gcc -E '-DWITH_A'" "$DG" -C -Iinc -h -s c.d -o c4.h || fail "CPP with words and quotes"
grep -q '^#define C_A(' c4.h || fail "CPP flags not used"
# cpp failure: its stderr shown, nothing written.
echo earlier >c5.h
"$DG" -C -h -s c.d -o c5.h 2>err && fail "missing include accepted"
grep -q 'extra.h' err || fail "cpp's message not shown: $(cat err)"
grep -q "error: the preprocessor \`cpp' failed" err || fail "no failure message: $(cat err)"
expect_eq "cpp failure keeps output" earlier "$(cat c5.h)"
CPP=/nonexistent/cpp "$DG" -C -h -s probes.d -o c6.h 2>err && fail "missing CPP accepted"
grep -q "cannot run the preprocessor" err || fail "missing CPP: $(cat err)"
# Errors point into the original file through cpp's line markers.
printf '/* one */\n/* two */\nprovider e {\n\tprobe x(int = 1);\n};\n' >e.d
"$DG" -C -h -s e.d -o e.h 2>err && fail "bad input accepted with -C"
expect_eq "-C error location" "e.d:4:14: error: unexpected \`=' in parameter 1 of probe \`x'" "$(head -n 1 err)"
# No temporary files from -C in the current directory.
left=$(ls -A | grep '^\.' || true)
[ -z "$left" ] || fail "files left behind: $left"
# -G visibility follows -D (and $CFLAGS, as SystemTap's compile did).
"$DG" -G -s probes.d -o h.o && obj_summary h.o | grep -q HIDDEN || fail "hidden by default"
"$DG" -G -D STAP_SDT_V2 -s probes.d -o v.o && obj_summary v.o | grep -q 'GLOBAL DEFAULT' || fail "-D STAP_SDT_V2"
CFLAGS="-O2 -DSTAP_SDT_V2" "$DG" -G -s probes.d -o cf.o && obj_summary cf.o | grep -q 'GLOBAL DEFAULT' || fail "CFLAGS=-DSTAP_SDT_V2"
"$DG" -G -DSTAP_SDT_V1 -s probes.d -o v1.o && obj_summary v1.o | grep -q 'symbol x_semaphore' || fail "V1 names"
exit 0
