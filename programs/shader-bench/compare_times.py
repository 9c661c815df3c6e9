#!/usr/bin/env python3
"""In-process times per shader (DXBC, DXIL) against vkd3d-shader, in alternating pairs.

Each pair runs `shader-bench --json --runs RUNS DIR` and `vkd3d-anchor
--per-file RUNS DIR/*.dxbc DIR/*.dxil` one after the other (which goes first alternates),
both pinned to one CPU (taskset) when taskset exists. Over the files both
translate, it prints per pair the median of the per-file medians and the
median of the per-file minimums of each, and their ratios; then the median
ratio over the pairs. The minimum is the time of a run the machine left
alone: on a shared virtual machine a neighbour's load can double a run's time
for seconds at a time, and the minimums show what the medians blur.

usage: compare_times.py SHADER_BENCH VKD3D_ANCHOR DIR [PAIRS [RUNS [CPU]]]
  e.g. compare_times.py build-rel/programs/shader-bench/shader-bench \\
           build-rel/programs/shader-bench/vkd3d-anchor ../shared/corpus/dxbc 10 20
"""
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys


def pinned(cpu, command):
    return (["taskset", "-c", cpu] if shutil.which("taskset") else []) + command


def ours(bench, directory, runs, cpu):
    """{file name: (median_us, min_us)} of the files shader-bench translated."""
    out = subprocess.run(pinned(cpu, [bench, "--json", "--runs", str(runs), directory]),
                         capture_output=True, text=True, check=True).stdout
    return {os.path.basename(f["path"]): (f["median_us"], f["min_us"])
            for f in json.loads(out)["files"] if f["ok"]}


def theirs(anchor, files, runs, cpu):
    """{file name: (median_us, min_us)} of the files vkd3d-shader translated."""
    env = dict(os.environ, VKD3D_SHADER_DEBUG="none")
    out = subprocess.run(pinned(cpu, [anchor, "--per-file", str(runs)] + files), capture_output=True,
                         text=True, env=env, check=True).stdout
    times = {}
    for line in out.splitlines():
        if line.startswith("file "):
            path, median_us, min_us = line[5:].rsplit(" ", 2)
            times[os.path.basename(path)] = (float(median_us), float(min_us))
    return times


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    bench, anchor, directory = sys.argv[1:4]
    pairs = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    runs = int(sys.argv[5]) if len(sys.argv) > 5 else 20
    cpu = sys.argv[6] if len(sys.argv) > 6 else "1"
    files = sorted(glob.glob(os.path.join(directory, "*.dxbc")) + glob.glob(os.path.join(directory, "*.dxil")))
    if not files:
        print(f"no .dxbc or .dxil file in {directory}", file=sys.stderr)
        return 2
    median_ratios, min_ratios = [], []
    print("pair  files  ours_median  vkd3d_median  ratio  ours_min  vkd3d_min  ratio")
    for pair in range(pairs):
        if pair % 2 == 0:
            a = ours(bench, directory, runs, cpu)
            b = theirs(anchor, files, runs, cpu)
        else:
            b = theirs(anchor, files, runs, cpu)
            a = ours(bench, directory, runs, cpu)
        both = sorted(a.keys() & b.keys())
        if not both:
            print("no file translated by both", file=sys.stderr)
            return 1
        ours_median = statistics.median(a[f][0] for f in both)
        vkd3d_median = statistics.median(b[f][0] for f in both)
        ours_min = statistics.median(a[f][1] for f in both)
        vkd3d_min = statistics.median(b[f][1] for f in both)
        median_ratios.append(ours_median / vkd3d_median)
        min_ratios.append(ours_min / vkd3d_min)
        print(f"{pair + 1:4d}  {len(both):5d}  {ours_median:11.2f}  {vkd3d_median:12.2f}  {median_ratios[-1]:5.3f}"
              f"  {ours_min:8.2f}  {vkd3d_min:9.2f}  {min_ratios[-1]:5.3f}")
    print(f"median ratio over {pairs} pairs: medians {statistics.median(median_ratios):.3f} "
          f"({min(median_ratios):.3f}-{max(median_ratios):.3f}), "
          f"minimums {statistics.median(min_ratios):.3f} ({min(min_ratios):.3f}-{max(min_ratios):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
