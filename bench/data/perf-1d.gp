# perf-1d.gp - plot bench/data/perf-h200-1d.csv (bench/grid-1d --csv):
# CUB's time over gpureduce's for every (op, type) at each n, aligned
# (offset 0) and misaligned (the other offset), one point a row; above 1,
# gpureduce is faster.  The f32 sum is drawn as a line.
#
#   GPUREDUCE_TUNE=off bench/grid-1d --csv > perf-1d.csv
#   gnuplot -e "in='perf-1d.csv'; out='perf-1d.png'" bench/data/perf-1d.gp
if (!exists("in")) in = 'perf-1d.csv'
if (!exists("out")) out = 'perf-1d.png'
if (!exists("title")) title = 'bench/grid-1d: CUB time / gpureduce time, every op and type'

set datafile separator ','
set terminal pngcairo size 1200,560 font ',11'
set output out
set multiplot layout 1,2 title title
set logscale x 2
set format x '2^{%L}'
set xlabel 'n (elements)'
set ylabel 'CUB us / gpureduce us'
set grid
set yrange [0.4:2.6]
set key left top
ratio(o) = (strcol(4) eq o && strlen(strcol(6)) > 0) ? column(6) / column(5) : NaN
f32sum(o) = (strcol(1) eq 'sum' && strcol(2) eq 'f32' && strcol(4) eq o) ? column(6) / column(5) : NaN
jit(x) = x * (1 + 0.06 * (rand(0) - 0.5))
do for [o in "0 3"] {
  set title sprintf('offset %s elements', o)
  plot in every ::1 using (jit(column(3))):(ratio(o)) with points pt 7 ps 0.5 lc rgb '#6090c0' title 'an (op, type)', \
       '' every ::1 using 3:(f32sum(o)) with linespoints lw 2 lc rgb '#c03020' title 'f32 sum', \
       1 with lines dt 2 lc rgb 'black' title 'as fast as CUB'
}
unset multiplot
