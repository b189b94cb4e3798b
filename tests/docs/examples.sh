#!/bin/sh
# The examples in README.md and docs/*.md run as written. A marker line
# right before a code block (indented or fenced) says what the block is:
#
#   <!-- example: FILE -->    its text is the file FILE
#   <!-- example: run -->     a shell script, run with sh -e; it must succeed
#   <!-- example: output -->  exactly what the run block before it prints
#                             on stdout (empty lines at its end aside:
#                             bpftrace prints some when it exits, how many
#                             depends on its version)
#
# Each document's blocks run in order in a directory of their own, against
# a staged `make install' first on PATH and in pkg-config's path, the way a
# user with sdtkit installed would type them. A run block that calls
# bpftrace runs only where bpftrace can load programs (root); the others
# always run, and so does every output block whose run block ran.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/lib.sh"

need_cmd python3 pkg-config
stage_install
lib=$(dirname "$(find "$STAGE" -name 'libstapsdt.so' | head -n 1)")
PATH=$STAGE_PREFIX/bin:$PATH
PKG_CONFIG_PATH=$STAGE_PC
PKG_CONFIG_SYSROOT_DIR=$STAGE
LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR LD_LIBRARY_PATH
bpf=no
if [ "$(id -u)" = 0 ] && command -v bpftrace >/dev/null 2>&1; then
	[ -e /sys/kernel/tracing/uprobe_events ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	case "$(timeout 60 bpftrace -e 'BEGIN { printf("ok\n"); exit(); }' 2>&1)" in
	*ok*) bpf=yes ;;
	esac
fi
[ $bpf = yes ] || note "bpftrace cannot load programs here: blocks that call it are not run"

cd "$top_srcdir" || fail "cd $top_srcdir"
BPF=$bpf python3 - "$T" README.md docs/*.md <<'PY' || exit 1
import os, re, subprocess, sys

scratch, docs = sys.argv[1], sys.argv[2:]
marker = re.compile(r"^<!-- example: (\S+) -->$")

def blocks(path):
    """(line, kind, text) for each marked block of PATH."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = marker.match(lines[i])
        i += 1
        if not m:
            continue
        at = i
        while i < len(lines) and not lines[i].strip():
            i += 1
        body = []
        if i < len(lines) and lines[i].startswith("```"):
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            i += 1
        else:
            while i < len(lines) and (lines[i].startswith("    ") or
                                      (not lines[i].strip() and i + 1 < len(lines)
                                       and lines[i + 1].startswith("    "))):
                body.append(lines[i][4:])
                i += 1
        if not body:
            sys.exit("FAIL: %s:%d: an example marker with no code block after it" % (path, at))
        yield at, m.group(1), "\n".join(body) + "\n"

failed, ran, skipped, compared = [], 0, 0, 0
for doc in docs:
    work = os.path.join(scratch, "examples", doc.replace("/", "_"))
    os.makedirs(work)
    out = None
    for line, kind, text in blocks(doc):
        where = "%s:%d" % (doc, line)
        if kind == "run":
            if "bpftrace" in text and os.environ["BPF"] != "yes":
                skipped += 1
                out = "skipped"
                continue
            r = subprocess.run(["sh", "-e", "-c", text], cwd=work, capture_output=True,
                               text=True, timeout=120)
            ran += 1
            out = r.stdout
            if r.returncode:
                failed.append("%s: exit status %d\n%s%s" % (where, r.returncode, r.stdout, r.stderr))
        elif kind == "output":
            if out is None:
                failed.append("%s: an output block with no run block before it" % where)
            elif out == "skipped":
                pass
            elif out.rstrip("\n") != text.rstrip("\n"):
                failed.append("%s: the run block before it printed\n%s--- where the text says\n%s"
                              % (where, out, text))
            else:
                compared += 1
            out = None
        else:
            if "/" in kind or kind.startswith("."):
                failed.append("%s: example file name %s must be a plain name" % (where, kind))
                continue
            with open(os.path.join(work, kind), "w", encoding="utf-8") as f:
                f.write(text)
print("# %d example blocks run, %d outputs compared, %d need bpftrace and were not run"
      % (ran, compared, skipped))
if failed:
    print("FAIL: " + "\nFAIL: ".join(failed), file=sys.stderr)
    sys.exit(1)
if not ran:
    sys.exit("FAIL: no marked example was run")
PY
exit 0
