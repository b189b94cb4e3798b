#!/bin/sh
# Typed-probe records (docs/typed-probes.md), read back by a reader of our
# own words in Python over readelf, never by our C code: from -G and from
# the -h header, through two objects and a shared library linked with
# --gc-sections by every linker here, then strip and objcopy; the stapsdt
# notes and the code are byte for byte what they are without the records;
# and each cross target's byte order.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"

need_cmd python3 readelf objcopy strip
command -v "$CC" >/dev/null 2>&1 || skip "no C compiler ($CC)"
cd "$T" || fail "cd"
D=$DG_DATA/inputs/typed.d
READ="python3 $DG_DATA/typerec.py"

# What typed.d declares, as the records must say it: -C made txn_id_t and
# QUERY_TEXT, typedef names stay, unnamed arguments have "".
cat >want-typed <<'EOF_'
["typed", "query__start", "2", "const char *", "query", "struct conn *", "conn"]
["typed", "ints", "10", "signed char", "a", "unsigned char", "b", "short", "c", "unsigned short", "d", "int", "e", "unsigned int", "f", "long", "g", "unsigned long", "h", "long long", "i", "unsigned long long", "j"]
["typed", "fixed", "10", "int8_t", "a", "uint8_t", "b", "int16_t", "c", "uint16_t", "d", "int32_t", "e", "uint32_t", "f", "int64_t", "g", "uint64_t", "h", "uintptr_t", "p", "size_t", "n"]
["typed", "txn", "3", "unsigned int", "xid", "conn_id_t", "id", "conn_t *", "c"]
["typed", "unnamed", "4", "const char *", "", "struct conn *", "", "conn_id_t", "", "unsigned", ""]
["typed", "spaced", "2", "const char *const *", "argv", "char **", "env"]
["typed", "callback", "2", "int (*)(void *, int)", "cb", "void *", "arg"]
["typed", "none", "0"]
["typed", "nothing", "0"]
["typed", "translated", "1", "conn_t *", "c"]
EOF_
cat >lib.d <<'EOF_'
provider typed_lib {
	probe open(const char *path, int flags);
	probe close(int);
};
EOF_
cat >want-lib <<'EOF_'
["typed_lib", "open", "2", "const char *", "path", "int", "flags"]
["typed_lib", "close", "1", "int", ""]
EOF_

# records FILE: the first record of each probe, in order of first
# appearance; fails when two records of one probe disagree.
records() {
	$READ "$1" >rec.all || fail "$1: the reader refused the records"
	awk -F'", "' '{ k = $1 FS $2 }
		k in seen { if (seen[k] != $0) { print "DIFFER " $0; exit 1 } next }
		{ seen[k] = $0; print }' rec.all ||
		fail "$1: two records of one probe differ: $(tail -n 1 rec.all)"
}
expect_records() { # WHAT FILE WANT
	expect_eq "$1: records" "$(cat "$3")" "$(records "$2")"
}

"$DG" -C -h -s "$D" -o typed.h || fail "-h"
"$DG" -C -G -s "$D" -o typed-probes.o || fail "-G"
"$DG" -h -s lib.d -o lib.h && "$DG" -G -s lib.d -o lib-probes.o || fail "lib.d"
expect_records "-G object" typed-probes.o want-typed
readelf -SW typed-probes.o | grep -q ' \.note\.sdtkit *NOTE .* 4$' ||
	fail "-G: .note.sdtkit is not a non-allocated NOTE section aligned to 4"

# A parameter that is only a declarator has no type to record.
printf 'provider w {\n\tprobe a(int, *p);\n};\n' >bad.d
"$DG" -G -s bad.d -o bad.o 2>err && fail "a parameter without a type passed"
grep -q "^bad.d:2:15: error: parameter 2 of probe \`a' has no type" err ||
	fail "no-type message: $(cat err)"
[ ! -e bad.o ] || fail "a failed run left bad.o"

# Two objects of the program, one of the library; C, C++, gcc, clang.
cat >a.c <<'EOF_'
#include "typed.h"
void lib_open(const char *path);
int fire_a(const char *q, int n);
int fire_a(const char *q, int n)
{
	TYPED_QUERY_START(q, (void *)0);
	TYPED_INTS(-1, 1, -2, 2, -3, 3u, -4L, 4UL, -5LL, 5ULL);
	TYPED_FIXED(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
	lib_open(q);
	return n + (TYPED_TXN_ENABLED() ? 1 : 0);
}
EOF_
cat >b.c <<'EOF_'
#include "typed.h"
int fire_a(const char *q, int n);
int main(int argc, char **argv)
{
	int (*cb)(const char *, int) = fire_a;
	TYPED_TXN(1u, 2ULL, (void *)argv);
	TYPED_UNNAMED("x", (void *)0, 3ULL, 4u);
	TYPED_SPACED(argv, argv);
	TYPED_CALLBACK(cb, (void *)0);
	TYPED_NONE();
	TYPED_NOTHING();
	TYPED_TRANSLATED((void *)0);
	return fire_a(argv[0], argc) == 99;
}
EOF_
cat >lib.c <<'EOF_'
#include "lib.h"
void lib_open(const char *path);
void lib_open(const char *path)
{
	TYPED_LIB_OPEN(path, 0);
	TYPED_LIB_CLOSE(3);
}
EOF_
INC="-I$SDT_INCLUDE -I."
CFL="-O2 -ffunction-sections -fdata-sections"
$CC $CFL $INC -c a.c -o a.o && $CC $CFL $INC -c b.c -o b.o &&
	$CC $CFL $INC -fPIC -c lib.c -o lib.o || fail "compiling"
# Each object that includes the header has the records of the probes it
# fires, from the header: a.o the first three, b.o the others.
head -n 3 want-typed >want-a
tail -n +4 want-typed >want-b
expect_records "a.o (header only)" a.o want-a
expect_records "lib.o (header only)" lib.o want-lib
$CC -shared -o libtl.so lib.o lib-probes.o -Wl,--gc-sections ||
	fail "linking the library"

linkers=default
for ld in gold lld; do
	$CC -fuse-ld=$ld -shared -o probe-ld lib.o 2>/dev/null &&
		linkers="$linkers $ld"
done
note "linkers: $linkers"
for ld in $linkers; do
	use=; [ $ld = default ] || use=-fuse-ld=$ld
	$CC $use -o prog-$ld a.o b.o typed-probes.o -L. -ltl -Wl,-rpath,. \
		-Wl,--gc-sections || fail "$ld: linking the program"
	expect_records "$ld: program" prog-$ld want-typed
	# Each file keeps its own: the library's records are not the program's.
	LD_LIBRARY_PATH=. ./prog-$ld || fail "$ld: the program failed"
done
expect_records "library" libtl.so want-lib

# strip and objcopy keep them; only asking for it removes them.
cp prog-default s1 && strip s1 && expect_records "strip" s1 want-typed
strip --strip-debug -o s2 prog-default && expect_records "strip -g" s2 want-typed
objcopy prog-default c1 && expect_records "objcopy" c1 want-typed
objcopy --remove-section=.comment --strip-unneeded prog-default c2 &&
	expect_records "objcopy --strip-unneeded" c2 want-typed
objcopy -R .note.sdtkit prog-default c4 &&
	expect_eq "objcopy -R .note.sdtkit" "" "$($READ c4)"

# The stapsdt notes and the code, byte for byte, without any record: the
# header's (SDTKIT_NO_TYPES) and the -G object's (removed) both gone.
stapsdt() { readelf -x .note.stapsdt "$1" | tail -n +3; }
text() { objcopy -O binary --only-section=.text "$1" "$1.text" && od -An -tx1 "$1.text"; }
$CC $CFL $INC -DSDTKIT_NO_TYPES -c a.c -o a0.o &&
	$CC $CFL $INC -DSDTKIT_NO_TYPES -c b.c -o b0.o || fail "compiling without"
objcopy -R .note.sdtkit typed-probes.o probes0.o || fail "objcopy -R"
$CC -o prog0 a0.o b0.o probes0.o -L. -ltl -Wl,-rpath,. -Wl,--gc-sections ||
	fail "linking without records"
expect_eq "SDTKIT_NO_TYPES" "" "$($READ a0.o prog0)"
[ -n "$(stapsdt prog0)" ] || fail "no stapsdt notes to compare"
expect_eq "stapsdt notes with and without records" "$(stapsdt prog0)" \
	"$(stapsdt prog-default)"
expect_eq "readelf -n of the stapsdt notes" \
	"$(readelf -nW prog0 | sed -n '/\.note\.stapsdt/,/^$/p')" \
	"$(readelf -nW prog-default | sed -n '/\.note\.stapsdt/,/^$/p')"
expect_eq "program code with and without records" "$(text prog0)" \
	"$(text prog-default)"
# One source of records is enough: -G only, or the header only.
$CC -o prog-g a0.o b0.o typed-probes.o -L. -ltl -Wl,-rpath,. &&
	expect_records "-G object only" prog-g want-typed
$CC -o prog-h a.o b.o probes0.o -L. -ltl -Wl,-rpath,. &&
	expect_records "header only" prog-h want-typed
# Both objects brought every record; the COMDAT groups leave one of each.
expect_eq "header only: one copy of each record" "$(cat want-typed)" \
	"$($READ prog-h)"

# The header's records add no instruction and move no note, for each
# compiler, language and optimization level.
n=0
for cc in gcc clang g++ clang++; do
	command -v $cc >/dev/null 2>&1 || continue
	lang=; case $cc in *++) lang="-x c++" ;; esac
	for o in -O0 -O2; do
		$cc $lang $o $INC -c b.c -o x1.o &&
			$cc $lang $o $INC -DSDTKIT_NO_TYPES -c b.c -o x0.o ||
			fail "$cc $o: compiling"
		expect_records "$cc $lang $o" x1.o want-b
		expect_eq "$cc $o: code" "$(text x0.o)" "$(text x1.o)"
		expect_eq "$cc $o: stapsdt notes" "$(stapsdt x0.o)" "$(stapsdt x1.o)"
		n=$((n + 1))
	done
done
note "$n compiler/level pairs"

# Cross targets: the byte order and class of the target, from -G (by the
# object it links with, or by \$CC alone) and from the header's records.
for t in aarch64-linux-gnu i686-linux-gnu s390x-linux-gnu \
	 powerpc64-linux-gnu arm-linux-gnueabihf; do
	CC=$t-gcc "$DG" -C -G -s "$D" -o g-$t.o || fail "$t: -G by \$CC"
	expect_records "$t: -G by \$CC" g-$t.o want-typed
	data=$(readelf -h g-$t.o | sed -n 's/^ *Data: *//p')
	case $t in
	s390x* | powerpc64-*) want=big ;;
	*) want=little ;;
	esac
	case $data in *"$want endian"*) ;; *) fail "$t: -G object is $data" ;; esac
	for cc in "$t-gcc" "clang --target=$t"; do
		command -v ${cc%% *} >/dev/null 2>&1 || continue
		$cc -O2 $INC -c a.c -o c-$t.o 2>/dev/null || continue
		expect_records "$cc: header" c-$t.o want-a
		"$DG" -C -G -s "$D" -o o-$t.o c-$t.o || fail "$t: -G"
		# The object's sites carry the records already: -G adds none.
		expect_eq "$t: -G from its object: records" "" "$($READ o-$t.o)"
		expect_eq "$t: the object's byte order" \
			"$(readelf -h c-$t.o | grep Data:)" \
			"$(readelf -h o-$t.o | grep Data:)"
		note "$cc: checked"
	done
done
exit 0
