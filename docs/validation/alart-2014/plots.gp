set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "alart_2014_iterations.png"
set title "NLGS iterations per step (cap 150)"
set xlabel "step"
set ylabel "iterations"
unset logscale x
unset logscale y
plot "frictionless.csv" using 2:1 every ::1 with lines title "frictionless", \
     "without_memory.csv" using 2:1 every ::1 with lines title "frictional, without memory", \
     "with_memory.csv" using 2:1 every ::1 with lines title "frictional, with memory"
set output "alart_2014_violation.png"
set title "Mean violation (overlap / mean radius)"
set xlabel "step"
set ylabel "violation"
unset logscale x
unset logscale y
plot "frictionless.csv" using 2:3 every ::1 with lines title "frictionless", \
     "without_memory.csv" using 2:3 every ::1 with lines title "frictional, without memory", \
     "with_memory.csv" using 2:3 every ::1 with lines title "frictional, with memory"
