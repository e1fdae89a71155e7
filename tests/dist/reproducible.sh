#!/bin/sh
# reproducible.sh - two builds of the same tarball in two directories give
# the same bytes: nothing nvcc compiles carries a name made from the build
# directory.
#
# cudafe++ (nvcc's front end) names an anonymous namespace of a .cu file,
# and what is declared in it, after a hash of the file's path
# (_GLOBAL__N__<hash>_<length>_<file>_...); those names reach the symbol
# tables, the debug strings, .rodata and .nv_fatbin, and with them the
# build-id.  Two things keep them out, and this test fails, saying which,
# when either comes back:
#   1. the library's .cu files declare nothing in anonymous namespaces
#      (named gr::*_impl ones instead): no such name in libgpureduce.so or
#      libgpureduce.a;
#   2. every .cu file, CCCL's headers included, goes through
#      build-aux/nvcc-libtool --relative-to, which gives nvcc the file's
#      path relative to the tree (configure: GR_NVCC_RELATIVE): the same
#      .cu file with an anonymous namespace (tests/dist/reproducible.cu),
#      compiled so from two directories, gives the same object.  Skipped,
#      saying so, where configure found nvcc without the option.
#
# Run by `make check` (AM_TESTS_ENVIRONMENT sets the GR_ variables).
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

# shellcheck source=tests/dist/taplib.sh
. "`dirname "$0"`/taplib.sh"
tap_need GR_ABS_TOP_BUILDDIR GR_ABS_TOP_SRCDIR GR_NVCC

top=$GR_ABS_TOP_BUILDDIR
libs=
for f in "$top"/.libs/libgpureduce.so.* "$top"/.libs/libgpureduce.a; do
  test -f "$f" && test ! -h "$f" && libs="$libs $f"
done

set -- $libs
echo "1..$(($# + 1))"
n=0
for f
do
  n=$((n + 1))
  hashed=`grep -a -o -m 1 '_GLOBAL__N__[0-9a-f]*_[0-9]*_[A-Za-z0-9_]*' "$f" | head -n 1`
  if test -z "$hashed"; then
    echo "ok $n - ${f#"$top"/} has no name made from a .cu file's path"
  else
    echo "not ok $n - ${f#"$top"/} has $hashed: an anonymous namespace in a library .cu file; use a named one"
  fi
done

n=$((n + 1))
what="tests/dist/reproducible.cu compiled by build-aux/nvcc-libtool in two directories: the same object"
if test -z "${GR_NVCC_RELATIVE-}"; then
  echo "ok $n - $what # SKIP configure found $GR_NVCC without -Xcudafe --orig_src_path_name"
  exit 0
fi
tap_tmpdir reproducible
# compile DIR: DIR/src/dir/reproducible.cu to its .o, as make compiles
# the tree's .cu files in a build out of DIR (absolute paths).
compile ()
{
  mkdir -p "$1/src/dir" &&
  cp "$GR_ABS_TOP_SRCDIR/tests/dist/reproducible.cu" "$1/src/dir/" &&
  ${GR_SHELL:-/bin/sh} "$GR_ABS_TOP_SRCDIR/build-aux/nvcc-libtool" --relative-to="$1" \
    $GR_NVCC $GR_NVCC_FLAGS -c -o "$1/src/dir/reproducible.o" "$1/src/dir/reproducible.cu" \
    > "$tmp/log" 2>&1
}
if ! compile "$tmp/one" || ! compile "$tmp/two/deeper/build"; then
  echo "not ok $n - $what: nvcc failed"
  sed 's/^/# /' "$tmp/log"
elif cmp -s "$tmp/one/src/dir/reproducible.o" "$tmp/two/deeper/build/src/dir/reproducible.o"; then
  echo "ok $n - $what"
else
  echo "not ok $n - $what: the objects differ (does $GR_NVCC still take -Xcudafe --orig_src_path_name?)"
fi
exit 0
