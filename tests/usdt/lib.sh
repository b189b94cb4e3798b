# Shared by the tests/usdt tests (after tests/lib.sh).
USDT_SRC=$top_srcdir/tests/usdt
SDT_LIST=$top_builddir/sdt-list/sdt-list
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"

# check_clean FILE...: every probe of each FILE passes the strict spec
# validator and sdt-list --check (readable by libbpf, bcc/bpftrace, gdb
# and perf).
check_clean() {
	for f; do
		"$SDT_NOTES" "$f" >"$T/.notes" 2>"$T/.notes.err" ||
			fail "${f##*/}: the validator refuses a spec: $(cat "$T/.notes.err")"
		[ -s "$T/.notes" ] || fail "${f##*/}: no probes"
		"$SDT_LIST" --check "$f" >"$T/.check" 2>&1 ||
			fail "${f##*/}: sdt-list --check: $(cat "$T/.check")"
	done
}

# wait_count FILE LINE N PID WHAT: until FILE holds the exact LINE N times
# (20 s); fails if process PID dies first.
wait_count() {
	i=0
	while [ "$(grep -cxF "$2" "$1" 2>/dev/null)" -lt "$3" ]; do
		i=$((i + 1))
		[ $i -lt 400 ] ||
			fail "$5: '$2' not seen $3 times in 20 s: $(tail -n 5 "$1")"
		kill -0 "$4" 2>/dev/null || fail "$5: process $4 died: $(tail -n 5 "$1")"
		sleep 0.05
	done
}

# stop_pid PID: SIGTERM (timeout passes it on) and wait for it.
stop_pid() {
	kill -TERM "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}

# ---- Reading every argument with each tracer --------------------------
# The programs (values.c, values.cc) write "NAME ARGC VALUES..." for each
# hit to the file named by their first argument: each value as a signed
# 64-bit decimal, as a tracer reads it widened by its spec's size and sign.
# Each reader below runs the program with "now" (fire once, exit), collects
# what the tracer read into $T/got-READER-NAME in the same form, and
# compares it, sorted, with what that run wrote.

# probe_argcs WANT: "NAME ARGC" for each probe in WANT, once.
probe_argcs() {
	awk '{ print $1, $2 }' "$1" | sort -u
}

# compare_reader READER NAME WANT GOT [ARGS]: sorted, at most ARGS values.
compare_reader() {
	awk -v max="${5:-99}" '{
		line = $1 " " $2
		for (i = 3; i <= NF && i - 2 <= max; i++) line = line " " $i
		print line
	}' "$3" | sort >"$T/want.sorted"
	sort "$4" >"$T/got.sorted"
	expect_eq "$2: arguments read by $1 (NAME ARGC VALUES...)" \
		"$(cat "$T/want.sorted")" "$(cat "$T/got.sorted")"
}

# read_bpftrace NAME EXE PROVIDER: bpftrace 0.17 reads arg0..arg5.
read_bpftrace() {
	probe_argcs "$T/want-$1" | awk -v exe="$2" -v prov="$3" '{
		printf "usdt:\"%s\":%s:%s { printf(\"%s %d", exe, prov, $1, $1, $2
		n = $2 > 6 ? 6 : $2
		for (i = 0; i < n; i++) printf " %%ld"
		printf "\\n\""
		for (i = 0; i < n; i++) printf ", arg%d", i
		printf "); }\n"
	}' >"$T/$1.bt"
	bpftrace_run "$T/$1.bt" -c "$2 $T/want-bt-$1 now" >"$T/$1.bt.out" ||
		fail "$1: bpftrace failed: $(cat "$T/$1.bt.out")"
	# bpftrace's own lines: 0.17's "Attaching N probes...", 0.27's "Attached
	# N probes" and its warning about available_filter_functions.
	grep -v '^Attach\(ing\|ed\) \|^WARNING: Could not read functions' \
		"$T/$1.bt.out" | grep . >"$T/got-bt-$1"
	compare_reader bpftrace "$1" "$T/want-bt-$1" "$T/got-bt-$1" 6
}

# read_gdb NAME EXE PROVIDER: gdb stops at each probe and prints
# $_probe_argc and every $_probe_argN.
read_gdb() {
	{
		echo "set pagination off"
		echo "set confirm off"
		probe_argcs "$T/want-$1" | while read -r name argc; do
			echo "break -probe-stap $3:$name"
			echo "commands"
			echo "silent"
			echo "printf \"$name %d\", \$_probe_argc"
			i=0
			while [ $i -lt "$argc" ]; do
				echo "printf \" %lld\", (long long)\$_probe_arg$i"
				i=$((i + 1))
			done
			echo "printf \"\\n\""
			echo "continue"
			echo "end"
		done
		echo "run"
	} >"$T/$1.gdb"
	timeout 120 gdb -nx -batch -x "$T/$1.gdb" --args "$2" "$T/want-gdb-$1" now \
		>"$T/$1.gdb.out" 2>&1 || fail "$1: gdb failed: $(tail -n 5 "$T/$1.gdb.out")"
	grep -E '^[a-z_0-9]+ [0-9]+( -?[0-9]+)*$' "$T/$1.gdb.out" >"$T/got-gdb-$1"
	compare_reader gdb "$1" "$T/want-gdb-$1" "$T/got-gdb-$1"
}

# read_perf NAME EXE PROVIDER PROBE...: perf probe makes each PROBE an event
# (perf takes a probe only while its sites record the same fields), perf
# record and perf script read them. perf script prints a 1- or 2-byte
# signed value without its sign (-128 as 128); values are compared as the
# bits the spec's size and sign give, so any other difference still fails.
read_perf() {
	name=$1 exe=$2 prov=$3
	shift 3
	tracefs_lock # perf names the events sdt_$prov:PROBE
	perf_() { timeout 60 perf --buildid-dir "$T/debug" "$@"; }
	out=$(perf_ buildid-cache --add "$exe" 2>&1) ||
		fail "$name: perf buildid-cache --add: $out"
	events=
	for p; do
		out=$(perf_ probe -x "$exe" -a "sdt_$prov:$p" 2>&1) ||
			{ perf_probe_cleanup "$prov"; fail "$name: perf probe sdt_$prov:$p: $out"; }
		events="$events -e sdt_$prov:$p"
	done
	# shellcheck disable=SC2086
	perf_ record -q $events -o "$T/perf.data" -- "$exe" "$T/want-perf-$name" now \
		>"$T/perf.rec" 2>&1
	rc=$?
	perf_ script -i "$T/perf.data" >"$T/perf.script" 2>&1 || rc=1
	perf_probe_cleanup "$prov"
	[ $rc = 0 ] || fail "$name: perf record/script: $(tail -n 5 "$T/perf.rec" "$T/perf.script")"
	"$SDT_NOTES" "$exe" >"$T/perf.notes"
	python3 - "$T/perf.notes" "$T/perf.script" "$prov" >"$T/got-perf-$name" <<'PY' ||
import re, sys
specs = {}
for line in open(sys.argv[1]):
    head, _, args = line.rstrip("\n").partition(" args=")
    specs[head.split()[0]] = [int(a.split("@")[0]) for a in args.split()]
for line in open(sys.argv[2]):
    m = re.search(r"sdt_%s:(\w+): \(\w+\)(.*)" % sys.argv[3], line)
    if not m:
        continue
    name, vals = m.group(1), re.findall(r"arg\d+=(-?\d+)", m.group(2))
    out = [name, str(len(vals))]
    for size, v in zip(specs["%s:%s" % (sys.argv[3], name)], vals):
        bits = int(v) % (1 << (8 * abs(size)))
        if size < 0 and bits >> (8 * abs(size) - 1):
            bits -= 1 << (8 * abs(size))
        out.append(str(bits - (1 << 64) if bits >= 1 << 63 else bits))
    print(" ".join(out))
PY
		fail "$name: cannot read perf script's output"
	grep -E "^($(echo "$@" | tr ' ' '|')) " "$T/want-perf-$name" >"$T/want-perf-$name.sel"
	compare_reader perf "$name" "$T/want-perf-$name.sel" "$T/got-perf-$name"
}

# perf_probe_cleanup PROVIDER: remove our events (only the sdt_PROVIDER group).
perf_probe_cleanup() {
	timeout 60 perf probe -q -d "sdt_$1:*" >/dev/null 2>&1
	return 0
}
