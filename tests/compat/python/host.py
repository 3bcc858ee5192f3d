#!/usr/bin/python3
# A PMIx host written against Debian's python3-pmix (Cython bindings of
# OpenPMIx 4.2.2): PMIxServer init, a namespace with the job data a client
# needs, one registered client, setup_fork, fork/exec of that client, wait,
# deregister, finalize. One line per step; exit status 0 only when every
# step and the client succeeded.
#
#   host.py [--timeout S] [--tmpdir DIR] [client argv...]
#
# The default client is client.py (as a job of one). --tmpdir gives the
# server its own session and system directories (PMIX_SERVER_TMPDIR,
# PMIX_SYSTEM_TMPDIR), so that it can run next to other servers.
import os
import socket
import subprocess
import sys

from compat_common import info, mapped_libpmix, pmix

NSPACE = "pycompat"
HERE = os.path.dirname(os.path.abspath(__file__))


# Upcalls. The bindings call these from the library's progress thread.
def client_connected(proc):
    print(f"host: client connected {proc['nspace']}:{proc['rank']}", flush=True)
    return pmix.PMIX_SUCCESS


def client_finalized(proc):
    print(f"host: client finalized {proc['nspace']}:{proc['rank']}", flush=True)
    return pmix.PMIX_SUCCESS


def fence(args):
    # One node: nothing to exchange with other hosts. The bindings hand the
    # returned bytes back to the library as the other nodes' data.
    print(f"host: fence_nb upcall for {len(args.get('procs', []))} proc(s)", flush=True)
    return pmix.PMIX_SUCCESS, b""


def job_info(server, nprocs, hostname):
    ranks = ",".join(str(r) for r in range(nprocs))
    # The node and process maps, encoded by the library (PMIx_generate_regex,
    # PMIx_generate_ppn); OpenPMIx's clients cannot start without them.
    rc, node_map = server.generate_regex([hostname])
    print(f"host: generate_regex rc {rc} {bytes(node_map).decode(errors='replace')}", flush=True)
    rc, proc_map = server.generate_ppn([ranks])
    print(f"host: generate_ppn rc {rc} {bytes(proc_map).decode(errors='replace')}", flush=True)
    return [
        info(pmix.PMIX_NODE_MAP, node_map, pmix.PMIX_REGEX),
        info(pmix.PMIX_PROC_MAP, proc_map, pmix.PMIX_REGEX),
        info(pmix.PMIX_UNIV_SIZE, nprocs, pmix.PMIX_UINT32),
        info(pmix.PMIX_JOB_SIZE, nprocs, pmix.PMIX_UINT32),
        info(pmix.PMIX_MAX_PROCS, nprocs, pmix.PMIX_UINT32),
        info(pmix.PMIX_LOCAL_SIZE, nprocs, pmix.PMIX_UINT32),
        info(pmix.PMIX_NODE_SIZE, nprocs, pmix.PMIX_UINT32),
        info(pmix.PMIX_LOCAL_PEERS, ranks, pmix.PMIX_STRING),
        info(pmix.PMIX_LOCALLDR, 0, pmix.PMIX_PROC_RANK),
        info(pmix.PMIX_APPNUM, 0, pmix.PMIX_UINT32),
        info(pmix.PMIX_JOBID, NSPACE, pmix.PMIX_STRING),
        info(pmix.PMIX_HOSTNAME, hostname, pmix.PMIX_STRING),
        info(pmix.PMIX_NODEID, 0, pmix.PMIX_UINT32),
    ]


def done(rc):
    # With no callback function the library completes a registration before
    # returning and says so with PMIX_OPERATION_SUCCEEDED (OpenPMIx 4.2.2 does
    # too); the 4.2.2 bindings' deregister_client returns nothing.
    return rc in (pmix.PMIX_SUCCESS, pmix.PMIX_OPERATION_SUCCEEDED, None)


def main(argv):
    timeout = 60
    tmpdir = None
    while len(argv) >= 2 and argv[0] in ("--timeout", "--tmpdir"):
        if argv[0] == "--timeout":
            timeout = int(argv[1])
        else:
            tmpdir = argv[1]
        argv = argv[2:]
    client_argv = argv or [sys.executable, os.path.join(HERE, "client.py")]
    failures = 0

    def check(ok, line):
        nonlocal failures
        print(("host: " if ok else "FAILED: host: ") + line, flush=True)
        if not ok:
            failures += 1
        return ok

    server = pmix.PMIxServer()
    print(f"host: libpmix {mapped_libpmix()}", flush=True)
    print(f"host: version {server.get_version()}", flush=True)
    upcalls = {"clientconnected": client_connected,
               "clientfinalized": client_finalized,
               "fencenb": fence}
    directives = []
    if tmpdir is not None:
        directives = [info(pmix.PMIX_SERVER_TMPDIR, tmpdir, pmix.PMIX_STRING),
                      info(pmix.PMIX_SYSTEM_TMPDIR, tmpdir, pmix.PMIX_STRING)]
    rc = server.init(directives, upcalls)
    if not check(rc == pmix.PMIX_SUCCESS, f"server init rc {rc}"):
        return 1

    hostname = socket.gethostname()
    rc = server.register_nspace(NSPACE, 1, job_info(server, 1, hostname))
    check(done(rc), f"register_nspace rc {rc}")
    proc = {"nspace": NSPACE, "rank": 0}
    rc = server.register_client(proc, os.getuid(), os.getgid())
    check(done(rc), f"register_client rc {rc}")

    env = os.environ.copy()
    rc = server.setup_fork(proc, env)
    check(rc == pmix.PMIX_SUCCESS, f"setup_fork rc {rc}")
    pmix_vars = sorted(k for k in env if k.startswith("PMIX_") and k not in os.environ)
    print(f"host: setup_fork set {' '.join(pmix_vars)}", flush=True)

    if failures == 0:
        child = subprocess.Popen(client_argv, env=env, stdin=subprocess.DEVNULL)
        try:
            code = child.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            code = child.wait()
            check(False, f"client did not end within {timeout} s: killed it")
        check(code == 0, f"client exited with status {code}")

    rc = server.deregister_client(proc)
    check(done(rc), f"deregister_client rc {rc}")
    server.deregister_nspace(NSPACE)
    print("host: deregister_nspace done", flush=True)
    rc = server.finalize()
    check(rc == pmix.PMIX_SUCCESS, f"server finalize rc {rc}")
    if failures == 0:
        print("host: all checks passed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
