# shellcheck shell=sh
# Shared by the packaging tests, sourced after tests/lib.sh: this build
# tree installed into a stage (`make install DESTDIR=$T/stage', the
# configured prefix), the way a user's own project would find it, and the
# checks every sample gets: sdtkit's generator and <sys/sdt.h> were used
# (never SystemTap's, which is installed here too), and real tracers see
# the probes with the arguments the program passed.
. "$top_srcdir/tests/dtrace-gen/lib.sh" # wait_for

# Sets STAGE (the DESTDIR), STAGE_PREFIX (the configured prefix inside it),
# STAGE_PC (its pkgconfig directory), STAGE_DG (its dtrace-gen) and
# STAGE_SDT_H (its sys/sdt.h, checked to be ours).
stage_install() {
	need_cmd make pkg-config
	STAGE=$T/stage
	(cd "$top_builddir" &&
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" install \
			DESTDIR="$STAGE") >"$T/install.log" 2>&1 ||
		{ tail -n 20 "$T/install.log"; fail "make install DESTDIR=$STAGE"; }
	pc=$(find "$STAGE" -name sdtkit.pc)
	[ -n "$pc" ] || fail "make install put no sdtkit.pc in $STAGE"
	STAGE_PC=$(dirname "$pc")
	STAGE_PREFIX=$STAGE$(sed -n 's/^prefix=//p' "$pc")
	STAGE_DG=$STAGE_PREFIX/bin/dtrace-gen
	[ -x "$STAGE_DG" ] || fail "no $STAGE_DG in the stage"
	STAGE_SDT_H=$(find "$STAGE" -path '*/sys/sdt.h')
	expect_sdtkit_header "$(stage_pkg_config --cflags sdtkit)" "the stage's sdtkit.pc"
	note "staged under $STAGE_PREFIX"
}

# pkg-config reading the stage only, its paths moved into it.
stage_pkg_config() {
	PKG_CONFIG_PATH=$STAGE_PC PKG_CONFIG_LIBDIR=$STAGE_PC \
		PKG_CONFIG_SYSROOT_DIR=$STAGE pkg-config "$@"
}

# SDTKIT_SDT_H for this version: MAJOR * 10000 + MINOR * 100 + PATCH.
sdt_h_version() {
	sed -n 's/^PACKAGE_VERSION = //p' "$top_builddir/Makefile" |
		awk -F. '{ print $1 * 10000 + $2 * 100 + $3 }'
}

# The header CFLAGS lead to defines SDTKIT_SDT_H as this version: it is
# ours, and the one SystemTap installs does not shadow it.
expect_sdtkit_header() { # CFLAGS WHAT
	printf '#include <sys/sdt.h>\nint v[SDTKIT_SDT_H == %s ? 1 : -1];\n' \
		"$(sdt_h_version)" >"$T/which.c"
	# shellcheck disable=SC2086 # CFLAGS are words
	$CC -c -o "$T/which.o" $1 "$T/which.c" 2>"$T/which.log" ||
		{ cat "$T/which.log"; fail "$2: <sys/sdt.h> is not sdtkit $(sdt_h_version)"; }
}

# Every <sys/sdt.h> the build in DIR compiled against, from the compiler's
# dependency records (Ninja's log, Make's .d and .Po files), must be HEADER.
expect_header_used() { # DIR HEADER WHAT
	used=$({
		[ -f "$1/.ninja_deps" ] && ninja -C "$1" -t deps
		find "$1" \( -name '*.o.d' -o -name '*.Po' \) -exec cat {} +
	} 2>/dev/null | tr ' \134' '\n\n' | grep '/sys/sdt\.h$' |
		while read -r h; do readlink -f "$h"; done | sort -u)
	expect_eq "$3: <sys/sdt.h> compiled against" "$(readlink -f "$2")" "$used"
}

# A sample copied to DEST, writable, without this tree's make fragment.
copy_sample() { # NAME DEST
	cp -R "$top_srcdir/samples/$1" "$2" || fail "copy samples/$1"
	chmod -R u+w "$2"
	rm -f "$2/local.mk"
}

# SystemTap's dtrace must be on PATH for the "ours, not theirs" checks to
# mean something; say whether it is.
note_systemtap() {
	if command -v dtrace >/dev/null 2>&1 &&
		! dtrace --version 2>&1 | grep -q sdtkit; then
		note "SystemTap's dtrace is on PATH: $(command -v dtrace)"
	else
		note "no other dtrace on PATH (install systemtap-sdt-dev to check it is not picked)"
	fi
}

# A build log must show the staged dtrace-gen making both -h and -G, and
# no other dtrace.
expect_our_dtrace() { # LOG WHAT
	grep -q "$STAGE_DG.* -h " "$1" || { cat "$1"; fail "$2: -h not run by $STAGE_DG"; }
	grep -q "$STAGE_DG.* -G " "$1" || { cat "$1"; fail "$2: -G not run by $STAGE_DG"; }
	if grep -E '(^|[ /])dtrace (-C )?-[hG]' "$1"; then
		fail "$2: another dtrace ran"
	fi
	return 0
}

# Every probe PROV:NAME given has a semaphore in FILE.
expect_semaphores() { # FILE PROBE...
	f=$1
	shift
	"$SDT_NOTES" --offsets "$f" >"$T/notes" || fail "sdt-notes $f"
	for p; do
		line=$(grep "^$p " "$T/notes") || { cat "$T/notes"; fail "$f has no probe $p"; }
		case "$line" in
		*"sema=0x0 "*) fail "$f: probe $p has no semaphore" ;;
		esac
	done
}

# trace_live SCRIPT CMD...: CMD runs in the background (its output in
# $T/run.out), bpftrace attaches to it for about 1.5 s running SCRIPT, whose
# lines `fired ...' go to $T/bpf.got. Every traced line must be one the
# program says it fired, and each of the probe kinds named in $TRACE_KINDS
# (words after `fired'; default: any) must be seen at least 3 times.
trace_live() {
	script=$1
	shift
	: >"$T/run.out"
	"$@" >"$T/run.out" 2>&1 &
	live_pid=$!
	wait_for "$T/run.out" '^ready' || { kill "$live_pid"; fail "$1 did not start"; }
	bpftrace_run -p "$live_pid" -e "$script interval:ms:1500 { exit(); }" >"$T/bpf.out"
	kill "$live_pid" 2>/dev/null
	wait "$live_pid" 2>/dev/null
	grep '^fired ' "$T/bpf.out" >"$T/bpf.got"
	grep '^fired ' "$T/run.out" >"$T/fired"
	for k in ${TRACE_KINDS:-any}; do
		pat="^fired $k "
		[ "$k" = any ] && pat='^fired '
		n=$(grep -c "$pat" "$T/bpf.got")
		[ "$n" -ge 3 ] || { cat "$T/bpf.out"; fail "bpftrace saw $n $k probes"; }
		note "bpftrace: $n $k probes"
	done
	bad=$(grep -vxF -f "$T/fired" "$T/bpf.got")
	[ -z "$bad" ] || fail "bpftrace read arguments the program did not pass: $bad"
}
