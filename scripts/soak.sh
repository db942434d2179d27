#!/usr/bin/env bash
# Soak run (not in CI; docs/RELIABILITY.md records one): a small scene stepped 10⁶ times by
# `ndem run`, its resident memory sampled every few seconds. Passes when the run ends with
# exit 0 (a NaN or infinity would stop it with exit 3, naming the step and the grain), gives
# no guard warning, and its memory over the last nine tenths of the run grows by less than
# 5 % (a leak of one allocation per step would show as steady growth).
#   scripts/soak.sh [SCENE] [STEPS] [extra ndem run arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
ndem="${NDEM_CLI:-build/engine/cli/ndem}"
scene="${1:-assets/scenes/column.json}"
steps="${2:-1000000}"
shift $(( $# > 2 ? 2 : $# ))
out=$(mktemp -d)
"$ndem" run "$scene" --steps "$steps" --quiet --report "$out/report.json" "$@" > "$out/log" 2>&1 &
pid=$!
start=$SECONDS
: > "$out/rss"
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
  [ -n "$rss" ] && echo "$((SECONDS - start)) $rss" >> "$out/rss"
  sleep 2
done
status=0
wait "$pid" || status=$?
echo "soak: $scene, $steps steps, exit $status, $((SECONDS - start)) s of wall time"
cat "$out/log"
awk -v out="$out" '
  { t[NR] = $1; r[NR] = $2 }
  END {
    if (NR < 10) { print "soak: too few memory samples (" NR ")"; exit 1 }
    first = r[int(NR / 10) + 1]; last = r[NR]; peak = 0
    for (k = 1; k <= NR; ++k) if (r[k] > peak) peak = r[k]
    printf "soak: resident memory %d kB at %d s (a tenth in), %d kB at the end, peak %d kB (%+.1f %%)\n",
           first, t[int(NR / 10) + 1], last, peak, 100.0 * (last - first) / first
    exit (last > 1.05 * first) ? 1 : 0
  }' "$out/rss" || status=1
# The report lists the guards' warnings; an empty list is written "[]".
if ! tr -d ' \n' < "$out/report.json" | grep -q '"warnings":\[\]'; then
  echo "soak: the run gave warnings or wrote no report ($out/report.json)"; status=1
fi
[ "$status" -eq 0 ] && echo "soak: passed" || echo "soak: FAILED (files in $out)"
exit "$status"
