#!/bin/sh
# gpu-check.sh - build and test a gpureduce release tarball on a GPU machine.
#
# Usage: tools/gpu-check.sh [--quick] [--prebuilt]
#        tools/gpu-check.sh --pack
#
# Run from the top of a checkout whose .dist/ holds the tarball (made here
# with `./bootstrap && ./configure && make dist`, then copied to .dist/).
# In /tmp it unpacks .dist/gpureduce-*.tar.gz (the newest), runs
# ./configure (architectures auto-detected: sm_90 on an H200), make, make
# check, $GPU_CHECK_EXTRA and ./reduce-bench, and prints a short summary
# last.  Every step runs even when an earlier one failed (if it can); the
# exit status is non-zero when any step failed.
#
#   --quick               skip ./reduce-bench
#   --pack                here, without a GPU: build the tarball's tree in
#                         /tmp/NAME (--with-cuda-arch=90, or
#                         $GPU_CHECK_ARCH; $GPU_CHECK_CONFIGURE), run its
#                         make check (the GPU tests skip), and pack it as
#                         .dist/NAME-tree.tar.xz (about 30 MB): objects
#                         and archives over 1 MB but tests/lib's are
#                         emptied and the dependency files blanked, their
#                         times kept, so that make finds everything up to
#                         date there (a test can be rebuilt there, not
#                         the library)
#   --prebuilt            there: unpack .dist/NAME-tree.tar.xz to the same
#                         /tmp/NAME and run make check in it, without
#                         configure and make (a one-architecture build
#                         takes longer there than one call may run);
#                         the carried cmocka, MPFR and MPI are found
#                         through LD_LIBRARY_PATH and MPIEXEC
#   OUT                   directory for results (default: ./gpu-check-out):
#                           summary.txt  the summary printed last
#                           bench.txt    ./reduce-bench's output
#                           logs.tar.gz  config.log, configure/make logs,
#                                        test-suite.log, tests/*.log
#   GPU_CHECK_EXTRA       shell snippet run in the build directory after
#                         make check (sanitizers, sweeps); its output goes to
#                         logs.tar.gz (extra.log); it may write to $OUT too
#   GPU_CHECK_CONFIGURE   extra ./configure arguments
#   GPU_CHECK_JOBS        make -j value (default 16)
#
# The GPU machine has no cmocka and installs nothing.  When .dist/cmocka/
# holds Debian's libcmocka0 and libcmocka-dev unpacked with dpkg -x (made
# here: apt-get download libcmocka0 libcmocka-dev; dpkg -x each into
# .dist/cmocka), configure is pointed at it.  Nor has it MPI: when
# .dist/mpi-env.sh exists, it is sourced first, so that configure finds
# the Open MPI unpacked in .dist/mpi.  tools/carry-deps.sh makes all three.
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
set -u

quick=no
mode=tarball
for arg
do
  case $arg in
    --quick) quick=yes ;;
    --pack) mode=pack ;;
    --prebuilt) mode=prebuilt ;;
    -h | --help) sed -n '2,/^# Copyright/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check: unknown argument '$arg' (usage: tools/gpu-check.sh [--quick] [--pack | --prebuilt])" >&2; exit 2 ;;
  esac
done

start_dir=`pwd`
# (--pack builds against this machine's own MPI)
if test "$mode" != pack && test -f "$start_dir/.dist/mpi-env.sh"; then
  . "$start_dir/.dist/mpi-env.sh"
fi
OUT=${OUT:-$start_dir/gpu-check-out}
case $OUT in /*) ;; *) OUT=$start_dir/$OUT ;; esac
mkdir -p "$OUT" || { echo "gpu-check: cannot create OUT=$OUT" >&2; exit 2; }
jobs=${GPU_CHECK_JOBS:-16}

if test "$mode" = prebuilt; then
  tree=`ls -t "$start_dir"/.dist/gpureduce-*-tree.tar.xz 2>/dev/null | head -n 1`
  if test -z "$tree"; then
    echo "gpu-check: no .dist/gpureduce-*-tree.tar.xz under $start_dir (make it with --pack)" >&2
    exit 2
  fi
  name=`basename "$tree" -tree.tar.xz`
else
  tarball=`ls -t "$start_dir"/.dist/gpureduce-*.tar.gz 2>/dev/null | head -n 1`
  if test -z "$tarball"; then
    echo "gpu-check: no .dist/gpureduce-*.tar.gz under $start_dir" >&2
    exit 2
  fi
  name=`basename "$tarball" .tar.gz`
fi
build=/tmp/$name

# --pack: the tree, built here, for --prebuilt there.  Static libraries
# are left out (--disable-static), since their archives would be emptied
# with the other large files; only libtool's relink of libgpureduce_mpi
# at `make install` reads an object again, and its object is small.
if test "$mode" = pack; then
  rm -rf "$build" && cd /tmp && tar xzf "$tarball" && cd "$build" || exit 1
  # shellcheck disable=SC2086
  if ! { ./configure --with-cuda-arch="${GPU_CHECK_ARCH:-90}" --disable-static \
           ${GPU_CHECK_CONFIGURE-} >configure.out 2>&1 &&
         make -j"$jobs" >make.out 2>&1 && make -j"$jobs" check >>make.out 2>&1; }; then
    echo "gpu-check: --pack: the build or its make check failed; see $build/configure.out and make.out" >&2
    exit 1
  fi
  # make check here built what every test needs (tests/mpi/test-mpi.sh's
  # programs too); its results go, so that every test runs again there
  find tests \( -name '*.log' -o -name '*.trs' \) -exec rm -f {} +
  rm -f test-suite.log
  ref=`mktemp` || exit 1
  # rewrite FILE TEXT: FILE's bytes become TEXT, its time stays
  rewrite () { touch -r "$1" "$ref" && printf '%s' "$2" >"$1" && touch -r "$ref" "$1"; }
  # (the tests' own archives stay, so that a test can be rebuilt there)
  find . \( -name '*.o' -o -name '*.a' \) -size +1024k ! -path './tests/lib/*' | while read -r f; do
    rewrite "$f" ''
  done
  # the dependency files name this machine's headers (cmocka.h, mpi.h)
  find . -path '*/.deps/*' -name '*.P*' | while read -r f; do
    rewrite "$f" '# dummy
'
  done
  rm -f "$ref"
  if ! (cd /tmp && tar cf - "$name") | xz -T0 -3 >"$start_dir/.dist/$name-tree.tar.xz"; then
    echo "gpu-check: --pack: cannot write .dist/$name-tree.tar.xz" >&2
    exit 1
  fi
  echo "gpu-check: packed $build as .dist/$name-tree.tar.xz (`du -h "$start_dir/.dist/$name-tree.tar.xz" | cut -f 1`)"
  exit 0
fi
logs=/tmp/$name-gpu-check-logs
rm -rf "$build" "$logs"
mkdir -p "$logs"

failed_steps=
status_of=
# step NAME COMMAND...: run COMMAND (in the current directory) with its
# output in $logs/NAME.log; on failure show the log's tail.
step ()
{
  step_name=$1; shift
  echo "gpu-check: $step_name ..."
  step_start=`date +%s`
  "$@" >"$logs/$step_name.log" 2>&1
  step_rc=$?
  step_secs=`expr \`date +%s\` - $step_start`
  status_of="$status_of
  $step_name: exit $step_rc (${step_secs}s)"
  if test $step_rc -ne 0; then
    failed_steps="$failed_steps $step_name"
    echo "gpu-check: $step_name FAILED (exit $step_rc); last lines of $step_name.log:"
    tail -n 40 "$logs/$step_name.log" | sed 's/^/  | /'
  fi
  return $step_rc
}

cd /tmp || exit 2
bench_desc="not run"
cmocka_args=
cmocka_root=$start_dir/.dist/cmocka/usr
if test -f "$cmocka_root/include/cmocka.h" && ! pkg-config --exists cmocka 2>/dev/null; then
  cmocka_lib=`dirname "\`ls "$cmocka_root"/lib/*/libcmocka.so.0 | head -n 1\`"`
  ln -sf libcmocka.so.0 "$cmocka_lib/libcmocka.so" 2>/dev/null
  cmocka_args="CMOCKA_CFLAGS=-I$cmocka_root/include"
  cmocka_libs="-L$cmocka_lib -Wl,-rpath,$cmocka_lib -lcmocka"
fi
mpfr_root=$start_dir/.dist/mpfr/usr
set --
if test -f "$mpfr_root/include/mpfr.h" && ! pkg-config --exists mpfr 2>/dev/null; then
  mpfr_lib=`dirname "\`ls "$mpfr_root"/lib/*/libmpfr.so | head -n 1\`"`
  set -- "MPFR_CFLAGS=-I$mpfr_root/include -I$mpfr_root/include/x86_64-linux-gnu" \
    "MPFR_LIBS=-L$mpfr_lib -Wl,-rpath,$mpfr_lib -lmpfr -lgmp"
fi
if test -n "$cmocka_args"; then
  set -- "$@" "$cmocka_args" "CMOCKA_LIBS=$cmocka_libs"
fi
# After make check: $GPU_CHECK_EXTRA, then ./reduce-bench.
extra_and_bench ()
{
  if test -n "${GPU_CHECK_EXTRA-}"; then
    export OUT
    step extra sh -c "$GPU_CHECK_EXTRA"
  fi
  if test "$quick" = yes; then
    bench_desc="skipped (--quick)"
  elif test -x ./reduce-bench; then
    echo "gpu-check: ./reduce-bench ..."
    { ./reduce-bench 2>&1; echo $? >"$logs/bench.rc"; } | tee "$OUT/bench.txt"
    bench_rc=`cat "$logs/bench.rc" 2>/dev/null`
    bench_desc="exit ${bench_rc:-unknown} (output in \$OUT/bench.txt)"
    test "${bench_rc:-1}" = 0 || failed_steps="$failed_steps bench"
  else
    bench_desc="not built"
    failed_steps="$failed_steps bench"
  fi
}

if test "$mode" = prebuilt; then
  # the programs were linked here against the carried libraries' sonames
  for d in "$start_dir"/.dist/cmocka/usr/lib/* "$start_dir"/.dist/mpfr/usr/lib/*; do
    test -d "$d" && LD_LIBRARY_PATH=$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  done
  export LD_LIBRARY_PATH
  mpiexec_path=`command -v mpiexec || command -v mpirun`
  if step unpack tar xJf "$tree" && cd "$build"; then
    step check make -j"$jobs" check MPIEXEC="$mpiexec_path"
    extra_and_bench
  fi
elif step unpack tar xzf "$tarball" && cd "$build"; then
  # shellcheck disable=SC2086
  step configure ./configure ${GPU_CHECK_CONFIGURE-} "$@"
  if test -f Makefile; then
    step make make -j"$jobs"
    step check make -j"$jobs" check
    extra_and_bench
  fi
fi

# Collect the logs into one file (only a few files come back from the
# machine).
if test -d "$build"; then
  cd "$build" || exit 2
  cp config.log test-suite.log "$logs"/ 2>/dev/null
  # the test logs keep their folders (tests/api, tests/cuda, ...)
  find tests -name '*.log' -o -name '*.trs' | while read -r f; do
    mkdir -p "$logs/`dirname "$f"`" && cp "$f" "$logs/$f"
  done
fi
(cd "`dirname "$logs"`" && tar czf "$OUT/logs.tar.gz" "`basename "$logs"`")

# The summary, printed last.
{
  echo "==== gpu-check summary: $name (`hostname 2>/dev/null`) ===="
  if test -f "$build/config.log"; then
    sed -n '/^gpureduce .* configured$/,/^  test framework:/p' "$build/config.log"
  else
    echo "(no configure summary)"
  fi
  gpu=`nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader 2>/dev/null | head -n 1`
  echo "GPU: ${gpu:-none found by nvidia-smi}"
  echo "steps:$status_of"
  trs=`find "$build/tests" -name '*.trs' 2>/dev/null`
  if test -n "$trs"; then
    # shellcheck disable=SC2086
    cat $trs | awk '/^:test-result:/ {
        r = $2
        if (r == "PASS" || r == "XFAIL") pass++
        else if (r == "SKIP") skip++
        else fail++
      }
      END { printf "tests: %d passed, %d failed, %d skipped\n", pass, fail, skip }'
    # shellcheck disable=SC2086
    grep -l -E '^:test-result: (FAIL|ERROR|XPASS)' $trs 2>/dev/null \
      | sed "s|^$build/||; s|\\.trs\$||; s|^|  failed: |"
  else
    echo "tests: none ran"
  fi
  echo "bench: $bench_desc"
  if test -n "$failed_steps"; then
    echo "RESULT: FAILED:$failed_steps"
  else
    echo "RESULT: all steps passed"
  fi
} >"$OUT/summary.txt"
cat "$OUT/summary.txt"
test -z "$failed_steps"
