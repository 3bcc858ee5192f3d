#!/usr/bin/env bash
# What a user feels at job start: wall time from the launcher's start to its
# exit, for the launch floor and a PMIx hello, each library, every round.
#
#   bench/launch.sh                 ROUNDS=9, SIZES="8 32 64 128", MPI_N=16
#   ROUNDS=3 SIZES="8 32" bench/launch.sh
#
# Runs, alternating the order every round (see bench/README.md, "launch.sh"):
#   floor            pmixrun -n N empty_main          (fork, exec, loader)
#   linked.<lib>     pmixrun -n N empty_linked        (libpmix loaded, not called)
#   hello.<lib>      pmixrun -n N launch_hello        (init, put, commit,
#                                                      collecting fence, get, finalize)
#   mpi.pmixrun      pmixrun -n MPI_N mpi_init        (Open MPI on pmixpp)
#   mpi.mpirun       mpirun -n MPI_N mpi_init         (Open MPI on its own OpenPMIx)
# pmixrun is pmixpp's launcher in every row; for <lib> = openpmix it runs on
# OpenPMIx's libpmix.so.2 (LD_LIBRARY_PATH), as in bench/run.sh.
#
# Writes bench/RESULTS-launch.md (medians, ratios, every round) and prints it.
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
PMIXPP_ROOT=$(cd "$BENCH_DIR/.." && pwd)
PMIXPP_BUILD=${PMIXPP_BUILD:-$PMIXPP_ROOT/build}
ROUNDS=${ROUNDS:-9}
SIZES=${SIZES:-8 32 64 128}
MPI_N=${MPI_N:-16}
TIMEOUT=${TIMEOUT:-120}
OPENPMIX_LIBDIR=/usr/lib/x86_64-linux-gnu/pmix2/lib
RESULTS=${RESULTS:-$BENCH_DIR/RESULTS-launch.md}

log() { echo "[launch] $*" >&2; }

[ -x "$PMIXPP_BUILD/bin/pmixrun" ] || { log "no $PMIXPP_BUILD/bin/pmixrun: build pmixpp first"; exit 1; }
# shellcheck source=lib/build_both.sh
source "$BENCH_DIR/lib/build_both.sh"
make -s -C "$BENCH_DIR" mpi MPI_OUT="$OUT/mpi" >/dev/null 2>&1 || log "mpicc failed: no MPI rows"
PMIXRUN="$PMIXPP_BUILD/bin/pmixrun"
WORK=$(mktemp -d "$BENCH_DIR/build/launch.XXXXXX")
RAW="$WORK/raw"
trap 'rm -rf "$WORK"' EXIT

now_us() { echo $(($(date +%s%N) / 1000)); }

# run_one <name> <n> <command...>: one timed launch, recorded in $RAW. The
# command runs in a fresh directory, which is also pmixrun's --tmpdir
# ("@TMP@" in the command).
run_one() {
  local name=$1 n=$2 start end rc=0 session arg
  shift 2
  session=$(mktemp -d "$WORK/s.XXXXXX")
  local cmd=()
  for arg in "$@"; do cmd+=("${arg//@TMP@/$session}"); done
  start=$(now_us)
  (cd "$session" && timeout -k 5 "$TIMEOUT" "${cmd[@]}" </dev/null >"$session.out" 2>"$session.err") || rc=$?
  end=$(now_us)
  if [ "$rc" != 0 ]; then
    log "$name n=$n failed (exit $rc):"
    tail -n 5 "$session.err" >&2
    echo "$name $n failed" >>"$RAW"
  else
    echo "$name $n $(((end - start) / 1000))" >>"$RAW"
  fi
  rm -rf "$session" "$session.out" "$session.err"
}

# pmixrun on one library: the command prefix.
pmixrun_on() {
  if [ "$1" = openpmix ]; then
    echo env LD_LIBRARY_PATH="$OPENPMIX_LIBDIR" "$PMIXRUN" --tmpdir @TMP@
  else
    echo env -u LD_LIBRARY_PATH "$PMIXRUN" --tmpdir @TMP@
  fi
}

configs_for_round() {  # the configurations of one size, order alternating by round
  local list=(floor linked.pmixpp linked.openpmix hello.pmixpp hello.openpmix)
  if [ $(($1 % 2)) = 1 ]; then
    printf '%s\n' "${list[@]}" | tac
  else
    printf '%s\n' "${list[@]}"
  fi
}

launch() {  # launch <config> <n>
  local config=$1 n=$2 lib program
  case $config in
    floor) lib=pmixpp program=empty_main ;;
    linked.*) lib=${config#linked.} program=empty_linked ;;
    hello.*) lib=${config#hello.} program=launch_hello ;;
  esac
  # shellcheck disable=SC2046 # the prefix is words without spaces
  run_one "$config" "$n" $(pmixrun_on "$lib") -n "$n" "$OUT/$lib/$program"
}

mpi_round() {  # both MPI launchers, order alternating by round
  local order=(pmixrun mpirun)
  [ $(($1 % 2)) = 1 ] && order=(mpirun pmixrun)
  [ -x "$OUT/mpi/mpi_init" ] || return 0
  for kind in "${order[@]}"; do
    if [ "$kind" = pmixrun ]; then
      run_one mpi.pmixrun "$MPI_N" env LD_LIBRARY_PATH="$PMIXPP_BUILD/lib" "$PMIXRUN" --tmpdir @TMP@ \
        -n "$MPI_N" "$OUT/mpi/mpi_init"
    else
      run_one mpi.mpirun "$MPI_N" env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        mpirun --oversubscribe --allow-run-as-root -n "$MPI_N" "$OUT/mpi/mpi_init"
    fi
  done
}

log "warming up (untimed)"
for config in floor hello.pmixpp hello.openpmix; do launch "$config" 8; done
: >"$RAW"
started=$(date +%s)
for round in $(seq 1 "$ROUNDS"); do
  log "round $round of $ROUNDS"
  for n in $SIZES; do
    while read -r config; do launch "$config" "$n"; done < <(configs_for_round "$round")
  done
  mpi_round "$round"
done
python3 "$BENCH_DIR/lib/launch_report.py" "$RAW" "$ROUNDS" "$(($(date +%s) - started))" "$PMIXPP_BUILD" \
  >"$RESULTS"
cat "$RESULTS"
