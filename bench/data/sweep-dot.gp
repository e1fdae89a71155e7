# sweep-dot.gp - plot reduce-bench's dot-product sweeps: GB/s (both inputs)
# against n for gpureduce_dot and cuBLAS, f32 and f64.
#
#   ./reduce-bench --op dot --type f32 --sweep --csv > dot-f32.csv
#   ./reduce-bench --op dot --type f64 --sweep --csv > dot-f64.csv
#   gnuplot -e "f32='dot-f32.csv'; f64='dot-f64.csv'; out='dot.png'" bench/data/sweep-dot.gp
#
# Columns are found by the names --csv writes (n, gpureduce_gbs, cublas_gbs).
if (!exists("f32")) f32 = 'dot-f32.csv'
if (!exists("f64")) f64 = 'dot-f64.csv'
if (!exists("out")) out = 'dot.png'
if (!exists("title")) title = 'reduce-bench --op dot --sweep (H200): gpureduce\_dot against cuBLAS'

set datafile separator ','
set datafile commentschars '#'
set key autotitle columnhead
set terminal pngcairo size 1000,620 font ',11'
set output out
set title title
set logscale x 2
set format x '2^{%L}'
set xlabel 'n (elements of each input)'
set ylabel 'GB/s (2 n x element size / time)'
set grid
set key left top
set yrange [0:*]
plot f32 using (column('n')):(column('gpureduce_gbs')) with linespoints lw 2 pt 7 title 'gpureduce\_dot f32', \
     f32 using (column('n')):(column('cublas_gbs')) with linespoints lw 2 pt 5 dt 2 title 'cublasSdot', \
     f64 using (column('n')):(column('gpureduce_gbs')) with linespoints lw 2 pt 9 title 'gpureduce\_dot f64', \
     f64 using (column('n')):(column('cublas_gbs')) with linespoints lw 2 pt 11 dt 2 title 'cublasDdot'
