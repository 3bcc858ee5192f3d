#!/bin/sh
# Runs a client bound to a core of its own, as a launcher binding to cores
# does by default (Open MPI's mpirun and pmixrun for up to 2 ranks): rank R
# on the R-th cpu this script may use. bench/fence.sh, load "bound".
set -eu
cpus=$(python3 -c 'import os; print(" ".join(str(c) for c in sorted(os.sched_getaffinity(0))))')
set -- "$@"
index=$(( ${PMIX_RANK:?PMIX_RANK is not set: run under a PMIx server} ))
i=0
for cpu in $cpus; do
  if [ "$i" = "$index" ]; then exec taskset -c "$cpu" "$@"; fi
  i=$((i + 1))
done
echo "bind_to_own_core.sh: rank $index has no cpu of its own (cpus: $cpus)" >&2
exit 1
