# Shared by the sdt-list tests (after tests/lib.sh): where the program is,
# and how to build tests/sdt-list/probes.c with either header.
SDT_LIST=$top_builddir/sdt-list/sdt-list
STAP_HEADER=/usr/include/x86_64-linux-gnu/sys/sdt.h
[ -x "$SDT_LIST" ] || fail "$SDT_LIST is not built"
need_cmd python3

# build_probes stap|ours OUT [CFLAGS...]: compile probes.c with that header.
build_probes() {
	hdr=$1
	out=$2
	shift 2
	case $hdr in
	stap)
		[ -f "$STAP_HEADER" ] || skip "SystemTap's sys/sdt.h is not installed"
		inc=
		;;
	ours) inc="-I$top_srcdir/include" ;;
	esac
	# shellcheck disable=SC2086
	$CC -O2 -g $inc "$@" -o "$out" "$top_srcdir/tests/sdt-list/probes.c" \
		"$top_srcdir/tests/sdt-list/gated.c" ||
		fail "cannot build probes.c with the $hdr header"
}

# verdicts JSON CONSUMER [EXCEPT]: from sdt-list --json output, one line per
# probe (its first site): "PROVIDER:NAME NARGS accept|reject" by CONSUMER's
# verdict, leaving out the probe EXCEPT.
verdicts() {
	python3 - "$1" "$2" "${3:-}" <<'PY'
import json, sys
seen = {sys.argv[3]}
for s in json.load(open(sys.argv[1])):
    key = s["provider"] + ":" + s["name"]
    if key in seen:
        continue
    seen.add(key)
    ok = s["check"][sys.argv[2]]["ok"]
    print(key, len(s["arguments"]), "accept" if ok else "reject")
PY
}
