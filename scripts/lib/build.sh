# Configure and build, quietly and fast. Sourced by common.sh, not run.
#
#   pmixpp_configure <build-dir> [cmake args...]
#   pmixpp_build_quietly <label> <build-dir> [targets...]
#
# Compiler output goes to <build-dir>/build.log; the terminal gets one
# progress line (one line at the start and end when it is not a terminal),
# and on failure the errors and the log's name.
#
# Speed on a 2-core machine (the figures are in docs/building.md):
# - Ninja when it is installed (a build dir made with another generator
#   keeps it);
# - ccache when installed, its cache outside the clone (ccache's own
#   default, or CCACHE_DIR), so a second clone or the next CI run on this
#   machine compiles only what changed. Sources are hashed relative to the
#   clone, so another folder hits the same entries;
# - mold as the linker when installed (linking ~100 test programs);
# - -O2 -g1 (line tables: stacks with file and line) rather than -O2 -g;
#   PMIXPP_OPT_LEVEL and PMIXPP_DEBUG_INFO change them;
# - unity batches of the library's sources, and precompiled standard
#   headers with clang when ccache is not used (cmake/PmixppBuildSpeed.cmake).

pmixpp_have() { command -v "$1" >/dev/null 2>&1; }

# Settings ccache needs to share entries across clones and to accept
# precompiled headers (the defines and __TIME__ of a header compiled once).
pmixpp_ccache_env() {
  export CCACHE_BASEDIR="$PMIXPP_ROOT"
  export CCACHE_NOHASHDIR=1
  export CCACHE_SLOPPINESS="pch_defines,time_macros,include_file_mtime,include_file_ctime"
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
}

pmixpp_configure() {
  local dir=$1
  shift
  local args=()
  if [ ! -f "$dir/CMakeCache.txt" ] && pmixpp_have ninja; then
    args+=(-G Ninja)
  fi
  if pmixpp_have ccache && [ "${PMIXPP_CCACHE:-1}" != 0 ]; then
    pmixpp_ccache_env
    # No precompiled headers with ccache: a clang .pch holds the absolute
    # paths of its build dir, so every object compiled with it missed the
    # cache in each new clone (the clang builds, ASan and fuzz, ran cold in
    # every CI run: 319 s against about 60 s warm).
    args+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DPMIXPP_PCH=OFF)
  else
    args+=(-UCMAKE_C_COMPILER_LAUNCHER -UCMAKE_CXX_COMPILER_LAUNCHER)
  fi
  local link=""
  pmixpp_have mold && link="-fuse-ld=mold"
  args+=("-DCMAKE_EXE_LINKER_FLAGS=$link" "-DCMAKE_SHARED_LINKER_FLAGS=$link" "-DCMAKE_MODULE_LINKER_FLAGS=$link")
  # PMIXPP_NDEBUG= (set, empty) keeps assert() on, as the sanitizer builds do.
  local flags="${PMIXPP_OPT_LEVEL:--O2} ${PMIXPP_DEBUG_INFO:--g1} ${PMIXPP_NDEBUG--DNDEBUG}"
  args+=("-DCMAKE_C_FLAGS_RELWITHDEBINFO=$flags" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$flags")
  mkdir -p "$dir"
  cmake -S "$PMIXPP_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${args[@]}" "$@" \
    >"$dir/configure.log" 2>&1 && return 0
  pmixpp_log "configuring $dir failed:"
  tail -n 30 "$dir/configure.log"
  pmixpp_log "full output: $dir/configure.log"
  return 1
}

# The build's last "[done/total]" (Ninja) or "[ NN%]" (Make), or nothing.
pmixpp_build_progress() {
  tail -c 4000 "$1" 2>/dev/null | grep -aoE '^\[[0-9]+/[0-9]+\]|^\[ *[0-9]+%\]' | tail -n 1 | tr -d '[] '
}

pmixpp_build_quietly() {
  local label=$1 dir=$2
  shift 2
  local log="$dir/build.log"
  local target_args=()
  [ $# -gt 0 ] && target_args=(--target "$@")
  [ -n "${CCACHE_BASEDIR:-}" ] || { pmixpp_have ccache && pmixpp_ccache_env; }
  local start=$SECONDS
  cmake --build "$dir" -j"$(nproc)" "${target_args[@]}" >"$log" 2>&1 &
  local pid=$! rc=0
  if [ -t 1 ]; then
    while kill -0 "$pid" 2>/dev/null; do
      printf '\r[pmixpp] building %s: %s  %d s ' "$label" "$(pmixpp_build_progress "$log")" $((SECONDS - start))
      sleep 1
    done
    printf '\r\033[K'
  else
    pmixpp_log "building $label (log: $log)"
  fi
  wait "$pid" || rc=$?
  if [ "$rc" -ne 0 ]; then
    pmixpp_log "building $label FAILED after $((SECONDS - start)) s; the errors:"
    grep -aE -A4 'error:|Error [0-9]|FAILED:|undefined reference' "$log" | head -n 60
    pmixpp_log "full output: $log"
    return "$rc"
  fi
  pmixpp_log "built $label in $((SECONDS - start)) s"
}
