set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "psat_vs_sweeps.png"
set title "Janssen level against sweeps per step"
set xlabel "sweeps (iterations) per step"
set ylabel "p_sat (Pa)"
set logscale x
unset logscale y
set arrow from graph 0, first 1321.34 to graph 1, first 1321.34 nohead dt 2
plot "hold_pgs.csv" using 5:4 every ::1 with linespoints title "pgs", \
     "hold_nncg.csv" using 5:4 every ::1 with linespoints title "nncg", \
     "hold_apgd.csv" using 5:4 every ::1 with linespoints title "apgd"
set output "error_vs_seconds.png"
set title "Error of p_sat against the wall time of the hold"
set xlabel "wall time of the hold (s)"
set ylabel "|p_sat / p_ref − 1|"
set logscale x
set logscale y
set arrow from graph 0, first 0.1 to graph 1, first 0.1 nohead dt 2
plot "hold_pgs.csv" using 2:1 every ::1 with linespoints title "pgs", \
     "hold_nncg.csv" using 2:1 every ::1 with linespoints title "nncg", \
     "hold_apgd.csv" using 2:1 every ::1 with linespoints title "apgd"
