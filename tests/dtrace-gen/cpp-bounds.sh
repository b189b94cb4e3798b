#!/bin/sh
# -C runs someone else's file through cpp: no file name becomes an option,
# and what never ends is stopped. Checked for dtrace-gen -C and sdt-list
# --against -C (one preprocessor driver serves both):
#  - names that gcc's driver would read as options (`-okeep.d' writes
#    keep.d, `-' reads standard input, `-E', `--help') are the files named;
#  - an empty -I would take the next word: refused;
#  - an #include of a FIFO (blocks forever), of /dev/zero (grows without
#    end) or of a file larger than the output bound ends in seconds with
#    an error, leaves no process of the preprocessor's group and no
#    temporary file;
#  - a signal that ends dtrace-gen meanwhile ends the preprocessor too;
#  - as root, sdt-list preprocesses a file someone else owns as its owner.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"
SDT_LIST=$top_builddir/sdt-list/sdt-list
need_cmd cpp
cd "$T" || fail "cd"
mkdir tmp && TMPDIR=$T/tmp && export TMPDIR

# A program whose notes match `provider p { probe a(int); }'.
cat >prog.c <<'C'
#include <sys/sdt.h>
int main(int argc, char **argv) { (void)argv; DTRACE_PROBE1(p, a, argc); return 0; }
C
$CC -I"$SDT_INCLUDE" -o prog prog.c || fail "cannot build prog.c"

# Option-like names. Each holds a provider; each has a victim file that
# gcc would write or read if it took the name as an option.
for name in -okeep.d -o -E --help -; do
	printf 'provider p { probe a(int); };\n' >./"$name"
	echo precious >keep.d
	"$DG" -C -s "$name" -h -o out.h 2>err.txt ||
		fail "dtrace-gen -C -s $name failed: $(cat err.txt)"
	[ -s err.txt ] && fail "dtrace-gen -C -s $name warned: $(cat err.txt)"
	grep -q P_A_ENABLED out.h || fail "dtrace-gen -C -s $name: no P_A in out.h"
	expect_eq "dtrace-gen -C -s $name: keep.d" precious "$(cat keep.d)"
	"$SDT_LIST" --against -C "$name" prog >out.txt 2>&1 ||
		fail "sdt-list --against -C $name: $(cat out.txt)"
	expect_eq "sdt-list --against -C $name: keep.d" precious "$(cat keep.d)"
	grep -q "1 present as declared" out.txt ||
		fail "sdt-list --against -C $name: $(cat out.txt)"
	rm -f ./"$name" out.h
done
printf 'provider p { probe a(int); };\n' >p.d

# An empty -I would take the next word (-x) as its directory.
"$DG" -C -I '' -s p.d -h -o out.h 2>err.txt && fail "-I '' was accepted"
grep -q "empty value" err.txt || fail "-I '': $(cat err.txt)"
"$SDT_LIST" --against -C -I '' p.d prog >out.txt 2>&1 && fail "--against -I '' was accepted"
grep -q "empty value" out.txt || fail "--against -I '': $(cat out.txt)"

# CPP as a wrapper that records its process group, to find what is left.
cat >cpp-rec <<'SH'
#!/bin/sh
echo $$ >>"$CPP_PIDS"
exec cpp "$@"
SH
chmod +x cpp-rec
CPP_PIDS=$T/pids && export CPP_PIDS
group_gone() { # PGID: no process of that group within 30 s
	i=0
	while ps -eo pgid= | grep -qx " *$1"; do
		i=$((i + 1))
		[ $i -lt 300 ] || return 1
		sleep 0.1
	done
}
# run_bounded WHAT CMD...: fails within 30 s with the given error,
# nothing left behind.
run_bounded() {
	what=$1 want=$2
	shift 2
	: >"$CPP_PIDS"
	start=$(date +%s)
	CPP=$T/cpp-rec "$@" >out.txt 2>&1 && fail "$what: exit 0: $(cat out.txt)"
	took=$(($(date +%s) - start))
	[ $took -le 30 ] || fail "$what: took $took s"
	grep -q -- "$want" out.txt || fail "$what: no \"$want\": $(cat out.txt)"
	for g in $(cat "$CPP_PIDS"); do
		group_gone "$g" || fail "$what: the preprocessor's group $g is left: $(ps -o pid,args -g "$g")"
	done
	[ -z "$(ls -A tmp)" ] || fail "$what: left in TMPDIR: $(ls -A tmp)"
	note "$what: $took s: $(grep error out.txt | head -n 1)"
}

mkfifo fifo || fail "mkfifo"
printf '#include "fifo"\nprovider p { probe a(int); };\n' >fifo.d
printf '#include "/dev/zero"\nprovider p { probe a(int); };\n' >zero.d
for f in fifo zero; do
	for tool in dg sl; do
		case $f in fifo) want="did not finish" ;; zero) want="out of memory\|did not finish" ;; esac
		if [ $tool = dg ]; then
			run_bounded "dtrace-gen -C $f.d" "$want" "$DG" -C -s $f.d -h -o out.h
		else
			run_bounded "sdt-list --against -C $f.d" "$want" "$SDT_LIST" --against -C $f.d prog
		fi
	done
done
[ -e out.h ] && fail "a failed run wrote out.h"

# A regular file read 13 times: 18 MB of output, past the 16 MiB bound
# (or, on a slow machine, past the time bound).
awk 'BEGIN { for (i = 0; i < 20000; i++) print "1234567890123456789012345678901234567890123456789012345678901234567890" }' >num.h
{ for i in $(seq 1 13); do echo '#include "num.h"'; done; echo 'provider p { probe a(int); };'; } >huge.d
run_bounded "dtrace-gen -C huge.d (18 MB of output)" "more than 16 MiB\|did not finish" "$DG" -C -s huge.d -h -o out.h
run_bounded "sdt-list --against -C huge.d (18 MB of output)" "more than 16 MiB\|did not finish" "$SDT_LIST" --against -C huge.d prog

# Root checking a provider file someone else owns preprocesses it with
# the owner's rights: an #include of a file only root may read fails as it
# would for its author, and none of that file reaches the output.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	chmod 711 "$T" && mkdir pub && chmod 755 pub || fail "chmod"
	printf 'provider p { probe a(int); };\n' >pub/inc.h
	printf 'provider p {\nsecret_marker_line\n};\n' >secret.h && chmod 600 secret.h
	printf '#include "%s"\n' "$T/secret.h" >pub/leak.d
	printf '#include "inc.h"\n' >pub/ok.d
	chown nobody pub/leak.d pub/ok.d || fail "chown"
	"$SDT_LIST" --against -C pub/leak.d prog >out.txt 2>&1 && fail "a root-only include was read: $(cat out.txt)"
	grep -q "Permission denied" out.txt || fail "root-only include: $(cat out.txt)"
	grep -q secret_marker out.txt && fail "the root-only file reached the output: $(cat out.txt)"
	"$SDT_LIST" --against -C pub/ok.d prog >out.txt 2>&1 ||
		fail "a readable include as the owner failed: $(cat out.txt)"
	# dtrace-gen runs as its caller: a build's own choice.
	"$DG" -C -s pub/ok.d -h -o out.h 2>err.txt || fail "dtrace-gen -C pub/ok.d: $(cat err.txt)"
fi

# SIGTERM to dtrace-gen while cpp waits on the FIFO: dtrace-gen ends by
# that signal and takes the preprocessor's group with it.
: >"$CPP_PIDS"
CPP=$T/cpp-rec "$DG" -C -s fifo.d -h -o out.h 2>/dev/null &
dg=$!
i=0
until [ -s "$CPP_PIDS" ]; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "the preprocessor did not start"
	sleep 0.1
done
kill -TERM $dg
wait $dg
expect_eq "dtrace-gen killed by SIGTERM: status" 143 $?
group_gone "$(cat "$CPP_PIDS")" || fail "SIGTERM: the preprocessor's group is left"
exit 0
