/*
 * cuda/dispatch/segments.cu - the dispatch layer of
 * gpureduce_reduce_segments() on a CUDA handle: one launch of
 * segments_kernel (kernel/segments.cuh) on the handle's stream, a grid of
 * one wave (kSegmentBlocksPerSm blocks a multiprocessor, at most
 * kSegmentMaxWarps warps: the workspace's slots), which splits the
 * work itself from the offsets it reads.  No allocation, no
 * synchronization; the grid changes no bit of any result.  And the reader
 * of the sticky error the kernel leaves for invalid offsets.
 */
#include <cuda_runtime.h>

#include "cuda/cuda.h"
#include "cuda/device/device.cuh"
#include "cuda/dispatch/dispatch.cuh"
#include "cuda/instantiate/kernels.cuh"
#include "cuda/thread/ops.cuh"
#include "order/order.h"

namespace gr::segments_impl {

constexpr unsigned kThreadsPerBlock = GR_LANES;
constexpr unsigned kWarpsPerBlock = kThreadsPerBlock / 32;
constexpr unsigned kMaxBlocks = kSegmentMaxWarps / kWarpsPerBlock;
static_assert(GR_ROOT_BYTES >= 24, "a tree value is at most 24 bytes");

} /* namespace gr::segments_impl */

extern "C" gpureduce_status_t gr_cuda_reduce_segments(gpureduce_handle *h, const void *input,
                                                      void *output, const uint64_t *offsets,
                                                      uint64_t segments, gpureduce_type_t type,
                                                      gpureduce_op_t op, unsigned flags) {
  using namespace gr::segments_impl;
  if (segments == 0) return GPUREDUCE_SUCCESS;
  const void *kernel = gr::segments_kernel_for(type, op, flags);
  if (!kernel)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "no segmented kernel for %s %s",
                   gpureduce_type_name(type), gpureduce_op_name(op));
  const unsigned sms = h->sm_count > 0 ? (unsigned)h->sm_count : 1u;
  unsigned grid = sms * gr::kSegmentBlocksPerSm;
  if (grid > kMaxBlocks) grid = kMaxBlocks;

  char *ws = static_cast<char *>(h->workspace);
  gr::SegmentsParams p = {};
  p.input = input;
  p.output = output;
  p.offsets = offsets;
  p.segments = segments;
  p.nodes = ws + gr::kWsSegmentNodes;
  p.tickets = reinterpret_cast<unsigned *>(ws + gr::kWsSegmentTickets);
  p.state = reinterpret_cast<gr::SegmentsState *>(ws + gr::kWsSegmentsState);
  p.with_value = (flags & (GPUREDUCE_WITH_VALUE | GPUREDUCE_SOFTMAX_STATS)) != 0;

  gr::DeviceGuard guard(h->device);
  if (guard.status() != cudaSuccess) return gr::cuda_fail(h, guard.status(), "cudaSetDevice");
  void *args[] = {&p};
  const cudaError_t err = cudaLaunchKernel(kernel, dim3(grid), dim3(kThreadsPerBlock), args, 0,
                                           static_cast<cudaStream_t>(h->stream));
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "cudaLaunchKernel");
  return GPUREDUCE_SUCCESS;
}

extern "C" gpureduce_status_t gr_cuda_take_async_error(gpureduce_handle *h,
                                                       uint64_t *bad_segment) {
  *bad_segment = UINT64_MAX;
  gr::DeviceGuard guard(h->device);
  if (guard.status() != cudaSuccess) return gr::cuda_fail(h, guard.status(), "cudaSetDevice");
  const cudaStream_t stream = static_cast<cudaStream_t>(h->stream);
  unsigned long long *sticky = &reinterpret_cast<gr::SegmentsState *>(
                                    static_cast<char *>(h->workspace) + gr::kWsSegmentsState)
                                    ->sticky;
  unsigned long long seen = 0;
  cudaError_t err = cudaMemcpyAsync(&seen, sticky, sizeof seen, cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
  if (err == cudaSuccess && seen) {
    err = cudaMemsetAsync(sticky, 0, sizeof *sticky, stream);
    if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
  }
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "reading the segmented reductions' error");
  if (seen) *bad_segment = UINT64_MAX - (uint64_t)seen;
  return GPUREDUCE_SUCCESS;
}
