#!/usr/bin/env python3
"""Corpus suite for the DXIL text forms: every DXIL container of the corpus
goes bitcode → dxil-ll text → (the .ll reader, the bitcode writer) DXIL
container → dxil-ll text, and both texts must be identical. One test per
container; ends with "N passed, N failed". Exits 77 (skipped) when no
corpus is found.

usage: corpus_dxil_text_chain.py SHADER_TRANSLATE CORPUS_DIR   (env DXSPV_CORPUS overrides)
"""
import os
import subprocess
import sys


def run(tool, args, data):
    p = subprocess.run([tool] + args + ["-"], input=data, capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def main():
    tool = sys.argv[1]
    corpus = os.environ.get("DXSPV_CORPUS") or sys.argv[2]
    folder = os.path.join(corpus, "dxil")
    if not os.path.isdir(folder):
        print(f"no corpus at {folder}: skipped")
        return 77
    passed = failed = 0
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".dxil")):
        with open(os.path.join(folder, name), "rb") as f:
            container = f.read()
        problem = None
        code, text, err = run(tool, ["-x", "dxbc-dxil", "-b", "dxil-ll"], container)
        if code != 0:
            problem = "to text: " + err.strip()[:200]
        else:
            code, rewritten, err = run(tool, ["-x", "dxil-ll", "-b", "dxbc-dxil"], text)
            if code != 0:
                problem = "text to container: " + err.strip()[:200]
            else:
                code, again, err = run(tool, ["-x", "dxbc-dxil", "-b", "dxil-ll"], rewritten)
                if code != 0:
                    problem = "written container to text: " + err.strip()[:200]
                elif again != text:
                    problem = "the text after the round trip differs"
        if problem:
            failed += 1
            print(f"FAIL {name}: {problem}")
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
