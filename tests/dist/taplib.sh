# taplib.sh - what the shell tests under tests/dist/ share; each sources it with
#   . "`dirname "$0"`/taplib.sh"
#
# tap_need VAR...    skip the whole test ("1..0 # SKIP VAR not set: ...")
#                    unless every VAR is set; `make check' sets them
#                    (Makefile.am's AM_TESTS_ENVIRONMENT).
# tap_tmpdir NAME    set tmp to a new directory, ${TMPDIR:-/tmp}/gpureduce-
#                    NAME.XXXXXX, removed when the test exits; skip the
#                    test if it cannot be made.
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

tap_need ()
{
  for tap_var
  do
    eval "tap_val=\${$tap_var-}"
    # shellcheck disable=SC2154 # set by the eval
    if test -z "$tap_val"; then
      echo "1..0 # SKIP $tap_var not set: run this test through make check"
      exit 0
    fi
  done
}

tap_tmpdir ()
{
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpureduce-$1.XXXXXX") || {
    echo "1..0 # SKIP cannot create a temporary directory"
    exit 0
  }
  trap 'rm -rf "$tmp"' 0
  trap 'exit 1' HUP INT PIPE TERM
}
