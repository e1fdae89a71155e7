#!/bin/sh
# man-options.sh - the documentation agrees with the code.  Prints TAP.
#
#   reduce-bench(1) against `reduce-bench --help': the same options with
#   the same argument names in OPTIONS, no other option mentioned, the
#   same exit statuses in EXIT STATUS;
#   gpureduce(3) against the public headers (include/gpureduce.h and
#   include/gpureduce/*.h): every prototype, enum value and constant in
#   the subsection Declarations, and each prototype of the short SYNOPSIS
#   one of the headers'; every status of GPUREDUCE_STATUS_LIST in ERRORS
#   with its value;
#   every GPUREDUCE_API function (of include/gpureduce_mpi.h too) has a
#   subsection of gpureduce(3) named after it (of gpureduce_mpi(3): its
#   NAME), and a page doc/man3/FUNCTION.3 that Makefile.am installs and
#   that is ".so man3/gpureduce.3" (".so man3/gpureduce_mpi.3"), so that
#   `man FUNCTION' works; doc/man3 has no other page;
#   the C examples of README and of gpureduce(3) are tests/readme-example.c
#   (the first of each), tests/readme-cuda.c (README's second, the third
#   .EX block of gpureduce(3)'s EXAMPLE), tests/readme-batched.c
#   (README's third, the fifth .EX block), tests/readme-segments.c
#   (README's fourth, the sixth .EX block) and tests/readme-softmax.c
#   (README's fifth, the seventh .EX block), which make check compiles and
#   runs.
#
# Run by `make check' (Makefile.am's AM_TESTS_ENVIRONMENT sets the GR_*
# variables).  Needs no GPU (--help needs none); reads the source tree
# only, so it works in VPATH builds and under `make distcheck'.
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

# shellcheck source=tests/dist/taplib.sh
. "`dirname "$0"`/taplib.sh"
tap_need GR_ABS_TOP_BUILDDIR GR_ABS_TOP_SRCDIR
LC_ALL=C
export LC_ALL
src=$GR_ABS_TOP_SRCDIR
bench=$GR_ABS_TOP_BUILDDIR/reduce-bench${GR_EXEEXT-}
man1=$src/doc/reduce-bench.1
man3=$src/doc/gpureduce.3
# The umbrella and its subheaders, as one text.
headers="$src/include/gpureduce.h `ls "$src"/include/gpureduce/*.h`"
example=$src/tests/readme-example.c
cuda=$src/tests/readme-cuda.c
batched=$src/tests/readme-batched.c
segments=$src/tests/readme-segments.c
softmax=$src/tests/readme-softmax.c

tap_tmpdir man
# shellcheck disable=SC2086
cat $headers >"$tmp/header"
header=$tmp/header

n=0
# check DESCRIPTION FILE: ok when FILE is empty, else not ok with FILE as
# diagnostics.
check ()
{
  n=$((n + 1))
  if test -s "$2"; then
    echo "not ok $n - $1"
    sed 's/^/# /' "$2"
  else
    echo "ok $n - $1"
  fi
}

# roff_text: man(7) source on stdin -> its text, one output line per input
# line: macro lines (.B, .BI, .TP, ...) become their arguments (joined
# with spaces for .B and .I, run together for .BI, .BR and the like),
# other requests become empty lines, and the escapes used in these pages
# become the characters they stand for.
roff_text ()
{
  awk '
    function args(s, glue,   out, a, sep) {
      out = ""; sep = ""
      while (s != "") {
        sub(/^[ \t]+/, "", s)
        if (s == "") break
        if (substr(s, 1, 1) == "\"") {
          s = substr(s, 2)
          i = index(s, "\"")
          if (i == 0) { a = s; s = "" } else { a = substr(s, 1, i - 1); s = substr(s, i + 1) }
        } else if (match(s, /^[^ \t]+/)) {
          a = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1)
        }
        out = out sep a; sep = glue
      }
      return out
    }
    {
      line = $0
      if (line ~ /^\.\\"/) { print ""; next }
      if (line ~ /^\.(B|I|SM|SB)([ \t]|$)/) {
        sub(/^\.[A-Z]+[ \t]*/, "", line); line = args(line, " ")
      } else if (line ~ /^\.(BI|BR|IB|IR|RB|RI)([ \t]|$)/) {
        sub(/^\.[A-Z]+[ \t]*/, "", line); line = args(line, "")
      } else if (line ~ /^\.(SH|SS)([ \t]|$)/) {
        m = substr(line, 1, 3)
        sub(/^\.[A-Z]+[ \t]*/, "", line); line = m " " args(line, " ")
      } else if (line ~ /^\.TP/) {
        line = ".TP"
      } else if (line ~ /^[.\047]/) {
        line = ""
      }
      gsub(/\\-/, "-", line); gsub(/\\\(aq/, "\047", line)
      gsub(/\\\(dq/, "\"", line); gsub(/\\\(lq|\\\(rq/, "\"", line)
      gsub(/\\\(mu/, "x", line); gsub(/\\&/, "", line)
      gsub(/\\f[BIRP]/, "", line); gsub(/\\e/, "\\", line)
      print line
    }'
}

# section NAME: the text of section NAME of the roff_text on stdin.
section ()
{
  awk -v want=".SH $1" '
    /^\.SH / { on = ($0 == want); next }
    on'
}

# subsection NAME: the text of subsection NAME (.SS) of the roff_text on
# stdin, up to the next subsection or section.
subsection ()
{
  awk -v want=".SS $1" '
    /^\.S[HS] / { on = ($0 == want); next }
    on'
}

# ---- reduce-bench --help --------------------------------------------------
"$bench" --help >"$tmp/help" 2>"$tmp/help.err"
status=$?
# Options as "--name" or "--name ARG", and exit statuses, from the help.
sed -n '/^Options:/,/^$/p' "$tmp/help" \
  | awk '$1 ~ /^--/ { print ($2 ~ /^[A-Z]+$/) ? $1 " " $2 : $1 }' \
  | sort -u >"$tmp/help.opts"
sed -n '/^Exit status:/,/^$/p' "$tmp/help" \
  | awk '/^  [0-9]+  / { print $1 }' | sort -u >"$tmp/help.exits"
sed 's/ .*//' "$tmp/help.opts" >"$tmp/help.names"

: >"$tmp/d1"
if test $status -ne 0; then
  echo "$bench --help exited with status $status" >>"$tmp/d1"
  cat "$tmp/help.err" >>"$tmp/d1"
elif test ! -s "$tmp/help.opts" || test ! -s "$tmp/help.exits"; then
  echo "no options or no exit statuses found in --help:" >>"$tmp/d1"
  cat "$tmp/help" >>"$tmp/d1"
fi

# ---- reduce-bench(1) ------------------------------------------------------
roff_text <"$man1" >"$tmp/man1.txt"
# The tags of OPTIONS (the line after each .TP) and of EXIT STATUS.
section OPTIONS <"$tmp/man1.txt" \
  | awk 'tag { print; tag = 0 } /^\.TP$/ { tag = 1 }' \
  | sed 's/[ \t][ \t]*/ /g; s/ $//' | sort -u >"$tmp/man.opts"
section 'EXIT STATUS' <"$tmp/man1.txt" \
  | awk 'tag { print $1; tag = 0 } /^\.TP$/ { tag = 1 }' | sort -u >"$tmp/man.exits"
# Every --word anywhere in the page.
tr -c 'a-z0-9-' '\n' <"$tmp/man1.txt" | grep '^--[a-z0-9]' | sort -u >"$tmp/man.mentions"

# diag FILE HEADLINE: put HEADLINE above FILE's lines, if it has any.
diag ()
{
  if test -s "$1"; then
    { echo "$2"; sed 's/^/  /' "$1"; } >"$1.new" && mv "$1.new" "$1"
  fi
}
comm -23 "$tmp/help.opts" "$tmp/man.opts" >"$tmp/d2"
diag "$tmp/d2" "in --help but not a tag of OPTIONS in reduce-bench.1:"
comm -13 "$tmp/help.opts" "$tmp/man.opts" >"$tmp/d3"
diag "$tmp/d3" "a tag of OPTIONS in reduce-bench.1 but not in --help:"
comm -13 "$tmp/help.names" "$tmp/man.mentions" >"$tmp/d4"
diag "$tmp/d4" "mentioned in reduce-bench.1 but not an option of --help:"
: >"$tmp/d5"
if ! cmp -s "$tmp/help.exits" "$tmp/man.exits"; then
  { echo "--help:"; cat "$tmp/help.exits"; echo "reduce-bench.1:"; cat "$tmp/man.exits"; } >"$tmp/d5"
fi

# ---- gpureduce(3) against gpureduce.h --------------------------------------
roff_text <"$man3" >"$tmp/man3.txt"
# Declarations as one line, blanks collapsed, no blank after "(".
subsection Declarations <"$tmp/man3.txt" | tr '\n\t' '  ' \
  | sed 's/  */ /g; s/( /(/g' >"$tmp/declarations"
# The prototypes of the short SYNOPSIS, one per line, blanks collapsed
# likewise: in each paragraph, what comes before each ';' and calls a
# gpureduce_ function.
section SYNOPSIS <"$tmp/man3.txt" \
  | awk 'BEGIN { RS = "" }
         { gsub(/[ \t\n]+/, " ")
           k = split($0, part, ";")
           for (i = 1; i < k; i++) {
             p = part[i]; sub(/^ /, "", p)
             if (p ~ /gpureduce_[a-z0-9_]*\(/) print p ";"
           } }' \
  | sed 's/( /(/g' >"$tmp/synopsis.protos"
# The prototypes of the headers, one per line, blanks collapsed likewise
# (GPUREDUCE_NODISCARD, warn_unused_result, is not part of a prototype).
awk '/^GPUREDUCE_API / { on = 1; sub(/^GPUREDUCE_API /, ""); sub(/^GPUREDUCE_NODISCARD /, "") }
     on { printf "%s ", $0; if ($0 ~ /;/) { print ""; on = 0 } }' "$header" \
  | sed 's/[ \t][ \t]*/ /g; s/( /(/g; s/ $//' >"$tmp/protos"
: >"$tmp/d6"
while IFS= read -r proto; do
  grep -F -e "$proto" "$tmp/declarations" >/dev/null || echo "$proto" >>"$tmp/d6"
done <"$tmp/protos"
test -s "$tmp/protos" || echo "no GPUREDUCE_API prototype found in $headers" >>"$tmp/d6"
: >"$tmp/d15"
while IFS= read -r proto; do
  grep -F -x -e "$proto" "$tmp/protos" >/dev/null || echo "$proto" >>"$tmp/d15"
done <"$tmp/synopsis.protos"
test -s "$tmp/synopsis.protos" || echo "no prototype found in gpureduce.3 SYNOPSIS" >>"$tmp/d15"

# Enum values ("NAME = N"; the statuses "X(NAME, N, ..." of
# GPUREDUCE_STATUS_LIST, shown as "NAME = N" in the page) and constants
# ("#define NAME VALUE"; not the header guards, the attribute macros or
# the X-macro's own helpers).
grep -o 'X(GPUREDUCE_[A-Z0-9_]*, [0-9][0-9]*' "$header" \
  | sed 's/^X(\(.*\), \(.*\)$/\1 = \2/' >"$tmp/statuses"
grep -o 'GPUREDUCE_[A-Z0-9_]* = [0-9][0-9]*' "$header" >"$tmp/consts"
cat "$tmp/statuses" >>"$tmp/consts"
grep '^#define GPUREDUCE_' "$header" \
  | grep -v -e '^#define GPUREDUCE_\([A-Z_]*_\)\{0,1\}H$' -e '^#define GPUREDUCE_H_INSIDE' \
      -e '^#define GPUREDUCE_API' -e '^#define GPUREDUCE_NODISCARD' \
      -e '^#define GPUREDUCE_STATUS_' \
  | sed 's/[ \t][ \t]*/ /g; s/ $//' >>"$tmp/consts"
: >"$tmp/d7"
while IFS= read -r c; do
  # the whole value: "= 8" must not match "= 80"
  re=$(printf '%s\n' "$c" | sed 's/[][\\.*^$()+?{}|]/\\&/g')
  grep -E -e "$re([^0-9A-Za-z_]|\$)" "$tmp/declarations" >/dev/null || echo "$c" >>"$tmp/d7"
done <"$tmp/consts"

# Every status has an ERRORS entry "NAME (VALUE)" (SUCCESS is in RETURN VALUE).
section ERRORS <"$tmp/man3.txt" >"$tmp/errors"
: >"$tmp/d8"
grep 'GPUREDUCE_ERROR_' "$tmp/statuses" >"$tmp/errors.want"
test -s "$tmp/errors.want" || echo "no GPUREDUCE_ERROR_* status found in GPUREDUCE_STATUS_LIST" >>"$tmp/d8"
while read -r name _ value; do
  grep -F -x -e "$name ($value)" "$tmp/errors" >/dev/null \
    || echo "$name ($value) has no entry in ERRORS" >>"$tmp/d8"
done <"$tmp/errors.want"

# ---- a page for every function ---------------------------------------------
# functions FILE...: the names of the GPUREDUCE_API functions of FILEs.
functions ()
{
  awk '/^GPUREDUCE_API / { on = 1 }
       on { printf "%s ", $0; if ($0 ~ /;/) { print ""; on = 0 } }' "$@" \
    | sed -n 's/^[^(]*[^a-z0-9_]\(gpureduce_[a-z0-9_]*\)(.*/\1/p' | sort -u
}
functions $headers >"$tmp/functions"
: >"$tmp/functions.mpi"
test -f "$src/include/gpureduce_mpi.h" && functions "$src/include/gpureduce_mpi.h" >"$tmp/functions.mpi"
grep '^\.SS ' "$tmp/man3.txt" >"$tmp/subsections"
: >"$tmp/d16"
: >"$tmp/d17"
# page FUNCTION TARGET: doc/man3/FUNCTION.3 is ".so man3/TARGET" and
# Makefile.am names it.
page ()
{
  if test "`cat "$src/doc/man3/$1.3" 2>/dev/null`" != ".so man3/$2"; then
    echo "doc/man3/$1.3 is missing or is not the one line .so man3/$2" >>"$tmp/d17"
  fi
  grep -F -e "doc/man3/$1.3" "$src/Makefile.am" >/dev/null \
    || echo "Makefile.am does not install doc/man3/$1.3" >>"$tmp/d17"
}
while read -r f; do
  grep -E -e "[ ,]$f\(\)(,|\$)" "$tmp/subsections" >/dev/null \
    || echo "$f() has no subsection (.SS) of its own in gpureduce.3" >>"$tmp/d16"
  page "$f" gpureduce.3
done <"$tmp/functions"
while read -r f; do
  roff_text <"$src/doc/gpureduce_mpi.3" | section NAME | grep -E -e "(^|[ ,])$f( |,|\$)" >/dev/null \
    || echo "$f is not in the NAME of gpureduce_mpi.3" >>"$tmp/d16"
  page "$f" gpureduce_mpi.3
done <"$tmp/functions.mpi"
test -s "$tmp/functions" || echo "no GPUREDUCE_API function found in $headers" >>"$tmp/d16"
for p in "$src"/doc/man3/*.3; do
  f=`basename "$p" .3`
  grep -x -F -e "$f" "$tmp/functions" "$tmp/functions.mpi" >/dev/null \
    || echo "doc/man3/$f.3 is not a GPUREDUCE_API function's page" >>"$tmp/d17"
done

# ---- the C examples -------------------------------------------------------
# readme_block N: the N-th ```c block of README, without its fences.
readme_block ()
{
  awk -v want="$1" '/^```c$/ { k++; on = (k == want); next } /^```$/ { on = 0 } on' "$src/README"
}
# man_example N: the N-th .EX block of EXAMPLE in gpureduce.3, unescaped.
man_example ()
{
  awk -v want="$1" '/^\.SH EXAMPLE$/ { sec = 1; next }
       /^\.SH / { sec = 0 }
       sec && /^\.EX$/ { k++; ex = (k == want); next }
       ex && /^\.EE$/ { ex = 0 }
       ex' "$man3" \
    | sed 's/^\\&//; s/\\-/-/g; s/\\(aq/'"'"'/g; s/\\e/\\/g'
}
# same FILE README-BLOCK MAN-BLOCK DIAG-README DIAG-MAN: FILE is the
# README-BLOCK-th ```c block of README and the MAN-BLOCK-th .EX block of
# gpureduce.3's EXAMPLE.
same ()
{
  name=`basename "$1"`
  if test -f "$src/README"; then
    readme_block "$2" >"$tmp/readme.$2.c"
    diff "$1" "$tmp/readme.$2.c" >"$4"
    diag "$4" "diff tests/$name <\`\`\`c block $2 of README>:"
  else
    echo "no README in $src" >"$4"
  fi
  man_example "$3" >"$tmp/man3.$3.c"
  diff "$1" "$tmp/man3.$3.c" >"$5"
  diag "$5" "diff tests/$name <.EX block $3 of EXAMPLE in gpureduce.3>:"
}
same "$example" 1 1 "$tmp/d9" "$tmp/d10"
same "$cuda" 2 3 "$tmp/d18" "$tmp/d19"
same "$batched" 3 5 "$tmp/d11" "$tmp/d12"
same "$segments" 4 6 "$tmp/d13" "$tmp/d14"
same "$softmax" 5 7 "$tmp/d20" "$tmp/d21"

echo "1..21"
check "reduce-bench --help runs and lists options and exit statuses" "$tmp/d1"
check "every option of --help is in reduce-bench.1 OPTIONS, with its argument" "$tmp/d2"
check "every option in reduce-bench.1 OPTIONS is in --help, with its argument" "$tmp/d3"
check "every --option reduce-bench.1 mentions is an option of --help" "$tmp/d4"
check "reduce-bench.1 EXIT STATUS lists the statuses of --help" "$tmp/d5"
check "every prototype of the public headers is in gpureduce.3's Declarations" "$tmp/d6"
check "every prototype of gpureduce.3 SYNOPSIS is one of the public headers'" "$tmp/d15"
check "every enum value and constant of the public headers is in gpureduce.3's Declarations" "$tmp/d7"
check "every status of GPUREDUCE_STATUS_LIST has an ERRORS entry with its value" "$tmp/d8"
check "every GPUREDUCE_API function has a subsection of its man page" "$tmp/d16"
check "every GPUREDUCE_API function has a page doc/man3/FUNCTION.3 that Makefile.am installs, and no other" "$tmp/d17"
check "README's C example is tests/readme-example.c" "$tmp/d9"
check "gpureduce.3's EXAMPLE is tests/readme-example.c" "$tmp/d10"
check "README's GPU example is tests/readme-cuda.c" "$tmp/d18"
check "gpureduce.3's GPU EXAMPLE is tests/readme-cuda.c" "$tmp/d19"
check "README's batched C example is tests/readme-batched.c" "$tmp/d11"
check "gpureduce.3's batched EXAMPLE is tests/readme-batched.c" "$tmp/d12"
check "README's segments C example is tests/readme-segments.c" "$tmp/d13"
check "gpureduce.3's segments EXAMPLE is tests/readme-segments.c" "$tmp/d14"
check "README's softmax C example is tests/readme-softmax.c" "$tmp/d20"
check "gpureduce.3's softmax EXAMPLE is tests/readme-softmax.c" "$tmp/d21"
exit 0
