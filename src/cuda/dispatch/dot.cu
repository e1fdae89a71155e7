/*
 * cuda/dispatch/dot.cu - the dispatch layer of gpureduce_dot() and
 * gpureduce_dot_batched() on a CUDA handle: from the shape to one launch
 * of one of the dot product's kernels (instantiate/kernels.cuh) on the
 * handle's stream.  No allocation, no synchronization.  Which kernel and
 * how many blocks change no bit of any result: every kernel computes each
 * pair of vectors in the order of doc/ORDER.md (agent/dot.cuh).
 *
 *   one pair of vectors      reduce_kernel<Dot>, the plan of the 1-D
 *                            reduction (order/order.h) and the model's
 *                            block count, min(groups, SMs x resident
 *                            blocks)
 *   rows of >= 2 tiles       batched_tiles_kernel<Dot>, the tile groups of
 *                            gpureduce_reduce_batched() (plan_groups)
 *   shorter rows (n >= 0)    batched_warp_kernel<Dot>, a warp a row
 */
#include <cuda_runtime.h>

#include "cuda/cuda.h"
#include "cuda/device/device.cuh"
#include "cuda/dispatch/dispatch.cuh"
#include "cuda/instantiate/kernels.cuh"
#include "cuda/thread/ops.cuh"
#include "order/order.h"
#include "tune/tune.h"

extern "C" gpureduce_status_t gr_cuda_dot(gpureduce_handle *h, const void *x, const void *y,
                                          void *output, uint64_t batch, uint64_t n,
                                          int64_t x_batch_stride, int64_t y_batch_stride,
                                          gpureduce_type_t type, unsigned flags) {
  using namespace gr::batched_impl;
  const gr::DotKernels k = gr::dot_kernels_for(type, flags);
  if (!k.reduce)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "no dot product kernel for %s",
                   gpureduce_type_name(type));
  const size_t elem = gpureduce_type_size(type);
  const uint64_t sms = h->sm_count > 0 ? (uint64_t)h->sm_count : 1;
  gr::DeviceGuard guard(h->device);
  if (guard.status() != cudaSuccess) return gr::cuda_fail(h, guard.status(), "cudaSetDevice");

  const void *kernel;
  uint64_t grid;
  gr::ReduceParams one = {};
  gr::BatchedParams rows = {};
  void *args[1];
  if (batch == 1) {
    gr_plan plan;
    gr_plan_make(n, elem, 1, &plan);
    kernel = k.reduce;
    /* the kernel's resident blocks on this handle's device (cuda/device/device.cu) */
    const uint64_t fill =
        sms * h->tune->dot_resident[type][gr_tune_f64_index(flags)];
    gr_plan_fit(&plan, (unsigned)(fill < UINT32_MAX ? fill : UINT32_MAX));
    grid = plan.grid;
    one.input = x;
    one.input2 = y;
    one.output = output;
    one.n = n;
    one.roots = static_cast<char *>(h->workspace) + gr::kWsRoots;
    one.ticket =
        reinterpret_cast<unsigned *>(static_cast<char *>(h->workspace) + gr::kWsTicket);
    one.tiles = plan.tiles;
    one.groups = plan.groups;
    one.group_log2 = plan.group_log2;
    args[0] = &one;
  } else {
    rows.input = x;
    rows.input2 = y;
    rows.output = output;
    rows.batch = batch;
    rows.n = n;
    rows.batch_stride = x_batch_stride;
    rows.batch_stride2 = y_batch_stride;
    rows.element_stride = 1;
    rows.tiles = gr_tile_count(n, elem);
    rows.groups = 1;
    rows.group_log2 = ceil_log2(rows.tiles);
    rows.roots = static_cast<char *>(h->workspace) + gr::kWsBatchRoots;
    rows.tickets =
        reinterpret_cast<unsigned *>(static_cast<char *>(h->workspace) + gr::kWsBatchTickets);
    if (rows.tiles >= 2) {
      kernel = k.tiles;
      plan_groups(rows.tiles, batch, batch, sms * kTargetBlocksPerSm, rows);
      grid = batch * rows.groups;
    } else {
      kernel = k.warp;
      grid = ceil_div(batch, GR_LANES / 32);
    }
    if (grid > sms * kMaxBlocksPerSm) grid = sms * kMaxBlocksPerSm;
    args[0] = &rows;
  }
  if (grid < 1) grid = 1;
  const cudaError_t err = cudaLaunchKernel(kernel, dim3((unsigned)grid), dim3(GR_LANES), args, 0,
                                           static_cast<cudaStream_t>(h->stream));
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "cudaLaunchKernel");
  return GPUREDUCE_SUCCESS;
}
