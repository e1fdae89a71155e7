#!/bin/sh
# bench-segments.sh - the GPU measurements of the segmented reductions
# (issue 13's targets) in one run: reduce-bench's segmented modes, CSV
# files in OUTDIR.
#
# Usage: bench/bench-segments.sh [--quick] OUTDIR
#
# Run it on the GPU machine, from a build directory (it runs ./reduce-bench;
# REDUCE_BENCH=PATH runs another).  It writes, in OUTDIR:
#
#   sweep-segments-f32-sum.csv  --sweep-segments, f32 sum, 2^28 elements:
#                               uniform:L for L = 1, 2, 4, 8, 32, 128, 512,
#                               4096, 65536, 2^20, 2^24 and 2^28 (the shapes
#                               of doc/PERFORMANCE.md's batched tables),
#                               random:L (lengths
#                               0..2L) for the same L below 2^28,
#                               zipf:1.5:1048576, huge:1:64 (2^27 elements in
#                               one segment, 2^27 in segments of 1-64) and
#                               huge:1:64:1048576 (2^20 segments of 1-64, the
#                               rest, about 7/8, in one)
#   segments-f32-argmax.csv     f32 argmax on the shapes below, one
#                               --segments run each
#   segments-f64-sum.csv        f64 sum on the same shapes (2^28 elements:
#                               2 GiB)
#   targets.txt                 issue 13's targets against the f32 sum sweep,
#                               one line per row: gr/probe, gr/cub, and ok
#                               or MISS
#   logs/NAME.err               each run's standard error (wrong results
#                               and failed statuses are there)
#   summary.txt                 the device, each run's exit status and time
#
# The shapes of the argmax and f64 runs: uniform:32, uniform:4096,
# random:512, zipf:1.5:1048576, huge:1:64 and huge:1:64:1048576.
#
# Estimated at 2 to 3 minutes of GPU time on an H200, not yet measured
# (a sweep of 26 rows, 12 single runs; CUB's rows of 2^28 segments of one
# element take about 0.3 s a call).  Every run runs even when one before
# it failed; each is stopped after BENCH_TIMEOUT seconds (default 300)
# where timeout(1) exists.  --quick: 2^20 elements instead of 2^28, to try
# the script (the figures mean nothing; huge:1:64:K then has K = 2^12).
# BENCH_ARGS: more reduce-bench options for every run ("--device 1",
# "--repeat 9").  GPUREDUCE_TUNE and the tuning cache apply
# as to any run (reduce-bench(1)).
#
# Exit status: 0 when every run exited 0 (every checked result right), 1
# when one did not, 2 for a usage error.  A missed target is not a
# failure: targets.txt says MISS.
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
set -u

me=bench-segments
# shellcheck source=bench/runs.sh
. "`dirname "$0"`/runs.sh"
# huge:1:64:K: 2^20 small segments at 2^28 elements (--sweep-segments's K = elements / 256)
small=$((elements / 256))

# 1. The f32 sum: every distribution of --sweep-segments.
bench sweep-segments-f32-sum --sweep-segments --n "2^$elements_log2"

# 2. f32 argmax and f64 sum on a few shapes: one CSV each, one header.
for what in f32:argmax f64:sum; do
  type=${what%:*} op=${what#*:}
  all=$outdir/segments-$type-$op.csv
  : >"$all"
  for dist in uniform:32 uniform:4096 random:512 zipf:1.5:1048576 huge:1:64 "huge:1:64:$small"; do
    name=segments-$type-$op-`echo "$dist" | tr ':.' '--'`
    bench "$name" --segments "$dist" --n "2^$elements_log2" --type "$type" --op "$op"
    append "$all" "$name"
  done
done

# 3. The targets of issue 13 against the f32 sum sweep: uniform lengths
# >= 0.80 x the probe; zipf:1.5:2^20 and the huge rows >= 0.75 x the
# probe; faster than CUB everywhere (random:L has no probe target of its
# own).
targets=$outdir/targets.txt
if test -s "$outdir/sweep-segments-f32-sum.csv"; then
  awk -F, '
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    function f(key) { return (key in col) ? $(col[key]) : "" }
    function r(x) { return x == "" ? "-" : sprintf("%.2f", x) }
    {
      d = f("distribution"); k = f("kind")
      probe = f("gpureduce_vs_probe"); cub = f("gpureduce_vs_cub")
      verdict = ""
      want_probe = (k == "uniform") ? 0.80 : (k == "zipf" || k == "huge") ? 0.75 : 0
      if (want_probe && (probe == "" || probe + 0 < want_probe)) verdict = verdict " probe<" want_probe
      if (cub == "" && f("cub_us") != "n/a") verdict = verdict " cub:none"
      else if (cub != "" && cub + 0 <= 1) verdict = verdict " cub<=1"
      if (f("check") !~ /^ok/) verdict = verdict " check:" f("check")
      printf "%-20s gr/probe %5s  gr/cub %8s  %s\n", d, r(probe), r(cub),
        verdict == "" ? "ok" : "MISS" verdict
    }' "$outdir/sweep-segments-f32-sum.csv" >"$targets"
else
  echo "no sweep-segments-f32-sum.csv: no targets" >"$targets"
fi

{
  echo "targets (issue 13; f32 sum, 2^$elements_log2 elements):"
  sed 's/^/  /' "$targets"
  if test $failed -ne 0; then echo "RESULT: FAILED (see logs/*.err)"; else echo "RESULT: every run exited 0"; fi
} >>"$summary"
cat "$summary"
exit $failed
