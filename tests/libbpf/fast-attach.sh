#!/bin/sh
# The call path (docs/fast-attach.md): libbpf f7081a6b, built from the
# reference tarball, attaches to a site that starts with `nop; nop5' at the
# 5-byte nop, and the kernel (uprobe syscall) turns that nop into a call.
# Checked in the traced process while the tracer is attached, after each
# probe fired once, and with every argument compared:
#  - tests/libbpf/probes.c with SDTKIT_FAST_ATTACH (gcc and clang, -O0 and
#    -O2): every site reads `90 e8' (the call);
#  - the same program without it: the 1-byte nop site, unchanged, reads
#    `cc' (an int3 at the PC) under the new libbpf too;
#  - the fast sites under the system's libbpf: 1.1 (Debian 12) and 1.5
#    (13) read `cc 0f' (int3 on the 0x90, the 5-byte nop untouched), 1.7
#    (unstable) `90 e8' as f7081a6b does; the same values;
#  - a libstapsdt provider (tests/libbpf/dyn-host.c): every stub `90 e8'.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libbpf/lib.sh"
LC_ALL=C
export LC_ALL
need_cmd gcc clang
need_libbpf_new
need_libbpf # the system's libbpf: TRACER, BPF_OBJ
# Its version, from the header the tracer was built with.
sys_libbpf=$(printf '#include <bpf/libbpf_version.h>\nLIBBPF_MAJOR_VERSION.LIBBPF_MINOR_VERSION\n' |
	${CC:-cc} -E -P - 2>/dev/null | tr -d ' ' | grep -x '[0-9]*\.[0-9]*') ||
	fail "cannot read the system libbpf's version from <bpf/libbpf_version.h>"
case $sys_libbpf in
0.* | 1.[0-6]) sys_bytes=cc0f ;;
*) sys_bytes=90e8 ;;
esac

PROG_PID= TRACER_PID=
trap '[ -n "$PROG_PID" ] && kill -9 "$PROG_PID" 2>/dev/null
	[ -n "$TRACER_PID" ] && kill "$TRACER_PID" 2>/dev/null; rm -rf "$T"' EXIT

# record_sites NAME PID OBJ: "PROVIDER:NAME BYTES" of every probe site in
# $T/notes-NAME, as mapped in PID now, into $T/sites-NAME.
record_sites() {
	while read -r pn rest; do
		off=$(echo "$rest" | sed -n 's/.*pc_off=\(0x[0-9a-f]*\).*/\1/p')
		echo "$pn $(site_bytes "$2" "$3" "$off" 2)"
	done <"$T/notes-$1" >"$T/sites-$1"
}
ON_FIRED=record_sites

# expect_sites NAME BYTES: every site of NAME began with BYTES.
expect_sites() {
	bad=$(awk -v b="$2" 'substr($2, 1, length(b)) != b' "$T/sites-$1")
	[ -z "$bad" ] || fail "$1: sites not \`$2' while attached:
$bad"
}

# check_static NAME WITH BYTES CC FLAGS...: build probes.c, trace it with
# WITH (new: f7081a6b, old: the system's), compare values and site bytes.
check_static() {
	name=$1 with=$2 bytes=$3
	shift 3
	build_probes "$name" "$@"
	TRACE_WITH= TRACE_OBJ=
	[ "$with" = new ] && TRACE_WITH=$TRACER_NEW TRACE_OBJ=$BPF_OBJ_NEW
	"$exe" "$T/want-$name" >"$T/$name.prog" 2>&1 &
	PROG_PID=$!
	wait_line "$T/$name.prog" '^ready' "$PROG_PID" "$name: probes"
	# shellcheck disable=SC2086
	trace_and_compare "$name" "$PROG_PID" "$T/$name.prog" "$exe" $probes
	PROG_PID=
	expect_sites "$name" "$bytes"
	note "$name: $(wc -l <"$T/want") hits exact, sites $bytes"
}

check_static fast-gcc-O2 new 90e8 gcc -O2 -DSDTKIT_FAST_ATTACH
check_static fast-clang-O2 new 90e8 clang -O2 -DSDTKIT_FAST_ATTACH
check_static fast-gcc-O0 new 90e8 gcc -O0 -DSDTKIT_FAST_ATTACH
check_static fast-clang-O0 new 90e8 clang -O0 -DSDTKIT_FAST_ATTACH
check_static plain-gcc-O2 new cc gcc -O2
check_static fast-gcc-O2-libbpf$sys_libbpf old $sys_bytes gcc -O2 -DSDTKIT_FAST_ATTACH
# The plain site: a lone nop, not the start of `nop; nop5'.
combos=$(while read -r pn rest; do
	off=$(echo "$rest" | sed -n 's/.*pc_off=\(0x[0-9a-f]*\).*/\1/p')
	od -An -tx1 -j $((off)) -N 6 "$T/probes-plain-gcc-O2" | tr -d ' \n'
	echo
done <"$T/notes-plain-gcc-O2" | grep -c '^900f1f440000$')
expect_eq "plain sites that look like nop; nop5" 0 "$combos"

# libstapsdt: its stubs are `nop; nop5; ret' already.
LIB=$top_builddir/libstapsdt/.libs/libstapsdt.so
[ -r "$LIB" ] || fail "$LIB is not built"
${CC:-cc} -Wall -Wextra -O2 -I"$top_srcdir/libstapsdt" -o "$T/dyn-host" \
	"$top_srcdir/tests/libbpf/dyn-host.c" "$LIB" \
	-Wl,-rpath,"$top_builddir/libstapsdt/.libs" >"$T/cc.log" 2>&1 ||
	fail "cannot build dyn-host.c: $(cat "$T/cc.log")"
TRACE_WITH=$TRACER_NEW TRACE_OBJ=$BPF_OBJ_NEW
"$T/dyn-host" "$T/want-dyn" >"$T/dyn.host" 2>&1 &
PROG_PID=$!
wait_line "$T/dyn.host" '^ready' "$PROG_PID" "dyn-host"
obj=$(awk '/^ready/ { print $3 }' "$T/dyn.host")
"$SDT_NOTES" --offsets "$obj" >"$T/notes-dyn" || fail "sdt-notes rejects $obj"
# shellcheck disable=SC2086
trace_and_compare dyn "$PROG_PID" "$T/dyn.host" "$obj" \
	$(awk '{ print $1 }' "$T/notes-dyn")
PROG_PID=
expect_sites dyn 90e8
note "libstapsdt: $(wc -l <"$T/want") hits exact, stubs 90e8"
echo "PASS: libbpf $LIBBPF_NEW calls into fast static sites and libstapsdt stubs, values exact; plain sites trap as before, libbpf $sys_libbpf reads $sys_bytes at fast sites"
