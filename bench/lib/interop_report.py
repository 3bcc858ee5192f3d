#!/usr/bin/env python3
"""Turns the raw records of bench/interop.sh into its table (stdout),
bench/RESULTS-interop.md and bench/results/interop.dat.

Raw record: "<cfg> <figure> <value>", cfg one of theirs, interop, ours; one
record per process and run (per run for the server's memory and the
launches). Every figure is the median of its records over processes and
rounds, with their minimum and maximum. Failure record (--fails):
"<cfg>\t<key>\t<reason>"."""
import argparse
import datetime
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import load_fails, machine  # noqa: E402  (run.sh's report: the same machine line, failures file)

CFGS = ("theirs", "interop", "ours")
HEADER = ("Figure", "theirs: OpenPMIx server", "interop: our server", "ours: our server + clients",
          "ratio theirs/interop")


def load(path):
    records = defaultdict(list)
    with open(path) as raw:
        for line in raw:
            parts = line.split()
            if len(parts) == 3:
                records[(parts[0], parts[1])].append(float(parts[2]))
    return records


def num(value):
    if value >= 1000:
        return f"{value:.0f}"
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def stats(values, scale):
    values = [v * scale for v in values]
    return statistics.median(values), min(values), max(values)


def cell(records, fails, cfg, figure, key, unit, scale):
    values = records.get((cfg, figure))
    reasons = fails.get((cfg, key), [])
    if not values:
        if reasons:
            return "failed", None
        return "-", None
    med, low, high = stats(values, scale)
    text = f"{num(med)} {unit} ({num(low)}-{num(high)})"
    if reasons:
        text += f" ({len(reasons)} runs failed)"
    return text, med


def ratio(theirs, interop):
    if theirs is None or interop is None or interop <= 0:
        return "n/a"
    return f"{theirs / interop:.2f}x"


def rows_of(records, fails, args):
    """(label, figure, failure key, unit, scale, configurations)."""
    spec = []
    for n in args.ns.split():
        key = f"job_n{n}"
        spec += [
            (f"client PMIx_Init, N={n}", f"init_us_n{n}", key, "us", 1.0, CFGS),
            (f"PMIx_Get job key (PMIX_JOB_SIZE), median per process, N={n}", f"getjob_med_us_n{n}", key, "us", 1.0, CFGS),
            (f"PMIx_Get peer key after a collecting fence, median per process, N={n}", f"getpeer_med_us_n{n}", key,
             "us", 1.0, CFGS),
            (f"PMIx_Fence collecting 1 KiB/proc, median per process, N={n}", f"fence1k_med_us_n{n}", key, "us", 1.0,
             CFGS),
            (f"PMIx_Fence, no data, median per process, N={n}", f"fence0_med_us_n{n}", key, "us", 1.0, CFGS),
            (f"PMIx_Fence collecting 16 KiB/proc, median per process, N={n}", f"fence16k_med_us_n{n}", key, "us", 1.0,
             CFGS),
        ]
    size = int(args.srv_rss_bytes)
    size_text = f"{size // 1024} KiB" if size % 1024 == 0 else f"{size} B"
    for n in args.srv_rss_ns.split():
        key = f"srvrss_n{n}"
        scale = 1024.0 / int(n)  # MiB of the whole job -> KiB per client
        spec += [
            (f"server VmRSS growth per client, N={n}, {size_text} fence, clients alive", f"srvrss_mib_n{n}", key,
             "KiB", scale, CFGS),
            (f"server RssAnon growth per client, N={n}, {size_text} fence, clients alive", f"srvrss_anon_mib_n{n}",
             key, "KiB", scale, CFGS),
            (f"server peak VmRSS growth per client, N={n}, {size_text} fence", f"srvrss_peak_mib_n{n}", key, "KiB",
             scale, CFGS),
        ]
    n = args.launch_n
    spec += [
        (f"pmixrun -n {n} mpi_init (Open MPI 4.1 MPI_Init+MPI_Finalize), start to exit", f"launch_mpi_ms_n{n}",
         "launch_mpi", "ms", 1.0, ("theirs", "interop")),
        (f"pmixrun -n {n} pmix_hello (built against OpenPMIx), start to exit", f"launch_hello_ms_n{n}",
         "launch_hello", "ms", 1.0, ("theirs", "interop")),
    ]
    rows, dat = [], []
    slower = []  # (label, theirs, interop, unit): interop slower or larger than theirs
    for label, figure, key, unit, scale, cfgs in spec:
        texts, meds = [], {}
        for cfg in CFGS:
            if cfg in cfgs:
                text, med = cell(records, fails, cfg, figure, key, unit, scale)
            else:
                text, med = "not measured", None
            texts.append(text)
            meds[cfg] = med
        rows.append((label, *texts, ratio(meds["theirs"], meds["interop"])))
        dat.append((figure, meds))
        if meds["theirs"] is not None and meds["interop"] is not None and meds["interop"] > meds["theirs"]:
            slower.append((label, meds["theirs"], meds["interop"], unit))
    rows += marginal_rows(records, args)
    return rows, dat, slower


def marginal_rows(records, args):
    """What each added client costs the server between the smallest and the
    largest N of the memory jobs, from the medians: (m2*N2 - m1*N1)/(N2-N1),
    which leaves out what the server spends once per job."""
    ns = [int(n) for n in args.srv_rss_ns.split()]
    if len(ns) < 2:
        return []
    low, high = min(ns), max(ns)
    rows = []
    for name, what in (("srvrss_mib", "VmRSS"), ("srvrss_anon_mib", "RssAnon")):
        meds = {}
        for cfg in CFGS:
            a = records.get((cfg, f"{name}_n{low}"))
            b = records.get((cfg, f"{name}_n{high}"))
            meds[cfg] = None if not a or not b else \
                (statistics.median(b) - statistics.median(a)) * 1024.0 / (high - low)
        texts = ["-" if meds[c] is None else f"{num(meds[c])} KiB" for c in CFGS]
        rows.append((f"server {what} per added client, N={low} to {high} (from the medians)", *texts,
                     ratio(meds["theirs"], meds["interop"])))
    return rows


def table(rows):
    lines = ["| " + " | ".join(HEADER) + " |", "|---|---:|---:|---:|---:|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    for name in ("raw", "fails", "notes", "versions", "out", "dat", "ns", "srv-rss-ns", "srv-rss-bytes", "launch-n",
                 "build", "build-desc", "lib-stamp", "commit", "elapsed", "load", "load-end", "load-max", "compilers",
                 "munge", "psec", "params"):
        parser.add_argument("--" + name, required=True)
    args = parser.parse_args()
    records = load(args.raw)
    fails = load_fails(args.fails)
    rows, dat, slower = rows_of(records, fails, args)
    text = table(rows)
    print(text)

    found = defaultdict(set)
    with open(args.versions) as lines:
        for line in lines:
            parts = line.strip().split(" ", 2)
            if len(parts) == 3:
                found[parts[1]].add(parts[2])
    openpmix = sorted(v for vs in found.values() for v in vs if v.startswith("OpenPMIx"))
    pmixpp = sorted(v for vs in found.values() for v in vs if v.startswith("pmixpp"))
    shared = float(args.load_max) >= 0.5 or int(args.compilers) > 0
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    body = [
        "# OpenPMIx's clients on our server: interop benchmark",
        "",
        "Written by `bench/interop.sh`; see `bench/README.md` (\"interop.sh\") for how each figure is taken.",
        "",
        f"- Date: {now} (run took {args.elapsed} s)",
        f"- Machine: {machine()}",
        f"- Load average (1/5/15 min) at start: {args.load}; at end: {args.load_end}; highest 1-min load seen: "
        f"{args.load_max}. "
        + ("**The machine was shared** during the run (other work running: "
           + (f"{args.compilers} compiler/build processes seen at the end"
              if int(args.compilers) > 0 else "a load at or above 0.5 beside this bench")
           + "), so every figure carries its noise; "
           "the alternation spreads it over the configurations but does not remove it."
           if shared else "The machine was otherwise idle."),
        f"- OpenPMIx: {', '.join(sorted(set(openpmix))) or 'n/a'} (Debian libpmix2, "
        "/usr/lib/x86_64-linux-gnu/pmix2/lib)",
        f"- pmixpp: {', '.join(sorted(set(pmixpp))) or 'n/a'}, commit {args.commit}, build `{args.build}`, "
        f"{args.build_desc}; libpmix.so.2 / pmixrun modified {args.lib_stamp.strip()}",
        "- Open MPI: Debian's 4.1 (`mpicc`), its ranks on Debian's OpenPMIx through `mca_pmix_ext3x`",
        "- Benchmark programs: `cc -O2 -g`, the same sources for both libraries",
        f"- Parameters: {args.params}",
        f"- psec: {args.psec}; munge: {args.munge}",
        "",
        "Configurations (alternated every round, the order reversed every other round; a fresh TMPDIR per run):",
        "",
        "- **theirs**: OpenPMIx's `bench_host` serving OpenPMIx's `bench_client`; for the launches, `pmixrun` run "
        "with `LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/pmix2/lib` (it then loads OpenPMIx).",
        "- **interop**: our `bench_host` (our library) serving OpenPMIx's `bench_client` (Debian's library by its "
        "rpath), over OpenPMIx's wire protocol; for the launches, `pmixrun` on our library.",
        "- **ours**: our `bench_host` serving our `bench_client`: our own clients' speed, for reference.",
        "",
        "Every run proves its libraries: the host and each client print the `libpmix.so` their `/proc/self/maps` "
        "names, each launched rank writes its own and its launcher's; a run where any side mapped another "
        "library counts as failed, not as a number.",
        "",
        "Each cell: median (min-max) over all processes and rounds (per run for the server memory and the "
        "launches). Ratio = theirs / interop: above 1 means our server serves OpenPMIx's clients faster "
        "(or with less memory) than OpenPMIx's own server.",
        "",
        text,
        "",
        "## Notes",
        "",
    ]
    notes = []
    for (cfg, key), reasons in sorted(fails.items()):
        for reason in sorted(set(reasons)):
            count = reasons.count(reason)
            notes.append(f"- {cfg} {key}: {reason}" + (f" ({count} times)" if count > 1 else ""))
    if not notes:
        notes.append("- Every run succeeded and mapped the expected libraries.")
    for label, theirs, interop, unit in slower:
        notes.append(f"- interop above theirs (our server slower or larger): {label}: {num(interop)} {unit} against "
                     f"{num(theirs)} {unit} (+{(interop / theirs - 1) * 100:.0f}%)")
    with open(args.notes) as lines:
        notes += [f"- {line.strip()}" for line in lines if line.strip()]
    notes += [
        "- N = 16 and 64 oversubscribe this machine's cores (plus the host's threads): those figures measure the "
        "scheduler as much as the libraries, under the same load for every configuration.",
        "- An OpenPMIx client's `PMIx_Get` of a key it already holds is answered by its own progress thread "
        "(a thread hand-off, about 10 us here), whichever server it has: theirs and interop should match there.",
        "- Server memory: VmRSS / RssAnon of the host just before the first client is registered and after "
        "every client has fenced and stopped itself, divided by N; VmRSS counts shared pages the host touched "
        "(OpenPMIx's ds21 segments), RssAnon does not. Readings are in whole pages, so at N = 16 one page is "
        "0.25 KiB per client.",
    ]
    body += notes
    with open(args.out, "w") as out:
        out.write("\n".join(body) + "\n")
    os.makedirs(os.path.dirname(args.dat), exist_ok=True)
    with open(args.dat, "w") as out:
        out.write("# figure theirs interop ours (medians; us, KiB per client or ms; NaN: none)\n")
        for figure, meds in dat:
            out.write(figure + " " + " ".join("NaN" if meds[c] is None else f"{meds[c]:.3f}" for c in CFGS) + "\n")


if __name__ == "__main__":
    main()
