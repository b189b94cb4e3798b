#!/bin/sh
# A walk holds a bounded number of files open, whatever `ulimit -n' says:
# 2,000 objects with probes in one directory, more in a subdirectory
# between files, all listed under `ulimit -n 64' (and a smaller tree under
# `ulimit -n 24'), none lost to "Too many open files", exit 0; the same
# inventory as with the usual limit.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
need_cmd timeout

printf '#include <sys/sdt.h>\nint main(void) { DTRACE_PROBE(fds, p); return 0; }\n' >"$T/p.c"
$CC -Os -s -I"$SDT_INCLUDE" -o "$T/p" "$T/p.c" || fail "cannot build p.c"
R=$T/tree
mkdir -p "$R/m/sub" "$R/small"
i=0
while [ $i -lt 2000 ]; do
	cp "$T/p" "$R/o$i"
	i=$((i + 1))
done
i=0
while [ $i -lt 150 ]; do
	cp "$T/p" "$R/m/a$i"
	cp "$T/p" "$R/m/sub/b$i"
	cp "$T/p" "$R/m/z$i"
	i=$((i + 1))
done
i=0
while [ $i -lt 100 ]; do
	cp "$T/p" "$R/small/s$i"
	i=$((i + 1))
done
want=$((2000 + 3 * 150 + 100))

# walk LIMIT WHAT DIR N: DIR listed whole under ulimit -n LIMIT.
walk() {
	(
		ulimit -n "$1" || exit 99
		exec timeout 300 "$SDT_LIST" "$3"
	) >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc != 99 ] || skip "cannot set ulimit -n $1"
	expect_eq "$2: exit status ($(head -n 3 "$T/err"))" 0 "$rc"
	[ ! -s "$T/err" ] || fail "$2: said on standard error: $(head -n 3 "$T/err")"
	tail -n 1 "$T/out" | grep -q "^$4 files read ($4 ELF), $4 objects with probes" ||
		fail "$2: $(tail -n 1 "$T/out"), want $4 objects"
}
walk 1024 "ulimit -n 1024" "$R" $want
cp "$T/out" "$T/usual"
walk 64 "ulimit -n 64" "$R" $want
cmp -s "$T/out" "$T/usual" || fail "ulimit -n 64: another listing than with 1024"
walk 24 "ulimit -n 24" "$R/small" 100
note "$want objects under ulimit -n 64, 100 under ulimit -n 24: all listed"
