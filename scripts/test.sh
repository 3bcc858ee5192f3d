#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite in stages:
#   plain       CTest in build/ (unit, integration, compat with Open MPI,
#               Slurm, python3-pmix and OpenPMIx's programs, load, fuzz-corpus
#               replay);
#   asan+ubsan  the suite less `compat` under ASan+UBSan+LSan (build-asan/);
#   tsan        the same under TSan (build-tsan/; docs/reliability.md);
#   fuzz        every libFuzzer target for PMIXPP_FUZZ_SECONDS (default 30)
#               each (build-fuzz/, tests/fuzz/README.md).
# At the end, one line per stage with its build and test time.
#
#   scripts/test.sh --quick       the plain stage alone, as you work
#   scripts/test.sh -R gds_       arguments go to the plain stage's CTest
#                                 and skip the others (a filtered run)
# PMIXPP_TEST_RELIABILITY=0 also runs the plain stage alone.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/sanitizers.sh"
source "$(dirname "$0")/lib/fuzz.sh"

quick=0
if [ "${1:-}" = "--quick" ]; then
  quick=1
  shift
fi
[ $# -gt 0 ] && quick=1
[ "${PMIXPP_TEST_RELIABILITY:-1}" = 0 ] && quick=1

if [ "$quick" = 1 ]; then
  pmixpp_install_packages "${PMIXPP_COMPAT_PACKAGES[@]}"
else
  pmixpp_install_packages "${PMIXPP_COMPAT_PACKAGES[@]}" "${PMIXPP_RELIABILITY_PACKAGES[@]}"
fi
# psec/munge tests run against a real munged; with this set they fail (not
# skip) when it cannot be reached.
source "$(dirname "$0")/lib/munge.sh"
pmixpp_ensure_munged
export PMIXPP_REQUIRE_MUNGE=1

run_start=$SECONDS
# The summary counts this run's cache hits.
pmixpp_have ccache && [ "${PMIXPP_CCACHE:-1}" != 0 ] && ccache --zero-stats >/dev/null
failed=()
summary=()

# PMIXPP_OVERLAP=1: while a stage's tests run, the next stage's build runs
# beside them at the lowest CPU priority (nice 19), taking the cycles the
# tests leave while they wait on processes, sockets and timers. It pays on a
# cold compiler cache only, and off is the default: in its one trial run two
# load-sensitive tests failed beside the build (compat_multihost's network
# namespaces took over 60 s to set up; server_crowded_node ran out of
# descriptors before the server had closed the flood's).
ahead_name="" ahead_pid="" ahead_log="" ahead_start=0
build_ahead() {
  ahead_name=$1
  ahead_log=$(mktemp "${TMPDIR:-/tmp}/pmixpp-build-ahead.XXXXXX")
  ahead_start=$SECONDS
  (
    renice -n 19 -p "$BASHPID" >/dev/null
    eval "$2"
  ) >"$ahead_log" 2>&1 &
  ahead_pid=$!
}
# Waits for the build started ahead; its output, then its status.
wait_ahead() {
  local rc=0
  wait "$ahead_pid" || rc=$?
  cat "$ahead_log"
  rm -f "$ahead_log"
  ahead_name="" ahead_pid=""
  return "$rc"
}

# stage <name> <build command> <test command> [<next stage> <its build>]:
# the build (or the wait for it, when it was started ahead), then the tests
# with the next stage's build beside them. Times: the build's own (wall),
# how long the run waited for it, the tests.
stage() {
  local name=$1 build=$2 tests=$3 next=${4:-} next_build=${5:-}
  local start=$SECONDS build_s waited test_s="-" result=passed rc=0
  pmixpp_log "stage $name"
  if [ "$ahead_name" = "$name" ]; then
    wait_ahead || rc=$?
    build_s=$((SECONDS - ahead_start))
  else
    eval "$build" || rc=$?
    build_s=$((SECONDS - start))
  fi
  waited=$((SECONDS - start))
  if [ -n "$next" ] && [ "${PMIXPP_OVERLAP:-0}" = 1 ]; then
    build_ahead "$next" "$next_build"
  fi
  if [ "$rc" = 0 ]; then
    start=$SECONDS
    eval "$tests" || result=FAILED
    test_s=$((SECONDS - start))
  else
    result="FAILED (build)"
  fi
  [ "$result" = passed ] || failed+=("$name")
  pmixpp_log "stage $name: $result (build $build_s s, waited $waited s, tests $test_s s)"
  summary+=("$(printf '%-11s %7s %7s %7s   %s' "$name" "$build_s" "$waited" "$test_s" "$result")")
}

run_ctest() { (cd "$PMIXPP_BUILD" && ctest --output-on-failure -j"$(nproc)" "$@"); }
ctest_args=""
[ $# -gt 0 ] && ctest_args=$(printf '%q ' "$@")

asan_build="pmixpp_sanitizer_build address,undefined"
tsan_build="pmixpp_sanitizer_build thread"
if [ "$quick" = 1 ]; then
  stage plain pmixpp_build "run_ctest $ctest_args"
else
  stage plain pmixpp_build "run_ctest" asan+ubsan "$asan_build"
  stage asan+ubsan "$asan_build" "pmixpp_sanitizer_tests address,undefined" tsan "$tsan_build"
  stage tsan "$tsan_build" "pmixpp_sanitizer_tests thread" fuzz pmixpp_fuzz_build
  stage fuzz pmixpp_fuzz_build "pmixpp_fuzz_run ${PMIXPP_FUZZ_SECONDS:-30}"
fi

pmixpp_log "stage times in seconds:"
printf '[pmixpp]   %-11s %7s %7s %7s   %s\n' stage build waited tests result
for line in "${summary[@]}"; do
  printf '[pmixpp]   %s\n' "$line"
done
pmixpp_log "  total $((SECONDS - run_start)) s"
if pmixpp_have ccache && [ "${PMIXPP_CCACHE:-1}" != 0 ]; then
  pmixpp_log "  ccache: $(ccache --print-stats 2>/dev/null | awk -F'\t' '$1 ~ /^(direct|preprocessed)_cache_hit$/ {h += $2} $1 ~ /^cache_miss$/ {m = $2} END {printf "%d hits, %d misses", h, m}') (since its stats were last zeroed)"
fi
if [ ${#failed[@]} -gt 0 ]; then
  pmixpp_log "FAILED stages: ${failed[*]}"
  exit 1
fi
pmixpp_log "all stages passed"
