#!/usr/bin/env python3
"""Translates every DXIL shader of the dxil-*.shader_test files with
`shader-translate --validate` (spirv-val in-process) for Vulkan 1.1 and 1.3,
so that shaders the runner skips on a device without the feature they need
(barycentrics, 64-bit group-shared atomics, ...) still have their SPIR-V
validated. Experimental ops are accepted, as the runner does. Sections with
qualifiers (fail, todo, notimpl) are left to the runner. Prints one line per
failure and "N passed, N failed".

usage: validate_dxil_sections.py SHADER_TRANSLATE SHADER_TEST_DIR
"""
import glob
import os
import subprocess
import sys

from shader_test_sections import shader_sections

TOOL, DIR = sys.argv[1], sys.argv[2]

passed = failed = 0
for path in sorted(glob.glob(os.path.join(DIR, "dxil-*.shader_test"))):
    for start, stage, _, text in shader_sections(path, ("dxil-ll",)):
        for env in ("vulkan1.1", "vulkan1.3"):
            r = subprocess.run([TOOL, "--validate", "--experimental-ops", "--env", env, "-x", "dxil-ll", "-b", "spirv-binary",
                                "-o", os.devnull, "-"], input=text.encode(), capture_output=True, timeout=60)
            if r.returncode == 0:
                passed += 1
            else:
                failed += 1
                err = r.stderr.decode(errors="replace").strip().split("\n")[0]
                print(f"FAIL {os.path.basename(path)}:{start} {stage} shader ({env}): {err}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
