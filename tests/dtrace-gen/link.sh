#!/bin/sh
# -G objects against the oracle (binutils `as' assembling the equivalent
# .s: same sections, flags, symbols), and linked for real: gcc and clang,
# ld.bfd, gold and lld, executables and shared libraries (libtool-style
# -fPIC -DPIC objects, passed as .lo), on x86-64, i386 and aarch64; the
# target is taken from the objects, from -32/-64, or from $CC.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"
need_cmd readelf
cd "$T" || fail "cd"

cat >p.d <<'D'
provider lk { probe first(int); probe second__one(const char *, long); };
provider other { probe x(); };
D
"$DG" -h -s p.d -o p.h || fail "-h"
cat >use.c <<'C'
#include "p.h"
int lk_use(int n)
{
	if (LK_FIRST_ENABLED())
		LK_FIRST(n);
	LK_SECOND_ONE("s", (long)n);
	OTHER_X();
	return LK_SECOND_ONE_ENABLED() + OTHER_X_ENABLED();
}
C
printf 'int lk_use(int);\nint main(void) { return lk_use(3); }\n' >main.c

# The .s an assembler turns into the same object (hidden unless V2).
oracle_s() {
	for s in lk_first_semaphore lk_second__one_semaphore other_x_semaphore; do
		printf '\t.section .probes,"aw",%%progbits\n\t.balign 2\n'
		printf '\t.globl %s\n' $s
		[ "$1" = hidden ] && printf '\t.hidden %s\n' $s
		printf '\t.type %s, %%object\n\t.size %s, 2\n%s:\n\t.zero 2\n' $s $s $s
	done
	printf '\t.section .note.GNU-stack,"",%%progbits\n'
}

# check_target NAME CC AS [RUNNER]: objects from CC, -G from them, the
# oracle from AS, links, and (with RUNNER or natively) a run.
check_target() {
	name=$1 cc=$2 as=$3 run=${4:-}
	command -v "$cc" >/dev/null 2>&1 || { note "$name: no $cc, skipped"; return 0; }
	mkdir "$name" && cd "$name" || fail "mkdir $name"
	$cc -I"$SDT_INCLUDE" -I.. -O2 -c -o use.o ../use.c || fail "$name: compile"
	$cc -O2 -c -o main.o ../main.c || fail "$name: compile main"
	"$DG" -G -s ../p.d -o probes.o use.o || fail "$name: -G"
	for vis in hidden visible; do
		oracle_s $vis >oracle.s
		$as -o oracle.o oracle.s || fail "$name: $as"
		if [ $vis = hidden ]; then
			f=probes.o
		else
			"$DG" -G -DSTAP_SDT_V2 -s ../p.d -o v2.o use.o || fail "$name: -G V2"
			f=v2.o
		fi
		expect_eq "$name ($vis): -G object vs as" "$(obj_summary oracle.o)" "$(obj_summary $f)"
		expect_eq "$name ($vis): e_flags" \
			"$(readelf -hW oracle.o | grep Flags:)" "$(readelf -hW $f | grep Flags:)"
	done
	$cc -o prog main.o use.o probes.o || fail "$name: link"
	# Each note's semaphore is its symbol in .probes.
	"$SDT_NOTES" prog >notes || fail "$name: sdt-notes"
	for s in lk:first:lk_first lk:second__one:lk_second__one other:x:other_x; do
		p=${s%:*}
		addr=$(sed -n "s/^$p .*sema=0x\([0-9a-f]*\).*/\1/p" notes)
		sym=$(readelf -sW prog | awk -v n="${s##*:}_semaphore" '$8 == n { print $2; exit }')
		[ -n "$addr" ] && [ -n "$sym" ] || fail "$name: $p: no semaphore ($addr/$sym)"
		[ $((0x$addr)) = $((0x$sym)) ] || fail "$name: $p: note says 0x$addr, symbol is 0x$sym"
	done
	if [ -n "$run" ] || [ "$name" = x86_64 ]; then
		$run ./prog
		[ $? = 0 ] || fail "$name: _ENABLED() true with no tracer attached"
		note "$name: matches as, links, runs${run:+ under $run}"
	else
		note "$name: matches as, links"
	fi
	cd ..
}

check_target x86_64 "${CC:-gcc}" as
check_target i386 i686-linux-gnu-gcc i686-linux-gnu-as
qemu=
if can_run_aarch64; then
	qemu=$QEMU_AARCH64
else
	note "aarch64 program linked, not run: $why_aarch64"
fi
check_target aarch64 aarch64-linux-gnu-gcc aarch64-linux-gnu-as "$qemu"

# Target without objects: -32/-64 and $CC.
"$DG" -G -32 -s p.d -o m32.o || fail "-32"
expect_eq "-32" "Class: ELF32" "$(obj_summary m32.o | grep Class)"
CC=aarch64-linux-gnu-gcc "$DG" -G -s p.d -o cc.o || fail "CC=aarch64"
expect_eq "CC=aarch64-linux-gnu-gcc" "Machine: AArch64" "$(obj_summary cc.o | grep Machine)"
CC="clang --target=i686-linux-gnu" "$DG" -G -s p.d -o cc32.o || fail "CC=clang --target"
expect_eq "clang --target=i686" "Machine: Intel 80386" "$(obj_summary cc32.o | grep Machine)"
# Objects for two machines: an error.
if [ -f aarch64/use.o ]; then
	"$DG" -G -s p.d -o mixed.o x86_64/use.o aarch64/use.o 2>err &&
		fail "objects of two machines accepted"
	grep -q 'is for aarch64' err || fail "mixed machines: $(cat err)"
fi

# gcc/clang x ld.bfd/gold/lld, executables and libtool-style shared libs.
mkdir libs && cd libs || fail "mkdir"
mkdir .libs
$CC -I"$SDT_INCLUDE" -I.. -fPIC -DPIC -O2 -c ../use.c -o .libs/use.o || fail "PIC compile"
printf "# use.lo - a libtool object file\npic_object='.libs/use.o'\nnon_pic_object=none\n" >use.lo
"$DG" -G -s ../p.d -o .libs/probes.o use.lo || fail "-G with .lo"
expect_eq ".lo target" "Class: ELF64" "$(obj_summary .libs/probes.o | grep Class)"
# gold is a package of its own from binutils 2.44 (binutils-gold): a
# linker not installed is left out, and the test skips at the end.
n=0 missing=
for ld in bfd gold lld; do
	command -v ld.$ld >/dev/null 2>&1 || missing="$missing ld.$ld"
done
for cc in gcc clang; do
	command -v $cc >/dev/null || continue
	for ld in bfd gold lld; do
		command -v ld.$ld >/dev/null 2>&1 || continue
		$cc -fuse-ld=$ld -o t.$cc.$ld ../x86_64/main.o ../x86_64/use.o ../x86_64/probes.o \
			2>err || fail "$cc -fuse-ld=$ld executable: $(cat err)"
		./t.$cc.$ld || fail "$cc/$ld: executable misbehaves"
		$cc -fuse-ld=$ld -shared -o libt.$cc.$ld.so .libs/use.o .libs/probes.o \
			2>err || fail "$cc -fuse-ld=$ld shared library: $(cat err)"
		$cc -fuse-ld=$ld -o s.$cc.$ld ../x86_64/main.o -L. -lt.$cc.$ld \
			-Wl,-rpath,"$PWD" 2>err || fail "$cc/$ld: link with the library: $(cat err)"
		./s.$cc.$ld || fail "$cc/$ld: library misbehaves"
		"$SDT_NOTES" libt.$cc.$ld.so | grep -q 'sema=0x0 ' &&
			fail "$cc/$ld: library probe without semaphore"
		n=$((n + 1))
	done
done
note "$n compiler/linker pairs"
[ -z "$missing" ] || skip "not installed:$missing (the rest passed)"
exit 0
