#!/usr/bin/env python3
"""Runs one libFuzzer harness for a bounded time (env DXSPV_FUZZ_SECONDS,
default 60) with seeds extracted from the given inputs (the project's tests,
the bundled shaders, the corpus). A crash, leak, timeout or sanitizer report
is copied into REGRESSIONS (replayed by every later `meson test`) and fails.
Ends with "N passed, N failed".

usage: fuzz_one.py HARNESS_EXE NAME REGRESSIONS WORK INPUT...
"""
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import extract_seeds  # noqa: E402


def record(name, seconds, runs, status):
    """Appends the run to the ledger named by DXSPV_FUZZ_LEDGER (tests/fuzz/ledger.tsv
    for the runs counted towards each harness's total fuzzing time)."""
    ledger = os.environ.get("DXSPV_FUZZ_LEDGER")
    if not ledger:
        return
    commit = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    with open(ledger, "a") as f:
        f.write(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())}\t{name}\t{seconds:.0f}\t{runs}\t"
                f"{'ok' if status == 0 else 'crash'}\t{commit}\n")


def main():
    exe, name, regressions, work = sys.argv[1:5]
    inputs = [p for p in sys.argv[5:] if os.path.exists(p)]
    seconds = int(os.environ.get("DXSPV_FUZZ_SECONDS", "60"))
    seeds = os.path.join(work, "seeds")
    shutil.rmtree(os.path.join(seeds, name), ignore_errors=True)
    for path in inputs:
        extract_seeds.seed_path(seeds, path)
    corpus = os.path.join(work, "corpus", name)
    crashes = os.path.join(work, "crashes", name) + os.sep
    for d in (corpus, crashes, os.path.join(seeds, name), regressions):
        os.makedirs(d, exist_ok=True)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
    cmd = [exe, f"-max_total_time={seconds}", "-timeout=10", "-rss_limit_mb=4096", "-max_len=262144",
           f"-artifact_prefix={crashes}", corpus, os.path.join(seeds, name), regressions]
    start = time.time()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, errors="replace")
    log = proc.stderr
    runs = re.findall(r"^#(\d+)\s+DONE", log, re.M)
    record(name, time.time() - start, runs[-1] if runs else "?", proc.returncode)
    if proc.returncode == 0:
        print(f"fuzz-{name}: {runs[-1] if runs else '?'} runs in {seconds} s, no crash")
        print("1 passed, 0 failed")
        return 0
    report = [l for l in log.splitlines() if re.search(r"ERROR|SUMMARY|runtime error|deadly signal", l)]
    print(f"fuzz-{name} found a problem (exit {proc.returncode}):")
    print("\n".join(report[:10]) or log[-2000:])
    for f in sorted(os.listdir(crashes)):
        shutil.copy(os.path.join(crashes, f), regressions)
        print(f"saved regression input {os.path.join(regressions, f)}")
    print("0 passed, 1 failed")
    return 1


if __name__ == "__main__":
    sys.exit(main())
