#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite:
#   1. CTest in build/ (unit, integration, compat with Open MPI,
#      python3-pmix and OpenPMIx's example programs, load, fuzz-corpus replay);
#   2. the same suite, less the compat and load labels, under ASan+UBSan
#      (build-asan/) and under TSan (build-tsan/; docs/reliability.md);
#   3. every libFuzzer target for PMIXPP_FUZZ_SECONDS (default 30) each
#      (build-fuzz/, tests/fuzz/README.md).
# Arguments go to the first CTest run and skip stages 2 and 3 (a filtered
# run by hand); so does PMIXPP_TEST_RELIABILITY=0.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/sanitizers.sh"
source "$(dirname "$0")/lib/fuzz.sh"
pmixpp_install_packages "${PMIXPP_COMPAT_PACKAGES[@]}" "${PMIXPP_RELIABILITY_PACKAGES[@]}"
pmixpp_build
# psec/munge tests run against a real munged; with this set they fail (not
# skip) when it cannot be reached.
source "$(dirname "$0")/lib/munge.sh"
pmixpp_ensure_munged
export PMIXPP_REQUIRE_MUNGE=1

failed=()
stage() {
  local name=$1
  shift
  local start=$SECONDS
  pmixpp_log "stage: $name"
  if "$@"; then
    pmixpp_log "stage: $name passed in $((SECONDS - start)) s"
  else
    pmixpp_log "stage: $name FAILED after $((SECONDS - start)) s"
    failed+=("$name")
  fi
}

run_ctest() { (cd "$PMIXPP_BUILD" && ctest --output-on-failure -j"$(nproc)" "$@"); }

stage "ctest" run_ctest "$@"
if [ $# -eq 0 ] && [ "${PMIXPP_TEST_RELIABILITY:-1}" != 0 ]; then
  stage "asan+ubsan" pmixpp_sanitizer_suite address,undefined
  stage "tsan" pmixpp_sanitizer_suite thread
  stage "fuzz" pmixpp_fuzz_suite "${PMIXPP_FUZZ_SECONDS:-30}"
fi
if [ ${#failed[@]} -gt 0 ]; then
  pmixpp_log "FAILED stages: ${failed[*]}"
  exit 1
fi
pmixpp_log "all stages passed"
