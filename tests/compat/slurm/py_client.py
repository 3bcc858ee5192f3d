#!/usr/bin/python3
# The python3-pmix client of ../python (client.py: put, commit, collecting
# fence, get of every peer) run as a Slurm task, followed by the proof of
# which libpmix this process and its slurmstepd map, by device and inode
# (the bind mount gives both OpenPMIx's path): the line format of
# slurm_proof.h.
import os
import socket
import sys

# ../python is tracked, __pycache__ included: import without writing there.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import client  # noqa: E402  (after the path is set)


def mapping_of(pid):
    """(path, "major:minor:inode") of the libpmix pid maps, or ("none", "none")."""
    try:
        with open(f"/proc/{pid}/maps") as maps:
            for line in maps:
                fields = line.split()
                if len(fields) >= 6 and "/libpmix.so" in fields[5]:
                    path = fields[5]
                    try:
                        st = os.stat(f"/proc/{pid}/map_files/{fields[0]}")
                    except OSError:
                        st = os.stat(path)
                    return path, f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}:{st.st_ino}"
    except OSError:
        pass
    return "none", "none"


def parent_name():
    try:
        with open(f"/proc/{os.getppid()}/comm") as comm:
            return comm.read().strip()
    except OSError:
        return "unknown"


def main():
    code = client.main()
    rank = int(os.environ.get("SLURM_PROCID", "-1"))
    own_path, own_file = mapping_of(os.getpid())
    parent_path, parent_file = mapping_of(os.getppid())
    job = os.environ.get("SLURM_JOB_ID", "none")
    print(f"proof python {rank} pid {os.getpid()} host {socket.gethostname()} job {job}: libpmix {own_path} file {own_file}; "
          f"parent {parent_name()} {os.getppid()} libpmix {parent_path} file {parent_file}", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
