# Chart of the server figures written by bench/run.sh (lib/report.py):
# PMIx_server_init time (server_init.dat), the host's VmRSS growth across
# init and through a collecting fence of a 256-process job with every client
# still alive (server_rss.dat), and the host's peak VmRSS growth during that
# job (server_peak.dat).
# Call: gnuplot -e "datadir='<dir>'; output='<png>'" server.gp
set terminal pngcairo size 1500,500 font "sans,10" noenhanced
set output output
set multiplot layout 1,3 title "Server: pmixpp vs OpenPMIx 4.2.2 (medians; lower is better)"
set datafile missing "NaN"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key top left
set grid ytics

# One histogram panel of <file>; a panel whose figures all failed says so.
panel = 'stats file using ((valid(2) || valid(3)) ? 1 : NaN) name "D" nooutput; \
  if (exists("D_records") && D_records > 0) { \
    plot file using 2:xtic(1) lc rgb "#d62728" title "OpenPMIx", "" using 3 lc rgb "#1f77b4" title "pmixpp" \
  } else { \
    set label 1 "no figure: failed or not run (see RESULTS.md)" at graph 0.5, 0.5 center; \
    plot [0:1] [0:1] -1 notitle; unset label 1 \
  }; undefine D_*'

set title "PMIx_server_init, call to return (log scale)"
set ylabel "milliseconds"
set logscale y
set yrange [*:*]
file = datadir."/server_init.dat"
eval panel

set title "host VmRSS growth: across init; job start to after its\ncollecting fence (KiB per process), clients alive"
set ylabel "MiB"
unset logscale y
set yrange [0:*]
set xtics rotate by -15
file = datadir."/server_rss.dat"
eval panel

set title "host peak VmRSS growth (VmHWM) during that job"
set xtics norotate
file = datadir."/server_peak.dat"
eval panel
unset multiplot
