# Chart of the fence and get figures written by bench/run.sh (lib/report.py).
# Call: gnuplot -e "datadir='<dir>'; output='<png>'" fence_get.gp
set terminal pngcairo size 1200,500 font "sans,10" noenhanced
set output output
set multiplot layout 1,2 title "pmixpp vs OpenPMIx 4.2.2 (medians; lower is better)"

set title "PMIx_Fence, local procs"
set xlabel "processes N (2 cores: N > 2 oversubscribed)"
set ylabel "microseconds per fence"
set logscale x 2
set logscale y
set xtics (2, 4, 8, 16, 32, 64, 128, 256)
set xrange [1.7:300]
set key top left
set grid
set datafile missing "NaN"
plot datadir."/fence.dat" using 1:2 with linespoints lw 2 pt 7 lc rgb "#d62728" title "OpenPMIx, no data", \
     ""                   using 1:4 with linespoints lw 2 pt 5 lc rgb "#ff7f0e" title "OpenPMIx, collect 1 KiB", \
     ""                   using 1:3 with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "pmixpp, no data", \
     ""                   using 1:5 with linespoints lw 2 pt 5 lc rgb "#2ca02c" title "pmixpp, collect 1 KiB"

set title "PMIx_Get (N = 2, one sample per call)"
unset logscale x
set xrange [*:*]
unset xlabel
set xtics auto
set ylabel "microseconds per call"
set datafile missing "NaN"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key top left
file = datadir."/get.dat"
stats file using ((valid(2) || valid(3)) ? 1 : NaN) name "D" nooutput
if (exists("D_records") && D_records > 0) {
  plot file using 2:xtic(1) lc rgb "#d62728" title "OpenPMIx", \
       ""   using 3 lc rgb "#1f77b4" title "pmixpp"
} else {
  set label 1 "no figure: failed or not run (see RESULTS.md)" at graph 0.5, 0.5 center
  plot [0:1] [0:1] -1 notitle
}
unset multiplot
