#!/usr/bin/env python3
"""Writes the training set of the profile-guided build (`./dev.sh pgo`):
every d3d-asm and dxil-ll shader of the project's own .shader_test files,
assembled by shader-translate into a DXBC or DXIL container. The corpus in
../shared is not used, so that the figures measured on it are not of a
build trained on it. The sections are read by
tests/shader_tests/shader_test_sections.py (qualified sections and
precompiled hex containers are left out). Prints "N of N shaders
assembled"; exits 1 if any could not be.

usage: pgo_training_set.py SHADER_TRANSLATE SHADER_TEST_DIR OUT_DIR
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "shader_tests"))
from shader_test_sections import shader_sections  # noqa: E402

CONTAINER = {"d3d-asm": ("dxbc-tpf", "dxbc"), "dxil-ll": ("dxbc-dxil", "dxil")}


def main():
    tool, folder, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    total = assembled = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".shader_test"):
            continue
        for line, _, form, text in shader_sections(os.path.join(folder, name)):
            target, ext = CONTAINER[form]
            total += 1
            path = os.path.join(out, f"{name[:-len('.shader_test')]}-{line}.{ext}")
            r = subprocess.run([tool, "-x", form, "-b", target, "-o", path, "-"], input=text.encode(),
                               capture_output=True, timeout=60)
            if r.returncode == 0:
                assembled += 1
            else:
                err = r.stderr.decode(errors="replace").strip().split("\n")[0]
                print(f"FAIL {name}:{line}: {err}")
    print(f"{assembled} of {total} shaders assembled")
    return 0 if total and assembled == total else 1


if __name__ == "__main__":
    sys.exit(main())
