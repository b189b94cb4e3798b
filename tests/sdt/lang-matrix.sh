#!/bin/sh
# Every language mode, optimization level and code model, with gcc and
# clang, in an object, a shared library and executables: no warning under
# -Wall -Wextra -pedantic -Werror, every spec readable (strict validator),
# and each kind of argument with the right size and signedness.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt/lib.sh"
need_cmd gcc g++ clang clang++
[ -x "$SDT_NOTES" ] || fail "$SDT_NOTES is not built"

I="-I$SDT_INCLUDE"
count=0
# Expected sizes on the target: char signedness, long, pointer.
CS=- L=8 P=8
one() { # WHAT OUT CMD...
	compile_check "$@"
	check_kinds "$T/notes" "$1" "$CS" "$L" "$P"
	count=$((count + 1))
}

for cc in gcc clang; do
	for std in c89 gnu89 c99 gnu99 c11 gnu11 c17 c2x gnu2x; do
		for o in -O0 -O2; do
			one "$cc -std=$std $o" "$T/p.o" \
				$cc $I $WFLAGS -std=$std $o -c "$PROBES_C" -o "$T/p.o"
		done
	done
	for o in -O1 -O3 -Os -Og; do
		one "$cc $o" "$T/p.o" $cc $I $WFLAGS -std=c11 $o -c "$PROBES_C" -o "$T/p.o"
	done
	for f in -fPIC -fPIE -fno-omit-frame-pointer -fomit-frame-pointer; do
		one "$cc $f" "$T/p.o" $cc $I $WFLAGS -O2 $f -c "$PROBES_C" -o "$T/p.o"
	done
done
for cxx in g++ clang++; do
	for std in c++98 gnu++98 c++11 c++14 c++17 c++20; do
		for o in -O0 -O2; do
			one "$cxx -std=$std $o" "$T/p.o" $cxx $I $WFLAGS -std=$std $o \
				-x c++ -c "$PROBES_C" -o "$T/p.o"
		done
	done
	for o in -O1 -O3; do
		one "$cxx $o" "$T/p.o" $cxx $I $WFLAGS -std=c++17 $o -x c++ \
			-c "$PROBES_C" -o "$T/p.o"
	done
done

# Linked: executables (PIE, static, LTO) and a shared library.
for cc in gcc clang; do
	one "$cc pie" "$T/pie" $cc $I $WFLAGS -O2 -fPIE -pie "$PROBES_C" -o "$T/pie"
	one "$cc static" "$T/st" $cc $I $WFLAGS -O2 -static "$PROBES_C" -o "$T/st"
	one "$cc shared" "$T/lib.so" $cc $I $WFLAGS -O2 -fPIC -shared \
		"$PROBES_C" -o "$T/lib.so"
done
# LTO: gcc's own, and clang's with lld (the gold plugin may be missing).
one "gcc -flto" "$T/lto" gcc $I $WFLAGS -O2 -flto "$PROBES_C" -o "$T/lto"
if command -v ld.lld >/dev/null 2>&1; then
	one "clang -flto" "$T/lto" clang $I $WFLAGS -O2 -flto -fuse-ld=lld \
		"$PROBES_C" -o "$T/lto"
fi
[ -x "$T/pie" ] && "$T/pie" || fail "the probed program does not run"

# -m32: Debian's i686 cross compilers (gcc-multilib conflicts with them).
if command -v i686-linux-gnu-gcc >/dev/null 2>&1; then
	L=4 P=4
	for std in c89 c11 gnu2x; do
		for o in -O0 -O1 -O2 -O3; do
			for f in "" -fPIC; do
				one "i686-gcc -std=$std $o $f" "$T/p.o" i686-linux-gnu-gcc \
					$I $WFLAGS -std=$std $o $f -c "$PROBES_C" -o "$T/p.o"
			done
		done
	done
	one "clang -m32" "$T/p.o" clang --target=i686-linux-gnu $I $WFLAGS -O2 \
		-c "$PROBES_C" -o "$T/p.o"
	for std in c++98 c++20; do
		one "clang++ -m32 $std" "$T/p.o" clang++ --target=i686-linux-gnu \
			$I $WFLAGS -O2 -std=$std -x c++ -c "$PROBES_C" -o "$T/p.o"
	done
	if command -v i686-linux-gnu-g++ >/dev/null 2>&1; then
		one "i686-g++" "$T/p.o" i686-linux-gnu-g++ $I $WFLAGS -O0 \
			-std=c++98 -x c++ -c "$PROBES_C" -o "$T/p.o"
	fi
	one "i686 shared" "$T/lib.so" i686-linux-gnu-gcc $I $WFLAGS -O2 -fPIC \
		-shared "$PROBES_C" -o "$T/lib.so"
	one "i686 static" "$T/st" i686-linux-gnu-gcc $I $WFLAGS -O2 -static \
		"$PROBES_C" -o "$T/st"
else
	skip "i686-linux-gnu-gcc is not installed: -m32 not covered ($count builds checked)"
fi
echo "PASS: $count builds, every spec valid"
