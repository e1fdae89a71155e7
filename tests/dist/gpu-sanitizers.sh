#!/bin/sh
# gpu-sanitizers.sh - run GPU test programs under NVIDIA compute-sanitizer.
#
# Usage (from the build directory; `make check-gpu-sanitizers` does this):
#   tests/dist/gpu-sanitizers.sh [VAR=VALUE...] PROGRAM...
#
# A VAR=VALUE argument sets VAR for the next PROGRAM only: a case of that
# program (a mode of it, such as GPUREDUCE_TEST_SEGMENTS=exact-bounds
# for tests/cuda/test-segments: valid and invalid segment offsets on
# allocations of exactly their size, so that memcheck sees any access
# past an end).  Its log and line carry the VALUE.
# Each PROGRAM (a libtool wrapper such as tests/cuda/test-cuda) runs under
#   compute-sanitizer --tool TOOL --error-exitcode 86 ...
# through `libtool --mode=execute` (so the real binary, not the wrapper
# script, is instrumented), for each TOOL in memcheck racecheck initcheck
# synccheck.  Prints one line per (tool, program):
#   PASS | FAIL (sanitizer errors) | FAIL (test failed) | TIMEOUT | SKIP
# and ends with a count.  Exits 0 when every run passed or skipped, 1
# otherwise (a timeout counts as a failure: nothing was shown clean).
# Without compute-sanitizer or without a GPU it prints why and exits 0.
# Each run's full output goes to tests/sanitizer-TOOL-PROGRAM[-VALUE].log.
#
# Environment:
#   COMPUTE_SANITIZER       the program (default: compute-sanitizer on PATH,
#                           else $GR_CUDA_ROOT/bin/compute-sanitizer)
#   GPU_SANITIZER_TOOLS     tools to run (default: all four)
#   GPU_SANITIZER_TIMEOUT   seconds per run (default 900; 0: no limit)
#   GPU_SANITIZER_FLAGS     more compute-sanitizer options
#   GR_LIBTOOL              the libtool command (default: ./libtool)
# The tests run with GPUREDUCE_TEST_QUICK=1 (smaller sizes where a test
# honours it), GPUREDUCE_TUNE=off and GPUREDUCE_TEST_SANITIZER=TOOL (the
# tool keeps its books in the process's heap, so test-concurrency then
# reports its host-heap counts without checking them).
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

me=check-gpu-sanitizers
if test $# -eq 0; then
  echo "$me: SKIP: no GPU test programs were built (configure found no cmocka)"
  exit 0
fi

cs=${COMPUTE_SANITIZER-}
if test -z "$cs"; then
  if command -v compute-sanitizer >/dev/null 2>&1; then
    cs=compute-sanitizer
  elif test -n "${GR_CUDA_ROOT-}" && test -x "$GR_CUDA_ROOT/bin/compute-sanitizer"; then
    cs=$GR_CUDA_ROOT/bin/compute-sanitizer
  fi
fi
if test -z "$cs" || ! $cs --version >/dev/null 2>&1; then
  echo "$me: SKIP: compute-sanitizer not found (not on PATH${GR_CUDA_ROOT:+ nor in $GR_CUDA_ROOT/bin}; set COMPUTE_SANITIZER)"
  exit 0
fi
# No GPU: nvidia-smi lists none (without nvidia-smi, the first program's
# own "1..0 # SKIP" says so below).
if command -v nvidia-smi >/dev/null 2>&1; then
  if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    echo "$me: SKIP: no GPU (nvidia-smi -L lists none)"
    exit 0
  fi
fi

libtool=${GR_LIBTOOL:-./libtool}
tools=${GPU_SANITIZER_TOOLS:-memcheck racecheck initcheck synccheck}
limit=${GPU_SANITIZER_TIMEOUT:-900}
timeout=
if test "$limit" != 0; then
  if command -v timeout >/dev/null 2>&1; then
    timeout="timeout -k 30 $limit"
  else
    echo "$me: note: no timeout(1); runs are not bounded"
  fi
fi
GPUREDUCE_TEST_QUICK=1
GPUREDUCE_TUNE=off
export GPUREDUCE_TEST_QUICK GPUREDUCE_TUNE
case ${GR_HOST_SANITIZERS-} in
  yes) echo "$me: note: this build's C code uses AddressSanitizer too; compute-sanitizer is best run on a build configured without --enable-sanitizers" ;;
esac

echo "$me: `$cs --version 2>/dev/null | sed -n 's/.*\(Version [^ ]*\).*/\1/p' | head -n 1`, tools: $tools, ${limit}s limit per run"
pass=0 fail=0 skip=0 tout=0
for tool in $tools; do
  # memcheck: out-of-bounds and misaligned accesses, API errors, and (with
  # --leak-check full) device memory still allocated at exit; racecheck:
  # shared-memory hazards; initcheck: reads of uninitialized device
  # memory; synccheck: invalid use of barriers and warp synchronization.
  case $tool in
    memcheck) extra="--leak-check full" ;;
    *) extra= ;;
  esac
  case_env=
  for prog; do
    case $prog in
      *=*) case_env="$case_env $prog"; continue ;;
    esac
    name=`basename "$prog"`
    label=$prog
    for assign in $case_env; do
      name=$name-`echo "$assign" | sed 's/^[^=]*=//; s/[^A-Za-z0-9_.-]/_/g'`
      label="$assign $label"
    done
    log=tests/sanitizer-$tool-$name.log
    GPUREDUCE_TEST_SANITIZER=$tool
    export GPUREDUCE_TEST_SANITIZER
    start=`date +%s`
    # shellcheck disable=SC2086
    env $case_env $timeout $libtool --mode=execute $cs --tool "$tool" --error-exitcode 86 \
      --print-limit 100 $extra ${GPU_SANITIZER_FLAGS-} "$prog" >"$log" 2>&1
    rc=$?
    case_env=
    secs=`expr \`date +%s\` - $start`
    summary=`grep -E '(ERROR|RACECHECK) SUMMARY' "$log" | tail -n 1 | sed 's/^=* *//'`
    notok=`grep -c '^not ok' "$log"`
    if grep -q '^1\.\.0 # SKIP' "$log"; then
      why=`sed -n 's/^1\.\.0 # SKIP //p' "$log" | head -n 1`
      if test "$why" = "no CUDA device"; then
        echo "$me: SKIP: no GPU ($prog under $tool says: $why)"
        exit 0
      fi
      result="SKIP ($why)"; skip=`expr $skip + 1`
    elif test $rc -eq 124 || test $rc -eq 137; then
      result="TIMEOUT after ${limit}s${summary:+ (so far: $summary)}"; tout=`expr $tout + 1`
    elif test $rc -eq 86; then
      result="FAIL: sanitizer errors: ${summary:-see the log}"; fail=`expr $fail + 1`
    elif test $rc -ne 0 || test "$notok" -ne 0; then
      result="FAIL: the test failed (exit $rc, $notok not ok)${summary:+; $summary}"; fail=`expr $fail + 1`
    else
      result="PASS${summary:+ ($summary)}"; pass=`expr $pass + 1`
    fi
    printf '%-10s %-26s %s, %ss\n' "$tool" "$label" "$result" "$secs"
  done
done
echo "$me: $pass passed, `expr $fail + $tout` failed ($tout timed out), $skip skipped; logs in tests/sanitizer-*.log"
test `expr $fail + $tout` -eq 0
