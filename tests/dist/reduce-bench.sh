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

echo "1..45"
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
refused "--sweep-elements needs --sweep-batched" "apply to --sweep-batched" --sweep-elements 1K
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
run_or_skip "host: --batch --json" --backend host --batch 3 --n 5 --stride 6 --json --repeat 1
also_run "host: --batch --json names batch, layout and ld" \
  grep -q '"batch": 3, "layout": "rows", "ld": 6' "$tmp/out"
