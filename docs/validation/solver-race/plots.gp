set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "solver_race_column.png"
set title "1 d column: wall time to 1 % of the normal impulses (one thread)"
set xlabel "spheres in the column"
set ylabel "wall time (s)"
set logscale x
set logscale y
unset arrow
set autoscale
plot "column.csv" using 7:3 every ::1 with linespoints title "PGS cold", \
     "column.csv" using 7:5 every ::1 with linespoints title "PGS warm started", \
     "column.csv" using 7:2 every ::1 with linespoints title "interior point"
