#!/bin/sh
# Debian's cross compilers and clang --target for the same triples: every
# spec the header makes for aarch64, arm, riscv64, ppc64le, s390x and i686
# passes the strict validator (which reads the foreign objects through the
# ELF core), and each kind of argument has the right size and signedness.
# clang's riscv64 objects leave the note sizes to the linker (relaxation
# relocations), so riscv64 is checked on a linked shared object.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt/lib.sh"
[ -x "$SDT_NOTES" ] || fail "$SDT_NOTES is not built"

I="-I$SDT_INCLUDE"
count=0 missing=
for t in aarch64-linux-gnu arm-linux-gnueabihf riscv64-linux-gnu \
	powerpc64le-linux-gnu s390x-linux-gnu i686-linux-gnu; do
	case $t in
	i686*) cs=- l=4 ;;
	arm*) cs= l=4 ;;
	*) cs= l=8 ;;
	esac
	compilers=
	if command -v $t-gcc >/dev/null 2>&1; then
		compilers="$t-gcc"
	else
		missing="$missing $t-gcc"
	fi
	if clang --target=$t -c -x c /dev/null -o "$T/empty.o" 2>/dev/null; then
		compilers="$compilers clang"
	fi
	for cc in $compilers; do
		[ $cc = clang ] && cc="clang --target=$t"
		for lang in "-std=c89" "-std=gnu11" "-x c++ -std=c++98" \
			"-x c++ -std=c++17"; do
			case "$lang:$cc" in
			*c++*:clang*) c="clang++ --target=$t" ;;
			*c++*) c=$t-g++ ;;
			*) c=$cc ;;
			esac
			command -v ${c%% *} >/dev/null 2>&1 || continue
			for o in -O0 -O1 -O2 "-O3 -fPIC" -Os; do
				what="$c $lang $o"
				out=$T/p.o
				set -- $c $I $WFLAGS $lang $o -c "$PROBES_C" -o "$T/p.o"
				case $t in
				riscv64*)
					$c $I $WFLAGS $lang $o -fPIC -c "$PROBES_C" \
						-o "$T/r.o" >"$T/cc.log" 2>&1 ||
						{ cat "$T/cc.log"; fail "$what: compile"; }
					out=$T/p.so
					set -- ${cc%% *} ${cc#* } -shared -nostdlib \
						"$T/r.o" -o "$T/p.so"
					[ "$cc" = "$t-gcc" ] && set -- $t-gcc -shared \
						-nostdlib "$T/r.o" -o "$T/p.so"
					;;
				esac
				compile_check "$what" "$out" "$@"
				check_kinds "$T/notes" "$what" "$cs" $l $l
				count=$((count + 1))
			done
		done
	done
done
# A missing compiler is a target not covered: that is a skip, not a pass.
[ -z "$missing" ] ||
	skip "not installed:$missing ($count cross builds of the others checked)"
echo "PASS: $count cross builds, every spec valid"
