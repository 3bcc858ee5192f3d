#!/usr/bin/env bash
# Load figures: pmixrun serves 256 clients started at once, each
# doing init, put (256 bytes), commit, a data-collecting fence over all,
# get of 16 peers, finalize (the itest_load client, --rounds R rounds per
# init). Prints wall time per job and the server's (pmixrun's) peak RSS and
# peak open descriptors, sampled from /proc while the job runs.
#
#   bench/load.sh [clients] [jobs] [rounds]      defaults: 256 3 2
#
# The correctness side (zero failures, no descriptor left behind) is the
# CTest entry load_256_clients; this script only measures.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PMIXPP_BUILD=${PMIXPP_BUILD:-"$BENCH_DIR/../build"}
CLIENTS=${1:-256} JOBS=${2:-3} ROUNDS=${3:-2}
PMIXRUN="$PMIXPP_BUILD/bin/pmixrun"
CLIENT="$PMIXPP_BUILD/tests/integration/clients/itest_load"
for program in "$PMIXRUN" "$CLIENT"; do
  [ -x "$program" ] || { echo "load.sh: $program not built (cmake --build $PMIXPP_BUILD)" >&2; exit 2; }
done
export LD_LIBRARY_PATH="$PMIXPP_BUILD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PMIX_MCA_mca_base_component_path="$PMIXPP_BUILD/lib/pmixpp"
scratch=$(mktemp -d /tmp/pmixpp-load.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

# Peak RSS (kB) and peak fd count of pid $1 until it exits.
sample() {
  local pid=$1 rss=0 fds=0 now
  while [ -d "/proc/$pid" ]; do
    now=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ "${now:-0}" -gt "$rss" ] && rss=$now || true
    now=$( (ls "/proc/$pid/fd" 2>/dev/null || true) | wc -l)
    [ "$now" -gt "$fds" ] && fds=$now || true
    sleep 0.02
  done
  echo "$rss $fds"
}

printf '%-6s %8s %10s %10s %10s\n' job clients 'wall s' 'peak RSS' 'peak fds'
for job in $(seq 1 "$JOBS"); do
  start=$(date +%s.%N)
  "$PMIXRUN" --tmpdir "$scratch" -n "$CLIENTS" "$CLIENT" --peers 16 --rounds "$ROUNDS" --bytes 256 \
    > "$scratch/out.$job" 2>&1 &
  pid=$!
  read -r rss fds < <(sample "$pid")
  status=0
  wait "$pid" || status=$?
  end=$(date +%s.%N)
  ok=$(grep -c ' ok$' "$scratch/out.$job" || true)
  printf '%-6s %8s %10.2f %8s kB %10s\n' "$job" "$ok/$CLIENTS" "$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')" "$rss" "$fds"
  if [ "$status" -ne 0 ] || [ "$ok" -ne "$CLIENTS" ]; then
    echo "load.sh: job $job failed (pmixrun exit $status, $ok of $CLIENTS clients ok); output in $scratch/out.$job" >&2
    trap - EXIT
    exit 1
  fi
done
