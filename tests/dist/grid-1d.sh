#!/bin/sh
# grid-1d.sh - bench/grid-1d, the developer's 1-D grid of every operation
# and type, on the host backend: its usage errors, and small runs whose
# CSV has the columns of bench/data/perf-h200-1d.csv (which
# bench/perf-targets.sh reads) and a row, checked ok, for every (op, type)
# gpureduce_reduce supports, size and offset.  Prints TAP.  Run by `make
# check' (Makefile.am's AM_TESTS_ENVIRONMENT sets GR_ABS_TOP_BUILDDIR).
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

# shellcheck source=tests/dist/taplib.sh
. "`dirname "$0"`/taplib.sh"
tap_need GR_ABS_TOP_BUILDDIR GR_ABS_TOP_SRCDIR
LC_ALL=C
export LC_ALL
GPUREDUCE_TUNE=off
export GPUREDUCE_TUNE
grid=$GR_ABS_TOP_BUILDDIR/bench/grid-1d${GR_EXEEXT-}

tap_tmpdir grid

echo "1..17"
n=0

# run STATUS DESCRIPTION ARGS...: grid-1d ARGS (stdout in $tmp/out, stderr
# in $tmp/err); ok when it exits with STATUS and, for status 2, says so in
# one line and the hint.
run ()
{
  want=$1 desc=$2
  shift 2
  "$grid" "$@" > "$tmp/out" 2> "$tmp/err"
  got=$?
  n=$((n + 1))
  if test "$got" -eq "$want" &&
     { test "$want" -ne 2 || { test "$(wc -l < "$tmp/err")" -eq 2 &&
                               tail -n 1 "$tmp/err" | grep -q "^Try 'grid-1d --help'"; }; }; then
    echo "ok $n - $desc"
  else
    echo "not ok $n - $desc: exit status $got, expected $want"
    sed 's/^/# stderr: /' "$tmp/err" | head -n 5
  fi
}

also ()
{
  desc=$1
  shift
  n=$((n + 1))
  if "$@"; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; fi
}

# csv_column KEY: the field KEY of every data line of the CSV in $tmp/out.
csv_column ()
{
  awk -F, -v key="$1" 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == key) c = i; next }
                       c { print $c }' "$tmp/out"
}

# grid PAIRS SIZES OFFSETS: the CSV in $tmp/out has a row for every (op,
# type) of PAIRS, size and offset: PAIRS distinct pairs, each with SIZES x
# OFFSETS rows.
grid ()
{
  test "$(csv_column op | wc -l)" -eq $(($1 * $2 * $3)) &&
  test "$(awk -F, 'NR > 1 { print $1 "," $2 }' "$tmp/out" | sort | uniq -c \
          | awk -v k=$(($2 * $3)) '$1 == k { ++good } END { print good + 0 }')" -eq "$1"
}

all_ok ()
{
  test -n "$(csv_column check)" && test -z "$(csv_column check | grep -v '^ok$')"
}

run 0 "--help" --help
run 2 "an unknown option" --sweep
run 2 "an unknown operation in --op" --op sum,median
run 2 "an empty item in --sizes" --sizes 2^10,,2^12
run 2 "--sizes: not a count" --sizes 2^10,12x
run 2 "--sizes: 0 is out of range" --sizes 0

# Every op and type with flags 0: gpureduce_result_size is not 0 for all
# 10 x 10 of them.
run 0 "host: 2^10 and 2^12 elements, --csv" \
  --backend host --sizes 2^12,2^10 --repeat 1 --runs 1 --csv
also "host: --csv: the header of bench/data/perf-h200-1d.csv" \
  test "$(head -n 1 "$tmp/out")" = "$(head -n 1 "$GR_ABS_TOP_SRCDIR/bench/data/perf-h200-1d.csv")"
also "host: 400 rows, 100 (op, type) pairs x 2 sizes x 2 offsets" grid 100 2 2
also "host: the sizes 1024 and 4096, ascending within each pair" \
  test "$(csv_column n | head -n 4 | tr '\n' ' ')" = "1024 1024 4096 4096 "
also "host: offsets 0 and 3, the default" \
  test "$(csv_column offset | sort -u | tr '\n' ' ')" = "0 3 "
also "host: no cub or probe times on the host backend" \
  test -z "$({ csv_column cub_us; csv_column probe_us; } | tr -d '\n')"
also "host: every row checked ok" all_ok

run 0 "host: sum and argmax of f16 and u8 at offset 5" \
  --backend host --op argmax,sum --type u8,f16 --sizes 1000 --offset 5 --repeat 1 --runs 1 --csv
small_grid_ok ()
{
  grid 4 1 2 && all_ok
}
also "host: 8 rows, 4 pairs x 2 offsets, every one checked ok" small_grid_ok

run 0 "host: --offset 0: offset 0 only, --no-check" \
  --backend host --op min --type i64 --sizes 2^10 --offset 0 --repeat 1 --runs 1 --no-check --csv
also "host: --offset 0 --no-check: one row, not checked" \
  test "$(sed -n 2p "$tmp/out" | cut -d, -f1-4,8)" = "min,i64,1024,0,-"
