#!/usr/bin/env python3
"""Run the marked examples of Markdown documents, as written.

  examples.py [--section TITLE] [--all-marked] SCRATCH DOC...

A marker line right before a code block (indented or fenced) says what the
block is:

  <!-- example: FILE -->    its text is the file FILE
  <!-- example: run -->     a shell script, run with sh -e; it must succeed
  <!-- example: output -->  exactly what the run block before it prints on
                            stdout (empty lines at its end aside: bpftrace
                            prints some when it exits, how many depends on
                            its version)

Each document's blocks run in order in a directory of their own under
SCRATCH, with the environment this script was given. A run block that
calls bpftrace runs only where bpftrace can load programs (root); the
others always run, and so does every output block whose run block ran.
Whatever a run block leaves running in the background is stopped after it.

--section TITLE takes only the blocks under the heading TITLE (up to the
next heading of the same or a higher level); --all-marked makes a code
block there without a marker a failure, so that every line a reader may
type is one that runs. Exit 0: all ran and passed; 77: none failed but
some needed bpftrace and were not run; 1: a failure.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^<!-- example: (\S+) -->$")
HEADING = re.compile(r"^(#+) (.*)$")


def code_block(lines, i):
    """The code block starting at or after line I (blank lines first):
    (its text lines, the index after it), or ([], I) if none is there."""
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
    return body, i


def section_of(lines, title):
    """(first, end) line indexes of the section headed TITLE."""
    for i, line in enumerate(lines):
        m = HEADING.match(line)
        if m and m.group(2).strip() == title:
            level = len(m.group(1))
            for j in range(i + 1, len(lines)):
                n = HEADING.match(lines[j])
                if n and len(n.group(1)) <= level:
                    return i + 1, j
            return i + 1, len(lines)
    sys.exit("FAIL: no section `%s'" % title)


def blocks(path, title, all_marked, failed):
    """(line, kind, text) for each marked block of PATH (of its section
    TITLE if given); with ALL_MARKED, each unmarked code block there is
    added to FAILED."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i, end = section_of(lines, title) if title else (0, len(lines))
    prev_blank = True
    while i < end:
        m = MARKER.match(lines[i])
        if m:
            at = i + 1
            body, i = code_block(lines, i + 1)
            if not body:
                sys.exit("FAIL: %s:%d: an example marker with no code block after it"
                         % (path, at))
            yield at, m.group(1), "\n".join(body) + "\n"
            prev_blank = False
            continue
        if all_marked and (lines[i].startswith("```") or
                           (prev_blank and lines[i].startswith("    "))):
            body, nxt = code_block(lines, i)
            failed.append("%s:%d: a code block with no example marker: a reader "
                          "cannot run it as written" % (path, i + 1))
            i = nxt
            continue
        prev_blank = not lines[i].strip()
        i += 1


def bpftrace_loads():
    """Whether bpftrace can load a program here (root, tracefs)."""
    if os.getuid() != 0:
        return False
    if not os.path.exists("/sys/kernel/tracing/uprobe_events"):
        subprocess.run(["mount", "-t", "tracefs", "nodev", "/sys/kernel/tracing"],
                       stderr=subprocess.DEVNULL)
    try:
        r = subprocess.run(["bpftrace", "-e", 'BEGIN { printf("ok\\n"); exit(); }'],
                           capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "ok" in r.stdout


def run_block(text, cwd):
    """Run TEXT with sh -e in a session of its own, then stop whatever it
    left running; (exit status, stdout, stderr). The outputs go through
    files: a program left in the background keeps a pipe open."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen(["sh", "-e", "-c", text], cwd=cwd, text=True,
                             stdout=out, stderr=err, start_new_session=True)
        late = ""
        try:
            p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            late = "\n(stopped after 120 s)"
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()
        out.seek(0)
        err.seek(0)
        return p.returncode, out.read(), err.read() + late


def main(argv):
    title, all_marked = None, False
    while argv and argv[0].startswith("--"):
        if argv[0] == "--section" and len(argv) > 1:
            title = argv[1]
            argv = argv[2:]
        elif argv[0] == "--all-marked":
            all_marked = True
            argv = argv[1:]
        else:
            sys.exit("usage: examples.py [--section TITLE] [--all-marked] SCRATCH DOC...")
    if len(argv) < 2:
        sys.exit("usage: examples.py [--section TITLE] [--all-marked] SCRATCH DOC...")
    scratch, docs = argv[0], argv[1:]
    bpf = bpftrace_loads()
    if not bpf:
        print("# bpftrace cannot load programs here: blocks that call it are not run")

    failed, ran, skipped, compared = [], 0, 0, 0
    for doc in docs:
        work = os.path.join(scratch, "examples", doc.replace("/", "_"))
        os.makedirs(work)
        out = None
        for line, kind, text in blocks(doc, title, all_marked, failed):
            where = "%s:%d" % (doc, line)
            if kind == "run":
                if "bpftrace" in text and not bpf:
                    skipped += 1
                    out = "skipped"
                    continue
                rc, out, err = run_block(text, work)
                ran += 1
                if rc:
                    failed.append("%s: exit status %d\n%s%s" % (where, rc, out, err))
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
        return 1
    if not ran:
        print("FAIL: no marked example was run", file=sys.stderr)
        return 1
    return 77 if skipped else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
