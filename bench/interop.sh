#!/usr/bin/env bash
# OpenPMIx's clients served by our server, next to OpenPMIx's own server.
# Builds bench_host/bench_client/pmix_hello against both libraries (and
# mpi_init with mpicc) as run.sh does, then alternates, ROUNDS times and in
# a swapped order every round, three configurations of bench_host jobs:
#   theirs   OpenPMIx's bench_host  + OpenPMIx's bench_client
#   interop  pmixpp's bench_host    + OpenPMIx's bench_client
#   ours     pmixpp's bench_host    + pmixpp's bench_client (our clients' speed)
# and two launches of OpenPMIx ranks, `pmixrun -n 16` of mpi_init (Debian's
# Open MPI) and of pmix_hello (built against OpenPMIx), by pmixrun on our
# library (interop) and by the same pmixrun on OpenPMIx's (theirs). Prints
# one table and writes bench/RESULTS-interop.md and
# bench/results/interop.dat. See bench/README.md ("interop.sh").
#
#   bench/interop.sh            full run (7 rounds, about 6 minutes on 2 cores)
#   bench/interop.sh --quick    2 rounds, about 2 minutes
#
# Parameters (environment): PMIXPP_BUILD (default <repo>/build; only read),
# ROUNDS, GETS, FENCES, NS, SRV_RSS_NS, SRV_RSS_BYTES, LAUNCH_N,
# JOB_TIMEOUT, LAUNCH_TIMEOUT, PSEC (default native; empty: each library's
# default).
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PMIXPP_ROOT=$(cd "$BENCH_DIR/.." && pwd)
PMIXPP_BUILD=${PMIXPP_BUILD:-"$PMIXPP_ROOT/build"}
case "$PMIXPP_BUILD" in /*) ;; *) PMIXPP_BUILD="$PWD/$PMIXPP_BUILD" ;; esac
QUICK=0
for arg in "$@"; do
  case "$arg" in
    --quick) QUICK=1 ;;
    -h|--help) sed -n '2,22p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "interop.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

if [ "$QUICK" = 1 ]; then
  ROUNDS=${ROUNDS:-2} GETS=${GETS:-20000} FENCES=${FENCES:-50}
else
  ROUNDS=${ROUNDS:-7} GETS=${GETS:-20000} FENCES=${FENCES:-50}
fi
NS=${NS:-"2 16"}
SRV_RSS_NS=${SRV_RSS_NS:-"16 64"}
SRV_RSS_BYTES=${SRV_RSS_BYTES:-1024}
LAUNCH_N=${LAUNCH_N:-16}
JOB_TIMEOUT=${JOB_TIMEOUT:-120}
LAUNCH_TIMEOUT=${LAUNCH_TIMEOUT:-60}
# OpenPMIx's psec/munge asks munged for a credential in every
# PMIx_server_init and waits about 2.3 s when munged does not answer (see
# README, "munge"): a cost of OpenPMIx's server start, not of serving
# clients, so every run uses native unless PSEC says otherwise.
PSEC=${PSEC-native}

log() { printf '[interop] %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

[ -e "$PMIXPP_BUILD/lib/libpmix.so.2" ] || die "no pmixpp build in $PMIXPP_BUILD (lib/libpmix.so.2): build it first (run.sh can)"
[ -x "$PMIXPP_BUILD/bin/pmixrun" ] || die "no $PMIXPP_BUILD/bin/pmixrun: build it first"
pkg-config --exists pmix || die "pkg-config finds no pmix: apt-get install libpmix-dev pkg-config"
for tool in mpicc mpirun; do
  command -v "$tool" >/dev/null || die "$tool not found: apt-get install openmpi-bin libopenmpi-dev"
done

build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$PMIXPP_BUILD/CMakeCache.txt" 2>/dev/null || true)
flags_var="CMAKE_CXX_FLAGS_$(echo "${build_type:-NONE}" | tr '[:lower:]' '[:upper:]')"
build_flags=$(sed -n "s/^${flags_var}:STRING=//p" "$PMIXPP_BUILD/CMakeCache.txt" 2>/dev/null || true)
BUILD_DESC="CMAKE_BUILD_TYPE=${build_type:-<empty>} (${build_flags:-no optimization flags})"
case "$build_type" in
  Release|RelWithDebInfo|MinSizeRel) ;;
  *) log "WARNING: $PMIXPP_BUILD has CMAKE_BUILD_TYPE='${build_type}' (not optimized)" ;;
esac

# ---- the programs, both ways (bench/build/openpmix, bench/build/pmixpp) and mpi_init ----
# shellcheck source=lib/build_both.sh
source "$BENCH_DIR/lib/build_both.sh"
make -s -B -C "$BENCH_DIR" mpi MPI_OUT="$OUT/mpi" || die "mpicc could not build src/mpi_init.c"
MPI_INIT="$OUT/mpi/mpi_init"
PMIXRUN="$PMIXPP_BUILD/bin/pmixrun"

OPENPMIX_LIBDIR=$(pkg-config --variable=libdir pmix)
# Where each library's libpmix.so lives, as /proc/<pid>/maps names it.
declare -A LIBDIR=([openpmix]="$(dirname "$(readlink -f "$OPENPMIX_LIBDIR/libpmix.so.2")")"
                   [pmixpp]="$(dirname "$(readlink -f "$PMIXPP_BUILD/lib/libpmix.so.2")")")
declare -A EXPECT=([openpmix]=OpenPMIx [pmixpp]=pmixpp)
# The library of each side of a configuration.
declare -A HOST_IMPL=([theirs]=openpmix [interop]=pmixpp [ours]=pmixpp)
declare -A CLIENT_IMPL=([theirs]=openpmix [interop]=openpmix [ours]=pmixpp)

# pmixrun must resolve libpmix.so.2 to OpenPMIx's under LD_LIBRARY_PATH (a
# DT_RUNPATH gives way to it, a DT_RPATH would not).
resolved=$(LD_LIBRARY_PATH="$OPENPMIX_LIBDIR" ldd "$PMIXRUN" | awk '$1 == "libpmix.so.2" { print $3 }')
[ "$(dirname "$(readlink -f "$resolved")")" = "${LIBDIR[openpmix]}" ] ||
  die "with LD_LIBRARY_PATH=$OPENPMIX_LIBDIR, $PMIXRUN resolves libpmix.so.2 to $resolved"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/pmix-interop.XXXXXX")
RAW="$WORK/raw" FAILS="$WORK/fails" NOTES="$WORK/notes" VERSIONS="$WORK/versions"
: >"$RAW"; : >"$FAILS"; : >"$NOTES"; : >"$VERSIONS"
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT

fail_note() {  # fail_note <cfg> <key> <reason>
  log "$1 $2: FAILED: $3"
  printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$FAILS"
}
note() { log "note: $*"; printf '%s\n' "$*" >>"$NOTES"; }
last_line() { cat "$@" 2>/dev/null | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c1-200; }
exit_reason() {
  local rc=$1 limit=$2
  shift 2
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then echo "timed out after ${limit}s"
  else echo "exit $rc: $(last_line "$@")"; fi
}
now_us() { local t=$EPOCHREALTIME; echo "${t//[.,]/}"; }

# A fresh private scratch dir per run, removed afterwards.
new_scratch() { SCRATCH=$(mktemp -d "$WORK/run.XXXXXX"); }
drop_scratch() { rm -rf "$SCRATCH"; }

# Why a job's output does not prove the configuration's libraries, or
# nothing: the host's "M host" and every client's "M client" line must name
# the expected libpmix.so, the version lines the expected library.
check_job_libraries() {
  local cfg=$1 n=$2 out=$3 himpl=${HOST_IMPL[$1]} cimpl=${CLIENT_IMPL[$1]} path count bad
  path=$(sed -n 's/^M host //p' "$out" | head -n 1)
  case "$path" in "${LIBDIR[$himpl]}/libpmix.so"*) ;;
    *) echo "the host mapped '${path:-nothing}', not ${LIBDIR[$himpl]}/libpmix.so*"; return ;; esac
  count=$(grep -c '^M client ' "$out" || true)
  [ "$count" = "$n" ] || { echo "$count of $n clients reported their libpmix"; return; }
  bad=$(sed -n 's/^M client //p' "$out" | grep -v "^${LIBDIR[$cimpl]}/libpmix\.so" | head -n 1 || true)
  [ -z "$bad" ] || { echo "a client mapped $bad, not ${LIBDIR[$cimpl]}/libpmix.so*"; return; }
  grep -q "^V host ${EXPECT[$himpl]}" "$out" || { echo "host version: $(grep '^V host' "$out")"; return; }
  grep -q "^V client ${EXPECT[$cimpl]}" "$out" || { echo "client version: $(grep '^V client' "$out")"; return; }
  grep '^V ' "$out" | sed "s/^V /$cfg /" >>"$VERSIONS"
}

# One bench_host job: run_job <cfg> <N> <key> <host option (- or --server-rss=TAG)> <client args...>.
# Records "<cfg> <figure> <value>" in $RAW, or a failure under <key>.
run_job() {
  local cfg=$1 n=$2 key=$3 hostopt=$4
  shift 4
  local out rc=0 why env=() host=()
  host=("$OUT/${HOST_IMPL[$cfg]}/bench_host" job -n "$n")
  new_scratch
  out="$SCRATCH.out"
  env=(TMPDIR="$SCRATCH")
  [ -n "$PSEC" ] && env+=(PMIX_MCA_psec="$PSEC")
  if [ "${HOST_IMPL[$cfg]}" = pmixpp ]; then
    env+=(PMIX_MCA_mca_base_component_path="$PMIXPP_BUILD/lib/pmixpp")
    # The component path is for our library only: OpenPMIx's clients would
    # scan it and warn about every file in it.
    if [ "${CLIENT_IMPL[$cfg]}" = openpmix ]; then env+=(BENCH_CLIENT_UNSET=PMIX_MCA_mca_base_component_path); fi
  fi
  if [ "$hostopt" != - ]; then host+=(--server-rss "${hostopt#--server-rss=}"); fi
  (cd "$SCRATCH" && env "${env[@]}" timeout -k 5 "$JOB_TIMEOUT" "${host[@]}" "$OUT/${CLIENT_IMPL[$cfg]}/bench_client" "$@" \
    </dev/null >"$out" 2>"$out.err") || rc=$?
  if [ "$rc" != 0 ]; then
    why=$(exit_reason "$rc" "$JOB_TIMEOUT" "$out.err" "$out")
  else
    why=$(check_job_libraries "$cfg" "$n" "$out")
  fi
  if [ -n "$why" ]; then
    tail -n 20 "$out" "$out.err" >&2
    fail_note "$cfg" "$key" "N=$n: $why"
  else
    awk -v cfg="$cfg" '$1 == "R" { print cfg, $2, $3 }' "$out" >>"$RAW"
  fi
  rm -f "$out" "$out.err"
  drop_scratch
}

# Why a launch's rank reports do not show N OpenPMIx ranks under a
# launcher on <launcher impl>, or nothing.
check_launch_reports() {
  local dir=$1 prefix=$2 ranks=$3 launcher=$4 found file size own parent version
  found=$(find "$dir" -maxdepth 1 -name "$prefix.*" | wc -l)
  [ "$found" = "$ranks" ] || { echo "$found of $ranks ranks reported"; return; }
  for file in "$dir/$prefix".*; do
    read -r size own parent <"$file"
    [ "$size" = "$ranks" ] || { echo "${file##*/}: job size $size, not $ranks"; return; }
    case "$own" in "${LIBDIR[openpmix]}/libpmix.so"*) ;;
      *) echo "${file##*/}: the rank mapped $own, not ${LIBDIR[openpmix]}/libpmix.so*"; return ;; esac
    case "$parent" in "${LIBDIR[$launcher]}/libpmix.so"*) ;;
      *) echo "${file##*/}: pmixrun mapped $parent, not ${LIBDIR[$launcher]}/libpmix.so*"; return ;; esac
    if [ "$prefix" = hello ]; then
      version=$(sed -n 2p "$file")
      case "$version" in OpenPMIx*) ;; *) echo "${file##*/}: version '$version'"; return ;; esac
    fi
  done
}

# Wall time of one `pmixrun -n LAUNCH_N` of OpenPMIx ranks:
# run_launch <theirs|interop> <mpi|hello> <record 0|1>; returns 1 on failure.
run_launch() {
  local cfg=$1 kind=$2 record=$3 out rc=0 start end why prog launcher env=()
  new_scratch
  out="$SCRATCH.out"
  # Reports outside the session tmpdir: OpenPMIx's server empties its tmpdir.
  mkdir "$SCRATCH/reports" "$SCRATCH/session"
  env=(TMPDIR="$SCRATCH/session" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
  [ -n "$PSEC" ] && env+=(PMIX_MCA_psec="$PSEC")
  if [ "$cfg" = theirs ]; then
    launcher=openpmix
    env+=(LD_LIBRARY_PATH="$OPENPMIX_LIBDIR")
  else
    # pmixrun on ours by its RUNPATH, its components found beside the library.
    launcher=pmixpp
  fi
  if [ "$kind" = mpi ]; then prog=("$MPI_INIT"); else prog=("$OUT/openpmix/pmix_hello"); fi
  # -x LD_LIBRARY_PATH=: the ranks load Debian's OpenPMIx on their own (Open
  # MPI's mca_pmix_ext3x from /lib/x86_64-linux-gnu, pmix_hello by its rpath).
  start=$(now_us)
  (cd "$SCRATCH" && env -u LD_LIBRARY_PATH "${env[@]}" timeout -k 5 "$LAUNCH_TIMEOUT" \
    "$PMIXRUN" --timeout $((LAUNCH_TIMEOUT - 5)) --tmpdir "$SCRATCH/session" -n "$LAUNCH_N" -x LD_LIBRARY_PATH= \
    "${prog[@]}" "$SCRATCH/reports" </dev/null >"$out" 2>"$out.err") || rc=$?
  end=$(now_us)
  if [ "$rc" != 0 ]; then
    why=$(exit_reason "$rc" "$LAUNCH_TIMEOUT" "$out.err" "$out")
  else
    why=$(check_launch_reports "$SCRATCH/reports" "$kind" "$LAUNCH_N" "$launcher")
  fi
  if [ -n "$why" ]; then
    tail -n 20 "$out" "$out.err" >&2
    fail_note "$cfg" "launch_$kind" "pmixrun -n $LAUNCH_N $(basename "${prog[0]}"): $why"
    rm -f "$out" "$out.err"; drop_scratch
    return 1
  fi
  if [ "$record" = 1 ]; then
    echo "$cfg launch_${kind}_ms_n$LAUNCH_N $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1000 }')" >>"$RAW"
  fi
  rm -f "$out" "$out.err"; drop_scratch
  return 0
}

order_for_round() { if [ $(($1 % 2)) = 1 ]; then echo "theirs interop ours"; else echo "ours interop theirs"; fi; }
launch_order() { if [ $(($1 % 2)) = 1 ]; then echo "theirs interop"; else echo "interop theirs"; fi; }

munge_state() {
  if ! command -v munge >/dev/null; then echo "munge not installed"
  elif timeout 10 munge -n </dev/null >/dev/null 2>&1; then echo "munged running"
  elif [ -S /run/munge/munge.socket.2 ]; then echo "munged not answering (a stale socket)"
  else echo "munged not running (no socket)"
  fi
}
lib_stamp() { stat -c '%y' "$(readlink -f "$PMIXPP_BUILD/lib/libpmix.so.2")" "$PMIXRUN" 2>/dev/null | cut -c1-19 | tr '\n' ' '; }

MUNGE_STATE=$(munge_state)
LIB_STAMP=$(lib_stamp)
start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
load_max=${load_start%% *}
log "pmixpp build: $PMIXPP_BUILD, $BUILD_DESC; libpmix.so.2 and pmixrun from $LIB_STAMP"
log "rounds=$ROUNDS gets=$GETS fences=$FENCES N='$NS'; server RSS N='$SRV_RSS_NS' ${SRV_RSS_BYTES} B; pmixrun -n $LAUNCH_N; psec=${PSEC:-library default}; $MUNGE_STATE"

# One untimed launch of each kind and launcher: cold caches, and a launch
# that cannot work is found once.
declare -A LAUNCH_OK=()
for kind in mpi hello; do
  for cfg in theirs interop; do
    log "pmixrun ($cfg) -n $LAUNCH_N $kind: untimed first launch"
    if run_launch "$cfg" "$kind" 0; then LAUNCH_OK[$cfg.$kind]=1; else LAUNCH_OK[$cfg.$kind]=0; fi
  done
done

for round in $(seq 1 "$ROUNDS"); do
  round_start=$(date +%s)
  load_now=$(cut -d' ' -f1 /proc/loadavg)
  load_max=$(awk -v a="$load_max" -v b="$load_now" 'BEGIN { print (b > a) ? b : a }')
  log "round $round/$ROUNDS (load $load_now): jobs at N = $NS"
  for n in $NS; do
    for cfg in $(order_for_round "$round"); do
      run_job "$cfg" "$n" "job_n$n" - --gets "$GETS" --puts 0 --fences "$FENCES"
    done
  done
  log "round $round/$ROUNDS: server memory at N = $SRV_RSS_NS"
  for n in $SRV_RSS_NS; do
    for cfg in $(order_for_round "$round"); do
      run_job "$cfg" "$n" "srvrss_n$n" "--server-rss=n$n" --rss-fence "$SRV_RSS_BYTES"
    done
  done
  log "round $round/$ROUNDS: pmixrun -n $LAUNCH_N"
  for kind in mpi hello; do
    for cfg in $(launch_order "$round"); do
      if [ "${LAUNCH_OK[$cfg.$kind]}" = 1 ]; then run_launch "$cfg" "$kind" 1 || true; fi
    done
  done
  log "round $round/$ROUNDS took $(($(date +%s) - round_start)) s"
done
elapsed=$(($(date +%s) - start))
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
load_max=$(awk -v a="$load_max" -v b="${load_end%% *}" 'BEGIN { print (b > a) ? b : a }')

munge_end=$(munge_state)
[ "$munge_end" = "$MUNGE_STATE" ] || MUNGE_STATE="at start $MUNGE_STATE, at end $munge_end"
lib_end=$(lib_stamp)
[ "$lib_end" = "$LIB_STAMP" ] ||
  note "the pmixpp build tree changed during the run (libpmix.so.2 and pmixrun from $LIB_STAMP at the start, $lib_end at the end): the pmixpp figures mix two builds"
others=$(ps -eo pid=,comm= | awk '$2 ~ /^(cc1|cc1plus|ld|ninja|make|cmake|ctest)$/' | wc -l)

python3 "$BENCH_DIR/lib/interop_report.py" --raw "$RAW" --fails "$FAILS" --notes "$NOTES" --versions "$VERSIONS" \
  --out "$BENCH_DIR/RESULTS-interop.md" --dat "$BENCH_DIR/results/interop.dat" \
  --ns "$NS" --srv-rss-ns "$SRV_RSS_NS" --srv-rss-bytes "$SRV_RSS_BYTES" --launch-n "$LAUNCH_N" \
  --build "$PMIXPP_BUILD" --build-desc "$BUILD_DESC" --lib-stamp "$LIB_STAMP" --commit "$(git -C "$PMIXPP_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  --elapsed "$elapsed" --load "$load_start" --load-end "$load_end" --load-max "$load_max" --compilers "$others" \
  --munge "$MUNGE_STATE" --psec "${PSEC:-library default}" \
  --params "rounds=$ROUNDS, gets=$GETS per process and key, fences=$FENCES per process and kind, server memory: one collecting fence of $SRV_RSS_BYTES B per process at N = $SRV_RSS_NS, pmixrun -n $LAUNCH_N, job timeout ${JOB_TIMEOUT}s, launch timeout ${LAUNCH_TIMEOUT}s$([ "$QUICK" = 1 ] && echo ', --quick')"
if [ -s "$FAILS" ]; then
  log "figures that could not be taken (also in RESULTS-interop.md):"
  cut -f1-2 "$FAILS" | sort | uniq -c >&2
fi
log "done in ${elapsed}s; table in $BENCH_DIR/RESULTS-interop.md"
