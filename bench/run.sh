#!/usr/bin/env bash
# Side-by-side benchmark of pmixpp and OpenPMIx 4.2.2 (Debian libpmix-dev).
# Builds bench_host/bench_client/pmix_hello twice from the same sources (and
# mpi_init once with mpicc), runs both libraries in alternation, prints the
# table and writes bench/RESULTS.md and bench/results/*.png. See bench/README.md.
#
#   bench/run.sh            full run (about 15 minutes on 2 cores)
#   bench/run.sh --quick    about 3 minutes, fewer rounds and samples
#
# Parameters (environment): PMIXPP_BUILD (default <repo>/build), ROUNDS, GETS,
# PUTS, FENCES, FENCES_MIN, NS, MEM_N, SRV_RSS_N, SRV_RSS_SIZES,
# SRV_RSS_ROUNDS, INIT_REPS, PMIXRUN_N, MPIRUN_N, LAUNCH_TIMEOUT, PSEC,
# REG_SIZES, REG_ROUNDS, REG_ROUNDS_BIG, REG_PPN, REG_TIMEOUT, JOB_TIMEOUT
# (bench/README.md).
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PMIXPP_ROOT=$(cd "$BENCH_DIR/.." && pwd)
PMIXPP_BUILD=${PMIXPP_BUILD:-"$PMIXPP_ROOT/build"}
case "$PMIXPP_BUILD" in /*) ;; *) PMIXPP_BUILD="$PWD/$PMIXPP_BUILD" ;; esac
QUICK=0
for arg in "$@"; do
  case "$arg" in
    --quick) QUICK=1 ;;
    -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "run.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

if [ "$QUICK" = 1 ]; then
  ROUNDS=${ROUNDS:-2} GETS=${GETS:-20000} PUTS=${PUTS:-200} FENCES=${FENCES:-50}
  REG_SIZES=${REG_SIZES:-"1024 65536"} REG_ROUNDS=${REG_ROUNDS:-1}
  INIT_REPS=${INIT_REPS:-1} FENCES_MIN=${FENCES_MIN:-10}
else
  ROUNDS=${ROUNDS:-9} GETS=${GETS:-100000} PUTS=${PUTS:-1000} FENCES=${FENCES:-200}
  REG_SIZES=${REG_SIZES:-"1024 65536 1048576"} REG_ROUNDS=${REG_ROUNDS:-5}
  INIT_REPS=${INIT_REPS:-2} FENCES_MIN=${FENCES_MIN:-20}
fi
NS=${NS:-"2 16 64 256"}
# Fences per process and kind: FENCES up to N = 16, then FENCES*16/N (the
# same number of fence entries in all), but never fewer than FENCES_MIN
# (20, --quick 10).
MEM_N=${MEM_N:-16}
# Server RSS after a collecting fence: job size, bytes per process, rounds.
SRV_RSS_N=${SRV_RSS_N:-256}
SRV_RSS_SIZES=${SRV_RSS_SIZES:-"1024 16384"}
SRV_RSS_ROUNDS=${SRV_RSS_ROUNDS:-$((ROUNDS < 4 ? ROUNDS : 4))}
# Launch figures: pmixrun -n PMIXRUN_N pmix_hello, mpirun -n MPIRUN_N mpi_init.
PMIXRUN_N=${PMIXRUN_N:-64}
MPIRUN_N=${MPIRUN_N:-16}
LAUNCH_TIMEOUT=${LAUNCH_TIMEOUT:-120}
# PSEC=<components>: PMIX_MCA_psec for every run of both libraries (default:
# each library's own choice). The server-init and launch figures are taken
# with PMIX_MCA_psec=native as well.
PSEC=${PSEC:-}
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
OPENPMIX_LIBDIR=$(pkg-config --variable=libdir pmix)
# Where each library's libpmix.so lives, as /proc/<pid>/maps names it.
declare -A LIBDIR=([openpmix]="$(dirname "$(readlink -f "$OPENPMIX_LIBDIR/libpmix.so.2")")"
                   [pmixpp]="$(dirname "$(readlink -f "$PMIXPP_BUILD/lib/libpmix.so.2")")")
PMIXRUN="$PMIXPP_BUILD/bin/pmixrun"

RESULTS_DIR="$BENCH_DIR/results"
mkdir -p "$RESULTS_DIR"
RAW=$(mktemp "${TMPDIR:-/tmp}/pmix-bench-raw.XXXXXX")
VERSIONS=$(mktemp "${TMPDIR:-/tmp}/pmix-bench-versions.XXXXXX")
FAILS=$(mktemp "${TMPDIR:-/tmp}/pmix-bench-fails.XXXXXX")
NOTES=$(mktemp "${TMPDIR:-/tmp}/pmix-bench-notes.XXXXXX")
CURRENT_TMP=""
# The run's scratch TMPDIR goes even when a run fails or is interrupted.
cleanup() {
  rm -f "$RAW" "$VERSIONS" "$FAILS" "$NOTES"
  if [ -n "$CURRENT_TMP" ]; then rm -rf "$CURRENT_TMP" "$CURRENT_TMP.out" "$CURRENT_TMP.out.err"; fi
}
trap cleanup EXIT

# A figure that could not be taken: fail_note <impl> <key> <reason>. The
# report shows "failed" (or "not run: ..." ) for it instead of a number and
# lists the reason; the log has the run's output.
fail_note() {
  log "$1 $2: FAILED: $3"
  printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$FAILS"
}
note() { log "note: $*"; printf '%s\n' "$*" >>"$NOTES"; }

# The last meaningful line of a failed run's output, for the reason.
last_line() { cat "$@" 2>/dev/null | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c1-200; }

exit_reason() {
  local rc=$1 limit=$2
  shift 2
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then echo "timed out after ${limit}s"
  else echo "exit $rc: $(last_line "$@")"; fi
}

# The common environment of a run of <impl> in scratch dir <tmp>.
run_env() {
  local impl=$1 tmp=$2
  RUN_ENV=(TMPDIR="$tmp")
  [ "$impl" = pmixpp ] && RUN_ENV+=(PMIX_MCA_mca_base_component_path="$PMIXPP_BUILD/lib/pmixpp")
  [ -n "$PSEC" ] && RUN_ENV+=(PMIX_MCA_psec="$PSEC")
  return 0
}

new_scratch() {
  SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/pmix-bench.XXXXXX")
  CURRENT_TMP=$SCRATCH
}
drop_scratch() { rm -rf "$SCRATCH" "$SCRATCH.out" "$SCRATCH.out.err"; CURRENT_TMP=""; }

check_version() {
  local impl=$1 out=$2 version
  version=$(sed -n 's/^V [a-z]* //p' "$out" | sort -u)
  case "$version" in
    "${EXPECT[$impl]}"*) ;;
    *) die "$impl run loaded the wrong library: '$version'" ;;
  esac
  echo "$impl $version" >>"$VERSIONS"
}

# Runs one job: run_one <impl> <gds> <N> <key> <host option> <client args...>;
# host option is -, --pss or --server-rss=TAG. Records "impl gds figure value"
# lines in $RAW, or a failure under <key>.
run_one() {
  local impl=$1 gds=$2 n=$3 key=$4 hostopt=$5
  shift 5
  local dir="$OUT/$impl" out rc=0
  new_scratch
  out="$SCRATCH.out"
  run_env "$impl" "$SCRATCH"
  [ "$gds" != default ] && RUN_ENV+=(PMIX_MCA_gds="$gds")
  local host=("$dir/bench_host" job -n "$n")
  case "$hostopt" in
    -) ;;
    --server-rss=*) host+=(--server-rss "${hostopt#--server-rss=}") ;;
    *) host+=("$hostopt") ;;
  esac
  (cd "$SCRATCH" && env "${RUN_ENV[@]}" timeout -k 5 "$JOB_TIMEOUT" "${host[@]}" "$dir/bench_client" "$@" \
    >"$out" 2>"$out.err") || rc=$?
  if [ "$rc" != 0 ]; then
    tail -n 20 "$out" "$out.err" >&2
    fail_note "$impl" "$key" "N=$n$([ "$gds" != default ] && echo " gds $gds"): $(exit_reason "$rc" "$JOB_TIMEOUT" "$out.err" "$out")"
    drop_scratch
    return 0
  fi
  check_version "$impl" "$out"
  awk -v impl="$impl" -v gds="$gds" '$1 == "R" { print impl, gds, $2, $3 }' "$out" >>"$RAW"
  drop_scratch
}

# Times one register_nspace: run_register <impl> <procs> <timeout seconds>.
run_register() {
  local impl=$1 size=$2 limit=$3
  local dir="$OUT/$impl" out rc=0
  new_scratch
  out="$SCRATCH.out"
  run_env "$impl" "$SCRATCH"
  (cd "$SCRATCH" && env "${RUN_ENV[@]}" timeout -k 5 "$limit" "$dir/bench_host" register -n "$size" --ppn "$REG_PPN" \
    >"$out" 2>"$out.err") || rc=$?
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    log "$impl register $size: timed out after ${limit}s"
    echo "$impl default reg_timeout_$size $limit" >>"$RAW"
  elif [ "$rc" != 0 ]; then
    cat "$out" "$out.err" >&2
    fail_note "$impl" "reg_$size" "$(exit_reason "$rc" "$limit" "$out.err" "$out")"
  else
    grep -q "^V host ${EXPECT[$impl]}" "$out" || die "$impl register run loaded the wrong library"
    awk -v impl="$impl" '$1 == "R" { print impl, "default", $2, $3 }' "$out" >>"$RAW"
  fi
  drop_scratch
}

# One PMIx_server_init: run_init <impl> <default|psec_native>.
run_init() {
  local impl=$1 cfg=$2 out rc=0
  new_scratch
  out="$SCRATCH.out"
  run_env "$impl" "$SCRATCH"
  [ "$cfg" = psec_native ] && RUN_ENV+=(PMIX_MCA_psec=native)
  (cd "$SCRATCH" && env "${RUN_ENV[@]}" timeout -k 5 "$JOB_TIMEOUT" "$OUT/$impl/bench_host" init \
    >"$out" 2>"$out.err") || rc=$?
  if [ "$rc" != 0 ]; then
    cat "$out" "$out.err" >&2
    fail_note "$impl" "srvinit_$cfg" "$(exit_reason "$rc" "$JOB_TIMEOUT" "$out.err" "$out")"
  else
    check_version "$impl" "$out"
    awk -v impl="$impl" -v cfg="$cfg" '$1 == "R" { print impl, cfg, $2, $3 }' "$out" >>"$RAW"
  fi
  drop_scratch
}

now_us() { local t=$EPOCHREALTIME; echo "${t//[.,]/}"; }

# Checks the reports of a launched job: check_reports <dir> <prefix> <ranks>
# <impl> <version line?>; prints nothing when all is well, else the reason.
check_reports() {
  local dir=$1 prefix=$2 ranks=$3 impl=$4 want_version=$5 found size own parent version
  found=$(find "$dir" -maxdepth 1 -name "$prefix.*" | wc -l)
  if [ "$found" != "$ranks" ]; then echo "$found of $ranks ranks reported"; return; fi
  local file
  for file in "$dir/$prefix".*; do
    read -r size own parent <"$file"
    if [ "$size" != "$ranks" ]; then echo "${file##*/}: job size $size, not $ranks"; return; fi
    case "$own" in "${LIBDIR[$impl]}/libpmix.so"*) ;;
      *) echo "${file##*/}: the rank mapped $own, not ${LIBDIR[$impl]}/libpmix.so*"; return ;; esac
    case "$parent" in "${LIBDIR[$impl]}/libpmix.so"*) ;;
      *) echo "${file##*/}: the launcher (parent) mapped $parent, not ${LIBDIR[$impl]}/libpmix.so*"; return ;; esac
    if [ "$want_version" = 1 ]; then
      version=$(sed -n 2p "$file")
      case "$version" in "${EXPECT[$impl]}"*) ;;
        *) echo "${file##*/}: version '$version'"; return ;; esac
    fi
  done
}

# Wall time of one launch, from the launcher's start to its exit:
# run_launch <impl> <pmixrun|mpirun> <default|psec_native> <record:0|1>.
# Returns 1 when it failed (recorded under the key <kind>_<cfg>).
run_launch() {
  local impl=$1 kind=$2 cfg=$3 record=$4 out rc=0 ranks start end why
  local cmd=()
  new_scratch
  out="$SCRATCH.out"
  # The reports stay outside the session tmpdir: OpenPMIx's server empties
  # its tmpdir when it finalizes.
  mkdir "$SCRATCH/reports" "$SCRATCH/session"
  run_env "$impl" "$SCRATCH/session"
  [ "$cfg" = psec_native ] && RUN_ENV+=(PMIX_MCA_psec=native)
  if [ "$kind" = pmixrun ]; then
    ranks=$PMIXRUN_N
    # pmixrun is pmixpp's; on OpenPMIx it runs with OpenPMIx's libpmix.so.2
    # (LD_LIBRARY_PATH wins over its RUNPATH, checked before the rounds).
    [ "$impl" = openpmix ] && RUN_ENV+=(LD_LIBRARY_PATH="$OPENPMIX_LIBDIR")
    cmd=("$PMIXRUN" --tmpdir "$SCRATCH/session" -n "$ranks" "$OUT/$impl/pmix_hello" "$SCRATCH/reports")
  else
    ranks=$MPIRUN_N
    RUN_ENV+=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
    [ "$impl" = pmixpp ] && RUN_ENV+=(LD_LIBRARY_PATH="$PMIXPP_BUILD/lib")
    cmd=(mpirun --oversubscribe --allow-run-as-root -n "$ranks" "$MPI_INIT" "$SCRATCH/reports")
  fi
  start=$(now_us)
  (cd "$SCRATCH" && env "${RUN_ENV[@]}" timeout -k 5 "$LAUNCH_TIMEOUT" "${cmd[@]}" </dev/null >"$out" 2>"$out.err") || rc=$?
  end=$(now_us)
  if [ "$rc" != 0 ]; then
    why=$(exit_reason "$rc" "$LAUNCH_TIMEOUT" "$out.err" "$out")
  else
    why=$(check_reports "$SCRATCH/reports" "$([ "$kind" = pmixrun ] && echo hello || echo mpi)" "$ranks" "$impl" \
      "$([ "$kind" = pmixrun ] && echo 1 || echo 0)")
  fi
  if [ -n "$why" ]; then
    tail -n 20 "$out" "$out.err" >&2
    fail_note "$impl" "${kind}_$cfg" "$kind -n $ranks: $why"
    drop_scratch
    return 1
  fi
  if [ "$record" = 1 ]; then
    echo "$impl $cfg ${kind}_ms_n$ranks $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1000 }')" >>"$RAW"
  fi
  drop_scratch
  return 0
}

# Configurations of the server-init and launch figures: the run's psec
# (each library's default, or $PSEC) and PMIX_MCA_psec=native.
PSEC_CFGS="default psec_native"
[ "$PSEC" = native ] && PSEC_CFGS=default
LAUNCH_CFGS=$PSEC_CFGS
# A launch figure that cannot be taken at all: launch_unavailable <impl> <kind> <reason>.
declare -A LAUNCH_OK=()
launch_unavailable() {
  local cfg
  for cfg in $LAUNCH_CFGS; do
    fail_note "$1" "${2}_$cfg" "$3"
    LAUNCH_OK[$1.$2.$cfg]=0
  done
}

fences_for_n() {
  local n=$1 f floor=$FENCES_MIN
  [ "$FENCES" -lt "$floor" ] && floor=$FENCES
  if [ "$n" -le 16 ]; then f=$FENCES; else f=$((FENCES * 16 / n)); fi
  [ "$f" -lt "$floor" ] && f=$floor
  echo "$f"
}

order_for_round() { if [ $(($1 % 2)) = 1 ]; then echo "openpmix pmixpp"; else echo "pmixpp openpmix"; fi; }

# ---- what the launch figures need ----
for impl in openpmix pmixpp; do
  for kind in pmixrun mpirun; do
    for cfg in $LAUNCH_CFGS; do LAUNCH_OK[$impl.$kind.$cfg]=1; done
  done
done
if [ ! -x "$PMIXRUN" ]; then
  for impl in openpmix pmixpp; do
    launch_unavailable "$impl" pmixrun "not run: $PMIXRUN not built (cmake --build $PMIXPP_BUILD)"
  done
else
  # pmixrun must resolve libpmix.so.2 to OpenPMIx's under LD_LIBRARY_PATH: a
  # DT_RPATH would win over it (a DT_RUNPATH does not).
  resolved=$(LD_LIBRARY_PATH="$OPENPMIX_LIBDIR" ldd "$PMIXRUN" | awk '$1 == "libpmix.so.2" { print $3 }')
  runpath=$(readelf -d "$PMIXRUN" | sed -n 's/.*(\(RPATH\|RUNPATH\)).*\[\(.*\)\]/\1 \2/p')
  log "pmixrun: ${runpath:-no RPATH/RUNPATH}; with LD_LIBRARY_PATH=$OPENPMIX_LIBDIR libpmix.so.2 => $resolved"
  if [ "$(dirname "$(readlink -f "$resolved")")" != "${LIBDIR[openpmix]}" ]; then
    launch_unavailable openpmix pmixrun \
      "not run: with LD_LIBRARY_PATH=$OPENPMIX_LIBDIR, pmixrun's libpmix.so.2 resolves to $resolved (${runpath:-no run path})"
  fi
fi
MPI_INIT="$OUT/mpi/mpi_init"
mpi_missing=""
for tool in mpicc mpirun; do command -v "$tool" >/dev/null || mpi_missing+="${mpi_missing:+ and }$tool"; done
if [ -n "$mpi_missing" ]; then
  mpi_why="not run: $mpi_missing not found (apt-get install openmpi-bin libopenmpi-dev)"
elif ! mpi_build=$(make -s -B -C "$BENCH_DIR" mpi MPI_OUT="$OUT/mpi" 2>&1); then
  printf '%s\n' "$mpi_build" >&2
  mpi_why="not run: mpicc could not build src/mpi_init.c: $(printf '%s\n' "$mpi_build" | grep -v '^make' | head -n 1)"
else
  mpi_why=""
fi
if [ -n "$mpi_why" ]; then
  for impl in openpmix pmixpp; do launch_unavailable "$impl" mpirun "$mpi_why"; done
fi

# OpenPMIx's psec/munge asks munged for a credential in PMIx_server_init;
# when munged's socket is there but nothing answers, libmunge retries for
# about 2.3 s. Recorded, since it changes every OpenPMIx server start.
# Checked at the start and at the end: munged may come and go meanwhile.
munge_state() {
  if ! command -v munge >/dev/null; then echo "munge not installed"
  elif timeout 10 munge -n </dev/null >/dev/null 2>&1; then echo "munged running"
  elif [ -S /run/munge/munge.socket.2 ]; then echo "munged not answering (a stale socket /run/munge/munge.socket.2)"
  else echo "munged not running (no socket)"
  fi
}
MUNGE_STATE=$(munge_state)
log "munge: $MUNGE_STATE${PSEC:+; PSEC=$PSEC for every run}"
case "$MUNGE_STATE:$PSEC" in
  *"not answering"*:) log "every OpenPMIx server start waits about 2.3 s for munged (PSEC=native avoids it)" ;;
esac

start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
fence_counts=""
for n in $NS; do fence_counts+="${fence_counts:+, }N=$n: $(fences_for_n "$n")"; done
log "pmixpp build: $PMIXPP_BUILD, $BUILD_DESC"
log "rounds=$ROUNDS gets=$GETS puts=$PUTS fences per kind ($fence_counts) mem N=$MEM_N"
log "server RSS: N=$SRV_RSS_N, bytes '$SRV_RSS_SIZES', $SRV_RSS_ROUNDS rounds; server init x$INIT_REPS/round"
log "launch: pmixrun -n $PMIXRUN_N, mpirun -n $MPIRUN_N; register='$REG_SIZES' x$REG_ROUNDS ppn=$REG_PPN"

# One untimed launch of each kind per library first: the first start pays
# for cold caches, and a launcher that cannot work is found once.
for kind in pmixrun mpirun; do
  for impl in openpmix pmixpp; do
    for cfg in $LAUNCH_CFGS; do
      [ "${LAUNCH_OK[$impl.$kind.$cfg]}" = 1 ] || continue
      log "$kind on $impl ($cfg): untimed first launch"
      run_launch "$impl" "$kind" "$cfg" 0 || LAUNCH_OK[$impl.$kind.$cfg]=0
    done
  done
done

for round in $(seq 1 "$ROUNDS"); do
  round_start=$(date +%s)
  log "round $round/$ROUNDS: jobs"
  for n in $NS; do
    fences=$(fences_for_n "$n")
    if [ "$n" = "${NS%% *}" ]; then
      client=(--gets "$GETS" --puts "$PUTS" --fences "$fences")
    else
      client=(--gets 0 --puts 0 --fences "$fences")
    fi
    for impl in $(order_for_round "$round"); do
      run_one "$impl" default "$n" "job_n$n" - "${client[@]}"
    done
  done
  log "round $round/$ROUNDS: memory per client at N=$MEM_N"
  for impl in $(order_for_round "$round"); do
    variants_var="GDS_VARIANTS_$impl"
    for gds in ${!variants_var}; do
      run_one "$impl" "$gds" "$MEM_N" "pss_$gds" --pss --gets 0 --puts 0 --fences 0 --stop
    done
  done
  if [ "$round" -le "$SRV_RSS_ROUNDS" ]; then
    log "round $round/$ROUNDS: server RSS after a collecting fence at N=$SRV_RSS_N"
    for bytes in $SRV_RSS_SIZES; do
      for impl in $(order_for_round "$round"); do
        run_one "$impl" default "$SRV_RSS_N" "srvrss_$bytes" "--server-rss=${bytes}_n$SRV_RSS_N" --rss-fence "$bytes"
      done
    done
  fi
  log "round $round/$ROUNDS: server init"
  for rep in $(seq 1 "$INIT_REPS"); do
    for cfg in $PSEC_CFGS; do
      for impl in $(order_for_round $((round + rep - 1))); do run_init "$impl" "$cfg"; done
    done
  done
  log "round $round/$ROUNDS: launch"
  for kind in pmixrun mpirun; do
    for cfg in $LAUNCH_CFGS; do
      for impl in $(order_for_round "$round"); do
        if [ "${LAUNCH_OK[$impl.$kind.$cfg]}" = 1 ]; then run_launch "$impl" "$kind" "$cfg" 1 || true; fi
      done
    done
  done
  log "round $round/$ROUNDS took $(($(date +%s) - round_start)) s"
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
munge_end=$(munge_state)
if [ "$munge_end" != "$MUNGE_STATE" ]; then
  log "munge changed during the run: now $munge_end"
  MUNGE_STATE="at start $MUNGE_STATE, at end $munge_end (changed during the run: the figures with the library default psec mix both)"
fi

python3 "$BENCH_DIR/lib/report.py" --raw "$RAW" --versions "$VERSIONS" --fails "$FAILS" --notes "$NOTES" \
  --out-dir "$BENCH_DIR" --ns "$NS" --mem-n "$MEM_N" --reg-sizes "$REG_SIZES" --reg-ppn "$REG_PPN" \
  --srv-rss-n "$SRV_RSS_N" --srv-rss-sizes "$SRV_RSS_SIZES" --pmixrun-n "$PMIXRUN_N" --mpirun-n "$MPIRUN_N" \
  --munge "$MUNGE_STATE" --psec "${PSEC:-library default}" \
  --build "$PMIXPP_BUILD" --build-desc "$BUILD_DESC" --elapsed "$elapsed" --load-start "$load_start" \
  --params "rounds=$ROUNDS, gets=$GETS/process, put+commit=$PUTS/process, fences per process and kind: $fence_counts, server RSS: $SRV_RSS_ROUNDS rounds, server init: $INIT_REPS per round and configuration, register rounds=$REG_ROUNDS (1M: $REG_ROUNDS_BIG), ppn=$REG_PPN$([ "$QUICK" = 1 ] && echo ', --quick')"
if command -v gnuplot >/dev/null; then
  for chart in fence_get fences server launch; do
    if gnuplot -e "datadir='$RESULTS_DIR'; output='$RESULTS_DIR/$chart.png'" "$BENCH_DIR/lib/$chart.gp"; then
      log "chart: $RESULTS_DIR/$chart.png"
    else
      log "gnuplot failed for $chart.png"
    fi
  done
else
  log "gnuplot not available: no charts"
fi
if [ -s "$FAILS" ]; then
  log "figures that could not be taken (also in RESULTS.md):"
  cut -f1-3 "$FAILS" | sort | uniq -c >&2
fi
log "done in ${elapsed}s; table in $BENCH_DIR/RESULTS.md"
