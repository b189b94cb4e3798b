#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Real structs as probe arguments, checked against pahole and bpftrace.

The structs come from a C header of the running kernel's types
(`bpftool btf dump file /sys/kernel/btf/vmlinux format c`): thousands of
real layouts with bit-fields of enum type, anonymous unions, flexible
arrays, packed and aligned structs. Batches of them become the pointees of
one provider's probes; each batch is compiled with -g, linked with the
dtrace-gen -G object, stripped, and then:

- every probe must have a layout in `sdt-list --json` of the stripped file;
- every field's offset, size and bits must equal pahole's reading of the
  object's DWARF (nested members compared at their offset in the outer
  struct);
- the program `sdt-list --bpftrace` prints must compile to BPF
  (`bpftrace --emit-elf`: up to 0.23 nothing is attached; from 0.25 on
  with BPFTRACE_DRY=--dry-run, which exits once attached); where a batch's
  program fails, each probe's program is compiled alone to name the struct.

Usage: struct-corpus.py WORKDIR VMLINUX_H COUNT BATCH CC
COUNT 0 takes every struct; else COUNT structs spread evenly over the
sorted names (the same sample every run). Prints a summary; exits 1 on
any mismatch.
"""
import json
import os
import re
import subprocess
import sys

DG = os.environ["DG"]
SDT_LIST = os.environ["SDT_LIST"]
SDT_INCLUDE = os.environ["SDT_INCLUDE"]
BPFTRACE = os.environ.get("BPFTRACE", "")
# --dry-run where --emit-elf alone would go on to run the program (0.25 on).
BPFTRACE_DRY = os.environ.get("BPFTRACE_DRY", "").split()


def struct_names(header):
    names = re.findall(r"^struct ([A-Za-z_][A-Za-z0-9_]*) \{", open(header).read(), re.M)
    return sorted(set(names))


def sample(names, count):
    if count <= 0 or count >= len(names):
        return names
    step = len(names) / count
    return [names[int(i * step)] for i in range(count)]


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


PAHOLE_MEMBER = re.compile(
    r"^(\s*)(.*?)\s*;\s*/\*\s*(\d+)(:\s*(\d+))?\s+(\d+)\s*\*/\s*$")


def pahole_structs(obj, names):
    """{name: [(path, offset, size, bits or None)]} from pahole's text."""
    out = {}
    r = run(["pahole", "--suppress_aligned_attribute", "-F", "dwarf", obj])
    cur = None
    stack = []
    for line in r.stdout.splitlines():
        m = re.match(r"^struct ([A-Za-z0-9_]+) \{", line)
        if m:
            cur = m.group(1) if m.group(1) in names else None
            if cur:
                out[cur] = []
            stack = []
            continue
        if cur is None:
            continue
        if line == "};" or line.startswith("} "):
            cur = None
            continue
        s = line.strip()
        if re.match(r"^((const|volatile) )*(struct|union|enum)( [A-Za-z0-9_]+)? \{", s):
            stack.append(len(out[cur]))
            continue
        m = PAHOLE_MEMBER.match(line)
        if s.startswith("}"):
            start = stack.pop() if stack else len(out[cur])
            if not m or "[" in m.group(2):
                # a type pahole prints in place (clang's DWARF), no member;
                # or an array of one, whose elements we do not describe
                del out[cur][start:]
            if not m:
                continue
            out[cur].append((member_name(m.group(2)[1:]) if m.group(2)[1:].strip() else "",
                             int(m.group(3)), int(m.group(6)), None, len(stack)))
            continue
        if not m:
            continue
        decl, off, bit, size = m.group(2), int(m.group(3)), m.group(5), int(m.group(6))
        out[cur].append((decl, off, size, int(bit) if bit else None, len(stack)))
    return out


def flatten(layout):
    """Our fields as (name, offset, size, first bit or None), nested ones
    at their offset in the outer struct."""
    rows = []

    def walk(fields, base, depth):
        for f in fields:
            bits = None
            if "bit_size" in f:
                bits = base * 8 + f["bit_offset"]
            rows.append((f["name"], base + f["offset"], f["size"], bits, depth))
            if "fields" in f:
                walk(f["fields"], base + f["offset"], depth + 1)

    walk(layout["fields"], 0, 0)
    return rows


def member_name(decl):
    """The member's name in a pahole declaration."""
    m = re.search(r"\(\*\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)", decl)
    if m:  # a function pointer, its parameters perhaps holding more
        return m.group(1)
    decl = re.sub(r"\[[^]]*\]", "", decl)
    decl = re.sub(r":\s*\d+$", "", decl)
    m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*\)?\s*(\([^)]*\))?\s*$", decl)
    return m.group(1) if m else ""


def compare(name, ours, theirs):
    """Top-level members: each of pahole's must be ours, same place."""
    top = [r for r in theirs if r[4] == 0]
    mine = [r for r in ours if r[4] == 0]
    if len(top) != len(mine):
        return "%d members, pahole %d" % (len(mine), len(top))
    for a, b in zip(mine, top):
        pname = member_name(b[0]) if b[0] else ""
        if a[0] != pname and not (b[0] == "" or a[0] == ""):
            return "member %s, pahole %s" % (a[0], pname)
        if a[1] != b[1] or (a[2] != b[2] and not (a[2] == 0 and b[3] is None)):
            return "%s at %d (%d bytes), pahole %d (%d)" % (a[0], a[1], a[2], b[1], b[2])
        if b[3] is not None and a[3] != b[1] * 8 + b[3]:
            return "%s bits from %s, pahole %d" % (a[0], a[3], b[1] * 8 + b[3])
    # Members of the structs held by value (one level, as ours): where we
    # have a field of that name inside, one must sit where pahole says.
    inner = {}
    for a in ours:
        if a[4] == 1:
            inner.setdefault(a[0], []).append(a[1:4])
    for b in theirs:
        if b[4] != 1 or not b[0]:
            continue
        pname = member_name(b[0])
        bits = b[1] * 8 + b[3] if b[3] is not None else None
        if pname in inner and not any(
                o == b[1] and (sz == b[2] or sz == 0) and (bits is None or bt == bits)
                for o, sz, bt in inner[pname]):
            return "nested %s: ours %s, pahole %d (%d)" % (pname, inner[pname], b[1], b[2])
    return None


def bt_compile(prog, where):
    path = os.path.join(where, "check.bt")
    with open(path, "w") as f:
        f.write(prog)
    env = dict(os.environ, BPFTRACE_MAX_PROBES="100000",
               BPFTRACE_MAX_BPF_PROGS="100000")
    r = run([BPFTRACE] + BPFTRACE_DRY + ["--emit-elf", os.path.join(where, "check.elf"), path],
            env=env, timeout=600)
    return r.returncode == 0, (r.stderr or r.stdout).strip().splitlines()[-3:]


def batch(work, idx, names, cc, header, stats):
    d = os.path.join(work, "b%d" % idx)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "c.d"), "w") as f:
        f.write("provider corpus {\n")
        for i, n in enumerate(names):
            f.write("\tprobe s%d(struct %s *p);\n" % (i, n))
        f.write("};\n")
    with open(os.path.join(d, "c.c"), "w") as f:
        f.write('#define BPF_NO_PRESERVE_ACCESS_INDEX\n#include "%s"\n'
                '#include "c.h"\n' % header)
        for i, n in enumerate(names):
            f.write("void f%d(struct %s *p) { CORPUS_S%d(p); }\n" % (i, n, i))
    # -std=gnu11, the kernel's own: bpftool's dump typedefs bool, a
    # keyword in C23 (gcc 15 and later default to it).
    steps = [
        [DG, "-h", "-s", "c.d", "-o", "c.h"],
        cc.split() + ["-std=gnu11", "-g", "-O1", "-fPIC", "-w",
                      "-I" + SDT_INCLUDE, "-I.",
                      "-c", "c.c", "-o", "c.o"],
        [DG, "-G", "-s", "c.d", "-o", "p.o", "c.o"],
        cc.split() + ["-shared", "-o", "libc.so", "c.o", "p.o"],
        ["strip", "-o", "libs.so", "libc.so"],
    ]
    for s in steps:
        r = run(s, cwd=d)
        if r.returncode:
            print("batch %d: %s failed: %s" % (idx, s[0], r.stderr[-500:]))
            stats["fail"] += len(names)
            return
        if s[0] == DG and s[1] == "-G" and r.stderr.strip():
            print("batch %d: dtrace-gen -G said: %s" % (idx, r.stderr.strip()[:500]))
            stats["warned"] += 1
    r = run([SDT_LIST, "--json", "libs.so"], cwd=d)
    sites = json.loads(r.stdout) if r.returncode == 0 else []
    layouts = {}
    for s in sites:
        args = s.get("arguments") or []
        if args:
            layouts[s["name"]] = args[0].get("layout")
    theirs = pahole_structs(os.path.join(d, "c.o"), set(names))
    for i, n in enumerate(names):
        stats["structs"] += 1
        lay = layouts.get("s%d" % i)
        if not lay or not lay.get("found"):
            stats["missing"] += 1
            print("struct %s: no layout (%s)" % (n, lay and lay.get("hint")))
            continue
        if n not in theirs:
            stats["no_pahole"] += 1
            continue
        ours = flatten(lay)
        stats["fields"] += len(ours)
        why = compare(n, ours, theirs[n])
        if why:
            stats["mismatch"] += 1
            print("struct %s: %s" % (n, why))
    if not BPFTRACE:
        return
    r = run([SDT_LIST, "--bpftrace", "libs.so"], cwd=d)
    ok, err = bt_compile(r.stdout, d)
    stats["bt_batches"] += 1
    if ok:
        stats["bt_ok"] += len(names)
        return
    for i, n in enumerate(names):
        r = run([SDT_LIST, "--bpftrace", "libs.so", "corpus:s%d" % i], cwd=d)
        ok, err = bt_compile(r.stdout, d)
        if ok:
            stats["bt_ok"] += 1
        else:
            stats["bt_fail"] += 1
            print("struct %s: bpftrace refused: %s" % (n, " | ".join(err)))


def main():
    work, header, count, size, cc = sys.argv[1:6]
    if count.startswith("@"):
        names = open(count[1:]).read().split()
    else:
        names = sample(struct_names(header), int(count))
    stats = dict(structs=0, fields=0, missing=0, mismatch=0, no_pahole=0,
                 fail=0, warned=0, bt_ok=0, bt_fail=0, bt_batches=0)
    size = int(size)
    for k in range(0, len(names), size):
        batch(work, k // size, names[k:k + size], cc, os.path.abspath(header), stats)
        print("# after batch %d: %s" % (k // size, stats), flush=True)
    print("corpus (%s): %(structs)d structs, %(fields)d fields; no layout "
          "%(missing)d, differ from pahole %(mismatch)d, not in pahole "
          "%(no_pahole)d, build failures %(fail)d; bpftrace compiled "
          "%(bt_ok)d, refused %(bt_fail)d" % dict(stats, cc=cc) % stats
          if False else
          "corpus (%s): %d structs, %d fields; no layout %d, differ from "
          "pahole %d, not in pahole %d, build failures %d, -G warnings %d; "
          "bpftrace compiled %d, refused %d" % (
              cc, stats["structs"], stats["fields"], stats["missing"],
              stats["mismatch"], stats["no_pahole"], stats["fail"],
              stats["warned"], stats["bt_ok"], stats["bt_fail"]))
    bad = stats["missing"] + stats["mismatch"] + stats["fail"] + stats["bt_fail"]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
