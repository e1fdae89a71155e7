/*
 * test-segments.c - the segmented battery (tests/lib/segments.c) on the
 * host backend (GPUREDUCE_DEVICE_HOST, host memory):
 * gpureduce_reduce_segments() at lengths around every boundary of the
 * order and of the CUDA kernel's regimes, empty segments everywhere,
 * starts at every alignment, mixtures of lengths (uniform, Zipf, many
 * tiny and one huge), special values per segment, no segments, and
 * invalid offsets with the async error.  Runs everywhere, GPU or not.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "segments.h"

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  segments_use(&bt_host_backend);
  const struct CMUnitTest tests[] = {SEGMENTS_TESTS};
  return cmocka_run_group_tests_name("test-segments (host)", tests, segments_setup,
                                     segments_teardown);
}
