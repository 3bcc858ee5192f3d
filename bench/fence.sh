#!/usr/bin/env bash
# Fences as distributions over rounds: every round's median, each library,
# quiet, beside a busy neighbour and with every rank bound to a core of its
# own, with PMIx_Fence and PMIx_Fence_nb.
#
#   bench/fence.sh                  ROUNDS=9 SIZES="2 16" FENCES=200
#   ROUNDS=3 LOADS=quiet bench/fence.sh
#
# One round runs `bench_host job -n N bench_client --fences F [--nb]` once per
# library (the order alternating every round) and keeps the median over the
# ranks of each fence kind (no data, 1 KiB and 16 KiB collected per rank).
# "busy" runs one `yes > /dev/null` per core but one beside the job, started
# before the load's first round and ended after its last. "bound" binds
# rank R to the R-th usable cpu (lib/bind_to_own_core.sh), as launchers do by
# default, and runs only the sizes that fit the cpus. Writes
# bench/RESULTS-fence.md and prints it.
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
PMIXPP_ROOT=$(cd "$BENCH_DIR/.." && pwd)
PMIXPP_BUILD=${PMIXPP_BUILD:-$PMIXPP_ROOT/build}
ROUNDS=${ROUNDS:-9}
SIZES=${SIZES:-2 16}
FENCES=${FENCES:-200}
LOADS=${LOADS:-quiet busy bound}
MODES=${MODES:-blocking nb}
TIMEOUT=${TIMEOUT:-300}
RESULTS=${RESULTS:-$BENCH_DIR/RESULTS-fence.md}

log() { echo "[fence] $*" >&2; }

# shellcheck source=lib/build_both.sh
source "$BENCH_DIR/lib/build_both.sh"
WORK=$(mktemp -d "$BENCH_DIR/build/fence.XXXXXX")
RAW="$WORK/raw"
: >"$RAW"
NEIGHBOURS=()
stop_neighbours() {
  local pid
  for pid in "${NEIGHBOURS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${NEIGHBOURS[@]}"; do wait "$pid" 2>/dev/null || true; done
  NEIGHBOURS=()
}
trap 'stop_neighbours; rm -rf "$WORK"' EXIT

start_neighbours() {  # one busy process per core but one
  local i
  for i in $(seq 2 "$(nproc)"); do
    yes >/dev/null &
    NEIGHBOURS+=($!)
  done
}

# run_round <load> <n> <mode> <impl> <round>
run_round() {
  local load=$1 n=$2 mode=$3 impl=$4 round=$5 session rc=0
  local args=(--gets 0 --puts 0 --fences "$FENCES")
  [ "$mode" = nb ] && args+=(--nb)
  local env=(TMPDIR=@ PMIX_MCA_psec=native)
  [ "$impl" = pmixpp ] && env+=(PMIX_MCA_mca_base_component_path="$PMIXPP_BUILD/lib/pmixpp")
  local client=("$OUT/$impl/bench_client")
  [ "$load" = bound ] && client=("$BENCH_DIR/lib/bind_to_own_core.sh" "$OUT/$impl/bench_client")
  session=$(mktemp -d "$WORK/s.XXXXXX")
  env=("${env[@]/#TMPDIR=@/TMPDIR=$session}")
  (cd "$session" && env "${env[@]}" timeout -k 5 "$TIMEOUT" "$OUT/$impl/bench_host" job -n "$n" \
    "${client[@]}" "${args[@]}" </dev/null >"$session.out" 2>"$session.err") || rc=$?
  if [ "$rc" != 0 ]; then
    log "$load n=$n $mode $impl round $round failed (exit $rc)"
    tail -n 5 "$session.err" >&2
  else
    awk -v key="$load $n $mode $impl $round" '$1 == "R" && $2 ~ /^fence/ { print key, $2, $3 }' "$session.out" >>"$RAW"
  fi
  rm -rf "$session" "$session.out" "$session.err"
}

started=$(date +%s)
for load in $LOADS; do
  [ "$load" = busy ] && start_neighbours
  for round in $(seq 1 "$ROUNDS"); do
    log "$load: round $round of $ROUNDS"
    order=(pmixpp openpmix)
    [ $((round % 2)) = 1 ] && order=(openpmix pmixpp)
    for n in $SIZES; do
      [ "$load" = bound ] && [ "$n" -gt "$(nproc)" ] && continue
      for mode in $MODES; do
        for impl in "${order[@]}"; do run_round "$load" "$n" "$mode" "$impl" "$round"; done
      done
    done
  done
  stop_neighbours
done
python3 "$BENCH_DIR/lib/fence_report.py" "$RAW" "$ROUNDS" "$FENCES" "$(($(date +%s) - started))" >"$RESULTS"
cat "$RESULTS"
