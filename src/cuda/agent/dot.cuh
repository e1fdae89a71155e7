/*
 * cuda/agent/dot.cuh - the agents of the dot product (gpureduce_dot(),
 * gpureduce_dot_batched()): the order of doc/ORDER.md over two inputs,
 * lift(i) = x[i]*y[i] (Dot, thread/ops.cuh), whose chunks c are x's and y's
 * elements cV .. cV+V-1.
 *
 *   AgentDot        AgentReduce's job (agent/reduce.cuh) for two vectors:
 *                   one block, a range of tiles; each thread, one lane,
 *                   loads its 8 chunks of x and its 8 chunks of y at once
 *                   (16 loads of 16 bytes in flight), then folds the pairs.
 *                   x and y take their alignments from their own
 *                   addresses.  A misaligned input is read with one
 *                   aligned 16-byte load a chunk: each thread loads the
 *                   block its chunk starts in and takes the next block,
 *                   which its neighbour loaded, through a warp shuffle
 *                   (lane 31 through shared memory, from lane 0 of the
 *                   next warp; thread 255 of the next round's thread 0,
 *                   and once a tile one more load), then a funnel shift.
 *                   Tiles that touch an end of either vector use scalar
 *                   loads, so nothing outside x[0 .. n-1] and y[0 .. n-1]
 *                   is read.
 *   warp_tile_dot   warp_tile's job (agent/batched.cuh) for two vectors:
 *                   a warp a tile, for the batched kernels' rows of up to a
 *                   tile; each round loads both inputs' chunks
 *                   (load_warp_round, shifted where misaligned).
 *   AgentOf<Op>     AgentDot for two-input operations, AgentReduce for
 *                   the rest: what reduce_kernel and batched_tiles_kernel
 *                   run.
 *
 * The bracketing is the one-input agents', so dot(x, y) has the bits of
 * SUM over the products rounded to the accumulator.
 */
#ifndef GR_CUDA_AGENT_DOT_CUH
#define GR_CUDA_AGENT_DOT_CUH

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda/agent/batched.cuh"
#include "cuda/agent/reduce.cuh"
#include "cuda/block/reduce.cuh"
#include "cuda/thread/ops.cuh"
#include "cuda/warp/reduce.cuh"
#include "order/order.h"

namespace gr {

/* Fold the first `count` pairs of a chunk of x and the same chunk of y
 * (first element index `first`) into acc in index order (rule 3). */
template <class Op>
__device__ __forceinline__ void fold_pairs(typename Op::Acc &acc, const uint4 &vx,
                                           const uint4 &vy, uint64_t first, int count) {
  using In = typename Op::In;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  In a[V], b[V];
  memcpy(a, &vx, sizeof a);
  memcpy(b, &vy, sizeof b);
#pragma unroll
  for (int j = 0; j < V; ++j)
    if (j < count) acc = Op::combine(acc, Op::lift2(a[j], b[j], first + j));
}

/* All V pairs of a chunk. */
template <class Op>
__device__ __forceinline__ void fold_pair(typename Op::Acc &acc, const uint4 &vx,
                                          const uint4 &vy, uint64_t first) {
  fold_pairs<Op>(acc, vx, vy, first, GR_CHUNK_BYTES / sizeof(typename Op::In));
}

/* An element of x and the same element of y, as fold_edge loads them. */
template <class In> struct ElementPair {
  In x, y;
};

/* Lane value of a tile that touches an end of either vector: fold_edge
 * (agent/reduce.cuh) over the pairs, half as many chunks loaded at once
 * as lane_edge (two inputs).  Nothing outside x[0 .. n-1] and y[0 .. n-1]
 * is read. */
template <class Op>
__device__ __noinline__ typename Op::Acc lane_edge_dot(const typename Op::In *x,
                                                       const typename Op::In *y, uint64_t n,
                                                       uint64_t tile) {
  using In = typename Op::In;
  using Acc = typename Op::Acc;
  using P = ElementPair<In>;
  constexpr int B = kEdgeChunks<In> > 1 ? kEdgeChunks<In> / 2 : 1;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  return fold_edge<Acc, P, V, B>(
      Op::identity(), n, tile, [&](uint64_t i) { return P{x[i], y[i]}; },
      [](const Acc &acc, const P (&e)[V], uint64_t first, int count) {
        return fold_each(acc, e, first, count, [](const Acc &a, const P &p, uint64_t i) {
          return Op::combine(a, Op::lift2(p.x, p.y, i));
        });
      });
}

/* One input of AgentDot: its elements, its address modulo 16 and the
 * 16-byte block it starts in. */
template <class In> struct DotInput {
  const In *x;
  unsigned misalign;
  const uint4 *blocks;
  __device__ __forceinline__ explicit DotInput(const void *p)
      : x(static_cast<const In *>(p)),
        misalign((unsigned)(reinterpret_cast<uintptr_t>(p) % GR_CHUNK_BYTES)),
        blocks(reinterpret_cast<const uint4 *>(static_cast<const char *>(p) - misalign)) {}
};

template <class Op> class AgentDot {
 public:
  using Acc = typename Op::Acc;
  using In = typename Op::In;

  /* Shared memory of one block: the lane tree's double buffer, the stack
   * of order/tree.h's counter, and for each misaligned input the blocks
   * its lanes 31 take from other warps (share_firsts, agent/reduce.cuh),
   * for even and odd tiles: next[input][tile % 2]. */
  struct TempStorage {
    Acc buf[kLaneBuffers<Op>][kThreads];
    Acc stack[kStackDepth];
    NextBlocksPair next[2];
  };

  /* The vectors x and y (each aligned to the element size) and their n
   * elements. */
  __device__ __forceinline__ AgentDot(TempStorage &temp, const void *x, const void *y, uint64_t n)
      : temp_(temp), x_(x), y_(y), n_(n) {}

  /* The value of the tiles [t0, t1), an aligned power-of-two group, in
   * thread 0, as AgentReduce::consume_range (the 16 loads of a tile are in
   * flight together). */
  __device__ __forceinline__ Acc consume_range(uint64_t t0, uint64_t t1) {
    return fold_tiles<Op>(temp_.buf, temp_.stack, parity_, t0, t1,
                          [&](uint64_t tile) { return consume_tile(tile); });
  }

 private:
  /* Chunk k of this lane of input q: the loaded block, or for a
   * misaligned input that block and the next (neighbour_block), shifted. */
  __device__ __forceinline__ uint4 chunk(int q, int k, const uint4 &a, unsigned m,
                                         uint64_t tile) const {
    if (m == 0) return a;
    return shift_pair(a, neighbour_block(temp_.next[q][tile % 2], k, a), m);
  }

  __device__ __forceinline__ Acc consume_tile(uint64_t tile) {
    const DotInput<In> x(x_), y(y_);
    const uint64_t bytes = n_ * sizeof(In);
    /* the same for the whole block */
    if (!tile_interior(tile, x.misalign, bytes) || !tile_interior(tile, y.misalign, bytes))
      return lane_edge_dot<Op>(x.x, y.x, n_, tile);
    uint4 ax[kChunksPerLane], ay[kChunksPerLane];
    load_lane(x.blocks, tile, ax);
    load_lane(y.blocks, tile, ay);
    if (x.misalign | y.misalign) {
      /* next[q][tile % 2] is written again for the tile after next, by a
       * thread past the next tile's barrier (as AgentReduce) */
      if (x.misalign) share_firsts(temp_.next[0][tile % 2], ax, load_after(x.blocks, tile));
      if (y.misalign) share_firsts(temp_.next[1][tile % 2], ay, load_after(y.blocks, tile));
      __syncthreads();
    }
    constexpr int V = GR_CHUNK_BYTES / sizeof(In);
    const uint64_t c0 = tile * GR_TILE_CHUNKS + threadIdx.x;
    Acc acc = Op::identity();
    static_for<0, kChunksPerLane>([&](auto k) {
      fold_pair<Op>(acc, chunk(0, k.value, ax[k.value], x.misalign, tile),
                    chunk(1, k.value, ay[k.value], y.misalign, tile),
                    (c0 + (uint64_t)k.value * kThreads) * V);
    });
    return acc;
  }

  TempStorage &temp_;
  const void *x_, *y_;
  uint64_t n_;
  int parity_ = 0;
};

/* The agent of Op: AgentDot for two inputs, AgentReduce otherwise. */
template <class Op, bool Two = IsTwoInput<Op>::value> struct AgentOf {
  using type = AgentReduce<Op>;
};
template <class Op> struct AgentOf<Op, true> {
  using type = AgentDot<Op>;
};

/* Fold the loaded chunk pair (cx of x, cy of y: the same elements, the
 * same count) into acc, element by element in index order. */
template <class Op>
__device__ __forceinline__ void fold_loaded_pair(typename Op::Acc &acc, const ChunkData &cx,
                                                 const ChunkData &cy, uint64_t e0) {
  fold_pairs<Op>(acc, cx.raw, cy.raw, e0, cx.count);
}

/* warp_tile for the dot product: the value of tile `tile` of the
 * contiguous vectors x and y (n elements each), computed by the 32 threads
 * of a warp (thread t), in lane 0. */
template <class Op>
__device__ __forceinline__ typename Op::Acc warp_tile_dot(const typename Op::In *x,
                                                          const typename Op::In *y, uint64_t n,
                                                          uint64_t tile, unsigned t) {
  using Acc = typename Op::Acc;
  constexpr int V = GR_CHUNK_BYTES / sizeof(typename Op::In);
  Acc lane[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) lane[j] = Op::identity();
  const uint64_t tile_first = tile * GR_TILE_CHUNKS * V;
#pragma unroll 1
  for (int k = 0; k < kChunksPerLane; ++k) {
    const uint64_t round_first = tile_first + (uint64_t)k * kThreads * V;
    if (round_first >= n) break; /* the same for the whole warp */
    ChunkData cx[8], cy[8];
    load_warp_round(x, 1, n, round_first, t, cx);
    load_warp_round(y, 1, n, round_first, t, cy);
#pragma unroll
    for (int j = 0; j < 8; ++j)
      fold_loaded_pair<Op>(lane[j], cx[j], cy[j], round_first + (uint64_t)(t + 32 * j) * V);
  }
  return warp_lane_tree<Op>(combine_eight<Op>(lane));
}

} /* namespace gr */

#endif /* GR_CUDA_AGENT_DOT_CUH */
