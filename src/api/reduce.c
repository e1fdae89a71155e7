/*
 * api/reduce.c - gpureduce_reduce(), gpureduce_sum_f32() and
 * gpureduce_reduce_batched(): every argument checked by the one prologue
 * (api/args.h) before the handle's backend sees it, so both backends give
 * the same statuses and messages.  The 1-D call is checked as a batch of
 * one vector: the same byte ranges, overlap and memory-space checks.
 *
 * The offset checks make the backends' address arithmetic safe: every
 * element offset b*batch_stride + i*element_stride, and its byte offset,
 * fits in int64_t, and every element's bytes lie inside the address
 * space.
 */
#include "config.h"

#include "api/args.h"
#include "core/backend.h"

gpureduce_status_t gpureduce_reduce_batched(const void *input, void *output, size_t batch,
                                            size_t n, int64_t batch_stride,
                                            int64_t element_stride, gpureduce_type_t type,
                                            gpureduce_op_t op, unsigned flags,
                                            gpureduce_handle_t handle) {
  struct gr_call c = {.type = type, .op = op, .flags = flags, .batch = batch, .n = n,
                      .inputs = 1, .in = {{"input", input, batch_stride, element_stride}},
                      .output = output};
  const gpureduce_status_t s = gr_prologue(handle, &c);
  if (s != GPUREDUCE_SUCCESS || batch == 0) return s;
  return handle->backend->reduce_batched(handle, input, output, batch, n, batch_stride,
                                         element_stride, type, op, flags);
}

gpureduce_status_t gpureduce_reduce(const void *input, void *output, size_t n,
                                    gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                                    gpureduce_handle_t handle) {
  struct gr_call c = {.type = type, .op = op, .flags = flags, .batch = 1, .n = n,
                      .inputs = 1, .in = {{"input", input, 0, 1}}, .output = output};
  const gpureduce_status_t s = gr_prologue(handle, &c);
  if (s != GPUREDUCE_SUCCESS) return s;
  return handle->backend->reduce(handle, input, output, n, type, op, flags);
}

gpureduce_status_t gpureduce_sum_f32(const float *input, float *output, size_t n,
                                     gpureduce_handle_t handle) {
  return gpureduce_reduce(input, output, n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, handle);
}
