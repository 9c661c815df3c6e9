#!/usr/bin/env python3
"""Writes fuzzing seeds for each harness into OUT/NAME/ from DXBC containers
(files or directories, recursively) and text files:
  container, translate: the containers as they are;
  tpf:      the SHDR/SHEX chunk bodies;
  bitcode:  the bitcode of DXIL/ILDB parts (after the program header);
  d3d_asm:  *.asm files; shader_test: *.shader_test files;
  ll:       *.ll files, which also seed translate (dxil-ll text).
usage: extract_seeds.py OUT INPUT...
"""
import hashlib
import os
import struct
import sys


def chunks(data):
    if len(data) < 32 or data[:4] != b"DXBC":
        return
    count = struct.unpack_from("<I", data, 28)[0]
    for i in range(min(count, 64)):
        if 32 + 4 * i + 4 > len(data):
            return
        off = struct.unpack_from("<I", data, 32 + 4 * i)[0]
        if off + 8 > len(data):
            continue
        fourcc = data[off:off + 4]
        size = struct.unpack_from("<I", data, off + 4)[0]
        yield fourcc, data[off + 8:off + 8 + size]


def write(out, name, payload):
    if not payload:
        return
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(payload).hexdigest()[:16]), "wb") as f:
        f.write(payload)


def seed(out, path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".asm"):
        write(out, "d3d_asm", data)
    elif path.endswith(".ll"):
        write(out, "ll", data)
        write(out, "translate", data)
    elif path.endswith(".shader_test"):
        write(out, "shader_test", data)
    elif data[:4] == b"DXBC":
        write(out, "container", data)
        write(out, "translate", data)
        for fourcc, body in chunks(data):
            if fourcc in (b"SHDR", b"SHEX"):
                write(out, "tpf", body)
            elif fourcc == b"DXIL" and len(body) >= 24:
                offset, size = struct.unpack_from("<II", body, 16)
                write(out, "bitcode", body[8 + offset:8 + offset + size])


def seed_path(out, path):
    """Seeds from a file, or from every file under a directory."""
    if os.path.isdir(path):
        for root, _, files in os.walk(path):
            for name in sorted(files):
                seed(out, os.path.join(root, name))
    elif os.path.isfile(path):
        seed(out, path)


def main():
    for arg in sys.argv[2:]:
        seed_path(sys.argv[1], arg)


if __name__ == "__main__":
    main()
