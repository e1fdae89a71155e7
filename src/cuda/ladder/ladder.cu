/*
 * cuda/ladder/ladder.cu - the classic reduction kernels, kept as teaching rungs.
 *
 * Each rung changes one thing from the rung below it, and each reduces n
 * floats all the way to one float, so timing a rung times the whole job.
 *
 *   v1  interleaved addressing; the active threads are tid % (2s) == 0,
 *       spread over every warp, so every warp diverges at every level.
 *   v2  the same tree, but thread tid works on index 2*s*tid: the active
 *       threads are packed into the first warps (no divergence until fewer
 *       than 32 remain), at the price of shared-memory bank conflicts as
 *       the stride grows.
 *   v3  sequential addressing: tid < s adds tid + s, s halving; the active
 *       set is a prefix (no divergence above 32) and consecutive threads
 *       read consecutive words (no bank conflicts).
 *   v4  v3 plus the first add during the load: each block reads two
 *       elements per thread, so half the blocks, and half the idle threads
 *       of v3's first level.
 *   v1..v4 launch again over the block sums until one value remains.
 *   v5  two phases: a grid that fits the device accumulates grid-strided
 *       elements in registers, then a block tree; a second launch of one
 *       block reduces the per-block partials.
 *   v6  v5's first phase with warp shuffles (__shfl_down_sync) instead of
 *       a shared-memory tree, per-warp partials in shared memory, and one
 *       launch: the last block to finish (threadfence + atomic ticket)
 *       reduces the partials itself.
 * The production kernel (kernel/reduce.cuh) goes further: 16-byte loads
 * with eight in flight per thread and a fixed reduction order.
 */
#include <cuda_runtime.h>

#include "cuda/cuda.h"
#include "cuda/device/device.cuh"

/* A named namespace, not an anonymous one: cudafe++ names anonymous
 * namespaces after a hash of the .cu file's absolute path, so two builds
 * of the same tarball in different directories would differ.  Hidden
 * like everything else (-fvisibility=hidden, src/libgpureduce.map). */
namespace gr::ladder_impl {

constexpr unsigned kBlock = 256;
constexpr unsigned kMaxGrid = 2048; /* v5/v6 partials: workspace bound */
constexpr unsigned kBlocksPerSm = 8; /* 8 x 256 threads fill an SM */

__device__ __forceinline__ void tree_sequential(float *s) {
  for (unsigned stride = kBlock / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
}

__global__ void __launch_bounds__(kBlock) v1_interleaved_divergent(const float *in, float *out, uint64_t m) {
  __shared__ float s[kBlock];
  const unsigned tid = threadIdx.x;
  const uint64_t i = (uint64_t)blockIdx.x * kBlock + tid;
  s[tid] = i < m ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = 1; stride < kBlock; stride *= 2) {
    if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

__global__ void __launch_bounds__(kBlock) v2_interleaved_strided(const float *in, float *out, uint64_t m) {
  __shared__ float s[kBlock];
  const unsigned tid = threadIdx.x;
  const uint64_t i = (uint64_t)blockIdx.x * kBlock + tid;
  s[tid] = i < m ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = 1; stride < kBlock; stride *= 2) {
    const unsigned index = 2 * stride * tid;
    if (index < kBlock) s[index] += s[index + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

__global__ void __launch_bounds__(kBlock) v3_sequential(const float *in, float *out, uint64_t m) {
  __shared__ float s[kBlock];
  const uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x;
  s[threadIdx.x] = i < m ? in[i] : 0.0f;
  __syncthreads();
  tree_sequential(s);
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

__global__ void __launch_bounds__(kBlock) v4_first_add(const float *in, float *out, uint64_t m) {
  __shared__ float s[kBlock];
  const uint64_t i = (uint64_t)blockIdx.x * (2 * kBlock) + threadIdx.x;
  float v = i < m ? in[i] : 0.0f;
  if (i + kBlock < m) v += in[i + kBlock];
  s[threadIdx.x] = v;
  __syncthreads();
  tree_sequential(s);
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

__global__ void __launch_bounds__(kBlock) v5_two_phase(const float *in, float *out, uint64_t m) {
  __shared__ float s[kBlock];
  float sum = 0.0f;
  const uint64_t step = (uint64_t)gridDim.x * kBlock;
  for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < m; i += step) sum += in[i];
  s[threadIdx.x] = sum;
  __syncthreads();
  tree_sequential(s);
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

/* Sum v over the block; the result is valid in thread 0. */
__device__ __forceinline__ float block_sum(float v, float *warp_sums) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_sum(lane < kBlock / 32 ? warp_sums[lane] : 0.0f);
  return v;
}

__global__ void __launch_bounds__(kBlock) v6_warp_shuffle(const float *in, float *out, uint64_t m,
                                                          float *partials, unsigned *ticket) {
  __shared__ float warp_sums[kBlock / 32];
  __shared__ bool is_last;
  float sum = 0.0f;
  const uint64_t step = (uint64_t)gridDim.x * kBlock;
  for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < m; i += step) sum += in[i];
  sum = block_sum(sum, warp_sums);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    __threadfence();
    is_last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last) return;
  __threadfence();
  sum = 0.0f;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += kBlock) sum += __ldcg(partials + b);
  __syncthreads(); /* warp_sums is reused */
  sum = block_sum(sum, warp_sums);
  if (threadIdx.x == 0) {
    *out = sum;
    *ticket = 0u;
  }
}

typedef void (*pass_kernel)(const float *, float *, uint64_t);

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* Elements one block of a multi-pass rung consumes. */
unsigned per_block(gpureduce_ladder_rung_t rung) {
  return rung == GPUREDUCE_LADDER_FIRST_ADD ? 2 * kBlock : kBlock;
}

size_t round16(size_t bytes) { return (bytes + 15) & ~(size_t)15; }

unsigned phase_grid(uint64_t n, int sm_count) {
  uint64_t g = ceil_div(n, kBlock);
  const uint64_t fill = (uint64_t)(sm_count > 0 ? sm_count : 1) * kBlocksPerSm;
  if (g > fill) g = fill;
  if (g > kMaxGrid) g = kMaxGrid;
  return g ? (unsigned)g : 1u;
}

} /* namespace gr::ladder_impl */

using namespace gr::ladder_impl;

extern "C" size_t gr_ladder_workspace_bytes(gpureduce_ladder_rung_t rung, uint64_t n) {
  switch (rung) {
    case GPUREDUCE_LADDER_INTERLEAVED_DIVERGENT:
    case GPUREDUCE_LADDER_INTERLEAVED_STRIDED:
    case GPUREDUCE_LADDER_SEQUENTIAL:
    case GPUREDUCE_LADDER_FIRST_ADD: {
      /* two ping-pong buffers: the first pass's block sums, the second's */
      const uint64_t pb = per_block(rung), a = ceil_div(n, pb), b = ceil_div(a, pb);
      if (a <= 1) return 0;
      return round16(a * sizeof(float)) + (b > 1 ? round16(b * sizeof(float)) : 0);
    }
    case GPUREDUCE_LADDER_TWO_PHASE:
    case GPUREDUCE_LADDER_WARP_SHUFFLE: return kMaxGrid * sizeof(float);
    default: return 0;
  }
}

extern "C" gpureduce_status_t gr_cuda_ladder(gpureduce_handle *h, gpureduce_ladder_rung_t rung,
                                             const float *input, float *output, uint64_t n,
                                             void *workspace, size_t workspace_bytes,
                                             unsigned *launches) {
  const size_t need = gr_ladder_workspace_bytes(rung, n);
  if (workspace_bytes < need || (need > 0 && !workspace))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "workspace of %zu bytes at %p; rung %d needs %zu bytes for n = %llu",
                   workspace_bytes, workspace, (int)rung, need, (unsigned long long)n);
  if (need > 0) {
    const gpureduce_status_t s = gr_cuda_check_pointer(h, workspace, "workspace");
    if (s != GPUREDUCE_SUCCESS) return s;
  }
  cudaStream_t stream = static_cast<cudaStream_t>(h->stream);
  gr::DeviceGuard guard(h->device);
  if (guard.status() != cudaSuccess) return gr::cuda_fail(h, guard.status(), "cudaSetDevice");
  unsigned count = 0;
  float *partials = static_cast<float *>(workspace);

  if (rung == GPUREDUCE_LADDER_TWO_PHASE || rung == GPUREDUCE_LADDER_WARP_SHUFFLE) {
    const unsigned grid = phase_grid(n, h->sm_count);
    if (rung == GPUREDUCE_LADDER_TWO_PHASE) {
      v5_two_phase<<<grid, kBlock, 0, stream>>>(input, partials, n);
      v5_two_phase<<<1, kBlock, 0, stream>>>(partials, output, grid);
      count = 2;
    } else {
      unsigned *ticket = reinterpret_cast<unsigned *>(static_cast<char *>(h->workspace) +
                                                      gr::kWsLadderTicket);
      v6_warp_shuffle<<<grid, kBlock, 0, stream>>>(input, output, n, partials, ticket);
      count = 1;
    }
  } else {
    pass_kernel kernel = rung == GPUREDUCE_LADDER_INTERLEAVED_DIVERGENT ? v1_interleaved_divergent
                         : rung == GPUREDUCE_LADDER_INTERLEAVED_STRIDED ? v2_interleaved_strided
                         : rung == GPUREDUCE_LADDER_SEQUENTIAL          ? v3_sequential
                                                                        : v4_first_add;
    const uint64_t pb = per_block(rung);
    float *buf[2] = {partials, partials + round16(ceil_div(n, pb) * sizeof(float)) / sizeof(float)};
    const float *src = input;
    uint64_t m = n;
    for (;;) {
      const uint64_t blocks = m ? ceil_div(m, pb) : 1;
      float *dst = blocks == 1 ? output : buf[count % 2];
      kernel<<<(unsigned)blocks, kBlock, 0, stream>>>(src, dst, m);
      ++count;
      if (blocks == 1) break;
      src = dst;
      m = blocks;
    }
  }
  const cudaError_t err = cudaGetLastError();
  if (launches) *launches = count;
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "ladder launch");
  return GPUREDUCE_SUCCESS;
}
