#!/usr/bin/env python3
"""Corpus suite: `shader-translate --info` on every DXBC/DXIL container of
the corpus must succeed and report the stage, model and checksum status that
manifest.tsv lists. One test per container; ends with "N passed, N failed".
Exits 77 (skipped) when no corpus is found.

usage: corpus_info.py SHADER_TRANSLATE CORPUS_DIR   (env DXSPV_CORPUS overrides)
"""
import os
import re
import subprocess
import sys

from corpus_manifest import read_manifest


def main():
    tool = sys.argv[1]
    corpus, manifest = read_manifest(sys.argv[2])
    if manifest is None:
        return 77
    passed = failed = 0
    rows = [r for r in manifest if r["kind"] in ("dxbc", "dxil")]
    for row in rows:
        path = os.path.join(corpus, row["file"])
        proc = subprocess.run([tool, "--info", path], capture_output=True, text=True, errors="replace")
        got = dict(re.findall(r"^(stage|model|checksum): (\S+)$", proc.stdout, re.M))
        want = {"stage": row["stage"], "model": row["sm"], "checksum": row["checksum"]}
        problems = []
        if proc.returncode != 0:
            problems.append(f"exit {proc.returncode}: {proc.stderr.strip()[:300]}")
        for key, value in want.items():
            if got.get(key) != value:
                problems.append(f"{key}: got {got.get(key)!r}, manifest says {value!r}")
        if problems:
            failed += 1
            print(f"FAIL {row['file']}: " + "; ".join(problems))
        else:
            passed += 1
    print(f"corpus --info: {len(rows)} containers")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
