#!/usr/bin/env bash
# Runs every libFuzzer harness (or the ones named) for SECONDS each (default
# 60) under ASan and UBSan, seeded from the project's tests, the bundled
# shaders and the corpus. A crash is saved into tests/fuzz/regressions/NAME/,
# which `meson test` replays from then on, and the run fails. Needs clang and
# libclang-rt-14-dev (./dev.sh deps installs them). The build directory
# (DXSPV_FUZZ_BUILD_DIR, default build-asan) is the one ./dev.sh test runs
# its sanitizer suites in; the results go to meson-logs/fuzzlog.json there.
#
# usage: tests/fuzz/run.sh [SECONDS] [HARNESS...]
#        tests/fuzz/run.sh --configure     only set up the build directory
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${DXSPV_FUZZ_BUILD_DIR:-$PWD/build-asan}
if [ ! -f "$BUILD/build.ninja" ]; then
    CC=clang CXX=clang++ meson setup "$BUILD" -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false \
        -Dbuildtype=debugoptimized -Ddemos=false -Drunner=disabled >/dev/null
fi
if ! grep -q fuzzer-no-link "$BUILD/build.ninja"; then
    echo "$BUILD was configured without -Dfuzzing=true under clang; remove it and run again" >&2
    exit 1
fi
[ "${1:-}" = --configure ] && exit 0
export DXSPV_FUZZ_SECONDS=${1:-60}
shift || true
tests=()
for h in "$@"; do tests+=("fuzz-$h"); done
targets=()
for t in $(meson test -C "$BUILD" --suite fuzz --list --no-rebuild 2>/dev/null | sed -n 's|.*/ \(fuzz-.*\)|\1|p'); do
    targets+=("tests/fuzz/$t")
done
ninja -C "$BUILD" "${targets[@]}" >/dev/null
meson test -C "$BUILD" --no-rebuild --suite fuzz --logbase fuzzlog --print-errorlogs "${tests[@]}"
