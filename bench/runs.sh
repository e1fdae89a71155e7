# runs.sh - what bench-batched.sh and bench-segments.sh share, sourced by
# both with me set to the script's name: their command line ([--quick]
# OUTDIR), the reduce-bench they run (./reduce-bench, or $REDUCE_BENCH),
# OUTDIR/logs, the summary's head, and the functions bench and append.
# They set `failed' to 1 when a run fails.
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

elements_log2=28
outdir=
usage="usage: bench/$me.sh [--quick] OUTDIR"
for arg
do
  case $arg in
    --quick) elements_log2=20 ;;
    -h | --help) sed -n '2,/^# Copyright/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "$me: unknown option '$arg' ($usage)" >&2; exit 2 ;;
    *)
      if test -n "$outdir"; then
        echo "$me: one OUTDIR only ($usage)" >&2
        exit 2
      fi
      outdir=$arg ;;
  esac
done
if test -z "$outdir"; then
  echo "$me: no OUTDIR ($usage)" >&2
  exit 2
fi
bench=${REDUCE_BENCH:-./reduce-bench}
if ! test -x "$bench"; then
  echo "$me: $bench is not an executable (run from a build directory, or set REDUCE_BENCH)" >&2
  exit 2
fi
mkdir -p "$outdir/logs" || { echo "$me: cannot create $outdir/logs" >&2; exit 2; }
elements=$((1 << elements_log2))
timeout=
if command -v timeout >/dev/null 2>&1; then timeout="timeout ${BENCH_TIMEOUT:-300}"; fi
summary=$outdir/summary.txt
failed=0

{
  echo "$me: `date -u '+%Y-%m-%d %H:%M UTC'` on `hostname 2>/dev/null`"
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
  echo "$me: $name: $bench $* ${BENCH_ARGS-} --csv"
  t0=`date +%s`
  # shellcheck disable=SC2086 # $timeout and $BENCH_ARGS are word lists
  $timeout "$bench" "$@" ${BENCH_ARGS-} --csv >"$outdir/$name.csv" 2>"$outdir/logs/$name.err"
  rc=$?
  secs=$((`date +%s` - t0))
  echo "  $name: exit $rc (${secs}s): $*" >>"$summary"
  if test $rc -ne 0; then
    failed=1
    echo "$me: $name FAILED (exit $rc); last lines of logs/$name.err:"
    tail -n 8 "$outdir/logs/$name.err" | sed 's/^/  | /'
  fi
  return $rc
}

# append ALL NAME: NAME.csv's rows onto ALL (its header once), NAME.csv removed.
append ()
{
  if test -s "$outdir/$2.csv"; then
    if ! test -s "$1"; then
      cat "$outdir/$2.csv" >"$1"
    elif test "`head -n 1 "$outdir/$2.csv"`" = "`head -n 1 "$1"`"; then
      sed 1d "$outdir/$2.csv" >>"$1"
    else
      echo "$me: $2.csv has other columns than $1; left out of it" >&2
      failed=1
    fi
  fi
  rm -f "$outdir/$2.csv"
}

