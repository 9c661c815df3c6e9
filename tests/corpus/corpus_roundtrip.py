#!/usr/bin/env python3
"""Corpus suite for the d3d-asm text form: every DXBC (SM4/5) container of the
corpus is disassembled (`-b d3d-asm`) and assembled again (`-x d3d-asm -b
dxbc-tpf`); the program tokens (SHDR/SHEX) and the signature chunks must be
bit-identical. One test per container; ends with "N passed, N failed".
A container the disassembler refuses with E1011 (interfaces and class
linkage, which the TPF front end may refuse) is counted and listed as
refused, not failed. Exits 77 (skipped) when no corpus is found.

usage: corpus_roundtrip.py SHADER_TRANSLATE CORPUS_DIR   (env DXSPV_CORPUS overrides)
"""
import os
import struct
import subprocess
import sys

from corpus_manifest import read_manifest

SIGNATURES = {b"ISGN": b"ISG", b"ISG1": b"ISG", b"OSGN": b"OSG", b"OSG1": b"OSG", b"OSG5": b"OSG",
              b"PCSG": b"PSG", b"PSG1": b"PSG"}


def chunks(data):
    count = struct.unpack_from("<I", data, 28)[0]
    out = {}
    for i in range(count):
        off = struct.unpack_from("<I", data, 32 + 4 * i)[0]
        fourcc = data[off:off + 4]
        size = struct.unpack_from("<I", data, off + 4)[0]
        out.setdefault(fourcc, data[off + 8:off + 8 + size])
    return out


def compare(original, rebuilt):
    a, b = chunks(original), chunks(rebuilt)
    problems = []
    prog_a = a.get(b"SHEX") or a.get(b"SHDR")
    prog_b = b.get(b"SHEX") or b.get(b"SHDR")
    if prog_a != prog_b:
        wa = struct.unpack_from(f"<{len(prog_a) // 4}I", prog_a)
        wb = struct.unpack_from(f"<{len(prog_b) // 4}I", prog_b) if prog_b else ()
        first = next((i for i in range(min(len(wa), len(wb))) if wa[i] != wb[i]), min(len(wa), len(wb)))
        problems.append(f"tokens differ at dword {first} ({len(wa)} vs {len(wb)} dwords)")
    for fourcc, kind in SIGNATURES.items():
        if fourcc in a:
            match = [v for k, v in b.items() if SIGNATURES.get(k) == kind]
            if not match or match[0] != a[fourcc]:
                problems.append(f"{fourcc.decode()} differs")
    return problems


def main():
    tool = sys.argv[1]
    corpus, manifest = read_manifest(sys.argv[2])
    if manifest is None:
        return 77
    rows = [r for r in manifest if r["kind"] == "dxbc"]
    passed = failed = refused = 0
    for row in rows:
        path = os.path.join(corpus, row["file"])
        original = open(path, "rb").read()
        asm = subprocess.run([tool, "-b", "d3d-asm", path], capture_output=True)
        problems = []
        if asm.returncode == 1 and b": E1011: " in asm.stderr:
            refused += 1
            print(f"REFUSED {row['file']}: {asm.stderr.decode(errors='replace').strip().split(': ', 1)[-1][:160]}")
            continue
        if asm.returncode != 0:
            problems.append("disassembly failed: " + asm.stderr.decode(errors="replace").strip()[:200])
        else:
            dxbc = subprocess.run([tool, "-x", "d3d-asm", "-b", "dxbc-tpf", "-o", "/dev/stdout", "-"],
                                  input=asm.stdout, capture_output=True)
            if dxbc.returncode != 0:
                problems.append("assembly failed: " + dxbc.stderr.decode(errors="replace").strip()[:200])
            else:
                problems += compare(original, dxbc.stdout)
        if problems:
            failed += 1
            print(f"FAIL {row['file']}: {'; '.join(problems)}")
        else:
            passed += 1
    print(f"d3d-asm round trip: {len(rows)} containers: {passed} identical, {refused} refused (E1011), {failed} failed")
    print(f"{passed} passed, {failed} failed, {refused} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
