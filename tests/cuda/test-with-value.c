/*
 * test-with-value.c - the GPUREDUCE_WITH_VALUE tests (tests/lib/withvalue.c)
 * on CUDA device 0 (device memory): ARGMIN and ARGMAX with the element's
 * value in gpureduce_reduce(), gpureduce_reduce_batched() and
 * gpureduce_reduce_segments(), against the independent reference and the
 * index of the call without the flag.  Without a GPU its TAP plan skips it.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdlib.h>

#include "withvalue.h"

int main(void) {
  if (!tu_cuda_start(0)) return 0;
  setenv("GPUREDUCE_TUNE", "off", 1);
  cmocka_set_message_output(CM_OUTPUT_TAP);
  wv_use(&bt_cuda_backend);
  const struct CMUnitTest tests[] = {WITH_VALUE_TESTS};
  return cmocka_run_group_tests_name("test-with-value (CUDA)", tests, battery_setup,
                                     battery_teardown);
}
