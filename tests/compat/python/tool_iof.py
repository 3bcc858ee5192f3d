#!/usr/bin/python3
# python3-pmix as a tool that forwards I/O, on our libpmix.so.2. Run as
# `pmixrun --stdin 1 --stdin-tool -n 2 /usr/bin/python3 tool_iof.py`:
#   rank 1 writes "py-out I" (I < 5) to stdout, then echoes its stdin as
#          "stdin [TEXT]" once the stdin ends;
#   rank 0 starts this script again as a tool (the job's variables dropped)
#          that connects to pmixrun by its URI, pulls rank 1's stdout
#          (PMIxTool.iof_pull), pushes "py-push\n" to rank 1's stdin with
#          PMIX_IOF_COMPLETE (iof_push), sees the echo come back, and
#          deregisters the pull. One line "tool: ..." per step, "FAILED: ..."
#          for a wrong answer; exit 0 only when every step passed.
# Two bugs of the bindings (on OpenPMIx 4.2.2 too) are worked around: iof_push
# sends sizeof(a Python object pointer) = 8 bytes of the string whatever its
# length, so the pushed text is exactly 8 bytes long; iof_deregister raises
# TypeError after its PMIx_IOF_deregister call.
import os
import subprocess
import sys
import time

from compat_common import info, mapped_libpmix, pmix

PUSHED = "py-push\n"  # 8 bytes: see above
LINES = 5
SERVER_URI = "pmix.srvr.uri"
IOF_COMPLETE = "pmix.iof.cmp"
FWD_STDOUT = 0x02  # PMIX_FWD_STDOUT_CHANNEL


def writer():
    for i in range(LINES):
        print(f"py-out {i}", flush=True)
    text = sys.stdin.read()
    print(f"stdin [{text}]", flush=True)
    return 0


def wait_for(predicate, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def tool(uri, nspace):
    failures = []

    def check(what, ok, detail):
        print(f"tool: {what}: {detail}", flush=True)
        if not ok:
            failures.append(what)
            print(f"FAILED: {what}", flush=True)

    received = []

    def on_output(refid, channel, source, payload, pyinfo):
        received.append(payload.get("bytes", b"").decode("ascii", "replace"))

    t = pmix.PMIxTool()
    rc, me = t.init([info(SERVER_URI, uri, pmix.PMIX_STRING)])
    check("init", rc == 0, rc)
    print(f"tool libpmix {mapped_libpmix()}", flush=True)
    if rc != 0:
        return 1
    writer_proc = {"nspace": nspace, "rank": 1}
    rc, ref = t.iof_pull([writer_proc], FWD_STDOUT, [], on_output)
    check("iof_pull", rc == 0 and ref >= 0, (rc, ref))
    wanted = "".join(f"py-out {i}\n" for i in range(LINES))
    check("pulled", wait_for(lambda: wanted in "".join(received)), "".join(received).strip().replace("\n", "|"))
    rc = t.iof_push([writer_proc], {"bytes": PUSHED}, [info(IOF_COMPLETE, True, pmix.PMIX_BOOL)])
    check("iof_push", rc == 0, rc)
    echo = f"stdin [{PUSHED}]"
    check("stdin delivered", wait_for(lambda: echo in "".join(received)), "".join(received).strip().replace("\n", "|"))
    try:
        rc = t.iof_deregister(ref, [])
        check("iof_deregister", rc == 0, rc)
    except TypeError as err:
        # The bindings call PMIx_IOF_deregister, then fail in their own
        # bookkeeping ("for h in myhdlrs and not found"), on OpenPMIx too.
        print(f"tool: iof_deregister: called; the bindings then raise {err!r}", flush=True)
    t.finalize()
    if not failures:
        print("tool: all steps passed", flush=True)
    return 1 if failures else 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--tool":
        return tool(sys.argv[2], sys.argv[3])
    rank = os.environ.get("PMIX_RANK")
    nspace = os.environ.get("PMIX_NAMESPACE")
    if rank is None or nspace is None:
        print("FAILED: not started by pmixrun", flush=True)
        return 2
    if rank != "0":
        return writer()
    line = os.environ.get("PMIX_SERVER_URI41", "")
    uri = line.split(";", 1)[1] if ";" in line else ""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PMIX_NAMESPACE", "PMIX_RANK") and not k.startswith("PMIX_SERVER_URI")}
    return subprocess.call([sys.executable, os.path.abspath(__file__), "--tool", uri, nspace], env=env)


if __name__ == "__main__":
    sys.exit(main())
