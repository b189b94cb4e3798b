# Every architecture libstapsdt supports, from this x86_64 host: the
# library's sources cross-compiled with the target's bare toolchain (no
# libelf, as ./configure --host builds it), and cross-run.c, run under
# qemu-user, loads probes of 0 to 12 arguments of every integer size,
# fires them (one into its stub, traced through its semaphore), extends
# the provider, and copies the objects it mapped; the host's sdt-list
# --check then reads those objects: every probe listed, and no verdict
# against libbpf where libbpf parses the architecture.
# A target whose compiler or qemu is missing, or which cannot run here,
# is skipped with the reason; the test skips when none ran.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/sources.sh"
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"
[ "${SDTKIT_NO_QEMU:-0}" = 1 ] && skip "SDTKIT_NO_QEMU=1 is set"

# TRIPLE ARCH SYSROOT LIBBPF: libbpf parses the specs of all but ppc64le.
ran=0
for row in "i686-linux-gnu i386 /usr/i686-linux-gnu libbpf" \
	"aarch64-linux-gnu aarch64 /usr/aarch64-linux-gnu libbpf" \
	"arm-linux-gnueabihf arm /usr/arm-linux-gnueabihf libbpf" \
	"riscv64-linux-gnu riscv64 /usr/riscv64-linux-gnu libbpf" \
	"powerpc64le-linux-gnu ppc64le /usr/powerpc64le-linux-gnu -" \
	"s390x-linux-gnu s390x /usr/s390x-linux-gnu libbpf"; do
	set -- $row
	triple=$1 arch=$2 qemu=qemu-$2 root=$3 libbpf=$4
	cc=$triple-gcc
	command -v $cc >/dev/null 2>&1 || { note "$arch: skipped: no $cc"; continue; }
	command -v $qemu >/dev/null 2>&1 || { note "$arch: skipped: no $qemu"; continue; }
	d=$T/$arch
	mkdir -p "$d/out" "$d/tmp"
	# shellcheck disable=SC2086
	$cc $LIB_CFLAGS -D_FILE_OFFSET_BITS=64 -O2 -Wall -Wextra -Werror -o "$d/run" \
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
done
[ $ran -gt 0 ] || skip "no target could be built and run here"
note "$ran architectures"
