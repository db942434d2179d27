set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "reduction_level.png"
set title "Reduction level h = 1 − Ñ_p / N_p over time"
set xlabel "t (s)"
set ylabel "h"
unset logscale x
unset logscale y
unset arrow
set autoscale
set key bottom right
set yrange [0:1.02]
plot "level1.csv" using 2:1 every ::1 with lines title "pile, reduced", \
     "level3.csv" using 2:1 every ::1 with lines title "conveyor, cs-150", \
     "level5.csv" using 2:1 every ::1 with lines title "drum, contact + sensor", \
     "level6.csv" using 2:1 every ::1 with lines title "drum, trial split", \
     "level8.csv" using 2:1 every ::1 with lines title "collapse, trial split", \
     "level10.csv" using 2:1 every ::1 with lines title "drum, contact + sensor, Table 2"
