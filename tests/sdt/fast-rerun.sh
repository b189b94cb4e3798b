#!/bin/sh
# Tracers that trap at the PC read fast sites as they read lone nops, and
# every form the header accepts still builds: the header's tests rerun with
# every gcc, g++, clang and clang++ they call adding -DSDTKIT_FAST_ATTACH
# (wrappers first on PATH). Tracers: gdb (gdb-probes.sh), bpftrace 0.17
# (bpftrace-args.sh), tracefs uprobes with semaphores and _ENABLED()
# (semaphore-tracefs.sh), libbpf 1.1 (tests/libbpf/static.sh), perf
# (consumers.sh); builds: every language mode under -pedantic -Werror
# (lang-matrix.sh), real-world usage read back by gdb and bpftrace
# (sweep.sh), mixed with SystemTap's header (interop.sh) and inline
# functions across objects (comdat-link.sh). Each must pass; one that
# skips is reported, as the test itself says why.
. "$top_srcdir/tests/lib.sh"
case $(uname -m) in x86_64) ;; *) skip "the fast site is x86_64 only" ;; esac
need_cmd gcc od
mkdir "$T/bin" || fail "mkdir $T/bin"
for c in cc gcc g++ clang clang++; do
	real=$(command -v "$c") || continue
	printf '#!/bin/sh\nexec %s -DSDTKIT_FAST_ATTACH "$@"\n' "$real" >"$T/bin/$c"
	chmod +x "$T/bin/$c"
done
PATH=$T/bin:$PATH CC=$T/bin/gcc CXX=$T/bin/g++
export PATH CC CXX

# The wrappers do give fast sites.
printf '#include <sys/sdt.h>\nint main(void) { STAP_PROBE(w, p); return 0; }\n' >"$T/w.c"
gcc -I"$SDT_INCLUDE" -O2 "$T/w.c" -o "$T/w" || fail "cannot build through the wrapper"
off=$("$SDT_NOTES" --offsets "$T/w" | sed -n 's/.*pc_off=\(0x[0-9a-f]*\).*/\1/p')
expect_eq "site built through the wrapper" 900f1f440000 \
	"$(od -An -tx1 -j $((off)) -N 6 "$T/w" | tr -d ' \n')"

passed= skipped=
for t in tests/sdt/gdb-probes.sh tests/sdt/bpftrace-args.sh \
	tests/sdt/semaphore-tracefs.sh tests/libbpf/static.sh \
	tests/sdt/consumers.sh tests/sdt/lang-matrix.sh tests/sdt/sweep.sh \
	tests/sdt/interop.sh tests/sdt/comdat-link.sh; do
	sh "$top_srcdir/$t" >"$T/sub.log" 2>&1
	case $? in
	0) passed="$passed ${t##*/}" ;;
	77) skipped="$skipped ${t##*/}($(grep -m 1 '^SKIP' "$T/sub.log"))" ;;
	*) cat "$T/sub.log" >&2; fail "$t fails on fast sites" ;;
	esac
done
[ -n "$passed" ] || skip "none of the tests could run here:$skipped"
[ -z "$skipped" ] || note "skipped:$skipped"
echo "PASS: on fast sites:$passed"
