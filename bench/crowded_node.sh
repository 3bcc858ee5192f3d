#!/usr/bin/env bash
# A legitimate job on a crowded node, pmixpp next to OpenPMIx
# 4.2.2 under the same attacks, with the same programs (bench/src, built
# against each library as run.sh does):
#
#   none    the job alone
#   flood   user nobody opens FLOOD (3000) silent tcp connections to the
#           server while the job runs (tcp_flood)
#   slow    the job's event sink stops itself (SIGSTOP): EVENTS (2400)
#           events of 16 KiB (37.5 MiB) pile up for a peer that never reads
#
# The job (bench_host, 5 ranks of crowd_client): 3 legitimate ranks iterate
# put 1 KiB / commit / collecting fence / get, at least ITER (300) times,
# for SECONDS_PER_RUN (3) seconds and until the notifier (rank 3) has
# raised its EVENTS events; rank 4 is the sink. The same in all three scenarios. Figures: the worst iteration
# of any legitimate rank, the median iteration, the host's peak RSS
# (VmHWM). Runs alternate between the libraries, ROUNDS (3) times; the
# table gives each figure's median over the rounds.
#
#   bench/crowded_node.sh            (root: the flood runs as nobody)
#   ROUNDS=1 ITER=100 EVENTS=200 bench/crowded_node.sh
#
# Output: the table on stdout and bench/RESULTS-crowded.md.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PMIXPP_ROOT=$(cd "$BENCH_DIR/.." && pwd)
PMIXPP_BUILD=${PMIXPP_BUILD:-"$PMIXPP_ROOT/build"}
ROUNDS=${ROUNDS:-3}
ITER=${ITER:-300}
FLOOD=${FLOOD:-3000}
EVENTS=${EVENTS:-2400}
RANKS=5
SECONDS_PER_RUN=${SECONDS_PER_RUN:-3}
JOB_TIMEOUT=${JOB_TIMEOUT:-60}  # a run that takes longer is killed and counted failed

log() { printf '[crowded] %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root: the flood runs as user nobody"
[ -e "$PMIXPP_BUILD/lib/libpmix.so.2" ] || die "no pmixpp build in $PMIXPP_BUILD (scripts/test.sh builds it)"
pkg-config --exists pmix || die "OpenPMIx's libpmix-dev is missing (apt-get install libpmix-dev)"

# shellcheck source=lib/build_both.sh
source "$BENCH_DIR/lib/build_both.sh"

RAW=$(mktemp /tmp/pmix-crowded-raw.XXXXXX)
SCRATCH=$(mktemp -d /tmp/pmix-crowded.XXXXXX)
chmod 0755 "$SCRATCH"
FLOOD_PID=""
HOST_PID=""
cleanup() {
  [ -n "$FLOOD_PID" ] && kill "$FLOOD_PID" 2>/dev/null || true
  [ -n "$HOST_PID" ] && kill "$HOST_PID" 2>/dev/null || true
  rm -rf "$SCRATCH" "$RAW"
}
trap cleanup EXIT

# Peak RSS (KiB) of pid $1 when it exits (VmHWM read until then).
peak_rss() {
  local pid=$1 peak=0 now
  while [ -d "/proc/$pid" ]; do
    now=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ "${now:-0}" -gt "$peak" ] && peak=$now || true
    sleep 0.05
  done
  echo "$peak"
}

# run_one <impl> <attack>: one job; appends "impl attack figure value" to $RAW.
run_one() {
  local impl=$1 attack=$2 dir="$OUT/$1" tmp out
  tmp=$(mktemp -d "$SCRATCH/run.XXXXXX")
  chmod 0755 "$tmp"  # the flooder (nobody) reads the URI file there
  out="$tmp.out"
  local env=(TMPDIR="$tmp" CROWD_ITERATIONS="$ITER" CROWD_URI_FILE="$tmp/uri"
             CROWD_GO_FILE="$tmp/go" CROWD_DONE_FILE="$tmp/done" CROWD_EVENTS="$EVENTS"
             CROWD_EVENTS_DONE_FILE="$tmp/events-done" CROWD_SECONDS="$SECONDS_PER_RUN")
  [ "$impl" = pmixpp ] && env+=(PMIX_MCA_mca_base_component_path="$PMIXPP_BUILD/lib/pmixpp")
  [ "$attack" = slow ] && env+=(CROWD_SINK_STOPS=1)
  env "${env[@]}" "$dir/bench_host" job -n "$RANKS" "$dir/crowd_client" >"$out" 2>&1 &
  HOST_PID=$!  # env execs bench_host: this is its pid
  (sleep "$JOB_TIMEOUT"; kill "$HOST_PID" 2>/dev/null) &
  local watchdog=$!
  local rss_file="$tmp.rss"
  (peak_rss "$HOST_PID" >"$rss_file") &
  local sampler=$!
  for _ in $(seq 600); do [ -s "$tmp/uri" ] && break; sleep 0.05; done
  if [ "$attack" = flood ]; then
    [ -s "$tmp/uri" ] || die "$impl: rank 0 wrote no tcp URI (see $out)"
    setpriv --reuid=nobody --regid=nogroup --clear-groups \
      bash -c "ulimit -n $((FLOOD + 64)); exec '$dir/tcp_flood' '$tmp/uri' $FLOOD" >"$tmp.flood" 2>&1 &
    FLOOD_PID=$!
    sleep 0.05  # the flood goes on while the job iterates
  fi
  touch "$tmp/go"
  if [ "$attack" = slow ]; then
    # The sink is stopped until the legitimate ranks are done.
    for _ in $(seq $((JOB_TIMEOUT * 20))); do [ -e "$tmp/done" ] && break; sleep 0.05; done
    pkill -CONT -f "^$dir/crowd_client" 2>/dev/null || true
  fi
  local rc=0
  wait "$HOST_PID" || rc=$?
  HOST_PID=""
  kill "$watchdog" 2>/dev/null || true
  wait "$watchdog" 2>/dev/null || true
  wait "$sampler" || true
  [ -s "$tmp.flood" ] && cat "$tmp.flood" >&2
  if [ -n "$FLOOD_PID" ]; then kill "$FLOOD_PID" 2>/dev/null || true; wait "$FLOOD_PID" 2>/dev/null || true; FLOOD_PID=""; fi
  local worst p50
  worst=$(awk '$1=="R" && $2=="iter_worst_ms" {if ($3>m) m=$3} END {print m+0}' "$out")
  p50=$(awk '$1=="R" && $2=="iter_p50_ms" {print $3}' "$out" | sort -g | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : 0)}')
  local legit
  legit=$(grep -c '^R iter_worst_ms' "$out" || true)
  if [ "$legit" -ne $((RANKS - 2)) ]; then
    log "$impl/$attack: only $legit of $((RANKS - 2)) legitimate ranks finished (host exit $rc); output:"
    sed 's/^/    /' "$out" | tail -20 >&2
    echo "$impl $attack failed 1" >>"$RAW"
  else
    echo "$impl $attack worst_ms $worst" >>"$RAW"
    echo "$impl $attack p50_ms $p50" >>"$RAW"
  fi
  echo "$impl $attack rss_mib $(awk '{printf "%.1f", $1/1024}' "$rss_file")" >>"$RAW"
  log "$impl/$attack: worst $worst ms, median $p50 ms, host peak $(awk '{printf "%.1f", $1/1024}' "$rss_file") MiB"
  rm -rf "$tmp" "$out" "$rss_file" "$tmp.flood"
}

for round in $(seq "$ROUNDS"); do
  for attack in none flood slow; do
    if [ $((round % 2)) -eq 1 ]; then order="openpmix pmixpp"; else order="pmixpp openpmix"; fi
    for impl in $order; do run_one "$impl" "$attack"; done
  done
done

median() { sort -g | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : "-")}'; }
figure() { awk -v i="$1" -v a="$2" -v f="$3" '$1==i && $2==a && $3==f {print $4}' "$RAW" | median; }
failures() { awk -v i="$1" -v a="$2" '$1==i && $2==a && $3=="failed" {n++} END {print n+0}' "$RAW"; }

TABLE=$(
  printf '| attack | figure | OpenPMIx 4.2.2 | pmixpp | OpenPMIx/pmixpp |\n|---|---|---|---|---|\n'
  for attack in none flood slow; do
    for f in worst_ms p50_ms rss_mib; do
      o=$(figure openpmix "$attack" "$f"); p=$(figure pmixpp "$attack" "$f")
      ratio=$(awk -v o="$o" -v p="$p" 'BEGIN {if (p != "-" && p > 0 && o != "-") printf "%.2fx", o/p; else print "-"}')
      printf '| %s | %s | %s | %s | %s |\n' "$attack" "$f" "$o" "$p" "$ratio"
    done
    printf '| %s | runs failed | %s | %s | |\n' "$attack" "$(failures openpmix "$attack")" "$(failures pmixpp "$attack")"
  done
)
echo "$TABLE"
{
  echo "# A crowded node: pmixpp next to OpenPMIx 4.2.2 under the same attacks"
  echo
  echo "\`bench/crowded_node.sh\` (ROUNDS=$ROUNDS ITER=$ITER SECONDS_PER_RUN=$SECONDS_PER_RUN EVENTS=$EVENTS FLOOD=$FLOOD), $(date -u +%Y-%m-%d), $(nproc) cores,"
  echo "OpenPMIx $(pkg-config --modversion pmix), pmixpp $(git -C "$PMIXPP_ROOT" rev-parse --short HEAD)."
  echo "Medians over the rounds; worst = the slowest iteration of any legitimate rank in a run."
  echo
  echo "$TABLE"
} >"$BENCH_DIR/RESULTS-crowded.md"
