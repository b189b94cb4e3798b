#!/bin/sh
# The man pages: every page in the tree renders without a single warning
# (man --warnings and groff -ww) and without words run together, every
# link page points at a page of the tree, every page it cites exists
# (ours in the tree, others from a short list of tracers' and binutils'
# pages), none
# cites dtrace(1), which is SystemTap's page when our alias is not
# installed, and the options each tool's --help lists are exactly those
# its page's OPTIONS section describes.
. "$top_srcdir/tests/lib.sh"

need_cmd man groff python3
cd "$top_srcdir" || fail "cd $top_srcdir"
pages=$(find . \( -name .git -o -name 'sdtkit-*' -o -name autom4te.cache \) \
	-prune -o -type f -name '*.[1-8]' -print | sed 's|^\./||' | sort)
[ -n "$pages" ] || fail "no man pages found under $top_srcdir"

# Link pages (`.so man3/libstapsdt.3') only need their target in the tree.
links=
for page in $pages; do
	so=$(sed -n '1s/^\.so //p' "$page")
	[ -n "$so" ] || continue
	[ "$(wc -l <"$page")" = 1 ] || fail "$page: a .so link page has more than that line"
	echo "$pages" | grep -q "/${so##*/}\$" || fail "$page links to $so, which is not in the tree"
	links="$links $page"
done
pages=$(for page in $pages; do
	case " $links " in *" $page "*) ;; *) echo "$page" ;; esac
done)

for page in $pages; do
	MANWIDTH=80 man --warnings -l "$page" >/dev/null 2>"$T/man.err"
	[ -s "$T/man.err" ] && fail "man --warnings -l $page: $(cat "$T/man.err")"
	groff -ww -z -man "$page" 2>"$T/groff.err"
	[ -s "$T/groff.err" ] && fail "groff -ww -z -man $page: $(cat "$T/groff.err")"
done
# One date on every page (the month of the last release of the set).
dates=$(for page in $pages; do
	sed -n '1s/^\.TH [^ ]* [0-9] \([^ ]*\) .*/\1/p' "$page"
done | sort -u)
[ "$(echo "$dates" | wc -l)" = 1 ] && [ -n "$dates" ] ||
	fail "the pages' .TH dates differ or are missing: $(echo $dates)"
note "$(echo "$pages" | wc -w) pages render without warnings; $(echo "$links" | wc -w) link pages"

# Words man renders that the source never spells: two words run together,
# as `.BR libstapsdt (3), of any architecture' renders "ofanyarchitecture"
# (the alternating-font macros join all their arguments). Allowed joins:
# an option and its argument (`.BI \-o output'), a name and a one-letter
# metavariable (`.BI STAP_PROBE n'), lines continued with \c.
python3 - $pages <<'PY' || exit 1
import os, re, shlex, subprocess, sys
ALT = {"BR", "BI", "IR", "RB", "IB", "RI"}

def text_of(s):
    s = s.replace("\\e", "\0").replace("\\\\", "\0").replace("\\-", "-")
    s = re.sub(r'\\f(\[[^]]*\]|\(..|.)', '', s)
    s = re.sub(r'\\\*(\[[^]]*\]|\(..|.)', ' ', s)
    s = re.sub(r'\\(\[[^]]*\]|\(..)', ' ', s)
    s = re.sub(r'\\[&|^%:c]', '', s)
    return re.sub(r'\\.', ' ', s)

def joinable(a, b):
    """An option and its argument, a name and a one-letter metavariable
    (`STAP_PROBE' n)."""
    a, b = text_of(a), text_of(b)
    return a.startswith("-") or re.search(r"[A-Z_]$", a) or len(b.strip()) == 1

def words_in(page):
    src = open(page, encoding="utf-8").read().replace("\\c\n", "")
    out = []
    for line in src.split("\n"):
        if line.startswith(('.\\"', "'\\\"")):
            continue
        m = re.match(r"[.'](\S+)\s*(.*)", line)
        if not m:
            out.append(line)
            continue
        if m.group(1) in ALT:
            try:
                args = shlex.split(m.group(2).replace("\\", "\\\\"))
            except ValueError:
                args = m.group(2).split()
            args = [a.replace("\\\\", "\\") for a in args]
            out.extend(args)
            out.extend(a + b for a, b in zip(args, args[1:]) if joinable(a, b))
        else:
            out.append(m.group(2))
    return set(re.findall(r'[A-Za-z]+', text_of(" ".join(out))))

bad = []
for page in sys.argv[1:]:
    env = dict(os.environ, MANWIDTH="10000")
    r = subprocess.run(["man", "-l", page], env=env, capture_output=True, text=True)
    rendered = set(re.findall(r'[A-Za-z]+', re.sub(r'.\x08', '', r.stdout)))
    extra = sorted(rendered - words_in(page))
    if extra:
        bad.append("%s renders words its source does not spell (joined?): %s"
                   % (page, " ".join(extra)))
if bad:
    print("FAIL: " + "\n".join(bad), file=sys.stderr)
    sys.exit(1)
PY

# Cross-references: NAME(SECTION) in bold, as man pages write them.
python3 - "$pages" <<'PY' || exit 1
import os, re, sys
pages = sys.argv[1].split()
ours = {os.path.basename(p) for p in pages}
# Pages of other packages we may cite (the tracers, binutils, libc and
# the kernel's manual pages).
external = {"bpftrace.8", "perf-probe.1", "readelf.1", "tplist-bpfcc.8",
            "fnmatch.3", "fork.2", "membarrier.2", "dlopen.3",
            "memfd_create.2", "pthread_atfork.3"}
ref = re.compile(r'^\.BR\s+(\S+)\s+\((\d)\)|\\fB([^\\]+)\\f[RP]\((\d)\)', re.M)
bad = []
for p in pages:
    text = open(p).read()
    for m in ref.finditer(text):
        name = (m.group(1) or m.group(3)).replace("\\-", "-").strip('"')
        sect = m.group(2) or m.group(4)
        page = "%s.%s" % (name, sect)
        if page == "dtrace.1":
            bad.append("%s cites dtrace(1), SystemTap's page without our alias: cite dtrace-gen(1)" % p)
        elif page not in ours and page not in external:
            bad.append("%s cites %s(%s), which is no page we know" % (p, name, sect))
if bad:
    print("FAIL: " + "\n".join(bad), file=sys.stderr)
    sys.exit(1)
PY

# --help against OPTIONS. Options in --help: the words before the first
# two-space gap of each indented line that starts with `-'. Options in the
# page: the `-' words of each tag line (the line after .TP) of OPTIONS.
help_options() {
	"$@" --help | python3 -c '
import re, sys
opts = set()
for line in sys.stdin:
    if re.match(r"\s+-", line):
        head = re.split(r"\s{2,}", line.strip())[0]
        opts.update(re.findall(r"(?<![\w=-])(--?[A-Za-z0-9][-A-Za-z0-9]*)", head))
print("\n".join(sorted(opts)))'
}
page_options() {
	python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"^\.SH OPTIONS\n(.*?)^\.SH ", text, re.M | re.S)
opts = set()
if m:
    lines = m.group(1).split("\n")
    for i, line in enumerate(lines[:-1]):
        if line.startswith(".TP"):
            tag = lines[i + 1].replace("\\-", "-")
            tag = re.sub(r"\\f[BIRP]", " ", tag)
            opts.update(re.findall(r"(?<![\w=-])(--?[A-Za-z0-9][-A-Za-z0-9]*)", tag))
print("\n".join(sorted(opts)))
PY
}
for tool in dtrace-gen sdt-list; do
	exe=$top_builddir/$tool/$tool
	[ -x "$exe" ] || fail "$exe is not built"
	help_options "$exe" >"$T/help.$tool" || fail "$tool --help failed"
	page_options "$tool/$tool.1" >"$T/page.$tool"
	[ -s "$T/help.$tool" ] || fail "no options found in $tool --help"
	[ -s "$T/page.$tool" ] || fail "no options found in $tool.1"
	note "$tool: $(tr "\n" " " <"$T/help.$tool")"
	diff "$T/help.$tool" "$T/page.$tool" >"$T/diff.$tool" ||
		fail "$tool: --help (<) and $tool.1 OPTIONS (>) differ:
$(grep '^[<>]' "$T/diff.$tool")"
done
