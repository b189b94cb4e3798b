#!/bin/sh
# Builds edit generated headers: memcached turns `void *' and `char *'
# into `const void *' and `const char *', postgres and ruby do the same
# after `(' and `,', and rename the macros. None of it may reach the
# typed-probe records the header writes: they are octal escapes. So
# sdt-list's listing, and --check's output and status, are the same with
# and without each edit. And the records' precedence: a -G record wins over
# a header's (a stale header loses quietly); a header's record is used
# where no -G record is; the link keeps one header record per probe, with
# -flto too. Last, bpftrace runs the program sdt-list
# --bpftrace prints for the memcached-edited build and reads the strings.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"

need_cmd objcopy python3 readelf
SDT_LIST=$top_builddir/sdt-list/sdt-list
READ="python3 $DG_DATA/typerec.py"
cd "$T" || fail "cd"
cat >ed.d <<'EOF_'
provider ed {
	probe item__link(const char *key, int nkey, void *item);
	probe conn__create(void *ptr);
	probe command(int fd, char *cmd, unsigned long long n, char **argv);
	probe done();
};
EOF_
cat >main.c <<'EOF_'
#include "ed.h"
int main(int argc, char **argv)
{
	char key[] = "key-1"; /* on the stack: a page BPF can read */

	ED_ITEM_LINK(key, 5, (void *)argv);
	ED_CONN_CREATE((void *)argv);
	ED_COMMAND(argc, argv[0], 2ULL, argv);
	ED_DONE();
	return ED_DONE_ENABLED();
}
EOF_
CFL="-O2 -Wall -Wextra -Werror -I$SDT_INCLUDE -I."
"$DG" -h -s ed.d -o ed.h.orig || fail "-h"

# build DIR HEADER-EDIT MAIN-EDIT: main.c compiled with the edited header,
# -G, linked; DIR/list and DIR/check hold sdt-list's outputs.
build() {
	mkdir "$1" && cp ed.d "$1" && sed "$2" ed.h.orig >"$1/ed.h" &&
		sed "$3" main.c >"$1/main.c" || fail "$1: setting up"
	(cd "$1" && $CC $CFL -c main.c -o main.o && "$DG" -G -s ed.d main.o &&
		$CC main.o ed.o -o prog) 2>"$1/err" || fail "$1: build: $(cat "$1/err")"
	"$SDT_LIST" "$1/prog" >"$1/list" 2>&1 || fail "$1: sdt-list: $(cat "$1/list")"
	"$SDT_LIST" --check "$1/prog" >"$1/check" 2>&1
	echo "status $?" >>"$1/check"
	sed -i "s|$1/prog|PROG|g" "$1/list" "$1/check"
}
build plain 's/^//' 's/^//'
grep -q '^ed:command(int fd, char \*cmd, unsigned long long n, char \*\*argv)  1 site, semaphore$' plain/list ||
	fail "the plain build's listing: $(cat plain/list)"
grep -q 'status 0' plain/check || fail "the plain build's check: $(cat plain/check)"
build memcached 's,void \*,const void \*,;s,char \*,const char \*,g' 's/^//'
grep -q 'const const char \*' memcached/ed.h || fail "the memcached edit did nothing"
# postgres renames the macros too: main.c is edited like the header.
build postgres 's/ED_/TRACE_ED_/g;s/( *char \*/(const char */g;s/, *char \*/, const char */g' \
	's/ED_/TRACE_ED_/g'
for edit in memcached postgres; do
	expect_eq "$edit: listing" "$(cat plain/list)" "$(cat $edit/list)"
	expect_eq "$edit: --check" "$(cat plain/check)" "$(cat $edit/check)"
	# The header's own records, byte for byte.
	expect_eq "$edit: the header's records" "$($READ --all plain/main.o)" \
		"$($READ --all $edit/main.o)"
done
$READ --all plain/main.o | grep -q '^\["ed", "command", "4", "int", "fd", "char \*", "cmd", "unsigned long long", "n", "char \*\*", "argv", "header"\]$' ||
	fail "the header's record: $($READ --all plain/main.o)"

# Only the header's records: the -G object's removed.
cd plain || fail "cd"
objcopy -R .note.sdtkit ed.o ed-bare.o && $CC main.o ed-bare.o -o bare ||
	fail "linking without -G records"
expect_eq "header records alone" "$(sed 's/PROG/bare/' list)" "$("$SDT_LIST" bare)"

# A stale header: its record says otherwise, the -G record wins, quietly.
sed 's/char \*cmd/long cmd/' ed.d >stale.d
# (-G over the objects it links with sees the stale record and writes
# its own.)
"$DG" -h -s stale.d -o stale.h && sed 's/"ed.h"/"stale.h"/' main.c >stale.c &&
	$CC -O2 -I"$SDT_INCLUDE" -I. -c stale.c -o stale.o &&
	"$DG" -G -s ed.d -o ed-stale.o stale.o &&
	$CC stale.o ed-stale.o -o stale || fail "building with the stale header"
"$SDT_LIST" --check stale >out 2>&1 || fail "--check failed on a stale header: $(cat out)"
grep -q '^ed:command(int fd, char \*cmd,' out || fail "the -G record lost: $(cat out)"
grep -q warning out && fail "a resolved disagreement warned: $(cat out)"

# Two headers that disagree, both firing ed:command, no -G record: the
# link keeps one record per probe, with -flto too (where the units are
# one assembler stream): -G over the objects is what settles it.
printf '#include "stale.h"\nvoid other(void);\nvoid other(void) { ED_COMMAND(1, 2, 3ULL, 0); }\n' >other.c
$CC -O2 -flto -I"$SDT_INCLUDE" -I. main.c other.c ed-bare.o -o twice ||
	fail "linking two headers' records"
expect_eq "two headers, -flto: records of ed:command" 1 \
	"$($READ twice | grep -c '"command"')"

cd "$T/memcached" || fail "cd"
"$SDT_LIST" --bpftrace prog >prog.bt || fail "sdt-list --bpftrace"
need_bpftrace
bpftrace_run prog.bt -c "./prog" >got || fail "bpftrace: $(cat got)"
grep -q '^ed:item__link key=key-1 nkey=5 item=0x' got &&
	grep -q '^ed:command fd=1 cmd=\./prog n=2 argv=0x' got ||
	fail "bpftrace did not read the strings: $(cat got)"
exit 0
