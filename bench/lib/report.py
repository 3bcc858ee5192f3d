#!/usr/bin/env python3
"""Turns the raw records of bench/run.sh into the table (stdout),
bench/RESULTS.md and the data files of the gnuplot chart.

Raw record: "<impl> <gds> <figure> <value>", one per process and run (the
gds field names the configuration: a gds variant, or psec_native).
Every figure is the median of its records over processes and rounds.
Failure record (--fails): "<impl>\t<key>\t<reason>"; a figure whose job
failed every time shows "failed" ("not run" when the reason starts so)."""
import argparse
import datetime
import os
import platform
import statistics
import subprocess
from collections import defaultdict

IMPLS = ("openpmix", "pmixpp")


def load_fails(path):
    fails = defaultdict(list)
    if path and os.path.exists(path):
        with open(path) as lines:
            for line in lines:
                parts = line.rstrip("\n").split("\t", 2)
                if len(parts) == 3:
                    fails[(parts[0], parts[1])].append(parts[2])
    return fails


def size_label(size):
    size = int(size)
    return f"{size // 1024} KiB" if size % 1024 == 0 else f"{size} B"


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


def cell(records, fails, impl, figure, unit, key, gds="default", scale=1.0):
    """The table text of one figure: its median, or why there is none."""
    values = records.get((impl, gds, figure))
    reasons = fails.get((impl, key), []) if key else []
    if not values:
        if reasons:
            return "not run" if all(r.startswith("not run") for r in reasons) else "failed"
        return "n/a"
    text = fmt(statistics.median(values) * scale, unit)
    if reasons:
        text += f" ({len(reasons)} failed)"
    return text


def build_rows(records, fails, args):
    rows = []  # (label, openpmix text, pmixpp text, ratio text)
    ns = args.ns.split()
    first = ns[0]

    def add(label, figure, unit, key, gds_pair=("default", "default"), scale=1.0):
        theirs = median(records, "openpmix", figure, gds_pair[0])
        ours = median(records, "pmixpp", figure, gds_pair[1])
        rows.append((label,
                     cell(records, fails, "openpmix", figure, unit, key, gds_pair[0], scale),
                     cell(records, fails, "pmixpp", figure, unit, key, gds_pair[1], scale),
                     ratio(theirs, ours)))

    add(f"client PMIx_Init, N={first} (median over processes)", f"init_us_n{first}", "us", f"job_n{first}")
    last = ns[-1]
    if last != first:
        add(f"client PMIx_Init, N={last} (oversubscribed)", f"init_us_n{last}", "us", f"job_n{last}")
    for kind, what in (("getjob", "PMIx_Get local job key (PMIX_JOB_SIZE)"),
                       ("getpeer", "PMIx_Get peer modex key after fence")):
        add(f"{what}, median", f"{kind}_med_us_n{first}", "us", f"job_n{first}")
        add(f"{what}, p99", f"{kind}_p99_us_n{first}", "us", f"job_n{first}")
    add("PMIx_Put + PMIx_Commit (8 bytes), median", f"putcommit_med_us_n{first}", "us", f"job_n{first}")
    add("PMIx_Put + PMIx_Commit (8 bytes), p99", f"putcommit_p99_us_n{first}", "us", f"job_n{first}")
    for kind, what in (("fence0", "no data"), ("fence1k", "collect 1 KiB/proc"),
                       ("fence16k", "collect 16 KiB/proc")):
        for n in ns:
            add(f"PMIx_Fence, {what}, N={n}", f"{kind}_med_us_n{n}", "us", f"job_n{n}")
    default_psec = "library default psec" if args.psec == "library default" else f"PMIX_MCA_psec={args.psec}"
    configs = (("default", default_psec), ("psec_native", "PMIX_MCA_psec=native"))
    if args.psec == "native":
        configs = configs[:1]
    for cfg, what in configs:
        add(f"PMIx_server_init, {what}: time (= until a client can connect)", "srvinit_ms", "ms",
            f"srvinit_{cfg}", (cfg, cfg))
        add(f"PMIx_server_init, {what}: VmRSS growth", "srvinit_rss_mib", "MiB", f"srvinit_{cfg}", (cfg, cfg))
    for size in args.srv_rss_sizes.split():
        what = f"N={args.srv_rss_n} job, fence collecting {size_label(size)}/proc"
        tag = f"{size}_n{args.srv_rss_n}"
        add(f"server VmRSS growth, {what}, clients alive", f"srvrss_mib_{tag}", "MiB", f"srvrss_{size}")
        add(f"server RssAnon growth, {what}, clients alive", f"srvrss_anon_mib_{tag}", "MiB", f"srvrss_{size}")
        add(f"server peak VmRSS (VmHWM) growth during it, {what}", f"srvrss_peak_mib_{tag}", "MiB",
            f"srvrss_{size}")
    for cfg, what in configs:
        add(f"pmixrun -n {args.pmixrun_n} pmix_hello, {what}: start to exit", f"pmixrun_ms_n{args.pmixrun_n}", "ms",
            f"pmixrun_{cfg}", (cfg, cfg))
    for cfg, what in configs:
        add(f"mpirun -n {args.mpirun_n} MPI_Init+MPI_Finalize, {what}: start to exit",
            f"mpirun_ms_n{args.mpirun_n}", "ms", f"mpirun_{cfg}", (cfg, cfg))
    for size in args.reg_sizes.split():
        label = f"register_nspace {int(size):,} procs"
        add(f"{label}: time", f"reg_ms_{size}", "ms", f"reg_{size}")
        add(f"{label}: RSS growth", f"reg_rss_mib_{size}", "MiB", f"reg_{size}")
    pss_pairs = [("default", "default"), ("hash", "hash"), ("ds21,hash", "shmem"), ("ds12,hash", "shmem")]
    for kind in ("pss", "uss"):
        for theirs_gds, ours_gds in pss_pairs:
            theirs = median(records, "openpmix", f"{kind}_kib", theirs_gds)
            ours = median(records, "pmixpp", f"{kind}_kib", ours_gds)
            if theirs is None and ours is None and not fails.get(("openpmix", f"pss_{theirs_gds}")) \
                    and not fails.get(("pmixpp", f"pss_{ours_gds}")):
                continue
            label = f"{kind.upper()} per client, N={args.mem_n}, gds {theirs_gds} / {ours_gds}"
            rows.append((label,
                         cell(records, fails, "openpmix", f"{kind}_kib", "MiB", f"pss_{theirs_gds}", theirs_gds,
                              1 / 1024.0),
                         cell(records, fails, "pmixpp", f"{kind}_kib", "MiB", f"pss_{ours_gds}", ours_gds,
                              1 / 1024.0),
                         ratio(theirs, ours)))
    return rows


def failure_notes(fails):
    notes = []
    for (impl, key), reasons in sorted(fails.items()):
        counted = defaultdict(int)
        for reason in reasons:
            counted[reason] += 1
        for reason, count in counted.items():
            times = f" ({count} times)" if count > 1 else ""
            notes.append(f"{impl} {key}: {reason}{times}")
    return notes


def listen_note(records):
    parts = []
    for impl, name in (("openpmix", "OpenPMIx"), ("pmixpp", "pmixpp")):
        values = records.get((impl, "default", "srvinit_listen"))
        if values:
            parts.append(f"{name} {min(values):.0f}" + (f"-{max(values):.0f}" if max(values) != min(values) else ""))
    if not parts:
        return None
    return ("Listening sockets the host holds when PMIx_server_init returns: " + ", ".join(parts) +
            ". The host starts its clients only after PMIx_server_init returns, so for this host the time "
            "until a client can connect is the init time.")


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


def dat(value, digits=3):
    return "NaN" if value is None else f"{value:.{digits}f}"


def write_chart_data(records, args):
    native = args.psec == "native"  # then the run's own psec is native: no second configuration
    results = os.path.join(args.out_dir, "results")
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, "fence.dat"), "w") as out:
        out.write("# N openpmix_nodata pmixpp_nodata openpmix_1k pmixpp_1k openpmix_16k pmixpp_16k (median us)\n")
        for n in args.ns.split():
            cells = [median(records, impl, f"{kind}_med_us_n{n}")
                     for kind in ("fence0", "fence1k", "fence16k") for impl in IMPLS]
            out.write(n + " " + " ".join(dat(c) for c in cells) + "\n")
    first = args.ns.split()[0]
    with open(os.path.join(results, "get.dat"), "w") as out:
        out.write("# figure openpmix pmixpp (us)\n")
        for kind, label in (("getjob", "job key"), ("getpeer", "peer key")):
            for stat in ("med", "p99"):
                cells = [median(records, impl, f"{kind}_{stat}_us_n{first}") for impl in IMPLS]
                name = f'"{label} {"median" if stat == "med" else "p99"}"'
                out.write(name + " " + " ".join(dat(c, 4) for c in cells) + "\n")
    with open(os.path.join(results, "server_init.dat"), "w") as out:
        out.write("# configuration openpmix pmixpp (PMIx_server_init, median ms)\n")
        default_label = "library default" if args.psec == "library default" else f"psec={args.psec}"
        for cfg, label in (("default", default_label), ("psec_native", "psec=native"))[:1 if native else 2]:
            cells = [median(records, impl, "srvinit_ms", cfg) for impl in IMPLS]
            out.write(f'"{label}" ' + " ".join(dat(c) for c in cells) + "\n")
    with open(os.path.join(results, "server_rss.dat"), "w") as out:
        out.write("# figure openpmix pmixpp (host VmRSS growth, median MiB)\n")
        for cfg, label in (("default", "init"), ("psec_native", "init (native)"))[:1 if native else 2]:
            cells = [median(records, impl, "srvinit_rss_mib", cfg) for impl in IMPLS]
            out.write(f'"{label}" ' + " ".join(dat(c) for c in cells) + "\n")
        for size in args.srv_rss_sizes.split():
            cells = [median(records, impl, f"srvrss_mib_{size}_n{args.srv_rss_n}") for impl in IMPLS]
            out.write(f'"N={args.srv_rss_n}, {size_label(size)}" ' + " ".join(dat(c) for c in cells) + "\n")
    with open(os.path.join(results, "server_peak.dat"), "w") as out:
        out.write("# figure openpmix pmixpp (host peak VmRSS growth during the job, VmHWM, median MiB)\n")
        for size in args.srv_rss_sizes.split():
            cells = [median(records, impl, f"srvrss_peak_mib_{size}_n{args.srv_rss_n}") for impl in IMPLS]
            out.write(f'"N={args.srv_rss_n}, {size_label(size)}" ' + " ".join(dat(c) for c in cells) + "\n")
    with open(os.path.join(results, "launch.dat"), "w") as out:
        out.write("# launch openpmix pmixpp (start to exit, median ms)\n")
        default_label = "default" if args.psec == "library default" else f"psec={args.psec}"
        for figure, label in ((f"pmixrun_ms_n{args.pmixrun_n}", f"pmixrun -n {args.pmixrun_n}"),
                              (f"mpirun_ms_n{args.mpirun_n}", f"mpirun -n {args.mpirun_n}")):
            for cfg, what in (("default", default_label), ("psec_native", "psec=native"))[:1 if native else 2]:
                cells = [median(records, impl, figure, cfg) for impl in IMPLS]
                out.write(f'"{label}\\n{what}" ' + " ".join(dat(c) for c in cells) + "\n")


def main():
    parser = argparse.ArgumentParser()
    for flag in ("raw", "versions", "out-dir", "ns", "mem-n", "reg-sizes", "reg-ppn", "build",
                 "build-desc", "elapsed", "params", "load-start", "srv-rss-n", "srv-rss-sizes", "pmixrun-n",
                 "mpirun-n", "munge", "psec"):
        parser.add_argument("--" + flag, required=True)
    parser.add_argument("--fails")
    parser.add_argument("--notes")
    args = parser.parse_args()
    records = load(args.raw)
    fails = load_fails(args.fails)
    rows = build_rows(records, fails, args)
    table = table_text(rows)
    notes = timeouts(records) + failure_notes(fails)
    if args.notes and os.path.exists(args.notes):
        notes += [line.strip() for line in open(args.notes) if line.strip()]
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
        f"- psec: {args.psec}; munge on this machine: {args.munge}",
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
        body += ["Notes (figures not taken are listed here; the run's log has their output):", ""]
        body += [f"- {note}" for note in notes] + [""]
    listen = listen_note(records)
    body += [
        f"N > 2 oversubscribes this machine ({os.cpu_count()} cores): fences at N > 2 "
        "measure scheduling as much as the library.",
        f"register_nspace jobs place {args.reg_ppn} processes per node (this host is node 0), "
        "see README.md.",
    ]
    if listen:
        body.append(listen)
    if "changed during the run" in args.munge and args.psec == "library default":
        body.append("munged came or went during this run: OpenPMIx's server starts with the library default "
                    "psec paid libmunge's retries (about 2.3 s each) only while munged did not answer, so its "
                    "server-init and launch figures with the library default psec mix both cases; the "
                    "psec=native rows do not depend on munged.")
    elif "not answering" in args.munge and args.psec == "library default":
        body.append("munged does not answer on this machine: OpenPMIx's psec/munge retries for about 2.3 s in "
                    "every PMIx_server_init, which is in its server-init and launch figures with the library "
                    "default psec (pmixrun and mpirun start a server); the psec=native rows show them "
                    "without it, and `PSEC=native bench/run.sh` runs everything that way.")
    body += [
        "",
        "![fences](results/fences.png)",
        "",
        "![server](results/server.png)",
        "",
        "![launch](results/launch.png)",
        "",
        "![fence and get](results/fence_get.png)",
        "",
    ]
    with open(os.path.join(args.out_dir, "RESULTS.md"), "w") as out:
        out.write("\n".join(body))


if __name__ == "__main__":
    main()
