#!/usr/bin/env python3
"""Counts every test executed in one or more meson build directories (their
meson-logs/testlog.json) or test logs named by path (NAME.json).

A meson test counts as the tests it ran when its output says so: doctest's
summary ("[doctest] test cases: N | N passed | N failed") or a plain line
"N passed, N failed" (the project's own suites). Otherwise it counts as one
test: passed when meson says OK, failed on FAIL/TIMEOUT/ERROR, skipped on
SKIP. A test that failed although its own counts show no failure adds one
failure (it crashed after printing). Ends with the line "N passed, N failed".
"""
import json
import re
import sys

DOCTEST = re.compile(r"\[doctest\] test cases:\s*(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed(?:\s*\|\s*(\d+) skipped)?")
PLAIN = re.compile(r"^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$", re.M)


def count(logfile):
    passed = failed = skipped = 0
    rows = []
    with open(logfile, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            t = json.loads(line)
            out = t.get("stdout") or ""
            result = t.get("result", "")
            m = DOCTEST.findall(out)
            p = PLAIN.findall(out)
            if m:
                tp, tf, ts = int(m[-1][1]), int(m[-1][2]), int(m[-1][3] or 0)
            elif p:
                tp, tf, ts = int(p[-1][0]), int(p[-1][1]), int(p[-1][2] or 0)
            elif result == "SKIP":
                tp, tf, ts = 0, 0, 1
            elif result in ("OK", "EXPECTEDFAIL"):
                tp, tf, ts = 1, 0, 0
            else:
                tp, tf, ts = 0, 1, 0
            if result not in ("OK", "SKIP", "EXPECTEDFAIL") and tf == 0:
                tf = 1
            passed, failed, skipped = passed + tp, failed + tf, skipped + ts
            rows.append((t.get("name", "?"), result, tp, tf, ts))
    return passed, failed, skipped, rows


def main():
    total = [0, 0, 0]
    for build in sys.argv[1:]:
        log = build if build.endswith(".json") else f"{build}/meson-logs/testlog.json"
        try:
            p, f, s, rows = count(log)
        except FileNotFoundError:
            print(f"{log}: no test log (the suite did not run)")
            total[1] += 1
            continue
        for name, result, tp, tf, ts in rows:
            print(f"  {log.split('/meson-logs/')[0].rsplit('/', 1)[-1]:<12} {name:<40} {result:<8} {tp} passed, {tf} failed, {ts} skipped")
        total = [total[0] + p, total[1] + f, total[2] + s]
    print(f"{total[2]} skipped")
    print(f"{total[0]} passed, {total[1]} failed")
    return 1 if total[1] else 0


if __name__ == "__main__":
    sys.exit(main())
