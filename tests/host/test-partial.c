/*
 * test-partial.c - the partial-result battery (tests/lib/partial.h) on
 * the host backend (GPUREDUCE_DEVICE_HOST, host memory): arrays cut into
 * parts every way of partial.h, every type, operation and flags value,
 * the partials combined in shuffled orders against gpureduce_reduce() of
 * the whole array and the independent reference; the sizes of partials;
 * bad arguments; gpureduce_set_last_message().  Runs everywhere, GPU or
 * not.  GPUREDUCE_TEST_QUICK=1 leaves out PARTIAL_LONG_TESTS.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "partial.h"
#include "segments.h" /* sg_quick: GPUREDUCE_TEST_QUICK */

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  partial_use(&bt_host_backend);
  struct CMUnitTest tests[] = {PARTIAL_TESTS};
  size_t count = COUNT(tests);
  if (sg_quick()) {
    static const CMUnitTestFunction long_tests[] = {PARTIAL_LONG_TESTS};
    count = tu_leave_out(tests, count, long_tests, COUNT(long_tests), "GPUREDUCE_TEST_QUICK");
  }
  return _cmocka_run_group_tests("test-partial (host)", tests, count, partial_setup,
                                 partial_teardown);
}
