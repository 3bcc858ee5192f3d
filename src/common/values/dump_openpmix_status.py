#!/usr/bin/env python3
"""Writes data/openpmix-4.2.2-status-strings.tsv: what OpenPMIx's own
PMIx_Error_string returns, taken from the real library (Debian's libpmix2).

    python3 src/common/values/dump_openpmix_status.py [path of libpmix.so.2]
    python3 src/common/values/gen_tables.py

OpenPMIx spells statuses its own way ("NOT-FOUND", "BAD-PARAM") and tools
compare or print those texts, so ours are the same. Every code in a range
far wider than any status is asked, and the value of every numeric constant
of data/*.tsv (PMIX_ERR_WILDCARD is INT32_MIN); the codes OpenPMIx does not
know share one text (UNKNOWN below), which status_strings.cc returns too.
"""
import csv
import ctypes
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data", "openpmix-4.2.2-status-strings.tsv")
DEBIAN = "/usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so.2"
UNKNOWN = "ERROR STRING NOT FOUND"
LOWEST, HIGHEST = -100000, 100000


def constant_values():
    """Every numeric constant of the headers' TSVs that fits a status."""
    values = {-2**31, 2**31 - 1}
    for name in glob.glob(os.path.join(HERE, "data", "pmix-*.tsv")):
        with open(name, newline="") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                if row.get("kind") != "number":
                    continue
                try:
                    value = int(row["value"], 0)
                except ValueError:
                    continue
                if -2**31 <= value < 2**31:
                    values.add(value)
    return values


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else DEBIAN
    lib = ctypes.CDLL(path)
    error_string = lib.PMIx_Error_string
    error_string.restype = ctypes.c_char_p
    error_string.argtypes = [ctypes.c_int]
    rows = []
    codes = sorted(set(range(LOWEST, HIGHEST + 1)) | constant_values())
    for status in codes:
        text = error_string(status).decode("ascii")
        if text == UNKNOWN:
            continue
        if "\t" in text or "\n" in text:
            sys.exit("%d: a text with a tab or newline: %r" % (status, text))
        rows.append((status, text))
    with open(OUT, "w") as f:
        f.write("value\ttext\n")
        for status, text in rows:
            f.write("%d\t%s\n" % (status, text))
    print("%d status texts from %s" % (len(rows), path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
