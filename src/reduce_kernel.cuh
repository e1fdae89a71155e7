/*
 * reduce_kernel.cuh - the production kernel: one launch for any n.
 *
 * What one block does (CUB's layering, in one file):
 *   block  -> takes groups of 2^group_log2 tiles, grid-stride over groups;
 *   tile   -> each of the 256 threads is one lane of the reduction order and
 *             loads its 8 chunks of 16 bytes at once (8 loads in flight),
 *             folds them, then the block combines the 256 lane values in the
 *             order's lane tree (shared memory for the levels 128, 64, 32,
 *             warp shuffles below);
 *   group  -> warp 0's lane 0 folds tile values into the group's subtree
 *             with a binary counter and writes the group root;
 *   grid   -> the last block to finish (threadfence + atomic ticket) combines
 *             the roots in the tree over group index and writes the result,
 *             then resets the ticket for the next launch.
 * Every step follows the order of doc/ORDER.md, so the bits depend on the
 * element indices only.  Misaligned input is read with aligned 16-byte loads
 * and funnel shifts; tiles touching either end of the array use scalar
 * loads, so nothing outside [input, input + n) is read.
 */
#ifndef GPUREDUCE_REDUCE_KERNEL_CUH
#define GPUREDUCE_REDUCE_KERNEL_CUH

#include <cstring>

#include "internal.h"
#include "lane.cuh"
#include "ops.cuh"

namespace gr {

constexpr int kThreads = GR_LANES;
constexpr int kWarps = kThreads / 32;
constexpr int kChunksPerLane = GR_CHUNKS_PER_LANE;
constexpr int kStackDepth = 64;
/*
 * Launch shape of an operation's kernel: the register budget, given to
 * ptxas as the resident blocks per SM it must allow, and whether aligned
 * tiles are double-buffered (the block's next tile loaded before the
 * current one is folded).  Without a budget ptxas aims at full occupancy
 * (32 registers) and issues each 16-byte load just before its use: two
 * or three loads in flight instead of eight.
 *
 * Measured on the H200 (2026-11-30; reduce-bench --n 2^28 --only lib, one
 * call, median of 20; % of the 1 GiB read-only probe), three builds side
 * by side: {3 blocks, no prefetch} / {3, prefetch} / {2, prefetch}:
 *   f32 sum 97 / 90 / 96    u8 argmin 68 / 58 / 51    i8 sum 73 / 71 / 72
 *   f32 argmin 72 / 89 / 90  f64 argmin 81 / 98 / 97  f16 argmin 45 / 49 / 49
 * {3, prefetch} spills (80-register cap with two tiles in registers).  So:
 * 3 blocks without prefetch, except argmin/argmax of 16-bit and wider
 * elements, whose per-element compute the prefetch hides: 2 blocks with it.
 */
template <class Op> struct KernelShape {
  static constexpr int min_blocks = 3;
  static constexpr bool prefetch = false;
};
template <gpureduce_type_t T, bool IsMax> struct KernelShape<ArgMinMax<T, IsMax>> {
  static constexpr bool byte = T == GPUREDUCE_I8 || T == GPUREDUCE_U8;
  static constexpr int min_blocks = byte ? 3 : 2;
  static constexpr bool prefetch = !byte;
};
static_assert(kThreads == 256, "the lane tree below is written for 256 lanes");
static_assert(GR_MAX_ROOTS == 32 * kThreads, "the root tree reads at most 32 roots a thread");

__device__ __forceinline__ uint4 load_chunk(const uint4 *p) { return __ldg(p); }

/* Run f(std::integral_constant<int, K>) for K = 0 .. N-1, unrolled, so
 * that each chunk's position is a compile-time constant. */
template <int K, int N, class F> __device__ __forceinline__ void static_for(F &&f) {
  if constexpr (K < N) {
    f(std::integral_constant<int, K>{});
    static_for<K + 1, N>(f);
  }
}

/* The 16 bytes starting `m` bytes into the 32 bytes a:b, where m = 4*Q + r/8.
 * Q is a template argument so that the word selection costs nothing. */
template <int Q>
__device__ __forceinline__ uint4 shift_chunk(const uint4 &a, const uint4 &b,
                                             unsigned rbits) {
  const uint32_t w[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
  uint4 o;
  o.x = __funnelshift_r(w[Q + 0], w[Q + 1], rbits);
  o.y = __funnelshift_r(w[Q + 1], w[Q + 2], rbits);
  o.z = __funnelshift_r(w[Q + 2], w[Q + 3], rbits);
  o.w = __funnelshift_r(w[Q + 3], w[Q + 4], rbits);
  return o;
}

/* The 8 chunks lane threadIdx.x owns in a tile of 16-byte-aligned input. */
__device__ __forceinline__ void load_lane(const uint4 *chunks, uint64_t tile,
                                          uint4 (&v)[kChunksPerLane]) {
  const uint64_t c0 = tile * GR_TILE_CHUNKS + threadIdx.x;
#pragma unroll
  for (int k = 0; k < kChunksPerLane; ++k) v[k] = load_chunk(chunks + c0 + k * kThreads);
}

/* Lane value of an interior tile from its loaded chunks. */
template <class Op>
__device__ __forceinline__ typename Op::Acc fold_lane(const uint4 (&v)[kChunksPerLane],
                                                      uint64_t tile) {
  using L = typename LaneFor<Op>::type;
  constexpr int V = GR_CHUNK_BYTES / sizeof(typename Op::In);
  const uint64_t c0 = tile * GR_TILE_CHUNKS + threadIdx.x;
  typename L::State s = L::init();
  static_for<0, kChunksPerLane>([&](auto k) {
    L::template chunk<k.value>(s, v[k.value], (c0 + (uint64_t)k.value * kThreads) * V);
  });
  return L::finish(s, c0);
}

/* Lane value of an interior tile when the input is misaligned by
 * m = 4*Q + rbits/8 bytes: `blocks` is input - m, 16-byte aligned; chunk c
 * is the bytes m .. m+15 of blocks c and c+1. */
template <class Op, int Q>
__device__ __forceinline__ typename Op::Acc lane_shifted(const uint4 *blocks,
                                                         uint64_t tile,
                                                         unsigned rbits) {
  constexpr int V = GR_CHUNK_BYTES / sizeof(typename Op::In);
  const uint64_t c0 = tile * GR_TILE_CHUNKS + threadIdx.x;
  using L = typename LaneFor<Op>::type;
  uint4 a[kChunksPerLane], b[kChunksPerLane];
#pragma unroll
  for (int k = 0; k < kChunksPerLane; ++k) {
    a[k] = load_chunk(blocks + c0 + k * kThreads);
    b[k] = load_chunk(blocks + c0 + k * kThreads + 1);
  }
  typename L::State s = L::init();
  static_for<0, kChunksPerLane>([&](auto k) {
    L::template chunk<k.value>(s, shift_chunk<Q>(a[k.value], b[k.value], rbits),
                               (c0 + (uint64_t)k.value * kThreads) * V);
  });
  return L::finish(s, c0);
}

/* Lane value of a tile that touches an end of the array: scalar loads of
 * the elements below n only. */
template <class Op>
__device__ __noinline__ typename Op::Acc lane_edge(const typename Op::In *x,
                                                   uint64_t n, uint64_t tile) {
  constexpr int V = GR_CHUNK_BYTES / sizeof(typename Op::In);
  typename Op::Acc acc = Op::identity();
  for (int k = 0; k < kChunksPerLane; ++k) {
    const uint64_t first = (tile * GR_TILE_CHUNKS + threadIdx.x + (uint64_t)k * kThreads) * V;
    for (int j = 0; j < V; ++j)
      if (first + j < n) acc = Op::combine(acc, Op::lift(x[first + j], first + j));
  }
  return acc;
}

/* Combine the 256 lane values in the order's lane tree: lane l with l+s for
 * s = 128, ..., 1.  Every thread passes its value; the tile value ends in
 * thread 0.  `buf` is this tile's half of a double buffer, so one barrier
 * per tile is enough (see the caller). */
template <class Op>
__device__ __forceinline__ typename Op::Acc lane_tree(typename Op::Acc acc,
                                                      typename Op::Acc *buf) {
  using Acc = typename Op::Acc;
  buf[threadIdx.x] = acc;
  __syncthreads();
  Acc z = Op::identity();
  if (threadIdx.x < 32) {
    const int l = threadIdx.x;
    Acc v[8];
#pragma unroll
    for (int m = 0; m < 8; ++m) v[m] = buf[l + 32 * m];
    /* levels 128, 64, 32 for lanes l, l+32, ..., l+224 */
    z = Op::combine(Op::combine(Op::combine(v[0], v[4]), Op::combine(v[2], v[6])),
                    Op::combine(Op::combine(v[1], v[5]), Op::combine(v[3], v[7])));
#pragma unroll
    for (int s = 16; s >= 1; s >>= 1) z = Op::combine(z, shfl_down(z, s));
  }
  return z;
}

/* Read a root another block wrote: from L2 (ld.global.cg), never from a
 * possibly stale L1 line. */
template <class Acc> __device__ __forceinline__ Acc load_root(const Acc *p) {
  static_assert(sizeof(Acc) == 4 || sizeof(Acc) == 8 || sizeof(Acc) == 16, "root size");
  Acc v;
  if constexpr (sizeof(Acc) == 16) {
    const uint4 w = __ldcg(reinterpret_cast<const uint4 *>(p));
    memcpy(&v, &w, 16);
  } else if constexpr (sizeof(Acc) == 8) {
    const unsigned long long w = __ldcg(reinterpret_cast<const unsigned long long *>(p));
    memcpy(&v, &w, 8);
  } else {
    const unsigned w = __ldcg(reinterpret_cast<const unsigned *>(p));
    memcpy(&v, &w, 4);
  }
  return v;
}

/* The complete binary tree over the first `count` values of `roots`
 * (identity beyond), computed by the whole block; the result lands in
 * thread 0.  Thread t owns the `per` slots t*per .. t*per+per-1 (per = 8,
 * 16 or 32, a power of two, so each thread's slots are a subtree): one,
 * two or four rounds of eight loads in flight.  Slots pair as (2i, 2i+1),
 * then pairs of pairs, and so on, across threads and warps. */
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
#pragma unroll
  for (int s = 1; s < 32; s <<= 1) t = Op::combine(t, shfl_down(t, s));
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) warp_vals[warp] = t;
  __syncthreads();
  if (warp == 0) {
    t = lane < kWarps ? warp_vals[lane] : Op::identity();
#pragma unroll
    for (int s = 1; s < kWarps; s <<= 1) t = Op::combine(t, shfl_down(t, s));
  }
  return t;
}

template <class Op>
__global__ void __launch_bounds__(kThreads, KernelShape<Op>::min_blocks)
reduce_kernel(const gr_kernel_params p) {
  using Acc = typename Op::Acc;
  using In = typename Op::In;
  using Out = typename Op::Out;
  __shared__ Acc buf[2][kThreads];
  __shared__ Acc stack[kStackDepth];
  __shared__ Acc warp_vals[kWarps];
  __shared__ bool is_last;

  const In *x = static_cast<const In *>(p.input);
  Acc *roots = static_cast<Acc *>(p.roots);
  const unsigned q = p.misalign / 4, rbits = (p.misalign % 4) * 8;
  const uint4 *blocks = reinterpret_cast<const uint4 *>(
      static_cast<const char *>(p.input) - p.misalign);
  const uint64_t bytes = p.n * sizeof(In) + p.misalign; /* from `blocks` */
  const uint64_t group_tiles = (uint64_t)1 << p.group_log2;
  int parity = 0;
  /* interior: every chunk's 16-byte blocks lie inside the input */
  auto interior = [&](uint64_t tile) {
    const uint64_t end_block = (tile + 1) * GR_TILE_CHUNKS + (p.misalign ? 1 : 0);
    return (p.misalign == 0 || tile > 0) && end_block * 16 <= bytes;
  };
  /* Aligned input with KernelShape<Op>::prefetch: the block's next
   * interior tile is loaded before the current one is folded and combined,
   * so loads stay in flight while the block computes. */
  uint4 cur[kChunksPerLane], next[kChunksPerLane];
  bool have_next = false;

  for (uint64_t group = blockIdx.x; group < p.groups; group += gridDim.x) {
    const uint64_t t0 = group * group_tiles;
    const uint64_t t1 = min(t0 + group_tiles, p.tiles);
    for (uint64_t tile = t0; tile < t1; ++tile) {
      Acc acc;
      if (!interior(tile)) {
        acc = lane_edge<Op>(x, p.n, tile);
      } else if (p.misalign == 0) {
        if (have_next) {
#pragma unroll
          for (int k = 0; k < kChunksPerLane; ++k) cur[k] = next[k];
        } else {
          load_lane(blocks, tile, cur);
        }
        const uint64_t after = tile + 1 < t1 ? tile + 1
                               : group + gridDim.x < p.groups ? (group + gridDim.x) * group_tiles
                                                              : p.tiles;
        have_next = KernelShape<Op>::prefetch && after < p.tiles && interior(after);
        if (have_next) load_lane(blocks, after, next);
        acc = fold_lane<Op>(cur, tile);
      } else {
        switch (q) {
          case 0: acc = lane_shifted<Op, 0>(blocks, tile, rbits); break;
          case 1: acc = lane_shifted<Op, 1>(blocks, tile, rbits); break;
          case 2: acc = lane_shifted<Op, 2>(blocks, tile, rbits); break;
          default: acc = lane_shifted<Op, 3>(blocks, tile, rbits); break;
        }
      }
      Acc v = lane_tree<Op>(acc, buf[parity]);
      parity ^= 1;
      if (threadIdx.x == 0) {
        /* binary counter: merge the finished subtrees to the left */
        uint64_t i = tile - t0;
        int level = 0;
        for (; i & 1; i >>= 1, ++level) v = Op::combine(stack[level], v);
        stack[level] = v;
      }
    }
    if (threadIdx.x == 0) {
      /* fold what is left of the counter, smallest subtree first */
      uint64_t count = t1 - t0;
      Acc r = Op::identity();
      bool have = false;
      for (int level = 0; count; count >>= 1, ++level) {
        if (count & 1) {
          r = have ? Op::combine(stack[level], r) : stack[level];
          have = true;
        }
      }
      if (gridDim.x == 1 && p.groups == 1) {
        reinterpret_cast<Out *>(p.output)[0] = Op::finish(r);
      } else {
        roots[group] = r;
      }
    }
  }

  if (p.groups <= 1 && gridDim.x == 1) {
    if (p.groups == 0 && threadIdx.x == 0)
      *static_cast<Out *>(p.output) = Op::empty();
    return;
  }
  if (gridDim.x > 1) {
    if (threadIdx.x == 0) {
      __threadfence(); /* this block's roots before its ticket */
      is_last = atomicAdd(p.ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last) return;
    __threadfence(); /* everyone's roots after the ticket */
  } else {
    __syncthreads();
  }
  Acc r = root_tree<Op>(roots, p.groups, warp_vals);
  if (threadIdx.x == 0) {
    if (p.groups == 0)
      *static_cast<Out *>(p.output) = Op::empty();
    else
      *static_cast<Out *>(p.output) = Op::finish(r);
    if (gridDim.x > 1) *p.ticket = 0u;
  }
}

} /* namespace gr */

#endif /* GPUREDUCE_REDUCE_KERNEL_CUH */
