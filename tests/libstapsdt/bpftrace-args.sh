# bpftrace reads back the arguments of dynamic probes: every ArgType_t at
# its extremes, a string through a pointer, and 0..12 int64 arguments.
# bpftrace 0.17 names at most arg0..arg5 on x86_64 ("doesn't support
# arg6"), so it reads the first six; gdb-args.sh reads all twelve.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
need_bpftrace
export TMPDIR=$T

for mode in memfd file; do
	if [ $mode = file ]; then start_host --file; else start_host; fi
	script='
usdt:*:sdttest:u6 /!@u6/ { @u6 = 1; @seen++; printf("u6 %u %u %u %llu %d %d\n", arg0, arg1, arg2, arg3, arg4, arg5); if (@seen == 12) { exit(); } }
usdt:*:sdttest:s6 /!@s6/ { @s6 = 1; @seen++; printf("s6 %d %lld %d %d %d %lld\n", arg0, arg1, arg2, arg3, arg4, arg5); if (@seen == 12) { exit(); } }
usdt:*:sdttest:str /!@str/ { @str = 1; @seen++; printf("str %s %d\n", str(arg0), arg1); if (@seen == 12) { exit(); } }
usdt:*:sdttest:m12 /!@m12/ { @m12 = 1; @seen++; printf("m12 %d %u %d %u %d %u\n", arg0, arg1, arg2, arg3, arg4, arg5); if (@seen == 12) { exit(); } }
usdt:*:sdttest:a0 /!@a0/ { @a0 = 1; @seen++; printf("a0\n"); if (@seen == 12) { exit(); } }
usdt:*:sdttest:a1 /!@a1/ { @a1 = 1; @seen++; printf("a1 %d\n", arg0); if (@seen == 12) { exit(); } }
usdt:*:sdttest:a2 /!@a2/ { @a2 = 1; @seen++; printf("a2 %d %d\n", arg0, arg1); if (@seen == 12) { exit(); } }
usdt:*:sdttest:a3 /!@a3/ { @a3 = 1; @seen++; printf("a3 %d %d %d\n", arg0, arg1, arg2); if (@seen == 12) { exit(); } }
usdt:*:sdttest:a4 /!@a4/ { @a4 = 1; @seen++; printf("a4 %d %d %d %d\n", arg0, arg1, arg2, arg3); if (@seen == 12) { exit(); } }
usdt:*:sdttest:a5 /!@a5/ { @a5 = 1; @seen++; printf("a5 %d %d %d %d %d\n", arg0, arg1, arg2, arg3, arg4); if (@seen == 12) { exit(); } }
usdt:*:sdttest:a6 /!@a6/ { @a6 = 1; @seen++; printf("a6 %d %d %d %d %d %d\n", arg0, arg1, arg2, arg3, arg4, arg5); if (@seen == 12) { exit(); } }
usdt:*:sdttest:a12 /!@a12/ { @a12 = 1; @seen++; printf("a12 %d %d %d %d %d %d\n", arg0, arg1, arg2, arg3, arg4, arg5); if (@seen == 12) { exit(); } }
interval:s:60 { exit(); }'
	script=$(bt_script "$HOST_OBJ" "$script")
	out=$(bpftrace_run -p "$HOST_PID" -e "$script") || fail "$mode: bpftrace failed: $out"
	got=$(echo "$out" | grep -E '^(u6|s6|str|m12|a[0-9]+)( |$)' | sort)
	want=$(sort <<EOT
u6 255 65535 4294967295 18446744073709551615 -128 -32768
s6 -2147483648 -9223372036854775808 127 32767 2147483647 9223372036854775807
str hello from sdttest 18
m12 -128 255 -32768 65535 -2147483648 4294967295
a0
a1 1001
a2 2001 2002
a3 3001 3002 3003
a4 4001 4002 4003 4004
a5 5001 5002 5003 5004 5005
a6 6001 6002 6003 6004 6005 6006
a12 12001 12002 12003 12004 12005 12006
EOT
)
	expect_eq "$mode: arguments read by bpftrace" "$want" "$got"
	host_alive
	stop_host
done
