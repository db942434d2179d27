set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "collapse_angle.png"
set title "Top-surface angle during the collapse (release at 4 s), first pour"
set xlabel "t (s)"
set ylabel "angle (degrees)"
unset logscale x
unset logscale y
plot "angle0.csv" using 5:1 every ::1 with lines title "N_{it} = 500", \
     "angle1.csv" using 5:1 every ::1 with lines title "N_{it} = 150"
