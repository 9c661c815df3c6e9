#!/usr/bin/env python3
"""Corpus suite for UAV counters: every corpus shader (DXBC, DXIL and DXIL
.ll text; not mesh, amplification or library shaders) whose
reflection (shader-translate --reflect) reports a UAV counter is translated
with validation to SPIR-V text for Vulkan 1.1 (CounterBuffer through
SPV_GOOGLE_hlsl_functionality1) and Vulkan 1.3 (core), and then
- every counter the reflection reports is one OpVariable named
  <name>_counter at the reflected (set, binding),
- each counter variable is the target of exactly one OpDecorateId
  CounterBuffer, from the variable of its UAV.
It fails when a file with counters crashes, hangs, produces invalid SPIR-V
(E2101), or translates without those decorations and bindings. Files that do
not translate for another reason (an op not implemented yet) are counted and
listed, not failed: corpus-spirv and corpus-dxil-spirv track those. Exits 77
(skipped) when no corpus is found.

usage: corpus_uav_counters.py SHADER_TRANSLATE CORPUS_DIR   (env DXSPV_CORPUS overrides)
"""
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys

from corpus_manifest import read_manifest

ENVS = ("vulkan1.1", "vulkan1.3")
KINDS = ("dxbc", "dxil", "dxil-ll")
SKIPPED_STAGES = {"ms", "as", "lib"}
TIMEOUT = 20
DIAG = re.compile(r"\b(E\d{4})\b")
NAME = re.compile(r'^\s*OpName (%\S+) "([^"]*)"')
DECORATE = re.compile(r"^\s*OpDecorate (%\S+) (DescriptorSet|Binding) (\d+)")
COUNTER_BUFFER = re.compile(r"^\s*OpDecorateId (%\S+) (?:CounterBuffer|HlslCounterBufferGOOGLE) (%\S+)")


def reflected_counters(tool, path):
    """[(set, binding)] of the counters reflection reports, or None."""
    try:
        proc = subprocess.run([tool, "--reflect", path], capture_output=True, text=True, errors="replace",
                              timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        return None
    try:
        info = json.loads(proc.stdout)
    except ValueError:
        return None
    return sorted((d["counter_set"], d["counter_binding"]) for d in info.get("descriptors", [])
                  if "counter_binding" in d)


def check_spirv(text, counters):
    """The problems of a translated module with `counters` reflected counters."""
    names, sets, bindings, decorations = {}, {}, {}, []
    for line in text.splitlines():
        if m := NAME.match(line):
            names[m.group(1)] = m.group(2)
        elif m := DECORATE.match(line):
            (sets if m.group(2) == "DescriptorSet" else bindings)[m.group(1)] = int(m.group(3))
        elif m := COUNTER_BUFFER.match(line):
            decorations.append((m.group(1), m.group(2)))
    problems = []
    targets = collections.Counter(counter for _, counter in decorations)
    counter_vars = [v for v, n in names.items() if n.endswith("_counter") and v in bindings]
    for var in counter_vars:
        if targets[var] != 1:
            problems.append(f"{names[var]} is the CounterBuffer of {targets[var]} variables")
    for uav, counter in decorations:
        if names.get(counter) != names.get(uav, "?") + "_counter":
            problems.append(f"CounterBuffer of {names.get(uav, uav)} is {names.get(counter, counter)}")
    found = sorted((sets.get(v, -1), bindings[v]) for v in counter_vars)
    if found != counters:
        problems.append(f"counters at (set, binding) {found}, reflection says {counters}")
    return problems


def run(tool, path):
    """(outcome, message): no-counter, ok, not-translated, bug."""
    counters = reflected_counters(tool, path)
    if not counters:
        return "no-counter", ""
    for env in ENVS:
        cmd = [tool, "--validate", "--env", env, "-b", "spirv-text", path]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return "bug", f"{env}: timeout after {TIMEOUT} s"
        if proc.returncode < 0:
            return "bug", f"{env}: killed by signal {-proc.returncode}"
        if proc.returncode != 0:
            m = DIAG.search(proc.stderr)
            code = m.group(1) if m else f"exit {proc.returncode}"
            if code == "E2101" or not m:
                return "bug", f"{env}: {code}: {proc.stderr.strip().splitlines()[0][:300] if proc.stderr.strip() else ''}"
            return "not-translated", code
        problems = check_spirv(proc.stdout, counters)
        if problems:
            return "bug", f"{env}: " + "; ".join(problems[:3])
    return "ok", f"{len(counters)} counters"


def main():
    tool = sys.argv[1]
    corpus, manifest = read_manifest(sys.argv[2])
    if manifest is None:
        return 77
    rows = [r for r in manifest
            if r["kind"] in KINDS and r["stage"] not in SKIPPED_STAGES
            and r.get("bad_input", "-") != "yes"]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda r: run(tool, os.path.join(corpus, r["file"])), rows))
    outcomes = collections.Counter()
    not_translated = collections.Counter()
    bugs = []
    for row, (outcome, message) in zip(rows, results):
        outcomes[(row["kind"], outcome)] += 1
        if outcome == "bug":
            bugs.append(f"BUG {row['file']} [{row['stage']}]: {message}")
        elif outcome == "not-translated":
            not_translated[message] += 1
            print(f"not translated {row['file']} [{row['stage']}]: {message}")
    for kind in KINDS:
        with_counters = sum(n for (k, o), n in outcomes.items() if k == kind and o != "no-counter")
        print(f"{kind}: {with_counters} files with counters: {outcomes[(kind, 'ok')]} translated with CounterBuffer "
              f"and bindings as reflected, {outcomes[(kind, 'not-translated')]} not translated, "
              f"{outcomes[(kind, 'bug')]} bugs")
    if not_translated:
        print("not translated by code: " + ", ".join(f"{c} {n}" for c, n in not_translated.most_common()))
    for line in bugs:
        print(line)
    checked = sum(n for (_, o), n in outcomes.items() if o != "no-counter")
    print(f"{checked - len(bugs)} passed, {len(bugs)} failed")
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
