set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "drum_80d_profile.png"
set title "Velocity across the flow, ω = 0.63 rad/s (Fig. 9)"
set xlabel "z' / R"
set ylabel "v / (R Ω)"
unset logscale x
unset logscale y
plot "profile0.csv" using 4:3 every ::1 with linespoints title "N_{it} = 10", \
     "profile1.csv" using 4:3 every ::1 with linespoints title "N_{it} = 25", \
     "profile2.csv" using 4:3 every ::1 with linespoints title "N_{it} = 50", \
     "profile3.csv" using 4:3 every ::1 with linespoints title "N_{it} = 150", \
     "profile4.csv" using 4:3 every ::1 with linespoints title "N_{it} = 500", \
     "profile4.csv" using 4:2 every ::1 with lines title "rigid rotation", \
     "profile5.csv" using 4:3 every ::1 with linespoints title "smooth DEM"
