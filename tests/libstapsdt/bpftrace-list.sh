# bpftrace -l -p PID lists the probes of a loaded provider, placed in a
# memfd (the default) and in a file; after an unload they are gone.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
need_bpftrace
export TMPDIR=$T

want="a0 a1 a10 a11 a12 a2 a3 a4 a5 a6 a7 a8 a9 m12 s6 str u6 "
for mode in memfd file; do
	if [ $mode = file ]; then start_host --file; else start_host; fi
	out=$(bpftrace_run -l -p "$HOST_PID" "usdt:$(bt_obj "$HOST_OBJ"):sdttest:*")
	got=$(echo "$out" | sed -n 's/^usdt:.*:sdttest:\([a-z0-9]*\)$/\1/p' | sort | tr '\n' ' ')
	expect_eq "$mode: probes listed" "$want" "$got"
	case $mode in
	memfd) echo "$out" | grep -q "^usdt:/proc/$HOST_PID/fd/[0-9]*:sdttest:a0$" ||
		fail "memfd: not listed through /proc/PID/fd: $out" ;;
	file) echo "$out" | grep -q "$HOST_OBJ:sdttest:a0$" ||
		fail "file: not listed under $HOST_OBJ: $out" ;;
	esac
	note "$mode: $(echo "$out" | head -n 1)"
	# From 0.25 on, -p alone does not see a memfd object (lib.sh): kept
	# true here, as docs/tracers.md says it.
	if [ "$(bt_obj "$HOST_OBJ")" != '*' ]; then
		out=$(bpftrace_run -l -p "$HOST_PID" 'usdt:*:sdttest:*')
		[ -z "$(echo "$out" | grep ':sdttest:')" ] ||
			fail "bpftrace -p now lists a memfd object by itself: update docs/tracers.md: $out"
		note "$mode: bpftrace $(bpftrace_minor) -l -p PID 'usdt:*:...' lists none of it: named by path"
	fi
	stop_host
done

# Unloaded providers disappear: --cycle unloads and reloads every second.
# A listing counts only when no cycle happened while bpftrace ran.
# From bpftrace 0.25 on, in a file: a reloaded memfd has a path of its own.
# shellcheck disable=SC2046
start_host $(bt_place) --cycle 1000
listed_while_unloaded ':sdttest:a0$' bpftrace_run -l -p "$HOST_PID" 'usdt:*:sdttest:*'
