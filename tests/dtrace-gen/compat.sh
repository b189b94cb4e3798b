#!/bin/sh
# Against SystemTap's dtrace (systemtap-sdt-dev) on the same inputs: the
# same macros, the same semaphore symbols (names, order, size, binding,
# visibility, with and without -DSTAP_SDT_V2 / V1), the same .probes
# section. And the two mix: our header links with its object and the
# other way round.
#
# SystemTap's dtrace reads CC and CFLAGS from the environment for -G (a
# package build exports -O2, which reorders its semaphores): it runs here
# without CFLAGS, and the semaphores are compared as a set, since neither
# tool promises an order. Without python3-pyparsing it parses with regular
# expressions and copies the source text into its comments instead.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"

STAP_DTRACE=${STAP_DTRACE:-/usr/bin/dtrace}
[ -x "$STAP_DTRACE" ] || skip "SystemTap's dtrace is not installed (systemtap-sdt-dev)"
# The Python that runs it (its #! line), not the one first on PATH.
interp=$(sed -n '1s/^#! *//p' "$STAP_DTRACE")
pyparsing=yes
# shellcheck disable=SC2086 # the #! line's words
$interp -c 'import pyparsing' 2>/dev/null || {
	pyparsing=no
	note "python3-pyparsing is missing for $interp: SystemTap's dtrace uses its" \
		"fallback parser, so its type comments are not compared" \
		"(scripts/install-deps installs it)"
}
stap_dtrace() { env -u CFLAGS "$STAP_DTRACE" "$@"; }
# obj_summary with the semaphores as a set: their order and so their
# offsets are the tool's choice.
obj_facts() { obj_summary "$1" | sed 's/ value=[0-9a-f]*//' | sort; }
need_cmd readelf
cd "$T" || fail "cd"

# The inputs SystemTap's own parser reads correctly (edge.d has shapes it
# gets wrong; see golden.sh for ours).
for name in glib memcached node postgresql python quirks; do
	d=$DG_DATA/inputs/$name.d
	flags=
	[ $name = postgresql ] && flags=-C
	"$DG" $flags -h -s "$d" -o dg.h || fail "$name: dtrace-gen -h"
	stap_dtrace $flags -h -s "$d" -o st.h >st.log 2>&1 ||
		{ cat st.log; fail "$name: SystemTap dtrace -h"; }
	# The macros a program uses. Ours leaves out SystemTap's per-probe
	# STAP_SDT_V1 aliases (PROVIDER_NAME_semaphore for NAME_semaphore),
	# which only its own declarations use, and adds its _SDTKIT_ helpers.
	expect_eq "$name: macro names" "$(macro_set st.h | grep -v '_semaphore$')" \
		"$(macro_set dg.h | grep -v '^_SDTKIT_')"
	# The semaphores the headers declare, in order, as the compiler sees
	# them, with and without STAP_SDT_V1.
	for v in "" -DSTAP_SDT_V1; do
		expect_eq "$name: declared semaphores $v" \
			"$($CC $v -I"$SDT_INCLUDE" -E -P st.h | grep -o 'extern unsigned short [a-z_A-Z0-9]*')" \
			"$($CC $v -I"$SDT_INCLUDE" -E -P dg.h | grep -o 'extern unsigned short [a-z_A-Z0-9]*')"
	done
	# The per-probe comments, when SystemTap's main parser read the file
	# (it falls back when pyparsing is missing or cannot read the file).
	if [ $pyparsing = yes ] && ! grep -q 'Proceeding as if' st.log; then
		expect_eq "$name: type comments" "$(grep '^/\* [A-Z0-9_]* (' st.h)" \
			"$(grep '^/\* [A-Z0-9_]* (' dg.h)"
	fi
	for v in "" -DSTAP_SDT_V2 -DSTAP_SDT_V1; do
		"$DG" $flags $v -G -s "$d" -o dg.o || fail "$name: dtrace-gen -G $v"
		stap_dtrace $flags $v -G -s "$d" -o st.o >st.log 2>&1 ||
			{ cat st.log; fail "$name: SystemTap dtrace -G $v"; }
		expect_eq "$name -G $v: object facts" "$(obj_facts st.o)" \
			"$(obj_facts dg.o)"
	done

	# Mixed: each header with the other's object, probes compiled in.
	"$DG" $flags -G -s "$d" -o dg.o && stap_dtrace $flags -G -s "$d" -o st.o >/dev/null 2>&1
	macro=$(sed -n 's/^#define \([A-Z0-9_]*\)_ENABLED().*/\1/p' dg.h | head -n 1)
	printf '#include "%s"\nint main(void) { return %s_ENABLED() ? 1 : 0; }\n' dg.h "$macro" >use-dg.c
	sed 's/dg\.h/st.h/' use-dg.c >use-st.c
	$CC -I"$SDT_INCLUDE" -I. -o mix1 use-dg.c st.o || fail "$name: our header with SystemTap's object"
	$CC -I"$SDT_INCLUDE" -I. -o mix2 use-st.c dg.o || fail "$name: SystemTap's header with our object"
	./mix1 && ./mix2 || fail "$name: _ENABLED() true with no tracer"
done
exit 0
