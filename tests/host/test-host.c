/*
 * test-host.c - the reduction battery (tests/lib/battery.c) on the host
 * backend (GPUREDUCE_DEVICE_HOST, host memory).  Runs everywhere, GPU or
 * not.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdlib.h>
#include <string.h>

#include "battery.h"

static void *host_alloc(size_t bytes) {
  void *p = NULL;
  const size_t rounded = ((bytes ? bytes : 1) + 255) & ~(size_t)255;
  return posix_memalign(&p, 256, rounded) == 0 ? p : NULL;
}

static void host_release(void *p) { free(p); }

static void host_copy(void *dst, const void *src, size_t bytes) { memcpy(dst, src, bytes); }

static const struct tu_backend host_backend = {
    .name = "host",
    .device = GPUREDUCE_DEVICE_HOST,
    .alloc = host_alloc,
    .release = host_release,
    .put = host_copy,
    .get = host_copy,
};

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  battery_use(&host_backend);
  const struct CMUnitTest tests[] = {BATTERY_TESTS};
  return cmocka_run_group_tests_name("test-host", tests, battery_setup, battery_teardown);
}
