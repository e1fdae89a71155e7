/*
 * cuda/block/reduce.cuh - the block layer: the order's two block-wide
 * trees, computed by the 256 threads of a block.
 *   lane_tree  rule 4: the 256 lane values of a tile to the tile value;
 *   root_tree  rule 5: up to GR_MAX_ROOTS group roots to the result.
 */
#ifndef GR_CUDA_BLOCK_REDUCE_CUH
#define GR_CUDA_BLOCK_REDUCE_CUH

#include <cstring>

#include "cuda/thread/ops.cuh"
#include "cuda/warp/reduce.cuh"
#include "order/order.h"

namespace gr {

constexpr int kThreads = GR_LANES;
constexpr int kWarps = kThreads / 32;
static_assert(kThreads == 256, "the lane tree below is written for 256 lanes");
static_assert(GR_MAX_ROOTS == 32 * kThreads, "the root tree reads at most 32 roots a thread");

/* The lane tree of the 256 lane values in buf, computed by one warp (all
 * its lanes; l the caller's lane number, 0 to 31): the tile value ends in
 * the warp's lane 0. */
template <class Op>
__device__ __forceinline__ typename Op::Acc warp_lane_tree_of(const typename Op::Acc *buf,
                                                              int l) {
  using Acc = typename Op::Acc;
  Acc v[8];
#pragma unroll
  for (int m = 0; m < 8; ++m) v[m] = buf[l + 32 * m];
  /* levels 128, 64, 32 for lanes l, l+32, ..., l+224 */
  Acc z = Op::combine(Op::combine(Op::combine(v[0], v[4]), Op::combine(v[2], v[6])),
                      Op::combine(Op::combine(v[1], v[5]), Op::combine(v[3], v[7])));
  return warp_lane_tree<Op>(z);
}

/* Combine the 256 lane values in the order's lane tree: lane l with l+s for
 * s = 128, ..., 1.  Every thread passes its value; the tile value ends in
 * thread 0.  `buf` is this tile's half of a double buffer, so one barrier
 * per tile is enough (see AgentReduce). */
template <class Op>
__device__ __forceinline__ typename Op::Acc lane_tree(typename Op::Acc acc,
                                                      typename Op::Acc *buf) {
  buf[threadIdx.x] = acc;
  __syncthreads();
  typename Op::Acc z = Op::identity();
  if (threadIdx.x < 32) z = warp_lane_tree_of<Op>(buf, threadIdx.x);
  return z;
}

/* Read a root another block wrote: from L2 (ld.global.cg), never from a
 * possibly stale L1 line.  Roots of 4, 8 and 16 bytes take one load; the
 * 12- and 24-byte accumulators of NRM2 and MEAN_VAR take one a word. */
template <class Acc> __device__ __forceinline__ Acc load_root(const Acc *p) {
  static_assert(sizeof(Acc) % 4 == 0 && sizeof(Acc) <= GR_ROOT_BYTES, "root size");
  Acc v;
  if constexpr (sizeof(Acc) == 16) {
    const uint4 w = __ldcg(reinterpret_cast<const uint4 *>(p));
    memcpy(&v, &w, 16);
  } else if constexpr (sizeof(Acc) % 8 == 0 && alignof(Acc) >= 8) {
    unsigned long long w[sizeof(Acc) / 8];
#pragma unroll
    for (unsigned k = 0; k < sizeof(Acc) / 8; ++k)
      w[k] = __ldcg(reinterpret_cast<const unsigned long long *>(p) + k);
    memcpy(&v, w, sizeof v);
  } else {
    unsigned w[sizeof(Acc) / 4];
#pragma unroll
    for (unsigned k = 0; k < sizeof(Acc) / 4; ++k)
      w[k] = __ldcg(reinterpret_cast<const unsigned *>(p) + k);
    memcpy(&v, w, sizeof v);
  }
  return v;
}

/* The complete binary tree over the first `count` values of `roots`
 * (identity beyond), computed by the whole block; the result lands in
 * thread 0.  Thread t owns the `per` slots t*per .. t*per+per-1 (per = 8,
 * 16 or 32, a power of two, so each thread's slots are a subtree): one,
 * two or four rounds of eight loads in flight.  Slots pair as (2i, 2i+1),
 * then pairs of pairs, and so on, across threads and warps.  This is
 * order/tree.h's tree evaluated level by level by 256 threads: the
 * identity padding is exact, so padding to 8192 slots changes nothing. */
template <class Op>
__device__ typename Op::Acc root_tree(const typename Op::Acc *roots, uint64_t count,
                                      typename Op::Acc *warp_vals) {
  using Acc = typename Op::Acc;
  const int rounds = count <= 8u * kThreads ? 1 : count <= 16u * kThreads ? 2 : 4;
  const uint64_t first = (uint64_t)threadIdx.x * 8 * rounds;
  Acc g[4] = {Op::identity(), Op::identity(), Op::identity(), Op::identity()};
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    if (q >= rounds) break;
    Acc v[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const uint64_t slot = first + q * 8 + i;
      v[i] = slot < count ? load_root(roots + slot) : Op::identity();
    }
    g[q] = Op::combine(Op::combine(Op::combine(v[0], v[1]), Op::combine(v[2], v[3])),
                       Op::combine(Op::combine(v[4], v[5]), Op::combine(v[6], v[7])));
  }
  Acc t = Op::combine(Op::combine(g[0], g[1]), Op::combine(g[2], g[3]));
  t = warp_index_tree<Op>(t);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) warp_vals[warp] = t;
  __syncthreads();
  if (warp == 0) {
    t = lane < kWarps ? warp_vals[lane] : Op::identity();
    t = warp_index_tree<Op, kWarps>(t);
  }
  return t;
}

} /* namespace gr */

#endif /* GR_CUDA_BLOCK_REDUCE_CUH */
