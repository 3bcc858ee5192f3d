#!/usr/bin/python3
# More of python3-pmix's client calls on our libpmix.so.2, run as
# `pmixrun -n 1 /usr/bin/python3 calls.py`: string converters, job data,
# peers and nodes, query, publish/lookup/unpublish, log, connect and
# disconnect, an allocation request, the process's cpuset, a process
# monitor, fabric registration (pmixrun knows no fabric: declined with
# PMIX_ERR_NOT_AVAILABLE), a group of one constructed and destructed, and
# one by invitation (a join without an invitation is refused).
# One line "call: result" each; "FAILED: ..." for a wrong answer; exit 0
# only when every check passed. Left out, because the bindings themselves
# break on them (on OpenPMIx 4.2.2 too): store_internal (frees a value on
# the stack: abort), spawn (overwrites argv[0] with "hostname"), and a
# fabric description holding PMIX_LINK_STATE or PMIX_GEOMETRY values
# (pnet/simfabric's: the bindings' unload knows neither type and corrupts
# the heap).
import os
import socket
import sys

from compat_common import info, mapped_libpmix, pmix

# Not exported by the bindings (pmix_common.h's value).
PMIX_ERR_NOT_AVAILABLE = -64


def cpu_list(cpus):
    """hwloc's list notation of a set of cpu numbers: "0-3,8"."""
    ranges = []
    for cpu in sorted(cpus):
        if ranges and ranges[-1][1] == cpu - 1:
            ranges[-1][1] = cpu
        else:
            ranges.append([cpu, cpu])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)


def main():
    failures = 0

    def check(name, ok, result):
        nonlocal failures
        print(("" if ok else "FAILED: ") + f"{name}: {result}", flush=True)
        if not ok:
            failures += 1

    c = pmix.PMIxClient()
    rc, me = c.init([])
    if rc != pmix.PMIX_SUCCESS:
        print(f"FAILED: init: {rc}", flush=True)
        return 1
    ns = me["nspace"]
    print(f"libpmix {mapped_libpmix()}", flush=True)
    check("initialized", c.initialized() == 1, c.initialized())
    version = c.get_version()
    check("get_version", version[:1] > b"2", version)

    # (binding, argument): one constant of each kind
    for fn, arg in [("error_string", pmix.PMIX_ERR_NOT_FOUND), ("proc_state_string", 4),
                    ("scope_string", pmix.PMIX_GLOBAL), ("persistence_string", 2),
                    ("data_range_string", 4), ("info_directives_string", 1),
                    ("data_type_string", pmix.PMIX_STRING), ("alloc_directive_string", 1),
                    ("iof_channel_string", 2), ("job_state_string", 1),
                    ("link_state_string", 1), ("device_type_string", 1)]:
        text = getattr(c, fn)(arg)
        check(fn, isinstance(text, str) and text != "", text)
    check("data_type_string", c.data_type_string(pmix.PMIX_STRING) == "PMIX_STRING",
          c.data_type_string(pmix.PMIX_STRING))
    check("get_attribute_string", c.get_attribute_string("PMIX_JOB_SIZE") == "pmix.job.size",
          c.get_attribute_string("PMIX_JOB_SIZE"))
    check("get_attribute_name", c.get_attribute_name("pmix.job.size") == "PMIX_JOB_SIZE",
          c.get_attribute_name("pmix.job.size"))

    host = socket.gethostname()
    rc, val = c.get({"nspace": ns, "rank": 0}, pmix.PMIX_HOSTNAME, [])
    check("get hostname", rc == 0 and val["value"] == host, (rc, val))
    rc, val = c.get({"nspace": ns, "rank": pmix.PMIX_RANK_WILDCARD}, pmix.PMIX_LOCAL_PEERS, [])
    check("get local peers", rc == 0 and val["value"] == "0", (rc, val))
    rc, val = c.get({"nspace": ns, "rank": 0}, pmix.PMIX_LOCAL_RANK, [])
    check("get local rank", rc == 0 and val["value"] == 0, (rc, val))
    rc, peers = c.resolve_peers(host, ns)
    check("resolve_peers", rc == 0 and peers == [{"nspace": ns, "rank": 0}], (rc, peers))
    rc, nodes = c.resolve_nodes(ns)
    check("resolve_nodes", rc == 0 and nodes == host, (rc, nodes))
    rc, res = c.query([{"keys": [pmix.PMIX_QUERY_NAMESPACES], "qualifiers": []}])
    check("query namespaces", rc == 0 and any(ns in str(r.get("value")) for r in res), (rc, res))

    rc = c.publish([info("compat.py.pub", "published", pmix.PMIX_STRING)])
    check("publish", rc == 0, rc)
    rc, data = c.lookup([{"key": "compat.py.pub"}], [])
    check("lookup", rc == 0 and data and data[-1].get("value") == "published", (rc, data))
    rc = c.unpublish(["compat.py.pub"], [])
    check("unpublish", rc == 0, rc)
    rc = c.log([info(pmix.PMIX_LOG_STDERR, "calls.py logs a line\n", pmix.PMIX_STRING)], [])
    check("log", rc == 0, rc)

    rc = c.connect([], [])
    check("connect", rc == 0, rc)
    rc = c.disconnect([], [])
    check("disconnect", rc == 0, rc)
    rc, res = c.allocation_request(1, [info(pmix.PMIX_ALLOC_NUM_NODES, 1, pmix.PMIX_UINT64)])
    check("allocation_request", rc == 0, (rc, res))

    # The binding as the kernel has it; the bindings print it with our
    # PMIx_server_generate_cpuset_string ("hwloc:0-1" style).
    rc, cpus = c.get_cpuset(pmix.PMIX_CPUBIND_PROCESS)
    check("get_cpuset", rc == 0 and cpus.get("source") == b"hwloc"
          and cpus.get("cpus") == ["hwloc:" + cpu_list(os.sched_getaffinity(0))], (rc, cpus))

    beat = [info(pmix.PMIX_MONITOR_HEARTBEAT_TIME, 60, pmix.PMIX_UINT32),
            info(pmix.PMIX_MONITOR_ID, "calls.py", pmix.PMIX_STRING)]
    rc, res = c.monitor([info(pmix.PMIX_MONITOR_HEARTBEAT, True, pmix.PMIX_BOOL)], 0, beat)
    check("monitor", rc == 0, (rc, res))
    rc, res = c.monitor([info(pmix.PMIX_MONITOR_CANCEL, "calls.py", pmix.PMIX_STRING)], 0, [])
    check("monitor cancel", rc == 0, (rc, res))
    rc, res = c.monitor([info(pmix.PMIX_MONITOR_CANCEL, "calls.py", pmix.PMIX_STRING)], 0, [])
    check("monitor cancel again", rc == pmix.PMIX_ERR_NOT_FOUND, (rc, res))
    rc, res = c.fabric_register([])
    check("fabric_register", rc == PMIX_ERR_NOT_AVAILABLE and res == [], (rc, res))

    # A group of one: the server completes it (no context id asked).
    rc, res = c.group_construct("compat.py.group", [{"nspace": ns, "rank": 0}], [])
    check("group_construct", rc == 0, (rc, res))
    rc = c.group_destruct("compat.py.group", [])
    check("group_destruct", rc == 0, rc)
    # A group by invitation of nobody else: the inviter leads a group of one
    # at once; a join with no invitation open is refused.
    rc, res = c.group_invite("compat.py.invited", [{"nspace": ns, "rank": 0}], [])
    check("group_invite", rc == 0 and any(r["key"] == "pmix.grp.mbrs" for r in res), (rc, res))
    rc, res = c.group_join("compat.py.none", {"nspace": ns, "rank": 0}, pmix.PMIX_GROUP_ACCEPT, [])
    check("group_join", rc == pmix.PMIX_ERR_NOT_FOUND and res == [], (rc, res))
    rc = c.group_destruct("compat.py.invited", [])
    check("group_destruct invited", rc == 0, rc)

    rc = c.finalize([])
    check("finalize", rc == 0, rc)
    if failures == 0:
        print("all calls passed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
