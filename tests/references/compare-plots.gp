# plots.gp - written by vlroute compare; run "gnuplot plots.gp" here.
set terminal svg size 900,500 dynamic font 'sans,11'
set style fill solid 0.6 border -1
set xtics rotate by -25 noenhanced
set key noenhanced
set grid ytics
set yrange [0:*]

set output 'ebb.svg'
set title 'Effective bisection bandwidth: 20 random bisections, 95% interval'
set ylabel 'ebb (1 = full bandwidth)'
set style data histograms
set style histogram errorbars gap 2 lw 1
plot 'ebb.dat' using 2:3:4:xtic(1) notitle

set output 'linkload.svg'
set title 'All-to-all routes per switch-to-switch channel'
set xlabel 'routes per channel (bin centre)'
set ylabel 'channels'
set style histogram clustered gap 1
plot for [i=2:4] 'linkload.dat' using i:xtic(1) title columnheader(i)
