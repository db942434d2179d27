set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "triaxial_critical_deviator.png"
set title "Critical deviator stress, mean over 10-25 % strain (Fig. 15)"
set xlabel "N_{it}"
set ylabel "sigma_z - sigma_h (Pa)"
set logscale x
unset logscale y
unset arrow
set autoscale
set yrange [0:1400]
set arrow from graph 0, first 800 to graph 1, first 800 nohead dt 2
set arrow from graph 0, first 1200 to graph 1, first 1200 nohead dt 2
plot "critical_deviator.csv" using 2:1 every ::1 with linespoints title "cold", \
     "critical_deviator.csv" using 2:3 every ::1 with linespoints title "warm"
set output "triaxial_stress_strain.png"
set title "Deviator stress against axial strain, first packing (Fig. 16)"
set xlabel "axial strain"
set ylabel "sigma_z - (sigma_x + sigma_y)/2 (Pa)"
unset logscale x
unset logscale y
unset arrow
set autoscale
plot "cell_100_cold.csv" using 1:2 every ::1 with lines title "N_{it} = 100 cold", \
     "cell_100_warm.csv" using 1:2 every ::1 with lines title "N_{it} = 100 warm", \
     "cell_1000_cold.csv" using 1:2 every ::1 with lines title "N_{it} = 1000 cold", \
     "cell_1000_warm.csv" using 1:2 every ::1 with lines title "N_{it} = 1000 warm"
