set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "pile_surface.png"
set title "Pile surface (last sample) and fitted angle"
set xlabel "distance from the axis s (m)"
set ylabel "surface height (m)"
unset logscale x
unset logscale y
plot "surface0.csv" using 2:1 every ::1 with points title "pile, N_{it} = 150", \
     "surface1.csv" using 2:1 every ::1 with points title "pile, N_{it} = 500", \
     "surface2.csv" using 2:1 every ::1 with points title "conveyor, N_{it} = 150", \
     "surface3.csv" using 2:1 every ::1 with points title "conveyor, N_{it} = 500"
