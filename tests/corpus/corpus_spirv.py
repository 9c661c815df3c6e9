#!/usr/bin/env python3
"""Corpus suite: every DXBC container of the corpus must translate to SPIR-V
that spirv-val accepts for each target environment, Vulkan 1.0 to 1.3
(SPIR-V 1.0, 1.3, 1.5, 1.6), or be refused with a
numbered "not implemented" diagnostic (E2001-E2005, E0003, E1011) and exit 1,
or be rejected as invalid input: a VSIR validator error (E9xxx) raised right
after the front end means the bytecode itself breaks a D3D rule (vkd3d's
"invalid shader" tests, e.g. a break outside any loop), which we must report,
not translate. A validator error after a later pass is our bug and fails.
Invalid SPIR-V (E2101), any other error, a crash or a hang (20 s) fails.
Prints the first diagnostic of each failing file, then the counts
(translated+valid / refused / failed), and ends with "N passed, N failed".
Exits 77 (skipped) when no corpus is found.

usage: corpus_spirv.py SHADER_TRANSLATE CORPUS_DIR   (env DXSPV_CORPUS overrides)
"""
import collections
import os
import re
import subprocess
import sys

from corpus_manifest import read_manifest

ENVS = ("vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3")
REFUSALS = {"E2001", "E2002", "E2003", "E2004", "E2005", "E0003", "E1011"}
DIAG = re.compile(r"\b(E\d{4})\b")
TIMEOUT = 20


def first_diagnostic(text):
    for line in text.splitlines():
        if DIAG.search(line):
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0].strip() if lines else ""


def run(tool, path, env):
    """Returns (outcome, code, message): outcome is valid, refused or failed."""
    cmd = [tool, "--validate", "--env", env, "-b", "spirv-binary", "-o", "/dev/null", path]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "failed", "hang", f"timeout after {TIMEOUT} s ({env})"
    if proc.returncode < 0:
        return "failed", "crash", f"killed by signal {-proc.returncode} ({env}): {first_diagnostic(proc.stderr)[:300]}"
    if proc.returncode == 0:
        return "valid", "", ""
    codes = DIAG.findall(proc.stderr)
    message = first_diagnostic(proc.stderr)[:400]
    if proc.returncode == 1 and codes and codes[0] in REFUSALS:
        return "refused", codes[0], message
    if proc.returncode == 1 and codes and codes[0].startswith("E9") and "after pass front end" in proc.stderr:
        return "refused", codes[0] + " (invalid input)", message
    return "failed", codes[0] if codes else f"exit {proc.returncode}", f"exit {proc.returncode} ({env}): {message}"


def main():
    tool = sys.argv[1]
    corpus, manifest = read_manifest(sys.argv[2])
    if manifest is None:
        return 77
    rows = [r for r in manifest if r["kind"] == "dxbc"]
    valid = refused = failed = 0
    refused_by = collections.Counter()
    failed_by = collections.Counter()
    for row in rows:
        path = os.path.join(corpus, row["file"])
        results = [run(tool, path, env) for env in ENVS]
        bad = [r for r in results if r[0] == "failed"]
        if bad:
            failed += 1
            failed_by[bad[0][1]] += 1
            print(f"FAIL {row['file']} [{row['stage']}]: {bad[0][2]}")
        elif any(r[0] == "refused" for r in results):
            refused += 1
            refused_by[next(r[1] for r in results if r[0] == "refused")] += 1
        else:
            valid += 1
    total = len(rows)
    pct = 100.0 * valid / total if total else 0.0
    print(f"corpus SPIR-V: {total} DXBC containers, environments {', '.join(ENVS)}")
    print("refused by code: " + (", ".join(f"{c} {n}" for c, n in refused_by.most_common()) or "none"))
    print("failed by code: " + (", ".join(f"{c} {n}" for c, n in failed_by.most_common()) or "none"))
    print(f"translated+valid {valid} / refused {refused} / failed {failed}: {pct:.1f}% valid")
    print(f"{valid + refused} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
