# Every architecture libstapsdt supports, from this x86_64 host: the
# library's sources cross-compiled with the target's bare toolchain (no
# libelf, as ./configure --host builds it), and cross-run.c, run under
# qemu-user, loads probes of 0 to 12 arguments of every integer size,
# fires them (one into its stub, traced through its semaphore), extends
# the provider, and copies the objects it mapped; the host's sdt-list
# --check then reads those objects: every probe listed, and no verdict
# against libbpf where libbpf parses the architecture. Then gdb-multiarch,
# through qemu's gdb stub, breaks at each probe (gdb counts the semaphore,
# so the fire reaches the stub) and reads every argument: each must be
# the value the program passed, at the probe's size and sign. Where the
# first argument travels in a register, the whole register must hold it
# extended from its type, as probeFire() passes it: a gdb of any version
# sees that, and gdb 16 reads a narrow argument right only so
# (docs/tracers.md; gdb 13 and 18 read it right either way).
# A target whose compiler or qemu is missing, or which cannot run here,
# is skipped with the reason; the test skips when none ran.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/sources.sh"
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"
[ "${SDTKIT_NO_QEMU:-0}" = 1 ] && skip "SDTKIT_NO_QEMU=1 is set"

GDB=
if command -v gdb-multiarch >/dev/null 2>&1; then
	GDB=gdb-multiarch
	GDB_MAJOR=$($GDB --version | sed -n '1s/.* \([0-9][0-9]*\)\.[0-9.]*$/\1/p')
	GDB_MAJOR=${GDB_MAJOR:-0}
else
	note "no gdb-multiarch: arguments are not read back (scripts/install-deps installs it)"
fi

# TRIPLE ARCH SYSROOT LIBBPF REG: libbpf parses the specs of all but
# ppc64le; REG holds the first argument at the probe (- : on the stack).
ran=0
for row in "i686-linux-gnu i386 /usr/i686-linux-gnu libbpf -" \
	"aarch64-linux-gnu aarch64 /usr/aarch64-linux-gnu libbpf x0" \
	"arm-linux-gnueabihf arm /usr/arm-linux-gnueabihf libbpf -" \
	"riscv64-linux-gnu riscv64 /usr/riscv64-linux-gnu libbpf a0" \
	"powerpc64le-linux-gnu ppc64le /usr/powerpc64le-linux-gnu - r3" \
	"s390x-linux-gnu s390x /usr/s390x-linux-gnu libbpf r2"; do
	set -- $row
	triple=$1 arch=$2 qemu=qemu-$2 root=$3 libbpf=$4 reg=$5
	cc=$triple-gcc
	command -v $cc >/dev/null 2>&1 || { note "$arch: skipped: no $cc"; continue; }
	command -v $qemu >/dev/null 2>&1 || { note "$arch: skipped: no $qemu"; continue; }
	d=$T/$arch
	mkdir -p "$d/out" "$d/tmp"
	# shellcheck disable=SC2086
	$cc $LIB_CFLAGS -I"$top_srcdir/tests/tools" -D_FILE_OFFSET_BITS=64 -O2 -Wall -Wextra -Werror -o "$d/run" \
		"$top_srcdir/tests/libstapsdt/cross-run.c" $LIB_SRCS $LIB_LIBS \
		>"$d/build.log" 2>&1 || fail "$arch: build: $(tail -n 20 "$d/build.log")"
	printf 'int main(void) { return 0; }\n' >"$d/true.c"
	$cc -o "$d/true" "$d/true.c" 2>/dev/null &&
		err=$($qemu -L "$root" "$d/true" 2>&1) ||
		{ note "$arch: skipped: $qemu cannot run a program here: $(echo "$err" | tail -n 1)"; continue; }
	out=$(LSDT_OUT=$d/out TMPDIR=$d/tmp timeout 120 $qemu -L "$root" "$d/run" 2>&1) ||
		fail "$arch: under $qemu: $out"
	echo "$out" | grep -q 'loaded, fired and extended: 14 probes' || fail "$arch: $out"
	set -- "$d"/out/*
	[ $# -eq 2 ] || fail "$arch: expected the load's object and one chunk, got: $*"
	check=$("$SDT_LIST" --check "$@" 2>&1)
	n=$(echo "$check" | grep -c '^sdtx:')
	expect_eq "$arch: probes sdt-list --check reads" 14 "$n"
	if [ "$libbpf" = libbpf ] && echo "$check" | grep -q 'NO libbpf'; then
		fail "$arch: libbpf rejects a spec: $check"
	fi
	note "$arch: loaded, fired, extended; sdt-list --check: $(echo "$check" | grep -c '^    NO') tracer verdicts against"
	ran=$((ran + 1))
	[ -n "$GDB" ] || continue
	LSDT_EXPECT=1 TMPDIR=$d/tmp timeout 120 $qemu -L "$root" "$d/run" |
		grep '^probe ' >"$d/expected" || fail "$arch: no expected values"
	# gdb finds the target's libraries, and the objects the program
	# placed under $d/tmp, through a sysroot of links.
	mkdir -p "$d/root$d"
	for l in lib lib64; do
		[ ! -d "$root/$l" ] || ln -s "$root/$l" "$d/root/$l"
	done
	ln -s "$d/tmp" "$d/root$d/tmp"
	# The stub listens on a socket of our own, not a port others share.
	TMPDIR=$d/tmp timeout 300 $qemu -L "$root" -g "$d/gdb.sock" "$d/run" >"$d/qemu.out" 2>&1 &
	qpid=$!
	{
		printf 'set confirm off\nset pagination off\n'
		printf 'set sysroot %s\ntarget remote %s\n' "$d/root" "$d/gdb.sock"
		printf 'define probeargs\n set $i = 0\n while $i < $_probe_argc\n'
		printf '  eval "printf \\"probe %%%%d arg %%%%d %%%%llx\\\\n\\", %%d, %%d, (unsigned long long) $_probe_arg%%d", $arg0, $i, $i\n'
		printf '  set $i = $i + 1\n end\n'
		[ "$reg" = - ] ||
			printf ' if $arg0 > 0\n  printf "reg %%d %%llx\\n", $arg0, (unsigned long long) $%s\n end\n' "$reg"
		printf 'end\n'
		printf 'break gdb_ready\ncontinue\ninfo sharedlibrary\n'
		for n in 0 1 2 3 4 5 6 7 8 9 10 11 12; do
			printf 'break -probe-stap sdtx:a%d\n' $n
		done
		for n in 0 1 2 3 4 5 6 7 8 9 10 11 12; do
			printf 'continue\nprobeargs %d\n' $n
		done
		printf 'kill\n'
	} >"$d/gdb.cmd"
	# qemu makes the socket once it has started (a 60 s bound).
	i=0
	while [ ! -S "$d/gdb.sock" ] && [ $i -lt 600 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	timeout 300 $GDB -q -batch -x "$d/gdb.cmd" "$d/run" >"$d/gdb.out" 2>&1
	kill $qpid 2>/dev/null
	wait $qpid 2>/dev/null
	if grep -q '^No shared libraries loaded' "$d/gdb.out"; then
		note "$arch: arguments not read back: gdb-multiarch sees no shared library of the $qemu process (seen with gdb 13 and qemu-i386)"
		continue
	fi
	stops=$(grep -c '^Breakpoint [0-9]*, .* in a[0-9]* ()' "$d/gdb.out")
	expect_eq "$arch: gdb stops at probes" 13 "$stops"
	if [ "$reg" != - ]; then
		grep '^reg ' "$d/gdb.out" | sort >"$d/reg-read"
		sed -n 's/^probe \([0-9]*\) arg 0 /reg \1 /p' "$d/expected" |
			sort >"$d/reg-want"
		cmp -s "$d/reg-want" "$d/reg-read" ||
			fail "$arch: \$$reg at the probes does not hold the first argument extended from its type: $(diff "$d/reg-want" "$d/reg-read" | head -n 20)"
	fi
	if [ "$arch" = riscv64 ] && [ "$GDB_MAJOR" -le 13 ]; then
		note "$arch: gdb stopped at all 13 probes; gdb $GDB_MAJOR has no riscv64 probe support (gdb 16 and 18 have), so \$$reg alone was checked"
		continue
	fi
	grep '^probe ' "$d/gdb.out" | sort >"$d/read"
	sort "$d/expected" >"$d/want"
	cmp -s "$d/want" "$d/read" ||
		fail "$arch: gdb $GDB_MAJOR read other arguments: $(diff "$d/want" "$d/read" | head -n 20; tail -n 5 "$d/gdb.out")"
	note "$arch: gdb $GDB_MAJOR read all $(wc -l <"$d/read") arguments of probes a1..a12 exactly"
done
[ $ran -gt 0 ] || skip "no target could be built and run here"
note "$ran architectures"
