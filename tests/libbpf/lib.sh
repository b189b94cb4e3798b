# Shared by the libbpf tests and bench/libbpf-traced.sh (after tests/lib.sh
# or bench/lib.sh): build the libbpf tracer (usdt-trace.c, linked with
# -lbpf, and its BPF object usdt-args.bpf.c, compiled with clang -target
# bpf) into a scratch directory, and wait for the lines the traced
# programs and the tracer print.
LIBBPF_SRC=$top_srcdir/tests/libbpf

# build_libbpf_tracer DIR: DIR/usdt-trace and DIR/usdt-args.bpf.o, or a
# message on stdout and status 77 (cannot build here) or 1 (broken).
build_libbpf_tracer() {
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
	clang -E -target bpf -D__TARGET_ARCH_$bpf_arch $asm_inc "$1/hdr.c" >/dev/null 2>"$1/hdr.log" ||
		{ echo "libbpf-dev is not installed: $(grep -m 1 error "$1/hdr.log")"; return 77; }
	# shellcheck disable=SC2086
	clang -O2 -g -target bpf -D__TARGET_ARCH_$bpf_arch $asm_inc \
		-I"$LIBBPF_SRC" -c "$LIBBPF_SRC/usdt-args.bpf.c" \
		-o "$1/usdt-args.bpf.o" >"$1/bpf-cc.log" 2>&1 ||
		{ echo "clang -target bpf failed: $(head -n 5 "$1/bpf-cc.log")"; return 1; }
	bpf_libs=$(pkg-config --libs libbpf 2>/dev/null) || bpf_libs=-lbpf
	# shellcheck disable=SC2086
	${CC:-cc} -O2 -Wall -Wextra -I"$LIBBPF_SRC" -o "$1/usdt-trace" \
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
	"$TRACER" -l "$BPF_OBJ" >"$T/load.log" 2>&1
	case $? in
	0) ;;
	3) skip "BPF programs cannot be loaded here: $(tail -n 1 "$T/load.log")" ;;
	*) fail "libbpf cannot load $BPF_OBJ: $(tail -n 5 "$T/load.log")" ;;
	esac
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
# compare every hit libbpf saw with $T/want-NAME.
trace_and_compare() {
	name=$1 pid=$2 log=$3 obj=$4
	shift 4
	"$TRACER" -t 60 -p "$pid" "$BPF_OBJ" "$obj" "$@" \
		>"$T/$name.trace" 2>"$T/$name.err" &
	TRACER_PID=$!
	wait_line "$T/$name.trace" '^attached' "$TRACER_PID" "$name: usdt-trace"
	kill -USR1 "$pid"
	wait_line "$log" '^fired' "$pid" "$name: traced program"
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
