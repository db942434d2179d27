#!/usr/bin/env bash
# Builds the whole app with ThreadSanitizer (build-tsan/, RelWithDebInfo) and runs its smoke
# test under Xvfb with two step threads: the silo played and screenshotted, and a paced 1 s
# drum video. Fails on any report outside the documented third-party suppressions
# (tests/tsan-thirdparty.supp).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
ndem_ensure_packages
if [ ! -f build-tsan/build.ninja ]; then
  # -O1 and line tables only (-g1): the reports keep file and line, a file compiles in 12 s
  # instead of 20 s (-O2 -g).
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DNDEM_TSAN=ON
fi
cmake --build build-tsan --parallel "$(nproc)" --target ndem-studio
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 log_path=$out/tsan suppressions=$PWD/tests/tsan-thirdparty.supp"
xvfb="xvfb-run -a -s '-screen 0 1600x1000x24'"
status=0
eval "$xvfb ./build-tsan/app/ndem-studio assets/scenes/silo.json --set particles.0.count=500 --threads 2 --screenshot $out/silo.png --frames 150" || status=$?
eval "$xvfb ./build-tsan/app/ndem-studio assets/scenes/drum.json --set solver.iterations=10 --threads 2 --size 640x480 --record $out/drum.mp4 --sim-seconds 1" || status=$?
if ls "$out"/tsan.* >/dev/null 2>&1 || [ "$status" -ne 0 ]; then
  cat "$out"/tsan.*
  echo "ThreadSanitizer reported races (above) or a run failed (exit $status)" >&2
  exit 1
fi
echo "ThreadSanitizer: no reports (screenshot and video runs)"
