#!/usr/bin/env python3
"""Smoke test of vkd3d-anchor --interleaved (suite 'bench'): one bundled
shader, a few runs. Checks that both libraries translate it and that the
per-file line and the summary parse (times, and the SPIR-V words of each);
then, given the shader 8 times, that the ratios by input size come as four
quarters of 2 files each. No timing is asserted.

usage: anchor_smoke.py VKD3D_ANCHOR SOURCE_ROOT
"""
import os
import re
import subprocess
import sys

anchor, root = sys.argv[1:3]
shader = os.path.join(root, "demos", "shaders", "increment_cs.dxbc")
proc = subprocess.run([anchor, "--interleaved", "3", shader], capture_output=True, text=True, timeout=60)
failures = []
if proc.returncode != 0:
    failures.append(f"exit status {proc.returncode}: {proc.stderr}")
lines = proc.stdout.splitlines()
pairs = [line.split() for line in lines if line.startswith("pair ")]
# pair PATH OURS_MEDIAN OURS_MIN THEIRS_MEDIAN THEIRS_MIN OURS_WORDS THEIRS_WORDS
if len(pairs) != 1 or len(pairs[0]) != 8 or pairs[0][1] != shader:
    failures.append(f"pair lines: {pairs}")
else:
    numbers = [float(x) for x in pairs[0][2:]]
    if any(x <= 0 for x in numbers):
        failures.append(f"non-positive figure in {pairs[0]}")
    if numbers[1] > numbers[0] or numbers[3] > numbers[2]:
        failures.append(f"a minimum above its median in {pairs[0]}")
    if numbers[4] != int(numbers[4]) or numbers[5] != int(numbers[5]):
        failures.append(f"SPIR-V words not whole in {pairs[0]}")
summary = re.search(r"interleaved, 1 of 1 files translated by both: .* SPIR-V words per shader "
                    r"([0-9.]+) against ([0-9.]+)$", lines[-1] if lines else "")
if not summary:
    failures.append(f"summary line: {lines[-1:]}")
elif pairs and len(pairs[0]) == 8 and (float(summary.group(1)), float(summary.group(2))) != \
        (float(pairs[0][6]), float(pairs[0][7])):
    failures.append("the summary's words per shader differ from the one file's")
# Eight files: four size quarters of two, before the summary.
proc8 = subprocess.run([anchor, "--interleaved", "2"] + [shader] * 8, capture_output=True, text=True, timeout=120)
lines8 = proc8.stdout.splitlines()
size = os.path.getsize(shader)
quarters = [re.fullmatch(r"size quarter ([1-4]): (\d+) files of (\d+) to (\d+) bytes, "
                         r"median of the per-file ratios ([0-9.]+)x", line) for line in lines8
            if line.startswith("size quarter")]
if proc8.returncode != 0 or len(quarters) != 4 or not all(quarters):
    failures.append(f"size quarters: {[line for line in lines8 if line.startswith('size')]}")
elif [(int(q.group(1)), int(q.group(2)), int(q.group(3)), int(q.group(4))) for q in quarters] != \
        [(k, 2, size, size) for k in range(1, 5)] or any(float(q.group(5)) <= 0 for q in quarters):
    failures.append(f"size quarters: {[q.group(0) for q in quarters]}")
elif not lines8[-1].startswith("interleaved, 8 of 8 files"):
    failures.append(f"summary after the quarters: {lines8[-1:]}")
for f in failures:
    print("FAIL:", f)
print("vkd3d-anchor smoke:", "ok" if not failures else f"{len(failures)} failures")
sys.exit(1 if failures else 0)
