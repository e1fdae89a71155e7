/*
 * api/batched.c - gpureduce_reduce_batched(): every argument is checked
 * here, in one order, before a backend sees it (the checks of
 * gpureduce_reduce() from api/args.h, then what only a batch has: the
 * strides' offsets, the output's size, overlap), so both backends give the
 * same statuses and messages; then the call goes to the host backend
 * (host/) or the CUDA side's batched dispatch (cuda/).
 *
 * The offset checks make the backends' address arithmetic safe: every
 * element offset b*batch_stride + i*element_stride of the batch, and its
 * byte offset, fits in int64_t, and every element's bytes lie inside the
 * address space.
 */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>

#include "api/args.h"
#include "api/handle.h"
#include "cuda/cuda.h"
#include "host/host.h"

/* *out = count * stride in int64_t; 0 when it does not fit. */
static int mul_i64(uint64_t count, int64_t stride, int64_t *out) {
  if (count == 0 || stride == 0) {
    *out = 0;
    return 1;
  }
  if (count > (uint64_t)INT64_MAX) return 0;
  const int64_t c = (int64_t)count;
  if (stride > 0 ? stride > INT64_MAX / c : stride < INT64_MIN / c) return 0;
  *out = c * stride;
  return 1;
}

/* *out = a + b in int64_t; 0 when it does not fit. */
static int add_i64(int64_t a, int64_t b, int64_t *out) {
  if (b > 0 ? a > INT64_MAX - b : a < INT64_MIN - b) return 0;
  *out = a + b;
  return 1;
}

/* The input's span for n > 0: the byte offsets from input of the lowest
 * element's first byte (*lo, <= 0) and of the highest element's last byte
 * (*hi, >= 0), over every vector b < batch and element i < n. */
static gpureduce_status_t input_span(struct gpureduce_handle *h, const void *input,
                                     uint64_t batch, uint64_t n, int64_t batch_stride,
                                     int64_t element_stride, unsigned size, int64_t *lo,
                                     int64_t *hi) {
  int64_t last_vector, last_element, lo_e, hi_e;
  if (!mul_i64(batch - 1, batch_stride, &last_vector) ||
      !mul_i64(n - 1, element_stride, &last_element) ||
      !add_i64(last_vector < 0 ? last_vector : 0, last_element < 0 ? last_element : 0, &lo_e) ||
      !add_i64(last_vector > 0 ? last_vector : 0, last_element > 0 ? last_element : 0, &hi_e))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "the element offsets b*batch_stride + i*element_stride overflow int64_t "
                   "(batch %" PRIu64 ", n %" PRIu64 ", batch_stride %" PRId64
                   ", element_stride %" PRId64 ")",
                   batch, n, batch_stride, element_stride);
  int64_t lo_b, hi_b;
  if (!mul_i64(size, lo_e, &lo_b) || !mul_i64(size, hi_e, &hi_b))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "the byte offsets of elements %" PRId64 " .. %" PRId64
                   " (of %u bytes) from input overflow int64_t",
                   lo_e, hi_e, size);
  hi_b += (int64_t)size - 1; /* a multiple of size up to INT64_MAX leaves room for it */
  const uint64_t at = (uint64_t)(uintptr_t)input;
  if (at < (uint64_t)0 - (uint64_t)lo_b || (uint64_t)hi_b > (uint64_t)UINTPTR_MAX - at)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "the elements from input %p %+" PRId64 " to %+" PRId64
                   " bytes wrap around the address space",
                   input, lo_b, hi_b);
  *lo = lo_b;
  *hi = hi_b;
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_reduce_batched(const void *input, void *output, size_t batch,
                                            size_t n, int64_t batch_stride,
                                            int64_t element_stride, gpureduce_type_t type,
                                            gpureduce_op_t op, unsigned flags,
                                            gpureduce_handle_t handle) {
  if (!handle) return GPUREDUCE_ERROR_INVALID_HANDLE;
  gpureduce_handle_t h = handle;
  h->message[0] = '\0';
  size_t rs;
  gpureduce_status_t s;
  if ((s = gr_check_kind(h, type, op, flags, &rs)) != GPUREDUCE_SUCCESS) return s;
  if (batch == 0) return GPUREDUCE_SUCCESS; /* nothing to read or write */
  if ((s = gr_check_buffers(h, input, output, n, type, op, rs)) != GPUREDUCE_SUCCESS) return s;
  const unsigned size = (unsigned)gpureduce_type_size(type);
  int64_t lo = 0, hi = 0; /* the input's span, in bytes from input (n > 0) */
  if (n > 0 && (s = input_span(h, input, batch, n, batch_stride, element_stride, size, &lo,
                               &hi)) != GPUREDUCE_SUCCESS)
    return s;
  if (batch > SIZE_MAX / rs)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "batch %zu times the %zu-byte result overflows size_t", batch, rs);
  const uint64_t out_at = (uint64_t)(uintptr_t)output, out_bytes = (uint64_t)batch * rs;
  if (out_bytes - 1 > (uint64_t)UINTPTR_MAX - out_at)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "the output's %" PRIu64 " bytes from %p wrap around the address space",
                   out_bytes, output);
  if (n > 0) {
    /* The whole span counts, gaps between vectors included: a
     * conservative check, as documented. */
    const uint64_t in_first = (uint64_t)(uintptr_t)input - ((uint64_t)0 - (uint64_t)lo);
    const uint64_t in_last = (uint64_t)(uintptr_t)input + (uint64_t)hi;
    if (out_at <= in_last && in_first <= out_at + (out_bytes - 1))
      return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                     "the output's %" PRIu64 " bytes from %p overlap the input's span, "
                     "%p %+" PRId64 " to %+" PRId64 " bytes (its lowest to its highest "
                     "element); the output must lie outside it",
                     out_bytes, output, input, lo, hi);
    if ((s = gr_check_space(h, (const char *)input + lo, "input (its lowest element)")) !=
        GPUREDUCE_SUCCESS)
      return s;
  }
  if ((s = gr_check_space(h, output, "output")) != GPUREDUCE_SUCCESS) return s;
  if (h->device == GPUREDUCE_DEVICE_HOST)
    return gr_host_reduce_batched(h, input, output, batch, n, batch_stride, element_stride,
                                  type, op, flags);
  return gr_cuda_reduce_batched(h, input, output, batch, n, batch_stride, element_stride, type,
                                op, flags);
}
