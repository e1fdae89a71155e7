/*
 * test-host.c - the reduction battery (tests/lib/battery.h) on the host
 * backend (GPUREDUCE_DEVICE_HOST, host memory).  Runs everywhere, GPU or
 * not.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "battery.h"

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  battery_use(&bt_host_backend);
  const struct CMUnitTest tests[] = {BATTERY_TESTS};
  return cmocka_run_group_tests_name("test-host", tests, battery_setup, battery_teardown);
}
