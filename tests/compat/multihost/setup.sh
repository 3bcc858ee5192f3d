#!/bin/bash
# Make N test hosts out of Linux namespaces on this machine:
#
#   PREFIXn0 (10.251.0.1)   PREFIXn1 (10.251.0.2)   ...   each: netns + UTS ns
#        eth0                    eth0                       hostname = its name
#         |                       |                         /etc/netns/<name>/hosts
#       veth0 ------ br0 ------ veth1 ...   (in netns PREFIXbr)
#
# Usage: setup.sh PREFIX [NHOSTS=3] [SUBNET=10.251.0]
# The bridge lives in a namespace of its own, so nothing in the root
# namespace changes and two runs with the same subnet cannot see each other.
# On any failure everything made so far is torn down again.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib.sh"

prefix=${1:?usage: setup.sh PREFIX [NHOSTS] [SUBNET]}
nhosts=${2:-3}
subnet=${3:-10.251.0}
pmixpp_mh_check_prefix "$prefix"
pmixpp_mh_require_root
if (( nhosts < 1 || nhosts > 200 )); then
    echo "multihost: NHOSTS must be 1..200, got $nhosts" >&2
    exit 2
fi

if [[ -e /run/netns/$(pmixpp_mh_bridge_ns "$prefix") ]]; then
    echo "multihost: hosts with prefix $prefix exist already; run teardown.sh $prefix first" >&2
    exit 1
fi

done_ok=0
cleanup_on_failure() {
    if (( ! done_ok )); then
        echo "multihost: setup of $prefix failed; tearing down" >&2
        "$here/teardown.sh" "$prefix" || true
    fi
}
trap cleanup_on_failure EXIT

bridge_ns=$(pmixpp_mh_bridge_ns "$prefix")
ip netns add "$bridge_ns"
ip -n "$bridge_ns" link set lo up
ip -n "$bridge_ns" link add br0 type bridge
ip -n "$bridge_ns" link set br0 up

mkdir -p "$PMIXPP_MH_UTS_DIR"
hosts_file=$(mktemp)
trap 'rm -f "$hosts_file"; cleanup_on_failure' EXIT
printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$hosts_file"
for (( i = 0; i < nhosts; i++ )); do
    printf '%s.%d\t%s\n' "$subnet" $((i + 1)) "$(pmixpp_mh_host "$prefix" $i)" >>"$hosts_file"
done

for (( i = 0; i < nhosts; i++ )); do
    host=$(pmixpp_mh_host "$prefix" $i)
    ip netns add "$host"
    ip -n "$host" link set lo up
    # Both ends are made inside the bridge namespace and the peer moved to the
    # host: interface names only need to be unique per namespace.
    ip -n "$bridge_ns" link add "veth$i" type veth peer name eth0 netns "$host"
    ip -n "$bridge_ns" link set "veth$i" master br0 up
    ip -n "$host" addr add "$subnet.$((i + 1))/24" dev eth0
    ip -n "$host" link set eth0 up

    # A persistent UTS namespace with the host's own name (unshare binds it to
    # the file; nsenter --uts=FILE enters it).
    uts="$PMIXPP_MH_UTS_DIR/$host"
    : >"$uts"
    unshare --uts="$uts" hostname "$host"

    # ip netns exec bind-mounts /etc/netns/<name>/* over /etc/*: each host
    # resolves every host of its run from files, and an empty resolv.conf
    # (nameserver 127.0.0.1, refused at once) keeps lookups from waiting on DNS.
    mkdir -p "/etc/netns/$host"
    cp "$hosts_file" "/etc/netns/$host/hosts"
    : >"/etc/netns/$host/resolv.conf"
done

# Every host reaches every other over the bridge (bash /dev/tcp needs no
# ping): "connection refused" from port 9 proves the path, a timeout or
# "no route" does not.
for (( i = 1; i < nhosts; i++ )); do
    answer=$(ip netns exec "$(pmixpp_mh_host "$prefix" 0)" timeout 5 \
        bash -c "exec 3<>/dev/tcp/$subnet.$((i + 1))/9" 2>&1 || true)
    if [[ $answer != *refused* ]]; then
        echo "multihost: $(pmixpp_mh_host "$prefix" 0) cannot reach $subnet.$((i + 1)): ${answer:-timeout}" >&2
        exit 1
    fi
done

done_ok=1
echo "multihost: $nhosts hosts up: $(for (( i = 0; i < nhosts; i++ )); do printf '%s=%s.%d ' "$(pmixpp_mh_host "$prefix" $i)" "$subnet" $((i + 1)); done)"
