set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set datafile separator ','
set key top left
set grid
set datafile missing 'nan'
set output "column_collapse_2d_profiles.png"
set title "Deposit at t/sqrt(h0/g) = 4 (surface height per mean diameter)"
set xlabel "distance from the wall s (m)"
set ylabel "surface height (m)"
unset logscale x
unset logscale y
unset arrow
set autoscale
plot "initial_surface.csv" using 2:1 every ::1 with lines title "column at release", \
     "surface_25.csv" using 2:1 every ::1 with lines title "25 steps", \
     "surface_50.csv" using 2:1 every ::1 with lines title "50 steps", \
     "surface_100.csv" using 2:1 every ::1 with lines title "100 steps", \
     "surface_200.csv" using 2:1 every ::1 with lines title "200 steps", \
     "surface_25_nonassociated.csv" using 2:1 every ::1 with lines title "25 steps, nu = 0.01", \
     "surface_50_nonassociated.csv" using 2:1 every ::1 with lines title "50 steps, nu = 0.01", \
     "surface_100_nonassociated.csv" using 2:1 every ::1 with lines title "100 steps, nu = 0.01", \
     "surface_200_nonassociated.csv" using 2:1 every ::1 with lines title "200 steps, nu = 0.01", \
     "surface_200_nonassociated_alone.csv" using 2:1 every ::1 with lines title "200 steps, nu = 0.01, interior point alone", \
     "surface_pgs.csv" using 2:1 every ::1 with lines title "PGS, 1 ms"
set output "column_collapse_2d_runout.png"
set title "Front of the collapsing column"
set xlabel "t / sqrt(h0/g)"
set ylabel "(L - L_i) / L_i"
unset logscale x
unset logscale y
unset arrow
set autoscale
plot "front_25.csv" using 4:2 every ::1 with lines title "25 steps", \
     "front_50.csv" using 4:2 every ::1 with lines title "50 steps", \
     "front_100.csv" using 4:2 every ::1 with lines title "100 steps", \
     "front_200.csv" using 4:2 every ::1 with lines title "200 steps", \
     "front_25_nonassociated.csv" using 4:2 every ::1 with lines title "25 steps, nu = 0.01", \
     "front_50_nonassociated.csv" using 4:2 every ::1 with lines title "50 steps, nu = 0.01", \
     "front_100_nonassociated.csv" using 4:2 every ::1 with lines title "100 steps, nu = 0.01", \
     "front_200_nonassociated.csv" using 4:2 every ::1 with lines title "200 steps, nu = 0.01", \
     "front_200_nonassociated_alone.csv" using 4:2 every ::1 with lines title "200 steps, nu = 0.01, interior point alone", \
     "front_pgs.csv" using 4:2 every ::1 with lines title "PGS, 1 ms"
set output "column_collapse_2d_residuals.png"
set title "Residual left by each step's solve (at most 50 Newton steps)"
set xlabel "t / sqrt(h0/g)"
set ylabel "relative residual"
unset logscale x
set logscale y
unset arrow
set autoscale
set arrow from graph 0, first 1e-6 to graph 1, first 1e-6 nohead dt 2
plot "residuals_associated.csv" using 2:1 every ::1 with points title "associated (cone program)", \
     "residuals_nonassociated.csv" using 2:1 every ::1 with points title "non-associated, nu = 0.01 (LCP)"
