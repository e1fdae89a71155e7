#!/bin/sh
# test-mpi.sh - libgpureduce_mpi (gpureduce_mpi.h), in one TAP stream:
#
#   - tests/mpi/test-mpi-reduce under mpiexec with 1, 2, 3, 4 and 8 ranks
#     (--oversubscribe with Open MPI: CI has two cores), its lines
#     renumbered and prefixed "K ranks:", and for each run one more line
#     that says it ran to its end (exit status 0, its plan matching its
#     lines), so a crash or a hang (killed after GR_MPI_TIMEOUT seconds,
#     default 300) fails;
#   - README's MPI example (tests/mpi/readme-mpi.c, the C block under
#     "Reductions across MPI ranks", and gpureduce_mpi(3)'s EXAMPLE) under
#     1, 4 and 8 ranks, and that the two texts are the file;
#   - reduce-bench-mpi under 3 ranks: it runs, and every row says its bits
#     are the same for every sub-communicator; its --help against
#     reduce-bench-mpi(1)'s OPTIONS;
#   - make install into a scratch DESTDIR: README's example builds with
#     pkg-config --cflags --libs gpureduce-mpi alone and runs on 2 ranks
#     against the installed libraries, whose RPATH names no directory
#     but the installed libdir;
#   - libgpureduce_mpi.so exports gpureduce_mpi_reduce@@GPUREDUCE_MPI_0.2
#     and nothing else; gpureduce_mpi(3)'s SYNOPSIS has the header's
#     prototype, and ERRORS every status the header's @return lists.
#
# Skips as a whole when configure built no MPI.  Run by `make check'
# (AM_TESTS_ENVIRONMENT sets GR_HAVE_MPI, GR_MPIEXEC and the GR_* paths).
# GPUREDUCE_TEST_CUDA=1 in the environment makes test-mpi-reduce require
# CUDA handles (see there); GPUREDUCE_TEST_SEED its seed.
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

# shellcheck source=tests/dist/taplib.sh
. "`dirname "$0"`/../dist/taplib.sh"
tap_need GR_HAVE_MPI GR_ABS_TOP_BUILDDIR GR_ABS_TOP_SRCDIR
if test "$GR_HAVE_MPI" != yes; then
  echo "1..0 # SKIP MPI not built (configure found no MPI; --with-mpi)"
  exit 0
fi
LC_ALL=C
export LC_ALL
build=$GR_ABS_TOP_BUILDDIR
src=$GR_ABS_TOP_SRCDIR
exe=${GR_EXEEXT-}
timeout_s=${GR_MPI_TIMEOUT:-300}
tap_tmpdir mpi

n=0
ok ()     { n=`expr $n + 1`; echo "ok $n - $1"; }
not_ok () { n=`expr $n + 1`; echo "not ok $n - $1"; }
skip ()   { n=`expr $n + 1`; echo "ok $n - $1 # SKIP $2"; }
# check DESCRIPTION FILE: ok when FILE is empty, else not ok with FILE as
# diagnostics.
check ()
{
  if test -s "$2"; then not_ok "$1"; sed 's/^/# /' "$2"; else ok "$1"; fi
}

# ---- the launcher ------------------------------------------------------------
# Open MPI: allowed to run as root (CI is root), oversubscribed (8 ranks on
# two cores), one OpenMP thread a rank.  The host backend's OpenMP threads
# would fight the ranks for the cores.
OMP_NUM_THREADS=1
OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_NUM_THREADS OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
mpiexec=${GR_MPIEXEC-}
launch_flags=
if test -n "$mpiexec" && "$mpiexec" --version 2>&1 | grep -e 'Open MPI' -e OpenRTE >/dev/null; then
  launch_flags="--oversubscribe -x OMP_NUM_THREADS"
  test -n "${GPUREDUCE_TEST_CUDA-}" && launch_flags="$launch_flags -x GPUREDUCE_TEST_CUDA"
  test -n "${GPUREDUCE_TEST_SEED-}" && launch_flags="$launch_flags -x GPUREDUCE_TEST_SEED"
fi
have_timeout=no
timeout 1 true >/dev/null 2>&1 && have_timeout=yes

# launch K OUT PROGRAM ARGS...: run PROGRAM on K ranks, stdout in OUT,
# stderr in OUT.err; its exit status (124 after the time limit).
launch ()
{
  k=$1 out=$2
  shift 2
  if test $have_timeout = yes; then
    # shellcheck disable=SC2086
    timeout "$timeout_s" "$mpiexec" -n "$k" $launch_flags "$@" >"$out" 2>"$out.err"
  else
    # shellcheck disable=SC2086
    "$mpiexec" -n "$k" $launch_flags "$@" >"$out" 2>"$out.err"
  fi
}

# relay PREFIX FILE: FILE's TAP lines, renumbered, "PREFIX: " before each
# description; its comments as they are; its plans dropped.  Sets
# relayed to the number of test lines and planned to the plan's count.
relay ()
{
  awk -v start="$n" -v prefix="$1" -v counts="$tmp/counts" '
    /^(not )?ok / {
      nok = ($0 ~ /^not ok/)
      line = $0
      sub(/^(not )?ok [0-9]* *(- )?/, "", line)
      ++k
      printf "%s %d - %s: %s\n", (nok ? "not ok" : "ok"), start + k, prefix, line
      next
    }
    /^1\.\.[0-9]+/ { plan = substr($0, 4) + 0; next }
    /^#/ { print; next }
    /^Bail out!/ { print "# " $0; next }
    { print "# " $0 }
    END { print k + 0, (plan == "" ? -1 : plan) > counts }' "$2"
  read -r relayed planned <"$tmp/counts"
  n=`expr $n + $relayed`
}

reduce=$build/tests/mpi/test-mpi-reduce$exe
example=$build/tests/mpi/readme-mpi$exe
bench=$build/reduce-bench-mpi$exe

# ---- test-mpi-reduce with 1, 2, 3, 4 and 8 ranks -----------------------------
for k in 1 2 3 4 8; do
  if test -z "$mpiexec"; then
    skip "$k ranks: test-mpi-reduce" "no mpiexec or mpirun found by configure (MPIEXEC=)"
    continue
  fi
  start=`date +%s`
  launch "$k" "$tmp/run.$k" "$reduce"
  status=$?
  end=`date +%s`
  relay "$k ranks" "$tmp/run.$k"
  if test "$status" -eq 0 && test "$relayed" -gt 0 && test "$planned" -eq "$relayed"; then
    ok "$k ranks: test-mpi-reduce ran to its end, $relayed lines as planned (`expr $end - $start` s)"
  else
    case $status in
      124) why="killed after $timeout_s s: a hang?" ;;
      *) why="exit status $status, $relayed lines, plan $planned" ;;
    esac
    not_ok "$k ranks: test-mpi-reduce ran to its end ($why)"
    sed 's/^/# stderr: /' "$tmp/run.$k.err" | head -n 20
  fi
done

# ---- README's example ----------------------------------------------------------
# The first ```c block after README's heading "Reductions across MPI
# ranks", without its fences.
awk '/^Reductions across MPI ranks$/ { sec = 1; next }
     sec && /^```c$/ { on = 1; next }
     on && /^```$/ { exit }
     on' "$src/README" >"$tmp/readme.c"
diff "$src/tests/mpi/readme-mpi.c" "$tmp/readme.c" >"$tmp/d.readme" 2>&1
check "README's MPI example (\"Reductions across MPI ranks\") is tests/mpi/readme-mpi.c" "$tmp/d.readme"
awk '/^\.SH EXAMPLE$/ { sec = 1; next }
     /^\.SH / { sec = 0 }
     sec && /^\.EX$/ { ex = 1; next }
     ex && /^\.EE$/ { ex = 0; sec = 0 }
     ex' "$src/doc/gpureduce_mpi.3" \
  | sed 's/^\\&//; s/\\-/-/g; s/\\(aq/'"'"'/g; s/\\e/\\/g' >"$tmp/man.c"
diff "$src/tests/mpi/readme-mpi.c" "$tmp/man.c" >"$tmp/d.man" 2>&1
check "gpureduce_mpi.3's EXAMPLE is tests/mpi/readme-mpi.c" "$tmp/d.man"
for k in 1 4 8; do
  if test -z "$mpiexec"; then
    skip "$k ranks: README's example" "no mpiexec"
    continue
  fi
  launch "$k" "$tmp/ex.$k" "$example"
  status=$?
  relay "README's example" "$tmp/ex.$k"
  if test "$status" -ne 0 || test "$relayed" -ne 1; then
    not_ok "$k ranks: README's example exits 0 with its one line (exit status $status)"
    sed 's/^/# stderr: /' "$tmp/ex.$k.err" | head -n 10
  fi
done

# ---- reduce-bench-mpi ------------------------------------------------------------
if test -z "$mpiexec"; then
  skip "reduce-bench-mpi on 3 ranks" "no mpiexec"
else
  launch 3 "$tmp/bench" "$bench" --n 1000,2^16+3 --type f32,f64,bf16 --op sum,mean_var --repeat 3
  status=$?
  sed 's/^/# /' "$tmp/bench"
  # Rows: every line that starts with a number of elements; their last
  # field, "same" or "DIFFER", is whether the bits of gpureduce_mpi_reduce
  # were the same on 1, 2 and 3 ranks.
  rows=`awk '$1 ~ /^[0-9]/ { ++r } END { print r + 0 }' "$tmp/bench"`
  same=`awk '$1 ~ /^[0-9]/ && $NF == "same" { ++r } END { print r + 0 }' "$tmp/bench"`
  if test "$status" -eq 0 && test "$rows" -eq 12 && test "$same" -eq 12; then
    ok "reduce-bench-mpi on 3 ranks: 12 rows, gpureduce_mpi_reduce's bits the same on 1, 2 and 3 ranks in each"
  else
    not_ok "reduce-bench-mpi on 3 ranks: exit status $status, $rows rows (12 expected), $same with the same bits"
    sed 's/^/# stderr: /' "$tmp/bench.err" | head -n 10
  fi
fi
# --help's options against reduce-bench-mpi(1)'s OPTIONS (the .TP tags).
"$bench" --help >"$tmp/help" 2>&1
sed -n '/^Options:/,/^$/p' "$tmp/help" | awk '$1 ~ /^--/ { print $1 }' | sort -u >"$tmp/help.opts"
awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH / { on = 0 }
     on && tag { print $2; tag = 0 } on && /^\.TP/ { tag = 1 }' "$src/doc/reduce-bench-mpi.1" \
  | sed 's/\\-/-/g; s/"//g' | sort -u >"$tmp/man.opts"
{ test -s "$tmp/help.opts" || echo "no options in --help"
  comm -3 "$tmp/help.opts" "$tmp/man.opts" | sed 's/^\t/only in reduce-bench-mpi.1: /; t; s/^/only in --help: /'
} >"$tmp/d.opts"
check "reduce-bench-mpi --help and reduce-bench-mpi(1) list the same options" "$tmp/d.opts"

# ---- installed: gpureduce-mpi.pc builds README's example ---------------------------
# make install DESTDIR=<tmp>, then gpureduce.pc and gpureduce-mpi.pc copied
# with their prefix (and absolute libdir, includedir) moved under DESTDIR:
# pkg-config's --define-variable would move mpi-c's prefix too.
if test -z "${GR_MAKE-}" || test -z "${GR_PKGCONFIGDIR-}" || test -z "${GR_CC-}"; then
  skip "make install; README's example builds with pkg-config gpureduce-mpi" "GR_MAKE, GR_CC or GR_PKGCONFIGDIR not set"
elif ! (unset MAKEFLAGS MFLAGS; $GR_MAKE -C "$build" install DESTDIR="$tmp/dest") >"$tmp/install.out" 2>&1; then
  not_ok "make install DESTDIR=<tmp>"
  sed 's/^/# /' "$tmp/install.out" | tail -n 20
else
  dest=$tmp/dest
  mkdir "$tmp/pc"
  for pc in gpureduce gpureduce-mpi; do
    sed "s#^\(prefix\|exec_prefix\|libdir\|includedir\)=/#\1=$dest/#" \
      "$dest$GR_PKGCONFIGDIR/$pc.pc" >"$tmp/pc/$pc.pc" 2>/dev/null
  done
  pkg_config=${GR_PKG_CONFIG:-pkg-config}
  flags=`PKG_CONFIG_PATH=$tmp/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 \
    PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 $pkg_config --cflags --libs gpureduce-mpi 2>"$tmp/pc.err"`
  version=`PKG_CONFIG_PATH=$tmp/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} $pkg_config --modversion gpureduce-mpi 2>/dev/null`
  echo "# pkg-config --cflags --libs gpureduce-mpi: $flags"
  if test -n "$flags" && test "x$version" = "x${GR_PACKAGE_VERSION-}" \
     && test -f "$dest$GR_INCLUDEDIR/gpureduce_mpi.h"; then
    ok "make install: gpureduce_mpi.h, and gpureduce-mpi.pc of version $version that pkg-config resolves"
  else
    not_ok "make install: gpureduce_mpi.h, and gpureduce-mpi.pc of version ${GR_PACKAGE_VERSION-} that pkg-config resolves (got '$version')"
    sed 's/^/# /' "$tmp/pc.err"
  fi
  # shellcheck disable=SC2086
  if $GR_CC -o "$tmp/mpi-example$exe" "$src/tests/mpi/readme-mpi.c" $flags >"$tmp/cc.out" 2>&1; then
    ok "README's example builds with \$(pkg-config --cflags --libs gpureduce-mpi) alone"
    if test -n "$mpiexec"; then
      (LD_LIBRARY_PATH=$dest$GR_LIBDIR${GR_CUDA_LIBDIR:+:$GR_CUDA_LIBDIR}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
       export LD_LIBRARY_PATH
       launch 2 "$tmp/inst" "$tmp/mpi-example$exe")
      status=$?
      if test "$status" -eq 0 && grep '^ok 1 ' "$tmp/inst" >/dev/null; then
        ok "2 ranks: README's example against the installed libraries"
      else
        not_ok "2 ranks: README's example against the installed libraries (exit status $status)"
        sed 's/^/# /' "$tmp/inst" "$tmp/inst.err" | head -n 10
      fi
    else
      skip "2 ranks: README's example against the installed libraries" "no mpiexec"
    fi
  else
    not_ok "README's example builds with \$(pkg-config --cflags --libs gpureduce-mpi) alone"
    sed 's/^/# /' "$tmp/cc.out" | head -n 10
    skip "2 ranks: README's example against the installed libraries" "it did not build"
  fi
  # libtool records the installed libdir itself when it is not a system
  # directory (make distcheck's prefix); any other entry, such as the
  # build tree, would be a packaging bug.
  so=`ls "$dest$GR_LIBDIR"/libgpureduce_mpi.so.* 2>/dev/null | head -n 1`
  what="the installed libgpureduce_mpi's RPATH and RUNPATH name no directory but $GR_LIBDIR"
  if test -z "$so"; then
    skip "$what" "no shared library"
  else
    readelf -d "$so" 2>/dev/null | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\].*/\1/p' \
      | tr ':' '\n' | grep -v '^$' | grep -v -x -F "$GR_LIBDIR" >"$tmp/rpath"
    if test -s "$tmp/rpath"; then
      not_ok "$what"
      sed 's/^/# other entry: /' "$tmp/rpath"
    else
      ok "$what"
    fi
  fi
fi

# ---- the library's symbols ------------------------------------------------------
la=$build/libgpureduce_mpi.la
dlname=`sed -n "s/^dlname='\(.*\)'\$/\1/p" "$la" 2>/dev/null`
if test -z "$dlname"; then
  skip "libgpureduce_mpi.so exports gpureduce_mpi_reduce@@GPUREDUCE_MPI_0.2 alone" "no shared library"
elif ! nm --version >/dev/null 2>&1; then
  skip "libgpureduce_mpi.so exports gpureduce_mpi_reduce@@GPUREDUCE_MPI_0.2 alone" "no nm"
else
  nm -D --defined-only "$build/.libs/$dlname" | awk '$(NF - 1) != "A" { print $NF }' >"$tmp/syms"
  if test "`cat "$tmp/syms"`" = "gpureduce_mpi_reduce@@GPUREDUCE_MPI_0.2"; then
    ok "$dlname exports gpureduce_mpi_reduce@@GPUREDUCE_MPI_0.2 alone"
  else
    not_ok "$dlname exports gpureduce_mpi_reduce@@GPUREDUCE_MPI_0.2 alone"
    sed 's/^/# exported: /' "$tmp/syms"
  fi
fi
grep -c '^GPUREDUCE_API' "$src/include/gpureduce_mpi.h" >"$tmp/napi"
sed -n 's/^ *\(gpureduce_[a-z0-9_]*\);$/\1/p' "$src/src/libgpureduce_mpi.map" >"$tmp/listed"
if test "`cat "$tmp/napi"`" = 1 && test "`cat "$tmp/listed"`" = gpureduce_mpi_reduce; then
  ok "gpureduce_mpi.h declares one GPUREDUCE_API function, libgpureduce_mpi.map lists it alone"
else
  not_ok "gpureduce_mpi.h declares one GPUREDUCE_API function, libgpureduce_mpi.map lists it alone"
fi

# ---- gpureduce_mpi(3) against the header ------------------------------------------
# The prototype, blanks collapsed, from the header and from SYNOPSIS (the
# page's .BI lines: quoted pieces and words run together).
awk '/^GPUREDUCE_API / { on = 1 } on { printf "%s ", $0; if ($0 ~ /;/) on = 0 }' \
  "$src/include/gpureduce_mpi.h" \
  | sed 's/GPUREDUCE_API //; s/GPUREDUCE_NODISCARD //; s/[ \t][ \t]*/ /g; s/( /(/g; s/ $//' >"$tmp/proto"
awk '/^\.SH SYNOPSIS/ { on = 1; next } /^\.SH / { on = 0 }
     on && /^\.BI? / {
       line = $0; sub(/^\.BI? /, "", line); out = ""
       glue = ($0 ~ /^\.BI /) ? "" : " "
       while (line != "") {
         sub(/^[ \t]+/, "", line)
         if (line == "") break
         if (substr(line, 1, 1) == "\"") {
           line = substr(line, 2); i = index(line, "\"")
           a = substr(line, 1, i - 1); line = substr(line, i + 1)
         } else { match(line, /^[^ \t]+/); a = substr(line, 1, RLENGTH); line = substr(line, RLENGTH + 1) }
         out = out (out == "" ? "" : glue) a
       }
       printf "%s ", out
     }' "$src/doc/gpureduce_mpi.3" \
  | sed 's/\\-/-/g; s/[ \t][ \t]*/ /g; s/( /(/g' >"$tmp/synopsis"
if test -s "$tmp/proto" && grep -F -e "`cat "$tmp/proto"`" "$tmp/synopsis" >/dev/null; then
  ok "gpureduce_mpi.3's SYNOPSIS has the prototype of gpureduce_mpi.h"
else
  not_ok "gpureduce_mpi.3's SYNOPSIS has the prototype of gpureduce_mpi.h"
  echo "# header:   `cat "$tmp/proto"`"
  echo "# synopsis: `cat "$tmp/synopsis"`"
fi
# Every status the header's @return names has an ERRORS entry "NAME (VALUE)".
sed -n '/@return/,/\*\//p' "$src/include/gpureduce_mpi.h" \
  | grep -o 'GPUREDUCE_[A-Z_]*' | grep -v GPUREDUCE_SUCCESS | sort -u >"$tmp/statuses"
awk '/^\.SH ERRORS/ { on = 1; next } /^\.SH / { on = 0 } on && tag { print; tag = 0 } on && /^\.TP/ { tag = 1 }' \
  "$src/doc/gpureduce_mpi.3" | sed 's/^\.BR* //; s/"//g; s/  */ /g' >"$tmp/errors"
: >"$tmp/d.errors"
test -s "$tmp/statuses" || echo "no status found in gpureduce_mpi.h's @return" >>"$tmp/d.errors"
while read -r name; do
  value=`grep -o "X($name, [0-9]*" "$src/include/gpureduce/base.h" | sed 's/.*, //'`
  grep -F -x -e "$name ($value)" "$tmp/errors" >/dev/null \
    || echo "$name ($value) has no entry in ERRORS" >>"$tmp/d.errors"
done <"$tmp/statuses"
check "gpureduce_mpi.3's ERRORS lists every status of gpureduce_mpi.h's @return, with its value" "$tmp/d.errors"

echo "1..$n"
exit 0
