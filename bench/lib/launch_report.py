"""The table of bench/launch.sh: medians, ratios and every round.

    launch_report.py RAW ROUNDS SECONDS BUILD

RAW holds one line per launch: "<config> <n> <ms>" or "<config> <n> failed".
"""
import os
import platform
import statistics
import sys
import time
from collections import defaultdict


def load(path):
    runs = defaultdict(list)
    failed = defaultdict(int)
    with open(path) as raw:
        for line in raw:
            config, n, value = line.split()
            if value == "failed":
                failed[(config, int(n))] += 1
            else:
                runs[(config, int(n))].append(int(value))
    return runs, failed


def cell(runs, failed, key):
    values = runs.get(key, [])
    if not values:
        return "failed" if failed.get(key) else "not run"
    text = f"{statistics.median(values):.0f} ms"
    if failed.get(key):
        text += f" ({failed[key]} failed)"
    return text


def ratio(runs, slow, fast):
    a, b = runs.get(slow), runs.get(fast)
    if not a or not b:
        return "-"
    return f"{statistics.median(a) / statistics.median(b):.2f}x"


def main():
    raw, rounds, seconds, build = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    runs, failed = load(raw)
    sizes = sorted({n for (config, n) in list(runs) + list(failed) if not config.startswith("mpi.")})
    out = []
    out.append("# Launch figures: pmixpp vs OpenPMIx 4.2.2 under pmixrun\n")
    out.append("Written by `bench/launch.sh`; see `bench/README.md` (\"launch.sh\") for what each row runs.\n")
    out.append(f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} (run took {seconds} s)")
    out.append(f"- Machine: {os.cpu_count()} cores, Linux {platform.release()}")
    out.append(f"- pmixpp build: `{build}`; rounds: {rounds}, alternating the order every round")
    load_avg = " ".join(f"{x:.2f}" for x in os.getloadavg())
    out.append(f"- Load average at the end: {load_avg}\n")
    out.append("Medians of wall time, launcher start to exit. \"x floor\" = hello / empty program;")
    out.append("\"vs OpenPMIx\" = OpenPMIx's hello / pmixpp's (above 1: pmixpp faster).\n")
    out.append("| N | floor | linked pmixpp | linked OpenPMIx | hello pmixpp | hello OpenPMIx |"
               " pmixpp x floor | vs OpenPMIx |")
    out.append("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        row = [str(n)] + [cell(runs, failed, (c, n)) for c in
                          ("floor", "linked.pmixpp", "linked.openpmix", "hello.pmixpp", "hello.openpmix")]
        row.append(ratio(runs, ("hello.pmixpp", n), ("floor", n)))
        row.append(ratio(runs, ("hello.openpmix", n), ("hello.pmixpp", n)))
        out.append("| " + " | ".join(row) + " |")
    mpi = [k for k in list(runs) + list(failed) if k[0].startswith("mpi.")]
    if mpi:
        n = mpi[0][1]
        out.append("")
        out.append(f"| Open MPI MPI_Init+MPI_Finalize, N={n} | pmixrun (pmixpp) | mpirun (OpenPMIx) |"
                   " mpirun / pmixrun |")
        out.append("|---|---:|---:|---:|")
        out.append(f"| median | {cell(runs, failed, ('mpi.pmixrun', n))} | {cell(runs, failed, ('mpi.mpirun', n))}"
                   f" | {ratio(runs, ('mpi.mpirun', n), ('mpi.pmixrun', n))} |")
    out.append("\n## Every round (ms, in the order run)\n")
    for key in sorted(runs):
        out.append(f"- {key[0]} N={key[1]}: {' '.join(str(v) for v in runs[key])}")
    for key in sorted(failed):
        out.append(f"- {key[0]} N={key[1]}: {failed[key]} failed (see the run's log)")
    print("\n".join(out))


if __name__ == "__main__":
    main()
