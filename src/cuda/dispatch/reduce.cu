/*
 * cuda/dispatch/reduce.cu - the dispatch layer of gpureduce_reduce() and
 * of the partial results' nodes: from a call on a CUDA handle to one
 * kernel launch.  It finds reduce_kernel<Op> of (op, type)
 * (instantiate/kernels.cuh; its policy row, tuning/policy.cuh, says which
 * lane and launch shape it has), makes the plan of tiles and groups
 * (order/order.h), takes the block count from the tuning table
 * (tune/model.c), and enqueues the kernel on the handle's stream.  No
 * allocation, no synchronization.
 */
#include <utility>

#include <cuda_runtime.h>

#include "cuda/cuda.h"
#include "cuda/device/device.cuh"
#include "cuda/dispatch/dispatch.cuh"
#include "cuda/instantiate/kernels.cuh"
#include "cuda/thread/ops.cuh"
#include "cuda/tuning/policy.cuh"
#include "order/order.h"
#include "tune/tune.h"

namespace gr::dispatch_impl {

/* The operation family of each gpureduce_op_t, from OpFor (the same for
 * every element type). */
template <int... O>
OpFamily op_family(gpureduce_op_t op, std::integer_sequence<int, O...>) {
  static constexpr OpFamily row[] = {
      OpFor<GPUREDUCE_F32, static_cast<gpureduce_op_t>(O)>::type::kFamily...};
  return row[op];
}

} /* namespace gr::dispatch_impl */

const gr::ReducePolicy &gr::reduce_policy_for(gpureduce_type_t type, gpureduce_op_t op) {
  const OpFamily f = dispatch_impl::op_family(
      op, std::make_integer_sequence<int, GPUREDUCE_OP_COUNT>{});
  return kReducePolicies[static_cast<int>(f)][static_cast<int>(type_family(type))];
}

/* A named namespace, not an anonymous one: cudafe++ names anonymous
 * namespaces after a hash of the .cu file's absolute path, so two builds
 * in different directories would differ (tests/dist/reproducible.sh). */
namespace gr::dispatch_impl {

/* One launch of reduce_kernel over n elements at input, its result to
 * output and, when acc_out is not null, its root there too; the caller
 * holds the DeviceGuard.  k.kernel runs, or k.exact where there is one
 * for n: the same bits. */
gpureduce_status_t launch_reduce(gpureduce_handle *h, const gr::ReduceKernels &k,
                                 const void *input, void *output, uint64_t n,
                                 gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                                 unsigned grid, void *acc_out) {
  const void *kernel = k.exact && n <= k.exact_max ? k.exact : k.kernel;
  gr_plan plan;
  gr_plan_make(n, gpureduce_type_size(type), 1, &plan);
  gr_plan_fit(&plan, grid ? grid : gr_tune_grid(h, type, op, flags, &plan));

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
  params.with_value = (flags & (GPUREDUCE_WITH_VALUE | GPUREDUCE_SOFTMAX_STATS)) != 0;
  params.acc_out = acc_out;

  void *args[] = {&params};
  const cudaError_t err = cudaLaunchKernel(kernel, dim3(plan.grid), dim3(GR_LANES), args, 0,
                                           static_cast<cudaStream_t>(h->stream));
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "cudaLaunchKernel");
  return GPUREDUCE_SUCCESS;
}

/* The kernels of (type, op, flags), with the handle's message set where
 * there is none (k.kernel == nullptr). */
gr::ReduceKernels kernels_or_fail(gpureduce_handle *h, gpureduce_type_t type, gpureduce_op_t op,
                                  unsigned flags) {
  const gr::ReduceKernels k = gr::reduce_kernels_for(type, op, flags);
  if (!k.kernel)
    gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "no kernel for %s %s", gpureduce_type_name(type),
            gpureduce_op_name(op));
  return k;
}

} /* namespace gr::dispatch_impl */

using gr::dispatch_impl::kernels_or_fail;
using gr::dispatch_impl::launch_reduce;

extern "C" gpureduce_status_t gr_cuda_reduce(gpureduce_handle *h, const void *input,
                                             void *output, uint64_t n,
                                             gpureduce_type_t type, gpureduce_op_t op,
                                             unsigned flags, unsigned grid) {
  const gr::ReduceKernels k = kernels_or_fail(h, type, op, flags);
  if (!k.kernel) return GPUREDUCE_ERROR_UNSUPPORTED;
  gr::DeviceGuard guard(h->device);
  if (guard.status() != cudaSuccess) return gr::cuda_fail(h, guard.status(), "cudaSetDevice");
  return launch_reduce(h, k, input, output, n, type, op, flags, grid, nullptr);
}

extern "C" gpureduce_status_t gr_cuda_reduce_nodes(gpureduce_handle *h, const void *input,
                                                   const uint64_t (*nodes)[2], unsigned count,
                                                   gpureduce_type_t type, gpureduce_op_t op,
                                                   unsigned flags, void *roots,
                                                   const gr_span *spans, unsigned nspans) {
  if (count > gr::kPartialNodes)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "%u nodes, more than %u", count,
                   gr::kPartialNodes);
  const gr::ReduceKernels kernels =
      count ? kernels_or_fail(h, type, op, flags) : gr::ReduceKernels{};
  if (count && !kernels.kernel) return GPUREDUCE_ERROR_UNSUPPORTED;
  gr::DeviceGuard guard(h->device);
  if (guard.status() != cudaSuccess) return gr::cuda_fail(h, guard.status(), "cudaSetDevice");
  char *ws = static_cast<char *>(h->workspace);
  const size_t es = gpureduce_type_size(type);
  for (unsigned k = 0; k < count; ++k) {
    const gpureduce_status_t s =
        launch_reduce(h, kernels, static_cast<const char *>(input) + nodes[k][0] * es,
                      ws + gr::kWsPartialResult, nodes[k][1], type, op, flags, 0,
                      ws + gr::kWsPartialRoots + (size_t)k * GR_ROOT_BYTES);
    if (s != GPUREDUCE_SUCCESS) return s;
  }
  const cudaStream_t stream = static_cast<cudaStream_t>(h->stream);
  cudaError_t err = cudaSuccess;
  if (count)
    err = cudaMemcpyAsync(roots, ws + gr::kWsPartialRoots, (size_t)count * GR_ROOT_BYTES,
                          cudaMemcpyDeviceToHost, stream);
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "cudaMemcpyAsync of the node roots");
  for (unsigned j = 0; j < nspans; ++j) {
    if (!spans[j].bytes) continue;
    err = cudaMemcpyAsync(spans[j].dst, spans[j].src, spans[j].bytes, cudaMemcpyDeviceToHost,
                          stream);
    if (err != cudaSuccess) return gr::cuda_fail(h, err, "cudaMemcpyAsync of the cut tiles");
  }
  err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "cudaStreamSynchronize");
  return GPUREDUCE_SUCCESS;
}

extern "C" gpureduce_status_t gr_cuda_write(gpureduce_handle *h, void *dst, const void *src,
                                            size_t bytes) {
  gr::DeviceGuard guard(h->device);
  if (guard.status() != cudaSuccess) return gr::cuda_fail(h, guard.status(), "cudaSetDevice");
  const cudaStream_t stream = static_cast<cudaStream_t>(h->stream);
  cudaError_t err = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream);
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "cudaMemcpyAsync");
  err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "cudaStreamSynchronize");
  return GPUREDUCE_SUCCESS;
}
