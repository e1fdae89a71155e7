/*
 * partial-message.c - the tests of gpureduce_set_last_message() (partial.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdio.h>
#include <string.h>

#include "partial-internal.h"

/* ---- tests: gpureduce_set_last_message ------------------------------------------------ */

void pt_set_last_message(void **state) {
  (void)state;
  const gpureduce_handle_t h = battery_handle();
  /* every status comes back unchanged, with its text */
  for (int v = 0; v <= GPUREDUCE_ERROR_TRANSPORT; ++v) {
    char text[64];
    snprintf(text, sizeof text, "status %d from a layered library", v);
    check_status((gpureduce_status_t)v,
                 gpureduce_set_last_message(h, (gpureduce_status_t)v, text),
                 "gpureduce_set_last_message(%s) returns the status it was given",
                 tu_status_label((gpureduce_status_t)v));
    check_string(text, gpureduce_last_message(h),
                 "after gpureduce_set_last_message(%s), gpureduce_last_message gives its text",
                 tu_status_label((gpureduce_status_t)v));
  }
  /* 255 bytes are kept, longer messages cut to them */
  char longer[400], want[256];
  for (size_t i = 0; i < sizeof longer - 1; ++i) longer[i] = (char)('a' + i % 26);
  const size_t lens[] = {254, 255, 256, 399};
  for (size_t k = 0; k < COUNT(lens); ++k) {
    longer[lens[k]] = '\0';
    check_status(GPUREDUCE_ERROR_TRANSPORT, gpureduce_set_last_message(h, GPUREDUCE_ERROR_TRANSPORT, longer),
                 "a message of %zu bytes: the status comes back", lens[k]);
    const size_t kept = lens[k] < 255 ? lens[k] : 255;
    memcpy(want, longer, kept);
    want[kept] = '\0';
    check_string(want, gpureduce_last_message(h),
                 "a message of %zu bytes: gpureduce_last_message gives its first %zu", lens[k],
                 kept);
    longer[lens[k]] = (char)('a' + lens[k] % 26);
  }
  /* the handle's own message passed on, as a layered library might */
  check_status(GPUREDUCE_ERROR_TRANSPORT,
               gpureduce_set_last_message(h, GPUREDUCE_ERROR_TRANSPORT, "MPI_Allreduce: truncated"),
               "a message to pass on");
  check_status(GPUREDUCE_ERROR_TRANSPORT,
               gpureduce_set_last_message(h, GPUREDUCE_ERROR_TRANSPORT, gpureduce_last_message(h)),
               "the handle's own message passed to gpureduce_set_last_message");
  check_string("MPI_Allreduce: truncated", gpureduce_last_message(h),
               "the handle's own message, set again, keeps its text");
  /* NULL clears it */
  check_status(GPUREDUCE_ERROR_TRANSPORT, gpureduce_set_last_message(h, GPUREDUCE_ERROR_TRANSPORT, NULL),
               "a NULL message: the status comes back");
  check_string("", gpureduce_last_message(h), "a NULL message clears the handle's message");
  /* a NULL handle */
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_set_last_message(NULL, GPUREDUCE_ERROR_TRANSPORT, "lost"),
               "gpureduce_set_last_message() on a NULL handle");
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_set_last_message(NULL, GPUREDUCE_SUCCESS, NULL),
               "gpureduce_set_last_message(NULL handle, SUCCESS, NULL)");
  /* the next call clears a message set by hand */
  check_status(GPUREDUCE_ERROR_TRANSPORT, gpureduce_set_last_message(h, GPUREDUCE_ERROR_TRANSPORT, "stale"),
               "a message before a call that succeeds");
  unsigned char *part = bt_room_for(&pt_made, ROOM);
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_partial_reduce(NULL, part, 0, 0, 0, GPUREDUCE_F32, GPUREDUCE_SUM, 0, h),
               "a partial of an empty array");
  check_string("", gpureduce_last_message(h),
               "a call that succeeded after gpureduce_set_last_message() leaves no message");
}
