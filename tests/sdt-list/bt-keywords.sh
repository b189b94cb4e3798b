#!/bin/sh
# Struct fields named like bpftrace's words. Every word bpftrace 0.17,
# 0.23 or 0.27 gives a meaning (keywords, builtins, functions, types,
# stack modes), and every word its C parser takes for a keyword although a
# C11 compiler lets a struct member use it, names one int field of a struct
# a probe passes; sdt-list --bpftrace's program, run by the installed
# bpftrace, must print every field with its value. The words each version
# refuses after `->' (or in the struct definition) are listed below, and
# the installed bpftrace must refuse each word listed for it in a program
# written by hand: the list is what that bpftrace does, not a guess.
. "$top_srcdir/tests/lib.sh"
need_layouts
cd "$T" || fail "cd"

# Words with a meaning, by the version that has them (from each one's
# lexer and parser); C keywords, which no field can be named, left out.
words_017="unroll arg0 arg1 arg9 args cgroup comm cpid numaid cpu ctx curtask
elapsed func gid nsecs pid probe rand retval sarg0 sarg9 tid uid username avg
buf cat cgroupid clear count delete exit hist join kaddr kptr ksym lhist macaddr
max min ntop override print printf cgroup_path reg signal stats str strerror
strftime strncmp strcontains sum system time uaddr uptr usym zero path unwatch
bswap skboutput pton debugf kstack ustack bpftrace perf"
words_023="raw jiffies len has_key percpu_kaddr fn config offsetof let bool int8
int16 int32 int64 uint8 uint16 uint32 uint64 min_t max_t sum_t count_t avg_t
stats_t umin_t umax_t usum_t ucount_t uavg_t ustats_t probe_t lhist_t hist_t
usym_t ksym_t timestamp macaddr_t cgroup_path_t strerror_t kstack_t ustack_t
string inet buffer"
words_027="import macro true false typeof typeinfo comptime"
# Keywords of bpftrace's C parser (GNU C's, C23's) that C11 leaves free.
words_c="asm alignas alignof constexpr nullptr static_assert thread_local typeof_unqual"

# What each version refuses as a field name (seen: a syntax error after
# `->', or its C parser's error in the definition).
refused_017="unroll typeof asm"
refused_023="bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 string inet buffer typeof asm"
refused_027="typeof asm"

cat >kw.d <<'D'
provider kw {
	probe rec(struct kw *k);
};
D
n=0
fields=
sets=
for w in $words_017 $words_023 $words_027 $words_c; do
	n=$((n + 1))
	fields="$fields	int $w;
"
	sets="$sets	k.$w = $n;
"
done
cat >kw.c <<C
#include <string.h>
struct kw {
$fields};
#include "kw.h"
int main(void)
{
	struct kw k;
	memset(&k, 0, sizeof(k));
$sets	KW_REC(&k);
	return 0;
}
C
"$DG" -h -s kw.d -o kw.h || fail "dtrace-gen -h"
# C11 (not gnu11, not C23): typeof, asm, bool and true are names there.
$CC -std=c11 -g -O2 -I"$SDT_INCLUDE" -I. -c kw.c -o kw.o || fail "compile"
"$DG" -G -s kw.d -o probes.o kw.o || fail "dtrace-gen -G"
$CC kw.o probes.o -o kw || fail "link"
"$SDT_LIST" --bpftrace ./kw >kw.bt || fail "sdt-list --bpftrace"

need_bpftrace
ver=$(bpftrace --version | sed -n 's/^bpftrace v\([0-9]*\.[0-9]*\).*/\1/p')
case $ver in
0.17) refused=$refused_017 ;;
0.23) refused=$refused_023 ;;
0.27) refused=$refused_027 ;;
*)
	refused=
	note "bpftrace $ver: no list of the words it refuses"
	;;
esac

# The printed program prints every field, named as in the source.
bpftrace_run kw.bt -c ./kw >bt.out || fail "bpftrace refused the program: $(cat bt.out)"
got=$(sed -n 's/^kw:rec k: //p' bt.out | tr ' ' '\n' | grep -c .)
expect_eq "fields printed" "$n" "$got"
i=0
for w in $words_017 $words_023 $words_027 $words_c; do
	i=$((i + 1))
	sed -n 's/^kw:rec k: //p' bt.out | tr ' ' '\n' | grep -qx "$w=$i" ||
		fail "field $w: not printed as $w=$i: $(cat bt.out)"
done

# The list for this version is what it does.
for w in $refused; do
	cat >raw.bt <<BT
struct zz_kw { int $w; };
BEGIN { \$p = (struct zz_kw *)0; printf("%d\\n", \$p->$w); exit(); }
BT
	if bpftrace_compile raw.elf raw.bt; then
		fail "bpftrace $ver takes a field named $w: the list is out of date"
	fi
done
# ... and a word it does not list is taken.
cat >raw.bt <<'BT'
struct zz_kw { int count; };
BEGIN { $p = (struct zz_kw *)0; printf("%d\n", $p->count); exit(); }
BT
bpftrace_compile raw.elf raw.bt ||
	fail "bpftrace $ver refuses a field named count: $(cat "$T/.bpftrace.out")"
echo "PASS: bpftrace $ver prints all $n fields named like bpftrace words; it refuses ${refused:-none} by hand"
