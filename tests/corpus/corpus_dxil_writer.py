#!/usr/bin/env python3
"""Corpus suite for the DXIL writer: every DXIL container of the corpus is
re-encoded (`-b dxbc-dxil`: module → LLVM 3.7 bitcode → container). The
output must carry a valid checksum, and LLVM's own reader (llvm-dis, when
installed) must read the written bitcode to the same module as DXC's
original bitcode. One test per container; ends with "N passed, N failed".
Exits 77 (skipped) when no corpus is found.

usage: corpus_dxil_writer.py SHADER_TRANSLATE CORPUS_DIR   (env DXSPV_CORPUS overrides)
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile


def bitcode(container):
    count = struct.unpack_from("<I", container, 28)[0]
    for i in range(count):
        off = struct.unpack_from("<I", container, 32 + 4 * i)[0]
        if container[off:off + 4] == b"DXIL":
            part = container[off + 8:]
            offset, size = struct.unpack_from("<II", part, 16)
            return part[8 + offset:8 + offset + size]
    return None


def disassemble(llvm_dis, data, tmp):
    path = os.path.join(tmp, "in.bc")
    with open(path, "wb") as f:
        f.write(data)
    proc = subprocess.run([llvm_dis, path, "-o", "-"], capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        return None, proc.stderr.strip()[:300]
    # Drop "; ModuleID" and "source_filename", which name the file.
    lines = [l for l in proc.stdout.splitlines() if not l.startswith(("; ModuleID", "source_filename"))]
    return "\n".join(lines), None


def main():
    tool = sys.argv[1]
    corpus = os.path.join(os.environ.get("DXSPV_CORPUS") or sys.argv[2], "dxil")
    if not os.path.isdir(corpus):
        print(f"corpus not found at {corpus} (set DXSPV_CORPUS): skipped")
        return 77
    llvm_dis = shutil.which("llvm-dis") or shutil.which("llvm-dis-14")
    if not llvm_dis:
        print("llvm-dis not installed: checking the containers only")
    files = sorted(f for f in os.listdir(corpus) if f.endswith(".dxil"))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.dxil")
        for name in files:
            path = os.path.join(corpus, name)
            problems = []
            proc = subprocess.run([tool, "-b", "dxbc-dxil", "-o", out, path], capture_output=True, text=True,
                                  errors="replace")
            if proc.returncode != 0:
                problems.append(f"exit {proc.returncode}: {proc.stderr.strip()[:300]}")
            else:
                info = subprocess.run([tool, "--info", out], capture_output=True, text=True, errors="replace")
                if "checksum: ok" not in info.stdout:
                    problems.append("the output's checksum is not ok")
                if llvm_dis:
                    with open(path, "rb") as f:
                        want, err_a = disassemble(llvm_dis, bitcode(f.read()), tmp)
                    with open(out, "rb") as f:
                        got, err_b = disassemble(llvm_dis, bitcode(f.read()), tmp)
                    if err_b:
                        problems.append(f"llvm-dis rejects the written bitcode: {err_b}")
                    elif err_a is None and want != got:
                        problems.append("llvm-dis reads another module from the written bitcode")
            if problems:
                failed += 1
                print(f"FAIL {name}: " + "; ".join(problems))
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
