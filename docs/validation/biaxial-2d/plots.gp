set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "biaxial_2d_friction_angle.png"
set title "Mobilised friction angle, sin(phi) = (s1 - s3)/(s1 + s3)"
set xlabel "axial strain"
set ylabel "phi (degrees)"
unset logscale x
unset logscale y
unset arrow
set autoscale
set yrange [0:40]
set arrow from graph 0, first 33 to graph 1, first 33 nohead dt 2
set arrow from graph 0, first 20 to graph 1, first 20 nohead dt 3
plot "cell_associated.csv" using 1:4 every ::1 with lines title "associated", \
     "cell_non_associated.csv" using 1:4 every ::1 with lines title "non-associated", \
     "cell_large.csv" using 1:4 every ::1 with lines title "26 000 disks"
set output "biaxial_2d_volumetric_strain.png"
set title "Volumetric strain (dilation positive)"
set xlabel "axial strain"
set ylabel "-volumetric strain"
unset logscale x
unset logscale y
unset arrow
set autoscale
plot "cell_associated.csv" using 1:3 every ::1 with lines title "associated", \
     "cell_non_associated.csv" using 1:3 every ::1 with lines title "non-associated", \
     "cell_large.csv" using 1:3 every ::1 with lines title "26 000 disks"
set output "biaxial_2d_early_steps.png"
set title "Friction angle at the first strains as the step falls (same packing)"
set xlabel "axial strain"
set ylabel "phi (degrees)"
unset logscale x
unset logscale y
unset arrow
set autoscale
set yrange [15:35]
plot "early_0.csv" using 1:2 every ::1 with lines title "associated, 0.1 % a step", \
     "early_1.csv" using 1:2 every ::1 with lines title "associated, 0.05 % a step", \
     "early_2.csv" using 1:2 every ::1 with lines title "associated, 0.025 % a step", \
     "early_3.csv" using 1:2 every ::1 with lines title "associated, 0.0125 % a step", \
     "early_4.csv" using 1:2 every ::1 with lines title "non-associated, 0.1 % a step", \
     "early_5.csv" using 1:2 every ::1 with lines title "non-associated, 0.05 % a step"
