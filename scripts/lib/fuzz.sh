# The libFuzzer targets of tests/fuzz (tests/fuzz/README.md): built with
# clang in build-fuzz, each run for a bounded time from its seed corpus and
# regression inputs. Sourced by scripts/test.sh after common.sh.

PMIXPP_FUZZ_BUILD="$PMIXPP_ROOT/build-fuzz"

# pmixpp_fuzz_build: only the fuzz targets and what they link.
pmixpp_fuzz_build() {
  CC=clang-14 CXX=clang++-14 pmixpp_configure "$PMIXPP_FUZZ_BUILD" -DPMIXPP_FUZZ=ON || return
  pmixpp_build_quietly "the fuzz targets" "$PMIXPP_FUZZ_BUILD" pmixpp_fuzz
}

# pmixpp_fuzz_run <seconds-per-target>
pmixpp_fuzz_run() {
  bash "$PMIXPP_ROOT/tests/fuzz/run.sh" "$PMIXPP_FUZZ_BUILD" "$1"
}
