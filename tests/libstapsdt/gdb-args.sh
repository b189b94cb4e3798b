# gdb reads all 12 arguments of dynamic probes (bpftrace 0.17 stops at
# six): aN for N = 7..12 and m12 with every type at its extremes, the
# later ones from the stack through specs like -8@8(%rsp).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
need_root
need_cmd gdb
export TMPDIR=$T

probe_args() { # PROBE N: "$_probe_arg0 ..." for gdb's printf
	i=0; a=
	while [ $i -lt "$2" ]; do a="$a, \$_probe_arg$i"; i=$((i + 1)); done
	echo "$a"
}

for mode in memfd file; do
	if [ $mode = file ]; then start_host --file; else start_host; fi
	for p in a7:7 a9:9 a12:12 m12:12; do
		name=${p%:*}; n=${p#*:}
		fmt=$(printf '%%lld %.0s' $(seq "$n"))
		out=$(timeout 60 gdb -p "$HOST_PID" -batch -nx \
			-ex "break -probe-stap sdttest:$name" -ex continue \
			-ex "printf \"ARGS $name %d $fmt\\n\", \$_probe_argc$(probe_args "$name" "$n")" \
			2>&1)
		got=$(echo "$out" | sed -n 's/^ARGS //p' | sed 's/ *$//')
		case $name in
		m12) want="m12 12 -128 255 -32768 65535 -2147483648 4294967295 -9223372036854775808 -1 127 32767 2147483647 9223372036854775807" ;;
		*) want="$name $n"; i=1
		   while [ $i -le "$n" ]; do want="$want $((n * 1000 + i))"; i=$((i + 1)); done ;;
		esac
		[ -n "$got" ] || fail "$mode: gdb did not stop at $name: $(echo "$out" | tail -n 5)"
		expect_eq "$mode: $name arguments read by gdb" "$want" "$got"
		note "$mode: $got"
	done
	host_alive
	stop_host
done
