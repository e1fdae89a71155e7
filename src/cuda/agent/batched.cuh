/*
 * cuda/agent/batched.cuh - the agent layer of the batched kernels: how
 * threads compute the order of doc/ORDER.md for one vector of a batch,
 * whatever its strides.
 *
 * A vector of the batch is `n` elements `x[i * stride]` (stride in
 * elements, any sign).  Its chunks, lanes and tiles are those of
 * doc/ORDER.md, counted in element indices of the vector, so every kernel
 * here gives the bits gpureduce_reduce() gives for the vector copied to a
 * buffer of its own.  Three ways to share a vector's lanes among threads,
 * one per regime (kernel/batched.cuh says which kernel uses which):
 *
 *   segment  G threads (a power of two up to 32, G >= the vector's chunks)
 *            share a vector of at most 32 chunks: thread t holds lane t,
 *            one chunk; the lane tree is G-wide warp shuffles (the levels
 *            above G combine empty lanes, the identity, and change
 *            nothing).
 *   warp     32 threads share a vector of any length, a tile at a time:
 *            thread t holds the lanes t, t+32, ..., t+224, as the block
 *            layer's lane tree does (block/reduce.cuh), with 16-byte loads
 *            where the chunk is whole and aligned.
 *   columns  8 threads share a vector, thread y holding the lanes
 *            y + 8i, folded in the order the lane tree combines them
 *            (bit-reversed i, order/tree.h's counter): the columns
 *            kernel, where the threads of a warp are neighbouring
 *            vectors.
 *
 * Loads never touch an element outside the vector: whole-chunk loads only
 * for chunks inside it, scalar loads of the elements below n otherwise.
 */
#ifndef GR_CUDA_AGENT_BATCHED_CUH
#define GR_CUDA_AGENT_BATCHED_CUH

#include <cstdint>
#include <cstring>

#include "cuda/agent/reduce.cuh"
#include "cuda/dispatch/dispatch.cuh"
#include "cuda/thread/ops.cuh"
#include "cuda/warp/reduce.cuh"
#include "order/order.h"
#include "order/tree.h"

namespace gr {

/* Up to V elements of one chunk as loaded: `count` of them (0 .. V) are
 * the vector's, starting at element index `first`. */
struct ChunkData {
  uint4 raw;
  int count;
};

/* The first `count` elements of the chunk at e0 by scalar loads, packed
 * as a chunk (the rest zero). */
template <class In>
__device__ __forceinline__ uint4 gather_chunk(const In *x, int64_t stride, uint64_t e0,
                                              int count) {
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  In e[V];
#pragma unroll
  for (int j = 0; j < V; ++j) e[j] = j < count ? x[(int64_t)(e0 + j) * stride] : In(0);
  uint4 raw;
  memcpy(&raw, e, sizeof e);
  return raw;
}

/* The same, out of line: for kernels that hold many chunks, where the
 * edge chunks it serves are rare and the registers of an inlined gather
 * (16 of them for 8-bit elements) would spill. */
template <class In>
__device__ __noinline__ uint4 gather_chunk_call(const In *x, int64_t stride, uint64_t e0,
                                                int count) {
  return gather_chunk(x, stride, e0, count);
}

/* The 16 bytes that start m bytes (0 < m < 16) into the aligned block b0,
 * b1 being the block after it. */
__device__ __forceinline__ uint4 shift_pair(const uint4 &b0, const uint4 &b1, unsigned m) {
  const unsigned rbits = (m % 4) * 8;
  switch (m / 4) {
    case 0: return shift_chunk<0>(b0, b1, rbits);
    case 1: return shift_chunk<1>(b0, b1, rbits);
    case 2: return shift_chunk<2>(b0, b1, rbits);
    default: return shift_chunk<3>(b0, b1, rbits);
  }
}

/* Load the chunk of vector x (n elements, stride) whose first element is
 * e0: one 16-byte load when the chunk is whole, contiguous and aligned,
 * two aligned loads and a funnel shift when it is whole and contiguous but
 * misaligned (both 16-byte blocks inside the vector), else scalar loads of
 * the elements below n (inlined when InlineGather). */
template <class In, bool InlineGather = true>
__device__ __forceinline__ ChunkData load_vector_chunk(const In *x, int64_t stride, uint64_t n,
                                                       uint64_t e0) {
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  ChunkData c;
  c.raw = make_uint4(0, 0, 0, 0);
  c.count = e0 >= n ? 0 : (n - e0 >= (uint64_t)V ? V : (int)(n - e0));
  if (c.count == V && stride == 1) {
    const In *p = x + e0;
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    const unsigned m = (unsigned)(a % GR_CHUNK_BYTES);
    if (m == 0) {
      c.raw = load_chunk(reinterpret_cast<const uint4 *>(p));
      return c;
    }
    const uintptr_t lo = a - m;
    if (lo >= reinterpret_cast<uintptr_t>(x) &&
        lo + 2 * GR_CHUNK_BYTES <= reinterpret_cast<uintptr_t>(x + n)) {
      const uint4 *blk = reinterpret_cast<const uint4 *>(lo);
      c.raw = shift_pair(load_chunk(blk), load_chunk(blk + 1), m);
      return c;
    }
  }
  if (c.count > 0)
    c.raw = InlineGather ? gather_chunk(x, stride, e0, c.count)
                         : gather_chunk_call(x, stride, e0, c.count);
  return c;
}

/* Fold a loaded chunk into a lane's accumulator, element by element in
 * index order (rule 3), or whole where the operation folds chunks. */
template <class Op>
__device__ __forceinline__ void fold_loaded(typename Op::Acc &acc, const ChunkData &c,
                                            uint64_t e0) {
  using In = typename Op::In;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  In e[V];
  memcpy(e, &c.raw, sizeof e);
  if constexpr (HasChunkFold<Op>::value) {
    if (c.count > 0) acc = Op::fold_run(acc, e, 0, (int)c.count);
  } else {
#pragma unroll
    for (int j = 0; j < V; ++j)
      if (j < c.count) acc = fold_element<Op>(acc, e[j], e0 + j);
  }
}

/* Rule 4's levels 4G, 2G and G for the eight lanes t + G*j (j = 0..7) one
 * thread holds: lane j with j+4, then j with j+2, then j with j+1. */
template <class Op>
__device__ __forceinline__ typename Op::Acc combine_eight(const typename Op::Acc (&v)[8]) {
  return Op::combine(Op::combine(Op::combine(v[0], v[4]), Op::combine(v[2], v[6])),
                     Op::combine(Op::combine(v[1], v[5]), Op::combine(v[3], v[7])));
}

/* The chunks q0 + t + 32j (j < 8) of a contiguous vector x of n elements
 * that starts m bytes (0 < m < 16) past a 16-byte boundary, for thread t
 * of a warp: each chunk straddles two aligned blocks, and each thread loads
 * one block, the one its chunk starts in, and takes the next from its
 * neighbour (lane t+1, or lane 0's next j; lane 31's last from one more
 * load), so a round costs one load a chunk, not two.  A block not wholly
 * inside the vector is not loaded: its chunk is gathered. */
template <class In>
__device__ __forceinline__ void load_shifted_round(const In *x, uint64_t n, uint64_t q0,
                                                   unsigned m, unsigned t, ChunkData (&c)[8]) {
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  const uintptr_t base = reinterpret_cast<uintptr_t>(x) - m; /* block 0 */
  const uintptr_t end = reinterpret_cast<uintptr_t>(x + n);
  uint4 blk[9];
  bool have[9];
#pragma unroll
  for (int j = 0; j <= 8; ++j) {
    const uint64_t q = q0 + t + 32 * (j < 8 ? j : 7) + (j < 8 ? 0 : 1);
    const uintptr_t lo = base + (uintptr_t)q * GR_CHUNK_BYTES;
    have[j] = q >= 1 && lo + GR_CHUNK_BYTES <= end && (j < 8 || t == 31);
    blk[j] = have[j] ? load_chunk(reinterpret_cast<const uint4 *>(lo)) : make_uint4(0, 0, 0, 0);
  }
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    /* what lane t-1 needs from this one: block j here, or block j+1 for lane 31 */
    const uint4 give = t == 0 ? blk[j + 1 < 8 ? j + 1 : 7] : blk[j];
    uint4 next;
    next.x = __shfl_sync(0xffffffffu, give.x, (t + 1) & 31);
    next.y = __shfl_sync(0xffffffffu, give.y, (t + 1) & 31);
    next.z = __shfl_sync(0xffffffffu, give.z, (t + 1) & 31);
    next.w = __shfl_sync(0xffffffffu, give.w, (t + 1) & 31);
    if (j == 7 && t == 31) next = blk[8];
    const uint64_t q = q0 + t + 32 * j;
    const uint64_t e0 = q * V;
    c[j].count = e0 >= n ? 0 : (n - e0 >= (uint64_t)V ? V : (int)(n - e0));
    const uintptr_t after = base + (uintptr_t)(q + 1) * GR_CHUNK_BYTES;
    const bool next_inside = after + GR_CHUNK_BYTES <= end;
    if (c[j].count == V && have[j] && next_inside)
      c[j].raw = shift_pair(blk[j], next, m);
    else if (c[j].count > 0)
      c[j].raw = gather_chunk_call(x, 1, e0, c[j].count);
    else
      c[j].raw = make_uint4(0, 0, 0, 0);
  }
}

/* The chunks round_first/V + t + 32j (j < 8) of vector x for thread t of
 * a warp, one round of warp_tile: shifted loads (load_shifted_round) when
 * the vector is contiguous and misaligned, else load_vector_chunk. */
template <class In>
__device__ __forceinline__ void load_warp_round(const In *x, int64_t stride, uint64_t n,
                                                uint64_t round_first, unsigned t,
                                                ChunkData (&c)[8]) {
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  const unsigned m = (unsigned)(reinterpret_cast<uintptr_t>(x) % GR_CHUNK_BYTES);
  if (stride == 1 && m != 0) { /* the same for the whole warp */
    load_shifted_round(x, n, round_first / V, m, t, c);
  } else {
#pragma unroll
    for (int j = 0; j < 8; ++j)
      c[j] = load_vector_chunk<In, false>(x, stride, n, round_first + (uint64_t)(t + 32 * j) * V);
  }
}

/* warp: the value of tile `tile` of vector x, computed by the 32 threads of
 * a warp (thread t = lane of the warp), in lane 0. */
template <class Op>
__device__ __forceinline__ typename Op::Acc warp_tile(const typename Op::In *x, int64_t stride,
                                                      uint64_t n, uint64_t tile, unsigned t) {
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
    ChunkData c[8];
    load_warp_round(x, stride, n, round_first, t, c);
#pragma unroll
    for (int j = 0; j < 8; ++j)
      fold_loaded<Op>(lane[j], c[j], round_first + (uint64_t)(t + 32 * j) * V);
  }
  return warp_lane_tree<Op>(combine_eight<Op>(lane));
}

/* columns: thread y (0 <= y < kColumnLaneThreads = 8) of a column's
 * threads folds the lanes y, y+8, y+16, ... of tile `tile` of vector x
 * and returns their part of the lane tree, Value(y, 8): the levels whose
 * pairs are both its own.  The tile's lanes holding elements are
 * 0 .. C-1; with P the power of two at or above C (at most 256), the
 * lanes P and up are empty, so rule 4 is the tree over lanes 0 .. P-1,
 * whose leaf order is the lane index with its log2(P) bits reversed
 * (level s pairs lanes l and l+s, so the root splits on bit 0 of the lane
 * index, its children on bit 1, and so on).  Thread y's lanes y + 8*i
 * are therefore folded in the order of i's bits reversed, through
 * order/tree.h's counter; the caller combines the 8 threads' values with
 * the levels 4, 2 and 1. */
template <class Op>
__device__ typename Op::Acc column_lanes(const typename Op::In *x, int64_t stride, uint64_t n,
                                         uint64_t tile, unsigned y) {
  using Acc = typename Op::Acc;
  constexpr int V = GR_CHUNK_BYTES / sizeof(typename Op::In);
  const uint64_t first_chunk = tile * GR_TILE_CHUNKS;
  const uint64_t chunks_left = (n + V - 1) / V - first_chunk;
  const unsigned c = chunks_left < (uint64_t)kThreads ? (unsigned)chunks_left : kThreads;
  const unsigned lanes = c <= 8 ? 1u : ((1u << (32 - __clz(c - 1))) / 8); /* P/8, or 1 */
  const int bits = 31 - __clz(lanes);
  Acc stack[6], r = Op::identity();
#pragma unroll 1
  for (unsigned m = 0; m < lanes; ++m) {
    const unsigned l = y + 8u * (bits ? __brev(m) >> (32 - bits) : 0u);
    Acc a = Op::identity();
    ChunkData d[kChunksPerLane];
#pragma unroll
    for (int k = 0; k < kChunksPerLane; ++k)
      d[k] = load_vector_chunk(x, stride, n, (first_chunk + l + (uint64_t)k * kThreads) * V);
#pragma unroll
    for (int k = 0; k < kChunksPerLane; ++k)
      fold_loaded<Op>(a, d[k], (first_chunk + l + (uint64_t)k * kThreads) * V);
    GR_TREE_PUSH(stack, m, a, Op::combine);
  }
  GR_TREE_FOLD(stack, lanes, r, Op::combine);
  return r;
}

} /* namespace gr */

#endif /* GR_CUDA_AGENT_BATCHED_CUH */
