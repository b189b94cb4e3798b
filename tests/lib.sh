# Shared by the shell tests. Source it first: it finds the tree, gives each
# test a private scratch directory, and says how to skip (exit 77, with the
# reason) and how to fail (exit 1, with what was expected and what was seen).

: "${top_srcdir:?run through make check}" "${top_builddir:?run through make check}"
CC=${CC:-cc}
CXX=${CXX:-c++}
SDT_NOTES=$top_builddir/tests/tools/sdt-notes
SDT_INCLUDE=$top_srcdir/include
TRACEFS=/sys/kernel/tracing

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "# $*"; }

need_cmd() {
	for c; do
		command -v "$c" >/dev/null 2>&1 || skip "$c is not installed"
	done
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "attaching tracers needs root"
}

. "$top_srcdir/tests/stap-header.sh"

# need_stap_header: STAP_INC (stap_header), under which <sys/sdt.h> is
# SystemTap's, or skip.
need_stap_header() {
	stap_header "$T/stap-inc"
	case $? in
	0) ;;
	1) skip "SystemTap's sys/sdt.h (systemtap-sdt-dev) is not installed" ;;
	*) fail "cannot link SystemTap's header into $T/stap-inc" ;;
	esac
}

# tracefs_lock: hold the kernel's uprobe_events file locked (flock) until
# the test exits. For tests that add events under fixed names (perf's
# sdt_PROVIDER group, a named tracefs group): a suite running at the same
# time in another root or checkout on this kernel adds the same names.
# Tracefs is one per kernel, so the lock is seen by all of them.
tracefs_lock() {
	need_tracefs
	exec 8<"$TRACEFS/uprobe_events" ||
		skip "cannot open $TRACEFS/uprobe_events"
	flock -x -w 600 8 ||
		fail "another test has held $TRACEFS/uprobe_events for 10 minutes"
}

# A scratch directory removed on exit: $T.
T=$(mktemp -d "${TMPDIR:-/tmp}/sdtkit-test.XXXXXX") || fail "mktemp"
trap 'rm -rf "$T"' EXIT

# Capabilities that machines of our kind may lack. Each probe answers
# once per test and leaves the reason in $why_NAME, so a test can skip
# just the part that needs it and say why.

# can_run_i386: this machine executes i386 binaries. Some machines of our
# kind do not ("Exec format error") although their kernel config has IA32
# emulation. SDTKIT_NO_I386=1 makes the tests behave as on such a machine.
can_run_i386() {
	if [ -z "${cap_i386:-}" ]; then
		cap_i386=no
		if [ "${SDTKIT_NO_I386:-0}" = 1 ]; then
			why_i386="SDTKIT_NO_I386=1 is set"
		elif ! command -v i686-linux-gnu-gcc >/dev/null 2>&1; then
			why_i386="i686-linux-gnu-gcc is not installed"
		elif ! printf 'int main(void) { return 0; }\n' |
			i686-linux-gnu-gcc -static -x c - -o "$T/.cap-i386" 2>/dev/null; then
			why_i386="i686-linux-gnu-gcc cannot link a static program"
		elif ! err=$("$T/.cap-i386" 2>&1); then
			why_i386="i386 binaries do not execute here: $(echo "$err" | tail -n 1)"
		else
			cap_i386=yes
		fi
	fi
	[ "$cap_i386" = yes ]
}

# can_run_aarch64: aarch64 programs run here under qemu-user, with the
# cross sysroot; $QEMU_AARCH64 is the command to run them with.
# SDTKIT_NO_QEMU=1 makes the tests behave as on a machine without it.
QEMU_AARCH64="qemu-aarch64 -L /usr/aarch64-linux-gnu"
can_run_aarch64() {
	if [ -z "${cap_aarch64:-}" ]; then
		cap_aarch64=no
		if [ "${SDTKIT_NO_QEMU:-0}" = 1 ]; then
			why_aarch64="SDTKIT_NO_QEMU=1 is set"
		elif ! command -v qemu-aarch64 >/dev/null 2>&1; then
			why_aarch64="qemu-aarch64 is not installed"
		elif ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 ||
			[ ! -d /usr/aarch64-linux-gnu ]; then
			why_aarch64="no aarch64 cross compiler and sysroot"
		elif ! printf 'int main(void) { return 0; }\n' |
			aarch64-linux-gnu-gcc -x c - -o "$T/.cap-aarch64" 2>/dev/null; then
			why_aarch64="aarch64-linux-gnu-gcc cannot link a program"
		elif ! err=$($QEMU_AARCH64 "$T/.cap-aarch64" 2>&1); then
			why_aarch64="qemu-aarch64 cannot run a program: $(echo "$err" | tail -n 1)"
		else
			cap_aarch64=yes
		fi
	fi
	[ "$cap_aarch64" = yes ]
}

# have_ready FILE: FILE holds a whole line starting with "ready", as the
# test hosts print once their probes are loaded. A reader can catch the
# writer mid-line ("ready 123 /tm"), so a line counts only once its
# newline is there.
have_ready() {
	n=$(grep -n -m 1 '^ready' "$1" | cut -d: -f1)
	[ -n "$n" ] && [ "$n" -le "$(wc -l <"$1")" ]
}

# tracefs, mounted if a fresh machine has not mounted it yet.
need_tracefs() {
	need_root
	if [ ! -e "$TRACEFS/uprobe_events" ]; then
		mount -t tracefs nodev "$TRACEFS" 2>/dev/null ||
			skip "cannot mount tracefs on $TRACEFS"
	fi
	[ -w "$TRACEFS/uprobe_events" ] || skip "$TRACEFS/uprobe_events is not writable"
}

# bpftrace that can really load programs here (root, BPF allowed).
need_bpftrace() {
	need_root
	need_cmd bpftrace
	need_tracefs
	out=$(timeout 60 bpftrace -e 'BEGIN { printf("ok\n"); exit(); }' 2>&1)
	case "$out" in
	*ok*) ;;
	*) skip "bpftrace cannot load programs here: $(echo "$out" | tail -n 1)" ;;
	esac
}

# need_layouts: dtrace-gen and sdt-list built, with libdw (the struct
# layouts -G writes come from DWARF); sets DG and SDT_LIST.
need_layouts() {
	DG=$top_builddir/dtrace-gen/dtrace-gen
	SDT_LIST=$top_builddir/sdt-list/sdt-list
	[ -x "$DG" ] && [ -x "$SDT_LIST" ] || fail "dtrace-gen or sdt-list is not built"
	grep -q '^#define HAVE_LIBDW 1' "$top_builddir/config.h" ||
		skip "built without libdw: no struct layouts from DWARF (install libdw-dev)"
}

# bpftrace_until FILE CHECK ARGS...: bpftrace ARGS in the background, its
# output in FILE, until the shell command CHECK (which reads FILE)
# succeeds, bpftrace ends, or 120 s pass; then bpftrace is stopped with
# SIGINT and waited for. However long a loaded machine takes to attach,
# the run lasts until the events it waits for are there.
bpftrace_until() {
	bt_file=$1
	bt_check=$2
	shift 2
	timeout -s INT 120 bpftrace "$@" >"$bt_file" 2>&1 &
	bt_pid=$!
	bt_i=0
	until eval "$bt_check"; do
		kill -0 $bt_pid 2>/dev/null || break
		bt_i=$((bt_i + 1))
		[ $bt_i -lt 1200 ] || break
		sleep 0.1
	done
	kill -INT $bt_pid 2>/dev/null
	wait $bt_pid
}

# bpftrace_minor: the installed bpftrace's minor version (17, 23, 27).
bpftrace_minor() {
	bpftrace --version 2>/dev/null | sed -n 's/^bpftrace v0\.\([0-9]*\).*/\1/p'
}

# bpftrace_column: sdt-list --check's column for the installed bpftrace:
# up to 0.24 it parses through bcc, from 0.25 on it attaches through libbpf.
bpftrace_column() {
	if [ "$(bpftrace_minor)" -ge 25 ] 2>/dev/null; then
		echo "bpftrace 0.25+"
	else
		echo "bcc/bpftrace"
	fi
}

# bpftrace_dry: the option that makes `bpftrace --emit-elf' stop once it
# has compiled: none on 0.17 and 0.23, where --emit-elf alone attaches
# nothing; --dry-run on 0.27 (taken from 0.25 on, where bpftrace changed
# how it attaches), whose --emit-elf writes the object and then runs the
# program (--dry-run exits right after attaching).
bpftrace_dry() {
	if [ "$(bpftrace_minor)" -ge 25 ] 2>/dev/null; then
		echo --dry-run
	fi
}

# bpftrace_compile ELF PROGRAM: bpftrace compiles PROGRAM to BPF (into
# ELF) and stops; its output in $T/.bpftrace.out.
bpftrace_compile() {
	# shellcheck disable=SC2046
	timeout 120 bpftrace $(bpftrace_dry) --emit-elf "$1" "$2" >"$T/.bpftrace.out" 2>&1
}

# bpftrace and libstapsdt's memfd objects. Up to 0.24 bpftrace finds the
# probes of a process (-p) through bcc, which reads memfd objects too; from
# 0.25 on it takes the objects from /proc/PID/maps and leaves out every
# name marked "(deleted)", as a memfd's always is, so a memfd object's
# probes are reached by its path, /proc/PID/fd/N, which `sdt-list -p'
# prints ("attach as") and which every version takes.

# bt_obj OBJ: the object field of a usdt attach point for a probe of the
# libstapsdt object OBJ (a path): `*' where `bpftrace -p' finds OBJ by
# itself, else OBJ.
bt_obj() {
	case $1 in
	/proc/*/fd/*)
		if [ "$(bpftrace_minor)" -ge 25 ] 2>/dev/null; then
			echo "$1"
			return
		fi
		;;
	esac
	echo '*'
}

# bt_script OBJ SCRIPT: SCRIPT with each `usdt:*:' aimed at bt_obj OBJ.
bt_script() {
	o=$(bt_obj "$1")
	printf '%s\n' "$2" | sed "s|usdt:\\*:|usdt:$o:|g"
}

# memfd_obj PID: the path of the first memfd object sdt-list -p lists for
# PID (empty if none).
memfd_obj() {
	"$top_builddir/sdt-list/sdt-list" -p "$1" 2>/dev/null |
		sed -n 's/.* in a memfd, attach as //p' | head -n 1
}

# bt_place: where a provider that is several objects (providerExtend)
# goes when `bpftrace -p' must find them all with `*': a file
# (probe-host's and extend-host's --file) from bpftrace 0.25 on.
bt_place() {
	if [ "$(bpftrace_minor)" -ge 25 ] 2>/dev/null; then
		echo --file
	fi
}

# bpftrace with a time limit, its harmless chatter dropped: RLIMIT_MEMLOCK,
# and bpftrace 0.27's warning on every run where root may not read
# available_filter_functions (it lists kernel functions, not USDT's).
# Output to stdout; exit status is bpftrace's (124 on time-out).
bpftrace_run() {
	timeout 60 bpftrace "$@" >"$T/.bpftrace.out" 2>&1
	rc=$?
	grep -v 'RLIMIT_MEMLOCK\|read functions from .*available_filter_functions' \
		"$T/.bpftrace.out"
	return $rc
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	[ "$2" = "$3" ] && return 0
	printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3" >&2
	exit 1
}

# same_code A B WHAT: the same .text bytes and the same stapsdt notes in
# objects A and B (the type records cost the probes nothing).
same_code() {
	objcopy -O binary -j .text "$1" "$1.text" &&
		objcopy -O binary -j .text "$2" "$2.text" ||
		fail "$3: objcopy"
	cmp -s "$1.text" "$2.text" || fail "$3: the records changed the code"
	readelf -n "$1" | grep -A3 'stapsdt' >"$1.notes"
	readelf -n "$2" | grep -A3 'stapsdt' >"$2.notes"
	[ -s "$1.notes" ] || fail "$3: no stapsdt notes"
	expect_eq "$3: stapsdt notes with and without records" \
		"$(cat "$2.notes")" "$(cat "$1.notes")"
}

# mk_sources FRAGMENT VAR: the .c files of VAR in FRAGMENT (both from the
# top source dir), as paths under $top_srcdir.
mk_sources() {
	awk -v var="$2" -v dir="$top_srcdir" '
	!on && $0 ~ "^" var "[ \t]*[+]?=" { on = 1; sub(/^[^=]*=/, "") }
	on {
		more = sub(/\\[ \t]*$/, "")
		n = split($0, w, /[ \t]+/)
		for (i = 1; i <= n; i++)
			if (w[i] ~ /\.c$/) print dir "/" w[i]
		if (!more) on = 0
	}' "$top_srcdir/$1"
}

# Running things as user nobody. The build tree may be out of nobody's
# reach (a checkout under /root, mode 700), so whatever nobody runs is
# copied first into $NOBODY_DIR, a directory of the scratch area it can
# reach. can_nobody says whether that works here, with the reason in
# $why_nobody when not (not root, no setpriv, a TMPDIR nobody cannot
# enter); need_nobody skips with that reason.
can_nobody() {
	NOBODY_DIR=$T/nobody
	if [ "$(id -u)" != 0 ]; then
		why_nobody="acting as user nobody needs root"
	elif ! command -v setpriv >/dev/null 2>&1; then
		why_nobody="setpriv is not installed"
	elif ! { mkdir -p "$NOBODY_DIR/lib" &&
		chmod 755 "$T" "$NOBODY_DIR" "$NOBODY_DIR/lib"; }; then
		fail "cannot make $NOBODY_DIR"
	elif ! as_nobody test -x "$NOBODY_DIR/lib"; then
		why_nobody="user nobody cannot reach $NOBODY_DIR (TMPDIR=${TMPDIR:-/tmp})"
	else
		return 0
	fi
	return 1
}

need_nobody() {
	can_nobody || skip "$why_nobody"
}

# as_nobody CMD...: CMD as user nobody (uid and gid 65534, no groups),
# finding the libraries nobody_copy copied.
as_nobody() {
	env LD_LIBRARY_PATH="$NOBODY_DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# nobody_copy PROG: a copy of the built program PROG in $NOBODY_DIR, its
# path on stdout. For a libtool wrapper, the program it runs, and the
# uninstalled libraries of the build tree it adds to LD_LIBRARY_PATH.
nobody_copy() {
	_prog=$1
	if grep -q '^# Generated by libtool' "$_prog" 2>/dev/null; then
		for _d in $(sed -n 's/^ *LD_LIBRARY_PATH="\(.*\):\$LD_LIBRARY_PATH"$/\1/p' \
			"$_prog" | tr ':' ' '); do
			cp -L "$_d"/*.so* "$NOBODY_DIR/lib/" 2>/dev/null
		done
		_prog=$(dirname "$_prog")/.libs/$(basename "$_prog")
	fi
	cp "$_prog" "$NOBODY_DIR/" && chmod 755 "$NOBODY_DIR/$(basename "$_prog")" ||
		fail "cannot copy $_prog for user nobody"
	chmod -R a+rX "$NOBODY_DIR/lib"
	echo "$NOBODY_DIR/$(basename "$_prog")"
}
