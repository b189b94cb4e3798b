#!/usr/bin/env python3
"""Print the typed-probe records of ELF files, one JSON list a line:
[provider, probe, count, type1, name1, type2, name2, ...]; with --all
first, also the fields after those (a generated header's mark). A
compact record (note type 3) prints as the text record it stands for:
its codes' type texts, marked "header", "usdt".

It reads the records the way docs/typed-probes.md describes them and uses
nothing of sdtkit: `readelf -x .note.sdtkit' gives the raw bytes of every
section of that name (a relocatable object has one per COMDAT group), the
ELF header's EI_DATA byte gives the byte order. Exits 1, saying why, on a
record that breaks the format."""
import os
import struct
import subprocess
import sys


def sections(path):
    """The bytes of each .note.sdtkit section of PATH, in file order."""
    env = dict(os.environ, LC_ALL="C")
    out = subprocess.run(["readelf", "-x", ".note.sdtkit", path], env=env,
                         capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        if line.startswith("Hex dump of section"):
            found.append(bytearray())
        elif found and line.startswith("  0x"):
            # "  0xADDRESS " then 16 bytes as four hex groups, then text.
            found[-1] += bytes.fromhex(line[13:48].replace(" ", ""))
    return found


def records(data, order, where):
    at = 0
    while at < len(data):
        if len(data) - at < 12:
            sys.exit("%s: %d stray bytes at %#x" % (where, len(data) - at, at))
        namesz, descsz, ntype = struct.unpack_from(order + "3I", data, at)
        desc_at = at + 12 + (namesz + 3) // 4 * 4
        end = desc_at + (descsz + 3) // 4 * 4
        if end > len(data):
            sys.exit("%s: a note at %#x runs past its section" % (where, at))
        if data[at + 12:at + 12 + namesz] == b"sdtkit\0" and ntype == 1:
            desc = bytes(data[desc_at:desc_at + descsz])
            if any(data[desc_at + descsz:end]) or not desc.endswith(b"\0"):
                sys.exit("%s: record at %#x is not NUL-ended and padded"
                         % (where, at))
            fields = desc[:-1].decode().split("\0")
            if len(fields) < 3 or not fields[2].isdigit() or \
               str(int(fields[2])) != fields[2] or \
               len(fields) < 3 + 2 * int(fields[2]):
                sys.exit("%s: record at %#x has fields %r"
                         % (where, at, fields))
            # Later fields (a header's mark) only with --all.
            yield fields if ALL else fields[:3 + 2 * int(fields[2])]
        elif data[at + 12:at + 12 + namesz] == b"sdtkit\0" and ntype == 3:
            yield compact(bytes(data[desc_at:desc_at + descsz]), at, where)
        at = end


# The type text of each code of a compact record; others are unknown.
CODES = ["", "char", "signed char", "unsigned char", "short",
         "unsigned short", "int", "unsigned int", "long", "unsigned long",
         "long long", "unsigned long long", "bool", "char *", "const char *",
         "", "void *", "float", "double"]


def compact(desc, at, where):
    """A compact record as the fields of its text record."""
    parts = desc.split(b"\0", 2)
    if len(parts) < 3 or not parts[2] or parts[2][0] > 12:
        sys.exit("%s: compact record at %#x: %r" % (where, at, desc))
    n, rest = parts[2][0], parts[2][1:]
    names = rest[n:].split(b"\0")
    if len(rest) < n or len(names) < n + 1:
        sys.exit("%s: compact record at %#x: %r" % (where, at, desc))
    fields = [parts[0].decode(), parts[1].decode(), str(n)]
    for i in range(n):
        fields += [CODES[rest[i]] if rest[i] < len(CODES) else "",
                   names[i].decode()]
    return fields + ["header", "usdt"] if ALL else fields


ALL = sys.argv[1:2] == ["--all"]
for path in sys.argv[1 + ALL:]:
    with open(path, "rb") as f:
        ident = f.read(6)
    if ident[:4] != b"\x7fELF" or ident[5] not in (1, 2):
        sys.exit("%s: not an ELF file" % path)
    order = "<" if ident[5] == 1 else ">"
    for data in sections(path):
        for rec in records(data, order, path):
            print("[" + ", ".join('"%s"' % s for s in rec) + "]")
