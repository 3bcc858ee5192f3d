"""The table of bench/fence.sh: each round's median, both libraries.

    fence_report.py RAW ROUNDS FENCES SECONDS

RAW lines: "<load> <n> <mode> <impl> <round> <figure> <us>", one per rank
(the figure is that rank's median over its fences). A round's value is the
median over its ranks.
"""
import os
import platform
import statistics
import sys
import time
from collections import defaultdict

FIGURES = {"fence0": "no data", "fence1k": "1 KiB collected", "fence16k": "16 KiB collected"}


def main():
    raw, rounds, fences, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    ranks = defaultdict(list)
    with open(raw) as lines:
        for line in lines:
            load, n, mode, impl, rnd, figure, value = line.split()
            figure = figure.split("_")[0]  # fence0_med_us_n2 -> fence0
            ranks[(load, int(n), mode, figure, impl, int(rnd))].append(float(value))
    per_round = {key: statistics.median(values) for key, values in ranks.items()}
    out = ["# Fence figures, every round: pmixpp vs OpenPMIx 4.2.2\n",
           "Written by `bench/fence.sh` (`bench_host job -n N bench_client --fences F [--nb]`).\n",
           f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} (run took {seconds} s)",
           f"- Machine: {os.cpu_count()} cores, Linux {platform.release()}",
           f"- {rounds} rounds, {fences} fences per rank per kind; a round's value is the median over its ranks"
           " of each rank's median",
           "- busy: one `yes > /dev/null` per core but one runs beside the job",
           "- bound: rank R bound to the R-th cpu, a core of its own, as launchers bind by default"
           " (`lib/bind_to_own_core.sh`); only the sizes that fit the cpus\n",
           "Ratio = OpenPMIx / pmixpp (above 1: pmixpp faster); \"worst\" is the round with the smallest ratio.\n",
           "| load | N | call | fence | pmixpp median (us) | OpenPMIx median (us) | ratio, median | ratio, worst round |",
           "|---|---:|---|---|---:|---:|---:|---:|"]
    load_order = {"quiet": 0, "busy": 1, "bound": 2}
    keys = sorted({k[:4] for k in per_round}, key=lambda k: (load_order.get(k[0], 3), k[0], k[1], k[2], k[3]))
    detail = []
    for load, n, mode, figure in keys:
        ours = [per_round.get((load, n, mode, figure, "pmixpp", r)) for r in range(1, rounds + 1)]
        theirs = [per_round.get((load, n, mode, figure, "openpmix", r)) for r in range(1, rounds + 1)]
        pairs = [(a, b) for a, b in zip(ours, theirs) if a and b]
        call = "PMIx_Fence_nb" if mode == "nb" else "PMIx_Fence"
        if not pairs:
            continue
        ratios = [b / a for a, b in pairs]
        ours_med = statistics.median(a for a, _ in pairs)
        theirs_med = statistics.median(b for _, b in pairs)
        out.append(f"| {load} | {n} | {call} | {FIGURES.get(figure, figure)} | {ours_med:.2f} | {theirs_med:.1f} |"
                   f" {theirs_med / ours_med:.1f}x | {min(ratios):.1f}x |")
        detail.append(f"- {load}, N={n}, {call}, {FIGURES.get(figure, figure)}: pmixpp "
                      + " ".join(f"{a:.2f}" for a, _ in pairs) + "; OpenPMIx "
                      + " ".join(f"{b:.1f}" for _, b in pairs))
    out.append("\n## Every round (us)\n")
    out.extend(detail)
    print("\n".join(out))


if __name__ == "__main__":
    main()
