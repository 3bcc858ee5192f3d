#!/usr/bin/env python3
"""Regenerate the constant blocks of the public headers from the ABI facts.

The headers in include/ are ordinary checked-in files. Only the text between
    /* @generated-begin <block> */   and   /* @generated-end <block> */
is owned by this script; everything else is written by hand. Run it after the
reference data in tests/abi/data/ changes:

    python3 cmake/abi/gen_header_constants.py            # rewrite in place
    python3 cmake/abi/gen_header_constants.py --check    # fail if out of date

Values come from the data files; headings and grouping are ours (below).
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "abi" / "data"
INCLUDE = ROOT / "include"

# --- grouping: (first constant of a group, heading, lines placed before it, hex?)

NUMBER_GROUPS = [
    ("PMIX_MAX_NSLEN", "Name lengths", [], False),
    ("PMIX_RANK_UNDEF", "Process ranks", ["typedef uint32_t pmix_rank_t;"], False),
    ("PMIX_PROC_STATE_UNDEF", "Process states", ["typedef uint8_t pmix_proc_state_t;"], False),
    ("PMIX_JOB_STATE_UNDEF", "Job states", ["typedef uint8_t pmix_job_state_t;"], False),
    ("PMIX_SUCCESS", "Status codes", ["typedef int pmix_status_t;"], False),
    ("PMIX_PROCESS_SET_DEFINE", "Event codes", [], False),
    ("PMIX_ERR_JOB_APP_NOT_EXECUTABLE", "Why a job ended", [], False),
    ("PMIX_EVENT_JOB_START", "Job and session events", [], False),
    ("PMIX_ERR_PROC_REQUESTED_ABORT", "Why a process ended", [], False),
    ("PMIX_EVENT_SYS_BASE", "System events", [], False),
    ("PMIX_EVENT_NO_ACTION_TAKEN", "What an event handler did", [], False),
    ("PMIX_EXTERNAL_ERR_BASE", "Codes below this one belong to the host", [], False),
    ("PMIX_UNDEF", "Data types", ["typedef uint16_t pmix_data_type_t;"], False),
    ("PMIX_SCOPE_UNDEF", "Scope of data put by a process", ["typedef uint8_t pmix_scope_t;"], False),
    ("PMIX_RANGE_UNDEF", "Ranges of published data and events", ["typedef uint8_t pmix_data_range_t;"], False),
    ("PMIX_PERSIST_INDEF", "Persistence of published data", ["typedef uint8_t pmix_persistence_t;"], False),
    ("PMIX_INFO_REQD", "Flags of a pmix_info_t", ["typedef uint32_t pmix_info_directives_t;"], True),
    ("PMIX_ALLOC_NEW", "Allocation requests", ["typedef uint8_t pmix_alloc_directive_t;"], False),
    ("PMIX_FWD_NO_CHANNELS", "I/O forwarding channels", ["typedef uint16_t pmix_iof_channel_t;"], True),
    ("PMIX_STORAGE_MEDIUM_UNKNOWN", "Storage media", ["typedef uint64_t pmix_storage_medium_t;"], True),
    ("PMIX_STORAGE_ACCESSIBILITY_NODE", "Storage accessibility",
     ["typedef uint64_t pmix_storage_accessibility_t;"], True),
    ("PMIX_STORAGE_PERSISTENCE_TEMPORARY", "Storage persistence",
     ["typedef uint64_t pmix_storage_persistence_t;"], True),
    ("PMIX_STORAGE_ACCESS_RD", "Storage access modes", ["typedef uint16_t pmix_storage_access_type_t;"], True),
    ("PMIX_COORD_VIEW_UNDEF", "Coordinate views", ["typedef uint8_t pmix_coord_view_t;"], False),
    ("PMIX_LINK_STATE_UNKNOWN", "Link states", ["typedef uint8_t pmix_link_state_t;"], False),
    ("PMIX_CPUBIND_PROCESS", "Binding envelopes", ["typedef uint8_t pmix_bind_envelope_t;"], False),
    ("PMIX_LOCALITY_UNKNOWN", "Relative locality", ["typedef uint16_t pmix_locality_t;"], True),
    ("PMIX_DEVTYPE_UNKNOWN", "Device types", ["typedef uint64_t pmix_device_type_t;"], True),
    # pmix_deprecated.h
    ("PMIX_BUFFER", "Retired data types", [], False),
    ("PMIX_ERR_SILENT", "Retired status and event codes", [], False),
    ("PMIX_JOB_STATE_PREPPED", "Retired job states", [], False),
    # additions newer than 4.2
    ("PMIX_ERR_NOT_A_MEMBER", "Status and event codes", [], False),
    ("PMIX_DEVICE", "Data types", [], False),
    ("PMIX_DEL_LOCAL", "Scopes for deleting data", [], False),
    ("PMIX_ALLOC_REQ_CANCEL", "Allocation requests", [], False),
    ("PMIX_ALLOC_INHERIT_NONE", "Inheritance of an allocation", [], False),
    ("PMIX_RESOURCE_BLOCK_DEFINE", "Resource block directives", [], False),
]

STRING_GROUPS = [
    ("PMIX_LAUNCHER_RNDZ_URI", "Environment variables for launcher rendezvous"),
    ("PMIX_ATTR_UNDEF", "The undefined attribute"),
    ("PMIX_EXTERNAL_PROGRESS", "Initialization of servers, clients and tools"),
    ("PMIX_USERID", "Who is asking"),
    ("PMIX_PSET_NAME", "Process sets"),
    ("PMIX_PROGRAMMING_MODEL", "Programming models"),
    ("PMIX_TCP_REPORT_URI", "TCP transport"),
    ("PMIX_CPUSET", "Binding, credentials and placement"),
    ("PMIX_TMPDIR", "Temporary directories"),
    ("PMIX_CLUSTER_ID", "Identity of a process"),
    ("PMIX_SESSION_ID", "Sessions, nodes and job sizes"),
    ("PMIX_AVAIL_PHYS_MEMORY", "Memory and topology"),
    ("PMIX_COLLECT_DATA", "Directives for operations"),
    ("PMIX_NODE_MAP", "Process and node maps"),
    ("PMIX_EVENT_HDLR_NAME", "Events"),
    ("PMIX_PERSONALITY", "Spawn directives"),
    ("PMIX_QUERY_SUPPORTED_KEYS", "Queries"),
    ("PMIX_SESSION_INFO", "Levels of information"),
    ("PMIX_LOG_SOURCE", "Logging"),
    ("PMIX_DEBUG_STOP_ON_EXEC", "Debuggers"),
    ("PMIX_RM_NAME", "Resource manager"),
    ("PMIX_SET_ENVAR", "Environment changes"),
    ("PMIX_ALLOC_REQ_ID", "Allocations"),
    ("PMIX_JOB_CTRL_ID", "Job control"),
    ("PMIX_REGISTER_CLEANUP", "Cleanup on termination"),
    ("PMIX_MONITOR_ID", "Monitoring"),
    ("PMIX_CRED_TYPE", "Security"),
    ("PMIX_IOF_CACHE_SIZE", "I/O forwarding"),
    ("PMIX_SETUP_APP_ENVARS", "Application setup"),
    ("PMIX_GROUP_ID", "Groups"),
    ("PMIX_QUERY_STORAGE_LIST", "Storage"),
    ("PMIX_FABRIC_COST_MATRIX", "Fabrics"),
    ("PMIX_FABRIC_DEVICE", "Fabric devices"),
    ("PMIX_DEVICE_DISTANCES", "Device distances"),
    ("PMIX_MAX_VALUE", "Describing attributes"),
    ("PMIX_QUERY_STABLE_ABI_VERSION", "ABI versions"),
    # pmix_deprecated.h
    ("PMIX_EVENT_BASE", "Retired initialization attributes"),
    ("PMIX_USOCK_DISABLE", "Retired rendezvous options"),
    ("PMIX_ALLOC_NETWORK", "Retired fabric allocation attributes"),
    ("PMIX_PROC_DATA", "Retired job data attributes"),
    ("PMIX_LOCAL_TOPO", "Retired topology attributes"),
    ("PMIX_DSTPATH", "Retired internal attributes"),
    ("PMIX_DEBUG_JOB_DIRECTIVES", "Retired debugger and event attributes"),
    ("PMIX_TAG_OUTPUT", "Retired output attributes"),
    ("PMIX_GDS_MODULE", "Retired module selection attributes"),
    ("PMIX_IOF_STOP", "Retired I/O and launch attributes"),
    # additions newer than 4.2
    ("PMIX_PROGRESS_THREAD_FLUSH", "Progress thread and connections"),
    ("PMIX_REALUID", "Who is asking"),
    ("PMIX_SPAWN_TREE_ROOT", "Spawn trees, topology and events"),
    ("PMIX_DISPLAY_PROCESSORS", "Spawn directives"),
    ("PMIX_QUERY_ALLOCATION", "Queries"),
    ("PMIX_RESOURCE_BLOCK_NAME", "Allocations"),
    ("PMIX_JOB_CTRL_DEFINE_PSET", "Job control"),
    ("PMIX_SESSION_CTRL_ID", "Session control"),
    ("PMIX_MONITOR_PROXY", "Resource monitoring"),
    ("PMIX_PROC_RESOURCE_USAGE", "Process resource usage"),
    ("PMIX_DISK_RESOURCE_USAGE", "Disk usage"),
    ("PMIX_NETWORK_RESOURCE_USAGE", "Network usage"),
    ("PMIX_NODE_RESOURCE_USAGE", "Node usage"),
    ("PMIX_IOF_INHERIT", "I/O forwarding"),
    ("PMIX_GROUP_INFO_ARRAY", "Groups"),
    ("PMIX_VERSION_NUMERIC", "Versions"),
]

# Constants written by hand (needed before the generated blocks).
HAND_WRITTEN = {"PMIX_HAVE_VISIBILITY"}

# Values that read better as the limit they are derived from.
EXPRESSIONS = {
    "PMIX_RANK_UNDEF": "UINT32_MAX",
    "PMIX_RANK_WILDCARD": "(UINT32_MAX - 1)",
    "PMIX_RANK_LOCAL_NODE": "(UINT32_MAX - 2)",
    "PMIX_RANK_INVALID": "(UINT32_MAX - 3)",
    "PMIX_RANK_LOCAL_PEERS": "(UINT32_MAX - 4)",
    "PMIX_RANK_VALID": "(UINT32_MAX - 50)",
    "PMIX_APP_WILDCARD": "UINT32_MAX",
    "PMIX_RANGE_INVALID": "UINT8_MAX",
    "PMIX_PERSIST_INVALID": "UINT8_MAX",
    "PMIX_INFO_DIR_RESERVED": "0xffff0000U",
}


def read_tsv(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            fields = line.rstrip("\n").split("\t")
            fields += [""] * (len(header) - len(fields))
            rows.append(dict(zip(header, fields)))
    return rows


def abi_table_numbers():
    """Integer constants of the ABI table, in table order: (name, value, header)."""
    pattern = re.compile(r"^  (PMIX_\w+)\s+= (-?\d+) \(0x[0-9a-f]+\)\s+\[(\S+)\]$")
    out = []
    for line in (DATA / "openpmix-4.2.2-abi-table.txt").read_text().splitlines():
        m = pattern.match(line)
        if m:
            out.append((m.group(1), int(m.group(2)), m.group(3)))
    return out


def format_number(name, value, as_hex):
    if name in EXPRESSIONS:
        return EXPRESSIONS[name]
    if value < 0:
        return f"({value})"
    if as_hex:
        return f"0x{value:04x}" if value > 0xff else f"0x{value:02x}"
    return str(value)


def emit_define(name, text, comment=""):
    line = f"#define {name:<40} {text}"
    if comment:
        line = f"{line:<80} /* {comment} */"
    return line.rstrip()


def number_block(entries):
    """entries: list of (name, value); returns lines grouped by NUMBER_GROUPS."""
    groups = {first: (heading, pre, as_hex) for first, heading, pre, as_hex in NUMBER_GROUPS}
    lines, as_hex = [], False
    for name, value in entries:
        if name in groups:
            heading, pre, as_hex = groups[name]
            if lines:
                lines.append("")
            lines.append(f"/* {heading} */")
            lines.extend(pre)
        elif not lines:
            sys.exit(f"no heading for the first constant {name}")
        lines.append(emit_define(name, format_number(name, value, as_hex)))
    return lines


def string_block(rows):
    groups = dict(STRING_GROUPS)
    lines = []
    for row in rows:
        name = row["name"]
        if name in groups:
            if lines:
                lines.append("")
            lines.append(f"/* {groups[name]} */")
        elif not lines:
            sys.exit(f"no heading for the first attribute {name}")
        value_type = row.get("value_type", "").strip()
        lines.append(emit_define(name, f'"{row["value"]}"', value_type))
    return lines


def build_blocks():
    numbers = [(n, v, h) for n, v, h in abi_table_numbers() if n not in HAND_WRITTEN]
    v42 = read_tsv(DATA / "pmix-v4.2-constants.tsv")
    additions = read_tsv(DATA / "pmix-master-additions.tsv")
    strings = [r for r in v42 if r["kind"] == "string"]

    def nums_of(header):
        return [(n, v) for n, v, h in numbers if h == header]

    def strs_of(header):
        return [r for r in strings if r["header"] == header]

    return {
        ("pmix_common.h", "numbers"): number_block(nums_of("pmix_common.h")),
        ("pmix_common.h", "attributes"): string_block(strs_of("pmix_common.h")),
        ("pmix_common.h", "additions-numbers"): number_block(
            [(r["name"], int(r["value"])) for r in additions if r["kind"] == "number"]),
        ("pmix_common.h", "additions-attributes"): string_block(
            [r for r in additions if r["kind"] == "string"]),
        ("pmix_deprecated.h", "numbers"): number_block(nums_of("pmix_deprecated.h")),
        ("pmix_deprecated.h", "attributes"): string_block(strs_of("pmix_deprecated.h")),
    }


def splice(text, block, lines, path):
    begin = f"/* @generated-begin {block} */"
    end = f"/* @generated-end {block} */"
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        sys.exit(f"{path}: markers for block '{block}' not found")
    head = text[:start + len(begin)]
    return head + "\n" + "\n".join(lines) + "\n" + text[stop:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale headers")
    args = parser.parse_args()
    stale = []
    by_file = {}
    for (fname, block), lines in build_blocks().items():
        by_file.setdefault(fname, []).append((block, lines))
    for fname, blocks in by_file.items():
        path = INCLUDE / fname
        old = path.read_text()
        new = old
        for block, lines in blocks:
            new = splice(new, block, lines, path)
        if new != old:
            stale.append(fname)
            if not args.check:
                path.write_text(new)
    if args.check and stale:
        sys.exit("out of date: " + ", ".join(stale))
    return 0


if __name__ == "__main__":
    sys.exit(main())
