#!/usr/bin/env python3
"""Writes the training set of the profile-guided build (`./dev.sh pgo`):
every d3d-asm and dxil-ll shader of the project's own .shader_test files,
assembled by shader-translate into a DXBC or DXIL container. The corpus in
../shared is not used, so that the figures measured on it are not of a
build trained on it. Sections with qualifiers (fail, todo, notimpl) are left
out, as are the runner's precompiled hex containers. Prints
"N of N shaders assembled"; exits 1 if any could not be.

usage: pgo_training_set.py SHADER_TRANSLATE SHADER_TEST_DIR OUT_DIR
"""
import os
import re
import subprocess
import sys

SECTION = re.compile(r"^\[(vertex|pixel|geometry|hull|domain|compute) shader (d3d-asm|dxil-ll)\]\s*$")
CONTAINER = {"d3d-asm": ("dxbc-tpf", "dxbc"), "dxil-ll": ("dxbc-dxil", "dxil")}


def sections(path):
    """(first line number, form, text) of each shader section of a file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = SECTION.match(lines[i])
        i += 1
        if not m:
            continue
        start, form = i, m.group(2)
        while i < len(lines) and not lines[i].startswith("["):
            i += 1
        body = lines[start:i]
        if form == "d3d-asm":  # '%' starts a comment line there, as in the runner
            body = [line for line in body if not line.lstrip().startswith("%")]
        yield start, form, "\n".join(body) + "\n"


def main():
    tool, folder, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    total = assembled = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".shader_test"):
            continue
        for line, form, text in sections(os.path.join(folder, name)):
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
