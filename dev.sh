#!/usr/bin/env bash
# dxspv developer entry point. Every command first installs what is missing
# (Debian packages, as root or through sudo) and builds.
#
#   ./dev.sh demo      translate the bundled compute shader to SPIR-V, print
#                      its disassembly and the validation result
#   ./dev.sh demo NAME run demos/NAME (mandelbrot, mandelbrot-dxil, triangle,
#                      append) on Vulkan; the pictures go to build/demos/NAME.png
#   ./dev.sh test      run the whole test suite; ends with "N passed, N failed"
#   ./dev.sh fuzz [S]  run every libFuzzer harness for S seconds (default 60)
#   ./dev.sh build     configure and build only
#   ./dev.sh pgo       a profile-guided release build in build-pgo (trained
#                      on the project's own test shaders; README "Performance")
#   ./dev.sh deps      install the Debian packages only
set -euo pipefail

cd "$(dirname "$0")"
ROOT=$PWD
BUILD=${DXSPV_BUILD_DIR:-$ROOT/build}
ASAN_BUILD=${DXSPV_ASAN_BUILD_DIR:-$ROOT/build-asan}
TSAN_BUILD=${DXSPV_TSAN_BUILD_DIR:-$ROOT/build-tsan}
PGO_BUILD=${DXSPV_PGO_BUILD_DIR:-$ROOT/build-pgo}
# The sanitizer build is also the libFuzzer build (clang): one build serves
# the ASan/UBSan suites and tests/fuzz/run.sh.
export DXSPV_FUZZ_BUILD_DIR=$ASAN_BUILD
JOBS=${DXSPV_JOBS:-$(nproc 2>/dev/null || echo 2)}

PACKAGES=(g++ meson ninja-build pkg-config python3 spirv-headers spirv-tools
          doctest-dev libvulkan-dev mesa-vulkan-drivers zlib1g-dev clang libclang-rt-14-dev llvm
          vkd3d-compiler libvkd3d-dev lld valgrind)
FUZZ_SECONDS=${DXSPV_CI_FUZZ_SECONDS:-15}

log() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }

install_deps() {
    local missing=()
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    log "installing: ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

build() {
    if [ ! -f "$BUILD/build.ninja" ]; then
        log "configuring $BUILD"
        meson setup "$BUILD" >/dev/null
    fi
    log "building"
    ninja -C "$BUILD" -j "$JOBS" >/dev/null || ninja -C "$BUILD" -j 1
}

build_asan() {
    if [ ! -f "$ASAN_BUILD/build.ninja" ]; then
        log "configuring $ASAN_BUILD (clang, address and undefined-behaviour sanitizers, libFuzzer)"
        tests/fuzz/run.sh --configure
    fi
    log "building with sanitizers and the fuzz harnesses"
    ninja -C "$ASAN_BUILD" -j "$JOBS" >/dev/null || ninja -C "$ASAN_BUILD" -j 1
}

build_tsan() {
    if [ ! -f "$TSAN_BUILD/build.ninja" ]; then
        log "configuring $TSAN_BUILD (thread sanitizer)"
        meson setup "$TSAN_BUILD" -Db_sanitize=thread -Db_lundef=false -Dbuildtype=debugoptimized \
            -Ddemos=false -Drunner=disabled >/dev/null
    fi
    log "building the concurrency test with ThreadSanitizer"
    ninja -C "$TSAN_BUILD" -j "$JOBS" tests/robustness/concurrency >/dev/null || ninja -C "$TSAN_BUILD" -j 1 tests/robustness/concurrency
}

# A release build optimized by GCC with a profile of translations
# (-fprofile-generate, a training run, -fprofile-use) and at link time
# (-flto: the profile then guides inlining across files). The training set is
# the shaders of tests/shader_tests, assembled by pgo_training_set.py: not
# the corpus the figures are measured on.
build_pgo() {
    local translate=$PGO_BUILD/programs/shader-translate/shader-translate
    local bench=$PGO_BUILD/programs/shader-bench/shader-bench
    local training
    if [ ! -f "$PGO_BUILD/build.ninja" ]; then
        log "configuring $PGO_BUILD (release, profile-guided, link-time optimised)"
        meson setup "$PGO_BUILD" -Dbuildtype=release -Dtests=false -Ddemos=false -Drunner=disabled >/dev/null
    fi
    meson configure "$PGO_BUILD" -Db_lto=true >/dev/null # also for a folder configured before it was
    log "building with profiling instrumentation"
    meson configure "$PGO_BUILD" -Db_pgo=generate >/dev/null
    ninja -C "$PGO_BUILD" -j "$JOBS" programs/shader-translate/shader-translate programs/shader-bench/shader-bench >/dev/null
    training=$(mktemp -d)
    trap "rm -rf '$training'" EXIT # also when a step fails (set -e)
    python3 programs/shader-bench/pgo_training_set.py "$translate" tests/shader_tests "$training" >&2
    find "$PGO_BUILD" -name '*.gcda' -delete # the assembler's runs are not the profile
    log "training: shader-bench on the assembled shaders"
    "$bench" --runs 4 --summary "$training" >/dev/null
    log "building with the profile"
    meson configure "$PGO_BUILD" -Db_pgo=use >/dev/null
    ninja -C "$PGO_BUILD" -j "$JOBS" >/dev/null
    log "built $PGO_BUILD"
}

demo() {
    if [ -n "${1:-}" ]; then
        local exe=${1%-dxil} flags=()
        [ "$exe" != "$1" ] && flags=(--dxil) # mandelbrot-dxil: mandelbrot with its DXIL shader
        [ -x "$BUILD/demos/$exe" ] || { echo "no demo '$1' (mandelbrot, mandelbrot-dxil, triangle, append)" >&2; exit 2; }
        export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
        log "running demos/$1"
        if [ "$1" = append ]; then "$BUILD/demos/$1"; else "$BUILD/demos/$exe" "${flags[@]}" -o "$BUILD/demos/$1.png"; fi
        return
    fi
    local shader=demos/shaders/increment_cs.dxbc
    log "translating $shader (see demos/shaders/increment_cs.asm for its source)"
    "$BUILD/programs/shader-translate/shader-translate" --validate -b spirv-text "$shader"
}

run_tests() {
    local status=0
    log "running the test suites"
    meson test -C "$BUILD" --print-errorlogs --num-processes "$JOBS" >"$BUILD/test-output.txt" 2>&1 || status=1
    tail -n 12 "$BUILD/test-output.txt" >&2
    build_asan
    log "running the unit and robustness suites under ASan/UBSan"
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        meson test -C "$ASAN_BUILD" --suite unit --suite robustness --print-errorlogs --num-processes "$JOBS" \
        >"$ASAN_BUILD/test-output.txt" 2>&1 || status=1
    tail -n 12 "$ASAN_BUILD/test-output.txt" >&2
    build_tsan
    log "running the concurrency test under ThreadSanitizer"
    TSAN_OPTIONS=halt_on_error=1 meson test -C "$TSAN_BUILD" --no-rebuild concurrency --print-errorlogs \
        >"$TSAN_BUILD/test-output.txt" 2>&1 || status=1
    tail -n 12 "$TSAN_BUILD/test-output.txt" >&2
    log "fuzzing every harness for ${FUZZ_SECONDS}s (tests/fuzz/run.sh)"
    tests/fuzz/run.sh "$FUZZ_SECONDS" >"$ASAN_BUILD/fuzz-output.txt" 2>&1 || status=1
    tail -n 12 "$ASAN_BUILD/fuzz-output.txt" >&2
    python3 tests/count_tests.py "$BUILD" "$ASAN_BUILD" "$TSAN_BUILD" "$ASAN_BUILD/meson-logs/fuzzlog.json" || status=1
    return $status
}

case "${1:-}" in
    deps) install_deps ;;
    build) install_deps; build ;;
    pgo) install_deps; build_pgo ;;
    demo) install_deps; build; demo "${2:-}" ;;
    test) install_deps; build; run_tests ;;
    fuzz) install_deps; tests/fuzz/run.sh "${2:-60}" ;;
    *) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
