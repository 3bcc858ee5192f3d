# Chart of the fence figures written by bench/run.sh (lib/report.py, fence.dat):
# three kinds (no data, collect 1 KiB/proc, collect 16 KiB/proc) at each N,
# both libraries, log-log.
# Call: gnuplot -e "datadir='<dir>'; output='<png>'" fences.gp
set terminal pngcairo size 900,600 font "sans,10" noenhanced
set output output
set title "PMIx_Fence, all processes on one node (median per process; lower is better)"
set xlabel "processes N (2 cores: N > 2 oversubscribed)"
set ylabel "microseconds per fence"
set logscale x 2
set logscale y
set xtics (2, 4, 8, 16, 32, 64, 128, 256)
set xrange [1.7:300]
set key top left
set grid
set datafile missing "NaN"
file = datadir."/fence.dat"
stats file using ((valid(2) || valid(3) || valid(4) || valid(5) || valid(6) || valid(7)) ? 1 : NaN) name "D" nooutput
if (!(exists("D_records") && D_records > 0)) {
  set label 1 "no figure: failed or not run (see RESULTS.md)" at graph 0.5, 0.5 center
  unset logscale y
  plot [2:256] [0:1] -1 notitle
  exit
}
plot datadir."/fence.dat" using 1:2 with linespoints lw 2 pt 7 dt 1 lc rgb "#d62728" title "OpenPMIx, no data", \
     ""                   using 1:4 with linespoints lw 2 pt 5 dt 2 lc rgb "#ff7f0e" title "OpenPMIx, collect 1 KiB", \
     ""                   using 1:6 with linespoints lw 2 pt 9 dt 3 lc rgb "#8c564b" title "OpenPMIx, collect 16 KiB", \
     ""                   using 1:3 with linespoints lw 2 pt 7 dt 1 lc rgb "#1f77b4" title "pmixpp, no data", \
     ""                   using 1:5 with linespoints lw 2 pt 5 dt 2 lc rgb "#2ca02c" title "pmixpp, collect 1 KiB", \
     ""                   using 1:7 with linespoints lw 2 pt 9 dt 3 lc rgb "#17becf" title "pmixpp, collect 16 KiB"
