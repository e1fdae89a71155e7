#!/bin/sh
# abi-symbols.sh - the shared library exports exactly the functions that
# include/gpureduce.h declares GPUREDUCE_API: every declared function is a
# defined dynamic symbol of the built libgpureduce.so, and every defined
# dynamic symbol is a declared function.  One TAP line per symbol and
# direction, naming the symbol.  doc/ABI.md says why this matters.
#
# Run by `make check` (AM_TESTS_ENVIRONMENT sets GR_ABS_TOP_BUILDDIR and
# GR_ABS_TOP_SRCDIR); skips when the tree was configured --disable-shared.
# Uses nm from binutils ($GR_NM overrides it).
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

# shellcheck source=tests/taplib.sh
. "`dirname "$0"`/taplib.sh"
tap_need GR_ABS_TOP_BUILDDIR GR_ABS_TOP_SRCDIR
nm=${GR_NM:-nm}
header=$GR_ABS_TOP_SRCDIR/include/gpureduce.h
la=$GR_ABS_TOP_BUILDDIR/libgpureduce.la

if ! test -f "$la"; then
  echo "1..0 # SKIP $la not built"
  exit 0
fi
# libtool's .la names the shared library in dlname ('' without one).
dlname=`sed -n "s/^dlname='\(.*\)'\$/\1/p" "$la"`
if test -z "$dlname"; then
  echo "1..0 # SKIP no shared library"
  exit 0
fi
lib=$GR_ABS_TOP_BUILDDIR/.libs/$dlname
if ! test -f "$lib"; then
  echo "1..0 # SKIP no shared library ($lib missing)"
  exit 0
fi
if ! $nm --version >/dev/null 2>&1; then
  echo "1..0 # SKIP $nm not found (binutils)"
  exit 0
fi

tap_tmpdir abi

# Declared: strip comments, drop preprocessor lines (with their
# continuations), split the rest into declarations at ';' and '{', and
# keep the identifier before the first '(' of each declaration that
# carries the GPUREDUCE_API token.
awk '
  {
    line = $0; out = ""
    while (line != "") {
      if (in_comment) {
        i = index(line, "*/")
        if (i == 0) { line = ""; break }
        line = substr(line, i + 2); in_comment = 0
      } else {
        i = index(line, "/*"); j = index(line, "//")
        if (j > 0 && (i == 0 || j < i)) { out = out substr(line, 1, j - 1); break }
        if (i == 0) { out = out line; break }
        out = out substr(line, 1, i - 1) " "; line = substr(line, i + 2); in_comment = 1
      }
    }
    if (in_directive || out ~ /^[ \t]*#/) {
      in_directive = (out ~ /\\[ \t]*$/)
      next
    }
    text = text " " out
  }
  END {
    gsub(/[{}]/, ";", text)
    n = split(text, decl, ";")
    for (k = 1; k <= n; k++) {
      d = decl[k]
      if (d !~ /(^|[^A-Za-z0-9_])GPUREDUCE_API([^A-Za-z0-9_]|$)/) continue
      p = index(d, "(")
      if (p == 0) continue
      head = substr(d, 1, p - 1)
      sub(/[ \t]+$/, "", head)
      if (match(head, /[A-Za-z_][A-Za-z0-9_]*$/))
        print substr(head, RSTART, RLENGTH)
    }
  }' "$header" | LC_ALL=C sort -u >"$tmp/declared"

# Exported: defined dynamic symbols, "NAME TYPE" (one line per name).
if ! $nm -D --defined-only "$lib" >"$tmp/nm.out" 2>"$tmp/nm.err"; then
  echo "1..1"
  echo "not ok 1 - $nm -D --defined-only $dlname failed"
  sed 's/^/# /' "$tmp/nm.err"
  exit 0
fi
awk 'NF >= 2 { name = $NF; sub(/@.*/, "", name); print name, $(NF - 1) }' "$tmp/nm.out" \
  | LC_ALL=C sort -u -k1,1 >"$tmp/exported"

ndecl=`wc -l <"$tmp/declared" | tr -d ' '`
nexp=`wc -l <"$tmp/exported" | tr -d ' '`
echo "1..`expr 1 + $ndecl + $nexp`"
n=0
ok ()     { n=`expr $n + 1`; echo "ok $n - $1"; }
not_ok () { n=`expr $n + 1`; echo "not ok $n - $1"; }

if test "$ndecl" -gt 0; then
  ok "gpureduce.h declares $ndecl GPUREDUCE_API functions; $dlname exports $nexp symbols"
else
  not_ok "gpureduce.h declares no GPUREDUCE_API function (header parse failed?)"
fi

# Declared -> exported (as a function: T, or W/i for weak and ifunc).
while read -r sym; do
  type=`awk -v s="$sym" '$1 == s { print $2 }' "$tmp/exported"`
  case $type in
    T | W | i) ok "declared $sym is exported by $dlname" ;;
    '') not_ok "declared $sym is exported by $dlname: it is not (missing from the version script, or not built?)" ;;
    *) not_ok "declared $sym is exported by $dlname as a function: nm type is $type" ;;
  esac
done <"$tmp/declared"

# Exported -> declared.
while read -r sym type; do
  if grep -qx "$sym" "$tmp/declared"; then
    ok "exported $sym is declared GPUREDUCE_API in gpureduce.h"
  else
    not_ok "exported $sym (nm type $type) is declared GPUREDUCE_API in gpureduce.h: it is not (an internal symbol leaking into the ABI?)"
  fi
done <"$tmp/exported"
exit 0
