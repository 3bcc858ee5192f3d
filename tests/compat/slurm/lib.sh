# Shared by the Slurm harness scripts (sourced, not run): the shape of the
# test cluster and small helpers. The cluster lives in network + UTS + mount
# namespaces made by ../multihost/setup.sh, so its ports, addresses and host
# names never touch the host's or another run's.
#
#   host 0   head       slurmctld, and every srun / sinfo of the test
#   host 1-3 ours-a..c   slurmd, our libpmix.so.2 bind-mounted over OpenPMIx's file
#   host 4-6 ompi-a..c   slurmd on Debian's OpenPMIx (the baseline)
#
# Node "-c" of each library has a host name (gethostname) other than its Slurm
# NodeName. Partitions per library L: L-one (node a), L-alias (node c),
# L-three (a, b, c).

PMIXPP_SLURM_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PMIXPP_SLURM_MULTIHOST="$PMIXPP_SLURM_HERE/../multihost"
source "$PMIXPP_SLURM_MULTIHOST/lib.sh"

PMIXPP_SLURM_SUBNET=${PMIXPP_SLURM_SUBNET:-10.252.0}
PMIXPP_SLURM_LIBS=(ours ompi)
PMIXPP_SLURM_LETTERS=(a b c)
# The file Slurm's mpi_pmix_v4.so dlopens (through the libpmix.so symlink).
PMIXPP_SLURM_OPENPMIX_LINK=/usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so

pmixpp_slurm_log() { printf '[slurm-harness] %s\n' "$*" >&2; }
pmixpp_slurm_die() { printf '[slurm-harness] error: %s\n' "$*" >&2; exit 1; }

# Node names, in host order 1..6.
pmixpp_slurm_nodes() {
    local lib letter
    for lib in "${PMIXPP_SLURM_LIBS[@]}"; do
        for letter in "${PMIXPP_SLURM_LETTERS[@]}"; do echo "$lib-$letter"; done
    done
}

# Host index (network namespace PREFIXn<index>) of a node name.
pmixpp_slurm_host_index() {
    local i=1 node
    for node in $(pmixpp_slurm_nodes); do
        if [[ $node == "$1" ]]; then echo "$i"; return 0; fi
        i=$((i + 1))
    done
    return 1
}

# What gethostname() says on a node: its NodeName, except on node c.
pmixpp_slurm_hostname_of() {
    case $1 in
        *-c) echo "host17-${1%-c}" ;;
        *) echo "$1" ;;
    esac
}

# The state file of a running cluster: shell assignments (DIR, PREFIX, ...).
pmixpp_slurm_load_state() {
    local state=$1
    [[ -r $state ]] || pmixpp_slurm_die "no cluster state file $state: start the cluster with 'cluster.sh up $state' (ctest runs the compat_slurm_up fixture first)"
    # shellcheck disable=SC1090
    source "$state"
    [[ -d ${PMIXPP_SLURM_DIR:-} ]] || pmixpp_slurm_die "the cluster directory '${PMIXPP_SLURM_DIR:-}' named in $state is gone: run 'cluster.sh up $state' again"
}

# A minimal environment for daemons and srun: nothing of the caller's
# (LD_LIBRARY_PATH and PMIX_MCA_* of ctest must not reach slurmstepd or the tasks).
pmixpp_slurm_clean_env() {
    echo env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "SLURM_CONF=$PMIXPP_SLURM_DIR/etc/slurm.conf"
}
