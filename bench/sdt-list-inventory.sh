#!/bin/sh
# sdt-list's inventories against what one would run without them, in the
# same run:
#  - a whole tree (default /usr; INVENTORY_TREE=DIR for another):
#    `sdt-list DIR' against `readelf -n' over the same files (every regular
#    file under DIR, links not followed, as the walk reads them), warm and
#    cold (page cache dropped before each run: root only). Target: 3x.
#    readelf over only the ELF files is shown too, though knowing which
#    they are takes reading them;
#  - every process: 300 processes of 20 executables sharing two libraries
#    with probes. `sdt-list -a' against `bpftrace -l usdt:* -p PID' run once
#    per process (all 300), and against `sdt-list -p PID' run likewise.
#    Target: 20x over bpftrace.
# Wall time medians (the targets: what a user waits for), and CPU time
# (user + system), which the machine's load moves much less: the walk's
# threads make it a little higher than one thread's would be.
. "$top_srcdir/bench/lib.sh"
SDT_LIST=$top_builddir/sdt-list/sdt-list
TREE=${INVENTORY_TREE:-/usr}
NPROC=300
PIDS=
trap 'kill $PIDS 2>/dev/null; rm -rf "$B"' EXIT

# measure RUNS PREPARE CMD: "WALL_MS CPU_MS" medians of RUNS runs of the
# shell command CMD (PREPARE, if not empty, runs untimed before each).
measure() {
	python3 - "$@" <<'PY'
import os, resource, statistics, subprocess, sys, time
runs, prepare, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3]
walls, cpus = [], []
for _ in range(runs):
    if prepare:
        subprocess.run(prepare, shell=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    walls.append((time.monotonic() - t) * 1000)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpus.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
print("%.1f %.1f" % (statistics.median(walls), statistics.median(cpus)))
PY
}

# ---- a tree --------------------------------------------------------------
find "$TREE" -type f -print0 >"$B/files" 2>/dev/null
python3 - "$B/files" "$B/elves" <<'PY'
import sys
out = open(sys.argv[2], "wb")
for p in open(sys.argv[1], "rb").read().split(b"\0"):
    try:
        with open(p, "rb") as f:
            if f.read(4) == b"\x7fELF":
                out.write(p + b"\0")
    except OSError:
        pass
PY
nfiles=$(tr -cd '\0' <"$B/files" | wc -c)
nelf=$(tr -cd '\0' <"$B/elves" | wc -c)
ours_cmd="'$SDT_LIST' '$TREE'"
ref_cmd="find '$TREE' -type f -print0 | xargs -0 readelf -n"
elf_cmd="xargs -0 readelf -n <'$B/elves'"
header "sdt-list $TREE: $nfiles files, $nelf ELF" "readelf -n"
set -- $(measure 3 "" "$ours_cmd")
ow=$1 oc=$2
set -- $(measure 3 "" "$ref_cmd")
row "warm, wall (readelf: every file)" "$ow" "$1" ms ">=3x"
row "warm, CPU (readelf: every file)" "$oc" "$2" ms
set -- $(measure 3 "" "$elf_cmd")
row "warm, wall (readelf: ELF files only)" "$ow" "$1" ms
row "warm, CPU (readelf: ELF files only)" "$oc" "$2" ms
if [ "$(id -u)" = 0 ] && [ -w /proc/sys/vm/drop_caches ]; then
	drop="sync; echo 3 >/proc/sys/vm/drop_caches"
	set -- $(measure 1 "$drop" "$ours_cmd")
	ow=$1 oc=$2
	set -- $(measure 1 "$drop" "$ref_cmd")
	row "cold, wall (readelf: every file)" "$ow" "$1" ms ">=3x"
	row "cold, CPU (readelf: every file)" "$oc" "$2" ms
else
	echo "(cold cache not measured: dropping the page cache needs root)"
fi

# ---- every process -------------------------------------------------------
cat >"$B/lib.c" <<'C'
#include <sys/sdt.h>
void LIB_fire(int x) { DTRACE_PROBE1(LIB, fire, x); DTRACE_PROBE2(LIB, two, x, x); }
C
cat >"$B/prog.c" <<'C'
#include <sys/sdt.h>
#include <unistd.h>
void liba_fire(int);
void libb_fire(int);
int main(int argc, char **argv)
{
	(void)argv;
	DTRACE_PROBE1(PROG, start, argc);
	if (argc > 5) { liba_fire(argc); libb_fire(argc); }
	pause();
	return 0;
}
C
for l in liba libb; do
	sed "s/LIB/$l/g" "$B/lib.c" >"$B/$l.c"
	$CC -O2 -fPIC -shared -I"$top_srcdir/include" -o "$B/$l.so" "$B/$l.c" || exit 1
done
i=0
while [ $i -lt 20 ]; do
	sed "s/PROG/prog$i/g" "$B/prog.c" >"$B/prog$i.c"
	$CC -O2 -I"$top_srcdir/include" -o "$B/prog$i" "$B/prog$i.c" \
		"$B/liba.so" "$B/libb.so" || exit 1
	i=$((i + 1))
done
i=0
while [ $i -lt $NPROC ]; do
	"$B/prog$((i % 20))" &
	PIDS="$PIDS $!"
	i=$((i + 1))
done
sleep 1
header "sdt-list -a: $NPROC processes of 20 executables, 2 shared libraries" "per-process"
set -- $(measure 5 "" "'$SDT_LIST' -a")
aw=$1 ac=$2
if command -v bpftrace >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	bt="for p in $PIDS; do bpftrace -l 'usdt:*' -p \$p; done"
	set -- $(measure 1 "" "$bt")
	row "all, wall (bpftrace -l -p, x$NPROC)" "$aw" "$1" ms ">=20x"
	row "all, CPU (bpftrace -l -p, x$NPROC)" "$ac" "$2" ms ">=20x"
else
	row "all, wall (bpftrace -l -p, x$NPROC)" "$aw" absent ms ">=20x"
	echo "(bpftrace reference absent: not installed, or not root)"
fi
set -- $(measure 1 "" "for p in $PIDS; do '$SDT_LIST' -p \$p; done")
row "all, wall (sdt-list -p, x$NPROC)" "$aw" "$1" ms
row "all, CPU (sdt-list -p, x$NPROC)" "$ac" "$2" ms
echo "(sdt-list -a lists every process on the machine, not only these $NPROC)"
target_summary
