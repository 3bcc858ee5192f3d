#!/bin/bash
# Wall time of `srun --mpi=pmix_v4 -n 4 pmix_client` on one node, our
# libpmix.so.2 against OpenPMIx, alternated round by round on one private
# cluster (cluster.sh), so both see the same machine load. Prints every
# round and the medians; writes no results file.
#
# Usage: bench_srun.sh [ROUNDS=10] [BUILD_DIR=<repo>/build]
# PMIXPP_SLURM_LIBPMIX=FILE times another build's libpmix.so.2 (the client
# still comes from BUILD_DIR). Needs root and munged, like the test; the
# cluster is stopped at exit.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rounds=${1:-10}
build=$(cd "${2:-$here/../../../build}" && pwd)
client=$build/tests/compat/slurm/programs/pmix_client
library=${PMIXPP_SLURM_LIBPMIX:-$build/lib/libpmix.so.2}
[[ -x $client ]] || { echo "bench_srun.sh: $client not built: cmake --build $build --target compat_slurm_programs" >&2; exit 1; }
[[ -e $library ]] || { echo "bench_srun.sh: $library not built: cmake --build $build --target pmix" >&2; exit 1; }

work=$(mktemp -d /tmp/pmixpp-slurm-bench.XXXXXX)
state=$work/cluster.state
stop() {
    "$here/cluster.sh" down "$state" || true
    rm -rf "$work"
}
trap stop EXIT
"$here/cluster.sh" up "$state" "$library"

# One srun; prints its wall time in ms, or FAILED(code). The stop-gap of
# README.md (PMIXPP_SLURM_COMPONENT_PATH) reaches our tasks as the test's does.
time_srun() {
    local partition=$1 start end code=0 env=()
    if [[ $partition == ours-* && -n ${PMIXPP_SLURM_COMPONENT_PATH:-} ]]; then
        env=("PMIX_MCA_mca_base_component_path=$PMIXPP_SLURM_COMPONENT_PATH")
    fi
    start=$(date +%s%N)
    "$here/cluster.sh" srun "$state" "${env[@]}" --partition="$partition" --mpi=pmix_v4 -n 4 "$client" \
        >"$work/out" 2>&1 || code=$?
    end=$(date +%s%N)
    if (( code != 0 )) || [[ $(grep -c 'all checks passed' "$work/out") -ne 4 ]]; then
        echo "FAILED($code)"
    else
        echo $(( (end - start) / 1000000 ))
    fi
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# One untimed run each: the first srun of a node pays for cold caches.
time_srun ompi-one >/dev/null
time_srun ours-one >/dev/null

ompi_times=()
ours_times=()
printf '%-6s %12s %12s\n' round "OpenPMIx ms" "ours ms"
for (( round = 1; round <= rounds; round++ )); do
    a=$(time_srun ompi-one)
    b=$(time_srun ours-one)
    printf '%-6s %12s %12s\n' "$round" "$a" "$b"
    [[ $a == FAILED* ]] || ompi_times+=("$a")
    [[ $b == FAILED* ]] || ours_times+=("$b")
done
printf '%-6s %12s %12s   (successful rounds: %d / %d)\n' median \
    "$(printf '%s\n' "${ompi_times[@]}" | grep . | median)" \
    "$(printf '%s\n' "${ours_times[@]}" | grep . | median)" "${#ompi_times[@]}" "${#ours_times[@]}"
