set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "alart_2014_thirty_iterations.png"
set title "Thirty disks: sweeps per step (cap 300)"
set xlabel "step"
set ylabel "sweeps"
unset logscale x
unset logscale y
plot "thirty_NLGS.csv" using 1:2 every ::1 with lines title "NLGS", \
     "thirty_linear.csv" using 1:2 every ::1 with lines title "linear", \
     "thirty_elastic_1e_4.csv" using 1:2 every ::1 with lines title "elastic 1e-4", \
     "thirty_elastic_1e_5.csv" using 1:2 every ::1 with lines title "elastic 1e-5", \
     "thirty_elastic_1e_6.csv" using 1:2 every ::1 with lines title "elastic 1e-6"
set output "alart_2014_thirty_violation.png"
set title "Thirty disks: mean violation (overlap / mean radius)"
set xlabel "step"
set ylabel "violation"
unset logscale x
unset logscale y
plot "thirty_NLGS.csv" using 1:3 every ::1 with lines title "NLGS", \
     "thirty_linear.csv" using 1:3 every ::1 with lines title "linear", \
     "thirty_elastic_1e_4.csv" using 1:3 every ::1 with lines title "elastic 1e-4", \
     "thirty_elastic_1e_5.csv" using 1:3 every ::1 with lines title "elastic 1e-5", \
     "thirty_elastic_1e_6.csv" using 1:3 every ::1 with lines title "elastic 1e-6"
