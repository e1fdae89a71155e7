#!/bin/sh
# reduce-bench.sh - reduce-bench's command line, on the host backend:
# exit statuses as reduce-bench(1) documents them, results checked, CSV
# that a CSV reader takes (every line as many fields as the header), JSON
# with the options in it.  Prints TAP.  Speed is not tested here.
#
# Runs the same on machines with and without a GPU (--backend host, and
# --device 1023, which no machine has).  Run by `make check'
# (Makefile.am's AM_TESTS_ENVIRONMENT sets GR_ABS_TOP_BUILDDIR).
#
# The batched modes (--batch, --sweep-batched): their options and bad
# values everywhere; small runs with --backend cuda, each a SKIP on a
# machine without a CUDA device (reduce-bench exits 3 and says so); the
# same on the host backend, a SKIP while libgpureduce lacks
# gpureduce_reduce_batched (reduce-bench says so and exits 1).
#
# The segmented modes (--segments, --sweep-segments, --seed): their
# options and bad distributions everywhere; small runs on the host
# backend, and with --backend cuda, each a SKIP on a machine without a
# CUDA device.
#
# The 1-D sweep (--sweep-1d, --sizes, --runs, the lists of --op and
# --type): its usage errors, and small runs on the host backend, whose
# CSV must have the columns of bench/data/perf-h200-1d.csv and a row, checked
# ok, for every (op, type) gpureduce_reduce supports, size and offset.
#
# --with-value (ARGMIN and ARGMAX with the element's value): its usage
# errors; the ladder's single mode (the plain arg op's row beside it),
# the batched and the segmented modes on the host backend, and small runs
# with --backend cuda, each a SKIP on a machine without a CUDA device.
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

# shellcheck source=tests/dist/taplib.sh
. "`dirname "$0"`/taplib.sh"
tap_need GR_ABS_TOP_BUILDDIR
LC_ALL=C
export LC_ALL
# The tuning cache is not this test's business: never read or write one.
GPUREDUCE_TUNE=off
export GPUREDUCE_TUNE
bench=$GR_ABS_TOP_BUILDDIR/reduce-bench${GR_EXEEXT-}

tap_tmpdir bench

echo "1..156"
n=0

# expect STATUS DESCRIPTION ARGS...: run reduce-bench ARGS (stdout in
# $tmp/out, stderr in $tmp/err); ok when it exits with STATUS.
expect ()
{
  want=$1 desc=$2
  shift 2
  "$bench" "$@" > "$tmp/out" 2> "$tmp/err"
  got=$?
  n=$((n + 1))
  if test "$got" -eq "$want"; then
    echo "ok $n - $desc"
    return 0
  fi
  echo "not ok $n - $desc: exit status $got, expected $want"
  sed 's/^/# stderr: /' "$tmp/err" | head -n 5
  return 1
}

# also DESCRIPTION COMMAND...: one more test point, ok when COMMAND succeeds.
also ()
{
  desc=$1
  shift
  n=$((n + 1))
  if "$@"; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; fi
}

# csv_fields: the number of fields of each line of stdin, as RFC 4180
# counts them (a quoted field may hold commas and doubled quotes).
csv_fields ()
{
  awk '{
    f = 1; q = 0
    for (i = 1; i <= length($0); ++i) {
      c = substr($0, i, 1)
      if (c == "\"") q = !q
      else if (c == "," && !q) ++f
    }
    print f
  }'
}

same_field_count ()
{
  test -s "$1" && test "$(csv_fields < "$1" | sort -u | wc -l)" -eq 1
}

# refused DESCRIPTION MESSAGE ARGS...: a usage error (exit 2) whose first
# line on stderr holds MESSAGE (a fixed string).
refused ()
{
  desc=$1 msg=$2
  shift 2
  "$bench" "$@" > "$tmp/out" 2> "$tmp/err"
  got=$?
  n=$((n + 1))
  if test "$got" -eq 2 && head -n 1 "$tmp/err" | grep -F -e "$msg" > /dev/null; then
    echo "ok $n - $desc"
  else
    echo "not ok $n - $desc: exit status $got (expected 2), stderr:"
    sed 's/^/# /' "$tmp/err" | head -n 3
  fi
}

# run_or_skip DESCRIPTION ARGS...: run reduce-bench ARGS; ok when it exits
# 0.  A SKIP, and skipped set to the reason, when it exits 3 saying there
# is no CUDA device, or exits 1 saying the library lacks
# gpureduce_reduce_batched; `also_run' then skips too.
skipped=
run_or_skip ()
{
  desc=$1
  shift
  "$bench" "$@" > "$tmp/out" 2> "$tmp/err"
  got=$?
  n=$((n + 1))
  skipped=
  if test "$got" -eq 3 && grep 'no CUDA device' "$tmp/err" > /dev/null; then
    skipped="no CUDA device"
  elif test "$got" -eq 1 && grep 'gpureduce_reduce_batched is not in the libgpureduce' "$tmp/err" > /dev/null; then
    skipped="libgpureduce has no gpureduce_reduce_batched yet"
  fi
  if test -n "$skipped"; then
    echo "ok $n - $desc # SKIP $skipped"
  elif test "$got" -eq 0; then
    echo "ok $n - $desc"
  else
    echo "not ok $n - $desc: exit status $got, expected 0"
    sed 's/^/# stderr: /' "$tmp/err" | head -n 12
  fi
}

# also_run DESCRIPTION COMMAND...: as also, a SKIP after a skipped run_or_skip.
also_run ()
{
  if test -n "$skipped"; then
    n=$((n + 1))
    echo "ok $n - $1 # SKIP $skipped"
    return 0
  fi
  also "$@"
}

# csv_has KEY...: the header line of $tmp/out names every KEY.
csv_has ()
{
  for key
  do
    head -n 1 "$tmp/out" | tr ',' '\n' | grep -x -e "$key" > /dev/null || return 1
  done
}

# data_lines N: the CSV in $tmp/out has N lines under its header.
data_lines ()
{
  test "$(($(wc -l < "$tmp/out") - 1))" -eq "$1"
}

# checked_ok: every data line of the CSV in $tmp/out has a check field of
# "ok" or "ok (4096)", and there is one.
checked_ok ()
{
  awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "check") c = i; next }
           { ++rows; if ($c != "ok" && $c != "ok (4096)") bad = 1 }
           END { exit !(c && rows && !bad) }' "$tmp/out"
}

expect 0 "--version" --version
expect 0 "the host ladder, 2^16+3 floats, every result right" \
  --backend host --n 2^16+3
also "it reports the check" grep -q '^check: all .* right' "$tmp/out"

expect 0 "u8 argmin at offset 5, checked against the oracle" \
  --backend host --op argmin --type u8 --n 4K --offset 5

expect 0 "--csv" --backend host --n 1000 --csv
also "--csv: every line has the header's number of fields" \
  same_field_count "$tmp/out"

expect 0 "--json" --backend host --n 1000 --json
also "--json names the backend, n and repeat" \
  grep -q '"backend": "host", "repeat": 10, "n": 1000' "$tmp/out"

expect 2 "an unknown option is a usage error" --no-such-option
expect 2 "--csv and --json together are a usage error" --csv --json
expect 3 "--device 1023: no such CUDA device" --device 1023 --n 1000

# ---- the batched modes ------------------------------------------------------
expect 0 "--help" --help
for opt in "--batch B" "--columns" "--stride S" "--sweep-batched" "--sweep-elements N" \
  "--layouts LIST"; do
  also "--help lists $opt" grep -q -e "^  $opt\( \|\$\)" "$tmp/out"
done

refused "--batch 0 is refused" "--batch: 0 is out of range" --batch 0 --n 8
refused "--batch garbage is refused" "--batch: '12x' is not a count" --batch 12x --n 8
refused "--stride below the row length is refused" \
  "--stride 7: below the dense leading dimension 8" --batch 4 --n 8 --stride 7
refused "--columns: --stride below the column count is refused" \
  "--stride 3: below the dense leading dimension 4" --batch 4 --n 8 --columns --stride 3
refused "--columns needs --batch" "describe the matrix of --batch" --columns --n 8
refused "--sweep-elements needs a sweep" "--sweep-elements applies to --sweep-batched and --sweep-segments" \
  --sweep-elements 1K
refused "--layouts takes rows, columns, misaligned" "'diagonal' is not a layout" \
  --sweep-batched --layouts rows,diagonal
refused "--batch and --sweep-batched exclude each other" "the sweep has its own shapes" \
  --batch 4 --sweep-batched
refused "--n and --sweep-batched exclude each other" "the sweep has its own sizes" \
  --sweep-batched --n 8
refused "--batch and --blocks exclude each other" "not with --sweep, --tune, --only or --blocks" \
  --batch 4 --n 8 --blocks 2
refused "a matrix of more than 2^40 elements is refused" "spans more than 2^40 elements" \
  --batch 2^30 --n 2^11

# CUDA: skipped where there is no device.
run_or_skip "cuda: rows, 133 x 1000 f32 sums, every row checked" \
  --backend cuda --batch 133 --n 1000 --repeat 1
run_or_skip "cuda: columns of a 1000 x 133 f16 matrix at ld 140, argmax" \
  --backend cuda --batch 133 --n 1000 --columns --stride 140 --op argmax --type f16 --repeat 1
run_or_skip "cuda: 100000 misaligned bf16 rows of 3 (ld 4), min, a sample checked" \
  --backend cuda --batch 100000 --n 3 --stride 4 --op min --type bf16 --repeat 1 --csv
also_run "cuda: the sample is checked" checked_ok
run_or_skip "cuda: --sweep-batched on 2^16 elements, --csv" \
  --backend cuda --sweep-batched --sweep-elements 2^16 --repeat 1 --csv
also_run "cuda: --sweep-batched --csv: every line has the header's number of fields" \
  same_field_count "$tmp/out"
also_run "cuda: --sweep-batched --csv: the keys of reduce-bench(1)" csv_has layout n batch ld \
  bytes gpureduce_us gpureduce_gbs cub_us cub_gbs probe_us probe_gbs gpureduce_vs_probe \
  gpureduce_vs_cub check op type
also_run "cuda: --sweep-batched on 2^16 elements: 26 shapes (9 rows, 9 columns, 8 misaligned)" \
  data_lines 26
also_run "cuda: --sweep-batched: every shape checked ok" checked_ok

# The host backend: skipped while the library lacks the function.
run_or_skip "host: columns of a 1000 x 133 f16 matrix at ld 140, argmax" \
  --backend host --batch 133 --n 1000 --columns --stride 140 --op argmax --type f16 --repeat 1
run_or_skip "host: --sweep-batched on 2^10 elements, i32 sum_squares, --csv" \
  --backend host --sweep-batched --sweep-elements 2^10 --op sum_squares --type i32 --repeat 1 \
  --csv
also_run "host: --sweep-batched --csv: every line has the header's number of fields" \
  same_field_count "$tmp/out"
also_run "host: --sweep-batched on 2^10 elements: 23 shapes (8 rows, 8 columns, 7 misaligned)" \
  data_lines 23
also_run "host: --sweep-batched: every shape checked ok" checked_ok
run_or_skip "host: --sweep-batched on 2^10 elements, f32 mean_var accumulated in double, --csv" \
  --backend host --sweep-batched --sweep-elements 2^10 --op mean_var --type f32 \
  --f64-accumulate --repeat 1 --csv
also_run "host: --sweep-batched mean_var: every shape checked ok" checked_ok
run_or_skip "host: --sweep-batched on 2^10 elements, u8 nrm2, --csv" \
  --backend host --sweep-batched --sweep-elements 2^10 --op nrm2 --type u8 --repeat 1 --csv
also_run "host: --sweep-batched nrm2: every shape checked ok" checked_ok
run_or_skip "host: --batch --json" --backend host --batch 3 --n 5 --stride 6 --json --repeat 1
also_run "host: --batch --json names batch, layout and ld" \
  grep -q '"batch": 3, "layout": "rows", "ld": 6' "$tmp/out"

# ---- the segmented modes ----------------------------------------------------
expect 0 "--help" --help
for opt in "--segments DIST" "--sweep-segments" "--seed S"; do
  also "--help lists $opt" grep -q -e "^  $opt\( \|\$\)" "$tmp/out"
done

refused "--segments needs a value" "--segments needs a value" --segments
refused "--segments: an unknown distribution is refused" "'bogus:4' is not a distribution" \
  --segments bogus:4
refused "--segments: uniform without L is refused" "uniform takes one field" --segments uniform
refused "--segments: random with two fields is refused" "random takes one field" \
  --segments random:4:5
refused "--segments: uniform:0 is refused" "L = 0 is out of range" --segments uniform:0
refused "--segments: L must be a count" "L '12x' is not a count" --segments uniform:12x
refused "--segments: zipf's exponent must be a number" "S 'abc' is not an exponent" \
  --segments zipf:abc:100
refused "--segments: zipf's exponent must be above 0" "S '0' is not an exponent" \
  --segments zipf:0:100
refused "--segments: zipf's MAX is at most 2^24" "MAX = 2^25 is out of range" \
  --segments zipf:1.5:2^25
refused "--segments: zipf needs MAX" "zipf takes two fields" --segments zipf:1.5
refused "--segments: huge:A:B with A above B is refused" "A is above B" --segments huge:5:3
refused "--segments: huge:A:B needs B >= 1" "B = 0 is out of range" --segments huge:0:0
refused "--segments: huge:A:B:K needs K x B below --n" "K x B = 1048576 x 64 is not below" \
  --segments huge:1:64:2^20 --n 2^20
refused "--segments: huge needs two elements" "needs --n 2 or more" --segments huge:1:64 --n 1
refused "--segments: uniform:L with L above --n is refused" "L is above the --n elements (1000)" \
  --segments uniform:2000 --n 1000
refused "--segments and --sweep-segments exclude each other" "its own distributions" \
  --segments uniform:4 --sweep-segments
refused "--n and --sweep-segments exclude each other" "the sweep has its own sizes" \
  --sweep-segments --n 8
refused "--segments and --batch exclude each other" "not with --batch" \
  --segments uniform:4 --batch 4 --n 8
refused "--segments and --blocks exclude each other" "not with --sweep, --tune, --only or --blocks" \
  --segments uniform:4 --blocks 2
refused "--layouts does not apply to --sweep-segments" "--layouts applies to --sweep-batched" \
  --sweep-segments --layouts rows
refused "--seed needs a segmented mode" "for --segments and --sweep-segments" --seed 5
refused "--seed takes a decimal number" "--seed: '-1' is not" --segments uniform:4 --seed -1

# seg_checked_ok: every data line of the CSV in $tmp/out has a check field
# of "ok", "ok (4096)" or "ok (4097)", and there is one.
seg_checked_ok ()
{
  awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "check") c = i; next }
           { ++rows; if ($c != "ok" && $c != "ok (4096)" && $c != "ok (4097)") bad = 1 }
           END { exit !(c && rows && !bad) }' "$tmp/out"
}

# csv_column KEY: the field KEY of every data line of the CSV in $tmp/out.
csv_column ()
{
  awk -F, -v key="$1" 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == key) c = i; next }
                       c { print $c }' "$tmp/out"
}

# seg_row_is SEGMENTS CHECK: the CSV in $tmp/out has one row, with those
# segments and that check.
seg_row_is ()
{
  test "$(csv_column segments)" = "$1" && test "$(csv_column check)" = "$2"
}

# The host backend.
run_or_skip "host: random:5 over 1000 f32 sums, --csv" \
  --backend host --segments random:5 --n 1000 --repeat 1 --csv
also_run "host: --segments --csv: the keys of reduce-bench(1)" csv_has distribution kind \
  length segments n min_length max_length mean_length empty_segments bytes gpureduce_us \
  gpureduce_gbs check op type f64_accumulate seed
also_run "host: --segments --csv: every segment checked ok" seg_checked_ok
csv_column segments > "$tmp/segments.1"
run_or_skip "host: the same --segments run again" \
  --backend host --segments random:5 --n 1000 --repeat 1 --csv
csv_column segments > "$tmp/segments.2"
also_run "host: the same seed gives the same segments" cmp -s "$tmp/segments.1" "$tmp/segments.2"
run_or_skip "host: huge:0:3:100 over 2^12 f16 elements, argmax (empty segments)" \
  --backend host --segments huge:0:3:100 --n 2^12 --op argmax --type f16 --repeat 1 --csv
also_run "host: huge:0:3:100: 101 segments, checked ok" seg_row_is 101 ok
run_or_skip "host: huge:0:3:100 over 2^12 f64 elements, mean_var (empty segments)" \
  --backend host --segments huge:0:3:100 --n 2^12 --op mean_var --type f64 --repeat 1 --csv
also_run "host: huge:0:3:100 mean_var: 101 segments, checked ok" seg_row_is 101 ok
run_or_skip "host: huge:0:3:100 over 2^12 f32 elements, nrm2" \
  --backend host --segments huge:0:3:100 --n 2^12 --op nrm2 --type f32 --repeat 1 --csv
also_run "host: huge:0:3:100 nrm2: 101 segments, checked ok" seg_row_is 101 ok
run_or_skip "host: uniform:8 over 2^10 i32 elements, batched beside it, --csv" \
  --backend host --segments uniform:8 --n 2^10 --type i32 --repeat 1 --csv
also_run "host: uniform:8: the batched call's columns" csv_has batched_us gpureduce_vs_batched
run_or_skip "host: --segments --json" --backend host --segments zipf:1.5:64 --n 2^12 --seed 7 \
  --json --repeat 1
also_run "host: --segments --json names the distribution and the seed" \
  grep -q '"distribution": "zipf:1.5:64", "seed": 7' "$tmp/out"
run_or_skip "host: --sweep-segments on 2^10 elements, u8 max, --csv" \
  --backend host --sweep-segments --sweep-elements 2^10 --op max --type u8 --repeat 1 --csv
also_run "host: --sweep-segments --csv: every line has the header's number of fields" \
  same_field_count "$tmp/out"
also_run "host: --sweep-segments on 2^10 elements: 18 rows (8 uniform, 7 random, zipf, 2 huge)" \
  data_lines 18
also_run "host: --sweep-segments: every row checked ok" seg_checked_ok

# CUDA: skipped where there is no device.
run_or_skip "cuda: zipf:1.5:4096 over 2^20 f32 sums" \
  --backend cuda --segments zipf:1.5:4096 --n 2^20 --repeat 1
run_or_skip "cuda: uniform:1 over 100000 bf16 elements, min, a sample checked" \
  --backend cuda --segments uniform:1 --n 100000 --op min --type bf16 --repeat 1 --csv
also_run "cuda: the sample is checked" seg_checked_ok
run_or_skip "cuda: --sweep-segments on 2^16 elements, argmax, --csv" \
  --backend cuda --sweep-segments --sweep-elements 2^16 --op argmax --repeat 1 --csv
also_run "cuda: --sweep-segments --csv: the keys of reduce-bench(1)" csv_has distribution \
  segments bytes probe_bytes gpureduce_us gpureduce_gbs batched_us cub_us cub_gbs probe_us \
  probe_gbs gpureduce_vs_probe gpureduce_vs_cub gpureduce_vs_batched check
also_run "cuda: --sweep-segments on 2^16 elements: 20 rows (9 uniform, 8 random, zipf, 2 huge)" \
  data_lines 20
also_run "cuda: --sweep-segments: every row checked ok" seg_checked_ok

# ---- --with-value -----------------------------------------------------------
expect 0 "--help" --help
also "--help lists --with-value" grep -q -e "^  --with-value " "$tmp/out"
refused "--with-value needs argmin or argmax" \
  "--with-value applies to argmin and argmax, not to max" \
  --with-value --op max
refused "--with-value does not go with --f64-accumulate" "--f64-accumulate applies to the f32 sum" \
  --with-value --op argmin --f64-accumulate

# ladder_rows_ok ROW...: the ladder's CSV in $tmp/out has each ROW, with
# the check ok.
ladder_rows_ok ()
{
  for row
  do
    test "$(awk -F, -v row="$row" '
      NR == 1 { for (i = 1; i <= NF; ++i) { if ($i == "row") r = i; if ($i == "check") c = i }; next }
      r && c && $r == row { print $c }' "$tmp/out")" = ok || return 1
  done
}

expect 0 "host: f16 argmax with the value at offset 3, --csv" \
  --backend host --op argmax --type f16 --with-value --n 2^12+3 --offset 3 --csv
also "host: --with-value --csv: every line has the header's number of fields" \
  same_field_count "$tmp/out"
also "host: --with-value: the rows plain and gpureduce, checked ok" ladder_rows_ok plain gpureduce
also "host: --with-value: the column speedup_vs_plain" csv_has speedup_vs_plain
expect 0 "host: i8 argmin with the value, --json" \
  --backend host --op argmin --type i8 --with-value --n 1000 --json
also "host: --with-value --json says with_value" \
  grep -q '"f64_accumulate": false, "with_value": true' "$tmp/out"
run_or_skip "host: --with-value, columns of a 1000 x 133 bf16 matrix at ld 140, argmin" \
  --backend host --batch 133 --n 1000 --columns --stride 140 --op argmin --type bf16 \
  --with-value --repeat 1 --csv
also_run "host: --batch --with-value: every vector checked ok" checked_ok
also_run "host: --batch --with-value: the column with_value is 1" \
  test "$(csv_column with_value)" = 1
run_or_skip "host: --with-value --sweep-batched on 2^10 elements, u8 argmax" \
  --backend host --sweep-batched --sweep-elements 2^10 --op argmax --type u8 --with-value \
  --repeat 1 --csv
also_run "host: --sweep-batched --with-value: every shape checked ok" checked_ok
run_or_skip "host: --with-value, huge:0:3:100 over 2^12 f32 elements, argmin (empty segments)" \
  --backend host --segments huge:0:3:100 --n 2^12 --op argmin --with-value --repeat 1 --csv
also_run "host: --segments --with-value: 101 segments, checked ok" seg_row_is 101 ok
run_or_skip "host: --with-value --sweep-segments on 2^10 elements, i32 argmax" \
  --backend host --sweep-segments --sweep-elements 2^10 --op argmax --type i32 --with-value \
  --repeat 1 --csv
also_run "host: --sweep-segments --with-value: every row checked ok" seg_checked_ok

# CUDA: skipped where there is no device.
run_or_skip "cuda: f32 argmin with the value on 2^20, the plain arg op and CUB beside it" \
  --backend cuda --op argmin --with-value --n 2^20 --csv
also_run "cuda: --with-value: the rows plain, gpureduce and cub, checked ok" \
  ladder_rows_ok plain gpureduce cub
run_or_skip "cuda: --with-value, rows, 133 x 1000 f16 argmax" \
  --backend cuda --batch 133 --n 1000 --op argmax --type f16 --with-value --repeat 1 --csv
also_run "cuda: --batch --with-value: every vector checked ok" checked_ok
run_or_skip "cuda: --with-value, random:5 over 2^16 bf16 elements, argmin" \
  --backend cuda --segments random:5 --n 2^16 --op argmin --type bf16 --with-value --repeat 1 \
  --csv
also_run "cuda: --segments --with-value: every segment checked ok" seg_checked_ok

# ---- the 1-D sweep (--sweep-1d) ---------------------------------------------
expect 0 "--help" --help
for opt in "--sweep-1d" "--sizes LIST" "--runs R"; do
  also "--help lists $opt" grep -q -e "^  $opt\( \|\$\)" "$tmp/out"
done

refused "--sizes needs --sweep-1d" "--sizes and --runs apply to --sweep-1d" --sizes 2^10
refused "--runs needs --sweep-1d" "--sizes and --runs apply to --sweep-1d" --sweep --runs 3
refused "a list of operations needs --sweep-1d" "a list of operations applies to --sweep-1d" \
  --op sum,max --n 8
refused "a list of types needs --sweep-1d" "a list of types applies to --sweep-1d" \
  --type f32,f64 --n 8
refused "--sweep-1d and --n exclude each other" "--sweep-1d: not with --n" --sweep-1d --n 8
refused "--sweep-1d and --blocks exclude each other" "--sweep-1d: not with --n" \
  --sweep-1d --blocks 4
refused "--sweep-1d has flags 0 only" "flags 0 only" --sweep-1d --op argmin --with-value
refused "--sweep-1d is not for dot" "not --op dot" --sweep-1d --op dot
refused "dot is not an item of a list" "dot goes alone" --sweep-1d --op sum,dot
refused "--op: an unknown operation in a list" "unknown operation 'median'" \
  --sweep-1d --op sum,median
refused "--sizes: an empty item" "an empty item" --sweep-1d --sizes 2^10,,2^12
refused "--sizes: not a count" "--sizes: '12x' is not a count" --sweep-1d --sizes 2^10,12x
refused "--sizes: 0 is out of range" "--sizes: 0 is out of range" --sweep-1d --sizes 0

# sweep_1d_grid PAIRS SIZES OFFSETS: the CSV in $tmp/out has a row for
# every (op, type) of PAIRS, size and offset: PAIRS distinct pairs, each
# with SIZES x OFFSETS rows.
sweep_1d_grid ()
{
  test "$(csv_column op | wc -l)" -eq $(($1 * $2 * $3)) &&
  test "$(awk -F, 'NR > 1 { print $1 "," $2 }' "$tmp/out" | sort | uniq -c \
          | awk -v k=$(($2 * $3)) '$1 == k { ++good } END { print good + 0 }')" -eq "$1"
}

# Every op and type with flags 0: gpureduce_result_size is not 0 for all
# 10 x 10 of them.
expect 0 "host: --sweep-1d on 2^10 and 2^12 elements, --csv" \
  --backend host --sweep-1d --sizes 2^12,2^10 --repeat 1 --runs 1 --csv
also "host: --sweep-1d --csv: the header of bench/data/perf-h200-1d.csv, then check" \
  test "$(head -n 1 "$tmp/out")" = "op,type,n,offset,gr_us,cub_us,probe_us,check"
also "host: --sweep-1d --csv: every line has the header's number of fields" \
  same_field_count "$tmp/out"
also "host: --sweep-1d: 400 rows, 100 (op, type) pairs x 2 sizes x 2 offsets" \
  sweep_1d_grid 100 2 2
also "host: --sweep-1d: the sizes 1024 and 4096, ascending within each pair" \
  test "$(csv_column n | head -n 4 | tr '\n' ' ')" = "1024 1024 4096 4096 "
also "host: --sweep-1d: offsets 0 and 3, the default" \
  test "$(csv_column offset | sort -u | tr '\n' ' ')" = "0 3 "
also "host: --sweep-1d: no cub or probe times on the host backend" \
  test -z "$({ csv_column cub_us; csv_column probe_us; } | tr -d '\n')"
also "host: --sweep-1d: every row checked ok" checked_ok

expect 0 "host: --sweep-1d, sum and argmax of f16 and u8 at offset 5, --json" \
  --backend host --sweep-1d --op argmax,sum --type u8,f16 --sizes 1000 --offset 5 --repeat 1 \
  --runs 1 --json
also "host: --sweep-1d --json: op and type null, the offset 5" \
  grep -q '"mode": "sweep-1d", "op": null, "type": null, .*"offset": 5' "$tmp/out"
also "host: --sweep-1d --json: 8 rows, every one checked ok" \
  test "$(grep -c '"check": "ok"' "$tmp/out")" -eq 8

expect 0 "host: --sweep-1d --offset 0: offset 0 only, --no-check" \
  --backend host --sweep-1d --op min --type i64 --sizes 2^10 --offset 0 --repeat 1 --runs 1 \
  --no-check --csv
also "host: --sweep-1d --offset 0 --no-check: one row, not checked" \
  test "$(sed -n 2p "$tmp/out" | cut -d, -f1-4,8)" = "min,i64,1024,0,-"
