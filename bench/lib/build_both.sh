# shellcheck shell=bash
# Builds bench/src twice from the same sources, into $BENCH_DIR/build/openpmix
# (Debian's OpenPMIx, through pkg-config) and $BENCH_DIR/build/pmixpp
# ($PMIXPP_BUILD), and sets OUT to $BENCH_DIR/build. Always rebuilt (-B): an
# output dir does not record which library it was linked against. Sourced by
# run.sh and crowded_node.sh after BENCH_DIR, PMIXPP_ROOT and PMIXPP_BUILD.
OUT="$BENCH_DIR/build"
make -s -B -C "$BENCH_DIR" OUT="$OUT/openpmix" \
  PMIX_CFLAGS="$(pkg-config --cflags pmix)" PMIX_LIBS="$(pkg-config --libs pmix)"
make -s -B -C "$BENCH_DIR" OUT="$OUT/pmixpp" PMIX_CFLAGS="-I$PMIXPP_ROOT/include" \
  PMIX_LIBS="-L$PMIXPP_BUILD/lib -Wl,-rpath,$PMIXPP_BUILD/lib -Wl,--disable-new-dtags -lpmix"
unset LD_LIBRARY_PATH LD_PRELOAD
