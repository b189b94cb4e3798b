#!/bin/sh
# Traced fires under a libbpf tracer (tests/libbpf/usdt-trace, a counting
# BPF program that also reads the first argument): what one probe hit
# costs (a) at a <sys/sdt.h> probe, (b) at a libstapsdt probe, both
# attached with bpf_program__attach_usdt() (libbpf 1.1 attaches at the
# note's PC, the 1-byte nop: an int3 trap per hit), and (c) a libstapsdt
# probe through a raw uprobe on the stub's 5-byte nop (PC + 1), which
# kernels with the uprobe syscall turn into a call after the first hit.
# The sdt.h probe is compared with the same program built with SystemTap's
# <sys/sdt.h>, the libstapsdt probes with it built over the public
# libstapsdt (whose stub has no 5-byte nop: its fires are always int3
# traps), all in the same run; a reference that cannot be built here is
# "absent". Then the call path (docs/fast-attach.md) under libbpf
# f7081a6b, built from its source tarball as the tests build it: a fast
# sdt.h site (SDTKIT_FAST_ATTACH) and a libstapsdt stub, each against the
# int3 path in the same run. Times are the loop thread's own CPU time.
. "$top_srcdir/bench/lib.sh"
. "$top_srcdir/tests/libbpf/lib.sh"
N=200000

if [ "$(id -u)" != 0 ]; then
	echo "libbpf-traced: attaching BPF programs needs root"
	exit 0
fi
msg=$(build_libbpf_tracer "$B")
case $? in
0) ;;
77) echo "libbpf-traced: $msg"; exit 0 ;;
*) echo "libbpf-traced: $msg"; exit 1 ;;
esac
LIB=$top_builddir/libstapsdt/.libs/libstapsdt.so
# build_loop NAME INCLUDE-FLAGS [LIBSTAPSDT]: libbpf-loop with that
# <sys/sdt.h> (and libstapsdt.h, when the flags name one), linked with
# LIBSTAPSDT (default: ours).
build_loop() {
	lib=${3:-$LIB}
	# shellcheck disable=SC2086
	$CC -O2 $2 -I"$top_srcdir/libstapsdt" -o "$B/$1" \
		"$top_srcdir/bench/libbpf-loop.c" "$lib" \
		-Wl,-rpath,"$(dirname "$lib")"
}
build_loop libbpf-loop "-I$top_srcdir/include" || exit 1
build_loop libbpf-loop-fast "-I$top_srcdir/include -DSDTKIT_FAST_ATTACH" || exit 1
if public=$(public_libstapsdt "$B/public"); then
	build_loop libbpf-loop-public "-I$public/src -I$top_srcdir/include" \
		"$public/out/libstapsdt.so.0" ||
		echo "(public libstapsdt reference absent: libbpf-loop does not build over it)"
else
	echo "(public libstapsdt reference absent: $public)"
fi
if stap_header "$B/stap-inc"; then
	build_loop libbpf-loop-stap "$STAP_INC" || exit 1
else
	echo "(SystemTap's sys/sdt.h is not installed: no reference column)"
fi
export TMPDIR=$B

# sdt_pc_off FILE: the file offset of lbbench:hit's probe site.
sdt_pc_off() {
	"$top_builddir/tests/tools/sdt-notes" --offsets "$1" 2>/dev/null |
		sed -n 's/^lbbench:hit .*pc_off=\(0x[0-9a-f]*\).*/\1/p'
}

# traced PROGRAM MODE HOW [new]: ns per fire of `PROGRAM MODE' (static,
# dynamic) while usdt-trace counts its hits, attached as HOW says (usdt:
# libbpf's USDT attach; nop5: a uprobe on the stub's 5-byte nop; nop1: one
# on its 1-byte nop, the note's PC, which stays an int3), or "-" when the
# tracer did not see every fire. With `new', the tracer is built on libbpf
# f7081a6b, else on the system's.
traced() {
	prog=$1 mode=$2 how=$3
	tracer=$B/usdt-trace bpf_obj=$B/usdt-args.bpf.o
	if [ "${4:-}" = new ]; then
		[ -n "$NEW_OK" ] || { echo -; return; }
		tracer=$LIBBPF_NEW_TRACER bpf_obj=$LIBBPF_NEW_OBJ
	fi
	[ -x "$B/$prog" ] || { echo -; return; }
	rm -f "$B/loop.out" "$B/trace.out"
	"$B/$prog" "$mode" $N >"$B/loop.out" 2>&1 &
	loop=$!
	i=0
	until grep -q '^ready' "$B/loop.out" 2>/dev/null; do
		i=$((i + 1)); [ $i -lt 200 ] || { kill $loop; echo -; return; }
		sleep 0.05
	done
	obj=$(awk '/^ready/ { print $3 }' "$B/loop.out")
	attach="-m count"
	probe=lbbench:hit
	if [ "$how" != usdt ]; then
		# The stub is `nop; nopl 0(%rax,%rax,1); ret', the note's PC
		# on the 1-byte nop.
		pc=$(sdt_pc_off "$obj")
		bytes=$(od -An -tx1 -j $((pc)) -N 6 "$obj" | tr -d ' \n')
		if [ "$bytes" != 900f1f440000 ]; then
			echo "libbpf-traced: stub at $pc is $bytes, not nop; nop5" >&2
			kill $loop; wait $loop; echo -; return
		fi
		off=$((pc + 1))
		[ "$how" = nop1 ] && off=$((pc))
		attach="-u $off"
		probe=
	fi
	# shellcheck disable=SC2086
	"$tracer" -t 120 -p $loop $attach "$bpf_obj" "$obj" \
		$probe >"$B/trace.out" 2>&1 &
	tracer=$!
	i=0
	until grep -q '^attached' "$B/trace.out" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -ge 200 ] || ! kill -0 $tracer 2>/dev/null; then
			echo "libbpf-traced: usdt-trace: $(tail -n 2 "$B/trace.out")" >&2
			kill $loop; wait $loop; echo -; return
		fi
		sleep 0.05
	done
	kill -USR1 $loop
	wait $loop
	wait $tracer
	hits=$(sed -n 's/^hits //p' "$B/trace.out")
	fired=$(sed -n 's/^fired //p' "$B/loop.out")
	if [ "$hits" != "$fired" ]; then
		echo "libbpf-traced: $prog $mode $how: $fired fires but $hits hits" >&2
		echo -
		return
	fi
	sed -n "s/^stub /$prog $how${4:+ ($4 libbpf)}: /p" "$B/loop.out" >>"$B/stubs"
	sed -n 's/^traced \([0-9.]*\) .*/\1/p' "$B/loop.out"
}

# reference PROGRAM MODE: `traced PROGRAM MODE usdt', "absent" when
# PROGRAM could not be built.
reference() {
	[ -x "$B/$1" ] || { echo absent; return; }
	traced "$1" "$2" usdt
}

header "traced fire under libbpf, static probe" "systemtap"
row "sdt.h, libbpf usdt (int3)" "$(traced libbpf-loop static usdt)" \
	"$(reference libbpf-loop-stap static)" ns
# The public library's one way to be traced (int3 at the note's PC) is
# the reference for each of our three.
public_ns=$(reference libbpf-loop-public dynamic)
header "traced fire under libbpf, libstapsdt probe (public: libbpf usdt, int3)" "public"
row "libstapsdt, libbpf usdt (int3)" "$(traced libbpf-loop dynamic usdt)" \
	"$public_ns" ns
row "libstapsdt, uprobe on nop (int3)" "$(traced libbpf-loop dynamic nop1)" \
	"$public_ns" ns
row "libstapsdt, uprobe on nop5 (call)" "$(traced libbpf-loop dynamic nop5)" \
	"$public_ns" ns "<=650"

NEW_OK=
msg=$(build_libbpf_new) && NEW_OK=1 || echo "(libbpf $LIBBPF_NEW absent: $msg)"
header "traced fire, call path under libbpf $LIBBPF_NEW against int3" "int3"
row "sdt.h fast site, $LIBBPF_NEW (call)" \
	"$(traced libbpf-loop-fast static usdt new)" \
	"$(traced libbpf-loop static usdt new)" ns ">=3x"
row "libstapsdt, $LIBBPF_NEW (call)" "$(traced libbpf-loop dynamic usdt new)" \
	"$(traced libbpf-loop dynamic usdt)" ns ">=3x"
# The system's libbpf: 1.1 and 1.5 trap at a fast site, 1.7 calls (and its
# libstapsdt row above is then no int3 reference).
SYSVER=$(pkg-config --modversion libbpf 2>/dev/null)
case $SYSVER in
0.* | 1.[0-6] | 1.[0-6].*) syspath=int3 ;;
*) syspath=call ;;
esac
row "sdt.h fast site, libbpf ${SYSVER:-system} ($syspath)" \
	"$(traced libbpf-loop-fast static usdt)" \
	"$(traced libbpf-loop static usdt)" ns
# cc: an int3 stayed; e8 after the 90: the kernel turned the nop5 into a call.
sed 's/^/stub bytes after the run, /' "$B/stubs"
target_summary
