/*
 * api/reduce.c - gpureduce_reduce() and gpureduce_sum_f32(): every
 * argument is checked here, in one order, before a backend sees it, so
 * both backends give the same statuses and messages; then the call goes
 * to the host backend (host/) or the CUDA side's dispatch (cuda/).
 */
#include "config.h"

#include <stdint.h>

#include "api/handle.h"
#include "cuda/cuda.h"
#include "host/host.h"

gpureduce_status_t gpureduce_reduce(const void *input, void *output, size_t n,
                                    gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                                    gpureduce_handle_t handle) {
  if (!handle) return GPUREDUCE_ERROR_INVALID_HANDLE;
  gpureduce_handle_t h = handle;
  h->message[0] = '\0';
  if ((unsigned)type >= GPUREDUCE_TYPE_COUNT)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "type %d is not a gpureduce_type_t",
                   (int)type);
  if ((unsigned)op >= GPUREDUCE_OP_COUNT)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "op %d is not a gpureduce_op_t", (int)op);
  if (flags & ~GPUREDUCE_ACCUMULATE_F64)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "flags 0x%x has unknown bits", flags);
  if (gpureduce_result_size(type, op, flags) == 0)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED,
                   "GPUREDUCE_ACCUMULATE_F64 applies to f32 sum, prod, sum_abs and "
                   "sum_squares only, not %s %s",
                   gpureduce_type_name(type), gpureduce_op_name(op));
  if (!output) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "output is NULL");
  if (n > 0 && !input)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "input is NULL with n = %zu", n);
  if (n > 0 && (uintptr_t)input % gpureduce_type_size(type))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "input %p is not aligned to its %u-byte elements", input,
                   (unsigned)gpureduce_type_size(type));
  if ((uintptr_t)output % gpureduce_result_size(type, op, flags))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "output %p is not aligned to its %zu-byte result", output,
                   gpureduce_result_size(type, op, flags));
  if (n == 0 && (op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX))
    return gr_fail(h, GPUREDUCE_ERROR_EMPTY_INPUT, "%s of zero elements has no index",
                   gpureduce_op_name(op));
  gpureduce_status_t s;
  if (n > 0 && (s = gr_check_space(h, input, "input")) != GPUREDUCE_SUCCESS) return s;
  if ((s = gr_check_space(h, output, "output")) != GPUREDUCE_SUCCESS) return s;
  if (h->device == GPUREDUCE_DEVICE_HOST) return gr_host_reduce(h, input, output, n, type, op, flags);
  return gr_cuda_reduce(h, input, output, n, type, op, flags, 0);
}

gpureduce_status_t gpureduce_sum_f32(const float *input, float *output, size_t n,
                                     gpureduce_handle_t handle) {
  return gpureduce_reduce(input, output, n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, handle);
}
