# probeIsEnabled() as an rseq critical section (libstapsdt/rseq.c), by
# tests/libstapsdt/rseq.c: the descriptor the kernel reads is valid,
# signals landing inside the section restart it (the kernel took it: a bad
# descriptor or signature kills the process instead), answers stay right,
# and readers live through 3000 unloads. With glibc.pthread.rseq=0 the
# library takes the marked check instead, and its readers live through the
# same unloads.
. "$top_srcdir/tests/lib.sh"
PROG=$top_builddir/tests/libstapsdt/rseq
[ -x "$PROG" ] || fail "$PROG is not built"

out=$("$PROG" 3000 2>&1)
rc=$?
[ $rc = 77 ] && skip "$out"
[ $rc = 0 ] || fail "rseq: $out"
[ "$(echo "$out" | head -n 1)" = section ] ||
	fail "probeIsEnabled() did not take the rseq section: $out"
note "section: $(echo "$out" | sed -n 2p)"

out=$(GLIBC_TUNABLES=glibc.pthread.rseq=0 "$PROG" 3000 2>&1) ||
	fail "rseq, glibc.pthread.rseq=0: $out"
[ "$(echo "$out" | head -n 1)" = marked ] ||
	fail "with glibc.pthread.rseq=0, probeIsEnabled() still took the section: $out"
note "marked: $(echo "$out" | sed -n 2p)"
