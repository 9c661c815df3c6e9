#!/usr/bin/env python3
"""Checks that shader-runner reports what each file of selftest/ expects.

A file named expect-<pass|fail|skip>-*.shader_test must get that status;
the runner must exit with 1 (some files fail on purpose). Prints one line
per file and "N passed, N failed".
"""
import os
import subprocess
import sys


def main():
    runner, folder = sys.argv[1], sys.argv[2]
    proc = subprocess.run([runner, '--timeout', '60', folder], capture_output=True, text=True)
    got = {}
    for line in proc.stdout.splitlines():
        parts = line.split(' ', 1)
        if len(parts) == 2 and parts[0] in ('PASS', 'FAIL', 'SKIP'):
            path = parts[1].split(': ', 1)[0]
            got[os.path.basename(path)] = (parts[0], line)
    passed = failed = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith('.shader_test'):
            continue
        want = name.split('-')[1].upper()
        status, line = got.get(name, ('MISSING', name + ': no output line'))
        ok = status == want
        passed += ok
        failed += not ok
        print(('ok   ' if ok else 'BAD  ') + 'want ' + want + ': ' + line)
    if proc.returncode != 1:
        print('BAD  shader-runner exited with %d, expected 1' % proc.returncode)
        failed += 1
    else:
        passed += 1
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
