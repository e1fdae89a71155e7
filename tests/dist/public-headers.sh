#!/bin/sh
# public-headers.sh - the public headers as include/gpureduce.h documents
# them: the umbrella compiles on its own as C and as C++; each subheader
# of include/gpureduce/ stops with #error when included directly, naming
# <gpureduce.h>; and, with GCC or Clang, ignoring a status is warned about
# (GPUREDUCE_NODISCARD, warn_unused_result) except for gpureduce_destroy().
# Prints TAP.  Compiles only; runs nothing, needs no GPU.
#
# Run by `make check` (AM_TESTS_ENVIRONMENT sets the GR_* variables).
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

# shellcheck source=tests/dist/taplib.sh
. "`dirname "$0"`/taplib.sh"
tap_need GR_ABS_TOP_BUILDDIR GR_ABS_TOP_SRCDIR GR_CC
tap_tmpdir headers
inc="-I$GR_ABS_TOP_SRCDIR/include -I$GR_ABS_TOP_BUILDDIR/include"
subs=`cd "$GR_ABS_TOP_SRCDIR/include" && ls gpureduce/*.h`
cxx=${GR_CXX-}

n=0
ok ()     { n=`expr $n + 1`; echo "ok $n - $1"; }
not_ok () { n=`expr $n + 1`; echo "not ok $n - $1"; sed 's/^/# /' "$tmp/err"; }
skip ()   { n=`expr $n + 1`; echo "ok $n # SKIP $1"; }
# compile LANG-FLAGS FILE: 0 when it compiles, with the diagnostics in $tmp/err
compile () { $GR_CC $1 $inc -Wall -Wextra -c "$2" -o "$tmp/out.o" >"$tmp/err" 2>&1; }

nsubs=`echo $subs | wc -w | tr -d ' '`
echo "1..`expr 4 + $nsubs`"

printf '#include <gpureduce.h>\nint main(void) { return GPUREDUCE_STATUS_COUNT == 0; }\n' >"$tmp/umbrella.c"
if compile "-Werror" "$tmp/umbrella.c"; then
  ok "<gpureduce.h> compiles on its own as C, without warnings"
else
  not_ok "<gpureduce.h> compiles on its own as C, without warnings"
fi
if test -n "$cxx"; then
  if $cxx $inc -Wall -Wextra -Werror -x c++ -c "$tmp/umbrella.c" -o "$tmp/out.o" >"$tmp/err" 2>&1; then
    ok "<gpureduce.h> compiles on its own as C++, without warnings"
  else
    not_ok "<gpureduce.h> compiles on its own as C++, without warnings"
  fi
else
  skip "no C++ compiler given (GR_CXX)"
fi

for h in $subs; do
  printf '#include <%s>\nint main(void) { return 0; }\n' "$h" >"$tmp/sub.c"
  if compile "" "$tmp/sub.c"; then
    not_ok "<$h> included on its own stops with #error: it compiled"
  elif grep -q 'include <gpureduce.h>' "$tmp/err"; then
    ok "<$h> included on its own stops with #error naming <gpureduce.h>"
  else
    not_ok "<$h> included on its own stops with #error naming <gpureduce.h>"
  fi
done

# warn_unused_result: GCC and Clang only (GPUREDUCE_NODISCARD is empty
# elsewhere).
cat >"$tmp/ignored.c" <<'_EOF'
#include <gpureduce.h>
int main(void) {
  float x = 1, s;
  gpureduce_handle_t h;
  if (gpureduce_create(&h, GPUREDUCE_DEVICE_HOST) != GPUREDUCE_SUCCESS) return 1;
  gpureduce_reduce(&x, &s, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0, h);
  gpureduce_destroy(h);
  return 0;
}
_EOF
sed 's/^  gpureduce_reduce(.*$/  if (gpureduce_reduce(\&x, \&s, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0, h)) return 1;/' \
  "$tmp/ignored.c" >"$tmp/used.c"
printf '#if defined(__GNUC__) && __GNUC__ >= 4\nint gnu;\n#else\n#error not GNU C\n#endif\n' >"$tmp/gnu.c"
if ! compile "" "$tmp/gnu.c"; then
  skip "not GCC or Clang: GPUREDUCE_NODISCARD is empty"
  skip "not GCC or Clang: GPUREDUCE_NODISCARD is empty"
else
  if compile "-Werror=unused-result" "$tmp/ignored.c"; then
    not_ok "ignoring gpureduce_reduce()'s status is warned about (warn_unused_result): no warning"
  elif grep -q 'gpureduce_reduce' "$tmp/err"; then
    ok "ignoring gpureduce_reduce()'s status is warned about (warn_unused_result)"
  else
    not_ok "ignoring gpureduce_reduce()'s status is warned about (warn_unused_result)"
  fi
  if compile "-Werror" "$tmp/used.c"; then
    ok "ignoring gpureduce_destroy()'s status is not warned about; a checked reduce is clean"
  else
    not_ok "ignoring gpureduce_destroy()'s status is not warned about; a checked reduce is clean"
  fi
fi
exit 0
