/*
 * cuda/agent/reduce.cuh - the agent layer: what one block of 256 threads
 * does with a range of tiles of one vector.
 *
 * AgentReduce<Op> is made for one vector (its first element and its n
 * elements) and works in element indices relative to that start: tile t is
 * the vector's elements t*2048*V .. (t+1)*2048*V-1, whatever the vector's
 * address.  The vector's alignment is taken from its own address, so
 * vectors that start anywhere in an array (the rows of a matrix, say) each
 * get their own.  consume_range(t0, t1) reduces the tiles t0 .. t1-1, an
 * aligned power-of-two group (a subtree of rule 5, order/tree.h), and
 * gives the group's value in thread 0.
 *
 * Per tile: each of the 256 threads is one lane of the order and loads its
 * 8 chunks of 16 bytes at once (8 loads in flight), folds them with the
 * policy's lane (thread/fold.cuh), then the block combines the lane values
 * in the lane tree (block/reduce.cuh); for the operations whose value does
 * not depend on the order of combination, each thread combines its lane
 * values of the whole range first and the block runs one lane tree a
 * range (fold_tiles).  Misaligned input is read with
 * aligned 16-byte loads, by the policy's Shift: for the operations the
 * order decides, with funnel shifts, two loads a chunk, or one, the
 * second block taken from the neighbouring lane (share_firsts); for those
 * it does not decide, in realigned tiles, those of the aligned blocks
 * from the 16-byte boundary below the vector, loaded and folded as
 * aligned input's (consume_realigned).  Tiles touching either end of the
 * vector read nothing outside its [first element, first element + n):
 * under kRealign each chunk inside it with one 16-byte load and the
 * elements of a chunk that reaches past it each alone, all folded by the
 * policy's lane, and the elements of the vector before its first chunk
 * boundary or past its last realigned tile one a thread
 * (lane_edge_realigned); under the other shifts element by element
 * (lane_edge).
 */
#ifndef GR_CUDA_AGENT_REDUCE_CUH
#define GR_CUDA_AGENT_REDUCE_CUH

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda/block/reduce.cuh"
#include "cuda/thread/ops.cuh"
#include "cuda/tuning/policy.cuh"
#include "order/order.h"
#include "order/tree.h"

namespace gr {

constexpr int kChunksPerLane = GR_CHUNKS_PER_LANE;
constexpr int kStackDepth = 64;

__device__ __forceinline__ uint4 load_chunk(const uint4 *p) { return __ldg(p); }

/* The same, not kept in L1 (Load::kNoAllocate, tuning/policy.cuh). */
__device__ __forceinline__ uint4 load_chunk_no_allocate(const uint4 *p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  uint4 v;
  asm("ld.global.nc.L1::no_allocate.L2::128B.v4.u32 {%0, %1, %2, %3}, [%4];"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
      : "l"(p));
  return v;
#else
  return __ldg(p);
#endif
}

template <Load L> __device__ __forceinline__ uint4 load_chunk_as(const uint4 *p) {
  if constexpr (L == Load::kNoAllocate)
    return load_chunk_no_allocate(p);
  else
    return load_chunk(p);
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

/* The 8 chunks lane threadIdx.x owns in a tile of 16-byte-aligned input,
 * loaded as L says (tuning/policy.cuh). */
template <Load L = Load::kCached>
__device__ __forceinline__ void load_lane(const uint4 *chunks, uint64_t tile,
                                          uint4 (&v)[kChunksPerLane]) {
  const uint64_t c0 = tile * GR_TILE_CHUNKS + threadIdx.x;
#pragma unroll
  for (int k = 0; k < kChunksPerLane; ++k) v[k] = load_chunk_as<L>(chunks + c0 + k * kThreads);
}

/* Lane value of an interior tile whose chunk k (0..7) chunk(k) gives,
 * k a std::integral_constant: the policy's lane over the 8 chunks.  The
 * chunks' element indices are their positions in the tile less `skew`
 * (Shift::kRealign: the tiles of the aligned blocks below a misaligned
 * vector, which start skew elements before it). */
template <class Op, class Chunk>
__device__ __forceinline__ typename Op::Acc fold_chunks(uint64_t tile, Chunk &&chunk,
                                                        unsigned skew = 0) {
  /* every thread of the block folds an interior tile: the lanes of a whole
   * warp where the operation has them */
  using L = typename std::conditional<HasChunkFold<Op>::value, WarpChunkLane<Op>,
                                      typename PolicyOf<Op>::Lane>::type;
  constexpr int V = GR_CHUNK_BYTES / sizeof(typename Op::In);
  const uint64_t first = (tile * GR_TILE_CHUNKS + threadIdx.x) * V - skew;
  typename L::State s = L::init();
  static_for<0, kChunksPerLane>([&](auto k) {
    L::template chunk<k.value>(s, chunk(k), first + (uint64_t)k.value * kThreads * V);
  });
  return L::finish(s, first);
}

/* Lane value of an interior tile from its loaded chunks (skew: as
 * fold_chunks). */
template <class Op>
__device__ __forceinline__ typename Op::Acc fold_lane(const uint4 (&v)[kChunksPerLane],
                                                      uint64_t tile, unsigned skew = 0) {
  return fold_chunks<Op>(tile, [&](auto k) { return v[k.value]; }, skew);
}

/* f(std::integral_constant<int, Q>()) for Q = m / 4, m (1..15) the bytes
 * past a 16-byte boundary: shift_chunk's word offset as a constant. */
template <class F>
__device__ __forceinline__ auto with_word_offset(unsigned m, F &&f) {
  switch (m / 4) {
    case 0: return f(std::integral_constant<int, 0>());
    case 1: return f(std::integral_constant<int, 1>());
    case 2: return f(std::integral_constant<int, 2>());
    default: return f(std::integral_constant<int, 3>());
  }
}

/* Misaligned input, one aligned load a chunk.  When the input starts m
 * bytes (0 < m < 16) past a 16-byte boundary, chunk c is the bytes m ..
 * m+15 of the aligned blocks c and c+1.  Each thread loads block c (the one
 * its chunk starts in, as load_lane) and takes block c+1 from the thread
 * that loaded it: lane l+1 of its warp by a shuffle, or for lane 31 lane 0
 * of the next warp (warp 7's lane 0 of the next round, and in round 7 the
 * first block after the tile), through shared memory.  So a tile costs
 * 2048 loads and one barrier, not 4096 loads.  `next` is the shared memory
 * of those lane-31 blocks, [warp][round]. */
using NextBlocks = uint4[kWarps][kChunksPerLane];
/* Two of them, one for the even tiles and one for the odd ones, so that
 * one barrier a tile separates a tile's reads from the writes of the tile
 * after next, with or without a lane tree a tile (fold_tiles). */
using NextBlocksPair = NextBlocks[2];

/* The first block after tile `tile` (thread 255 needs it in round 7);
 * other threads get zeros and load nothing. */
__device__ __forceinline__ uint4 load_after(const uint4 *blocks, uint64_t tile) {
  uint4 v = make_uint4(0, 0, 0, 0);
  if (threadIdx.x == kThreads - 1) v = load_chunk(blocks + (tile + 1) * GR_TILE_CHUNKS);
  return v;
}

/* Publish what lane 31 of each warp needs: lane 0's loaded blocks a[k] to
 * the warp before (warp 0's, from round 1 on, to warp 7's round before),
 * and thread 255's `after` (load_after) for round 7.  Every thread calls
 * it; a barrier must follow before neighbour_block reads. */
__device__ __forceinline__ void share_firsts(NextBlocks &next, const uint4 (&a)[kChunksPerLane],
                                             const uint4 &after) {
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) {
#pragma unroll
    for (int k = 0; k < kChunksPerLane; ++k) {
      if (warp > 0) next[warp - 1][k] = a[k];
      else if (k > 0) next[kWarps - 1][k - 1] = a[k];
    }
  }
  if (threadIdx.x == kThreads - 1) next[kWarps - 1][kChunksPerLane - 1] = after;
}

/* Block c+1 of this thread's round k, whose own block c is a: from lane
 * l+1 by a shuffle, or for lane 31 from `next` (share_firsts). */
__device__ __forceinline__ uint4 neighbour_block(const NextBlocks &next, int k, const uint4 &a) {
  uint4 b;
  b.x = __shfl_down_sync(0xffffffffu, a.x, 1);
  b.y = __shfl_down_sync(0xffffffffu, a.y, 1);
  b.z = __shfl_down_sync(0xffffffffu, a.z, 1);
  b.w = __shfl_down_sync(0xffffffffu, a.w, 1);
  if (threadIdx.x % 32 == 31) b = next[threadIdx.x / 32][k];
  return b;
}

/* Lane value of an interior tile when the input is misaligned by
 * m = 4*Q + rbits/8 bytes, by two loads a chunk (Shift::kTwoLoads):
 * `blocks` is input - m, 16-byte aligned; chunk c is the bytes m .. m+15
 * of blocks c and c+1. */
template <class Op, int Q>
__device__ __forceinline__ typename Op::Acc lane_two_loads(const uint4 *blocks,
                                                           uint64_t tile,
                                                           unsigned rbits) {
  const uint64_t c0 = tile * GR_TILE_CHUNKS + threadIdx.x;
  uint4 a[kChunksPerLane], b[kChunksPerLane];
#pragma unroll
  for (int k = 0; k < kChunksPerLane; ++k) {
    a[k] = load_chunk(blocks + c0 + k * kThreads);
    b[k] = load_chunk(blocks + c0 + k * kThreads + 1);
  }
  return fold_chunks<Op>(tile,
                         [&](auto k) { return shift_chunk<Q>(a[k.value], b[k.value], rbits); });
}

/* Lane value of an interior tile when the input is misaligned by
 * m = 4*Q + rbits/8 bytes, by one load a chunk (Shift::kNeighbour): a[k]
 * holds block c0 + 256k of the aligned blocks (load_lane from input - m),
 * and `next` what share_firsts put there for this tile. */
template <class Op, int Q>
__device__ __forceinline__ typename Op::Acc fold_shifted(const uint4 (&a)[kChunksPerLane],
                                                         const NextBlocks &next, uint64_t tile,
                                                         unsigned rbits) {
  return fold_chunks<Op>(tile, [&](auto k) {
    return shift_chunk<Q>(a[k.value], neighbour_block(next, k.value, a[k.value]), rbits);
  });
}

/* The lane value of an edge tile, a tile that touches an end of its
 * vector (lane_edge, lane_edge_dot): the lane's elements below n only,
 * each loaded by load(i) (its element i, or for two inputs the pair), a
 * chunk's at a time combined by fold(acc, e, first, count), which folds
 * the chunk's elements e[0 .. count-1] (of indices first ..) in index
 * order.  Where the next B chunks lie wholly below n, their elements are
 * all loaded before any is combined, so those loads are in flight
 * together; combining each element as it came kept one load in flight at
 * a time for the ops whose combine branches (the arg ops, float min and
 * max, mean_var): 128 round trips a tile for 8-bit elements.  The chunks
 * that reach past n are loaded element by element as far as n, and the
 * lane stops at its first chunk that starts at or past n (H200, 8-bit arg
 * ops at n = 2^10: 5.1 us, against 7.6 walking the rest). */
template <class Acc, class E, int V, int B, class Load, class Fold>
__device__ __forceinline__ Acc fold_edge(Acc acc, uint64_t n, uint64_t tile, Load &&load,
                                         Fold &&fold) {
  const uint64_t lane_first = (tile * GR_TILE_CHUNKS + threadIdx.x) * V;
#pragma unroll 1
  for (int k0 = 0; k0 < kChunksPerLane; k0 += B) {
    if (lane_first + (uint64_t)k0 * kThreads * V >= n) break; /* the rest lie past n */
    const uint64_t last = lane_first + (uint64_t)(k0 + B - 1) * kThreads * V;
    if (last + V <= n) {
      E e[B][V];
#pragma unroll
      for (int b = 0; b < B; ++b)
#pragma unroll
        for (int j = 0; j < V; ++j) e[b][j] = load(lane_first + (uint64_t)(k0 + b) * kThreads * V + j);
#pragma unroll
      for (int b = 0; b < B; ++b)
        acc = fold(acc, e[b], lane_first + (uint64_t)(k0 + b) * kThreads * V, V);
    } else {
#pragma unroll 1
      for (int k = k0; k < k0 + B; ++k) {
        const uint64_t first = lane_first + (uint64_t)k * kThreads * V;
        if (first >= n) break;
        const int count = n - first < (uint64_t)V ? (int)(n - first) : V;
        E e[V];
#pragma unroll
        for (int j = 0; j < V; ++j) e[j] = j < count ? load(first + j) : E{};
        acc = fold(acc, e, first, count);
      }
    }
  }
  return acc;
}

/* fold_edge's fold from the fold of one element, fold(acc, e, i). */
template <class Acc, class E, int V, class Fold>
__device__ __forceinline__ Acc fold_each(Acc acc, const E (&e)[V], uint64_t first, int count,
                                         Fold &&fold) {
#pragma unroll
  for (int j = 0; j < V; ++j)
    if (j < count) acc = fold(acc, e[j], first + j);
  return acc;
}

/* Chunks an edge tile's lane loads at once where they lie below n
 * (fold_edge): 16 elements, or 8 of 64 bits (ptxas, sm_90: no kernel's
 * registers or spill grow; 32 elements took the sums' from 60 to 78). */
template <class In>
constexpr int kEdgeChunks = (sizeof(In) == 8 ? 8 : 16) * (int)sizeof(In) / GR_CHUNK_BYTES;

/* fold_edge for an operation with a counted fold (MEAN_VAR,
 * HasCountedFold): the lane's elements below n are a prefix of its
 * elements (the edge tile's start is the vector's, or n cuts each lane's
 * chunks short), so the one at position C of the lane (chunk k, element
 * j: C = kV + j) is folded with C before it, by Op::fold_nth<C>, the same
 * bits as combine(acc, lift(x)) without combine's division.  The loop is
 * unrolled for the constant C; loads as fold_edge's, B chunks at once,
 * each element alone, and none past n; batches that start at or past n
 * are skipped, and those that end below it (every batch of a misaligned
 * vector's first tile, unless n is that short) are loaded and folded
 * without a test an element.  H200, 3 past alignment at 2^20, against
 * combine(acc, lift(x)), a division an element in a chain: f16 14.1 ->
 * 9.3 us, i8 23.9 -> 20.6; without the tests, i8 20.9 -> 16.7
 * (doc/TUNING.md, "Edge tiles"). */
template <class Op>
__device__ __forceinline__ typename Op::Acc fold_edge_counted(const typename Op::In *x,
                                                              uint64_t n, uint64_t tile) {
  using In = typename Op::In;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  constexpr int B = kEdgeChunks<In>;
  const uint64_t lane_first = (tile * GR_TILE_CHUNKS + threadIdx.x) * V;
  typename Op::Acc acc = Op::identity();
  /* batch q of the lane's chunks, with a test an element below n or
   * (Guarded false: the whole batch lies below n) without */
  auto fold_batch = [&](auto q, auto guarded) {
    constexpr bool Guarded = decltype(guarded)::value;
    const uint64_t batch = lane_first + (uint64_t)(q.value * B) * kThreads * V;
    In e[B][V];
#pragma unroll
    for (int b = 0; b < B; ++b)
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const uint64_t i = batch + (uint64_t)b * kThreads * V + j;
        e[b][j] = !Guarded || i < n ? x[i] : In{};
      }
    static_for<0, B>([&](auto b) {
      const uint64_t first = batch + (uint64_t)b.value * kThreads * V;
      static_for<0, V>([&](auto j) {
        if (!Guarded || first + j.value < n)
          Op::template fold_nth<(q.value * B + b.value) * V + j.value>(acc, e[b.value][j.value]);
      });
    });
  };
  static_for<0, kChunksPerLane / B>([&](auto q) {
    const uint64_t batch = lane_first + (uint64_t)(q.value * B) * kThreads * V;
    if (batch + (uint64_t)(B - 1) * kThreads * V + V <= n)
      fold_batch(q, std::false_type());
    else if (batch < n)
      fold_batch(q, std::true_type());
  });
  return acc;
}

/* Lane value of a tile that touches an end of the vector x[0 .. n-1]
 * (fold_edge, by chunks where the operation folds chunks whole, or
 * fold_edge_counted): nothing outside it is read. */
template <class Op>
__device__ __noinline__ typename Op::Acc lane_edge(const typename Op::In *x,
                                                   uint64_t n, uint64_t tile) {
  using In = typename Op::In;
  using Acc = typename Op::Acc;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  if constexpr (HasCountedFold<Op>::value) {
    return fold_edge_counted<Op>(x, n, tile);
  } else {
    return fold_edge<Acc, In, V, kEdgeChunks<In>>(
        Op::identity(), n, tile, [&](uint64_t i) { return x[i]; },
        [](const Acc &acc, const In (&e)[V], uint64_t first, int count) {
          if constexpr (HasChunkFold<Op>::value)
            return Op::fold_run(acc, e, 0, count);
          else
            return fold_each(acc, e, first, count, [](const Acc &a, const In &el, uint64_t i) {
              return fold_element<Op>(a, el, i);
            });
        });
  }
}

/* Chunks lane_edge_realigned loads at once: two round trips to memory a
 * lane, 16 registers of data.  ptxas, sm_90: no reduce_kernel or
 * batched_tiles_kernel of these operations spills; all 8 at once, or 4 in
 * a __noinline__ call, spilled 8 to 140 bytes at 4 blocks. */
constexpr int kEdgeBatch = kChunksPerLane / 2;

/* Do the policy's lanes of Op fold a chunk of neutral elements as
 * nothing (neutral_element): the integer sums and products, and NRM2. */
template <class Op>
constexpr bool kHasNeutral = Op::kFamily == OpFamily::kSum || Op::kFamily == OpFamily::kProd ||
                             Op::kFamily == OpFamily::kNrm2;

/* The element that changes no sum, product or sum of squares: Op's
 * identity narrowed to an element (0 or 1), and 0 for NRM2 (its square
 * +0 joins a sum of squares, which is +0 or more, exactly). */
template <class Op> __device__ __forceinline__ typename Op::In neutral_element() {
  static_assert(kHasNeutral<Op>, "min, max and the arg ops have no such element");
  if constexpr (Op::kFamily == OpFamily::kNrm2)
    return typename Op::In(0);
  else
    return Op::E::narrow(Op::identity());
}

/* Padding that changes no lane value where it stands after the elements
 * it pads: for the integer sums and products their neutral elements, and
 * for min, max, argmin and argmax copies of an element before it (`dup`),
 * which never replace the original: min and max keep one value, and an
 * arg op's ties and NaNs keep the earlier element (thread/fold.cuh,
 * ArgLane and Byte8ArgLane). */
template <class Op>
__device__ __forceinline__ typename Op::In pad_element(typename Op::In dup) {
  if constexpr (kHasNeutral<Op>) {
    return neutral_element<Op>();
  } else {
    static_assert(Op::kFamily == OpFamily::kMinMax || Op::kFamily == OpFamily::kArg,
                  "a copy pads only the operations that keep one element");
    return dup;
  }
}

/* The chunk of elements first .. first+V-1 of xs, first below `end`, with
 * those at or past `end` padded (pad_element, after a copy of element
 * first), each loaded alone. */
template <class Op>
__device__ __forceinline__ uint4 partial_chunk(const typename Op::In *xs, uint64_t first,
                                               uint64_t end) {
  using In = typename Op::In;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  In e[V];
  e[0] = xs[first];
  const In pad = pad_element<Op>(e[0]);
#pragma unroll
  for (int j = 1; j < V; ++j) e[j] = first + j < end ? xs[first + j] : pad;
  uint4 v;
  memcpy(&v, e, sizeof v);
  return v;
}

/* The chunk thread 0 of a misaligned tile 0 folds in place of its chunk
 * 0, which begins before the vector (lane_edge_realigned): all neutral
 * for the sums and products, otherwise `dup`, a copy of its chunk 1
 * (drop_head_copy moves an arg op's index off the copy). */
template <class Op>
__device__ __forceinline__ uint4 pad_chunk(const uint4 &dup) {
  if constexpr (kHasNeutral<Op>) {
    using In = typename Op::In;
    In e[GR_CHUNK_BYTES / sizeof(In)];
#pragma unroll
    for (int j = 0; j < (int)(GR_CHUNK_BYTES / sizeof(In)); ++j) e[j] = neutral_element<Op>();
    uint4 v;
    memcpy(&v, e, sizeof v);
    return v;
  } else {
    return dup;
  }
}

/* An arg op's lane value whose chunk 0 was a copy of its chunk 1 (thread
 * 0 of a misaligned tile 0 in lane_edge_realigned), `first` the index of
 * the lane's first element: an index in the copy becomes the same
 * element's in chunk 1, which holds the same value and is the first of
 * that value there, since ties and NaNs keep the earlier element.  Other
 * operations' values have no index. */
template <class Op>
__device__ __forceinline__ typename Op::Acc drop_head_copy(typename Op::Acc acc, uint64_t first) {
  if constexpr (Op::kFamily == OpFamily::kArg) {
    constexpr uint64_t V = GR_CHUNK_BYTES / sizeof(typename Op::In);
    if (acc.i - first < V) acc.i += (uint64_t)kThreads * V;
  }
  return acc;
}

/* Lane value of an edge tile under Shift::kRealign, for the vector of n
 * elements xs[skew .. skew+n-1], where xs is the 16-byte boundary at or
 * below its first element, skew elements before it.  The realigned view's
 * tile t is xs[t*T .. t*T+T-1] (T elements a tile), its element indices
 * less skew.  Nothing outside the vector is read:
 *   - the lane loads its chunks that lie wholly in xs[skew .. skew+n-1]
 *     16 bytes at once, kEdgeBatch at a time, all of a batch before any is
 *     folded, and the elements of the one chunk that reaches past the
 *     vector's end each alone; thread 0's chunk 0 of tile 0, when the
 *     vector is misaligned, is not loaded: its first skew elements lie
 *     before the vector;
 *   - the policy's lane folds the chunks as an interior tile's, up to
 *     the last that starts in the vector (leaving out those past it is
 *     folding padding), with what is not in the vector padded so that it
 *     changes nothing (pad_element, pad_chunk): an element past the end
 *     by its chunk's first, thread 0's chunk 0 of a misaligned tile 0 by
 *     its chunk 1 (drop_head_copy).  A lane whose first folded chunk
 *     (chunk 1 for that thread 0) starts past the end folds nothing;
 *   - tile 0's chunk 0's V - skew elements in the vector are folded one a
 *     thread, by threads 0 .. V-skew-1; and the realigned tiles of the
 *     vector's ceil(n/T) tiles end skew elements short of its last tile's
 *     end, so the last tile's threads 0 .. skew-1 take those past it.
 * Chunks loaded 16 bytes at once and folded by the lane (H200, u8 argmin
 * at 2^18, 3 past alignment: 8.27 us, against 15.90 element by element
 * and 7.85 aligned).  Only for the operations whose value does not depend
 * on the order of combination. */
template <class Op>
__device__ __forceinline__ typename Op::Acc lane_edge_realigned(const typename Op::In *xs,
                                                                uint64_t n, unsigned skew,
                                                                uint64_t tile) {
  using In = typename Op::In;
  using Acc = typename Op::Acc;
  using L = typename PolicyOf<Op>::Lane;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  static_assert(Op::kOrderFree, "the head and the spill join the lane values out of order");
  const uint4 *blocks = reinterpret_cast<const uint4 *>(xs);
  const uint64_t end = n + skew;
  const unsigned t = threadIdx.x;
  /* the head's element skew + t, when it is in the vector */
  const bool head = tile == 0 && skew != 0 && skew + t < V && skew + t < end;
  In h{};
  if (head) h = xs[skew + t];
  /* the spill: the element after + t, past the last tile */
  const uint64_t after = (tile + 1) * GR_TILE_CHUNKS * V; /* the tile's end in xs */
  const bool spill = after >= n && after + t < end;
  In s{};
  if (spill) s = xs[after + t];
  /* thread 0 of a misaligned tile 0, whose chunk 0 is not loaded */
  const bool head_lane = tile == 0 && skew != 0 && t == 0;
  const uint64_t c0 = tile * GR_TILE_CHUNKS + t;
  Acc acc = Op::identity();
  /* the lane's first folded chunk starts in the vector */
  if ((c0 + (head_lane ? kThreads : 0)) * V < end) {
    const uint64_t first = c0 * V - skew;
    typename L::State st = L::init();
    static_for<0, kChunksPerLane / kEdgeBatch>([&](auto b) {
      uint4 v[kEdgeBatch];
#pragma unroll
      for (int i = 0; i < kEdgeBatch; ++i) {
        const uint64_t c = c0 + (uint64_t)(b.value * kEdgeBatch + i) * kThreads;
        const bool skip = b.value == 0 && i == 0 && head_lane;
        v[i] = make_uint4(0, 0, 0, 0);
        if ((c + 1) * V <= end && !skip) v[i] = load_chunk(blocks + c);
        else if (c * V < end && !skip) v[i] = partial_chunk<Op>(xs, c * V, end);
      }
      if (b.value == 0 && head_lane) v[0] = pad_chunk<Op>(v[1]);
      /* chunk 0 always (in the vector, or the head's copy), the rest
       * while they start in it: folding no chunk past the end is folding
       * padding */
      static_for<0, kEdgeBatch>([&](auto i) {
        constexpr int k = b.value * kEdgeBatch + i.value;
        if (k == 0 || (c0 + (uint64_t)k * kThreads) * V < end)
          L::template chunk<k>(st, v[i.value], first + (uint64_t)k * kThreads * V);
      });
    });
    acc = L::finish(st, first);
    if (head_lane) acc = drop_head_copy<Op>(acc, first);
  }
  if (head) acc = fold_element<Op>(acc, h, t);
  if (spill) acc = fold_element<Op>(acc, s, after + t - skew);
  return acc;
}

/* Is the tile interior to a vector of n_bytes bytes that starts `misalign`
 * bytes past a 16-byte boundary: does every 16-byte block its chunks are
 * loaded from (with a shift: one more) lie inside the vector? */
__device__ __forceinline__ bool tile_interior(uint64_t tile, unsigned misalign,
                                              uint64_t n_bytes) {
  const uint64_t end_block = (tile + 1) * GR_TILE_CHUNKS + (misalign ? 1 : 0);
  return (misalign == 0 || tile > 0) && end_block * 16 <= n_bytes + misalign;
}

/* The same under Shift::kRealign (lane_edge_realigned), whose tile t is
 * the aligned blocks 2048t .. 2048t+2047 from the 16-byte boundary at or
 * below the vector: inside the vector, and when misaligned not the
 * vector's last tile, which takes the elements past the realigned tiles. */
__device__ __forceinline__ bool realigned_interior(uint64_t tile, unsigned misalign,
                                                   uint64_t n_bytes) {
  const uint64_t end = (tile + 1) * GR_TILE_CHUNKS * GR_CHUNK_BYTES;
  return misalign == 0 ? end <= n_bytes : tile > 0 && end < n_bytes;
}

/* The most tiles LaneTree::kPerTileGroup takes at a time (one a warp),
 * and the lane buffers of fold_tiles: 2 (a double buffer), or kTileGroup. */
constexpr int kTileGroup = kWarps;
template <class Op>
constexpr int kLaneBuffers = PolicyOf<Op>::tree == LaneTree::kPerTileGroup ? kTileGroup : 2;

/* The lane trees of `count` (1 to kTileGroup) tiles at once
 * (LaneTree::kPerTileGroup): each thread's lane value of the j-th,
 * lane(j), in buf[j]; the j-th tile's lane tree by warp j; its value in
 * buf[j][0] for every thread after the call (lane 0 of warp j reads no
 * other lane's slot 0).  Every thread of the block calls it; the next
 * call may follow at once, buf[j][0] read before it by the thread that
 * writes buf[j][0] in it (thread 0). */
template <class Op, int B, class Lane>
__device__ __forceinline__ void fold_tile_group(typename Op::Acc (&buf)[B][kThreads],
                                                unsigned count, Lane &&lane) {
  static_assert(B == kTileGroup, "a lane buffer a warp");
#pragma unroll 1
  for (unsigned j = 0; j < count; ++j) buf[j][threadIdx.x] = lane(j);
  __syncthreads();
  const unsigned w = threadIdx.x / 32;
  if (w < count) {
    const typename Op::Acc z = warp_lane_tree_of<Op>(buf[w], threadIdx.x % 32);
    if (threadIdx.x % 32 == 0) buf[w][0] = z;
  }
  __syncthreads();
}

/* The tiles [t0, t1) of an aligned power-of-two group: each tile's lane
 * values (lane(tile), every thread its own) through the lane tree into
 * the tile tree; the group's value in thread 0.  buf and stack are the
 * agent's shared memory, parity its half of the double buffer.  The
 * agents' one loop over a range (AgentReduce, AgentDot).
 *
 * With the policy's LaneTree::kPerRange (tuning/policy.cuh), for an operation
 * whose value does not depend on the order of combination (the integer
 * sums and products, which wrap, min, max, argmin and argmax, whose
 * combine is a total order on value and index), each thread combines its
 * lane values of all the range's tiles and the block runs one lane tree
 * for the range: the same bits, and no lane tree a tile (a misaligned
 * tile of Shift::kNeighbour keeps its barrier).  The lane tree of every
 * tile costs a barrier, and eight shared-memory reads and a dozen combines
 * in warp 0 while the other warps wait at the next tile's barrier.
 * lockstep: a barrier before each tile all the same, so that the block's
 * warps load one tile at a time, as under kPerTile (AgentReduce asks for
 * it when its 16-byte blocks start 16 bytes off a 32-byte boundary; H200,
 * f64 max at 2^30, 3 past alignment: 1893 us, against 2075 without;
 * doc/TUNING.md, "One lane tree a range"). */
template <class Op, int B, class Lane>
__device__ __forceinline__ typename Op::Acc fold_tiles(typename Op::Acc (&buf)[B][kThreads],
                                                       typename Op::Acc *stack, int &parity,
                                                       uint64_t t0, uint64_t t1, Lane &&lane,
                                                       bool lockstep = false) {
  static_assert(B == kLaneBuffers<Op>, "the agent's lane buffers");
  if constexpr (PolicyOf<Op>::tree == LaneTree::kPerRange) {
    typename Op::Acc v = Op::identity();
    for (uint64_t tile = t0; tile < t1; ++tile) {
      if (lockstep) __syncthreads();
      v = Op::combine(v, lane(tile));
    }
    v = lane_tree<Op>(v, buf[parity]);
    parity ^= 1;
    return v;
  } else {
    if constexpr (PolicyOf<Op>::tree == LaneTree::kPerTileGroup) {
      /* up to 8 tiles at a time, one a warp (fold_tile_group) */
      for (uint64_t tile = t0; tile < t1; tile += kTileGroup) {
        const unsigned count = t1 - tile < kTileGroup ? (unsigned)(t1 - tile) : kTileGroup;
        fold_tile_group<Op>(buf, count, [&](unsigned j) { return lane(tile + j); });
        if (threadIdx.x == 0) {
#pragma unroll 1
          for (unsigned j = 0; j < count; ++j) {
            typename Op::Acc v = buf[j][0];
            GR_TREE_PUSH(stack, tile + j - t0, v, Op::combine);
          }
        }
      }
    } else {
      for (uint64_t tile = t0; tile < t1; ++tile) {
        typename Op::Acc v = lane_tree<Op>(lane(tile), buf[parity]);
        parity ^= 1;
        if (threadIdx.x == 0) GR_TREE_PUSH(stack, tile - t0, v, Op::combine);
      }
    }
    typename Op::Acc r = Op::identity();
    if (threadIdx.x == 0) GR_TREE_FOLD(stack, t1 - t0, r, Op::combine);
    return r;
  }
}

template <class Op> class AgentReduce {
 public:
  using Acc = typename Op::Acc;
  using In = typename Op::In;

  /* Shared memory of one block: the lane tree's double buffer (8 buffers
   * under LaneTree::kPerTileGroup), the stack of order/tree.h's counter,
   * and the lane-31 blocks of misaligned input (share_firsts), for even
   * and odd tiles. */
  struct TempStorage {
    Acc buf[kLaneBuffers<Op>][kThreads];
    Acc stack[kStackDepth];
    NextBlocksPair next;
  };

  /* The vector's first element (aligned to its element size) and its n
   * elements. */
  __device__ __forceinline__ AgentReduce(TempStorage &temp, const void *vector, uint64_t n)
      : temp_(temp),
        x_(static_cast<const In *>(vector)),
        n_(n),
        misalign_((unsigned)(reinterpret_cast<uintptr_t>(vector) % GR_CHUNK_BYTES)),
        blocks_(reinterpret_cast<const uint4 *>(static_cast<const char *>(vector) - misalign_)) {}
  /* The same, from the kernels' parameters, which name a second input for
   * the two-input operations (AgentDot) only. */
  __device__ __forceinline__ AgentReduce(TempStorage &temp, const void *vector, const void *,
                                         uint64_t n)
      : AgentReduce(temp, vector, n) {}

  /* The value of the tiles [t0, t1), an aligned power-of-two group, in
   * thread 0 (the other threads' return value is unspecified).  Every
   * thread of the block calls it. */
  __device__ __forceinline__ Acc consume_range(uint64_t t0, uint64_t t1) {
    /* lockstep where the 16-byte blocks start 16 bytes off a 32-byte
     * sector, so that a warp's 512 bytes touch 17 sectors */
    return fold_tiles<Op>(temp_.buf, temp_.stack, parity_, t0, t1,
                          [&](uint64_t tile) { return consume_tile(tile); },
                          reinterpret_cast<uintptr_t>(blocks_) % 32 != 0);
  }

  /* LaneTree::kPerTileGroup: the groups first, first + stride, ... below
   * `groups`, each of 2^group_log2 tiles of the vector's `tiles` (the last
   * group of the vector fewer), as consume_range gives each, their tiles
   * taken 8 at a time in that order whatever the groups they belong to
   * (fold_tile_group), so that single-tile groups too fill the 8 warps.
   * Thread 0 calls put(group, value) for each group. */
  template <class Put>
  __device__ __forceinline__ void consume_groups(uint64_t first, uint64_t stride, uint64_t groups,
                                                 unsigned group_log2, uint64_t tiles, Put &&put) {
    if (first >= groups) return;
    const uint64_t mine = (groups - first + stride - 1) / stride;
    const uint64_t size = (uint64_t)1 << group_log2;
    const uint64_t last = first + (mine - 1) * stride;
    const uint64_t count = (mine - 1) * size + (min(last * size + size, tiles) - last * size);
    for (uint64_t q0 = 0; q0 < count; q0 += kTileGroup) {
      const unsigned n = count - q0 < kTileGroup ? (unsigned)(count - q0) : kTileGroup;
      fold_tile_group<Op>(temp_.buf, n, [&](unsigned j) {
        const uint64_t q = q0 + j;
        return consume_tile((first + (q >> group_log2) * stride) * size + (q & (size - 1)));
      });
      if (threadIdx.x == 0) {
#pragma unroll 1
        for (unsigned j = 0; j < n; ++j) {
          const uint64_t q = q0 + j, k = q & (size - 1);
          const uint64_t group = first + (q >> group_log2) * stride;
          const uint64_t group_tiles = min(group * size + size, tiles) - group * size;
          Acc v = temp_.buf[j][0];
          GR_TREE_PUSH(temp_.stack, k, v, Op::combine);
          if (k + 1 == group_tiles) {
            Acc r = Op::identity();
            GR_TREE_FOLD(temp_.stack, group_tiles, r, Op::combine);
            put(group, r);
          }
        }
      }
    }
  }

 private:
  /* interior: every chunk's 16-byte blocks lie inside the vector (bytes
   * counted from blocks_; computed here rather than kept, which saved ptxas
   * registers in the bf16 min/max kernels) */
  __device__ __forceinline__ bool interior(uint64_t tile) const {
    return tile_interior(tile, misalign_, n_ * sizeof(In));
  }

  /* This thread's lane value of one tile.  The policy's shift says how
   * misaligned tiles load (Shift, tuning/policy.cuh): with kRealign as aligned
   * ones, from the 16-byte boundary below the vector (consume_realigned);
   * with kTwoLoads each chunk's two blocks; with kNeighbour the aligned
   * blocks aligned input loads, one more a tile (load_after), and the rest
   * from the neighbouring lane. */
  __device__ __forceinline__ Acc consume_tile(uint64_t tile) {
    if constexpr (PolicyOf<Op>::shift == Shift::kRealign)
      return consume_realigned(tile);
    else
      return consume_shifted(tile);
  }

  /* Shift::kRealign: the tiles of the aligned blocks from blocks_, which
   * is skew elements before the vector; every interior tile is loaded and
   * folded as aligned input's, its indices less skew, and the vector's
   * first and last tiles are edge tiles (lane_edge_realigned). */
  __device__ __forceinline__ Acc consume_realigned(uint64_t tile) {
    const unsigned skew = misalign_ / (unsigned)sizeof(In);
    if (!realigned_interior(tile, misalign_, n_ * sizeof(In)))
      return lane_edge_realigned<Op>(reinterpret_cast<const In *>(blocks_), n_, skew, tile);
    uint4 cur[kChunksPerLane];
    load_lane<PolicyOf<Op>::load>(blocks_, tile, cur);
    return fold_lane<Op>(cur, tile, skew);
  }

  /* Shift::kTwoLoads and kNeighbour: the tiles of the order, aligned or
   * misaligned. */
  __device__ __forceinline__ Acc consume_shifted(uint64_t tile) {
    if (!interior(tile)) return lane_edge<Op>(x_, n_, tile);
    const unsigned rbits = (misalign_ % 4) * 8;
    if constexpr (PolicyOf<Op>::shift == Shift::kTwoLoads) {
      if (misalign_ != 0)
        return with_word_offset(misalign_, [&](auto q) {
          return lane_two_loads<Op, q.value>(blocks_, tile, rbits);
        });
    }
    uint4 cur[kChunksPerLane];
    load_lane<PolicyOf<Op>::load>(blocks_, tile, cur);
    const uint4 after = misalign_ != 0 ? load_after(blocks_, tile) : make_uint4(0, 0, 0, 0);
    if constexpr (PolicyOf<Op>::shift == Shift::kTwoLoads) {
      return fold_lane<Op>(cur, tile); /* aligned: misaligned tiles returned above */
    } else {
      if (misalign_ == 0) return fold_lane<Op>(cur, tile);
      /* next[tile % 2] is written again for the tile after next, by a
       * thread that has passed the next tile's barrier, which every
       * thread passes only once it has folded this tile */
      NextBlocks &next = temp_.next[tile % 2];
      share_firsts(next, cur, after);
      __syncthreads();
      return with_word_offset(misalign_, [&](auto q) {
        return fold_shifted<Op, q.value>(cur, next, tile, rbits);
      });
    }
  }

  TempStorage &temp_;
  const In *x_;
  uint64_t n_;
  unsigned misalign_; /* the vector's address modulo 16, in bytes */
  const uint4 *blocks_; /* the vector's address rounded down to 16 bytes */
  int parity_ = 0;
};

} /* namespace gr */

#endif /* GR_CUDA_AGENT_REDUCE_CUH */
