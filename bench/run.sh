#!/usr/bin/env bash
# Side-by-side benchmark of pmixpp and OpenPMIx 4.2.2 (Debian libpmix-dev).
# Builds bench_host/bench_client twice from the same sources, runs both
# libraries in alternation, prints the table and writes bench/RESULTS.md and
# bench/results/fence_get.png. See bench/README.md.
#
#   bench/run.sh            full run (about 3 minutes on 2 cores)
#   bench/run.sh --quick    1-2 minutes, fewer rounds and samples
#
# Parameters (environment): PMIXPP_BUILD (default <repo>/build), ROUNDS, GETS,
# PUTS, FENCES, NS, MEM_N, REG_SIZES, REG_ROUNDS, REG_ROUNDS_BIG, REG_PPN,
# REG_TIMEOUT, JOB_TIMEOUT (bench/README.md).
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PMIXPP_ROOT=$(cd "$BENCH_DIR/.." && pwd)
PMIXPP_BUILD=${PMIXPP_BUILD:-"$PMIXPP_ROOT/build"}
case "$PMIXPP_BUILD" in /*) ;; *) PMIXPP_BUILD="$PWD/$PMIXPP_BUILD" ;; esac
QUICK=0
for arg in "$@"; do
  case "$arg" in
    --quick) QUICK=1 ;;
    -h|--help) sed -n '2,13p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "run.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

if [ "$QUICK" = 1 ]; then
  ROUNDS=${ROUNDS:-2} GETS=${GETS:-20000} PUTS=${PUTS:-200} FENCES=${FENCES:-50}
  REG_SIZES=${REG_SIZES:-"1024 65536"} REG_ROUNDS=${REG_ROUNDS:-1}
else
  ROUNDS=${ROUNDS:-9} GETS=${GETS:-100000} PUTS=${PUTS:-1000} FENCES=${FENCES:-200}
  REG_SIZES=${REG_SIZES:-"1024 65536 1048576"} REG_ROUNDS=${REG_ROUNDS:-5}
fi
NS=${NS:-"2 4 8 16"}
MEM_N=${MEM_N:-16}
REG_PPN=${REG_PPN:-128}
REG_TIMEOUT=${REG_TIMEOUT:-120}
JOB_TIMEOUT=${JOB_TIMEOUT:-300}
# 1M-proc registrations: OpenPMIx needs 5-30 s and 2 GB for each.
if [ "$QUICK" = 1 ]; then REG_ROUNDS_BIG=${REG_ROUNDS_BIG:-1}; else REG_ROUNDS_BIG=${REG_ROUNDS_BIG:-3}; fi

log() { printf '[bench] %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

apt_install() {
  [ "$(id -u)" -eq 0 ] || die "missing Debian package(s) $*: run as root or install them"
  log "installing $*"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "$@" </dev/null >/dev/null
}

is_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# ---- prerequisites: the pmixpp build, OpenPMIx, gnuplot ----
if [ ! -e "$PMIXPP_BUILD/lib/libpmix.so.2" ]; then
  log "no pmixpp build in $PMIXPP_BUILD: building it as scripts/test.sh does"
  export PMIXPP_BUILD
  # shellcheck source=../scripts/lib/common.sh
  source "$PMIXPP_ROOT/scripts/lib/common.sh"
  pmixpp_install_packages
  pmixpp_build
fi
pkg-config --exists pmix || apt_install libpmix-dev pkg-config
is_installed gnuplot-nox || command -v gnuplot >/dev/null || apt_install gnuplot-nox

build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$PMIXPP_BUILD/CMakeCache.txt" 2>/dev/null || true)
case "$build_type" in
  Release|RelWithDebInfo|MinSizeRel) ;;
  *) log "WARNING: $PMIXPP_BUILD has CMAKE_BUILD_TYPE='${build_type}' (not optimized); the figures understate pmixpp" ;;
esac
flags_var="CMAKE_CXX_FLAGS_$(echo "${build_type:-NONE}" | tr '[:lower:]' '[:upper:]')"
build_flags=$(sed -n "s/^${flags_var}:STRING=//p" "$PMIXPP_BUILD/CMakeCache.txt" 2>/dev/null || true)
BUILD_DESC="CMAKE_BUILD_TYPE=${build_type:-<empty>} (${build_flags:-no optimization flags})"

# ---- the two builds of the same sources ----
# shellcheck source=lib/build_both.sh
source "$BENCH_DIR/lib/build_both.sh"

declare -A EXPECT=([openpmix]=OpenPMIx [pmixpp]=pmixpp)
GDS_VARIANTS_openpmix="default hash ds21,hash ds12,hash"
GDS_VARIANTS_pmixpp="default hash"
[ -e "$PMIXPP_BUILD/lib/pmixpp/pmixpp_gds_shmem.so" ] && GDS_VARIANTS_pmixpp+=" shmem"

RESULTS_DIR="$BENCH_DIR/results"
mkdir -p "$RESULTS_DIR"
RAW=$(mktemp "${TMPDIR:-/tmp}/pmix-bench-raw.XXXXXX")
VERSIONS=$(mktemp "${TMPDIR:-/tmp}/pmix-bench-versions.XXXXXX")
CURRENT_TMP=""
# The run's scratch TMPDIR goes even when a run fails or is interrupted.
cleanup() {
  rm -f "$RAW" "$VERSIONS"
  if [ -n "$CURRENT_TMP" ]; then rm -rf "$CURRENT_TMP" "$CURRENT_TMP.out" "$CURRENT_TMP.out.err"; fi
}
trap cleanup EXIT

# Runs one job: run_one <impl> <gds> <N> <pss:0|1> <client args...>.
# Records "impl gds figure value" lines in $RAW.
run_one() {
  local impl=$1 gds=$2 n=$3 pss=$4
  shift 4
  local dir="$OUT/$impl" tmp out rc=0
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmix-bench.XXXXXX")
  CURRENT_TMP=$tmp
  out="$tmp.out"
  local env=(TMPDIR="$tmp")
  [ "$impl" = pmixpp ] && env+=(PMIX_MCA_mca_base_component_path="$PMIXPP_BUILD/lib/pmixpp")
  [ "$gds" != default ] && env+=(PMIX_MCA_gds="$gds")
  local host=("$dir/bench_host" job -n "$n")
  [ "$pss" = 1 ] && host+=(--pss)
  (cd "$tmp" && env "${env[@]}" timeout -k 5 "$JOB_TIMEOUT" "${host[@]}" "$dir/bench_client" "$@" \
    >"$out" 2>"$out.err") || rc=$?
  if [ "$rc" != 0 ]; then
    tail -n 20 "$out" "$out.err" >&2
    rm -rf "$tmp" "$out" "$out.err"
    # A gds variant the library cannot run is reported, not fatal.
    [ "$gds" = default ] && die "$impl N=$n: failed (exit $rc)"
    log "$impl (gds $gds) N=$n: failed (exit $rc); no memory figure for it"
    return 0
  fi
  local version
  version=$(sed -n 's/^V [a-z]* //p' "$out" | sort -u)
  case "$version" in
    "${EXPECT[$impl]}"*) ;;
    *) die "$impl run loaded the wrong library: '$version'" ;;
  esac
  echo "$impl $version" >>"$VERSIONS"
  awk -v impl="$impl" -v gds="$gds" '$1 == "R" { print impl, gds, $2, $3 }' "$out" >>"$RAW"
  rm -rf "$tmp" "$out" "$out.err"
}

# Times one register_nspace: run_register <impl> <procs> <timeout seconds>.
run_register() {
  local impl=$1 size=$2 limit=$3
  local dir="$OUT/$impl" tmp out rc=0
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmix-bench.XXXXXX")
  CURRENT_TMP=$tmp
  out="$tmp.out"
  local env=(TMPDIR="$tmp")
  [ "$impl" = pmixpp ] && env+=(PMIX_MCA_mca_base_component_path="$PMIXPP_BUILD/lib/pmixpp")
  (cd "$tmp" && env "${env[@]}" timeout -k 5 "$limit" "$dir/bench_host" register -n "$size" --ppn "$REG_PPN" \
    >"$out" 2>"$out.err") || rc=$?
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    log "$impl register $size: timed out after ${limit}s"
    echo "$impl default reg_timeout_$size $limit" >>"$RAW"
  elif [ "$rc" != 0 ]; then
    cat "$out" "$out.err" >&2
    die "$impl register $size: failed (exit $rc)"
  else
    grep -q "^V host ${EXPECT[$impl]}" "$out" || die "$impl register run loaded the wrong library"
    awk -v impl="$impl" '$1 == "R" { print impl, "default", $2, $3 }' "$out" >>"$RAW"
  fi
  rm -rf "$tmp" "$out" "$out.err"
}

order_for_round() { if [ $(($1 % 2)) = 1 ]; then echo "openpmix pmixpp"; else echo "pmixpp openpmix"; fi; }

start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
log "pmixpp build: $PMIXPP_BUILD, $BUILD_DESC"
log "rounds=$ROUNDS gets=$GETS puts=$PUTS fences=$FENCES N='$NS' mem N=$MEM_N register='$REG_SIZES' x$REG_ROUNDS ppn=$REG_PPN"
for round in $(seq 1 "$ROUNDS"); do
  log "round $round/$ROUNDS: jobs"
  for n in $NS; do
    if [ "$n" = "${NS%% *}" ]; then
      client=(--gets "$GETS" --puts "$PUTS" --fences "$FENCES")
    else
      client=(--gets 0 --puts 0 --fences "$FENCES")
    fi
    for impl in $(order_for_round "$round"); do
      run_one "$impl" default "$n" 0 "${client[@]}"
    done
  done
  log "round $round/$ROUNDS: memory per client at N=$MEM_N"
  for impl in $(order_for_round "$round"); do
    variants_var="GDS_VARIANTS_$impl"
    for gds in ${!variants_var}; do
      run_one "$impl" "$gds" "$MEM_N" 1 --gets 0 --puts 0 --fences 0 --stop
    done
  done
done
for size in $REG_SIZES; do
  rounds=$REG_ROUNDS
  [ "$size" -ge 1000000 ] && rounds=$REG_ROUNDS_BIG
  for round in $(seq 1 "$rounds"); do
    log "register_nspace $size procs, round $round/$rounds"
    for impl in $(order_for_round "$round"); do run_register "$impl" "$size" "$REG_TIMEOUT"; done
  done
done
elapsed=$(($(date +%s) - start))

python3 "$BENCH_DIR/lib/report.py" --raw "$RAW" --versions "$VERSIONS" --out-dir "$BENCH_DIR" \
  --ns "$NS" --mem-n "$MEM_N" --reg-sizes "$REG_SIZES" --reg-ppn "$REG_PPN" \
  --build "$PMIXPP_BUILD" --build-desc "$BUILD_DESC" --elapsed "$elapsed" --load-start "$load_start" \
  --params "rounds=$ROUNDS, gets=$GETS/process, put+commit=$PUTS/process, fences=$FENCES/kind/N, register rounds=$REG_ROUNDS (1M: $REG_ROUNDS_BIG), ppn=$REG_PPN$([ "$QUICK" = 1 ] && echo ', --quick')"
if command -v gnuplot >/dev/null; then
  gnuplot -e "datadir='$RESULTS_DIR'; output='$RESULTS_DIR/fence_get.png'" "$BENCH_DIR/lib/fence_get.gp"
  log "chart: $RESULTS_DIR/fence_get.png"
else
  log "gnuplot not available: no chart"
fi
log "done in ${elapsed}s; table in $BENCH_DIR/RESULTS.md"
