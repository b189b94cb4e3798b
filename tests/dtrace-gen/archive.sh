#!/bin/sh
# dtrace -G with static libraries among its objects (as builds that link
# convenience archives pass them): the object's machine follows the first
# object inside the archive, past the archive's symbol table.
. "$top_srcdir/tests/lib.sh"
DG=$top_builddir/dtrace-gen/dtrace-gen
need_cmd aarch64-linux-gnu-gcc aarch64-linux-gnu-ar readelf

printf 'provider arc { probe one(int); probe two(); };\n' >"$T/p.d"
printf 'int f(void) { return 1; }\n' >"$T/f.c"
aarch64-linux-gnu-gcc -c "$T/f.c" -o "$T/f.o" || fail "cannot cross-compile"
# rcs writes the symbol-table member "/" first; the object comes after it.
aarch64-linux-gnu-ar rcs "$T/libf.a" "$T/f.o" || fail "cannot archive"
"$DG" -G -s "$T/p.d" -o "$T/p.o" "$T/libf.a" || fail "dtrace-gen -G with an archive"
machine=$(readelf -h "$T/p.o" | sed -n 's/^ *Machine: *//p')
expect_eq "machine of -G output from an aarch64 archive" "AArch64" "$machine"
readelf -sW "$T/p.o" | grep -q ' arc_two_semaphore$' || fail "semaphores missing"

# An empty archive says nothing about the machine: the host's is used.
ar rc "$T/empty.a" || fail "cannot make an empty archive"
"$DG" -G -s "$T/p.d" -o "$T/h.o" "$T/empty.a" 2>"$T/err" || fail "empty archive"
grep -q warning "$T/err" || fail "no warning for an archive with no object"
