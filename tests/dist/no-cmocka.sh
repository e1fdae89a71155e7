#!/bin/sh
# no-cmocka.sh - stands in for the test programs when configure did not
# find cmocka: every test program of gpureduce is a cmocka group, so
# without it `make check` would test almost nothing while reporting
# success.  This test fails instead, in one line that says what to do.
# (It exits 0: the "not ok" line is the failure, and a non-zero exit would
# add an ERROR to the same message.)
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
echo "1..1"
echo "not ok 1 - cmocka not found at configure time: install libcmocka-dev (Debian/Ubuntu) or cmocka-devel (Fedora) and re-run ./configure; make check cannot test the library without it"
