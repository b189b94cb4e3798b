#!/bin/sh
# What real code passes to probes (tests/sdt/sweep.c and sweep.cc: bit-
# fields, templates, references, every character type, enum class,
# nullptr, side effects, STAP_PROBEV 0..12, a semaphore defined in the
# program), built the ways real projects build: -ansi to C2x, C++98 to
# C++20 without exceptions or RTTI, -O0 to -O3 -funroll-loops (not
# -march=native: what it enables, and what a compiler warns about it,
# depend on the CPU), frame pointer or not, -mno-red-zone, stack
# protector, AddressSanitizer, -g0 and -g3, --gc-sections (ld.bfd and
# lld), hidden visibility, LTO, PIE, and i386 (arguments in frame slots).
# Each build: no warning under -Wall -Wextra -pedantic -Werror, every
# spec valid and readable by every consumer (sdt-notes, sdt-list
# --check), one note per probe the program fires, and gdb reads back
# every argument of every hit exactly as the program wrote it. bpftrace
# reads the first six of a few builds.
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
need_cmd gcc g++ clang clang++ gdb
case $(uname -m) in x86_64) ;; *) skip "the build matrix is for x86_64 hosts" ;; esac
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$SDT_NOTES" ] || fail "$SDT_NOTES is not built"
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"
S=$top_srcdir/tests/sdt
W="-Wall -Wextra -pedantic -Werror"
count=0 unrun=0 missing=

# The probes a run fired, from its expected-values file (one per name).
fired() {
	grep -v '^#' "$1" | cut -d' ' -f1 | sort -u
}

# gdb_values EXE OUT: every hit of every probe of EXE, as gdb reads it.
gdb_values() {
	probes=$(cut -d' ' -f1 "$1.notes" | sort -u | tr '\n' ' ')
	timeout 120 gdb -batch -nx -ex "set \$outfile=\"$2\"" \
		-ex "set \$probes=\"$probes\"" -x "$S/sweep-probes.py" \
		-ex run --args "$1" "$1.traced" >"$2.log" 2>&1
}

# A pointer to a data member as an argument (its value is the member's
# offset): gcc and clang up to 18 pass it in a register and the sweep reads
# it back; clang 19 and later refuse one in any register-constrained asm
# operand, with SystemTap's header too. member_ptr_flag COMPILER sets
# mp_flag: empty where the compiler takes it; where it refuses it, that
# refusal must be the only error and SystemTap's header must not take it
# either, and sweep.cc is built without that one probe.
cat >"$T/member-ptr.cc" <<'EOF'
#include <sys/sdt.h>
struct two {
	int a;
	long b;
};
void member_ptr(void)
{
	long two::*member = &two::b;
	STAP_PROBE1(sweepxx, member_ptr, member);
}
EOF
mp_takes='|' mp_refuses='|'
member_ptr_flag() {
	mp_flag=
	case $mp_takes in *"|$1|"*) return ;; esac
	mp_flag=-DSWEEP_NO_MEMBER_PTR
	case $mp_refuses in *"|$1|"*) return ;; esac
	if $1 -I"$SDT_INCLUDE" $W -c "$T/member-ptr.cc" -o "$T/mp.o" \
		>"$T/mp.log" 2>&1; then
		mp_takes="$mp_takes$1|" mp_flag=
		return
	fi
	grep -q 'pointer-to-member through register-constrained' "$T/mp.log" ||
		{ cat "$T/mp.log" >&2; fail "$1: a pointer-to-member argument does not build"; }
	! $1 $W -c "$T/member-ptr.cc" -o "$T/mp.o" >/dev/null 2>&1 ||
		fail "$1: SystemTap's header takes a pointer-to-member argument, ours does not"
	mp_refuses="$mp_refuses$1|"
	note "$1 refuses a pointer-to-member in a register operand (the compiler's rule: SystemTap's header fares no better): its sweep.cc builds leave that probe out"
}

# build NAME LANG COMPILER FLAGS...: build, validate, run, read back.
build() {
	name=$1 lang=$2 compiler=$3
	shift 3
	exe=$T/$name
	case $lang in
	c) set -- "$@" "$S/sweep.c" "$S/sweep-sema.c" ;;
	c++)
		member_ptr_flag "$compiler"
		set -- "$@" $mp_flag "$S/sweep.cc"
		;;
	esac
	if ! $compiler -I"$SDT_INCLUDE" $W "$@" -o "$exe" >"$T/cc.log" 2>&1; then
		cat "$T/cc.log" >&2
		fail "$name: does not build warning-free: $compiler $*"
	fi
	"$SDT_NOTES" "$exe" >"$exe.notes" 2>"$T/notes.err" ||
		{ cat "$T/notes.err" >&2; fail "$name: the validator refuses a spec"; }
	if ! "$SDT_LIST" --check "$exe" >"$T/check" 2>&1; then
		grep -B4 ' NO\| no' "$T/check" | head -n 30 >&2
		fail "$name: some consumer cannot read some probe"
	fi
	# A build this machine cannot execute is checked as far as its notes.
	if [ "${norun:-0}" = 1 ]; then
		count=$((count + 1)) unrun=$((unrun + 1))
		return 0
	fi
	"$exe" "$exe.expected" >"$T/run.log" 2>&1 ||
		{ cat "$T/run.log" >&2; fail "$name: the program fails"; }
	# Every probe it fired has a note, and every note a probe it fired
	# (gated fires only while traced).
	expect_eq "$name: probes with notes" "$(fired "$exe.expected")" \
		"$(cut -d' ' -f1 "$exe.notes" | cut -d: -f2 | grep -vx gated |
			sort -u)"
	if [ "${NOGDB:-}" != 1 ]; then
		gdb_values "$exe" "$T/gdb.out" ||
			{ cat "$T/gdb.out.log" >&2; fail "$name: gdb failed"; }
		expect_eq "$name: every argument read by gdb" \
			"$(grep -v '^#' "$exe.traced" | sort)" "$(sort "$T/gdb.out")"
		case $lang in
		c) grep -q '^gated ' "$T/gdb.out" ||
			fail "$name: gdb set no semaphore: the gated probe never fired" ;;
		esac
	fi
	count=$((count + 1))
}

have_lld=0
command -v ld.lld >/dev/null 2>&1 && have_lld=1
for pair in gcc:g++ clang:clang++; do
	cc=${pair%%:*} cxx=${pair#*:}
	# Language modes.
	build "$cc-ansi" c "$cc" -O2 -x c -ansi
	for std in c99 gnu11 c17 c2x; do
		build "$cc-$std" c "$cc" -std=$std -O1
	done
	for std in c++98 c++11 c++17; do
		build "$cxx-$std" c++ "$cxx" -std=$std -O2
	done
	build "$cxx-c++2a-noexc" c++ "$cxx" -std=c++2a -fno-exceptions -fno-rtti -O2
	# Code generation, in both languages.
	i=0
	for flags in "-O0 -g3" "-O2 -g0" "-O3 -funroll-loops" \
		"-O2 -fomit-frame-pointer" "-O2 -fno-omit-frame-pointer" \
		"-O2 -mno-red-zone" "-O2 -fstack-protector-strong" \
		"-O1 -g -fsanitize=address -fno-omit-frame-pointer" \
		"-O2 -ffunction-sections -fdata-sections -Wl,--gc-sections" \
		"-O2 -fvisibility=hidden" "-Os -fPIE -pie"; do
		i=$((i + 1))
		build "$cc-f$i" c "$cc" -std=c11 $flags
		build "$cxx-f$i" c++ "$cxx" -std=c++17 $flags
	done
	if [ $have_lld = 1 ]; then
		gc="-O2 -ffunction-sections -Wl,--gc-sections -fuse-ld=lld"
		build "$cc-gc-lld" c "$cc" -std=c11 $gc
		build "$cxx-gc-lld" c++ "$cxx" -std=c++17 $gc
	fi
done
build gcc-lto c gcc -std=c11 -O2 -flto
build g++-lto c++ g++ -std=c++17 -O2 -flto
if [ $have_lld = 1 ]; then
	build clang-lto c clang -std=c11 -O2 -flto -fuse-ld=lld
	build clang++-lto c++ clang++ -std=c++17 -O2 -flto -fuse-ld=lld
fi

# i386: arguments copied to frame slots. Static, so it runs here without
# an i386 loader; gdb reads it when it can debug i386 (Debian's does).
if command -v i686-linux-gnu-gcc >/dev/null 2>&1; then
	norun=0
	can_run_i386 || { norun=1; note "i386 builds checked, not run: $why_i386"; }
	for o in -O0 -O2; do
		build "i686-gcc$o" c i686-linux-gnu-gcc -std=gnu11 -static $o
		build "i686-clang$o" c "clang --target=i686-linux-gnu" \
			-std=c11 -static $o
	done
	if command -v i686-linux-gnu-g++ >/dev/null 2>&1; then
		build i686-g++ c++ i686-linux-gnu-g++ -std=c++17 -static -O2
		build i686-g++98 c++ i686-linux-gnu-g++ -std=c++98 -static -O0
	fi
	norun=0
fi
note "$count builds: valid, readable by every consumer; gdb reads every value of $((count - unrun))"

# The other machines: the same sources for each cross target, as a shared
# object (clang's riscv64 objects leave note sizes to the linker). C++
# without the C++ library headers, which only some targets have installed.
names() {
	cut -d' ' -f1 "$1" | sort -u
}
ncross=0
for t in aarch64-linux-gnu arm-linux-gnueabihf riscv64-linux-gnu \
	powerpc64le-linux-gnu s390x-linux-gnu i686-linux-gnu; do
	command -v $t-gcc >/dev/null 2>&1 || missing="$missing $t-gcc"
	for c in $t-gcc "clang --target=$t" $t-g++ "clang++ --target=$t"; do
		command -v ${c%% *} >/dev/null 2>&1 || continue
		$c -c -x c /dev/null -o "$T/empty.o" 2>/dev/null || continue
		case $c in
		*++*) set -- "-std=c++98 -nostdinc++:g++-c++98" \
			"-std=c++17 -nostdinc++:g++-c++17" ;;
		*) set -- "-ansi:gcc-ansi" "-std=gnu11:gcc-gnu11" ;;
		esac
		for mode; do
			flags=${mode%%:*} native=$T/${mode#*:}
			mp_flag=
			case $mode in
			*++*)
				member_ptr_flag "$c $flags"
				src="$mp_flag $S/sweep.cc"
				;;
			*) src="$S/sweep.c $S/sweep-sema.c" ;;
			esac
			for o in -O0 -O2; do
				what="$c $flags $o"
				if ! $c -I"$SDT_INCLUDE" $W $flags $o -fPIC -shared \
					-nostdlib $src -o "$T/x.so" >"$T/cc.log" 2>&1; then
					cat "$T/cc.log" >&2
					fail "$what: does not build warning-free"
				fi
				"$SDT_NOTES" "$T/x.so" >"$T/x.notes" ||
					fail "$what: the validator refuses a spec"
				expect_eq "$what: probes" \
					"$(names "$native.notes" | if [ -n "$mp_flag" ]; then
						grep -v ':member_ptr$'
					else cat; fi)" "$(names "$T/x.notes")"
				case $t in
				aarch64* | i686*)
					"$SDT_LIST" --check "$T/x.so" >"$T/check" 2>&1 ||
						{ cat "$T/check" >&2; fail "$what: unreadable"; } ;;
				esac
				ncross=$((ncross + 1))
			done
		done
	done
done
note "$ncross cross builds: every spec valid, the same probes"

# bpftrace: the first six arguments of every probe (0.17 refuses arg6+).
need_bpftrace
# script EXE: one action per probe name, printf formats from the note's
# sign (any signed instance: %lld), str() for probes named string*.
script() {
	awk -v exe="$1" '{
		split($1, pn, ":"); name = pn[2]
		sub(/.*args=/, "")
		if (!(name in seen)) { seen[name] = 1; order[++n] = name; argc[name] = NF }
		for (i = 1; i <= NF && i <= 6; i++)
			if (substr($i, 1, 1) == "-") signed[name, i] = 1
	} END {
		for (k = 1; k <= n; k++) {
			name = order[k]; fmt = name; args = ""
			for (i = 1; i <= argc[name] && i <= 6; i++) {
				if (name ~ /^string/) {
					fmt = fmt " %s"; args = args ", str(arg" (i - 1) ")"
				} else {
					fmt = fmt ((signed[name, i]) ? " %lld" : " %llu")
					args = args ", arg" (i - 1)
				}
			}
			printf "usdt:%s:*:%s { printf(\"%s\\n\"%s); }\n", exe, name, fmt, args
		}
	}' "$1.notes"
}
k=0
for name in gcc-c17 g++-c++17 clang-f3 clang++-f3; do
	# bpftrace's attach-point parser takes no "+" in a path.
	k=$((k + 1))
	exe=$T/bpftrace$k
	cp "$T/$name" "$exe" && cp "$T/$name.notes" "$exe.notes" || fail "cp"
	bpftrace_run -e "$(script "$exe")" -c "$exe $exe.traced" >"$T/bt.out" ||
		{ cat "$T/bt.out" >&2; fail "$name: bpftrace failed"; }
	grep -v '^#' "$exe.traced" |
		awk '{ l = $1; for (i = 2; i <= NF && i <= 7; i++) l = l " " $i; print l }' |
		sort >"$T/want"
	fired "$exe.traced" >"$T/names"
	grep -E "^($(tr '\n' '|' <"$T/names" | sed 's/|$//'))( |$)" "$T/bt.out" |
		sort >"$T/got"
	expect_eq "$name: values read by bpftrace" "$(cat "$T/want")" "$(cat "$T/got")"
	case $name in
	gcc-* | clang-*) grep -q '^gated ' "$T/got" ||
		fail "$name: bpftrace set no semaphore: the gated probe never fired" ;;
	esac
done
[ -z "$missing" ] || skip "not installed: $missing (the rest passed)"
echo "PASS: $count builds and $ncross cross builds; gdb and bpftrace read back every value"
