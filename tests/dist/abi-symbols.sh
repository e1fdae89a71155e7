#!/bin/sh
# abi-symbols.sh - the shared library exports exactly the functions that
# the public headers (include/gpureduce.h and include/gpureduce/*.h)
# declare GPUREDUCE_API, each in one named node of the linker version
# script src/libgpureduce.map: the nodes are named GPUREDUCE_MAJOR.MINOR
# and each after the first inherits the one before it
# (GPUREDUCE_0.2 { ... } GPUREDUCE_0.1;); every declared function is
# listed in exactly one node and is a defined dynamic symbol of the built
# libgpureduce.so with that node's version; and every listed or exported
# symbol is a declared function.  One TAP line per symbol and check,
# naming the symbol.  doc/ABI.md says why this matters.
#
# Run by `make check` (AM_TESTS_ENVIRONMENT sets GR_ABS_TOP_BUILDDIR and
# GR_ABS_TOP_SRCDIR); skips when the tree was configured --disable-shared.
# Uses nm from binutils ($GR_NM overrides it).
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

# shellcheck source=tests/dist/taplib.sh
. "`dirname "$0"`/taplib.sh"
tap_need GR_ABS_TOP_BUILDDIR GR_ABS_TOP_SRCDIR
nm=${GR_NM:-nm}
headers="$GR_ABS_TOP_SRCDIR/include/gpureduce.h `ls "$GR_ABS_TOP_SRCDIR"/include/gpureduce/*.h`"
map=$GR_ABS_TOP_SRCDIR/src/libgpureduce.map
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
  }' $headers | LC_ALL=C sort -u >"$tmp/declared"

# The version script, comments dropped: its nodes in order, "NAME PARENT"
# ("NAME {" ... "} PARENT;", PARENT "-" for none), and the symbols of each
# node's global: section, "symbol NODE" (no wildcard).
sed 's|/\*.*\*/||; /\/\*/,/\*\//d' "$map" >"$tmp/map"
awk '/^[A-Za-z_][A-Za-z0-9_.]*[ \t]*\{/ { node = $0; sub(/[ \t]*\{.*/, "", node); next }
     /^[ \t]*\}/ && node != "" {
       parent = $0; sub(/^[ \t]*\}[ \t]*/, "", parent); sub(/[ \t]*;.*/, "", parent)
       print node, (parent == "" ? "-" : parent); node = ""
     }' "$tmp/map" >"$tmp/nodes"
awk '/^[A-Za-z_][A-Za-z0-9_.]*[ \t]*\{/ { node = $0; sub(/[ \t]*\{.*/, "", node); on = 0; next }
     /global:/ { on = 1; next } /local:/ || /^[ \t]*\}/ { on = 0 }
     on { gsub(/[ \t;]/, ""); if ($0 != "") print $0, node }' "$tmp/map" \
  | LC_ALL=C sort -u >"$tmp/listed.nodes"
cut -d ' ' -f 1 "$tmp/listed.nodes" | LC_ALL=C sort -u >"$tmp/listed"

# Exported: defined dynamic symbols, "NAME TYPE VERSION" (one line per name;
# nm -D writes name@@VERSION for a default version).  The version node's
# own absolute symbol (type A) is not a function.
if ! $nm -D --defined-only "$lib" >"$tmp/nm.out" 2>"$tmp/nm.err"; then
  echo "1..1"
  echo "not ok 1 - $nm -D --defined-only $dlname failed"
  sed 's/^/# /' "$tmp/nm.err"
  exit 0
fi
awk 'NF >= 2 && $(NF - 1) != "A" {
       name = $NF; version = "(none)"
       if (index(name, "@")) { version = name; sub(/^[^@]*@@?/, "", version) }
       sub(/@.*/, "", name); print name, $(NF - 1), version
     }' "$tmp/nm.out" | LC_ALL=C sort -u -k1,1 >"$tmp/exported"

ndecl=`wc -l <"$tmp/declared" | tr -d ' '`
nexp=`wc -l <"$tmp/exported" | tr -d ' '`
nlist=`wc -l <"$tmp/listed" | tr -d ' '`
nnodes=`wc -l <"$tmp/nodes" | tr -d ' '`
# (no node at all is one failed line)
echo "1..`expr 1 + \( $nnodes + \( $nnodes = 0 \) \) + 2 \* $ndecl + $nexp + $nlist`"
n=0
ok ()     { n=`expr $n + 1`; echo "ok $n - $1"; }
not_ok () { n=`expr $n + 1`; echo "not ok $n - $1"; }

if test "$ndecl" -gt 0; then
  ok "the public headers declare $ndecl GPUREDUCE_API functions; $dlname exports $nexp symbols"
else
  not_ok "the public headers declare no GPUREDUCE_API function (header parse failed?)"
fi
# The nodes: GPUREDUCE_MAJOR.MINOR, the first inheriting none, each later
# one the node before it.
if test "$nnodes" -eq 0; then
  not_ok "libgpureduce.map has named version nodes: it has none"
fi
previous=-
while read -r node parent; do
  if ! expr "$node" : 'GPUREDUCE_[0-9][0-9]*\.[0-9][0-9]*$' >/dev/null; then
    not_ok "version node $node of libgpureduce.map is named GPUREDUCE_MAJOR.MINOR: it is not"
  elif test "$parent" != "$previous"; then
    not_ok "version node $node of libgpureduce.map inherits $previous: it inherits $parent"
  else
    test "$parent" = - && inherits="the first node" || inherits="inheriting $parent"
    ok "version node $node of libgpureduce.map ($inherits) lists `awk -v n="$node" '$2 == n' "$tmp/listed.nodes" | wc -l | tr -d ' '` symbols"
  fi
  previous=$node
done <"$tmp/nodes"

# Declared -> listed in one node, and exported (as a function: T, or W/i
# for weak and ifunc) with that node's version.
while read -r sym; do
  nodes=`awk -v s="$sym" '$1 == s { print $2 }' "$tmp/listed.nodes" | tr '\n' ' ' | sed 's/ $//'`
  case $nodes in
    '') not_ok "declared $sym is listed in a node of libgpureduce.map: it is not" ;;
    *' '*) not_ok "declared $sym is listed in one node of libgpureduce.map: it is in $nodes" ;;
    *) ok "declared $sym is listed in $nodes of libgpureduce.map" ;;
  esac
  node=${nodes%% *}
  type=`awk -v s="$sym" '$1 == s { print $2 }' "$tmp/exported"`
  version=`awk -v s="$sym" '$1 == s { print $3 }' "$tmp/exported"`
  case $type:$version in
    T:"$node" | W:"$node" | i:"$node") ok "declared $sym is exported by $dlname as $sym@@$node" ;;
    :*) not_ok "declared $sym is exported by $dlname: it is not (missing from the version script, or not built?)" ;;
    [TWi]:*) not_ok "declared $sym is exported by $dlname with version ${node:-(its node)}: its version is $version" ;;
    *) not_ok "declared $sym is exported by $dlname as a function: nm type is $type" ;;
  esac
done <"$tmp/declared"

# Listed -> declared.
while read -r sym; do
  if grep -qx "$sym" "$tmp/declared"; then
    ok "$sym of libgpureduce.map is declared GPUREDUCE_API in the public headers"
  else
    not_ok "$sym of libgpureduce.map is declared GPUREDUCE_API in the public headers: it is not"
  fi
done <"$tmp/listed"

# Exported -> declared.
while read -r sym type version; do
  if grep -qx "$sym" "$tmp/declared"; then
    ok "exported $sym is declared GPUREDUCE_API in the public headers"
  else
    not_ok "exported $sym (nm type $type) is declared GPUREDUCE_API in the public headers: it is not (an internal symbol leaking into the ABI?)"
  fi
done <"$tmp/exported"
exit 0
