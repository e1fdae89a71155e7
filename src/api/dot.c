/*
 * api/dot.c - gpureduce_dot() and gpureduce_dot_batched(): every argument
 * is checked here, in one order, before a backend sees it (api/args.h's
 * checks, named "x" and "y" in the messages), so both backends give the
 * same statuses and messages; then the call goes to the host backend
 * (host/) or the CUDA side's dot dispatch (cuda/).  The 1-D call is the
 * batched one with one row.
 */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>

#include "api/args.h"
#include "api/handle.h"
#include "cuda/cuda.h"
#include "host/host.h"

/* Type and flags, with the result size of SUM (the dot product's): an
 * unknown type (UNSUPPORTED), unknown flag bits (INVALID_ARGUMENT),
 * GPUREDUCE_ACCUMULATE_F64 with a type other than F32 (UNSUPPORTED). */
static gpureduce_status_t check_kind(struct gpureduce_handle *h, gpureduce_type_t type,
                                     unsigned flags, size_t *rs) {
  if (flags & GPUREDUCE_WITH_VALUE && !(flags & ~(GPUREDUCE_ACCUMULATE_F64 | GPUREDUCE_WITH_VALUE)))
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED,
                   "GPUREDUCE_WITH_VALUE applies to argmin and argmax, not to the dot product");
  if ((unsigned)type < GPUREDUCE_TYPE_COUNT && flags == GPUREDUCE_ACCUMULATE_F64 &&
      type != GPUREDUCE_F32)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED,
                   "GPUREDUCE_ACCUMULATE_F64 applies to the dot product of f32 only, not %s",
                   gpureduce_type_name(type));
  return gr_check_kind(h, type, GPUREDUCE_SUM, flags, rs);
}

/* The output overlapping input `name`'s span (n > 0). */
static gpureduce_status_t check_overlap(struct gpureduce_handle *h, const void *output,
                                        uint64_t out_bytes, const char *name, const void *in,
                                        int64_t lo, int64_t hi) {
  if (!gr_overlaps(output, out_bytes, in, lo, hi)) return GPUREDUCE_SUCCESS;
  return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 "the output's %" PRIu64 " bytes from %p overlap %s, %p %+" PRId64 " to %+" PRId64
                 " bytes (its lowest to its highest element); the output must lie outside it",
                 out_bytes, output, name, in, lo, hi);
}

gpureduce_status_t gpureduce_dot_batched(const void *x, const void *y, void *output,
                                         size_t batch, size_t n, int64_t x_batch_stride,
                                         int64_t y_batch_stride, gpureduce_type_t type,
                                         unsigned flags, gpureduce_handle_t handle) {
  if (!handle) return GPUREDUCE_ERROR_INVALID_HANDLE;
  gpureduce_handle_t h = handle;
  h->message[0] = '\0';
  size_t rs;
  gpureduce_status_t s;
  if ((s = check_kind(h, type, flags, &rs)) != GPUREDUCE_SUCCESS) return s;
  if (batch == 0) return GPUREDUCE_SUCCESS; /* nothing to read or write */
  if (!output) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "output is NULL");
  if (n > 0 && !x)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "x is NULL with n = %zu", n);
  if (n > 0 && !y)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "y is NULL with n = %zu", n);
  if ((s = gr_check_input(h, x, n, type, "x")) != GPUREDUCE_SUCCESS) return s;
  if ((s = gr_check_input(h, y, n, type, "y")) != GPUREDUCE_SUCCESS) return s;
  if ((uintptr_t)output % rs)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "output %p is not aligned to its %zu-byte result", output, rs);
  const unsigned size = (unsigned)gpureduce_type_size(type);
  /* the spans of x and y, in bytes from x and y (n > 0) */
  int64_t xlo = 0, xhi = 0, ylo = 0, yhi = 0;
  if (n > 0) {
    if ((s = gr_input_span(h, "x", x, batch, n, x_batch_stride, 1, size, &xlo, &xhi)) !=
            GPUREDUCE_SUCCESS ||
        (s = gr_input_span(h, "y", y, batch, n, y_batch_stride, 1, size, &ylo, &yhi)) !=
            GPUREDUCE_SUCCESS)
      return s;
  }
  uint64_t out_bytes;
  if ((s = gr_output_span(h, output, batch, rs, &out_bytes)) != GPUREDUCE_SUCCESS) return s;
  if (n > 0) {
    /* whole spans, gaps between rows included (conservative, as documented) */
    if ((s = check_overlap(h, output, out_bytes, "x", x, xlo, xhi)) != GPUREDUCE_SUCCESS ||
        (s = check_overlap(h, output, out_bytes, "y", y, ylo, yhi)) != GPUREDUCE_SUCCESS ||
        (s = gr_check_space(h, (const char *)x + xlo, "x (its lowest element)")) !=
            GPUREDUCE_SUCCESS ||
        (s = gr_check_space(h, (const char *)y + ylo, "y (its lowest element)")) !=
            GPUREDUCE_SUCCESS)
      return s;
  }
  if ((s = gr_check_space(h, output, "output")) != GPUREDUCE_SUCCESS) return s;
  if (h->device == GPUREDUCE_DEVICE_HOST)
    return gr_host_dot(h, x, y, output, batch, n, x_batch_stride, y_batch_stride, type, flags);
  return gr_cuda_dot(h, x, y, output, batch, n, x_batch_stride, y_batch_stride, type, flags);
}

gpureduce_status_t gpureduce_dot(const void *x, const void *y, void *output, size_t n,
                                 gpureduce_type_t type, unsigned flags,
                                 gpureduce_handle_t handle) {
  return gpureduce_dot_batched(x, y, output, 1, n, 0, 0, type, flags, handle);
}
