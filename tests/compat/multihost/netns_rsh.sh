#!/bin/bash
# An rsh/ssh stand-in for test hosts made by setup.sh: "netns_rsh.sh HOST
# COMMAND..." runs COMMAND on HOST the way ssh would (the words joined and
# handed to sh -c), inside HOST's network namespace, UTS namespace (its
# hostname) and a mount namespace where /etc/hosts is HOST's own (ip netns
# exec binds /etc/netns/HOST/*).
#
# Open MPI: mpirun --mca plm_rsh_agent /path/netns_rsh.sh --hostfile ...
#
# Unlike ssh, the caller's environment goes along unchanged: orted inherits
# mpirun's LD_LIBRARY_PATH, PMIX_MCA_* and OMPI_ALLOW_RUN_AS_ROOT*, so it
# loads the same libpmix.so.2 as mpirun (ours, under a build tree).
# PMIXPP_MH_RSH_LOG=FILE appends one line per call, for tracing.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib.sh"

if (( $# < 2 )); then
    echo "usage: netns_rsh.sh HOST COMMAND..." >&2
    exit 255
fi
host=$1
shift
if [[ ! -e /run/netns/$host || ! -e $PMIXPP_MH_UTS_DIR/$host ]]; then
    echo "netns_rsh.sh: no test host '$host' (no /run/netns/$host or $PMIXPP_MH_UTS_DIR/$host): make it with setup.sh" >&2
    exit 255
fi
if [[ -n ${PMIXPP_MH_RSH_LOG:-} ]]; then
    printf '%s pid %d host %s: %s\n' "$(date +%T.%N)" $$ "$host" "$*" >>"$PMIXPP_MH_RSH_LOG"
fi
exec ip netns exec "$host" nsenter --uts="$PMIXPP_MH_UTS_DIR/$host" -- /bin/sh -c "$*"
