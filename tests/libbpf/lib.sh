# Shared by the libbpf tests and bench/libbpf-traced.sh (after tests/lib.sh
# or bench/lib.sh): build the libbpf tracer (usdt-trace.c, linked with
# -lbpf, and its BPF object usdt-args.bpf.c, compiled with clang -target
# bpf) into a scratch directory, and wait for the lines the traced
# programs and the tracer print.
LIBBPF_SRC=$top_srcdir/tests/libbpf

# build_libbpf_tracer DIR [PREFIX]: DIR/usdt-trace and DIR/usdt-args.bpf.o,
# or a message on stdout and status 77 (cannot build here) or 1 (broken).
# Against the system's libbpf, or with PREFIX the static one installed
# there (PREFIX/include, PREFIX/lib64/libbpf.a): the BPF side must come
# from the same libbpf as the loader (its USDT spec map layout).
build_libbpf_tracer() {
	bpf_inc=
	[ -n "${2:-}" ] && bpf_inc="-I$2/include"
	command -v clang >/dev/null 2>&1 || { echo "clang is not installed"; return 77; }
	case $(uname -m) in
	x86_64) bpf_arch=x86 ;;
	aarch64) bpf_arch=arm64 ;;
	*) echo "no BPF target arch for $(uname -m)"; return 77 ;;
	esac
	# <linux/types.h> wants <asm/types.h>, which lives under the multiarch
	# directory that -target bpf does not search.
	multiarch=$(gcc -print-multiarch 2>/dev/null || true)
	asm_inc=
	[ -n "$multiarch" ] && [ -d "/usr/include/$multiarch" ] &&
		asm_inc="-idirafter /usr/include/$multiarch"
	printf '#include <stdbool.h>\n#include <bpf/usdt.bpf.h>\n' >"$1/hdr.c"
	# shellcheck disable=SC2086
	clang -E -target bpf -D__TARGET_ARCH_$bpf_arch $bpf_inc $asm_inc "$1/hdr.c" >/dev/null 2>"$1/hdr.log" ||
		{ echo "libbpf-dev is not installed: $(grep -m 1 error "$1/hdr.log")"; return 77; }
	# shellcheck disable=SC2086
	clang -O2 -g -target bpf -D__TARGET_ARCH_$bpf_arch $bpf_inc $asm_inc \
		-I"$LIBBPF_SRC" -c "$LIBBPF_SRC/usdt-args.bpf.c" \
		-o "$1/usdt-args.bpf.o" >"$1/bpf-cc.log" 2>&1 ||
		{ echo "clang -target bpf failed: $(head -n 5 "$1/bpf-cc.log")"; return 1; }
	if [ -n "${2:-}" ]; then
		bpf_libs="$2/lib64/libbpf.a -lelf -lz"
	else
		bpf_libs=$(pkg-config --libs libbpf 2>/dev/null) || bpf_libs=-lbpf
	fi
	# shellcheck disable=SC2086
	${CC:-cc} -O2 -Wall -Wextra $bpf_inc -I"$LIBBPF_SRC" -o "$1/usdt-trace" \
		"$LIBBPF_SRC/usdt-trace.c" $bpf_libs >"$1/trace-cc.log" 2>&1 ||
		{ echo "building usdt-trace with libbpf failed: $(head -n 5 "$1/trace-cc.log")"; return 1; }
	return 0
}

# need_libbpf: TRACER and BPF_OBJ built in $T, and this machine loads BPF.
need_libbpf() {
	need_root
	msg=$(build_libbpf_tracer "$T")
	case $? in
	0) ;;
	77) skip "$msg" ;;
	*) fail "$msg" ;;
	esac
	TRACER=$T/usdt-trace
	BPF_OBJ=$T/usdt-args.bpf.o
	check_bpf_load "$TRACER" "$BPF_OBJ"
}

# check_bpf_load TRACER OBJECT: skip when BPF cannot be loaded here.
check_bpf_load() {
	"$1" -l "$2" >"$T/load.log" 2>&1
	case $? in
	0) ;;
	3) skip "BPF programs cannot be loaded here: $(tail -n 1 "$T/load.log")" ;;
	*) fail "libbpf cannot load $2: $(tail -n 5 "$T/load.log")" ;;
	esac
}

# The newer libbpf (1.7 development, f7081a6b), the first to attach at the
# 5-byte nop of a `nop; nop5' site: built from its source tarball (in
# $LIBBPF_REF, else beside the source tree), static, once, and kept as two
# files in the build tree (the tracer and its BPF object); rebuilt when the
# tarball or the tracer's sources are newer.
LIBBPF_NEW=f7081a6b
LIBBPF_NEW_TARBALL=${LIBBPF_REF:-$top_srcdir/../shared/anchors/libbpf-$LIBBPF_NEW.tar.gz}
LIBBPF_NEW_TRACER=$top_builddir/tests/libbpf/usdt-trace-$LIBBPF_NEW
LIBBPF_NEW_OBJ=$top_builddir/tests/libbpf/usdt-args-$LIBBPF_NEW.bpf.o

libbpf_new_fresh() {
	for f in "$LIBBPF_NEW_TARBALL" "$LIBBPF_SRC/usdt-trace.c" \
		"$LIBBPF_SRC/usdt-args.bpf.c" "$LIBBPF_SRC/usdt-hit.h"; do
		[ "$LIBBPF_NEW_OBJ" -nt "$f" ] || return 1
	done
	[ -x "$LIBBPF_NEW_TRACER" ]
}

# build_libbpf_new: the two files, or a message and status 77 or 1. One
# test builds (~15 s) while the others wait on the lock directory, which
# holds the builder's PID: a lock whose test is gone is taken over.
build_libbpf_new() {
	[ -f "$LIBBPF_NEW_TARBALL" ] ||
		{ echo "no libbpf $LIBBPF_NEW source at $LIBBPF_NEW_TARBALL (set LIBBPF_REF)"; return 77; }
	libbpf_new_fresh && return 0
	lock=$LIBBPF_NEW_TRACER.lock
	i=0
	until mkdir "$lock" 2>/dev/null; do
		holder=$(cat "$lock/pid" 2>/dev/null)
		if [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null; then
			rm -rf "$lock"
			continue
		fi
		i=$((i + 1))
		[ $i -lt 300 ] || { echo "$lock held for 5 minutes"; return 1; }
		sleep 1
	done
	echo $$ >"$lock/pid"
	libbpf_new_fresh && { rm -rf "$lock"; return 0; }
	d=$(mktemp -d "${TMPDIR:-/tmp}/sdtkit-libbpf.XXXXXX") || { rm -rf "$lock"; return 1; }
	(
		tar -xzf "$LIBBPF_NEW_TARBALL" -C "$d" || exit 77
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
			make -C "$d"/libbpf-*/src BUILD_STATIC_ONLY=1 OBJDIR="$d/obj" \
			DESTDIR="$d/inst" PREFIX=/usr LIBDIR=/usr/lib64 install \
			>"$d/make.log" 2>&1 || exit 77
	)
	if [ $? != 0 ]; then
		echo "libbpf $LIBBPF_NEW does not build here (needs libelf-dev, zlib1g-dev): $(tail -n 3 "$d/make.log" 2>/dev/null)"
		rm -rf "$d" "$lock"; return 77
	fi
	build_libbpf_tracer "$d" "$d/inst/usr"
	rc=$?
	if [ $rc = 0 ]; then
		mv -f "$d/usdt-trace" "$LIBBPF_NEW_TRACER.tmp" &&
			mv -f "$d/usdt-args.bpf.o" "$LIBBPF_NEW_OBJ.tmp" &&
			mv -f "$LIBBPF_NEW_TRACER.tmp" "$LIBBPF_NEW_TRACER" &&
			mv -f "$LIBBPF_NEW_OBJ.tmp" "$LIBBPF_NEW_OBJ" || rc=1
	fi
	rm -rf "$d" "$lock"
	return $rc
}

# need_libbpf_new: TRACER_NEW and BPF_OBJ_NEW (libbpf f7081a6b), loadable.
need_libbpf_new() {
	need_root
	msg=$(build_libbpf_new)
	case $? in
	0) ;;
	77) skip "$msg" ;;
	*) fail "$msg" ;;
	esac
	TRACER_NEW=$LIBBPF_NEW_TRACER
	BPF_OBJ_NEW=$LIBBPF_NEW_OBJ
	check_bpf_load "$TRACER_NEW" "$BPF_OBJ_NEW"
}

# site_bytes PID FILE FILE-OFFSET N: the N bytes at FILE-OFFSET of FILE as
# mapped in process PID now (hex, no spaces): what a tracer left there.
site_bytes() {
	ino=$(stat -L -c %i "$2") || return 1
	addr=
	while read -r range _ moff _ mino _; do
		[ "$mino" = "$ino" ] || continue
		start=$((0x${range%-*})) end=$((0x${range#*-})) moff=$((0x$moff))
		if [ $(($3)) -ge $moff ] && [ $(($3)) -lt $((moff + end - start)) ]; then
			addr=$((start + $3 - moff))
			break
		fi
	done <"/proc/$1/maps"
	[ -n "$addr" ] || return 1
	dd if="/proc/$1/mem" bs=4096 iflag=skip_bytes,count_bytes skip="$addr" \
		count="$4" 2>/dev/null | od -An -tx1 | tr -d ' \n'
}

# build_probes NAME CC FLAGS...: tests/libbpf/probes.c and sema.c built
# as $T/probes-NAME, its notes (with file offsets) in $T/notes-NAME and
# its probes' names in $probes.
build_probes() {
	exe=$T/probes-$1 notes=$T/notes-$1 cc=$2
	shift 2
	$cc -I"$SDT_INCLUDE" -Wall -Wextra "$@" -o "$exe" \
		"$LIBBPF_SRC/probes.c" "$LIBBPF_SRC/sema.c" >"$T/cc.log" 2>&1 ||
		fail "${exe##*/}: cannot build probes.c: $(cat "$T/cc.log")"
	"$SDT_NOTES" --offsets "$exe" >"$notes" ||
		fail "${exe##*/}: sdt-notes rejects the notes"
	probes=$(awk '{ print $1 }' "$notes")
}

# wait_line FILE PATTERN PID WHAT: until a line of FILE matches the grep
# PATTERN (up to 20 s); fails if process PID dies first.
wait_line() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 400 ] || fail "$4 did not print '$2' in 20 s: $(tail -n 5 "$1")"
		kill -0 "$3" 2>/dev/null ||
			{ grep -q "$2" "$1" && return 0; fail "$4 died: $(tail -n 5 "$1")"; }
		sleep 0.05
	done
}

# wait_pid PID: its exit status (each test's processes are its children).
wait_pid() {
	wait "$1"
}

# trace_and_compare NAME PID LOG OBJ PROBE...: attach usdt-trace to the
# PROBEs of OBJ in process PID (which logs to LOG, fires every probe once
# at its first SIGUSR1 and exits at the second), let it fire, detach, and
# compare every hit libbpf saw with $T/want-NAME. TRACE_WITH and TRACE_OBJ
# choose another tracer and BPF object; ON_FIRED, a command run with
# NAME PID OBJ once the probes have fired, while the tracer is attached.
trace_and_compare() {
	name=$1 pid=$2 log=$3 obj=$4
	shift 4
	"${TRACE_WITH:-$TRACER}" -t 60 -p "$pid" "${TRACE_OBJ:-$BPF_OBJ}" "$obj" "$@" \
		>"$T/$name.trace" 2>"$T/$name.err" &
	TRACER_PID=$!
	wait_line "$T/$name.trace" '^attached' "$TRACER_PID" "$name: usdt-trace"
	kill -USR1 "$pid"
	wait_line "$log" '^fired' "$pid" "$name: traced program"
	# While still attached: what the tracer made of the sites.
	[ -z "${ON_FIRED:-}" ] || $ON_FIRED "$name" "$pid" "$obj"
	kill -TERM "$TRACER_PID"
	wait_pid "$TRACER_PID"
	trc=$?
	TRACER_PID=
	kill -USR1 "$pid"
	wait_pid "$pid" || fail "$name: traced program failed: $(cat "$log")"

	sort "$T/want-$name" >"$T/want"
	grep -v '^attached ' "$T/$name.trace" | sort >"$T/got"
	expect_eq "$name: arguments read by libbpf (NAME ARGC VALUES...)" \
		"$(cat "$T/want")" "$(cat "$T/got")"
	[ $trc = 0 ] || fail "$name: usdt-trace exited $trc: $(cat "$T/$name.err")"
	expect_eq "$name: probes attached" "attached $#" \
		"$(grep '^attached ' "$T/$name.trace")"
}
