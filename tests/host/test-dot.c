/*
 * test-dot.c - the dot product battery (tests/lib/dot.c) on the host
 * backend (GPUREDUCE_DEVICE_HOST, host memory).  Runs everywhere, GPU or
 * not.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "dot.h"

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  dot_use(&bt_host_backend);
  const struct CMUnitTest tests[] = {DOT_TESTS};
  return cmocka_run_group_tests_name("test-dot (host)", tests, dot_setup, dot_teardown);
}
