# sweep-batched.gp - plot a reduce-bench --sweep-batched run: GB/s (input
# plus output bytes / time; the probe: the bytes it reads / time) against
# the vector length n, one line per implementation (gpureduce, CUB's
# DeviceSegmentedReduce, the read-only probe) and the target's fraction of
# the probe dashed, one panel per layout: rows, columns, misaligned rows.
#
#   ./reduce-bench --sweep-batched --csv > sweep-batched.csv
#   gnuplot -e "in='sweep-batched.csv'; out='sweep-batched.png'" bench/data/sweep-batched.gp
#
# Optional: title='...'; op='sum' and type='f32' keep only that operation's
# rows of a CSV that holds several (default: every row); logy=1 for a
# logarithmic GB/s axis (CUB's short rows are far below the others).
# Columns are found by the names --csv writes (reduce-bench(1)); a layout
# the CSV lacks gets no panel, and CUB or probe figures a run lacks (or a
# shape gpureduce failed on) are left out of their line.
if (!exists("in")) in = 'sweep-batched.csv'
if (!exists("out")) out = 'sweep-batched.png'
if (!exists("title")) title = 'reduce-bench --sweep-batched'
if (!exists("op")) op = ''
if (!exists("type")) type = ''
if (!exists("logy")) logy = 0

set datafile separator ','
set datafile commentschars '#'
set key autotitle columnhead

# This row's layout is L and its operation the one asked for.
keep(L) = strcol('layout') eq L && (op eq '' || strcol('op') eq op) && \
          (type eq '' || strcol('type') eq type)
# column c of the rows of layout L; NaN elsewhere and where c is empty
# (an empty CSV field reads as a missing value)
of(L, c) = keep(L) ? column(c) : NaN

# The panels: the layouts the CSV has, in reduce-bench's order.  (A sum in
# the using expression: stats with no valid point would stop the script.)
# n_max: the longest vector, the right end of every panel's axis.
n_rows = 0; n_columns = 0; n_misaligned = 0; n_max = 1
any(dummy) = keep('rows') || keep('columns') || keep('misaligned')
stats in using (n_rows = n_rows + keep('rows'), \
                n_columns = n_columns + keep('columns'), \
                n_misaligned = n_misaligned + keep('misaligned'), \
                n_max = any(0) && column('n') > n_max ? column('n') : n_max, 0) name 'S' nooutput
panels = (n_rows > 0) + (n_columns > 0) + (n_misaligned > 0)
if (panels == 0) {
  print sprintf("sweep-batched.gp: no rows of layout rows, columns or misaligned in %s", in)
  exit status 1
}

set terminal pngcairo size 1000,(100 + 440 * panels) font ',11'
set output out
set multiplot layout panels,1 title title font ',13'
set logscale x 2
set xrange [1:n_max]
set format x '2^{%L}'
set xlabel 'n (elements per vector)'
set ylabel 'GB/s (input + output bytes / time)'
set grid
set key below horizontal maxrows 2 width -2
if (logy) { set logscale y 10; set yrange [*:*] } else { set yrange [0:*] }
set offsets 0, 0, graph 0.05, 0

# A panel per layout: the three implementations and target x probe.
do for [p = 1:3] {
  L = p == 1 ? 'rows' : p == 2 ? 'columns' : 'misaligned'
  if ((p == 1 ? n_rows : p == 2 ? n_columns : n_misaligned) > 0) {
    target = L eq 'misaligned' ? 0.75 : 0.85
    if (L eq 'rows') { set title 'rows (ld = n): batch x n row-major, one result per row' }
    if (L eq 'columns') { set title 'columns (ld = batch): n x batch row-major, one result per column' }
    if (L eq 'misaligned') { set title 'misaligned rows (ld = n + 1)' }
    cubname = L eq 'columns' ? 'CUB DeviceSegmentedReduce (permutation iterator)' \
                             : 'CUB DeviceSegmentedReduce (offset iterators)'
    # smooth unique: in order of n
    plot in using (of(L, 'n')):(of(L, 'gpureduce_gbs')) smooth unique \
           with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'gpureduce\_reduce\_batched', \
         in using (of(L, 'n')):(of(L, 'cub_gbs')) smooth unique \
           with linespoints lw 2 pt 5 lc rgb '#d62728' title cubname, \
         in using (of(L, 'n')):(of(L, 'probe_gbs')) smooth unique \
           with linespoints lw 1 pt 1 dt 3 lc rgb '#404040' title 'read-only probe (its bytes read / time)', \
         in using (of(L, 'n')):(target * of(L, 'probe_gbs')) smooth unique \
           with lines lw 1 dt 2 lc rgb '#2ca02c' title sprintf('target: %.2f x probe', target)
  }
}
unset multiplot
