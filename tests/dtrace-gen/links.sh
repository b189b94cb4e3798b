#!/bin/sh
# Outputs reached through symbolic links, and outputs that replace a file
# someone else owns. dtrace-gen follows a link only where the kernel would
# follow it for open(O_WRONLY) (fs.protected_symlinks: in a sticky
# directory anyone can write to, a link owned by neither the writer nor
# the directory's owner is refused, root included), and a replaced output
# keeps the mode and owner the old file had.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/dg-lib.sh"
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
# as_nobody SCRIPT: run SCRIPT with sh as user nobody.
if command -v setpriv >/dev/null 2>&1; then
	as_nobody() { setpriv --reuid=nobody --regid="$group" --clear-groups sh -c "$1"; }
else
	as_nobody() { su -s /bin/sh nobody -c "$1"; }
fi
chmod 0755 "$T" && mkdir box && chown nobody "box" || fail "mkdir box"
as_nobody true 2>/dev/null || skip "cannot act as user nobody (setpriv or su)"

# Root replacing a file of nobody's keeps it nobody's, mode and all.
as_nobody 'umask 077 && echo secret >box/theirs.h' || fail "as nobody"
"$DG" -h -s p.d -o box/theirs.h || fail "-h over nobody's file"
expect_eq "owner of a replaced output" "nobody 600" "$(stat -c '%U %a' box/theirs.h)"
cmp -s ref.h box/theirs.h || fail "box/theirs.h not replaced"

# A planted link in a sticky world-writable directory, with the kernel's
# setting on and off: our verdict must be the kernel's own (cat opens the
# same path through the same link).
setting=/proc/sys/fs/protected_symlinks
saved=$(cat "$setting" 2>/dev/null) || skip "cannot read $setting"
trap 'echo "$saved" >"$setting" 2>/dev/null; rm -rf "$T"' EXIT
settings="1 0"
for s in $settings; do
	if ! echo "$s" >"$setting" 2>/dev/null; then
		note "cannot change $setting: checking the current value ($saved) only"
		settings=$saved
		break
	fi
done
for s in $settings; do
	echo "$s" >"$setting" 2>/dev/null
	rm -rf sticky && mkdir sticky && chmod 1777 sticky || fail "mkdir sticky"
	as_nobody 'umask 077 && echo secret >sticky/victim &&
		ln -s victim sticky/probes.h' || fail "planting the link"
	kernel=refuses ours=refuses
	cat sticky/probes.h >/dev/null 2>&1 && kernel=follows
	"$DG" -h -s p.d -o sticky/probes.h 2>err && ours=follows
	note "protected_symlinks=$s: the kernel $kernel the link, dtrace-gen $ours"
	expect_eq "protected_symlinks=$s: dtrace-gen's verdict vs the kernel's" "$kernel" "$ours"
	[ -L sticky/probes.h ] || fail "the link itself was replaced"
	expect_eq "victim's owner and mode" "nobody $group 600" \
		"$(stat -c '%U %G %a' sticky/victim)"
	if [ $ours = refuses ]; then
		expect_eq "victim untouched" secret "$(cat sticky/victim)"
		grep -q "Permission denied" err || fail "refusal message: $(cat err)"
	else
		cmp -s ref.h sticky/victim || fail "followed link did not write the file"
	fi
	left=$(ls -A sticky | grep -v -x -e victim -e probes.h)
	[ -z "$left" ] || fail "files left in the sticky directory: $left"
done

# Links the kernel always follows there: our own, and the directory
# owner's. Each leads to nobody's file, which stays nobody's.
echo 1 >"$setting" 2>/dev/null
rm -rf sticky && mkdir sticky && chmod 1777 sticky || fail "mkdir sticky"
as_nobody 'umask 077 && echo secret >sticky/victim' || fail "as nobody"
ln -s victim sticky/ours.h || fail "ln"
"$DG" -h -s p.d -o sticky/ours.h || fail "our own link in a sticky directory refused"
cmp -s ref.h sticky/victim || fail "our own link: file not written"
expect_eq "owner after writing through our link" "nobody 600" "$(stat -c '%U %a' sticky/victim)"
as_nobody 'mkdir -m 1777 box/theirs && echo secret >box/theirs/v &&
	ln -s v box/theirs/l.h' || fail "as nobody"
"$DG" -h -s p.d -o box/theirs/l.h || fail "the directory owner's link refused"
cmp -s ref.h box/theirs/v || fail "the owner's link: file not written"
exit 0
