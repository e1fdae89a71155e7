/*
 * test-partial.c - the partial-result battery (tests/lib/partial.h) on
 * the host backend (GPUREDUCE_DEVICE_HOST, host memory): arrays cut into
 * parts every way of partial.h, every type, operation and flags value,
 * the partials combined in shuffled orders against gpureduce_reduce() of
 * the whole array and the independent reference; the sizes of partials;
 * bad arguments; gpureduce_set_last_message().  Runs everywhere, GPU or
 * not.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "partial.h"

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  partial_use(&bt_host_backend);
  const struct CMUnitTest tests[] = {PARTIAL_TESTS};
  return cmocka_run_group_tests_name("test-partial (host)", tests, partial_setup,
                                     partial_teardown);
}
