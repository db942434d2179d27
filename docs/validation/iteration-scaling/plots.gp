set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "sweeps_vs_height.png"
set title "PGS sweeps for ⟨ε_c⟩ ≤ 0.05 vs fill height (Eq. 41 dashed)"
set xlabel "fill height l / d"
set ylabel "N_{it}^{0.05}"
set logscale x
set logscale y
plot "family0.csv" using 2:4 every ::1 with linespoints lc 1 title "1 d column", \
     "family0.csv" using 2:1 every ::1 with lines dashtype 2 lc 1 title "1 d column, Eq. 41", \
     "family1.csv" using 2:4 every ::1 with linespoints lc 2 title "6 d silo", \
     "family1.csv" using 2:1 every ::1 with lines dashtype 2 lc 2 title "6 d silo, Eq. 41", \
     "family2.csv" using 2:4 every ::1 with linespoints lc 3 title "9 d silo", \
     "family2.csv" using 2:1 every ::1 with lines dashtype 2 lc 3 title "9 d silo, Eq. 41"
