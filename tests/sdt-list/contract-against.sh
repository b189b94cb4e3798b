#!/bin/sh
# sdt-list --against PROVIDER.d FILE...: a program built from a .d file
# with four ways of losing a probe, each named with its reason: one left
# out by an #ifdef (compiled out), one in a function --gc-sections drops
# (lld and mold keep the note, without code: dropped by the linker), one
# only in an object that is not linked in, and one whose .d now declares
# another argument count. With the #ifdef on and everything linked, the
# same check passes (exit 0). bpftrace confirms that the probes called
# missing do not attach.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
DG=$top_builddir/dtrace-gen/dtrace-gen

cat >"$T/shop.d" <<'EOF'
provider shop {
	probe order__start(const char *customer, int items);
	probe order__refund(long id);
	probe gc__dropped(int x);
	probe audit(int code);
	probe audit__done();
};
EOF
# The release's .d: order__start grew an argument the code does not pass.
sed 's/probe order__start(const char \*customer, int items);/probe order__start(const char *customer, int items, long total);/' \
	"$T/shop.d" >"$T/shop-next.d"
cat >"$T/main.c" <<'EOF'
#include "shop.h"
void unused_fn(int x);
__attribute__((noinline)) void unused_fn(int x)
{
	SHOP_GC_DROPPED(x);
}
int main(int argc, char **argv)
{
	SHOP_ORDER_START(argv[0], argc);
#ifdef WITH_REFUND
	SHOP_ORDER_REFUND(1L);
#endif
	return 0;
}
EOF
cat >"$T/audit.c" <<'EOF'
#include "shop.h"
void audit(int code)
{
	SHOP_AUDIT(code);
	SHOP_AUDIT_DONE();
}
EOF
cd "$T" || fail "cd $T"
"$DG" -h -s shop.d -o shop.h || fail "dtrace-gen -h"
$CC -O2 -ffunction-sections -I"$SDT_INCLUDE" -c main.c -o main.o || fail "compile main.c"
$CC -O2 -I"$SDT_INCLUDE" -c audit.c -o audit.o || fail "compile audit.c"
"$DG" -G -s shop.d -o probes.o main.o audit.o || fail "dtrace-gen -G"
$CC -o prog main.o probes.o || fail "link prog"

# Without the objects, the reason cannot be told apart.
"$SDT_LIST" --against shop.d prog >out1.txt 2>&1
rc=$?
[ $rc = 1 ] || fail "--against without objects exited $rc: $(cat out1.txt)"
grep -q '^MISSING shop:order__refund: no file given has a site' out1.txt ||
	fail "order__refund not reported missing: $(cat out1.txt)"

# With them: compiled out, and only in another object (audit.o).
"$SDT_LIST" --against shop.d prog main.o audit.o >out2.txt 2>&1
rc=$?
[ $rc = 1 ] || fail "--against with objects exited $rc: $(cat out2.txt)"
expect_eq "--against shop.d prog main.o audit.o" \
"MISSING shop:order__refund: compiled out: no file given has a site, objects included (an #ifdef left the probe out, or it is only in an object not given)
MISSING shop:audit: only in another object: audit.o has a site, but none of its probes is in the linked files given (it is not linked into them)
MISSING shop:audit__done: only in another object: audit.o has a site, but none of its probes is in the linked files given (it is not linked into them)
shop.d: 5 probes declared: 2 present as declared, 3 missing, 0 different" "$(cat out2.txt)"

# Everything in, the #ifdef on: the check passes.
$CC -O2 -I"$SDT_INCLUDE" -DWITH_REFUND -c main.c -o main-all.o || fail "compile main.c -DWITH_REFUND"
"$DG" -G -s shop.d -o probes-all.o main-all.o audit.o || fail "dtrace-gen -G (all)"
$CC -o prog-all main-all.o audit.o probes-all.o || fail "link prog-all"
"$SDT_LIST" --against shop.d prog-all main-all.o audit.o >out3.txt 2>&1 ||
	fail "--against on the complete build failed: $(cat out3.txt)"
expect_eq "--against (complete)" "shop.d: 5 probes declared: 5 present as declared, 0 missing, 0 different" "$(cat out3.txt)"

# A provider file a build preprocesses (dtrace -C): the same options give
# the same verdict, and the #ifdef is evaluated, not read through.
{ echo '#define CODE_ARG int code'; sed 's/probe audit(int code);/probe audit(CODE_ARG);\n#ifdef WITH_NEXT\n\tprobe next__only();\n#endif/' shop.d; } >shop-cpp.d
"$SDT_LIST" --against -C shop-cpp.d prog-all >out7.txt 2>&1 ||
	fail "--against -C on the complete build failed: $(cat out7.txt)"
expect_eq "--against -C" "shop-cpp.d: 5 probes declared: 5 present as declared, 0 missing, 0 different" "$(cat out7.txt)"
"$SDT_LIST" --against -C -D WITH_NEXT shop-cpp.d prog-all >out7.txt 2>&1
[ $? = 1 ] && grep -q '^MISSING shop:next__only' out7.txt ||
	fail "--against -C -D WITH_NEXT: next__only not missing: $(cat out7.txt)"

# The next release's .d declares a third argument for order__start.
"$SDT_LIST" --against shop-next.d prog-all >out4.txt 2>&1
[ $? = 1 ] || fail "--against shop-next.d did not exit 1: $(cat out4.txt)"
grep -q '^MISMATCH shop:order__start: 3 arguments declared, prog-all has 2$' out4.txt ||
	fail "argument count not reported: $(cat out4.txt)"
# ... and another type for audit's argument, which the build recorded.
sed 's/probe audit(int code);/probe audit(unsigned long code);/' shop.d >shop-type.d
"$SDT_LIST" --against shop-type.d prog-all >out6.txt 2>&1
[ $? = 1 ] || fail "--against shop-type.d did not exit 1: $(cat out6.txt)"
expect_eq "--against shop-type.d" "MISMATCH shop:audit: arg0 declared \`unsigned long', prog-all records \`int'
shop-type.d: 5 probes declared: 4 present as declared, 0 missing, 1 different" "$(cat out6.txt)"

# --gc-sections: GNU ld keeps functions a note points at; lld and mold drop
# the function and keep its note, without code.
gc=
for ld in lld mold; do
	if $CC -fuse-ld=$ld -Wl,--gc-sections -o prog-gc main.o probes.o 2>/dev/null; then
		gc=$ld
		break
	fi
done
if [ -n "$gc" ]; then
	"$SDT_LIST" --against shop.d prog-gc main.o >out5.txt 2>&1
	[ $? = 1 ] || fail "--against prog-gc did not exit 1: $(cat out5.txt)"
	grep -q '^MISSING shop:gc__dropped: dropped by the linker: prog-gc keeps its note but not its code' out5.txt ||
		fail "$gc --gc-sections: gc__dropped not reported dropped: $(cat out5.txt)"
	note "$gc --gc-sections: gc__dropped reported dropped by the linker"
else
	note "neither lld nor mold links here: the --gc-sections case was not run"
fi

# bt_attaches BIN PROGRAM: bpftrace attaches PROGRAM while it runs BIN
# (judged by its exit status: alone, an attach point that matches nothing
# is an error); its words are in $T/bt.out.
bt_attaches() {
	bpftrace_run -e "$2" -c "$1" >"$T/bt.out" 2>&1
}
# bpftrace agrees: what --against calls missing does not attach.
if [ "$(id -u)" = 0 ] && command -v bpftrace >/dev/null 2>&1; then
	for probe in order__refund audit; do
		bt_attaches "$T/prog" "usdt:$T/prog:shop:$probe { exit(); }" &&
			fail "bpftrace attached shop:$probe, which --against calls missing: $(cat "$T/bt.out")"
	done
	if [ -n "$gc" ]; then
		bt_attaches "$T/prog-gc" "usdt:$T/prog-gc:shop:gc__dropped { exit(); }" &&
			fail "bpftrace attached gc__dropped in $gc's prog-gc: $(cat "$T/bt.out")"
	fi
	bt_attaches "$T/prog" "usdt:$T/prog:shop:order__start { exit(); }" ||
		fail "bpftrace cannot attach order__start, which --against found: $(cat "$T/bt.out")"
	note "bpftrace: order__refund and audit do not attach, order__start does"
fi

# Bad input: a clear error and exit 2, never a hang on a FIFO; a file that
# declares no probe is no contract.
mkfifo fifo || fail "mkfifo"
printf 'not a provider\n' >empty.d
for args in "--against fifo prog" "--against /dev/zero prog" "--against empty.d prog" \
	"--against shop.d fifo" "--against shop.d" "--against nonexistent.d prog"; do
	# shellcheck disable=SC2086
	timeout 10 "$SDT_LIST" $args >bad.out 2>&1
	rc=$?
	[ $rc = 2 ] || fail "sdt-list $args exited $rc, not 2: $(cat bad.out)"
done
