set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "velocity_profile.png"
set title "Velocity along the surface across the flow (rigid co-rotation: v = z')"
set xlabel "z' / R"
set ylabel "v / (R Ω)"
unset logscale x
unset logscale y
plot "profile0.csv" using 4:3 every ::1 with linespoints title "N_{it} = 500, cold", \
     "profile0.csv" using 4:2 every ::1 with lines title "rigid rotation", \
     "profile1.csv" using 4:3 every ::1 with linespoints title "N_{it} = 500, warm", \
     "profile2.csv" using 4:3 every ::1 with linespoints title "N_{it} = 10, cold", \
     "profile3.csv" using 4:3 every ::1 with linespoints title "N_{it} = 10, warm"
set output "angle_over_time.png"
set title "Dynamic angle of repose over time"
set xlabel "t (s)"
set ylabel "angle (degrees)"
unset logscale x
unset logscale y
plot "series0.csv" using 3:1 every ::1 with lines title "N_{it} = 500, cold", \
     "series1.csv" using 3:1 every ::1 with lines title "N_{it} = 500, warm", \
     "series2.csv" using 3:1 every ::1 with lines title "N_{it} = 10, cold", \
     "series3.csv" using 3:1 every ::1 with lines title "N_{it} = 10, warm"
