#!/bin/bash
# Runs inside one node's fresh mount namespace (cluster.sh starts it through
# nsenter + unshare -m --propagation private): gives the node its own TmpFS,
# puts LIBRARY over OpenPMIx's real file when one is given, then becomes
# slurmd. Nothing it mounts is seen outside this namespace.
# Usage: node.sh CLUSTER_DIR NODENAME [LIBRARY]
set -euo pipefail
dir=$1
node=$2
library=${3:-}

mount --bind "$dir/nodes/$node/tmp" "$dir/tmpfs"
if [[ -n $library ]]; then
    target=$(readlink -f /usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so)
    mount --bind "$library" "$target"
fi
exec /usr/sbin/slurmd -D -f "$dir/etc/slurm.conf" -N "$node"
