#!/bin/bash
# Wall time of Slurm jobs on our libpmix.so.2 against OpenPMIx 4.2.2: srun
# --mpi=pmix_v4 of the Slurm harness's C client (init, put, commit,
# collecting fence, a get of every peer, finalize), on the private cluster of
# tests/compat/slurm/cluster.sh, whose ours-* nodes have our library
# bind-mounted over OpenPMIx's file and whose ompi-* nodes keep OpenPMIx.
# Both libraries run the same srun, round by round, the order swapped every
# round (A B, B A, ...), so both see the same machine load.
#
#   bench/slurm_srun.sh [ROUNDS=15]        # needs root and munged, like the test
#
# Figures: `srun -n 4` on one node, and `srun -N 3 -n 6` across three nodes
# (the fence through Slurm's own collectives). Writes bench/RESULTS-slurm.md
# (medians, every round, machine, date) and prints it. PMIXPP_BUILD=DIR
# measures another build tree (default <repo>/build).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=${1:-15}
build=$(cd "${PMIXPP_BUILD:-$repo/build}" && pwd)
cluster=$repo/tests/compat/slurm/cluster.sh
client=$build/tests/compat/slurm/programs/pmix_client
library=$build/lib/libpmix.so.2
[[ -x $client ]] || { echo "slurm_srun.sh: $client not built: cmake --build $build --target compat_slurm_programs" >&2; exit 1; }
[[ -e $library ]] || { echo "slurm_srun.sh: $library not built: cmake --build $build --target pmix" >&2; exit 1; }
(( rounds >= 1 && rounds <= 1000 )) || { echo "slurm_srun.sh: ROUNDS must be 1..1000" >&2; exit 2; }

work=$(mktemp -d /tmp/pmixpp-slurm-bench.XXXXXX)
state=$work/cluster.state
stop() {
    "$cluster" down "$state" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap stop EXIT
"$cluster" up "$state" "$library" >"$work/up.log" 2>&1 || { cat "$work/up.log" >&2; exit 1; }
started=$(date -u '+%Y-%m-%d %H:%M UTC')

# One srun on PARTITION with ARGS; prints its wall time in ms, or FAILED.
time_srun() {
    local partition=$1 tasks=$2 start end code=0
    shift 2
    start=$(date +%s%N)
    "$cluster" srun "$state" --partition="$partition" --mpi=pmix_v4 "$@" "$client" >"$work/out" 2>&1 || code=$?
    end=$(date +%s%N)
    if (( code != 0 )) || [[ $(grep -c 'all checks passed' "$work/out") -ne $tasks ]]; then
        echo FAILED
    else
        echo $(( (end - start) / 1000000 ))
    fi
}

median() { grep -v FAILED | sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# figure name, partition suffix, task count, srun arguments
figures=("srun -n 4, one node|one|4|-n 4" "srun -N 3 -n 6, three nodes|three|6|-N 3 -n 6 --ntasks-per-node=2")
rows=""
medians=""
for figure in "${figures[@]}"; do
    IFS='|' read -r name suffix tasks args <<<"$figure"
    # One untimed run each: the first srun of a node pays for cold caches.
    # shellcheck disable=SC2086
    time_srun "ompi-$suffix" "$tasks" $args >/dev/null
    # shellcheck disable=SC2086
    time_srun "ours-$suffix" "$tasks" $args >/dev/null
    ompi_times=()
    ours_times=()
    for (( round = 1; round <= rounds; round++ )); do
        order=(ompi ours)
        (( round % 2 == 0 )) && order=(ours ompi)
        for lib in "${order[@]}"; do
            # shellcheck disable=SC2086
            t=$(time_srun "$lib-$suffix" "$tasks" $args)
            if [[ $lib == ompi ]]; then a=$t; else b=$t; fi
        done
        ompi_times+=("$a")
        ours_times+=("$b")
        rows+="| $name | $round | $a | $b |"$'\n'
    done
    a=$(printf '%s\n' "${ompi_times[@]}" | median)
    b=$(printf '%s\n' "${ours_times[@]}" | median)
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0 && a > 0) printf "%.2fx", a / b; else print "n/a" }')
    medians+="| $name | $a ms | $b ms | $ratio |"$'\n'
done

out=$repo/bench/RESULTS-slurm.md
{
    echo "# Slurm jobs: pmixpp vs OpenPMIx 4.2.2"
    echo
    echo "Written by \`bench/slurm_srun.sh $rounds\`."
    echo
    echo "- Date: $started"
    echo "- Machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -sr)"
    echo "- Slurm: $(dpkg-query -W -f='${Version}' slurm-wlm 2>/dev/null || echo unknown) (Debian slurm-wlm, plugin mpi_pmix_v4.so)"
    echo "- Cluster: tests/compat/slurm/cluster.sh (slurmctld and 6 slurmd in network namespaces on this machine)"
    echo "- pmixpp: $library (build \`$build\`, $(grep -m1 '^CMAKE_BUILD_TYPE' "$build/CMakeCache.txt" | cut -d= -f2))"
    echo "- Client: tests/compat/slurm/pmix_client.c (init, put 64 bytes, commit, collecting fence, get of every peer, finalize)"
    echo "- $rounds rounds per figure, the two libraries alternated (order swapped every round); wall time of srun from start to exit"
    echo
    echo "Ratio = OpenPMIx / pmixpp: above 1 means pmixpp is faster."
    echo
    echo "| Figure | OpenPMIx 4.2.2 (median) | pmixpp (median) | ratio |"
    echo "|---|---:|---:|---:|"
    printf '%s' "$medians"
    echo
    echo "Every round (ms):"
    echo
    echo "| Figure | round | OpenPMIx | pmixpp |"
    echo "|---|---:|---:|---:|"
    printf '%s' "$rows"
} >"$out"
cat "$out"
