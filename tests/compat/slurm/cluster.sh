#!/bin/bash
# A private Slurm 22.05 cluster on this machine, half of it on our libpmix.so.2
# and half on Debian's OpenPMIx (see lib.sh for its shape).
#
#   cluster.sh up STATE OUR_LIBPMIX   start it; STATE records where it lives
#   cluster.sh down STATE             stop it and remove everything it made
#   cluster.sh srun STATE [--as USER] [VAR=VALUE...] ARGS...
#                                     srun on the head node, clean environment + VARs,
#                                     as root or as USER (its programs in DIR/share)
#   cluster.sh head STATE CMD...      any command there (sinfo, scontrol, ...)
#   cluster.sh node STATE NODE CMD... a command inside NODE's namespaces,
#                                     mount namespace included (what slurmd sees)
#
# Everything lives in one fresh directory (mktemp -d): config, state, spool,
# pid and log files. Nothing under /etc/slurm is read or written, no systemd.
# Daemons are stopped by the pids this script recorded; whatever else still
# runs in the cluster's namespaces (slurmstepd, tasks) is killed by
# ../multihost/teardown.sh, by pid, namespace by namespace.
#
# PMIXPP_SLURM_KEEP_LOGS=DIR: `down` first copies the daemons' logs to DIR/last.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib.sh"

usage() { sed -n '2,/^set -euo/p' "$0" | grep '^#' >&2; exit 2; }

ns_of() { echo "/run/netns/${PMIXPP_SLURM_PREFIX}n$1"; }
uts_of() { echo "$PMIXPP_MH_UTS_DIR/${PMIXPP_SLURM_PREFIX}n$1"; }

# CMD in host INDEX's network and UTS namespaces, with a clean environment.
in_host() {
    local index=$1
    shift
    nsenter --net="$(ns_of "$index")" --uts="$(uts_of "$index")" -- $(pmixpp_slurm_clean_env) "$@"
}

pid_alive_as() { # PID COMMAND: the pid still runs COMMAND (not a reused pid)
    [[ -r /proc/$1/comm ]] && [[ $(cat "/proc/$1/comm" 2>/dev/null) == "$2" ]]
}

check_prerequisites() {
    [[ $(id -u) -eq 0 ]] || pmixpp_slurm_die "the Slurm harness needs root (network and mount namespaces, slurmd): run ctest as root"
    local tool
    for tool in /usr/sbin/slurmctld /usr/sbin/slurmd /usr/bin/srun /usr/bin/sinfo; do
        [[ -x $tool ]] || pmixpp_slurm_die "$tool not found: apt-get install slurm-wlm munge (scripts/test.sh installs them)"
    done
    for tool in ip nsenter unshare munge unmunge; do
        command -v "$tool" >/dev/null || pmixpp_slurm_die "'$tool' not found: apt-get install iproute2 util-linux munge"
    done
    [[ -e /usr/lib/x86_64-linux-gnu/slurm-wlm/mpi_pmix_v4.so ]] ||
        pmixpp_slurm_die "Slurm's PMIx plugin mpi_pmix_v4.so is missing: apt-get install slurm-wlm-basic-plugins"
    [[ -e $PMIXPP_SLURM_OPENPMIX_LINK ]] ||
        pmixpp_slurm_die "$PMIXPP_SLURM_OPENPMIX_LINK (the file Slurm's plugin loads) is missing: apt-get install libpmix-dev"
    if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
        pmixpp_slurm_die "munged is not running ('munge -n | unmunge' fails): start it with 'bash scripts/lib/munge.sh' (scripts/test.sh does this before ctest)"
    fi
}

write_config() {
    local dir=$1 subnet=$PMIXPP_SLURM_SUBNET node i=1 lib
    mkdir -p "$dir/etc" "$dir/ctld/state" "$dir/tmpfs" "$dir/pids"
    : >"$dir/etc/plugstack.conf"
    {
        echo "# Written by tests/compat/slurm/cluster.sh for one test run."
        echo "ClusterName=pmixpp"
        echo "SlurmctldHost=head($subnet.1)"
        echo "SlurmUser=root"
        echo "SlurmdUser=root"
        echo "AuthType=auth/munge"
        echo "CredType=cred/munge"
        echo "StateSaveLocation=$dir/ctld/state"
        echo "SlurmctldPidFile=$dir/ctld/slurmctld.pid"
        echo "SlurmctldLogFile=$dir/ctld/slurmctld.log"
        echo "SlurmdSpoolDir=$dir/nodes/%n/spool"
        echo "SlurmdPidFile=$dir/nodes/%n/slurmd.pid"
        echo "SlurmdLogFile=$dir/nodes/%n/slurmd.log"
        echo "SlurmctldDebug=info"
        echo "SlurmdDebug=${PMIXPP_SLURM_SLURMD_DEBUG:-debug}"
        echo "PlugStackConfig=$dir/etc/plugstack.conf"
        echo "TmpFS=$dir/tmpfs"
        echo "ProctrackType=proctrack/linuxproc"
        echo "TaskPlugin=task/none"
        echo "SelectType=select/cons_tres"
        echo "SelectTypeParameters=CR_CPU"
        echo "MpiDefault=none"
        echo "SwitchType=switch/none"
        echo "JobAcctGatherType=jobacct_gather/none"
        echo "AccountingStorageType=accounting_storage/none"
        echo "JobCompType=jobcomp/none"
        echo "JobContainerType=job_container/none"
        echo "SlurmdParameters=config_overrides"
        echo "ReturnToService=2"
        echo "KillWait=2"
        echo "MessageTimeout=10"
        echo "InactiveLimit=0"
        echo "MinJobAge=10"
        for node in $(pmixpp_slurm_nodes); do
            echo "NodeName=$node NodeAddr=$subnet.$((i + 1)) NodeHostname=$(pmixpp_slurm_hostname_of "$node") CPUs=8 State=UNKNOWN"
            mkdir -p "$dir/nodes/$node/spool" "$dir/nodes/$node/tmp"
            i=$((i + 1))
        done
        for lib in "${PMIXPP_SLURM_LIBS[@]}"; do
            echo "PartitionName=$lib-one Nodes=$lib-a MaxTime=5 State=UP"
            echo "PartitionName=$lib-alias Nodes=$lib-c MaxTime=5 State=UP"
            echo "PartitionName=$lib-three Nodes=$lib-a,$lib-b,$lib-c MaxTime=5 State=UP"
        done
    } >"$dir/etc/slurm.conf"
    # The plugin's own trace (fences, direct modex) in the slurmd logs.
    echo "PMIxDebug=${PMIXPP_SLURM_PMIX_DEBUG:-1}" >"$dir/etc/mpi.conf"
    # Jobs of an unprivileged user (srun --as USER): srun reads the
    # configuration as that user, and the user's programs are copied to
    # share/. Nothing else of the directory is readable by others.
    chmod 0711 "$dir"
    chmod 0755 "$dir/etc"
    chmod 0644 "$dir"/etc/*.conf
    mkdir -m 0755 "$dir/share"
}

# A "container's" OpenPMIx: Debian's real libpmix.so.2 and its plugin
# directory copied into share/container/lib (new files, another path, as an
# image's own /usr/lib would be). container_task.sh starts a task on it
# (LD_LIBRARY_PATH, PMIX_PKGLIBDIR), whatever slurmstepd loads. Copied here,
# outside the nodes' mount namespaces, so it is OpenPMIx's file on every node.
make_container() {
    local lib=$PMIXPP_SLURM_DIR/share/container/lib real name
    real=$(readlink -f "$PMIXPP_SLURM_OPENPMIX_LINK")
    name=$(basename "$real")
    mkdir -p "$lib"
    cp "$real" "$lib/$name"
    ln -s "$name" "$lib/libpmix.so.2"
    ln -s "$name" "$lib/libpmix.so"
    cp -r "$(dirname "$real")/pmix" "$lib/pmix"
    chmod -R a+rX "$PMIXPP_SLURM_DIR/share/container"
    printf 'PMIXPP_SLURM_CONTAINER_LIB=%q\n' "$lib" >>"$STATE"
}

# Device and inode of a file as "major:minor:inode".
file_id() { stat -L -c '%Hd:%Ld:%i' "$1"; }

start_daemons() {
    local dir=$PMIXPP_SLURM_DIR node index library
    in_host 0 /usr/sbin/slurmctld -D -f "$dir/etc/slurm.conf" >"$dir/ctld/stdout" 2>&1 &
    echo $! >"$dir/pids/slurmctld"
    for node in $(pmixpp_slurm_nodes); do
        index=$(pmixpp_slurm_host_index "$node")
        library=""
        if [[ $node == ours-* ]]; then library=$PMIXPP_SLURM_OURS_LIB; fi
        nsenter --net="$(ns_of "$index")" --uts="$(uts_of "$index")" -- \
            unshare --mount --propagation private -- \
            $(pmixpp_slurm_clean_env) "$here/node.sh" "$dir" "$node" $library \
            >"$dir/nodes/$node/stdout" 2>&1 &
        echo $! >"$dir/pids/slurmd-$node"
    done
}

# A process that has not exited (a zombie has). While it still execs its
# way through nsenter, unshare, env and node.sh its name is not the daemon's.
running() { [[ -r /proc/$1/stat ]] && [[ $(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) != Z ]]; }

# The daemons that exited already, as "NAME (its log)" words.
dead_daemons() {
    local dir=$PMIXPP_SLURM_DIR node
    running "$(cat "$dir/pids/slurmctld")" || echo "slurmctld ($dir/ctld/stdout)"
    for node in $(pmixpp_slurm_nodes); do
        running "$(cat "$dir/pids/slurmd-$node")" || echo "slurmd-$node ($dir/nodes/$node/stdout)"
    done
}

# All six nodes idle within 30 s, or say which did not and show their logs.
wait_for_nodes() {
    local dir=$PMIXPP_SLURM_DIR tries states node dead
    for (( tries = 0; tries < 150; tries++ )); do
        states=$(in_host 0 sinfo -h -N -o '%N %t' 2>/dev/null | sort -u || true)
        if [[ -n $states ]] && ! grep -qv ' idle$' <<<"$states" &&
            [[ $(wc -l <<<"$states") -eq $(pmixpp_slurm_nodes | wc -l) ]]; then
            return 0
        fi
        # A daemon that exited will not come back: say so now.
        dead=$(dead_daemons)
        [[ -z $dead ]] || break
        sleep 0.2
    done
    [[ -z $dead ]] || pmixpp_slurm_log "these daemons exited: $(echo $dead)"
    pmixpp_slurm_log "nodes not idle after $((tries / 5)) s; sinfo says:"
    in_host 0 sinfo -N >&2 || true
    pmixpp_slurm_log "slurmctld log ($dir/ctld/slurmctld.log):"
    tail -n 20 "$dir/ctld/slurmctld.log" "$dir/ctld/stdout" >&2 2>/dev/null || true
    for node in $(pmixpp_slurm_nodes); do
        if ! grep -q "^$node idle$" <<<"$states"; then
            pmixpp_slurm_log "slurmd of $node did not register; its log:"
            tail -n 20 "$dir/nodes/$node/slurmd.log" "$dir/nodes/$node/stdout" >&2 2>/dev/null || true
        fi
    done
    pmixpp_slurm_die "slurmd did not register (see the logs above)"
}

# Each slurmd sees the library it should at the path Slurm's plugin loads.
check_libraries() {
    local dir=$PMIXPP_SLURM_DIR node pid seen want
    local ours openpmix
    ours=$(file_id "$PMIXPP_SLURM_OURS_LIB")
    openpmix=$(file_id "$PMIXPP_SLURM_OPENPMIX_LINK")
    for node in $(pmixpp_slurm_nodes); do
        pid=$(cat "$dir/pids/slurmd-$node")
        seen=$(nsenter --target "$pid" --mount -- stat -L -c '%Hd:%Ld:%i' "$PMIXPP_SLURM_OPENPMIX_LINK")
        want=$openpmix
        [[ $node == ours-* ]] && want=$ours
        [[ $seen == "$want" ]] ||
            pmixpp_slurm_die "slurmd of $node sees $PMIXPP_SLURM_OPENPMIX_LINK as file $seen, expected $want"
        printf 'PMIXPP_SLURM_FILE_%s=%s\n' "${node//-/_}" "$seen" >>"$STATE"
    done
    pmixpp_slurm_log "libpmix seen by the slurmds: ours-* $ours (our $PMIXPP_SLURM_OURS_LIB), ompi-* $openpmix (OpenPMIx)"
}

cmd_up() {
    STATE=$1
    local library=$2
    check_prerequisites
    [[ -f $library ]] || pmixpp_slurm_die "our library '$library' does not exist: build it first (cmake --build build --target pmix)"
    if [[ -e $STATE ]]; then
        pmixpp_slurm_log "a cluster of an earlier run is recorded in $STATE: stopping it first"
        "$0" down "$STATE" || true
    fi
    local started=$SECONDS
    PMIXPP_SLURM_DIR=$(mktemp -d /tmp/pmixpp-slurm.XXXXXX)
    PMIXPP_SLURM_PREFIX="pmxsl$$-"
    PMIXPP_SLURM_OURS_LIB=$(readlink -f "$library")
    {
        printf 'PMIXPP_SLURM_DIR=%q\n' "$PMIXPP_SLURM_DIR"
        printf 'PMIXPP_SLURM_PREFIX=%q\n' "$PMIXPP_SLURM_PREFIX"
        printf 'PMIXPP_SLURM_OURS_LIB=%q\n' "$PMIXPP_SLURM_OURS_LIB"
        printf 'PMIXPP_SLURM_SCRIPT=%q\n' "$here/cluster.sh"
    } >"$STATE"
    trap 'if (( $? != 0 )); then pmixpp_slurm_log "start-up failed: stopping what was started"; "$0" down "$STATE" || true; fi' EXIT
    # Killed half-way (ctest's timeout, ^C, a closed pipe): stop it all the same.
    trap 'trap - EXIT; "$0" down "$STATE" >/dev/null 2>&1 || true; exit 1' INT TERM HUP PIPE

    local nhosts=$(( $(pmixpp_slurm_nodes | wc -l) + 1 ))
    "$PMIXPP_SLURM_MULTIHOST/setup.sh" "$PMIXPP_SLURM_PREFIX" "$nhosts" "$PMIXPP_SLURM_SUBNET" >/dev/null
    nsenter --uts="$(uts_of 0)" hostname head
    local node
    for node in $(pmixpp_slurm_nodes); do
        nsenter --uts="$(uts_of "$(pmixpp_slurm_host_index "$node")")" hostname "$(pmixpp_slurm_hostname_of "$node")"
    done
    write_config "$PMIXPP_SLURM_DIR"
    make_container
    start_daemons
    wait_for_nodes
    check_libraries
    pmixpp_slurm_log "cluster up in $((SECONDS - started)) s: $PMIXPP_SLURM_DIR (namespaces ${PMIXPP_SLURM_PREFIX}*)"
}

stop_pid() { # PIDFILE COMMAND
    local pid
    [[ -r $1 ]] || return 0
    pid=$(cat "$1")
    pid_alive_as "$pid" "$2" && kill -TERM "$pid" 2>/dev/null || true
}

cmd_down() {
    STATE=$1
    [[ -e $STATE ]] || return 0
    # shellcheck disable=SC1090
    source "$STATE"
    local dir=${PMIXPP_SLURM_DIR:-}
    if [[ -n $dir && -d $dir/pids ]]; then
        local file tries pid
        for file in "$dir"/pids/slurmd-*; do stop_pid "$file" slurmd; done
        stop_pid "$dir/pids/slurmctld" slurmctld
        for (( tries = 0; tries < 50; tries++ )); do
            local alive=0
            for file in "$dir"/pids/*; do
                [[ -r $file ]] || continue
                pid=$(cat "$file")
                if pid_alive_as "$pid" slurmd || pid_alive_as "$pid" slurmctld; then alive=1; fi
            done
            (( alive )) || break
            sleep 0.1
        done
    fi
    if [[ -n ${PMIXPP_SLURM_PREFIX:-} ]]; then
        "$PMIXPP_SLURM_MULTIHOST/teardown.sh" "$PMIXPP_SLURM_PREFIX" || true
    fi
    if [[ -n $dir && -d $dir && $dir == /tmp/pmixpp-slurm.* ]]; then
        if [[ -n ${PMIXPP_SLURM_KEEP_LOGS:-} ]]; then
            local keep=$PMIXPP_SLURM_KEEP_LOGS/last
            rm -rf "$keep" && mkdir -p "$keep"
            (cd "$dir" && find . -name '*.log' -o -name stdout -o -name slurm.conf) |
                (cd "$dir" && xargs -r cp --parents -t "$keep") || true
        fi
        rm -rf "$dir"
    fi
    rm -f "$STATE"
}

cmd_head() {
    pmixpp_slurm_load_state "$1"
    shift
    in_host 0 "$@"
}

cmd_node() {
    pmixpp_slurm_load_state "$1"
    local node=$2 pid
    shift 2
    pid=$(cat "$PMIXPP_SLURM_DIR/pids/slurmd-$node" 2>/dev/null) || pmixpp_slurm_die "no node '$node' in this cluster"
    nsenter --target "$pid" --net --uts --mount -- $(pmixpp_slurm_clean_env) "$@"
}

(( $# >= 2 )) || usage
command=$1
shift
case $command in
    up) (( $# == 2 )) || usage; cmd_up "$@" ;;
    down) cmd_down "$1" ;;
    srun)
        # "--as USER" runs srun as that user (a site's jobs are not root's);
        # leading VAR=VALUE words go into srun's environment (and so the tasks').
        state=$1; shift
        as_user=()
        if [[ ${1:-} == --as ]]; then
            as_user=(runuser -u "$2" --)
            shift 2
        fi
        assignments=()
        while (( $# )) && [[ $1 =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do assignments+=("$1"); shift; done
        cmd_head "$state" "${as_user[@]}" env "${assignments[@]}" /usr/bin/srun "$@" ;;
    head) cmd_head "$@" ;;
    node) (( $# >= 3 )) || usage; cmd_node "$@" ;;
    *) usage ;;
esac
