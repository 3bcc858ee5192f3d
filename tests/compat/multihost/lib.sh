# Shared names for the multi-host test scripts (sourced, not run).
# A run is identified by its PREFIX (e.g. pmxmh1234-): every network
# namespace, UTS namespace file and /etc/netns directory it makes starts
# with it, so parallel runs never collide and teardown deletes only its own.

# Where persistent UTS namespaces are bind-mounted, one file per host.
PMIXPP_MH_UTS_DIR=${PMIXPP_MH_UTS_DIR:-/run/pmixpp-multihost}

pmixpp_mh_check_prefix() {
    if [[ ! $1 =~ ^[a-z][a-z0-9]*-$ ]]; then
        echo "multihost: prefix '$1' must be lower-case letters and digits ending in '-', e.g. pmxmh$$-" >&2
        return 2
    fi
}

pmixpp_mh_require_root() {
    if [[ $(id -u) -ne 0 ]]; then
        echo "multihost: network namespaces need root (CAP_SYS_ADMIN + CAP_NET_ADMIN): run as root, e.g. sudo ctest -L compat" >&2
        return 1
    fi
    local tool
    for tool in ip nsenter unshare; do
        if ! command -v "$tool" >/dev/null; then
            echo "multihost: '$tool' not found: apt-get install iproute2 util-linux" >&2
            return 1
        fi
    done
}

# The host names of a run: PREFIX + n0, n1, ...; each is also the name of
# its network namespace and of its UTS namespace file.
pmixpp_mh_host() { echo "${1}n${2}"; }
pmixpp_mh_bridge_ns() { echo "${1}br"; }
