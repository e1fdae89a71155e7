# sweep.gp - plot a reduce-bench sweep: GB/s against n for gpureduce, CUB
# and the read-only probe, with the bandwidth limit drawn.
#
#   ./reduce-bench --sweep --csv > sweep.csv
#   gnuplot -e "in='sweep.csv'; out='sweep.png'" bench/data/sweep.gp
#
# Optional: limit=GBS (default: the probe's best GB/s over the sizes that
# do not fit in L2, the DRAM limit), title='...'.  Columns are found by the names --csv writes, so CUB or probe
# columns that a run lacks are simply left out.
if (!exists("in")) in = 'sweep.csv'
if (!exists("out")) out = 'sweep.png'
if (!exists("title")) title = 'reduce-bench --sweep'

set datafile separator ','
set datafile commentschars '#'
set key autotitle columnhead

stats in using (column('l2_resident') == 0 ? column('probe_gbs') : NaN) name 'P' nooutput
if (!exists("limit")) limit = P_max

set terminal pngcairo size 1000,620 font ',11'
set output out
set title title
set logscale x 2
set format x '2^{%L}'
set xlabel 'n (elements)'
set ylabel 'GB/s (bytes read / time)'
set grid
set key right bottom
set yrange [0:*]
set arrow 1 from graph 0, first limit to graph 1, first limit nohead dt 2 lw 2 lc rgb '#808080'
set label 1 sprintf('bandwidth limit (read-only probe, data beyond L2): %.0f GB/s; below 2^{24} the data stays in L2', limit) at graph 0.02, first limit offset 0,0.8 tc rgb '#606060'
# smooth unique: in order of n (2^24-611 comes after 2^24 in the file)
plot in using (column('n')):(column('gpureduce_gbs')) smooth unique with linespoints lw 2 pt 7 title 'gpureduce', \
     in using (column('n')):(column('cub_gbs')) smooth unique with linespoints lw 2 pt 5 title 'CUB DeviceReduce', \
     in using (column('n')):(column('probe_gbs')) smooth unique with linespoints lw 1 pt 1 dt 3 title 'read-only probe (best grid)'
