set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "column_height_error.png"
set title "Column height error vs PGS sweeps (50 spheres)"
set xlabel "PGS sweeps N_{it}"
set ylabel "|ε_l|"
set logscale x
set logscale y
set arrow from graph 0, first 0.01 to graph 1, first 0.01 nohead dashtype 2
plot "column_height_error.csv" using 2:1 every ::1 with linespoints title "cold", \
     "column_height_error.csv" using 2:3 every ::1 with linespoints title "history warm start, β = 0.85", \
     "column_height_error.csv" using 2:4 every ::1 with linespoints title "warm start without the velocity step"
set output "multiplier_error.png"
set title "Multiplier error during one PGS solve of the resting column (Eq. 13)"
set xlabel "sweep k"
set ylabel "<|λ_500 − λ_k| / λ_500>"
unset logscale x
set logscale y
plot "convergence_cold.csv" using 1:2 every ::1 with lines title "cold", \
     "convergence_warm.csv" using 1:2 every ::1 with lines title "warm"
set output "pile_height_error.png"
set title "Pile height error vs PGS sweeps (reference N_{it} = 500)"
set xlabel "PGS sweeps N_{it}"
set ylabel "|h / h_{ref} − 1|"
set logscale x
set logscale y
plot "pile_height_error.csv" using 2:1 every ::1 with linespoints title "cold", \
     "pile_height_error.csv" using 2:3 every ::1 with linespoints title "history warm start"
