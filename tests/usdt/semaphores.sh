#!/bin/sh
# <usdt.h>'s semaphores, with no .d file: the implicit one of usdtk:shared
# is one symbol for both units of the executable (sema-main.c and
# sema-unit.c) and another in the shared object (sema-lib.c); the
# explicit usdtk_both serves a probe in each unit. Each flips to active
# while bpftrace (-p) or libbpf is attached to one of its probes, in that
# object only, and back when the tracer leaves; the tracers read the
# arguments of the hits.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libbpf/lib.sh"
. "$top_srcdir/tests/usdt/lib.sh"
LC_ALL=C
export LC_ALL

$CC -I"$SDT_INCLUDE" -Wall -Wextra -Werror -O2 -fPIC -shared \
	"$USDT_SRC/sema-lib.c" -o "$T/libsema.so" || fail "cannot build sema-lib.c"
$CC -I"$SDT_INCLUDE" -Wall -Wextra -Werror -O2 "$USDT_SRC/sema-main.c" \
	"$USDT_SRC/sema-unit.c" -L"$T" -lsema -Wl,-rpath,"$T" -o "$T/sema" ||
	fail "cannot build sema-main.c sema-unit.c"
check_clean "$T/sema" "$T/libsema.so"

# The notes: both executable sites of usdtk:shared name one semaphore, the
# library's its own; the explicit probes share theirs.
"$SDT_NOTES" "$T/sema" >"$T/exe.notes"
"$SDT_NOTES" "$T/libsema.so" >"$T/lib.notes"
sema_of() { sed -n "s/^$2 .* sema=\(0x[0-9a-f]*\) .*/\1/p" "$1" | sort -u; }
shared=$(sema_of "$T/exe.notes" usdtk:shared)
expect_eq "executable: sites of usdtk:shared" 2 "$(grep -c '^usdtk:shared ' "$T/exe.notes")"
[ "$(echo "$shared" | wc -l)" = 1 ] && [ "$shared" != 0x0 ] ||
	fail "executable: usdtk:shared sites name semaphores '$shared'"
explicit=$(sema_of "$T/exe.notes" 'usdtk:[a-z]*_explicit')
[ "$(echo "$explicit" | wc -l)" = 1 ] && [ "$explicit" != 0x0 ] &&
	[ "$explicit" != "$shared" ] ||
	fail "executable: explicit probes name semaphores '$explicit'"
[ "$(sema_of "$T/lib.notes" usdtk:shared)" != 0x0 ] ||
	fail "library: usdtk:shared has no semaphore"
# One two-byte copy of the implicit semaphore however many units define it:
# hidden (so it binds locally), in .probes, at the notes' address.
sym=$(readelf -sW "$T/sema" | awk '$8 == "__usdt_sema_usdtk__shared"')
expect_eq "executable: __usdt_sema_usdtk__shared symbols" 1 "$(echo "$sym" | grep -c .)"
echo "$sym" | awk '{ exit !($3 == 2 && $4 == "OBJECT" && ($5 == "LOCAL" || $6 == "HIDDEN")) }' ||
	fail "executable: implicit semaphore symbol is not a hidden 2-byte object: $sym"
expect_eq "executable: implicit semaphore address" "$shared" \
	"0x$(echo "$sym" | awk '{ print $2 }' | sed 's/^0*//')"
expect_eq "executable: .probes size (one implicit and one explicit semaphore)" \
	000004 "$(readelf -SW "$T/sema" | awk '$2 == ".probes" { print $6 }')"

need_bpftrace
PROG_PID= TR_PID=
trap '[ -n "$PROG_PID" ] && kill -9 "$PROG_PID" 2>/dev/null
	[ -n "$TR_PID" ] && kill -9 "$TR_PID" 2>/dev/null; rm -rf "$T"' EXIT

"$T/sema" >"$T/log" 2>&1 &
PROG_PID=$!
wait_line "$T/log" '^ready' "$PROG_PID" "sema"
idle="state exe=0 unit=0 lib=0 explicit=0 unit_explicit=0"
wait_count "$T/log" "$idle" 1 "$PROG_PID" "untraced"
n_idle=1

# attach WHAT STATE TRACER-OUTPUT-LINE... -- COMMAND...: run the tracer,
# wait for STATE in the program's log and each line in the tracer's
# output, stop it, and wait for the idle state again.
attach() {
	what=$1 state=$2
	shift 2
	lines=
	while [ "$1" != -- ]; do
		lines="$lines$1
"
		shift
	done
	shift
	"$@" >"$T/tracer" 2>&1 &
	TR_PID=$!
	wait_count "$T/log" "$state" 1 "$PROG_PID" "$what: attached"
	printf '%s' "$lines" | while read -r l; do
		wait_count "$T/tracer" "$l" 1 "$TR_PID" "$what: tracer output"
	done || exit 1
	stop_pid "$TR_PID"
	TR_PID=
	n_idle=$((n_idle + 1))
	wait_count "$T/log" "$idle" $n_idle "$PROG_PID" "$what: detached"
	note "$what: '$state' while attached, idle after"
}

# The executable's probe with -p; the library's by path: bpftrace 0.17
# with -p cannot read a probe whose name is also the executable's
# ("couldn't get argument 0"), the case libbpf's header warns about.
attach "bpftrace -p on the executable's usdtk:shared" \
	"state exe=1 unit=1 lib=0 explicit=0 unit_explicit=0" \
	"hit 1 10" "hit 2 20" -- timeout 60 bpftrace -p "$PROG_PID" \
	-e "usdt:$T/sema:usdtk:shared { printf(\"hit %d %d\n\", arg0, arg1); }"
attach "bpftrace on the library's usdtk:shared" \
	"state exe=0 unit=0 lib=1 explicit=0 unit_explicit=0" \
	"hit 3 30" -- timeout 60 bpftrace \
	-e "usdt:$T/libsema.so:usdtk:shared { printf(\"hit %d %d\n\", arg0, arg1); }"
attach "bpftrace -p on usdtk:unit_explicit" \
	"state exe=0 unit=0 lib=0 explicit=1 unit_explicit=1" \
	"hit 2" -- timeout 60 bpftrace -p "$PROG_PID" \
	-e "usdt:$T/sema:usdtk:unit_explicit { printf(\"hit %d\n\", arg0); }"

msg=$(build_libbpf_tracer "$T")
case $? in
0)
	"$T/usdt-trace" -l "$T/usdt-args.bpf.o" >"$T/load.log" 2>&1 ||
		fail "libbpf cannot load its BPF object: $(tail -n 3 "$T/load.log")"
	attach "libbpf on the executable's usdtk:shared" \
		"state exe=1 unit=1 lib=0 explicit=0 unit_explicit=0" \
		"attached 1" "shared 2 1 10" "shared 2 2 20" -- \
		"$T/usdt-trace" -t 60 -p "$PROG_PID" "$T/usdt-args.bpf.o" \
		"$T/sema" usdtk:shared
	attach "libbpf on the library's usdtk:shared" \
		"state exe=0 unit=0 lib=1 explicit=0 unit_explicit=0" \
		"attached 1" "shared 2 3 30" -- \
		"$T/usdt-trace" -t 60 -p "$PROG_PID" "$T/usdt-args.bpf.o" \
		"$T/libsema.so" usdtk:shared
	;;
77) note "libbpf part skipped: $msg" ;;
*) fail "$msg" ;;
esac
kill "$PROG_PID"
wait "$PROG_PID" 2>/dev/null
PROG_PID=
echo "PASS: implicit and explicit semaphores flip per object while traced, and back"
