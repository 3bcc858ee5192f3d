#!/usr/bin/env bash
# Bound against unbound ranks: pmixrun -n 2 of compute_loop
# (bench/src/compute_loop.c: each rank sweeps its own 1 MiB array, a fence
# per round) on pmixpp's pmixrun, with --bind-to core (the default for 2
# ranks) and with --bind-to none, alternating, ROUNDS (7) times each, in
# two settings:
#
#   quiet     the job alone
#   crowded   one more busy process (a shell loop, unbound) on the node,
#             as a neighbour's job or a daemon would be
#
# Figures: the loop's seconds (rank 0), median and worst over the rounds.
#
#   bench/binding.sh
#   ROUNDS=3 LOOPS=200 bench/binding.sh
#
# Output: the table on stdout and bench/RESULTS-binding.md.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PMIXPP_ROOT=$(cd "$BENCH_DIR/.." && pwd)
PMIXPP_BUILD=${PMIXPP_BUILD:-"$PMIXPP_ROOT/build"}
ROUNDS=${ROUNDS:-7}
LOOPS=${LOOPS:-400}
KIB=${KIB:-1024}
OUT="$BENCH_DIR/build/pmixpp"

make -s -C "$BENCH_DIR" OUT="$OUT" PMIX_CFLAGS="-I$PMIXPP_ROOT/include" \
  PMIX_LIBS="-L$PMIXPP_BUILD/lib -Wl,-rpath,$PMIXPP_BUILD/lib -lpmix" "$OUT/compute_loop" >/dev/null
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pmixpp-binding.XXXXXX")
busy=""
cleanup() {
  [ -n "$busy" ] && kill "$busy" 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT

one_run() {  # <bind-to> -> seconds
  "$PMIXPP_BUILD/bin/pmixrun" --tmpdir "$scratch" --bind-to "$1" -n 2 "$OUT/compute_loop" "$LOOPS" "$KIB" |
    awk '/^loop/ {print $2}'
}

declare -A samples
for setting in quiet crowded; do
  if [ "$setting" = crowded ]; then
    sh -c 'while :; do :; done' &
    busy=$!
  fi
  for ((round = 1; round <= ROUNDS; round++)); do
    for bind in core none; do
      seconds=$(one_run "$bind")
      [ -n "$seconds" ] || { echo "binding.sh: a run failed ($setting, --bind-to $bind)" >&2; exit 1; }
      samples[$setting.$bind]+="$seconds "
    done
  done
  if [ -n "$busy" ]; then
    kill "$busy"
    wait "$busy" 2>/dev/null || true
    busy=""
  fi
done

stats() {  # <samples> -> "median worst"
  tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -g | awk '{v[NR] = $1} END {printf "%.3f %.3f", v[int((NR + 1) / 2)], v[NR]}'
}

table=$(
  echo "| setting | --bind-to core: median (worst) | --bind-to none: median (worst) | none / core |"
  echo "|---|---:|---:|---:|"
  for setting in quiet crowded; do
    read -r core_median core_worst <<<"$(stats "${samples[$setting.core]}")"
    read -r none_median none_worst <<<"$(stats "${samples[$setting.none]}")"
    ratio=$(awk -v a="$none_median" -v b="$core_median" 'BEGIN {printf "%.2f", a / b}')
    echo "| $setting | ${core_median} s (${core_worst}) | ${none_median} s (${none_worst}) | ${ratio}x |"
  done
)
echo "$table"
{
  echo "# Bound against unbound ranks"
  echo
  echo "\`bench/binding.sh\` ($(date -u +%Y-%m-%d), $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')):"
  echo "pmixrun -n 2 of \`compute_loop $LOOPS $KIB\` (each rank sweeps its own ${KIB} KiB array 8 times, then a fence),"
  echo "$ROUNDS alternating runs per cell. \"crowded\": one more busy process, unbound, on the node."
  echo
  echo "$table"
} >"$BENCH_DIR/RESULTS-binding.md"
