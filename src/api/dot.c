/*
 * api/dot.c - gpureduce_dot() and gpureduce_dot_batched(): every argument
 * checked by the one prologue (api/args.h, x and y named in the messages)
 * before the handle's backend sees it.  The 1-D call is the batched one
 * with one row.
 */
#include "config.h"

#include "api/args.h"
#include "core/backend.h"

gpureduce_status_t gpureduce_dot_batched(const void *x, const void *y, void *output,
                                         size_t batch, size_t n, int64_t x_batch_stride,
                                         int64_t y_batch_stride, gpureduce_type_t type,
                                         unsigned flags, gpureduce_handle_t handle) {
  struct gr_call c = {.type = type, .op = GPUREDUCE_SUM, .flags = flags, .dot = 1,
                      .batch = batch, .n = n, .inputs = 2,
                      .in = {{"x", x, x_batch_stride, 1}, {"y", y, y_batch_stride, 1}},
                      .output = output};
  const gpureduce_status_t s = gr_prologue(handle, &c);
  if (s != GPUREDUCE_SUCCESS || batch == 0) return s;
  return handle->backend->dot(handle, x, y, output, batch, n, x_batch_stride, y_batch_stride,
                              type, flags);
}

gpureduce_status_t gpureduce_dot(const void *x, const void *y, void *output, size_t n,
                                 gpureduce_type_t type, unsigned flags,
                                 gpureduce_handle_t handle) {
  return gpureduce_dot_batched(x, y, output, 1, n, 0, 0, type, flags, handle);
}
