set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "wall_pressure_high.png"
set title "Wall pressure vs depth, N_{it} = 500"
set xlabel "depth H − z (m)"
set ylabel "wall pressure (Pa)"
unset logscale x
unset logscale y
plot "wall_pressure_high.csv" using 1:4 every ::1 with points title "measured (strips of 5 d)", \
     "wall_pressure_high.csv" using 1:2 every ::1 with lines title "hydrostatic ρ_b g (H − z)", \
     "wall_pressure_high.csv" using 1:3 every ::1 with lines title "Janssen fit"
set output "wall_pressure_10.png"
set title "Wall pressure vs depth, N_{it} = 10, sequential order"
set xlabel "depth H − z (m)"
set ylabel "wall pressure (Pa)"
unset logscale x
unset logscale y
plot "wall_pressure_10.csv" using 1:4 every ::1 with points title "measured (strips of 5 d)", \
     "wall_pressure_10.csv" using 1:2 every ::1 with lines title "hydrostatic ρ_b g (H − z)", \
     "wall_pressure_10.csv" using 1:3 every ::1 with lines title "Janssen fit"
set output "wall_pressure_10_coloured.png"
set title "Wall pressure vs depth, N_{it} = 10, coloured order"
set xlabel "depth H − z (m)"
set ylabel "wall pressure (Pa)"
unset logscale x
unset logscale y
plot "wall_pressure_10_coloured.csv" using 1:4 every ::1 with points title "measured (strips of 5 d)", \
     "wall_pressure_10_coloured.csv" using 1:2 every ::1 with lines title "hydrostatic ρ_b g (H − z)", \
     "wall_pressure_10_coloured.csv" using 1:3 every ::1 with lines title "Janssen fit"
set output "axis_pressure.png"
set title "Pressure along the centre axis (servin-2014 Fig. 4)"
set xlabel "height z (m)"
set ylabel "pressure (Pa)"
unset logscale x
unset logscale y
plot "axis_high.csv" using 5:3 every ::1 with linespoints title "N_{it} = 500", \
     "axis_10.csv" using 5:3 every ::1 with linespoints title "N_{it} = 10, sequential order", \
     "axis_10_coloured.csv" using 5:3 every ::1 with linespoints title "N_{it} = 10, coloured order"
