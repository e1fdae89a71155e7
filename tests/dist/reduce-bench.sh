#!/bin/sh
# reduce-bench.sh - reduce-bench's command line, on the host backend:
# exit statuses as reduce-bench(1) documents them, a bad option's one line
# and hint, results checked, CSV that a CSV reader takes (every line as
# many fields as the header) with the columns reduce-bench(1) names; and
# bench/grid-1d, the developer's grid on the same code, whose CSV must
# have the columns of bench/data/perf-h200-1d.csv (bench/perf-targets.sh
# reads them) and a row, checked ok, for every (op, type)
# gpureduce_reduce supports, size and offset.  Prints TAP.  Speed is not
# tested here.
#
# Runs the same on machines with and without a GPU (--backend host, and
# --device 1023, which no machine has); runs with --backend cuda are each
# a SKIP on a machine without a CUDA device (reduce-bench exits 3 and
# says so).  Run by `make check' (Makefile.am's AM_TESTS_ENVIRONMENT sets
# GR_ABS_TOP_BUILDDIR).
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

# shellcheck source=tests/dist/taplib.sh
. "`dirname "$0"`/taplib.sh"
tap_need GR_ABS_TOP_BUILDDIR GR_ABS_TOP_SRCDIR
LC_ALL=C
export LC_ALL
# The tuning cache is not this test's business: never read or write one.
GPUREDUCE_TUNE=off
export GPUREDUCE_TUNE
bench=$GR_ABS_TOP_BUILDDIR/reduce-bench${GR_EXEEXT-}
name=reduce-bench

tap_tmpdir bench

echo "1..149"
n=0

# run_bench ARGS...: $bench ARGS, stdout in $tmp/out, stderr in
# $tmp/err, the exit status in got; one more test point.
run_bench ()
{
  "$bench" "$@" > "$tmp/out" 2> "$tmp/err"
  got=$?
  n=$((n + 1))
}

# expect STATUS DESCRIPTION ARGS...: run_bench ARGS; ok when it exits with
# STATUS.
expect ()
{
  want=$1 desc=$2
  shift 2
  run_bench "$@"
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
  run_bench "$@"
  if test "$got" -eq 2 && head -n 1 "$tmp/err" | grep -F -e "$msg" > /dev/null; then
    echo "ok $n - $desc"
  else
    echo "not ok $n - $desc: exit status $got (expected 2), stderr:"
    sed 's/^/# /' "$tmp/err" | head -n 3
  fi
}

# run_or_skip DESCRIPTION ARGS...: run reduce-bench ARGS; ok when it exits
# 0.  A SKIP, and skipped set to the reason, when it exits 3 saying there
# is no CUDA device; `also_run' then skips too.
skipped=
run_or_skip ()
{
  desc=$1
  shift
  run_bench "$@"
  skipped=
  if test "$got" -eq 3 && grep 'no CUDA device' "$tmp/err" > /dev/null; then
    skipped="no CUDA device"
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

# csv_column KEY: the field KEY of every data line of the CSV in $tmp/out.
csv_column ()
{
  awk -F, -v key="$1" 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == key) c = i; next }
                       c { print $c }' "$tmp/out"
}

# bad_option DESCRIPTION MESSAGE ARGS...: exit 2, nothing on stdout, and on
# stderr exactly "$name: MESSAGE" and the hint, as getopt_long's programs
# say it.
bad_option ()
{
  desc=$1 msg=$2
  shift 2
  run_bench "$@"
  printf '%s: %s\nTry '\''%s --help'\'' for more information.\n' "$name" "$msg" "$name" \
    > "$tmp/want"
  if test "$got" -eq 2 && ! test -s "$tmp/out" && cmp -s "$tmp/want" "$tmp/err"; then
    echo "ok $n - $desc"
  else
    echo "not ok $n - $desc: exit status $got (expected 2), stderr:"
    sed 's/^/# /' "$tmp/err" | head -n 5
  fi
}

# ---- the command line ---------------------------------------------------------
expect 0 "--version" --version
expect 0 "--help" --help
also "--help fits on a screen: at most 50 lines" test "$(wc -l < "$tmp/out")" -le 50
for opt in "--n N" "--op NAME" "--type NAME" "--sweep" "--batch B" "--columns" "--stride S" \
  "--sweep-batched" "--segments DIST" "--sweep-segments" "--with-value" "--csv"; do
  also "--help lists $opt" grep -q -e "^  $opt\( \|\$\)" "$tmp/out"
done

bad_option "an unknown option: one line and the hint" \
  "unrecognized option '--no-such-option'" --no-such-option
bad_option "an unknown option after good ones: the same" \
  "unrecognized option '--sweep-1d'" --backend host --sweep-1d
bad_option "an option without its value" "option '--n' requires an argument" --n
bad_option "a value for an option that takes none" "option '--csv' doesn't allow an argument" \
  --csv=yes
bad_option "an ambiguous abbreviation" "option '--sweep-' is ambiguous" --sweep-
bad_option "a bad value: one line and the hint" \
  "--n: '12x' is not a count (a decimal number, 2^K, 2^K+M, 2^K-M or 16M style)" --n 12x
bad_option "an argument that is no option" "unexpected argument 'ladder'" ladder
bad_option "logsumexp of an integer type" "--op logsumexp takes f16, bf16, f32 and f64, not i8" \
  --op logsumexp --type i8
refused "two modes are a usage error" "--sweep and --batch: choose one" --sweep --batch 4
refused "--tune on the host backend is refused" "not the host backend" --tune --backend host
expect 3 "--device 1023: no such CUDA device" --device 1023 --n 1000

# ---- the ladder and one size of the sweep --------------------------------------
expect 0 "the host ladder, 2^16+3 floats, every result right" \
  --backend host --n 2^16+3
also "it reports the check" grep -q '^check: all 2 results right (65539 ones sum to n = 65539, exact)' \
  "$tmp/out"
expect 0 "the host ladder, --csv" --backend host --n 1000 --csv
also "--csv: every line has the header's number of fields" same_field_count "$tmp/out"
also "--csv: the ladder's rows serial and gpureduce, checked ok (the last field)" \
  test "$(awk -F, 'NR > 1 { print $1, $NF }' "$tmp/out" | tr '\n' ' ')" = "serial ok gpureduce ok "

expect 0 "u8 argmin at offset 5: one size, checked against the tests' reference" \
  --backend host --op argmin --type u8 --n 4K --offset 5 --csv
also "u8 argmin: one row, n 4096, checked ok" test "$(csv_column n)$(csv_column check)" = 4096ok

# ---- the sweep -------------------------------------------------------------------
expect 0 "host: --sweep up to --n 2^12, f16 sum_abs, --csv" \
  --backend host --sweep --n 2^12 --op sum_abs --type f16 --repeat 1 --csv
also "host: --sweep --csv: every line has the header's number of fields" \
  same_field_count "$tmp/out"
also "host: --sweep --csv: the keys of reduce-bench(1)" csv_has n bytes gpureduce_us \
  gpureduce_gbs check result_bits
also "host: --sweep: n = 1024, 2048, 4096" test "$(csv_column n | tr '\n' ' ')" = "1024 2048 4096 "
also "host: --sweep: every n checked ok" checked_ok
also "host: --sweep: result bits of an f32 accumulator" \
  test "$(csv_column result_bits | grep -c '^0x[0-9a-f]\{8\}$')" -eq 3
expect 0 "host: --sweep up to 1500, f64 mean_var at offset 3, --csv" \
  --backend host --sweep --n 1500 --op mean_var --type f64 --offset 3 --repeat 1 --csv
also "host: --sweep --n 1500: n = 1024 and 1500" test "$(csv_column n | tr '\n' ' ')" = "1024 1500 "
also "host: --sweep mean_var: every n checked ok" checked_ok

# ---- dot products ---------------------------------------------------------------
expect 0 "host: --op dot, 1000 f32 elements" --backend host --op dot --n 1000 --csv
also "host: --op dot: checked against the reference's bits" \
  test "$(csv_column check)" = "ok (reference bits)"
expect 0 "host: --op dot --sweep up to 2^12, bf16, --csv" \
  --backend host --op dot --sweep --n 2^12 --type bf16 --repeat 1 --csv
also "host: --op dot --sweep: n = 1024, 2048, 4096, each checked" \
  test "$(csv_column n | tr '\n' ' ')$(csv_column check | sort -u)" = "1024 2048 4096 ok (reference bits)"
refused "--op dot is not batched" "--op dot: with --n or --sweep, not --batch" --op dot --batch 4

# ---- the batched modes ------------------------------------------------------------
refused "--batch 0 is refused" "--batch: 0 is out of range" --batch 0 --n 8
refused "--batch garbage is refused" "--batch: '12x' is not a count" --batch 12x --n 8
refused "--stride below the row length is refused" \
  "--stride 7: below the dense leading dimension 8" --batch 4 --n 8 --stride 7
refused "--columns: --stride below the column count is refused" \
  "--stride 3: below the dense leading dimension 4" --batch 4 --n 8 --columns --stride 3
refused "--columns needs --batch" "describe the matrix of --batch" --columns --n 8
refused "--batch and --sweep-batched exclude each other" "--batch and --sweep-batched: choose one" \
  --batch 4 --sweep-batched
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
  --backend cuda --sweep-batched --n 2^16 --repeat 1 --csv
also_run "cuda: --sweep-batched --csv: every line has the header's number of fields" \
  same_field_count "$tmp/out"
also_run "cuda: --sweep-batched --csv: the keys of reduce-bench(1)" csv_has layout n batch ld \
  bytes probe_bytes gpureduce_us gpureduce_gbs cub_us cub_gbs probe_us probe_gbs \
  gpureduce_vs_probe gpureduce_vs_cub check op type
also_run "cuda: --sweep-batched on 2^16 elements: 26 shapes (9 rows, 9 columns, 8 misaligned)" \
  data_lines 26
also_run "cuda: --sweep-batched: every shape checked ok" checked_ok

# The host backend.
expect 0 "host: columns of a 1000 x 133 f16 matrix at ld 140, argmax, --csv" \
  --backend host --batch 133 --n 1000 --columns --stride 140 --op argmax --type f16 --repeat 1 \
  --csv
also "host: --batch --csv: the layout, batch and ld of the matrix" \
  test "$(csv_column layout),$(csv_column batch),$(csv_column ld)" = "columns,133,140"
also "host: --batch: every column checked ok" checked_ok
expect 0 "host: --sweep-batched on 2^10 elements, i32 sum_squares, --csv" \
  --backend host --sweep-batched --n 2^10 --op sum_squares --type i32 --repeat 1 --csv
also "host: --sweep-batched --csv: every line has the header's number of fields" \
  same_field_count "$tmp/out"
also "host: --sweep-batched on 2^10 elements: 23 shapes (8 rows, 8 columns, 7 misaligned)" \
  data_lines 23
also "host: --sweep-batched: every shape checked ok" checked_ok
expect 0 "host: --sweep-batched on 2^10 elements, f32 mean_var accumulated in double, --csv" \
  --backend host --sweep-batched --n 2^10 --op mean_var --type f32 --f64-accumulate --repeat 1 \
  --csv
also "host: --sweep-batched mean_var: every shape checked ok" checked_ok
expect 0 "host: --sweep-batched on 2^10 elements, u8 nrm2, --csv" \
  --backend host --sweep-batched --n 2^10 --op nrm2 --type u8 --repeat 1 --csv
also "host: --sweep-batched nrm2: every shape checked ok" checked_ok

# ---- the segmented modes ----------------------------------------------------------
bad_option "--segments needs a value" "option '--segments' requires an argument" --segments
refused "--segments: an unknown distribution is refused" "'bogus:4' is not a distribution" \
  --segments bogus:4
refused "--segments: uniform without L is refused" "uniform takes one field" --segments uniform
refused "--segments: random with two fields is refused" "random takes one field" \
  --segments random:4:5
refused "--segments: six fields are refused" "'huge:1:2:3:4:5' is not a distribution" \
  --segments huge:1:2:3:4:5
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
refused "--segments and --sweep-segments exclude each other" \
  "--segments and --sweep-segments: choose one" --segments uniform:4 --sweep-segments
refused "--segments and --batch exclude each other" "--segments and --batch: choose one" \
  --segments uniform:4 --batch 4 --n 8

# seg_checked_ok: every data line of the CSV in $tmp/out has a check field
# of "ok", "ok (4096)" or "ok (4097)", and there is one.
seg_checked_ok ()
{
  awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "check") c = i; next }
           { ++rows; if ($c != "ok" && $c != "ok (4096)" && $c != "ok (4097)") bad = 1 }
           END { exit !(c && rows && !bad) }' "$tmp/out"
}

# seg_row_is SEGMENTS CHECK: the CSV in $tmp/out has one row, with those
# segments and that check.
seg_row_is ()
{
  test "$(csv_column segments)" = "$1" && test "$(csv_column check)" = "$2"
}

# The host backend.
expect 0 "host: random:5 over 1000 f32 sums, --csv" \
  --backend host --segments random:5 --n 1000 --repeat 1 --csv
also "host: --segments --csv: the keys of reduce-bench(1)" csv_has distribution kind \
  length segments n min_length max_length mean_length empty_segments bytes gpureduce_us \
  gpureduce_gbs check op type f64_accumulate with_value
also "host: --segments --csv: every segment checked ok" seg_checked_ok
csv_column segments > "$tmp/segments.1"
expect 0 "host: the same --segments run again" \
  --backend host --segments random:5 --n 1000 --repeat 1 --csv
csv_column segments > "$tmp/segments.2"
also "host: the same distribution gives the same segments" cmp -s "$tmp/segments.1" "$tmp/segments.2"
expect 0 "host: huge:0:3:100 over 2^12 f16 elements, argmax (empty segments)" \
  --backend host --segments huge:0:3:100 --n 2^12 --op argmax --type f16 --repeat 1 --csv
also "host: huge:0:3:100: 101 segments, checked ok" seg_row_is 101 ok
expect 0 "host: huge:0:3:100 over 2^12 f64 elements, mean_var (empty segments)" \
  --backend host --segments huge:0:3:100 --n 2^12 --op mean_var --type f64 --repeat 1 --csv
also "host: huge:0:3:100 mean_var: 101 segments, checked ok" seg_row_is 101 ok
expect 0 "host: huge:0:3:100 over 2^12 f32 elements, nrm2" \
  --backend host --segments huge:0:3:100 --n 2^12 --op nrm2 --type f32 --repeat 1 --csv
also "host: huge:0:3:100 nrm2: 101 segments, checked ok" seg_row_is 101 ok
expect 0 "host: --sweep-segments on 2^10 elements, u8 max, --csv" \
  --backend host --sweep-segments --n 2^10 --op max --type u8 --repeat 1 --csv
also "host: --sweep-segments --csv: every line has the header's number of fields" \
  same_field_count "$tmp/out"
also "host: --sweep-segments on 2^10 elements: 18 rows (8 uniform, 7 random, zipf, 2 huge)" \
  data_lines 18
also "host: --sweep-segments: every row checked ok" seg_checked_ok

# CUDA: skipped where there is no device.
run_or_skip "cuda: zipf:1.5:4096 over 2^20 f32 sums" \
  --backend cuda --segments zipf:1.5:4096 --n 2^20 --repeat 1
run_or_skip "cuda: uniform:1 over 100000 bf16 elements, min, a sample checked" \
  --backend cuda --segments uniform:1 --n 100000 --op min --type bf16 --repeat 1 --csv
also_run "cuda: the sample is checked" seg_checked_ok
run_or_skip "cuda: --sweep-segments on 2^16 elements, argmax, --csv" \
  --backend cuda --sweep-segments --n 2^16 --op argmax --repeat 1 --csv
also_run "cuda: --sweep-segments --csv: the keys of reduce-bench(1)" csv_has distribution \
  segments bytes probe_bytes gpureduce_us gpureduce_gbs cub_us cub_gbs probe_us \
  probe_gbs gpureduce_vs_probe gpureduce_vs_cub check
also_run "cuda: --sweep-segments on 2^16 elements: 20 rows (9 uniform, 8 random, zipf, 2 huge)" \
  data_lines 20
also_run "cuda: --sweep-segments: every row checked ok" seg_checked_ok

# ---- --with-value -----------------------------------------------------------------
refused "--with-value needs argmin or argmax" \
  "--with-value applies to argmin and argmax, not to max" --with-value --op max
refused "--with-value does not go with --f64-accumulate" "--f64-accumulate applies to the f32 sum" \
  --with-value --op argmin --f64-accumulate

expect 0 "host: f16 argmax with the value at offset 3, one size, --csv" \
  --backend host --op argmax --type f16 --with-value --n 2^12+3 --offset 3 --csv
also "host: --with-value: checked ok" checked_ok
also "host: --with-value: 16-byte result bits" \
  test "$(csv_column result_bits | grep -c '^0x[0-9a-f]\{32\}$')" -eq 1
expect 0 "host: --with-value, columns of a 1000 x 133 bf16 matrix at ld 140, argmin" \
  --backend host --batch 133 --n 1000 --columns --stride 140 --op argmin --type bf16 \
  --with-value --repeat 1 --csv
also "host: --batch --with-value: every vector checked ok" checked_ok
also "host: --batch --with-value: the column with_value is 1" test "$(csv_column with_value)" = 1
expect 0 "host: --with-value --sweep-batched on 2^10 elements, u8 argmax" \
  --backend host --sweep-batched --n 2^10 --op argmax --type u8 --with-value --repeat 1 --csv
also "host: --sweep-batched --with-value: every shape checked ok" checked_ok
expect 0 "host: --with-value, huge:0:3:100 over 2^12 f32 elements, argmin (empty segments)" \
  --backend host --segments huge:0:3:100 --n 2^12 --op argmin --with-value --repeat 1 --csv
also "host: --segments --with-value: 101 segments, checked ok" seg_row_is 101 ok
expect 0 "host: --with-value --sweep-segments on 2^10 elements, i32 argmax" \
  --backend host --sweep-segments --n 2^10 --op argmax --type i32 --with-value --repeat 1 --csv
also "host: --sweep-segments --with-value: every row checked ok" seg_checked_ok

# cub_checked: the one row of the CSV in $tmp/out is checked ok and has a
# CUB time.
cub_checked ()
{
  test "$(csv_column check)" = ok && test -n "$(csv_column cub_us)"
}

# CUDA: skipped where there is no device.
run_or_skip "cuda: f32 argmin with the value on 2^20, CUB beside it" \
  --backend cuda --op argmin --with-value --n 2^20 --csv
also_run "cuda: --with-value: checked ok, with CUB's time" cub_checked
run_or_skip "cuda: --with-value, rows, 133 x 1000 f16 argmax" \
  --backend cuda --batch 133 --n 1000 --op argmax --type f16 --with-value --repeat 1 --csv
also_run "cuda: --batch --with-value: every vector checked ok" checked_ok
run_or_skip "cuda: --with-value, random:5 over 2^16 bf16 elements, argmin" \
  --backend cuda --segments random:5 --n 2^16 --op argmin --type bf16 --with-value --repeat 1 \
  --csv
also_run "cuda: --segments --with-value: every segment checked ok" seg_checked_ok

# ---- bench/grid-1d ----------------------------------------------------------------
bench=$GR_ABS_TOP_BUILDDIR/bench/grid-1d${GR_EXEEXT-}
name=grid-1d

# grid PAIRS SIZES OFFSETS: the CSV in $tmp/out has a row for every (op,
# type) of PAIRS, size and offset, PAIRS distinct pairs, each with SIZES x
# OFFSETS rows, and every row checked ok.
grid ()
{
  test "$(csv_column op | wc -l)" -eq $(($1 * $2 * $3)) &&
  test "$(awk -F, 'NR > 1 { print $1 "," $2 }' "$tmp/out" | sort | uniq -c \
          | awk -v k=$(($2 * $3)) '$1 == k { ++good } END { print good + 0 }')" -eq "$1" &&
  test -z "$(csv_column check | grep -v '^ok$')"
}

expect 0 "grid-1d --help" --help
bad_option "grid-1d: an unknown option" "unrecognized option '--sweep'" --sweep
bad_option "grid-1d: an unknown operation" "--op: unknown operation 'median'" --op sum,median
bad_option "grid-1d: an empty item" "--sizes: '2^10,,2^12' is not a list" --sizes 2^10,,2^12
bad_option "grid-1d: a size that is no count" "--sizes: '12x' is not a count from 1 to 1099511627776" \
  --sizes 2^10,12x

# Every op and type with flags 0 where gpureduce_result_size is not 0: the
# 12 x 10 of them but logsumexp of the 6 integer types.
expect 0 "grid-1d: host, 2^10 and 2^12 elements, --csv" \
  --backend host --sizes 2^12,2^10 --repeat 1 --runs 1 --csv
also "grid-1d: the header of bench/data/perf-h200-1d.csv" \
  test "$(head -n 1 "$tmp/out")" = "$(head -n 1 "$GR_ABS_TOP_SRCDIR/bench/data/perf-h200-1d.csv")"
also "grid-1d: 456 rows, 114 (op, type) pairs x 2 sizes x 2 offsets, checked ok" grid 114 2 2
also "grid-1d: the sizes 1024 and 4096, ascending within each pair" \
  test "$(csv_column n | head -n 4 | tr '\n' ' ')" = "1024 1024 4096 4096 "
also "grid-1d: offsets 0 and 3, the default" \
  test "$(csv_column offset | sort -u | tr '\n' ' ')" = "0 3 "
also "grid-1d: no cub or probe times on the host backend" \
  test -z "$({ csv_column cub_us; csv_column probe_us; } | tr -d '\n')"
expect 0 "grid-1d: host, sum and argmax of f16 and u8 at offset 5" \
  --backend host --op argmax,sum --type u8,f16 --sizes 1000 --offset 5 --repeat 1 --runs 1 --csv
also "grid-1d: 8 rows, 4 pairs x 2 offsets, checked ok" grid 4 1 2
expect 0 "grid-1d: host, --offset 0: offset 0 only, --no-check" \
  --backend host --op min --type i64 --sizes 2^10 --offset 0 --repeat 1 --runs 1 --no-check --csv
also "grid-1d: --offset 0 --no-check: one row, not checked" \
  test "$(sed -n 2p "$tmp/out" | cut -d, -f1-4,8)" = "min,i64,1024,0,-"
