#!/bin/sh
# `man providerInit': every function and macro libstapsdt.h declares has a
# link page (libstapsdt/man/NAME.3, `.so man3/libstapsdt.3'), is in the
# NAME line of libstapsdt(3), is installed by `make install' and packaged
# by debian/libstapsdt-dev.install; man, pointed at a staged install,
# shows libstapsdt(3) for each name.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/lib.sh"

need_cmd man
h=$top_srcdir/libstapsdt/libstapsdt.h
names=$({
	sed -n 's/^[A-Za-z_][^(;]*[ *]\([A-Za-z][A-Za-z0-9_]*\)(.*/\1/p' "$h"
	sed -n 's/^#define \([A-Za-z][A-Za-z0-9_]*\)(.*/\1/p' "$h"
} | sort -u)
[ "$(echo "$names" | wc -l)" -ge 10 ] || fail "found only these in $h: $names"
page_names=$(sed -n '/^\.SH NAME/,/^\.SH/p' "$top_srcdir/libstapsdt/libstapsdt.3" |
	sed 's/\\-.*//' | tr ', ' '\n\n')
for n in $names; do
	f=$top_srcdir/libstapsdt/man/$n.3
	[ -f "$f" ] || fail "$n has no link page libstapsdt/man/$n.3"
	expect_eq "libstapsdt/man/$n.3" ".so man3/libstapsdt.3" "$(cat "$f")"
	echo "$page_names" | grep -qx "$n" || fail "$n is not in libstapsdt(3)'s NAME line"
done
for f in "$top_srcdir"/libstapsdt/man/*.3; do
	n=$(basename "$f" .3)
	echo "$names" | grep -qx "$n" || fail "libstapsdt/man/$n.3: libstapsdt.h has no $n"
done
note "$(echo "$names" | wc -l) names: $(echo $names)"

# Packaged: each installed link matches a line of the .install file.
inst=$top_srcdir/debian/libstapsdt-dev.install
for n in $names; do
	found=
	while read -r pat; do
		# shellcheck disable=SC2254 # the .install lines are patterns
		case "usr/share/man/man3/$n.3" in $pat) found=yes ;; esac
	done <"$inst"
	[ -n "$found" ] || fail "debian/libstapsdt-dev.install does not ship man3/$n.3"
done

stage_install
mandir=$(dirname "$(find "$STAGE" -path '*/man3/libstapsdt.3')")
[ -d "$mandir" ] || fail "no man3/libstapsdt.3 in the stage"
for n in $names; do
	[ -f "$mandir/$n.3" ] || fail "make install put no man3/$n.3"
	MANPATH=$(dirname "$mandir") MANWIDTH=200 man "$n" >"$T/man.out" 2>"$T/man.err" ||
		{ cat "$T/man.err"; fail "man $n"; }
	grep -q 'USDT probes declared at run time' "$T/man.out" ||
		{ head -n 5 "$T/man.out"; fail "man $n does not show libstapsdt(3)"; }
done
note "man NAME shows libstapsdt(3) for each, from the staged install"
exit 0
