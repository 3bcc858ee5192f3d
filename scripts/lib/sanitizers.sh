# The whole test suite (less the `compat` label) built and run under
# sanitizers. Sourced, not run:
#
#   source scripts/lib/sanitizers.sh
#   pmixpp_sanitizer_suite address,undefined    # build-asan/: ASan + UBSan + LSan
#   pmixpp_sanitizer_suite thread               # build-tsan/: TSan
#
# Extra arguments go to ctest (for example -R gds_). Returns ctest's status.
# Why `compat` is left out: its consumers (Open MPI's mpirun and MPI
# programs, Debian's python3-pmix) are built without sanitizers and cannot
# load a sanitized libpmix.so.2 (the sanitizer runtime must come first in
# the process). See docs/reliability.md, "Sanitizers".

PMIXPP_ROOT=${PMIXPP_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# shellcheck source=build.sh
declare -F pmixpp_configure >/dev/null || source "$PMIXPP_ROOT/scripts/lib/build.sh"
declare -F pmixpp_log >/dev/null || pmixpp_log() { printf '[pmixpp] %s\n' "$*"; }

# pmixpp_sanitizer_build_name <sanitizers>: the build directory's suffix.
pmixpp_sanitizer_build_name() {
  case "$1" in
    address,undefined | undefined,address) echo asan ;;
    thread) echo tsan ;;
    *) return 1 ;;
  esac
}

# pmixpp_sanitizer_env <sanitizers>: exports the *SAN_OPTIONS for a run.
# Every finding fails its test: halt at the first, with a stack.
# abort_on_error=1 matters: Criterion ignores the exit status of a test's
# worker once the test has reported, so a leak found at the worker's exit
# (or a report from its teardown) only fails the test when it kills the
# worker with SIGABRT.
pmixpp_sanitizer_env() {
  local supp="$PMIXPP_ROOT/tests/sanitizers"
  case "$1" in
    address,undefined | undefined,address)
      # detect_stack_use_after_return: also catches what a callback keeps of
      # a caller's frame. LSan checks every process that exits normally
      # (forked clients too); lsan.supp names third-party leaks only.
      export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:disable_coredump=1:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:print_summary=1"
      export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
      export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:report_error_type=1"
      ;;
    thread)
      # second_deadlock_stack: both stacks of a lock-order inversion.
      # die_after_fork is left at its default (1): a child forked from a
      # threaded process that starts threads without exec is something
      # TSan cannot follow, and such a child is stopped with a message
      # rather than run unchecked (every test child execs; the two cases
      # that test a fork without exec skip under TSan).
      export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:disable_coredump=1:second_deadlock_stack=1:history_size=4:suppressions=$supp/tsan.supp:print_suppressions=0"
      ;;
    *)
      printf '[pmixpp] unknown sanitizer set "%s" (use address,undefined or thread)\n' "$1" >&2
      return 1
      ;;
  esac
}

# pmixpp_forget_other_compiler <build dir> <compiler>: CMake keeps the
# compiler a build dir was first configured with; a dir made with another
# one is configured afresh (its objects stay in ccache).
pmixpp_forget_other_compiler() {
  local build=$1 cxx=$2 cached
  [ -f "$build/CMakeCache.txt" ] || return 0
  cached=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
  [ -n "$cxx" ] || cxx=${CXX:-c++}
  [ "$(command -v "$cxx")" = "$cached" ] && return 0
  pmixpp_log "build dir $build was made with $cached; configuring it afresh for $cxx"
  rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
}

# pmixpp_sanitizer_build <address,undefined|thread>: configure and build
# build-asan/ or build-tsan/ (the compat label's programs are left out:
# tests/compat/CMakeLists.txt).
pmixpp_sanitizer_build() {
  local sanitizers=$1 name
  if ! name=$(pmixpp_sanitizer_build_name "$sanitizers"); then
    printf '[pmixpp] unknown sanitizer set "%s" (use address,undefined or thread)\n' "$sanitizers" >&2
    return 1
  fi
  local build="$PMIXPP_ROOT/build-$name"
  # ASan+UBSan with clang when it is installed (scripts/test.sh installs it):
  # GCC 12 gives every UBSan check a relocated record in .data, 13 MB of it
  # in libpmix.so.2 (482,000 relocations), and each of the suite's thousands
  # of forked processes paid for them at load: pmixrun --help took 184 ms of
  # CPU against clang's 98, and the stage's tests 628 s against 459. TSan
  # stays with GCC: clang 14's TSan crashes at start on this kernel.
  # PMIXPP_SANITIZER_CC/CXX choose other compilers.
  local cc=${PMIXPP_SANITIZER_CC:-} cxx=${PMIXPP_SANITIZER_CXX:-}
  if [ -z "$cxx" ] && [ "$name" = asan ] && pmixpp_have clang++-14; then
    cc=clang-14 cxx=clang++-14
  fi
  pmixpp_forget_other_compiler "$build" "$cxx"
  # -O1 (with scripts/lib/build.sh's -g1: stacks with file and line), as the
  # sanitizers' documentation recommends, and about a quarter less build
  # time than -O2 on 2 cores; the tests take as long.
  # Without -DNDEBUG: assert() stays on under the sanitizers, as it always was.
  (
    if [ -n "$cxx" ]; then export CC=${cc:-cc} CXX=$cxx; fi
    PMIXPP_OPT_LEVEL=-O1 PMIXPP_NDEBUG= pmixpp_configure "$build" \
      -DPMIXPP_SANITIZE="$sanitizers" -DPMIXPP_WERROR="${PMIXPP_WERROR:-OFF}"
  ) || return
  pmixpp_build_quietly "$name" "$build"
}

# pmixpp_sanitizer_tests <address,undefined|thread> [ctest args...]: runs
# the suite less `compat` in the built tree; returns ctest's status.
pmixpp_sanitizer_tests() {
  local sanitizers=$1 name
  shift
  name=$(pmixpp_sanitizer_build_name "$sanitizers") || return
  local build="$PMIXPP_ROOT/build-$name"
  local jobs
  jobs=$(nproc)
  # psec/munge tests run against a real munged, as in scripts/test.sh.
  # shellcheck source=munge.sh
  source "$PMIXPP_ROOT/scripts/lib/munge.sh"
  pmixpp_ensure_munged || return
  (
    pmixpp_sanitizer_env "$sanitizers" || exit 1
    export PMIXPP_REQUIRE_MUNGE=1
    # `load` runs on its own afterwards, with jobs of 128 clients instead of
    # 256 (the normal build runs the full size): half the time for the same
    # paths; 256 pass too (ASan 60 s, TSan 31 s on 2 cores).
    cd "$build" && ctest --output-on-failure -j"$jobs" -LE 'compat|load|source' "$@" &&
      PMIXPP_LOAD_CLIENTS=${PMIXPP_SANITIZER_LOAD_CLIENTS:-128} ctest --output-on-failure -L load "$@"
  )
}

# pmixpp_sanitizer_suite <address,undefined|thread> [ctest args...]: both.
pmixpp_sanitizer_suite() {
  local sanitizers=${1:?usage: pmixpp_sanitizer_suite address,undefined|thread [ctest args...]}
  shift
  pmixpp_sanitizer_build "$sanitizers" && pmixpp_sanitizer_tests "$sanitizers" "$@"
}
