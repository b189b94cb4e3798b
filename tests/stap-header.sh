# Shared by tests/lib.sh and bench/lib.sh: SystemTap's <sys/sdt.h>
# (systemtap-sdt-dev) apart from ours. A plain #include <sys/sdt.h> does
# not find it once ours is installed in /usr/local/include, which the
# compiler searches before /usr/include.

# stap_header DIR: link SystemTap's sys/sdt.h and the sys/sdt-config.h it
# includes into DIR/sys, and set STAP_INC to the flag that puts DIR ahead
# of the default search path, as system headers (-isystem, so that its own
# warnings stay quiet as in a user's build). Status 1, with STAP_INC empty,
# where SystemTap's header is not installed; 2 where DIR cannot be made.
stap_header() {
	STAP_INC=
	d=/usr/include/$(${CC:-cc} -print-multiarch 2>/dev/null)/sys
	[ -f "$d/sdt.h" ] || d=/usr/include/sys
	[ -f "$d/sdt.h" ] && ! grep -q SDTKIT_SDT_H "$d/sdt.h" || return 1
	mkdir -p "$1/sys" && ln -sf "$d/sdt.h" "$d/sdt-config.h" "$1/sys/" ||
		return 2
	STAP_INC=-isystem$1
}
