# File placement: $XDG_RUNTIME_DIR first, then $TMPDIR; a noexec mount is
# skipped; the private directory is 0700; a normal exit removes the file.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/libstapsdt/lib.sh"
mkdir -p "$T/xdg" "$T/tmp" "$T/noexec" || fail mkdir

run_host() { # prints where the object went
	"$HOST" --file --seconds 0.3 >"$T/p.out" 2>&1 || fail "probe-host: $(cat "$T/p.out")"
	sed -n 's/^ready [0-9]* //p' "$T/p.out"
}

obj=$(XDG_RUNTIME_DIR=$T/xdg TMPDIR=$T/tmp run_host)
case $obj in "$T/xdg/libstapsdt-"*/libstapsdt-sdttest.so) ;; *) fail "not under XDG_RUNTIME_DIR: $obj" ;; esac
obj=$(XDG_RUNTIME_DIR= TMPDIR=$T/tmp run_host)
case $obj in "$T/tmp/libstapsdt-"*/libstapsdt-sdttest.so) ;; *) fail "not under TMPDIR: $obj" ;; esac
obj=$(XDG_RUNTIME_DIR=$T/missing TMPDIR=$T/tmp run_host)
case $obj in "$T/tmp/libstapsdt-"*) ;; *) fail "missing XDG_RUNTIME_DIR not skipped: $obj" ;; esac
left=$(find "$T/xdg" "$T/tmp" -mindepth 1)
expect_eq "left behind after normal exits" "" "$left"

# The directory is private while the object is loaded.
: >"$T/p.out"
"$HOST" --file --seconds 300 >"$T/p.out" 2>&1 &
HOST_PID=$!
i=0
while ! have_ready "$T/p.out"; do i=$((i + 1)); [ $i -lt 600 ] || fail "no ready"; sleep 0.1; done
obj=$(sed -n 's/^ready [0-9]* //p' "$T/p.out")
expect_eq "directory mode" "700" "$(stat -c %a "$(dirname "$obj")")"
stop_host

if [ "$(id -u)" = 0 ] && mount -t tmpfs -o noexec,size=1m sdtkit-noexec "$T/noexec" 2>/dev/null; then
	obj=$(XDG_RUNTIME_DIR=$T/noexec TMPDIR=$T/tmp run_host)
	umount "$T/noexec"
	case $obj in "$T/tmp/libstapsdt-"*) ;; *) fail "noexec XDG_RUNTIME_DIR not skipped: $obj" ;; esac
else
	note "noexec check skipped: cannot mount a tmpfs here"
fi
