#!/usr/bin/env python3
"""Turns the raw records of bench/run.sh into the table (stdout),
bench/RESULTS.md and the data files of the gnuplot chart.

Raw record: "<impl> <gds> <figure> <value>", one per process and run.
Every figure is the median of its records over processes and rounds."""
import argparse
import datetime
import os
import platform
import statistics
import subprocess
from collections import defaultdict

IMPLS = ("openpmix", "pmixpp")


def load(path):
    records = defaultdict(list)
    with open(path) as raw:
        for line in raw:
            parts = line.split()
            if len(parts) == 4:
                records[(parts[0], parts[1], parts[2])].append(float(parts[3]))
    return records


def median(records, impl, figure, gds="default"):
    values = records.get((impl, gds, figure))
    return statistics.median(values) if values else None


def fmt(value, unit):
    if value is None:
        return "n/a"
    if unit == "MiB":
        return f"{value:.1f} MiB"
    if value >= 100000:
        return f"{value / 1000:.0f} ms" if unit == "us" else f"{value:.0f} {unit}"
    if value >= 100:
        return f"{value:.0f} {unit}"
    if value >= 10:
        return f"{value:.1f} {unit}"
    return f"{value:.2f} {unit}"


def ratio(theirs, ours):
    if theirs is None or ours is None or ours <= 0:
        return "n/a"
    return f"{theirs / ours:.1f}x" if theirs / ours >= 10 else f"{theirs / ours:.2f}x"


def build_rows(records, args):
    rows = []  # (label, openpmix text, pmixpp text, ratio text)
    ns = args.ns.split()
    first = ns[0]

    def add(label, figure, unit, gds_pair=("default", "default")):
        theirs = median(records, "openpmix", figure, gds_pair[0])
        ours = median(records, "pmixpp", figure, gds_pair[1])
        rows.append((label, fmt(theirs, unit), fmt(ours, unit), ratio(theirs, ours)))

    add(f"client PMIx_Init, N={first} (median over processes)", f"init_us_n{first}", "us")
    last = ns[-1]
    if last != first:
        add(f"client PMIx_Init, N={last} (oversubscribed)", f"init_us_n{last}", "us")
    for kind, what in (("getjob", "PMIx_Get local job key (PMIX_JOB_SIZE)"),
                       ("getpeer", "PMIx_Get peer modex key after fence")):
        add(f"{what}, median", f"{kind}_med_us_n{first}", "us")
        add(f"{what}, p99", f"{kind}_p99_us_n{first}", "us")
    add("PMIx_Put + PMIx_Commit (8 bytes), median", f"putcommit_med_us_n{first}", "us")
    add("PMIx_Put + PMIx_Commit (8 bytes), p99", f"putcommit_p99_us_n{first}", "us")
    for n in ns:
        add(f"PMIx_Fence, no data, N={n}", f"fence0_med_us_n{n}", "us")
    for n in ns:
        add(f"PMIx_Fence, collect 1 KiB/proc, N={n}", f"fence1k_med_us_n{n}", "us")
    for size in args.reg_sizes.split():
        label = f"register_nspace {int(size):,} procs"
        add(f"{label}: time", f"reg_ms_{size}", "ms")
        add(f"{label}: RSS growth", f"reg_rss_mib_{size}", "MiB")
    pss_pairs = [("default", "default"), ("hash", "hash"), ("ds21,hash", "shmem"), ("ds12,hash", "shmem")]
    for kind in ("pss", "uss"):
        for theirs_gds, ours_gds in pss_pairs:
            theirs = median(records, "openpmix", f"{kind}_kib", theirs_gds)
            ours = median(records, "pmixpp", f"{kind}_kib", ours_gds)
            if theirs is None and ours is None:
                continue
            label = f"{kind.upper()} per client, N={args.mem_n}, gds {theirs_gds} / {ours_gds}"
            to_mib = (lambda v: None if v is None else v / 1024.0)
            rows.append((label, fmt(to_mib(theirs), "MiB"), fmt(to_mib(ours), "MiB"), ratio(theirs, ours)))
    return rows


def timeouts(records):
    notes = []
    for (impl, _gds, figure), values in sorted(records.items()):
        if figure.startswith("reg_timeout_"):
            notes.append(f"{impl}: register_nspace of {figure[12:]} procs exceeded {values[0]:.0f} s "
                         f"({len(values)} time(s)); no figure")
    return notes


def table_text(rows):
    header = ("Figure", "OpenPMIx 4.2.2", "pmixpp", "ratio (OpenPMIx/pmixpp)")
    lines = ["| " + " | ".join(header) + " |", "|---|---:|---:|---:|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def command_output(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return ""


def machine():
    cpu = "unknown"
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem_kib = 0
    with open("/proc/meminfo") as info:
        for line in info:
            if line.startswith("MemTotal:"):
                mem_kib = int(line.split()[1])
    debian = open("/etc/debian_version").read().strip() if os.path.exists("/etc/debian_version") else "n/a"
    return (f"{cpu}, {os.cpu_count()} cores, {mem_kib / 1048576:.1f} GiB RAM, "
            f"Linux {platform.release()}, Debian {debian}")


def versions(path):
    found = {}
    with open(path) as lines:
        for line in lines:
            impl, _, text = line.strip().partition(" ")
            found.setdefault(impl, text)
    return found


def write_chart_data(records, args):
    results = os.path.join(args.out_dir, "results")
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, "fence.dat"), "w") as out:
        out.write("# N openpmix_nodata pmixpp_nodata openpmix_1k pmixpp_1k (median us)\n")
        for n in args.ns.split():
            cells = [median(records, impl, f"{kind}_med_us_n{n}")
                     for kind in ("fence0", "fence1k") for impl in IMPLS]
            out.write(n + " " + " ".join("NaN" if c is None else f"{c:.3f}" for c in cells) + "\n")
    first = args.ns.split()[0]
    with open(os.path.join(results, "get.dat"), "w") as out:
        out.write("# figure openpmix pmixpp (us)\n")
        for kind, label in (("getjob", "job key"), ("getpeer", "peer key")):
            for stat in ("med", "p99"):
                cells = [median(records, impl, f"{kind}_{stat}_us_n{first}") for impl in IMPLS]
                name = f'"{label} {"median" if stat == "med" else "p99"}"'
                out.write(name + " " + " ".join("NaN" if c is None else f"{c:.4f}" for c in cells) + "\n")


def main():
    parser = argparse.ArgumentParser()
    for flag in ("raw", "versions", "out-dir", "ns", "mem-n", "reg-sizes", "reg-ppn", "build",
                 "build-desc", "elapsed", "params", "load-start"):
        parser.add_argument("--" + flag, required=True)
    args = parser.parse_args()
    records = load(args.raw)
    rows = build_rows(records, args)
    table = table_text(rows)
    notes = timeouts(records)
    print(table)
    for note in notes:
        print("note: " + note)
    write_chart_data(records, args)
    found = versions(args.versions)
    clock = median(records, "pmixpp", "clock_ns") or median(records, "openpmix", "clock_ns")
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    body = [
        "# Benchmark results: pmixpp vs OpenPMIx 4.2.2",
        "",
        "Written by `bench/run.sh`; see `bench/README.md` for what each figure measures.",
        "",
        f"- Date: {now} (run took {args.elapsed} s)",
        f"- Machine: {machine()}",
        f"- OpenPMIx: {found.get('openpmix', 'n/a')} (Debian libpmix-dev, "
        f"{command_output(['pkg-config', '--variable=libdir', 'pmix'])})",
        f"- pmixpp: {found.get('pmixpp', 'n/a')}, build `{args.build}`, {args.build_desc}",
        f"- Benchmark programs: `cc -O2 -g`, the same sources for both libraries",
        f"- Parameters: {args.params}",
        f"- Load average (1/5/15 min) at start: {args.load_start}; at end: "
        f"{' '.join(open('/proc/loadavg').read().split()[:3])}",
        f"- Timer: clock_gettime(CLOCK_MONOTONIC) around each single call; "
        f"an empty timed interval costs {clock if clock is not None else float('nan'):.0f} ns",
        "",
        "Ratio = OpenPMIx / pmixpp: above 1 means pmixpp is faster (or smaller).",
        "",
        table,
        "",
    ]
    if notes:
        body += ["Notes:", ""] + [f"- {note}" for note in notes] + [""]
    body += [
        f"N > 2 oversubscribes this machine ({os.cpu_count()} cores): fences at N = 8 and 16 "
        "measure scheduling as much as the library.",
        f"register_nspace jobs place {args.reg_ppn} processes per node (this host is node 0), "
        "see README.md.",
        "",
        "![fence and get](results/fence_get.png)",
        "",
    ]
    with open(os.path.join(args.out_dir, "RESULTS.md"), "w") as out:
        out.write("\n".join(body))


if __name__ == "__main__":
    main()
