#!/bin/sh
# Probes as a contract on real binaries that no one here wrote.
#
# 1. bpftrace programs written from each runtime's documented probe list
#    (tests/sdt-list/contract/*.bt: CPython 3.11, PHP 8.2, Ruby 3.1,
#    HotSpot 17, PostgreSQL 15) and the probes bcc's language tools
#    (ucalls, uflow, ugc, uobjnew, dbslower) attach to, read from their
#    sources (contract/bcc-*.bt), checked with --script against Debian 12's
#    binaries. All attach, except Ruby's documented method__cache__clear,
#    which Ruby 3.1 no longer has (bpftrace: "No probes to attach"), and
#    blocks reading HotSpot's and PostgreSQL's arguments past arg5, which
#    bpftrace 0.17 refuses on x86_64.
# 2. With SDTKIT_PEER_ROOT naming a directory where Debian 13's packages
#    are unpacked (scripts/fetch-peer-release makes one): --diff between
#    PostgreSQL 15 and 17 lists exactly the changes readelf shows (checked
#    by hand, and below by a readelf count); CPython 3.11 against 3.13;
#    libstdc++ 12 against 14 (files libstdc++.so.6.0.30 and .33) paired by
#    SONAME; and the PostgreSQL 15 program against PostgreSQL 17, flagged
#    where bpftrace fails on it.
# Parts whose binaries are not installed are skipped with a note; with none
# at all, the test skips.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sdt-list/lib.sh"
C=$top_srcdir/tests/sdt-list/contract
PEER=${SDTKIT_PEER_ROOT:-}
ran=0
can_bpftrace=
[ "$(id -u)" = 0 ] && command -v bpftrace >/dev/null 2>&1 && can_bpftrace=1

# script PROG.bt BINARY EXPECTED: --script's problems are EXPECTED lines.
script() {
	if [ ! -e "$2" ]; then
		note "$2 is not installed: $1 not checked"
		return
	fi
	"$SDT_LIST" --script "$C/$1" "$2" >"$T/out" 2>&1
	rc=$?
	got=$(grep -v ': [0-9]* usdt attach point' "$T/out" |
		sed 's/^[^:]*:[0-9]*: //; s/ in [^:]*: /: /')
	expect_eq "--script $1 $2" "$3" "$got"
	[ -z "$3" ] && [ $rc != 0 ] && fail "--script $1 exited $rc"
	[ -n "$3" ] && [ $rc != 1 ] && fail "--script $1 exited $rc, not 1"
	note "$1 on $2: $(tail -n 1 "$T/out" | sed 's/^[^:]*: //')"
	ran=$((ran + 1))
}

PY=/usr/bin/python3.11
PHP=/usr/bin/php8.2
RUBY=/usr/lib/x86_64-linux-gnu/libruby-3.1.so.3.1
JVM=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
PG=/usr/lib/postgresql/15/bin/postgres
# Documented arguments past arg5 (HotSpot's, PostgreSQL's) are past what
# bpftrace 0.17 reads on x86_64: it refuses such a program.
MAX="bpftrace 0.17 reads arg0 to arg5 on x86_64 and refuses the program"

script python3.11.bt $PY ""
script php8.2.bt $PHP ""
script ruby3.1.bt $RUBY "usdt:$RUBY:ruby:method__cache__clear: would not attach: no probe ruby:method__cache__clear here"
script libjvm17.bt $JVM "usdt:$JVM:hotspot:mem__pool__gc__begin: reads arg7: $MAX
usdt:$JVM:hotspot:mem__pool__gc__end: reads arg7: $MAX
usdt:$JVM:hotspot:method__entry: reads arg6: $MAX
usdt:$JVM:hotspot:method__return: reads arg6: $MAX"
script postgres15.bt $PG "usdt:$PG:postgresql:buffer__read__start: reads arg6: $MAX
usdt:$PG:postgresql:buffer__read__done: reads arg7: $MAX
usdt:$PG:postgresql:smgr__md__read__done: reads arg7: $MAX
usdt:$PG:postgresql:smgr__md__write__done: reads arg7: $MAX"
script bcc-python.bt $PY ""
script bcc-php.bt $PHP ""
script bcc-ruby.bt $RUBY ""
script bcc-java.bt $JVM "usdt:$JVM:mem__pool__gc__begin: reads arg7: $MAX
usdt:$JVM:mem__pool__gc__end: reads arg7: $MAX"
script bcc-postgres.bt $PG ""

if [ -n "$can_bpftrace" ] && [ -e "$RUBY" ]; then
	out=$(bpftrace_run -e "usdt:$RUBY:ruby:method__cache__clear { exit(); }" -c /bin/true)
	case $out in
	*"No probes to attach"*) note "bpftrace: no ruby:method__cache__clear either" ;;
	*) fail "bpftrace attached ruby:method__cache__clear: $out" ;;
	esac
fi
if [ -n "$can_bpftrace" ] && [ -e "$PY" ]; then
	# The whole documented CPython program attaches and runs.
	out=$(bpftrace_run "$C/python3.11.bt" -c "$PY -c pass")
	case $out in
	*"Attaching 8 probes"*) note "bpftrace: python3.11.bt attaches its 8 probes" ;;
	*) fail "bpftrace on python3.11.bt: $out" ;;
	esac
fi

if [ -z "$PEER" ]; then
	note "SDTKIT_PEER_ROOT is not set: the Debian 13 release pairs were not compared"
elif [ ! -d "$PEER" ]; then
	fail "SDTKIT_PEER_ROOT=$PEER is not a directory"
else
	PG17=$PEER/usr/lib/postgresql/17/bin/postgres
	if [ -e "$PG" ] && [ -e "$PG17" ]; then
		"$SDT_LIST" --diff "$PG" "$PG17" >"$T/pg.txt" 2>&1
		[ $? = 1 ] || fail "--diff postgres 15 17 did not exit 1: $(cat "$T/pg.txt")"
		expect_eq "--diff postgres 15 17" "~ postgresql:buffer__read__done: argument-count 8 -> 7  BREAKING
~ postgresql:buffer__read__done: arg6 size unsigned 1 bytes -> signed 4 bytes  BREAKING
~ postgresql:buffer__read__done: site-count 2 -> 7
~ postgresql:buffer__read__start: argument-count 7 -> 6  BREAKING
~ postgresql:buffer__read__start: site-count 1 -> 5
- postgresql:buffer__write__dirty__done: removed  BREAKING
- postgresql:buffer__write__dirty__start: removed  BREAKING
~ postgresql:smgr__md__read__done: arg7 size signed 4 bytes -> unsigned 8 bytes  BREAKING
~ postgresql:smgr__md__write__done: arg7 size signed 4 bytes -> unsigned 8 bytes  BREAKING
+ postgresql:buffer__extend__done: added
+ postgresql:buffer__extend__start: added
2 added, 2 removed, 4 changed; 7 breaking changes" "$(sed 1,2d "$T/pg.txt")"
		# readelf agrees on the probe names and sites
		for f in "$PG" "$PG17"; do
			readelf -nW "$f" | sed -n 's/^ *Name: //p' | sort | uniq -c
		done >"$T/names"
		expect_eq "readelf: sites of buffer__read__start in 15 and 17" \
			"1 5" "$(awk '$2 == "buffer__read__start" { printf "%s%s", s, $1; s = " " }' "$T/names")"
		script postgres15.bt "$PG17" "usdt:$PG:postgresql:buffer__read__start: reads arg6: $MAX
usdt:$PG:postgresql:buffer__read__start: reads arg6 past the last argument: postgresql:buffer__read__start has 6
usdt:$PG:postgresql:buffer__read__done: reads arg7: $MAX
usdt:$PG:postgresql:buffer__read__done: reads arg7 past the last argument: postgresql:buffer__read__done has 7
usdt:$PG:postgresql:buffer__write__dirty__start: would not attach: no probe postgresql:buffer__write__dirty__start here
usdt:$PG:postgresql:buffer__write__dirty__done: would not attach: no probe postgresql:buffer__write__dirty__done here
usdt:$PG:postgresql:smgr__md__read__done: reads arg7: $MAX
usdt:$PG:postgresql:smgr__md__write__done: reads arg7: $MAX"
		if [ -n "$can_bpftrace" ]; then
			out=$(bpftrace_run -e "usdt:$PG:postgresql:buffer__read__start { @ = arg6; exit(); }" -c /bin/true)
			case $out in
			*"doesn't support arg6"*) ;;
			*) fail "bpftrace read arg6 of postgres 15's buffer__read__start: $out" ;;
			esac
			out=$(bpftrace_run -e "usdt:$PG17:postgresql:buffer__write__dirty__start { exit(); }" -c /bin/true)
			case $out in
			*"No probes to attach"*) ;;
			*) fail "bpftrace attached postgres 17's buffer__write__dirty__start: $out" ;;
			esac
			note "bpftrace: no arg6 on x86_64, no buffer__write__dirty__start in postgres 17"
		fi
	else
		note "PostgreSQL 15 or 17 missing: the PostgreSQL pair was not compared"
	fi

	PY13=$PEER/usr/lib/x86_64-linux-gnu/libpython3.13.so.1.0
	PY11=/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0
	if [ -e "$PY11" ] && [ -e "$PY13" ]; then
		"$SDT_LIST" --diff "$PY11" "$PY13" >"$T/py.txt" 2>&1
		[ $? = 1 ] || fail "--diff libpython 3.11 3.13 did not exit 1"
		expect_eq "--diff libpython 3.11 3.13" "- python:function__entry: removed  BREAKING
- python:function__return: removed  BREAKING
- python:line: removed  BREAKING
0 added, 3 removed, 0 changed; 3 breaking changes" "$(sed 1,2d "$T/py.txt")"
		script bcc-python.bt "$PY13" "usdt:/usr/bin/python3.11:function__entry: would not attach: no probe function__entry here
usdt:/usr/bin/python3.11:function__return: would not attach: no probe function__return here"
		ran=$((ran + 1))
	else
		note "libpython 3.11 or 3.13 missing: the CPython pair was not compared"
	fi

	CXX12=$(readlink -f /usr/lib/x86_64-linux-gnu/libstdc++.so.6)
	CXX14=$(readlink -f "$PEER/usr/lib/x86_64-linux-gnu/libstdc++.so.6")
	if [ -e "$CXX12" ] && [ -e "$CXX14" ] && [ "${CXX12##*/}" != "${CXX14##*/}" ]; then
		"$SDT_LIST" --diff "$CXX12" "$CXX14" >"$T/cxx.txt" 2>&1 ||
			fail "--diff libstdc++ failed: $(cat "$T/cxx.txt")"
		expect_eq "--diff libstdc++ 12 14" "--- $CXX12 (SONAME libstdc++.so.6)
+++ $CXX14 (SONAME libstdc++.so.6)
0 added, 0 removed, 0 changed; 0 breaking changes" "$(cat "$T/cxx.txt")"
		note "${CXX12##*/} and ${CXX14##*/}: one SONAME, the same probes"
		ran=$((ran + 1))
	fi
fi
[ $ran -gt 0 ] || skip "none of the runtimes with probes (python3.11, php8.2, libruby3.1, openjdk-17, postgresql-15) is installed"
