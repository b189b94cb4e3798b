#!/bin/sh
# Outputs reached through symbolic links, and outputs that replace a file
# someone else owns. dtrace-gen follows a link only where the kernel would
# follow it for open(O_WRONLY) (fs.protected_symlinks: in a sticky
# directory anyone can write to, a link owned by neither the writer nor
# the directory's owner is refused, root included), and a replaced output
# keeps the mode and owner the old file had.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"
cd "$T" || fail "cd"
printf 'provider a { probe x(int); };\n' >p.d
"$DG" -h -s p.d -o ref.h || fail "-h"

# The mode of a replaced file is kept, whatever the umask says.
echo old >m.h && chmod 0640 m.h
(umask 077 && "$DG" -h -s p.d -o m.h) || fail "-h over m.h"
expect_eq "mode of a replaced output" "-rw-r-----" "$(ls -l m.h | cut -c1-10)"
cmp -s ref.h m.h || fail "m.h not replaced"

[ "$(id -u)" = 0 ] || skip "the rest acts as a second user: run as root"
id nobody >/dev/null 2>&1 || skip "there is no user nobody to act as"
group=$(id -gn nobody)
# nobody_sh SCRIPT: run SCRIPT with sh as user nobody, here in $T.
if command -v setpriv >/dev/null 2>&1; then
	nobody_sh() { setpriv --reuid=nobody --regid="$group" --clear-groups sh -c "$1"; }
else
	nobody_sh() { su -s /bin/sh nobody -c "$1"; }
fi
chmod 0755 "$T" && mkdir box && chown nobody "box" || fail "mkdir box"
nobody_sh 'test -w box' 2>/dev/null ||
	skip "cannot act as user nobody in $T (setpriv or su; TMPDIR=${TMPDIR:-/tmp} out of its reach?)"

# Root replacing a file of nobody's keeps it nobody's, mode and all.
nobody_sh 'umask 077 && echo secret >box/theirs.h' || fail "as nobody"
"$DG" -h -s p.d -o box/theirs.h || fail "-h over nobody's file"
expect_eq "owner of a replaced output" "nobody 600" "$(stat -c '%U %a' box/theirs.h)"
cmp -s ref.h box/theirs.h || fail "box/theirs.h not replaced"

# In a set-group-ID directory a new file takes the directory's group; the
# replaced file keeps its own.
mkdir sgid && chgrp "$group" sgid && chmod g+s sgid && echo old >sgid/g.h &&
	chgrp "$(id -gn)" sgid/g.h || fail "set-group-ID directory"
"$DG" -h -s p.d -o sgid/g.h || fail "-h in a set-group-ID directory"
expect_eq "group of a replaced output" "$(id -gn)" "$(stat -c %G sgid/g.h)"

# Files planted in a sticky directory anyone can write to (a link to a
# file of nobody's; a file of nobody's), with the kernel's settings on and
# off: dtrace-gen's verdict must be the kernel's for a shell's `>>' (open
# with O_CREAT, through the same link), which changes nothing.
saved=
for s in symlinks regular; do
	saved="$saved $(cat /proc/sys/fs/protected_$s 2>/dev/null)" ||
		skip "cannot read fs.protected_$s"
done
set_protection() {
	echo "$1" >/proc/sys/fs/protected_symlinks 2>/dev/null &&
		echo "$2" >/proc/sys/fs/protected_regular 2>/dev/null
}
trap 'set_protection $saved; rm -rf "$T"' EXIT
combos="1,1 1,0 0,1 0,0"
if ! set_protection 1 1; then
	note "cannot change fs.protected_*: checking the current values only"
	combos=$(echo $saved | tr ' ' ,)
fi
for c in $combos; do
	set_protection ${c%,*} ${c#*,}
	rm -rf sticky && mkdir sticky && chmod 1777 sticky || fail "mkdir sticky"
	nobody_sh 'umask 077 && echo secret >sticky/victim && echo planted >sticky/plant.h &&
		ln -s victim sticky/probes.h' || fail "planting"
	for out in probes.h plant.h; do
		kernel=refuses ours=refuses
		(: >>sticky/$out) 2>/dev/null && kernel=accepts
		"$DG" -h -s p.d -o sticky/$out 2>err && ours=accepts
		note "symlinks,regular=$c: for $out, the kernel $kernel, dtrace-gen $ours"
		expect_eq "symlinks,regular=$c: $out: dtrace-gen's verdict vs the kernel's" "$kernel" "$ours"
		file=sticky/plant.h was=planted
		[ $out = probes.h ] && file=sticky/victim was=secret
		if [ $ours = refuses ]; then
			grep -q "Permission denied" err || fail "refusal: $(cat err)"
			expect_eq "$c: $file after a refusal" $was "$(cat $file)"
		else
			cmp -s ref.h $file || fail "$c: $file not written"
		fi
	done
	[ -L sticky/probes.h ] || fail "the link itself was replaced"
	expect_eq "victim's owner and mode" "nobody $group 600" "$(stat -c '%U %G %a' sticky/victim)"
	left=$(ls -A sticky | grep -v -x -e victim -e probes.h -e plant.h)
	[ -z "$left" ] || fail "files left in the sticky directory: $left"
done

# Links the kernel follows there whatever the settings: our own, and the
# directory owner's, to a file of the same owner. Through an allowed link
# the file is replaced and keeps its owner.
set_protection 1 1
rm -rf sticky && mkdir sticky && chmod 1777 sticky || fail "mkdir sticky"
echo ours >sticky/mine && ln -s mine sticky/ours.h || fail "ln"
"$DG" -h -s p.d -o sticky/ours.h || fail "our own link in a sticky directory refused"
cmp -s ref.h sticky/mine || fail "our own link: file not written"
nobody_sh 'mkdir -m 1777 box/theirs && umask 077 && echo secret >box/theirs/v &&
	ln -s v box/theirs/l.h' || fail "as nobody"
"$DG" -h -s p.d -o box/theirs/l.h || fail "the directory owner's link refused"
cmp -s ref.h box/theirs/v || fail "the owner's link: file not written"
expect_eq "owner through the owner's link" "nobody 600" "$(stat -c '%U %a' box/theirs/v)"
exit 0
