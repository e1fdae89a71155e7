/*
 * test-with-value.c - the GPUREDUCE_WITH_VALUE tests (tests/lib/withvalue.c)
 * on the host backend (GPUREDUCE_DEVICE_HOST, host memory): ARGMIN and
 * ARGMAX with the element's value in gpureduce_reduce(),
 * gpureduce_reduce_batched() and gpureduce_reduce_segments(), against the
 * independent reference and the index of the call without the flag.  Runs
 * everywhere, GPU or not.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "withvalue.h"

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  wv_use(&bt_host_backend);
  const struct CMUnitTest tests[] = {WITH_VALUE_TESTS};
  return cmocka_run_group_tests_name("test-with-value (host)", tests, battery_setup,
                                     battery_teardown);
}
