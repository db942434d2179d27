#!/usr/bin/env bash
# libFuzzer (Debian's clang) on what reads untrusted input: the scene parser, the `--set`
# parser, the checkpoint reader and the command-line parser (tests/fuzz/). Builds build-fuzz/ (AddressSanitizer and
# UndefinedBehaviorSanitizer on), seeds each corpus (the shipped scenes, the keys of
# `ndem keys`, a checkpoint of a small silo), runs every target for NDEM_FUZZ_RUNS inputs
# (default 20 000) and the regression inputs of tests/fuzz/regressions/, and fails on a crash,
# a sanitizer report, a leak, a timeout or a blow-up of memory; the input is kept in
# build-fuzz/crashes/. Needs a built `ndem` (./test builds it first) for the checkpoint seed.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
ndem_ensure_packages
runs="${NDEM_FUZZ_RUNS:-20000}"
# A fixed seed: CI runs the same inputs for the same code, so a red run can be reproduced and
# a green one is not luck. Exploratory runs pass another (NDEM_FUZZ_SEED=0: libFuzzer picks).
seed="${NDEM_FUZZ_SEED:-1}"
ndem="${NDEM_CLI:-build-test/engine/cli/ndem}"
if [ ! -f build-fuzz/build.ninja ]; then
  CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Fuzz \
    -DCMAKE_CXX_FLAGS_FUZZ="-O1" -DNDEM_FUZZ=ON -DNDEM_BUILD_APP=OFF -DNDEM_BUILD_TESTS=OFF \
    -DNDEM_BUILD_BENCH=OFF >/dev/null
fi
targets=(scene_text override checkpoint command_line)
cmake --build build-fuzz --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}"

corpus=build-fuzz/corpus
mkdir -p build-fuzz/crashes "${targets[@]/#/$corpus/}"
cp assets/scenes/*.json "$corpus/scene_text/"
if [ -x "$ndem" ]; then
  # One override per setting key, with its default as the value.
  "$ndem" keys 2>/dev/null | awk '/^  [a-zA-Z]/ && $1 != "key" {print $1}' | head -400 | while read -r key; do
    printf '%s=1' "$key" > "$corpus/override/$(echo "$key" | tr -c 'a-zA-Z0-9\n' _)"
  done
  "$ndem" run assets/scenes/column.json --steps 3 --quiet \
    --checkpoint "$corpus/checkpoint/column.h5" >/dev/null
fi
printf 'solver.iterations=50' > "$corpus/override/iterations"
printf 'materials.grain.friction=0.5' > "$corpus/override/friction"
printf 'walls.0.enabled=false' > "$corpus/override/wall"
printf 'run\nscene.json\n--steps\n100\n--set\nsolver.iterations=50\n--threads\n2\n-q\n' \
  > "$corpus/command_line/run"
printf 'run\n--time=0.5\n--report=r.json\n-j\n4\n--set\nnokeyvalue\n-h\n' \
  > "$corpus/command_line/help"

status=0
for t in "${targets[@]}"; do
  regressions=()
  [ -d "tests/fuzz/regressions/$t" ] && regressions=("tests/fuzz/regressions/$t"/*)
  if [ ${#regressions[@]} -gt 0 ]; then
    echo "==> fuzz_$t: ${#regressions[@]} regression inputs"
    ./build-fuzz/tests/fuzz/fuzz_$t -timeout=20 -rss_limit_mb=2048 "${regressions[@]}" \
      2> "build-fuzz/$t-regressions.log" || { tail -40 "build-fuzz/$t-regressions.log"; status=1; }
  fi
  echo "==> fuzz_$t: $runs inputs"
  start=$SECONDS
  ./build-fuzz/tests/fuzz/fuzz_$t -runs="$runs" -seed="$seed" -max_len=131072 -timeout=20 -rss_limit_mb=2048 \
    -artifact_prefix="build-fuzz/crashes/$t-" "$corpus/$t" 2> "build-fuzz/$t.log" \
    || { tail -60 "build-fuzz/$t.log"; status=1; }
  echo "    $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "build-fuzz/$t.log" || echo 'stopped'), $((SECONDS - start)) s"
done
exit $status
