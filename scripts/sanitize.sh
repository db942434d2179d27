#!/usr/bin/env bash
# The engine, the `ndem` command, the sim thread and the video writer, and their tests, built
# with AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/, the Release optimisation,
# so that every floating-point result is the one the Release build computes) and run through
# ctest: a read or write out of bounds, a use after free, a leak, a signed overflow, a bad
# shift stops the test that made it (the UBSan checks left out: CMakeLists.txt). The long reproductions
# (Validation.*, and the quick Janssen case run twice to test `validate --resume`, 230 s here
# under the sanitizers) are left out: they run in the Release build, and the checkpoint code
# they use runs here in Restart.* and the other checkpoint tests.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
ndem_ensure_packages
ndem_build build-asan -DNDEM_ASAN=ON -DNDEM_BUILD_APP=OFF -DNDEM_BUILD_BENCH=OFF
echo "==> [sanitize.sh: $((SECONDS / 60)) min] built; ctest"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Leaks inside libfclib and Siconos Numerics, not ours (each one named in the file).
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan-thirdparty.supp"
# Also left out: the tests that run the same code as their smaller neighbours for many more
# steps, 7-10 times slower here than in Release (each 60-220 s of the 20 minutes these tests
# took under the sanitizers). The same code runs here in: the servo wall's every-solver test
# (APGD), the other AxisPressure, Conservation and SiloScene tests, PgsKernel's float blocks,
# one stiffness of the Hertz column, the other WarmStart tests and the rest of Cli.
long='^Apgd\.ReachesThePgsSolution|^AxisPressure\.EveryDiameterSlice|^Conservation\.RestingBed'
long+='|^SiloScene\.(FloatBlocks|LiveSiloPairs)|HertzColumn\..*/(100000|1e\+09|1e\+11|1e\+13)$'
long+='|^WarmStart\.WithoutTheVelocityStep|^Cli\.BenchQuick|^Restart\.TheReducedConveyor'
ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" --timeout 900 \
  -E "^Validation\.|^Cli\.AValidationCutShort|$long" "$@"
