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

elements_log2=28
outdir=
for arg
do
  case $arg in
    --quick) elements_log2=20 ;;
    -h | --help) sed -n '2,/^# Copyright/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench-batched: unknown option '$arg' (usage: bench/bench-batched.sh [--quick] OUTDIR)" >&2; exit 2 ;;
    *)
      if test -n "$outdir"; then
        echo "bench-batched: one OUTDIR only (usage: bench/bench-batched.sh [--quick] OUTDIR)" >&2
        exit 2
      fi
      outdir=$arg ;;
  esac
done
if test -z "$outdir"; then
  echo "bench-batched: no OUTDIR (usage: bench/bench-batched.sh [--quick] OUTDIR)" >&2
  exit 2
fi
bench=${REDUCE_BENCH:-./reduce-bench}
if ! test -x "$bench"; then
  echo "bench-batched: $bench is not an executable (run from a build directory, or set REDUCE_BENCH)" >&2
  exit 2
fi
mkdir -p "$outdir/logs" || { echo "bench-batched: cannot create $outdir/logs" >&2; exit 2; }
srcdir=`dirname "$0"`/..
elements=$((1 << elements_log2))
timeout=
if command -v timeout >/dev/null 2>&1; then timeout="timeout ${BENCH_TIMEOUT:-300}"; fi
summary=$outdir/summary.txt
failed=0

{
  echo "bench-batched: `date -u '+%Y-%m-%d %H:%M UTC'` on `hostname 2>/dev/null`"
  nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader 2>/dev/null \
    | sed 's/^/GPU: /'
  "$bench" --version 2>&1 | sed 's/^/  /'
  echo "elements: 2^$elements_log2; GPUREDUCE_TUNE=${GPUREDUCE_TUNE-(unset)}; BENCH_ARGS=${BENCH_ARGS-}"
  echo "runs (exit status, seconds):"
} >"$summary"

# bench NAME ARGS...: reduce-bench ARGS --csv > OUTDIR/NAME.csv, its stderr
# in logs/NAME.err; a line in the summary.
bench ()
{
  name=$1
  shift
  echo "bench-batched: $name: $bench $* ${BENCH_ARGS-} --csv"
  t0=`date +%s`
  # shellcheck disable=SC2086 # $timeout and $BENCH_ARGS are word lists
  $timeout "$bench" "$@" ${BENCH_ARGS-} --csv >"$outdir/$name.csv" 2>"$outdir/logs/$name.err"
  rc=$?
  secs=$((`date +%s` - t0))
  echo "  $name: exit $rc (${secs}s): $*" >>"$summary"
  if test $rc -ne 0; then
    failed=1
    echo "bench-batched: $name FAILED (exit $rc); last lines of logs/$name.err:"
    tail -n 8 "$outdir/logs/$name.err" | sed 's/^/  | /'
  fi
  return $rc
}

# 1. The f32 sum: rows, columns, misaligned rows.
bench sweep-batched-f32-sum --sweep-batched --n "2^$elements_log2"

# 2. Every operation, f32 rows of 8, 512 and 65536: one CSV, one header.
every=$outdir/rows-f32-every-op.csv
: >"$every"
for op in sum prod min max argmin argmax sum_abs sum_squares nrm2 mean_var; do
  for n in 8 512 65536; do
    name=rows-f32-$op-$n
    bench "$name" --batch $((elements / n)) --n $n --op $op
    if test -s "$outdir/$name.csv"; then
      if ! test -s "$every"; then
        cat "$outdir/$name.csv" >"$every"
      elif test "`head -n 1 "$outdir/$name.csv"`" = "`head -n 1 "$every"`"; then
        sed 1d "$outdir/$name.csv" >>"$every"
      else
        echo "bench-batched: $name.csv has other columns than $every; left out of it" >&2
        failed=1
      fi
    fi
    rm -f "$outdir/$name.csv"
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
