#!/usr/bin/python3
# A PMIx client written against Debian's python3-pmix (Cython bindings of
# OpenPMIx 4.2.2), run as `pmixrun -n N /usr/bin/python3 client.py`.
# Each rank puts one value, commits, joins a data-collecting fence, reads
# every peer's value back and finalizes. One line per check; exit status 0
# only when every check passed.
import sys

from compat_common import info, mapped_libpmix, pmix

KEY = "compat.py.value"


def get(client, proc, key):
    """PMIx_Get through the bindings: (rc, value). Their get() leaves the
    value unbound when the call fails, so a failure surfaces as an exception."""
    try:
        rc, value = client.get(proc, key, [])
    except NameError as err:  # UnboundLocalError: the get failed
        return f"error ({err})", None
    # The bindings return a value as {'value': v, 'val_type': t}.
    if isinstance(value, dict) and "value" in value:
        value = value["value"]
    return rc, value


def main():
    failures = 0

    def check(ok, line):
        nonlocal failures
        print(("" if ok else "FAILED: ") + line, flush=True)
        if not ok:
            failures += 1

    client = pmix.PMIxClient()
    rc, me = client.init([])
    if rc != pmix.PMIX_SUCCESS:
        print(f"FAILED: PMIx_Init returned {rc} ({client.error_string(rc)})", flush=True)
        return 1
    rank = me["rank"]
    nspace = me["nspace"]
    if isinstance(nspace, bytes):
        nspace = nspace.decode()
    print(f"rank {rank} libpmix {mapped_libpmix()}", flush=True)
    print(f"rank {rank} nspace {nspace}", flush=True)

    wildcard = {"nspace": nspace, "rank": pmix.PMIX_RANK_WILDCARD}
    rc, size = get(client, wildcard, pmix.PMIX_JOB_SIZE)
    check(rc == pmix.PMIX_SUCCESS, f"rank {rank} job size {size} rc {rc}")
    if rc != pmix.PMIX_SUCCESS:
        client.finalize([])
        return 1

    value = f"value-from-{rank}"
    rc = client.put(pmix.PMIX_GLOBAL, KEY, {"value": value, "val_type": pmix.PMIX_STRING})
    check(rc == pmix.PMIX_SUCCESS, f"rank {rank} put rc {rc}")
    rc = client.commit()
    check(rc == pmix.PMIX_SUCCESS, f"rank {rank} commit rc {rc}")
    rc = client.fence([wildcard], [info(pmix.PMIX_COLLECT_DATA, True, pmix.PMIX_BOOL)])
    check(rc == pmix.PMIX_SUCCESS, f"rank {rank} fence rc {rc}")

    for peer in range(size):
        rc, got = get(client, {"nspace": nspace, "rank": peer}, KEY)
        expected = f"value-from-{peer}"
        if rc == pmix.PMIX_SUCCESS and got == expected:
            print(f"rank {rank} got {got} from {peer}", flush=True)
        else:
            check(False, f"rank {rank} get from {peer}: rc {rc} value {got!r}, expected {expected}")

    rc = client.finalize([])
    check(rc == pmix.PMIX_SUCCESS, f"rank {rank} finalize rc {rc}")
    if failures == 0:
        print(f"rank {rank} all checks passed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
