#!/usr/bin/env python3
"""Corpus suite for DXIL → SPIR-V: every `.dxil` of the corpus (manifest kind
dxil) is translated with validation for each target environment (Vulkan 1.1
and 1.3) and sorted into
- valid: translated, spirv-val accepts it;
- refused by design: mesh, amplification and library shaders (the manifest's
  stage column ms / as / lib), which the library refuses with a diagnostic;
- failed: any other diagnostic (the first one's code is counted), e.g. an op
  not implemented yet.
It prints the counts per environment, the percentage of valid files over the
non-mesh, non-library ones, and the structurizer's trampolines per shader
(shader-translate --stats, warning W6010), then fails when
- a file crashes or hangs (TIMEOUT s),
- a file produces SPIR-V that spirv-val rejects (exit 1 with E2101: our bug),
- a file of a refused stage translates (the refusal went missing),
- the valid count drops below RATCHET (raise it when the figure goes up).
Runs the files in parallel (two workers). Exits 77 (skipped) when no corpus
is found.

usage: corpus_dxil_spirv.py SHADER_TRANSLATE CORPUS_DIR   (env DXSPV_CORPUS overrides)
"""
import collections
import concurrent.futures
import os
import re
import subprocess
import sys

from corpus_manifest import read_manifest

ENVS = ("vulkan1.1", "vulkan1.3")
REFUSED_STAGES = {"ms", "as", "lib"}
# Valid files per environment: lower than the current figure by a margin
# (317 of 410 on 2026-11-25); raise it as the lowering grows.
RATCHET = 350
INVALID_SPIRV = "E2101"
DIAG = re.compile(r"\b([EW]\d{4})\b")
STATS = re.compile(r"W6010: trampolines: (\d+)")
TIMEOUT = 20


def first_error(text):
    for line in text.splitlines():
        m = DIAG.search(line)
        if m and m.group(1).startswith("E"):
            return m.group(1), line.strip()[:300]
    lines = [l for l in text.splitlines() if l.strip()]
    return "", (lines[0].strip()[:300] if lines else "")


def run(tool, path, env):
    """(outcome, code, message, trampolines): outcome is valid, error,
    invalid-spirv, crash or hang."""
    cmd = [tool, "--validate", "--stats", "--env", env, "-b", "spirv-binary", "-o", "/dev/null", path]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "hang", "hang", f"timeout after {TIMEOUT} s", None
    m = STATS.search(proc.stderr)
    trampolines = int(m.group(1)) if m else None
    if proc.returncode < 0:
        return "crash", "crash", f"killed by signal {-proc.returncode}: {first_error(proc.stderr)[1]}", None
    if proc.returncode == 0:
        return "valid", "", "", trampolines
    code, message = first_error(proc.stderr.replace(path, os.path.basename(path)))
    if proc.returncode == 1 and INVALID_SPIRV in proc.stderr:
        return "invalid-spirv", INVALID_SPIRV, message, trampolines
    if proc.returncode == 1 and code:
        return "error", code, message, trampolines
    return "crash", f"exit {proc.returncode}", message, trampolines


def main():
    tool = sys.argv[1]
    corpus, manifest = read_manifest(sys.argv[2])
    if manifest is None:
        return 77
    rows = [r for r in manifest if r["kind"] == "dxil"]
    jobs = [(row, env) for row in rows for env in ENVS]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda j: run(tool, os.path.join(corpus, j[0]["file"]), j[1]), jobs))

    considered = sum(1 for r in rows if r["stage"] not in REFUSED_STAGES)
    bugs = []
    trampolines = {}
    summary = []
    for env in ENVS:
        valid = refused = failed = 0
        failed_by = collections.Counter()
        for (row, job_env), (outcome, code, message, tramps) in zip(jobs, results):
            if job_env != env:
                continue
            name = row["file"]
            by_design = row["stage"] in REFUSED_STAGES
            if tramps is not None:
                trampolines[name] = tramps
            if outcome in ("crash", "hang", "invalid-spirv"):
                bugs.append(f"BUG {name} [{row['stage']}] ({env}): {outcome}: {message}")
            if outcome == "valid" and by_design:
                bugs.append(f"BUG {name} [{row['stage']}] ({env}): a {row['stage']} shader was not refused")
            if outcome == "valid":
                valid += 1
            elif by_design:
                refused += 1
            else:
                failed += 1
                failed_by[code] += 1
                if env == ENVS[0]:
                    print(f"failed {name} [{row['stage']}]: {message}")
        pct = 100.0 * valid / considered if considered else 0.0
        print(f"{env}: valid {valid} / refused by design {refused} / failed {failed} "
              f"({', '.join(f'{c} {n}' for c, n in failed_by.most_common()) or 'none'}): "
              f"{pct:.1f}% of {considered} non-mesh, non-library files valid")
        summary.append((env, valid))

    with_tramps = sorted(((n, t) for n, t in trampolines.items() if t), key=lambda x: (-x[1], x[0]))
    print(f"trampolines: {sum(trampolines.values())} in {len(with_tramps)} of {len(trampolines)} structurized shaders")
    for name, count in with_tramps:
        print(f"  {count:3d} {name}")
    for line in bugs:
        print(line)
    low = [f"{env}: {valid} valid < ratchet {RATCHET}" for env, valid in summary if valid < RATCHET]
    for line in low:
        print("RATCHET " + line)
    ok = not bugs and not low
    print(f"{len(rows) * len(ENVS) - len(bugs)} passed, {len(bugs) + len(low)} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
