#!/usr/bin/env bash
# The engine, the sim thread and the video writer, and their tests, built with
# AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/, the Release optimisation, so
# that every floating-point result is the one the Release build computes) and run through
# ctest: a read or write out of bounds, a use after free, a leak, a signed overflow, a bad
# shift stops the test that made it (the UBSan checks left out: CMakeLists.txt). The
# reproductions (Validation.*) and the `ndem` command's tests run in the Release build only;
# the checkpoint code they use runs here in Restart.* and the other checkpoint tests.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
ndem_ensure_packages
# The engine's and the sim thread's tests only: the `ndem` command's 30 files took 6 of the
# stage's minutes to build for the CLI tests, which run in the Release build, and whose readers
# of command lines, scenes, --set values and checkpoints libFuzzer runs under ASan (fuzz.sh).
if [ ! -f build-asan/build.ninja ]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Release -DNDEM_ASAN=ON \
    -DNDEM_BUILD_APP=OFF -DNDEM_BUILD_BENCH=OFF
fi
cmake --build build-asan --parallel "$(nproc)" --target ndem_engine_tests ndem_sim_tests
echo "==> [sanitize.sh: $((SECONDS / 60)) min] built; ctest"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Leaks inside libfclib and Siconos Numerics, not ours (each one named in the file).
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan-thirdparty.supp"
# Also left out: the tests that run the same code as their smaller neighbours for many more
# steps, 7-10 times slower here than in Release (60-390 s each, 33 of the 60 core-minutes these
# tests took under the sanitizers). The same code runs here in: the servo wall's every-solver
# test (APGD), the other AxisPressure, Conservation, SiloScene and Restart tests, PgsKernel's
# float blocks, one stiffness of the Hertz column and the other WarmStart tests.
long='^Apgd\.ReachesThePgsSolution|^AxisPressure\.EveryDiameterSlice|^Conservation\.RestingBed'
long+='|^SiloScene\.(FloatBlocks|LiveSiloPairs)|HertzColumn\..*/(100000|1e\+09|1e\+11|1e\+13)$'
long+='|^WarmStart\.WithoutTheVelocityStep|^Restart\.TheReducedConveyor|^StandardScenes/'
ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" --timeout 900 \
  -E "^Validation\.|^Cli\.|ndem_cli_tests_NOT_BUILT|$long" "$@"
