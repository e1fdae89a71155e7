/*
 * handles.c - the helpers of testutil.h that call the library's handle
 * functions, in a file of their own so that a test that compiles the
 * library's sources it needs instead of linking it (test-tune-cache)
 * does not pull them in.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

void tu_check_failed(const char *file, int line, gpureduce_handle_t h,
                     gpureduce_status_t wanted, gpureduce_status_t seen, const void *buf,
                     unsigned char fill, size_t len, const char *word, const char *what) {
  tu_check_status(file, line, wanted, seen, "%s", what);
  tu_check_bytes(file, line, buf, fill, len,
                 "%s: the output and the canary after it are untouched", what);
  const char *m = gpureduce_last_message(h);
  tu_check_true(file, line, m != NULL && *m != '\0', "%s: gpureduce_last_message is not empty",
                what);
  tu_check_true(file, line, tu_mentions(m, word), "%s: the message \"%s\" mentions \"%s\"",
                what, m, word);
}

int tu_args_open(gpureduce_handle_t *h, unsigned char **in, unsigned char **out,
                 size_t out_bytes) {
  if (gpureduce_create(h, GPUREDUCE_DEVICE_HOST) != GPUREDUCE_SUCCESS) return -1;
  *in = tu_alloc(4096);
  *out = tu_alloc(out_bytes);
  for (int i = 0; i < 1024; ++i) {
    const float f = (float)(i + 1);
    memcpy(*in + 4 * i, &f, 4);
  }
  return 0;
}

int tu_args_close(gpureduce_handle_t h, unsigned char *in, unsigned char *out) {
  free(in);
  free(out);
  return gpureduce_destroy(h) == GPUREDUCE_SUCCESS ? 0 : -1;
}
