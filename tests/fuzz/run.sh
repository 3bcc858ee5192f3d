#!/usr/bin/env bash
# Runs every libFuzzer target of tests/fuzz for a bounded time.
#   tests/fuzz/run.sh <fuzz-build-dir> <seconds-per-target> [target...]
# The build dir is one configured with CC=clang CXX=clang++ -DPMIXPP_FUZZ=ON
# and built with --target pmixpp_fuzz (README.md). Each target starts from
# its seed corpus and regression inputs, copied to a scratch directory so the
# tree is never modified. Targets run side by side, one per core. Exits nonzero when any target crashed (or leaked,
# hit a sanitizer finding, a timeout or the RSS limit) and prints the path of
# the input that did it; copy that file to tests/fuzz/regressions/<target>/.
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 <fuzz-build-dir> <seconds-per-target> [target...]" >&2
  exit 2
fi
build=$(cd "$1" && pwd) || exit 2
seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(messages handshake data_unpack regex register_nspace rendezvous cleanup topology
           openpmix_bfrops openpmix_connect openpmix_requests openpmix_job_data)
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pmixpp-fuzz.XXXXXX")
echo "fuzz: ${seconds}s per target, scratch ${scratch}"
# One target: its summary lines go to <work>/summary, its status to <work>/rc.
run_target() {
  local t=$1
  local bin="${build}/tests/fuzz/${t}_fuzz"
  local work="${scratch}/${t}"
  mkdir -p "${work}/corpus" "${work}/artifacts"
  if [ ! -x "$bin" ]; then
    echo "fuzz: ${t}: ${bin} missing (configure with -DPMIXPP_FUZZ=ON and build --target pmixpp_fuzz)" >"${work}/summary"
    echo 1 >"${work}/rc"
    return
  fi
  cp "${here}/corpus/${t}/"* "${work}/corpus/" 2>/dev/null
  cp "${here}/regressions/${t}/"* "${work}/corpus/" 2>/dev/null
  local log="${work}/fuzz.log"
  "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 \
         -artifact_prefix="${work}/artifacts/" "${work}/corpus" >"$log" 2>&1
  local rc=$?
  local execs speed cov ft
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1)
  {
    if [ $rc -ne 0 ]; then
      echo "fuzz: ${t}: FAILED (exit ${rc}) after ${execs:-?} execs; log ${log}"
      grep -E '^(==[0-9]+==ERROR|SUMMARY|.*fuzz invariant violated|.*runtime error)' "$log" | head -5 | sed 's/^/fuzz:   /'
      for input in "${work}/artifacts/"*; do
        [ -e "$input" ] && echo "fuzz: ${t}: crashing input: ${input}"
      done
    else
      echo "fuzz: ${t}: ok, ${execs:-?} execs (${speed:-?}/s), ${cov:-cov: ?}, ${ft:-ft: ?}, corpus $(ls "${work}/corpus" | wc -l) inputs"
    fi
  } >"${work}/summary"
  echo "$rc" >"${work}/rc"
}

# One target per core at a time (each fuzzer is one process on one core);
# PMIXPP_FUZZ_JOBS overrides.
jobs=${PMIXPP_FUZZ_JOBS:-$(nproc)}
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
  run_target "$t" &
  running=$((running + 1))
done
wait
failed=0
for t in "${targets[@]}"; do
  cat "${scratch}/${t}/summary"
  [ "$(cat "${scratch}/${t}/rc" 2>/dev/null)" = 0 ] || failed=1
done
if [ $failed -ne 0 ]; then
  echo "fuzz: FAILED (inputs and logs kept in ${scratch})"
  exit 1
fi
rm -rf "$scratch"
echo "fuzz: all targets passed"
