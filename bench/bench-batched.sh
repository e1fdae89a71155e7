#!/bin/sh
# bench-batched.sh - the GPU measurements of the batched reductions (issue
# 12's targets) in one run: reduce-bench's batched modes, CSV files in OUTDIR.
#
# Usage: bench/bench-batched.sh [--quick] OUTDIR
#
# Run it on the GPU machine, from a build directory (it runs ./reduce-bench;
# REDUCE_BENCH=PATH runs another).  It writes, in OUTDIR:
#
#   sweep-batched-f32-sum.csv          --sweep-batched, f32 sum: 2^28 elements as
#                                      rows, as columns, as rows at ld = n + 1
#   rows-f32-every-op.csv              every operation on f32 rows of n = 8, 512
#                                      and 65536 (2^28 elements: 2^25, 2^19 and
#                                      2^12 rows), one --batch run each
#   sweep-batched-rows-f32-argmax.csv  the rows of --sweep-batched, f32 argmax
#   sweep-batched-rows-f16-sum.csv     the same, f16 sum
#   sweep-batched-rows-bf16-sum.csv    the same, bf16 sum
#   sweep-batched-f32-sum.png          the picture, when gnuplot is there
#   logs/NAME.err                      each run's standard error (wrong results
#                                      and failed statuses are there)
#   summary.txt                        the device, each run's exit status and
#                                      time, and the command for the picture
#
# Estimated at 5 to 8 minutes on an H200, not yet measured (four sweeps
# of 35 shapes, 30 single runs).
# Every run runs even when one before it failed; each is stopped after
# BENCH_TIMEOUT seconds (default 300) where timeout(1) exists.  --quick:
# 2^20 elements instead of 2^28, to try the script (the figures mean
# nothing).  BENCH_ARGS: more reduce-bench options for every run
# ("--device 1", "--repeat 9").  GPUREDUCE_TUNE and the tuning cache apply
# as to any run (reduce-bench(1)).
#
# Exit status: 0 when every run exited 0 (every checked result right), 1
# when one did not, 2 for a usage error.
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
set -u

me=bench-batched
# shellcheck source=bench/runs.sh
. "`dirname "$0"`/runs.sh"
srcdir=`dirname "$0"`/..

# 1. The f32 sum: rows, columns, misaligned rows.
bench sweep-batched-f32-sum --sweep-batched --n "2^$elements_log2"

# 2. Every operation, f32 rows of 8, 512 and 65536: one CSV, one header.
every=$outdir/rows-f32-every-op.csv
: >"$every"
for op in sum prod min max argmin argmax sum_abs sum_squares nrm2 mean_var; do
  for n in 8 512 65536; do
    bench "rows-f32-$op-$n" --batch $((elements / n)) --n $n --op $op
    append "$every" "rows-f32-$op-$n"
  done
done

# 3. Rows only: f32 argmax, f16 and bf16 sums, every n of the sweep (the
# sweep's other layouts dropped from the CSV).
for what in f32:argmax f16:sum bf16:sum; do
  type=${what%:*} op=${what#*:}
  name=sweep-batched-rows-$type-$op
  bench "$name" --sweep-batched --n "2^$elements_log2" --type "$type" --op "$op"
  awk -F, 'NR == 1 || $1 == "rows"' "$outdir/$name.csv" >"$outdir/$name.tmp" &&
    mv "$outdir/$name.tmp" "$outdir/$name.csv"
done

# The picture: here if gnuplot is, else the command for later.
in=$outdir/sweep-batched-f32-sum.csv
gpu=`nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1`
title="reduce-bench --sweep-batched, f32 sum, 2^$elements_log2 elements${gpu:+, $gpu}"
plot="gnuplot -e \"in='$in'; out='bench/data/sweep-batched-h200.png'; title='$title'\" bench/data/sweep-batched.gp"
if command -v gnuplot >/dev/null 2>&1 && test -s "$in"; then
  gnuplot -e "in='$in'; out='$outdir/sweep-batched-f32-sum.png'; title='$title'" \
    "$srcdir/bench/data/sweep-batched.gp" \
    2>>"$outdir/logs/gnuplot.err" || echo "bench-batched: gnuplot failed (logs/gnuplot.err)" >&2
fi
{
  echo "picture (in the source tree, with the CSV copied back to the path in in=...):"
  echo "  $plot"
  if test $failed -ne 0; then echo "RESULT: FAILED (see logs/*.err)"; else echo "RESULT: every run exited 0"; fi
} >>"$summary"
cat "$summary"
exit $failed
