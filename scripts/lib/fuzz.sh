# The libFuzzer targets of tests/fuzz (tests/fuzz/README.md): built with
# clang in build-fuzz, each run for a bounded time from its seed corpus and
# regression inputs. Sourced by scripts/test.sh after common.sh.

# pmixpp_fuzz_suite <seconds-per-target>
pmixpp_fuzz_suite() {
  local seconds=$1
  local dir="$PMIXPP_ROOT/build-fuzz"
  pmixpp_log "fuzz: building the targets with clang in $dir"
  CC=clang-14 CXX=clang++-14 cmake -S "$PMIXPP_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPMIXPP_FUZZ=ON >/dev/null
  cmake --build "$dir" -j"$(nproc)" --target pmixpp_fuzz
  pmixpp_log "fuzz: ${seconds} s per target"
  bash "$PMIXPP_ROOT/tests/fuzz/run.sh" "$dir" "$seconds"
}
