#!/bin/sh
# pkg-config-consumer.sh - install gpureduce into a scratch DESTDIR, then
# build and run tests/dist/consumer.c with nothing but pkg-config's flags (no CUDA
# include path), as a user of the installed library would, and README's
# GPU example (tests/readme-cuda.c) with CUDA's flags added, as README
# says.  Prints TAP.
#
# Run by `make check` (Makefile.am's AM_TESTS_ENVIRONMENT sets the GR_*
# variables); works in VPATH builds and under `make distcheck`.
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

# shellcheck source=tests/dist/taplib.sh
. "`dirname "$0"`/taplib.sh"
tap_need GR_MAKE GR_ABS_TOP_BUILDDIR GR_ABS_TOP_SRCDIR GR_CC GR_LIBDIR \
  GR_INCLUDEDIR GR_PKGCONFIGDIR GR_PACKAGE_VERSION
pkg_config=${GR_PKG_CONFIG:-pkg-config}
if ! $pkg_config --version >/dev/null 2>&1; then
  echo "1..0 # SKIP pkg-config not found"
  exit 0
fi

tap_tmpdir consumer
dest=$tmp/dest
n=0
failed=0

echo "1..9"

ok ()      { n=`expr $n + 1`; echo "ok $n - $1"; }
not_ok ()  { n=`expr $n + 1`; echo "not ok $n - $1"; failed=1; }
skip ()    { n=`expr $n + 1`; echo "ok $n # SKIP $1"; }
diag ()    { sed 's/^/# /' "$1"; }

# 1. make install DESTDIR=...  (our own make, not the jobs of `make check`)
if (unset MAKEFLAGS MFLAGS; $GR_MAKE -C "$GR_ABS_TOP_BUILDDIR" install DESTDIR="$dest") \
     >"$tmp/install.out" 2>&1; then
  ok "make install DESTDIR=<tmp>"
else
  diag "$tmp/install.out"
  not_ok "make install DESTDIR=<tmp>"
  echo "Bail out! cannot install"
  exit 1
fi

# pkg-config on the installed .pc, its paths moved under DESTDIR.
PKG_CONFIG_PATH=$dest$GR_PKGCONFIGDIR
PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1
PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
export PKG_CONFIG_PATH PKG_CONFIG_ALLOW_SYSTEM_CFLAGS PKG_CONFIG_ALLOW_SYSTEM_LIBS
unset PKG_CONFIG_SYSROOT_DIR
pc ()
{
  $pkg_config --define-variable=prefix="$dest$GR_PREFIX" \
    --define-variable=libdir="$dest$GR_LIBDIR" \
    --define-variable=includedir="$dest$GR_INCLUDEDIR" "$@" gpureduce
}

# 2. the .pc is found and has our version
version=`pc --modversion 2>"$tmp/pc.err"`
if test "x$version" = "x$GR_PACKAGE_VERSION"; then
  ok "pkg-config finds gpureduce $version"
else
  diag "$tmp/pc.err"
  not_ok "pkg-config --modversion gpureduce gives '$version', wanted $GR_PACKAGE_VERSION"
fi
so=`ls "$dest$GR_LIBDIR"/libgpureduce.so.* 2>/dev/null | head -n 1`
cflags=`pc --cflags`
if test -n "$so"; then
  libs=`pc --libs`
else
  # A static-only install (--disable-shared) needs the private libraries.
  libs=`pc --static --libs`
fi
echo "# cflags: $cflags"
echo "# libs:   $libs"
echo "# static: `pc --static --libs`"

# 3. build the consumer with pkg-config's flags only (no CUDA include path)
case $cflags in
  *cuda* | *CUDA*) not_ok "Cflags name no CUDA directory ($cflags)" ;;
  *)
    if $GR_CC -o "$tmp/consumer$GR_EXEEXT" "$GR_ABS_TOP_SRCDIR/tests/dist/consumer.c" \
         $cflags $libs >"$tmp/cc.out" 2>&1; then
      ok "consumer.c builds with pkg-config --cflags --libs gpureduce"
    else
      diag "$tmp/cc.out"
      not_ok "consumer.c builds with pkg-config --cflags --libs gpureduce"
    fi ;;
esac

# 4. run it against the installed library
LD_LIBRARY_PATH=$dest$GR_LIBDIR${GR_CUDA_LIBDIR:+:$GR_CUDA_LIBDIR}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
if test -x "$tmp/consumer$GR_EXEEXT" && "$tmp/consumer$GR_EXEEXT" >"$tmp/run.out" 2>&1; then
  ok "consumer sums {1.5, -2, 4} to 3.5 on the host and its version matches the header"
else
  test -f "$tmp/run.out" && diag "$tmp/run.out"
  not_ok "consumer sums {1.5, -2, 4} to 3.5 on the host and its version matches the header"
fi

# 5. no RPATH/RUNPATH in the installed library
if test -z "$so"; then
  skip "no installed shared library (--disable-shared)"
elif readelf --version >/dev/null 2>&1; then
  if readelf -d "$so" | grep -E 'RPATH|RUNPATH' >"$tmp/rpath.out"; then
    diag "$tmp/rpath.out"; not_ok "installed `basename "$so"` has no RPATH/RUNPATH"
  else
    ok "installed `basename "$so"` has no RPATH/RUNPATH"
  fi
else
  skip "readelf not found"
fi

# 6. the shared library exports gpureduce_* symbols only
if test -z "$so"; then
  skip "no installed shared library (--disable-shared)"
elif nm --version >/dev/null 2>&1; then
  nm -D --defined-only "$so" | awk '{ print $NF }' \
    | grep -v -e '^gpureduce_' -e '^GPUREDUCE' >"$tmp/syms.out"
  if test -s "$tmp/syms.out"; then
    diag "$tmp/syms.out"; not_ok "`basename "$so"` exports gpureduce_* symbols only"
  else
    ok "`basename "$so"` exports gpureduce_* symbols only"
  fi
else
  skip "nm not found"
fi

# 7. the static library links the consumer too (pkg-config --static)
a=$dest$GR_LIBDIR/libgpureduce.a
if test ! -f "$a"; then
  skip "no installed static library (--disable-static)"
else
  slibs=
  for f in `pc --static --libs`; do
    case $f in -lgpureduce) ;; *) slibs="$slibs $f" ;; esac
  done
  if $GR_CC -o "$tmp/consumer-static$GR_EXEEXT" "$GR_ABS_TOP_SRCDIR/tests/dist/consumer.c" \
       $cflags "$a" $slibs >"$tmp/scc.out" 2>&1 \
     && "$tmp/consumer-static$GR_EXEEXT" >>"$tmp/scc.out" 2>&1; then
    ok "consumer links libgpureduce.a with pkg-config --static --libs and runs"
  else
    diag "$tmp/scc.out"
    not_ok "consumer links libgpureduce.a with pkg-config --static --libs and runs"
  fi
fi

# 8. Libs and Libs.private name libraries only (-L, -l): a compiler flag
# such as -fopenmp would make a program built by another compiler link
# another OpenMP runtime than the library's, or fail.
others=
for f in `pc --static --libs`; do
  case $f in -L* | -l*) ;; *) others="$others $f" ;; esac
done
if test -z "$others"; then
  ok "pkg-config --static --libs gpureduce gives -L and -l flags only"
else
  not_ok "pkg-config --static --libs gpureduce gives -L and -l flags only (also:$others)"
fi

# 9. README's GPU example (tests/readme-cuda.c) builds as README says:
# pkg-config's flags plus CUDA's include path and runtime; it runs (and
# skips itself without a GPU).
what="README's GPU example builds with pkg-config's flags, CUDA's include path and -lcudart, and runs"
if $GR_CC -o "$tmp/cuda-example$GR_EXEEXT" "$GR_ABS_TOP_SRCDIR/tests/readme-cuda.c" \
     $cflags $libs ${GR_CUDA_CPPFLAGS-} ${GR_CUDA_LIBDIR:+-L$GR_CUDA_LIBDIR} -lcudart \
     >"$tmp/cuda.out" 2>&1 \
   && "$tmp/cuda-example$GR_EXEEXT" >>"$tmp/cuda.out" 2>&1; then
  ok "$what"
  diag "$tmp/cuda.out"
else
  diag "$tmp/cuda.out"
  not_ok "$what"
fi

exit 0
