# Chart of the launch figures written by bench/run.sh (lib/report.py,
# launch.dat): wall time from a launcher's start to its exit, with each
# library's default psec and with PMIX_MCA_psec=native.
# Call: gnuplot -e "datadir='<dir>'; output='<png>'" launch.gp
set terminal pngcairo size 800,520 font "sans,10" noenhanced
set output output
set title "Launch, start to exit (median; lower is better)"
set ylabel "milliseconds"
set datafile missing "NaN"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key top left
set grid ytics
set yrange [0:*]
set bmargin 4
# A chart whose figures all failed says so instead of failing.
file = datadir."/launch.dat"
stats file using ((valid(2) || valid(3)) ? 1 : NaN) name "D" nooutput
if (exists("D_records") && D_records > 0) {
  plot file using 2:xtic(1) lc rgb "#d62728" title "OpenPMIx", \
       ""   using 3 lc rgb "#1f77b4" title "pmixpp"
} else {
  set label 1 "no figure: failed or not run (see RESULTS.md)" at graph 0.5, 0.5 center
  plot [0:1] [0:1] -1 notitle
}
