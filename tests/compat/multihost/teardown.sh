#!/bin/bash
# Remove everything setup.sh PREFIX made; safe to run any number of times,
# and on a half-made setup. Processes still inside the run's namespaces
# (an orted or rank that outlived mpirun) are killed first, by pid.
# Usage: teardown.sh PREFIX
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib.sh"

prefix=${1:?usage: teardown.sh PREFIX}
pmixpp_mh_check_prefix "$prefix"
pmixpp_mh_require_root

namespaces=()
for path in /run/netns/"$prefix"*; do
    if [[ -e $path ]]; then namespaces+=("$(basename "$path")"); fi
done

for signal in TERM KILL; do
    pids=()
    for ns in "${namespaces[@]}"; do
        while read -r pid; do
            [[ -n $pid ]] && pids+=("$pid")
        done < <(ip netns pids "$ns" 2>/dev/null || true)
    done
    (( ${#pids[@]} )) || break
    kill -s "$signal" "${pids[@]}" 2>/dev/null || true
    [[ $signal == TERM ]] && sleep 1
done

for ns in "${namespaces[@]}"; do
    ip netns del "$ns" 2>/dev/null || true
done

for uts in "$PMIXPP_MH_UTS_DIR"/"$prefix"*; do
    [[ -e $uts ]] || continue
    umount "$uts" 2>/dev/null || true
    rm -f "$uts"
done

for dir in /etc/netns/"$prefix"*; do
    if [[ -d $dir ]]; then rm -rf "$dir"; fi
done
# $PMIXPP_MH_UTS_DIR and /etc/netns stay, even when empty: another run's
# setup may be about to make its entries in them.
