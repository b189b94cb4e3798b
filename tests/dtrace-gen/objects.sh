#!/bin/sh
# -G reads the ELF header of each object it is given, to build its own
# object for the same machine. Whatever is not a well-formed object is an
# error naming it, and no output appears: a FIFO, a device, a directory or
# a socket (refused without waiting on it), a header whose byte-order or
# class byte is flipped, one cut short anywhere, a machine we cannot
# write for, a file that is no object at all. LLVM bitcode (clang -flto)
# is an object that names no machine: a warning, and the run goes on.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"
need_cmd od
cd "$T" || fail "cd"
printf 'provider a { probe x(int); };\n' >p.d
printf 'int f(void) { return 1; }\n' >f.c
$CC -c f.c -o good.o || fail "cannot compile"

# refused OBJECT MESSAGE: -G with OBJECT fails in time, names it with
# MESSAGE, and writes nothing.
refused() {
	rm -f out.o
	timeout 10 "$DG" -G -s p.d -o out.o "$1" 2>err
	rc=$?
	[ $rc = 124 ] && fail "$1: dtrace-gen hung on it"
	[ $rc = 1 ] || fail "$1: exit status $rc, not 1: $(cat err)"
	grep -q "^$1: error: $2" err || fail "$1: message: $(cat err)"
	[ ! -e out.o ] || fail "$1: an output was written"
}

# bytes FILE OFFSET VALUE...: overwrite bytes (decimal values) of FILE.
bytes() {
	_f=$1 _o=$2
	shift 2
	printf "$(printf '\\%03o' "$@")" |
		dd of="$_f" bs=1 seek="$_o" conv=notrunc 2>/dev/null
}

"$DG" -G -s p.d -o out.o good.o || fail "a good object refused"

mkfifo fifo || fail "mkfifo"
refused fifo "is a FIFO"
refused /dev/null "is a device"
mkdir dir.o && refused dir.o "is a directory"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock.o")'
	refused sock.o "is a socket"
fi
# A .lo names its object inside: the same rules, and the .lo itself.
mkfifo fifo.lo && refused fifo.lo "is a FIFO"

# EI_CLASS (4) and EI_DATA (5) flipped: 1 <-> 2.
class=$(od -An -tu1 -j4 -N1 good.o | tr -d ' ')
data=$(od -An -tu1 -j5 -N1 good.o | tr -d ' ')
cp good.o flipped-order.o && bytes flipped-order.o 5 $((3 - data))
refused flipped-order.o "is not a well-formed object"
cp good.o flipped-class.o && bytes flipped-class.o 4 $((3 - class))
refused flipped-class.o "is not a well-formed object"
cp good.o bad-class.o && bytes bad-class.o 4 7
refused bad-class.o "is not a well-formed object"
# Cut short: inside the magic, the identification, the fields, at the end.
for n in 1 3 4 6 16 18 20 24 40 52 63; do
	head -c $n good.o >cut-$n.o
	refused cut-$n.o "is not a well-formed object"
done
: >empty.o && refused empty.o "is empty"
printf 'not an object\n' >text.o && refused text.o "is not an object file"
# e_machine (18, 2 bytes) set to a machine nobody writes for.
cp good.o alien.o && bytes alien.o 18 52 18
refused alien.o "is for machine"
# An archive whose object member is cut short.
head -c 40 good.o >short.o && ar rcS cut.a short.o 2>/dev/null &&
	refused cut.a "is not a well-formed object"

printf 'BC\300\336' >bitcode.o && head -c 60 /dev/zero >>bitcode.o
"$DG" -G -s p.d -o out.o bitcode.o 2>err || fail "bitcode refused: $(cat err)"
grep -q "^bitcode.o: warning: names no machine" err || fail "bitcode: $(cat err)"
exit 0
