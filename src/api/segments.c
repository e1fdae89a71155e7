/*
 * api/segments.c - gpureduce_reduce_segments() and
 * gpureduce_get_async_error(): every argument of a segmented reduction
 * that the host can see is checked here, in one order, before the
 * handle's backend sees it (the one prologue of api/args.h, then the
 * pointers, the counts, the address ranges, the overlap of the output
 * with the offsets, the memory spaces), so both backends give the same
 * statuses and messages.
 *
 * The offsets' values are not checked here: on a CUDA handle they are
 * device data, which the host does not read without synchronizing.  The
 * backends check each segment as they reduce it and record the lowest
 * invalid one in the handle's sticky error, which
 * gpureduce_get_async_error() reports and clears, the same way on both
 * backends.
 */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>

#include "api/args.h"
#include "core/backend.h"

/* 1 when the `bytes` bytes from p (bytes > 0) stay inside the address
 * space. */
static int fits(const void *p, uint64_t bytes) {
  return bytes - 1 <= (uint64_t)UINTPTR_MAX - (uint64_t)(uintptr_t)p;
}

gpureduce_status_t gpureduce_reduce_segments(const void *input, void *output,
                                             const uint64_t *offsets, size_t segments,
                                             gpureduce_type_t type, gpureduce_op_t op,
                                             unsigned flags, gpureduce_handle_t handle) {
  gpureduce_handle_t h = handle;
  struct gr_call c = {.type = type, .op = op, .flags = flags, .batch = segments};
  gpureduce_status_t s = gr_prologue(h, &c);
  if (s != GPUREDUCE_SUCCESS || segments == 0) return s;
  const size_t rs = c.result_size;
  if (!output) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "output is NULL");
  if (!input)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "input is NULL with %zu segments (it is needed even when every segment "
                   "is empty)",
                   segments);
  if (!offsets) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "offsets is NULL");
  const unsigned size = (unsigned)gpureduce_type_size(type);
  if ((uintptr_t)input % size)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "input %p is not aligned to its %u-byte elements", input, size);
  if ((uintptr_t)output % rs)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "output %p is not aligned to its %zu-byte result", output, rs);
  if ((uintptr_t)offsets % sizeof *offsets)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "offsets %p is not aligned to its 8-byte uint64_t elements",
                   (const void *)offsets);
  if (segments == SIZE_MAX)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "segments %zu + 1 offsets overflows size_t", segments);
  uint64_t out_bytes = 0;
  if ((s = gr_output_span(h, output, segments, rs, &out_bytes)) != GPUREDUCE_SUCCESS) return s;
  /* (segments + 1) * 8 bytes of offsets: past UINT64_MAX they cannot fit
   * either. */
  const uint64_t off_count = (uint64_t)segments + 1;
  if (off_count > UINT64_MAX / 8 || !fits(offsets, off_count * 8))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "the %" PRIu64 " offsets (8 bytes each) from %p wrap around the address "
                   "space",
                   off_count, (const void *)offsets);
  /* (not gr_check_overlap(): the offsets' bytes may exceed INT64_MAX) */
  const uint64_t out_at = (uint64_t)(uintptr_t)output;
  const uint64_t off_at = (uint64_t)(uintptr_t)offsets, off_bytes = off_count * 8;
  if (out_at <= off_at + (off_bytes - 1) && off_at <= out_at + (out_bytes - 1))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "the output's %" PRIu64 " bytes from %p overlap the %" PRIu64
                   " bytes of offsets from %p; the output must lie outside them",
                   out_bytes, output, off_bytes, (const void *)offsets);
  if ((s = gr_check_space(h, input, "input")) != GPUREDUCE_SUCCESS) return s;
  if ((s = gr_check_space(h, output, "output")) != GPUREDUCE_SUCCESS) return s;
  if ((s = gr_check_space(h, offsets, "offsets")) != GPUREDUCE_SUCCESS) return s;
  return h->backend->reduce_segments(h, input, output, offsets, segments, type, op, flags);
}

gpureduce_status_t gpureduce_get_async_error(gpureduce_handle_t handle) {
  gpureduce_handle_t h = handle;
  uint64_t bad = UINT64_MAX;
  gpureduce_status_t s;
  if ((s = gr_begin(h)) != GPUREDUCE_SUCCESS ||
      (s = h->backend->take_async_error(h, &bad)) != GPUREDUCE_SUCCESS)
    return s;
  if (bad == UINT64_MAX) return GPUREDUCE_SUCCESS;
  return gr_fail(h, GPUREDUCE_ERROR_INVALID_OFFSETS,
                 "gpureduce_reduce_segments: segment %" PRIu64
                 " has offsets that decrease or leave [offsets[0], offsets[segments]] (the "
                 "lowest such segment since the last check); fix the offsets and redo the "
                 "call",
                 bad);
}
