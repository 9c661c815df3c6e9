#!/usr/bin/env python3
"""Smoke test of shader-bench (suite 'bench'): a short run on a few files
and the small scaling sizes, in JSON and in text. Checks that it runs and
that its output parses with the expected keys; no timing is asserted.

usage: bench_smoke.py SHADER_BENCH SOURCE_ROOT CORPUS_DIR
"""
import json
import os
import subprocess
import sys

PHASES = ["container", "front_end", "passes", "structurize", "emit", "validate"]
AGGREGATE_KEYS = ["files", "translated", "failed", "median_us", "min_us", "mean_us", "total_us", "bytes",
                  "mb_per_s", "phases_us", "spirv_words", "spirv_words_per_shader", "trampolines",
                  "peak_heap_bytes"]
FILE_KEYS = ["median_us", "min_us", "mb_per_s", "phases_us", "spirv_words", "trampolines", "peak_heap_bytes"]
POINT_KEYS = ["units", "median_us", "min_us", "ns_per_unit", "phases_us", "spirv_words", "trampolines"]

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
    return condition


def pick_files(source_root, corpus):
    files = [os.path.join(source_root, "demos", "shaders", "increment_cs.dxbc")]
    for kind in ("dxbc", "dxil"):
        folder = os.path.join(corpus, kind)
        if os.path.isdir(folder):
            names = sorted(n for n in os.listdir(folder) if n.endswith("." + kind))
            files += [os.path.join(folder, n) for n in names[:4]]
    return files


def run(bench, args):
    proc = subprocess.run([bench] + args, capture_output=True, text=True, timeout=120)
    check(proc.returncode == 0, f"shader-bench {' '.join(args)} exited with {proc.returncode}: {proc.stderr}")
    return proc.stdout


def check_phases(phases, where):
    check(isinstance(phases, dict) and sorted(phases) == sorted(PHASES), f"{where}: phases {phases}")


def check_json(report, files):
    for key in ("config", "machine", "files", "aggregate", "scaling", "peak_rss_kib"):
        check(key in report, f"missing key '{key}'")
    if failures:
        return
    check(report["config"]["runs"] == 2, "config.runs")
    for key in ("release_build", "profile_guided_build"):
        check(isinstance(report["config"].get(key), bool), f"config.{key}")
    check(report["peak_rss_kib"] > 0, "peak_rss_kib")
    check(len(report["files"]) == len(files), f"{len(report['files'])} file entries for {len(files)} files")
    for f in report["files"]:
        if f["ok"]:
            for key in FILE_KEYS:
                check(key in f, f"{f['path']}: missing '{key}'")
            check_phases(f.get("phases_us"), f["path"])
            check(f.get("spirv_words", 0) > 5, f"{f['path']}: no SPIR-V words")
        else:
            check(isinstance(f.get("error"), str) and f["error"], f"{f['path']}: failed without an error")
    demo = report["files"][0]
    check(demo["ok"] and demo["kind"] == "dxbc", f"the demo shader did not translate: {demo}")
    for kind in ("dxbc", "dxil", "all"):
        agg = report["aggregate"].get(kind, {})
        for key in AGGREGATE_KEYS:
            check(key in agg, f"aggregate.{kind}: missing '{key}'")
    check(report["aggregate"]["all"]["files"] == len(files), "aggregate.all.files")
    names = [s["name"] for s in report["scaling"]]
    for name in ("dxbc-instructions", "dxbc-blocks", "dxbc-nesting", "dxil-instructions", "dxil-types",
                 "cfg-instructions", "cfg-blocks", "cfg-nesting", "cfg-switch"):
        check(name in names, f"scaling series '{name}' missing")
    for s in report["scaling"]:
        if "skipped" in s:
            check(s["name"].startswith(("cfg-", "dxil-")), f"{s['name']} skipped: {s['skipped']}")
            continue
        check(len(s["points"]) >= 2 and "ratio" in s and "flat" in s, f"{s['name']}: points/ratio/flat")
        for p in s["points"]:
            if check(p["ok"], f"{s['name']} size {p['size']}: {p.get('error')}"):
                for key in POINT_KEYS:
                    check(key in p, f"{s['name']} size {p['size']}: missing '{key}'")


def main():
    bench, source_root, corpus = sys.argv[1:4]
    files = pick_files(source_root, corpus)
    report_text = run(bench, ["--json", "--runs", "2", "--scaling-small"] + files)
    try:
        report = json.loads(report_text)
    except json.JSONDecodeError as e:
        check(False, f"the JSON output does not parse: {e}")
        report = {}
    if report:
        check_json(report, files)
    text = run(bench, ["--runs", "2"] + files[:3])
    for heading in ("median_us", "peak RSS", "machine:"):
        check(heading in text, f"text output lacks '{heading}'")
    bad = run_expect_failure(bench, ["--runs", "0"])
    check(bad, "--runs 0 was accepted")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(files)} files; {len(failures)} problems")
    return 1 if failures else 0


def run_expect_failure(bench, args):
    proc = subprocess.run([bench] + args, capture_output=True, text=True, timeout=60)
    return proc.returncode != 0 and "shader-bench:" in proc.stderr


if __name__ == "__main__":
    sys.exit(main())
