/*
 * core/message.c - a handle's failure message (core/handle.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "core/handle.h"

gpureduce_status_t gr_fail(struct gpureduce_handle *h, gpureduce_status_t status,
                           const char *fmt, ...) {
  if (h) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->message, sizeof h->message, fmt, ap);
    va_end(ap);
  }
  return status;
}
