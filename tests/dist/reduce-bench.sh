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

echo "1..11"
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
