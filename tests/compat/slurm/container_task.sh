#!/bin/sh
# A task as a container starts it: on the container's own libpmix.so.2, at
# another path than the one slurmstepd loads. The run's copy of Debian's
# OpenPMIx (cluster.sh make_container) comes first in LD_LIBRARY_PATH, which
# the C client's RUNPATH and Open MPI's ext3x search of libpmix.so.2 obey,
# and PMIX_PKGLIBDIR points OpenPMIx at the copy's plugins (its compiled-in
# directory otherwise). exec keeps the pid, so the task's parent stays
# slurmstepd.
#
# Usage: container_task.sh LIBDIR all|odd PROGRAM [ARGS...]
#   all: every rank on LIBDIR; odd: only odd SLURM_PROCIDs (a mixed step:
#   the even ranks keep the node's library).
set -eu
lib=$1
ranks=$2
shift 2
case $ranks in
    all) use=1 ;;
    odd) use=$((${SLURM_PROCID:-0} % 2)) ;;
    *) echo "container_task.sh: ranks must be all or odd, not '$ranks'" >&2; exit 2 ;;
esac
if [ "$use" = 1 ]; then
    LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    PMIX_PKGLIBDIR=$lib/pmix
    export LD_LIBRARY_PATH PMIX_PKGLIBDIR
fi
exec "$@"
