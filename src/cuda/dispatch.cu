/*
 * cuda/dispatch.cu - the dispatch layer: from a gpureduce_reduce() call on
 * a CUDA handle to one kernel launch.  It finds the kernel of (op, type)
 * (the policy table, policy.cuh, says which lane and launch shape that
 * kernel has), makes the plan of tiles and groups (order/order.h), takes
 * the block count from the tuning table (tune/model.c), and enqueues the
 * kernel on the handle's stream.  No allocation, no synchronization.
 */
#include <cuda_runtime.h>

#include "cuda/cuda.h"
#include "cuda/device.cuh"
#include "cuda/dispatch.cuh"
#include "cuda/ops.cuh"
#include "order/order.h"
#include "tune/tune.h"

const void *gr::reduce_kernel_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  if (gpureduce_result_size(type, op, flags) == 0) return nullptr;
  if (flags & GPUREDUCE_WITH_VALUE) return with_value_kernels_for(type, op).reduce;
  if (is_floating(type_family(type)))
    return float_kernel_for(type, op, (flags & GPUREDUCE_ACCUMULATE_F64) != 0);
  return int_kernel_for(type, op);
}

extern "C" gpureduce_status_t gr_cuda_reduce(gpureduce_handle *h, const void *input,
                                             void *output, uint64_t n,
                                             gpureduce_type_t type, gpureduce_op_t op,
                                             unsigned flags, unsigned grid) {
  const void *kernel = gr::reduce_kernel_for(type, op, flags);
  if (!kernel)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "no kernel for %s %s",
                   gpureduce_type_name(type), gpureduce_op_name(op));
  gr_plan plan;
  gr_plan_make(n, gpureduce_type_size(type), 1, &plan);
  plan.grid = grid ? grid : gr_tune_grid(h, type, op, flags, &plan);

  gr::ReduceParams params;
  params.input = input;
  params.input2 = nullptr;
  params.output = output;
  params.n = n;
  params.roots = static_cast<char *>(h->workspace) + gr::kWsRoots;
  params.ticket = reinterpret_cast<unsigned *>(static_cast<char *>(h->workspace) + gr::kWsTicket);
  params.tiles = plan.tiles;
  params.groups = plan.groups;
  params.group_log2 = plan.group_log2;

  gr::DeviceGuard guard(h->device);
  if (guard.status() != cudaSuccess) return gr::cuda_fail(h, guard.status(), "cudaSetDevice");
  void *args[] = {&params};
  const cudaError_t err = cudaLaunchKernel(kernel, dim3(plan.grid), dim3(GR_LANES), args, 0,
                                           static_cast<cudaStream_t>(h->stream));
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "cudaLaunchKernel");
  return GPUREDUCE_SUCCESS;
}
