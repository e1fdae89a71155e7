/*
 * api/batched.c - gpureduce_reduce_batched(): every argument is checked
 * here, in one order, before a backend sees it (the checks of
 * gpureduce_reduce() from api/args.h, then what only a batch has: the
 * strides' offsets, the output's size, overlap), so both backends give the
 * same statuses and messages; then the call goes to the host backend
 * (host/) or the CUDA side's batched dispatch (cuda/).
 *
 * The offset checks (gr_input_span, api/args.c) make the backends'
 * address arithmetic safe: every element offset b*batch_stride +
 * i*element_stride of the batch, and its byte offset, fits in int64_t, and
 * every element's bytes lie inside the address space.
 */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>

#include "api/args.h"
#include "api/handle.h"
#include "cuda/cuda.h"
#include "host/host.h"

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
  if (n > 0 && (s = gr_input_span(h, "input", input, batch, n, batch_stride, element_stride,
                                  size, &lo, &hi)) != GPUREDUCE_SUCCESS)
    return s;
  uint64_t out_bytes;
  if ((s = gr_output_span(h, output, batch, rs, &out_bytes)) != GPUREDUCE_SUCCESS) return s;
  if (n > 0) {
    /* The whole span counts, gaps between vectors included: a
     * conservative check, as documented. */
    if (gr_overlaps(output, out_bytes, input, lo, hi))
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
