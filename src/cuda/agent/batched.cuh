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
 *   columns  Y threads share a vector, thread y holding the lanes
 *            y + Yi, folded in the order the lane tree combines them
 *            (bit-reversed i, order/tree.h's counter): the columns
 *            kernel, where the threads of a warp are neighbouring
 *            vectors, which load 16-byte pieces of a matrix together.
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

/* ARGMIN's and ARGMAX's tree over the positions of a chunk whose first
 * `count` (0 .. V) elements are in e: val[j] the element j widened, or
 * the identity's value from `count` on, which never wins; pos[j] = j;
 * then the levels below `width` (a power of two, at most V): for step =
 * 1, 2, .. < width, at every j that is a multiple of 2 * step, position
 * j + step replaces position j by ArgLane's rule (thread/fold.cuh: a NaN
 * is never replaced and replaces any number, otherwise only a strictly
 * better value wins).  Then (val[k * width], pos[k * width]) is the best
 * of the elements k * width .. (k + 1) * width - 1 and its first
 * position, as their fold in index order gives: the operation's value
 * does not depend on the order of combination. */
template <class Op>
__device__ __forceinline__ void arg_tree(
    const typename Op::In (&e)[GR_CHUNK_BYTES / sizeof(typename Op::In)], int count,
    unsigned width, typename Op::W (&val)[GR_CHUNK_BYTES / sizeof(typename Op::In)],
    int (&pos)[GR_CHUNK_BYTES / sizeof(typename Op::In)]) {
  using W = typename Op::W;
  constexpr int V = GR_CHUNK_BYTES / sizeof(typename Op::In);
  const W worst = Op::identity().v;
#pragma unroll
  for (int j = 0; j < V; ++j) {
    val[j] = j < count ? (W)Op::E::widen(e[j]) : worst;
    pos[j] = j;
  }
#pragma unroll
  for (int step = 1; step < V; step *= 2)
#pragma unroll
    for (int j = 0; j + step < V; j += 2 * step) {
      const W a = val[j], b = val[j + step];
      const bool take = (unsigned)step < width && ArgLane<Op, Op::kIsMax>::take(a, b);
      val[j] = take ? b : a;
      pos[j] = take ? pos[j + step] : pos[j];
    }
}

/* MIN's or MAX's best of two floats that lets NaNs through: the
 * canonical NaN where either is a NaN, else the better of the two, -0
 * below +0 (PTX ISA, max and min).  One instruction from sm_80 on (PTX
 * max.NaN.f32); before it, fmax or fmin and a NaN test. */
template <bool IsMax> __device__ __forceinline__ float best_or_nan(float a, float b) {
#if __CUDA_ARCH__ >= 800
  float d;
  if constexpr (IsMax) asm("max.NaN.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  else asm("min.NaN.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  return d;
#else
  const float m = IsMax ? fmaxf(a, b) : fminf(a, b);
  return is_nan(a) || is_nan(b) ? __uint_as_float(0x7fffffffu) : m;
#endif
}

/* The elements of a chunk of 16- or 32-bit floats widened to float, the
 * places from `count` on holding Op's identity (MIN's or MAX's), then
 * the levels of a tree over them below `width` (a power of two, at most
 * V): for step = 1, 2, .. < width, v[j] = best_or_nan(v[j], v[j + step])
 * at every j that is a multiple of 2 * step.  Then v[k * width] is the
 * best of the elements k * width .. (k + 1) * width - 1, or the canonical
 * NaN where there is a NaN among them: in MinMax's order, the NaN's bits
 * apart (finish makes a NaN canonical), what their fold in index order
 * gives, since the best of them does not depend on the order. */
template <class Op>
__device__ __forceinline__ void minmax_tree(
    const typename Op::In (&e)[GR_CHUNK_BYTES / sizeof(typename Op::In)], int count,
    unsigned width, float (&v)[GR_CHUNK_BYTES / sizeof(typename Op::In)]) {
  constexpr int V = GR_CHUNK_BYTES / sizeof(typename Op::In);
#pragma unroll
  for (int j = 0; j < V; ++j) v[j] = j < count ? (float)Op::E::widen(e[j]) : Op::identity();
#pragma unroll
  for (int step = 1; step < V; step *= 2)
#pragma unroll
    for (int j = 0; j + step < V; j += 2 * step)
      if ((unsigned)step < width) v[j] = best_or_nan<Op::kIsMax>(v[j], v[j + step]);
}

/* Do the batched kernels fold Op's chunks by minmax_tree: MIN and MAX of
 * the 16- and 32-bit floats (a float accumulator)? */
template <class Op>
constexpr bool kMinMaxChunk = Op::kFamily == OpFamily::kMinMax && Op::E::is_float &&
                              std::is_same<typename Op::Acc, float>::value;

/* Fold a loaded chunk into a lane's accumulator, element by element in
 * index order (rule 3), whole where the operation folds chunks, for
 * ARGMIN and ARGMAX by arg_tree and one combine, and for MIN and MAX of
 * the 16- and 32-bit floats by minmax_tree and one combine.  LOGSUMEXP's
 * chunk fold is inline, so that a thread's chunks overlap their exps, or
 * with Call the one out-of-line LogSumExp::fold_run_count: the segment
 * windows and the columns kernel's partial rounds, whose chunks come one
 * at a time, and the long segments' warp tiles (doc/TUNING.md,
 * "LOGSUMEXP's calls"). */
template <class Op, bool Call = false>
__device__ __forceinline__ void fold_loaded(typename Op::Acc &acc, const ChunkData &c,
                                            uint64_t e0) {
  using In = typename Op::In;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  In e[V];
  memcpy(e, &c.raw, sizeof e);
  if constexpr (Op::kFamily == OpFamily::kArg) {
    if (c.count > 0) {
      typename Op::W val[V];
      int pos[V];
      arg_tree<Op>(e, c.count, V, val, pos);
      acc = Op::combine(acc, typename Op::Acc{val[0], e0 + (uint64_t)pos[0]});
    }
  } else if constexpr (kMinMaxChunk<Op>) {
    if (c.count > 0) {
      float v[V];
      minmax_tree<Op>(e, c.count, V, v);
      acc = Op::combine(acc, v[0]);
    }
  } else if constexpr (HasChunkFold<Op>::value) {
    if (c.count > 0) {
      if constexpr (Call)
        acc = Op::template fold_run_count<V>(acc, c.raw, c.count);
      else
        acc = Op::fold_run(acc, e, 0, (int)c.count);
    }
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
 * a warp (thread t = lane of the warp), in lane 0; Call as fold_loaded's. */
template <class Op, bool Call = false>
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
      fold_loaded<Op, Call>(lane[j], c[j], round_first + (uint64_t)(t + 32 * j) * V);
  }
  return warp_lane_tree<Op>(combine_eight<Op>(lane));
}

/* columns: the block's threads are X neighbouring vectors (x, fastest)
 * times Y = 256 / X threads a vector (y), and thread y folds the lanes
 * y, y+Y, y+2Y, ... of a tile.  Where the vectors are the columns of a
 * matrix whose rows are 16-byte aligned (batch stride 1), the loads are
 * 16-byte pieces of the matrix shared by a group of Q neighbouring
 * threads (Q = V, or Q = the matrix's C < V columns where its rows are
 * contiguous): the piece q of a chunk holds V/Q rows of the group's Q
 * columns, and the group's pieces go through shared memory (a warp's
 * round of pieces, `stage`) so that each thread reads its own column's
 * chunk.  Elsewhere (Q = 1) a thread gathers its own column's elements.
 * Which thread loads an element changes which thread adds it, never the
 * order. */
template <class In> struct ColumnLoads {
  const In *x;     /* the thread's vector */
  const In *group; /* the first vector of the thread's group (Q > 1) */
  int64_t stride;  /* element stride of the vectors */
  uint64_t n;
  unsigned q, q_log2; /* the thread's place in its group, log2(Q) */
  unsigned q_rows;    /* the rows before piece q of a chunk: q V/Q */
  unsigned group_vectors; /* vectors of the group inside the batch, <= Q */
  bool valid;       /* the thread's vector is inside the batch */
};

/* Pieces a warp stages at once (kColumnStage rounds of 32). */
constexpr int kColumnStage = 8;

/* Where warp lane s's piece goes in a round of 32: an XOR swizzle that
 * spreads both the 16-byte stores and the reads of one column's elements
 * over the shared-memory banks. */
__device__ __forceinline__ unsigned column_slot(unsigned s) { return s ^ ((s >> 3) & 7u); }

/* The elements of a piece at p that lie inside the matrix (rows below
 * `rows`, vectors below `vectors`), zeros elsewhere: the pieces at the
 * matrix's edges, out of line. */
template <class In>
__device__ __noinline__ uint4 gather_piece(const In *p, int64_t stride, uint64_t rows,
                                           unsigned q_log2, unsigned vectors) {
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  In e[V];
#pragma unroll
  for (int i = 0; i < V; ++i) {
    const uint64_t r = (unsigned)i >> q_log2;
    const unsigned v = (unsigned)i & ((1u << q_log2) - 1);
    e[i] = r < rows && v < vectors ? p[(int64_t)r * stride + v] : In(0);
  }
  uint4 raw;
  memcpy(&raw, e, sizeof e);
  return raw;
}

/* Piece q of the group's chunk whose first row is r0: its V elements, the
 * rows r0 + q V/Q .. and the group's Q vectors, as they lie in memory (a
 * 16-byte load where the piece is whole, zeros past the ends). */
template <class In>
__device__ __forceinline__ uint4 load_column_piece(const ColumnLoads<In> &c, uint64_t r0) {
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  const unsigned Q = 1u << c.q_log2;
  const uint64_t first = r0 + c.q_rows;
  const In *p = c.group + (int64_t)first * c.stride;
  if (c.group_vectors == Q && first + (V >> c.q_log2) <= c.n)
    return load_chunk(reinterpret_cast<const uint4 *>(p));
  return gather_piece(p, c.stride, c.n - first, c.q_log2, c.group_vectors);
}

/* Item m's lane in a lane tree of 2^bits lanes fed to order/tree.h's
 * counter: m's low `bits` bits reversed, so that the counter builds rule
 * 4's tree, whose root splits on bit 0 of the lane index (level 1 pairs
 * lanes l and l+1). */
__device__ __forceinline__ unsigned reversed_lane(unsigned m, unsigned bits) {
  return bits ? __brev(m) >> (32 - bits) : 0u;
}

/* The shape of one tile of the columns kernel's vectors for thread y of
 * Y: the tile's lanes holding elements are 0 .. C-1; with P the power of
 * two at or above C (at most 256), the lanes P and up are empty, so rule
 * 4 is the tree over lanes 0 .. P-1, whose leaf order is the lane index
 * with its log2(P) bits reversed (level s pairs lanes l and l+s, so the
 * root splits on bit 0 of the lane index, its children on bit 1, and so
 * on).  Thread y's lanes y + Y*i therefore enter order/tree.h's counter
 * in the order of i's bits reversed.  Item i of the thread is chunk
 * k = i mod K of its lane number m = i / K in that order, K the chunks
 * of the tile's fullest lane rounded up to 1, 2, 4 or 8. */
struct ColumnTile {
  uint64_t first_chunk;
  unsigned lanes, bits; /* the thread's lanes, log2 of it */
  unsigned k_log2;      /* log2(K) */
  unsigned items;       /* lanes * K */
  unsigned y, Y;

  __device__ ColumnTile(uint64_t n, int v, uint64_t tile, unsigned y_, unsigned Y_)
      : first_chunk(tile * GR_TILE_CHUNKS), y(y_), Y(Y_) {
    const uint64_t left = (n + v - 1) / v - first_chunk;
    const unsigned c = left < GR_TILE_CHUNKS ? (unsigned)left : GR_TILE_CHUNKS;
    const unsigned p = c >= kThreads ? kThreads : 1u << (32 - __clz(c - 1));
    lanes = p > Y ? p / Y : 1u;
    bits = 31 - __clz(lanes);
    const unsigned most = (c + kThreads - 1) / kThreads; /* 1 .. 8 */
    k_log2 = most <= 1 ? 0u : most <= 2 ? 1u : most <= 4 ? 2u : 3u;
    items = lanes << k_log2;
  }
  /* Is the round from item i0 whole lanes (8/K of them, K >= 2), every
   * chunk inside the vector? */
  __device__ bool whole_round(unsigned i0, uint64_t n, int v) const {
    return k_log2 != 0 && i0 + kColumnStage <= items && first_of(i0 + 7, v) + v <= n;
  }
  /* the first element (vector index) of item i */
  __device__ uint64_t first_of(unsigned i, int v) const {
    const unsigned m = i >> k_log2, k = i & ((1u << k_log2) - 1);
    const unsigned l = y + Y * (bits ? __brev(m) >> (32 - bits) : 0u);
    return (first_chunk + l + (uint64_t)k * kThreads) * v;
  }
};

/* The loads of items i0 .. i0 + kColumnStage - 1 of tile t: this thread's
 * piece of each (Q > 1), or its own vector's chunk (Q = 1); zeros past
 * the items and the vector. */
template <class In>
__device__ __forceinline__ void column_round(const ColumnLoads<In> &c, const ColumnTile &t,
                                             unsigned i0, uint4 (&raw)[kColumnStage]) {
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  static_assert(kColumnStage == kChunksPerLane, "a whole lane a round");
  if (t.whole_round(i0, c.n, V) && c.q_log2 != 0 && c.group_vectors == (1u << c.q_log2)) {
    /* whole lanes, every piece whole: 16-byte loads, no test */
#pragma unroll
    for (int s = 0; s < kColumnStage; ++s)
      raw[s] = load_chunk(reinterpret_cast<const uint4 *>(
          c.group + (int64_t)(t.first_of(i0 + s, V) + c.q_rows) * c.stride));
    return;
  }
#pragma unroll
  for (int s = 0; s < kColumnStage; ++s) {
    const uint64_t e0 = t.first_of(i0 + s, V);
    raw[s] = make_uint4(0, 0, 0, 0);
    if (i0 + s >= t.items || e0 >= c.n) continue;
    if (c.q_log2 != 0)
      raw[s] = load_column_piece(c, e0);
    else if (c.valid)
      raw[s] = gather_chunk(c.x, c.stride, e0, c.n - e0 >= (uint64_t)V ? V : (int)(c.n - e0));
  }
}

/* The counter of a thread's lanes: at most 128 (Y >= 2). */
constexpr int kColumnLaneStack = 8;

/* A round of whole lanes, 8/K of them (K = 2^KL chunks each), each folded
 * by the policy's lane as the 1-D agent folds an interior tile's (the
 * lane starts from the identity, and its chunks are 256 apart) and
 * entered into the counter. */
template <class Op, int KL, class ChunkOf>
__device__ __forceinline__ void fold_whole_lanes(typename Op::Acc (&stack)[kColumnLaneStack],
                                                 const ColumnTile &t, unsigned i0,
                                                 ChunkOf &&chunk_of) {
  using L = typename PolicyOf<Op>::Lane;
  constexpr int V = GR_CHUNK_BYTES / sizeof(typename Op::In), K = 1 << KL;
  static_for<0, (kColumnStage >> KL)>([&](auto m) {
    const unsigned i = i0 + m.value * K;
    const uint64_t first = t.first_of(i, V);
    typename L::State st = L::init();
    static_for<0, K>([&](auto k) {
      L::template chunk<k.value>(st, chunk_of(m.value * K + k.value),
                                 first + (uint64_t)k.value * kThreads * V);
    });
    typename Op::Acc v = L::finish(st, first);
    GR_TREE_PUSH(stack, i >> KL, v, Op::combine);
  });
}

/* Thread y's part of rule 4 for tile `t` of its vector: its lanes (the
 * tile's ColumnTile), folded and entered into the counter in the tree's
 * order, and their value, Value(y, Y): the levels whose pairs are both
 * its own; the caller combines the Y threads' values with the levels
 * Y/2, ..., 1.  `raw` holds the tile's first round of loads on entry
 * (column_round), and on return the first round of tile `next`, if any:
 * each round's loads are in flight while the round before is folded.
 * A round goes through the warp's `stage`: every thread writes its loads,
 * and reads its own vector's chunks back, element j of its chunk being
 * element j*Q + q of its group's Q pieces.  Every thread of a warp takes
 * part (the stage's __syncwarp). */
template <class Op>
__device__ typename Op::Acc column_lanes(const ColumnLoads<typename Op::In> &c,
                                         const ColumnTile &t, const ColumnTile *next,
                                         uint4 (&raw)[kColumnStage],
                                         uint4 (&stage)[kColumnStage][32]) {
  using In = typename Op::In;
  using Acc = typename Op::Acc;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  const unsigned s_lane = threadIdx.x % 32, kmask = (1u << t.k_log2) - 1;
  /* where element j of this thread's chunk lies in a round of the stage */
  unsigned at[V];
#pragma unroll
  for (int j = 0; j < V; ++j) {
    const unsigned f = ((unsigned)j << c.q_log2) + c.q;
    at[j] = column_slot(s_lane - c.q + f / V) * GR_CHUNK_BYTES + f % V * sizeof(In);
  }
  const unsigned char *base = reinterpret_cast<const unsigned char *>(stage);
  auto chunk_of = [&](int s) {
    In e[V];
#pragma unroll
    for (int j = 0; j < V; ++j)
      e[j] = *reinterpret_cast<const In *>(base + s * 32 * GR_CHUNK_BYTES + at[j]);
    uint4 raw_s;
    memcpy(&raw_s, e, sizeof e);
    return raw_s;
  };
  Acc stack[kColumnLaneStack], r = Op::identity(), a = Op::identity();
#pragma unroll 1
  for (unsigned i0 = 0; i0 < t.items; i0 += kColumnStage) {
#pragma unroll
    for (int s = 0; s < kColumnStage; ++s) stage[s][column_slot(s_lane)] = raw[s];
    __syncwarp();
    if (i0 + kColumnStage < t.items)
      column_round(c, t, i0 + kColumnStage, raw);
    else if (next)
      column_round(c, *next, 0, raw);
    if (t.whole_round(i0, c.n, V)) {
      if (t.k_log2 == 3)
        fold_whole_lanes<Op, 3>(stack, t, i0, chunk_of);
      else if (t.k_log2 == 2)
        fold_whole_lanes<Op, 2>(stack, t, i0, chunk_of);
      else
        fold_whole_lanes<Op, 1>(stack, t, i0, chunk_of);
    } else {
#pragma unroll
      for (int s = 0; s < kColumnStage; ++s) {
        const unsigned i = i0 + s;
        const uint64_t e0 = t.first_of(i, V);
        ChunkData d;
        d.count = i < t.items && c.valid && e0 < c.n
                      ? (c.n - e0 >= (uint64_t)V ? V : (int)(c.n - e0))
                      : 0;
        d.raw = chunk_of(s);
        fold_loaded<Op, true>(a, d, e0);
        if ((i & kmask) == kmask) {
          if (i < t.items) GR_TREE_PUSH(stack, i >> t.k_log2, a, Op::combine);
          a = Op::identity();
        }
      }
    }
    __syncwarp(); /* the stage is read before the next round writes it */
  }
  GR_TREE_FOLD(stack, t.lanes, r, Op::combine);
  return r;
}

} /* namespace gr */

#endif /* GR_CUDA_AGENT_BATCHED_CUH */
