/*
 * test-batched.c - the batched battery (tests/lib/batched.c) on the host
 * backend (GPUREDUCE_DEVICE_HOST, host memory): gpureduce_reduce_batched()
 * at row lengths around every boundary of the order, batches of 1 to
 * 100000, every layout and pointer offset, special values per vector,
 * empty vectors and batches, and errors.  Runs everywhere, GPU or not.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "batched.h"

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  batched_use(&bt_host_backend);
  const struct CMUnitTest tests[] = {BATCHED_TESTS};
  return cmocka_run_group_tests_name("test-batched (host)", tests, batched_setup,
                                     batched_teardown);
}
