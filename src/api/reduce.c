/*
 * api/reduce.c - gpureduce_reduce() and gpureduce_sum_f32(): every
 * argument is checked here (api/args.h's checks, then the memory spaces),
 * in one order, before a backend sees it, so both backends give the same
 * statuses and messages; then the call goes to the host backend (host/)
 * or the CUDA side's dispatch (cuda/).
 */
#include "config.h"

#include "api/args.h"
#include "api/handle.h"
#include "cuda/cuda.h"
#include "host/host.h"

gpureduce_status_t gpureduce_reduce(const void *input, void *output, size_t n,
                                    gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                                    gpureduce_handle_t handle) {
  if (!handle) return GPUREDUCE_ERROR_INVALID_HANDLE;
  gpureduce_handle_t h = handle;
  h->message[0] = '\0';
  size_t rs;
  gpureduce_status_t s;
  if ((s = gr_check_kind(h, type, op, flags, &rs)) != GPUREDUCE_SUCCESS) return s;
  if ((s = gr_check_buffers(h, input, output, n, type, op, rs)) != GPUREDUCE_SUCCESS) return s;
  if (n > 0 && (s = gr_check_space(h, input, "input")) != GPUREDUCE_SUCCESS) return s;
  if ((s = gr_check_space(h, output, "output")) != GPUREDUCE_SUCCESS) return s;
  if (h->device == GPUREDUCE_DEVICE_HOST) return gr_host_reduce(h, input, output, n, type, op, flags);
  return gr_cuda_reduce(h, input, output, n, type, op, flags, 0);
}

gpureduce_status_t gpureduce_sum_f32(const float *input, float *output, size_t n,
                                     gpureduce_handle_t handle) {
  return gpureduce_reduce(input, output, n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, handle);
}
