/*
 * cuda/kernel/segments.cuh - the grid layer of gpureduce_reduce_segments():
 * one kernel, one launch per call, each segment in the order of
 * doc/ORDER.md, so result s has the bits of the 1-D reduction of segment s
 * alone.
 *
 * Load balance (a merge-path split, after Merrill and Garland,
 * "Merge-based Parallel Sparse Matrix-Vector Multiplication", SC 2016).
 * Segment s sits at position pos(s) = (offsets[s] - offsets[0]) + s*V on a
 * line of total = (offsets[segments] - offsets[0]) + segments*V units:
 * its elements, plus a chunk's worth (V elements) for the segment itself
 * (its offsets and its result).  Every warp of the grid owns an equal
 * share of the line, [w*share, (w+1)*share), and the cost of a call
 * follows elements + segments whatever the lengths, with no length hint
 * and no pass before the kernel:
 *
 *   - warp w reduces the segments whose position falls in its share,
 *     s_start(w) <= s < s_start(w+1), s_start(w) the first segment at or
 *     after w*share (a 32-way search of the offsets by the warp);
 *   - short segments go 128 at a time: when they are all a chunk or less,
 *     a thread takes four with a load each (tiny_window()); else those of
 *     at most 128 chunks are packed with their neighbours, one chunk a
 *     position, 128 positions a warp at once, and the longer ones among
 *     them follow, a warp each (window());
 *   - a longer one is reduced by the warp a tile at a time
 *     (agent/batched.cuh's warp_tile);
 *   - a long segment is cut into groups of 2^g tiles, 2^g*TE the largest
 *     power of two of tiles within a quarter share, or one tile (TE =
 *     2048*V elements a tile).
 *     Group q starts at pos(s) + q*2^g*TE on the line and belongs to the
 *     warp whose share holds that point.  When they all fall to one warp,
 *     that warp reduces the whole segment; else each warp reduces its
 *     groups, which are subtrees of rule 5, and the groups combine in a
 *     tree of tickets: a group's value climbs the tile tree, and at each
 *     node the second of the two children to arrive combines them (left
 *     op right) and climbs on, so the root is reached by the last one,
 *     after log2(groups) steps.
 *
 * Workspace.  The nodes and tickets of a long segment live at the slots
 * of the warp that owns its group 0, b0: 32 values and 16 tickets a warp
 * (dispatch/dispatch.cuh).  Groups are longer than an eighth of a share (twice a
 * group would pass a quarter share, or a group is one tile that does), so
 * a warp holds at most eight group starts of a segment; a segment whose groups fall to the m + 1 warps
 * b0 .. b0+m (m >= 1) has Q <= 8(m+1) groups, so its tree has at most
 * 2Q - 1 <= 32m values and Q - 1 <= 16m tickets, and it stays below the
 * slots of warp b0 + m, where the next long segment can start.  Every
 * ticket is touched twice per launch, and the second arrival resets it.
 *
 * Invalid offsets.  A segment is valid when offsets[0] <= offsets[s] <=
 * offsets[s+1] <= offsets[segments].  An invalid one gets the empty result
 * and is recorded in the handle's SegmentsState (the lowest index, sticky;
 * gr_cuda_take_async_error() reads it).  No element outside
 * [offsets[0], offsets[segments]) is read: only valid segments are read,
 * and only within themselves.  Positions clamp offsets into that range,
 * and the search's answer is nondecreasing in its key whatever the array
 * holds (at each step, a larger key's true probes are a subset of a
 * smaller key's), so the warps' segment ranges still partition the
 * segments and every segment, valid or not, is written exactly once.
 * Only the long segments' groups may then be reduced twice or never: the
 * results of the valid long segments are unspecified in such a call, and
 * the last block of the launch, seeing the launch's flag, clears every
 * ticket so the next call starts clean.
 */
#ifndef GR_CUDA_KERNEL_SEGMENTS_CUH
#define GR_CUDA_KERNEL_SEGMENTS_CUH

#include <cstdint>

#include "cuda/agent/batched.cuh"
#include "cuda/block/reduce.cuh"
#include "cuda/dispatch/dispatch.cuh"
#include "cuda/kernel/reduce.cuh"
#include "cuda/thread/ops.cuh"
#include "cuda/warp/reduce.cuh"
#include "order/order.h"
#include "order/tree.h"

namespace gr {

/* Chunk positions a warp packs at once: kWindowPages a thread. */
constexpr int kWindowPages = 4;
constexpr int kWindow = 32 * kWindowPages;
/* The longest segment, in chunks, that window() packs: a whole window. */
constexpr unsigned kPackedChunks = kWindow;
/* A long segment's groups are at most a share / kGroupsPerShare long (and
 * longer than half that), or one tile when a tile is longer: a warp takes
 * four to eight of them, and the shares' work differs by a group at most. */
constexpr uint64_t kGroupsPerShare = 4;

/* One warp's packed segments, in shared memory. */
struct WindowStorage {
  uint64_t first[kWindow];    /* the segment's first element (from input) */
  uint32_t length[kWindow];   /* its elements; kInvalid set for an invalid one */
  uint16_t position[kWindow]; /* its first chunk's position in the window */
  uint8_t owner[kWindow];     /* 1 + the window index of the segment that
                               * starts at a position, 0 where none does */
};
constexpr uint32_t kInvalid = 0x80000000u;

/* The line of the merge path, as every thread computes it. */
template <int V> struct SegmentLine {
  const uint64_t *offsets;
  uint64_t segments, first, last; /* offsets[0], offsets[segments] */
  uint64_t span;                  /* last - first, 0 when last < first */
  uint64_t share;                 /* units a warp */
  uint64_t warps;
  uint64_t spacing;               /* a group's units: 2^g tiles */
  unsigned group_log2;            /* g */

  __device__ SegmentLine(const uint64_t *o, uint64_t n, uint64_t warps_) {
    constexpr uint64_t TE = (uint64_t)GR_TILE_CHUNKS * V;
    offsets = o;
    segments = n;
    warps = warps_;
    first = o[0];
    last = o[n];
    span = last >= first ? last - first : 0;
    const uint64_t total = span + n * V;
    share = (total + warps - 1) / warps;
    group_log2 = 0; /* the largest group within a quarter share, at least a tile */
    while ((TE << (group_log2 + 1)) <= share / kGroupsPerShare) ++group_log2;
    spacing = TE << group_log2;
  }
  /* The position of an offset o of segment s on the line. */
  __device__ uint64_t pos(uint64_t o, uint64_t s) const {
    const uint64_t c = o < first ? 0 : (o - first < span ? o - first : span);
    return c + s * V;
  }
  __device__ bool valid(uint64_t a, uint64_t b) const {
    return first <= a && a <= b && b <= last;
  }
  /* The warp whose share holds position x. */
  __device__ uint64_t owner(uint64_t x) const {
    const uint64_t w = x / share;
    return w < warps ? w : warps - 1;
  }
  /* The first segment s <= segments with pos(s) >= key (segments when
   * there is none), searched by the 32 threads of a warp, 32 probes a
   * step; the same answer in every lane.  Nondecreasing in key for any
   * offsets (see the top of this file). */
  __device__ uint64_t lower_bound(uint64_t key, unsigned lane) const {
    uint64_t lo = 0, hi = segments + 1; /* the answer is in [lo, hi] */
    while (lo < hi) {
      const uint64_t step = (hi - lo + 31) / 32;
      const uint64_t i = lo + lane * step;
      const bool at_or_after = i >= hi || pos(offsets[i], i) >= key;
      const unsigned m = __ballot_sync(0xffffffffu, at_or_after);
      if (m == 0) {
        lo += 31 * step + 1;
        continue;
      }
      const unsigned f = __ffs(m) - 1;
      if (f == 0) break;
      const uint64_t cut = lo + f * step;
      lo += (f - 1) * step + 1;
      if (cut < hi) hi = cut;
    }
    return lo < segments ? lo : segments;
  }
};

__device__ __forceinline__ void record_invalid(SegmentsState *st, uint64_t s) {
  atomicOr(&st->invalid_seen, 1u);
  atomicMax(&st->sticky, (unsigned long long)(UINT64_MAX - s));
}

/* The value of tiles [t0, t1) of the segment x[0 .. n-1] (an aligned
 * group of the tile tree, or all of its tiles), in lane 0. */
template <class Op>
__device__ __noinline__ typename Op::Acc warp_tiles(const typename Op::In *x, uint64_t n, uint64_t t0,
                                       uint64_t t1, unsigned lane) {
  using Acc = typename Op::Acc;
  Acc stack[kStackDepth];
  for (uint64_t tile = t0; tile < t1; ++tile) {
    Acc v = warp_tile<Op, true>(x, 1, n, tile, lane);
    if (lane == 0) GR_TREE_PUSH(stack, tile - t0, v, Op::combine);
  }
  Acc r = Op::identity();
  if (lane == 0) GR_TREE_FOLD(stack, t1 - t0, r, Op::combine);
  return r;
}

/* Node j of level `level` of the tree over the `groups` groups of segment
 * s (level 0: the groups; the node is the subtree of groups j*2^level ..),
 * value v (lane 0 only), climbs the tree of tickets at the slots of warp
 * b0 (top of this file); the last arrival at the root writes the result. */
template <class Op, int V>
__device__ __noinline__ void climb(const SegmentsParams &p, const SegmentLine<V> &line,
                                   uint64_t s, unsigned level, uint64_t j, uint64_t groups,
                                   uint64_t b0, typename Op::Acc v) {
  using Acc = typename Op::Acc;
  Acc *nodes = static_cast<Acc *>(p.nodes);
  const uint64_t node_end = line.warps * kSegmentNodesPerWarp;
  const uint64_t ticket_end = line.warps * kSegmentTicketsPerWarp;
  const uint64_t node0 = b0 * kSegmentNodesPerWarp, ticket0 = b0 * kSegmentTicketsPerWarp;
  uint64_t count = groups, level_node = 0, level_ticket = 0;
  for (unsigned i = 0; i < level; ++i) { /* the levels below */
    level_node += count;
    level_ticket += (count + 1) / 2;
    count = (count + 1) / 2;
  }
  while (count > 1) {
    const uint64_t parents = (count + 1) / 2;
    if (!((j & 1) == 0 && j + 1 == count)) { /* a sibling exists: meet it */
      const uint64_t mine = node0 + level_node + j, theirs = node0 + level_node + (j ^ 1);
      const uint64_t ticket = ticket0 + level_ticket + (j >> 1);
      if (mine >= node_end || theirs >= node_end || ticket >= ticket_end) return;
      nodes[mine] = v;
      __threadfence(); /* the value before the ticket */
      const unsigned old = atomicAdd(p.tickets + ticket, 1u);
      if (old != 1u) return; /* the first to arrive (or invalid offsets) */
      p.tickets[ticket] = 0u;
      __threadfence(); /* the sibling's value after its ticket */
      const Acc u = load_root(nodes + theirs);
      v = (j & 1) ? Op::combine(u, v) : Op::combine(v, u);
    }
    level_node += count;
    level_ticket += parents;
    j >>= 1;
    count = parents;
  }
  store_result<Op>(p, s, v, 1);
}

/* Segment s (elements [a, b), valid, more than kPackedChunks chunks): the
 * part of it whose groups start in [key, key_end) of the line, for warp w. */
template <class Op, int V>
__device__ __noinline__ void long_segment(const SegmentsParams &p, const SegmentLine<V> &line, uint64_t s,
                             uint64_t a, uint64_t b, uint64_t w, uint64_t key,
                             uint64_t key_end, unsigned lane) {
  const typename Op::In *x = static_cast<const typename Op::In *>(p.input) + a;
  const uint64_t n = b - a;
  const uint64_t tiles = (n + (uint64_t)GR_TILE_CHUNKS * V - 1) / ((uint64_t)GR_TILE_CHUNKS * V);
  const uint64_t per_group = (uint64_t)1 << line.group_log2;
  const uint64_t groups = (tiles + per_group - 1) / per_group;
  const uint64_t at = line.pos(a, s);
  const uint64_t b0 = line.owner(at);
  if (line.owner(at + (groups - 1) * line.spacing) == b0) { /* one warp's */
    if (b0 != w) return;
    const typename Op::Acc r = warp_tiles<Op>(x, n, 0, tiles, lane);
    if (lane == 0) store_result<Op>(p, s, r, 1);
    return;
  }
  /* this warp's groups q .. q_end-1, in the largest aligned blocks (each
   * a subtree, computed here), each climbing from its own level */
  uint64_t q = at >= key ? 0 : (key - at + line.spacing - 1) / line.spacing;
  uint64_t q_end = key_end > at ? (key_end - at - 1) / line.spacing + 1 : 0;
  if (q_end > groups) q_end = groups;
  while (q < q_end) {
    unsigned k = 0;
    while (((q >> k) & 1) == 0 && q + ((uint64_t)2 << k) <= q_end) ++k;
    const uint64_t t0 = q * per_group;
    const uint64_t t1 = (q + ((uint64_t)1 << k)) * per_group < tiles
                            ? (q + ((uint64_t)1 << k)) * per_group
                            : tiles;
    const typename Op::Acc v = warp_tiles<Op>(x, n, t0, t1, lane);
    if (lane == 0) climb<Op>(p, line, s, k, q >> k, groups, b0, v);
    q += (uint64_t)1 << k;
  }
}

/* What window() and tiny_window() know of the window's segments: thread
 * `lane` looks at the segments s + lane*R + r (r < R, R = kWindowPages),
 * of at most `avail`. */
template <int V> struct WindowSegments {
  uint64_t o[kWindowPages + 1];   /* offsets[s + lane*R + r] */
  unsigned count[kWindowPages];   /* its chunks, at least 1 (its positions) */
  unsigned length[kWindowPages];  /* its elements, or kInvalid */
  bool fits[kWindowPages];        /* a segment of the window, <= kPackedChunks chunks */
  bool is_long[kWindowPages];     /* a valid segment of the window, longer */
  unsigned mine;                  /* this thread's positions */

  __device__ __forceinline__ WindowSegments(const SegmentsParams &p, const SegmentLine<V> &line,
                                            uint64_t s, uint64_t avail, unsigned lane) {
    constexpr int R = kWindowPages;
#pragma unroll
    for (int r = 0; r <= R; ++r) {
      const uint64_t j = (uint64_t)lane * R + r;
      o[r] = j <= avail ? p.offsets[s + j] : 0;
    }
    mine = 0;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const uint64_t j = (uint64_t)lane * R + r;
      const bool ok = line.valid(o[r], o[r + 1]);
      const uint64_t n = ok ? o[r + 1] - o[r] : 0;
      const uint64_t c = (n + V - 1) / V;
      fits[r] = j < avail && c <= kPackedChunks;
      is_long[r] = j < avail && c > kPackedChunks;
      length[r] = ok ? (unsigned)n : kInvalid;
      count[r] = c ? (unsigned)c : 1u;
      mine += fits[r] ? count[r] : 0u;
    }
  }
};

/* Store result j of a window. */
template <class Op>
__device__ __forceinline__ void store_window_result(const SegmentsParams &p, uint64_t t,
                                                    unsigned length,
                                                    const typename Op::Acc &v) {
  if (length & kInvalid) record_invalid(p.state, t);
  store_result<Op>(p, t, v, !(length & kInvalid) && length > 0);
}

/* LOGSUMEXP's combine and chunk fold each take a double exp.  window()'s
 * tree has up to 25 combines a thread, each under its own predicate, and
 * its pages and tiny_window()'s fold 8 chunks a thread: inlined, each is a
 * copy of that code.  For LOGSUMEXP the windows call one out-of-line body
 * of each instead (the float types' chunk fold is out of line in
 * fold_loaded<Op, true> itself: LogSumExp::fold_run_count, as in the long
 * segments' warp_tile); the operations, and so
 * the bits, are those of the inline forms.  Every other operation stays
 * inline. */
template <class Op>
__device__ __noinline__ typename Op::Acc fold_call(typename Op::Acc acc, ChunkData c, uint64_t e0) {
  fold_loaded<Op>(acc, c, e0);
  return acc;
}

template <class Op>
__device__ __forceinline__ typename Op::Acc window_combine(const typename Op::Acc &a,
                                                           const typename Op::Acc &b) {
  return CompactOp<Op>::combine(a, b);
}

template <class Op>
__device__ __forceinline__ void window_fold(typename Op::Acc &acc, const ChunkData &c, uint64_t e0) {
  if constexpr (Op::kFamily == OpFamily::kLogSumExp && !HasChunkFold<Op>::value)
    acc = fold_call<Op>(acc, c, e0);
  else
    fold_loaded<Op, true>(acc, c, e0);
}

/* The segments from s (at most `avail` of them, all this warp's) when the
 * next kWindow of them (or all) are a chunk or less, or invalid: segment j
 * is one lane, its value, with no tree to compute; returns how many were
 * reduced, 0 when they are not all that short. */
template <class Op, int V>
__device__ __forceinline__ unsigned tiny_window(const SegmentsParams &p, const SegmentLine<V> &line,
                                             uint64_t s, uint64_t avail, unsigned lane) {
  using In = typename Op::In;
  using Acc = typename Op::Acc;
  constexpr int R = kWindowPages;
  const WindowSegments<V> c(p, line, s, avail, lane);
  bool tiny = true;
#pragma unroll
  for (int r = 0; r < R; ++r)
    tiny = tiny && (lane * R + r >= avail || (c.fits[r] && c.count[r] == 1));
  if (!__all_sync(0xffffffffu, tiny)) return 0;
  const In *input = static_cast<const In *>(p.input);
  ChunkData d[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    d[r].count = 0;
    if (lane * R + r < avail && !(c.length[r] & kInvalid) && c.length[r])
      d[r] = load_vector_chunk<In, false>(input + c.o[r], 1, c.length[r], 0);
  }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const uint64_t j = (uint64_t)lane * R + r;
    if (j >= avail) continue;
    Acc v = Op::identity();
    window_fold<Op>(v, d[r], 0);
    store_window_result<Op>(p, s + j, c.length[r], v);
  }
  return avail < (uint64_t)kWindow ? (unsigned)avail : (unsigned)kWindow;
}

/* The segments from s (at most `avail` of them, all this warp's) up to
 * the first that would overflow the window: those of at most
 * kPackedChunks chunks packed, one chunk a position, kWindowPages
 * positions a thread, and reduced together; then the longer ones, one at a
 * time by the warp: their bits in long_bits, for the caller to pass to
 * long_segment; returns how many were taken (at least one). */
template <class Op, int V>
__device__ __forceinline__ unsigned window(const SegmentsParams &p, const SegmentLine<V> &line,
                                           uint64_t s, uint64_t avail, WindowStorage &ws,
                                           unsigned lane, unsigned &long_bits) {
  using In = typename Op::In;
  using Acc = typename Op::Acc;
  constexpr int R = kWindowPages;
  const WindowSegments<V> c(p, line, s, avail, lane);
  /* exclusive scan of the threads' totals */
  unsigned before = c.mine;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const unsigned u = __shfl_up_sync(0xffffffffu, before, d);
    if (lane >= (unsigned)d) before += u;
  }
  before -= c.mine;
  unsigned stop = kWindow, start[R];
  {
    unsigned at = before;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      start[r] = at;
      if (c.fits[r]) at += c.count[r];
      if (((!c.fits[r] && !c.is_long[r]) || at > (unsigned)kWindow) && stop == kWindow)
        stop = lane * R + r;
    }
  }
#pragma unroll
  for (int d = 16; d >= 1; d >>= 1) {
    const unsigned u = __shfl_xor_sync(0xffffffffu, stop, d);
    stop = u < stop ? u : stop;
  }
  /* the window's positions in use: the end of its last packed segment */
  unsigned used = 0;
#pragma unroll
  for (int r = 0; r < R; ++r)
    if (lane * R + r < stop && c.fits[r]) used = start[r] + c.count[r];
#pragma unroll
  for (int d = 16; d >= 1; d >>= 1) {
    const unsigned u = __shfl_xor_sync(0xffffffffu, used, d);
    used = u > used ? u : used;
  }
#pragma unroll
  for (int r = 0; r < R; ++r) ws.owner[lane + 32 * r] = 0;
  __syncwarp();
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const unsigned j = lane * R + r;
    if (j < stop && c.fits[r]) {
      ws.first[j] = c.o[r];
      ws.length[j] = c.length[r];
      ws.position[j] = (uint16_t)start[r];
      ws.owner[start[r]] = (uint8_t)(j + 1);
    }
  }
  __syncwarp();
  /* each position's segment: the last that starts at or before it (every
   * packed segment has a position, so the starts are distinct), by a max
   * scan of ws.owner over the positions lane + 32r in order */
  unsigned owner[R];
  {
    unsigned carry = 0;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      unsigned m = ws.owner[lane + 32 * r];
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const unsigned u = __shfl_up_sync(0xffffffffu, m, d);
        if (lane >= (unsigned)d) m = u > m ? u : m;
      }
      m = carry > m ? carry : m;
      carry = __shfl_sync(0xffffffffu, m, 31);
      owner[r] = m;
    }
  }
  const In *input = static_cast<const In *>(p.input);
  ChunkData d[R];
  unsigned seg[R], l[R], chunks[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const unsigned at = lane + 32 * r;
    d[r].count = 0;
    seg[r] = 0;
    l[r] = 1; /* no lane 0 where unused */
    chunks[r] = 0;
    if (at < used) {
      seg[r] = owner[r] - 1;
      l[r] = at - ws.position[seg[r]];
      const unsigned n = ws.length[seg[r]];
      if (!(n & kInvalid)) {
        chunks[r] = (n + V - 1) / V;
        if (l[r] < chunks[r])
          d[r] = load_vector_chunk<In, false>(input + ws.first[seg[r]], 1, n,
                                              (uint64_t)l[r] * V);
      }
    }
  }
  Acc v[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    v[r] = Op::identity();
    window_fold<Op>(v[r], d[r], (uint64_t)l[r] * V);
  }
  /* rule 4's levels 64 .. 1 within each segment: position t takes t + h
   * when both are the same segment's chunks (l + h < chunks); level 128
   * only meets empty lanes.  For h = 64 and 32, t + h is the same
   * thread's page r + h/32; position t + h is not itself changed at
   * level h (its l is h or more) */
#pragma unroll
  for (int k = 2; k >= 1; k >>= 1) {
    const unsigned h = 32u * k;
#pragma unroll
    for (int r = 0; r + k < R; ++r)
      if (l[r] < h && l[r] + h < chunks[r]) v[r] = window_combine<Op>(v[r], v[r + k]);
  }
#pragma unroll
  for (int h = 16; h >= 1; h >>= 1) {
    Acc u[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const Acc same = shfl_down(v[r], h);
      const Acc next = shfl_idx(v[r + 1 < R ? r + 1 : r], (int)((lane + h) & 31));
      u[r] = lane + h < 32 ? same : next;
    }
#pragma unroll
    for (int r = 0; r < R; ++r)
      if (l[r] < (unsigned)h && l[r] + h < chunks[r]) v[r] = window_combine<Op>(v[r], u[r]);
  }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const unsigned at = lane + 32 * r;
    if (at < used && l[r] == 0) store_window_result<Op>(p, s + seg[r], ws.length[seg[r]], v[r]);
  }
  __syncwarp(); /* ws is free for the next window */
  /* the window's long segments, for the caller: bit r is segment lane*R + r */
  long_bits = 0;
#pragma unroll
  for (int r = 0; r < R; ++r)
    if (lane * R + r < stop && c.is_long[r]) long_bits |= 1u << r;
  return stop;
}

/* The long segments of the window at s, in order, a warp each: thread
 * `from` marks its segments s + from*R + r in bit r of long_bits. */
template <class Op, int V>
__device__ __noinline__ void window_long_segments(const SegmentsParams &p,
                                                  const SegmentLine<V> &line, uint64_t s,
                                                  unsigned long_bits, uint64_t w, uint64_t key,
                                                  uint64_t key_end, unsigned lane) {
  for (unsigned holders = __ballot_sync(0xffffffffu, long_bits != 0); holders;
       holders &= holders - 1) {
    const int from = __ffs(holders) - 1;
    const unsigned bits = __shfl_sync(0xffffffffu, long_bits, from);
    for (int r = 0; r < kWindowPages; ++r) {
      if (!(bits >> r & 1)) continue; /* the same for the whole warp */
      const uint64_t t = s + (uint64_t)from * kWindowPages + r;
      const uint64_t a = p.offsets[t], b = p.offsets[t + 1];
      if (line.valid(a, b)) /* as window() saw it, unless the offsets changed under us */
        long_segment<Op>(p, line, t, a, b, w, key, key_end, lane);
    }
  }
}

/* Ask L1 for what the next window will read while this one waits on its
 * own loads, so that a run of windows waits about once a window instead of
 * twice (offsets, then data): the offsets past this window's (a 32-byte
 * sector a lane, kWindow + 1 to 2*kWindow past s), and the 4 KiB of input
 * past this window's first element's kWindow*V.  A hint only: it reads no
 * register and changes no result; the addresses stay inside offsets[0 ..
 * s1] and the input's [offsets[0], offsets[segments]). */
template <int V>
__device__ __forceinline__ void prefetch_next_window(const SegmentsParams &p,
                                                     const SegmentLine<V> &line, uint64_t s,
                                                     uint64_t s1, unsigned lane) {
  const uint64_t j = s + kWindow + 1 + (uint64_t)lane * 4;
  if (j <= s1) asm volatile("prefetch.global.L1 [%0];" ::"l"(line.offsets + j));
  const uint64_t o = line.offsets[s]; /* in L1: the window loads it too */
  if (line.first <= o && o <= line.last) {
    const uint64_t bytes = (o - line.first) * (GR_CHUNK_BYTES / V) + kWindow * GR_CHUNK_BYTES +
                           (uint64_t)lane * 128;
    if (bytes < line.span * (GR_CHUNK_BYTES / V))
      asm volatile("prefetch.global.L1 [%0];" ::"l"(
          static_cast<const char *>(p.input) + line.first * (GR_CHUNK_BYTES / V) + bytes));
  }
}

/* The warp's segments from s on, up to s1, by windows (128 segments a
 * chunk or less at once, or the short segments of up to 128 packed, 128
 * chunk positions), until a window holds long segments: then *at is that
 * window's first segment and long_bits marks its long ones (as window()
 * does), for window_long_segments().  Returns the first segment not taken.
 * Out of line with the loop inside, and with no call in it, so that its
 * registers stay its own and a call's saved registers are paid once a run
 * of windows. */
template <class Op, int V>
__device__ __noinline__ uint64_t window_run(const SegmentsParams &p, const SegmentLine<V> &line,
                                            uint64_t s, uint64_t s1, WindowStorage &ws,
                                            unsigned lane, uint64_t *at, unsigned *long_bits) {
  unsigned bits = 0;
  while (s < s1) {
    prefetch_next_window(p, line, s, s1, lane);
    unsigned done = tiny_window<Op>(p, line, s, s1 - s, lane);
    if (!done) done = window<Op>(p, line, s, s1 - s, ws, lane, bits);
    s += done;
    if (__any_sync(0xffffffffu, bits != 0)) {
      *at = s - done;
      break;
    }
  }
  *long_bits = bits;
  return s;
}

template <class Op>
__global__ void __launch_bounds__(kThreads, kSegmentBlocksPerSm)
segments_kernel(const SegmentsParams p) {
  using In = typename Op::In;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  __shared__ WindowStorage windows[kWarps];
  __shared__ uint64_t starts[kWarps + 1];
  __shared__ bool is_last;
  const unsigned lane = threadIdx.x % 32, wi = threadIdx.x / 32;
  const SegmentLine<V> line(p.offsets, p.segments, (uint64_t)gridDim.x * kWarps);
  const uint64_t w = (uint64_t)blockIdx.x * kWarps + wi;
  const uint64_t key = w * line.share, key_end = key + line.share;
  starts[wi] = line.lower_bound(key, lane);
  if (wi == kWarps - 1)
    starts[kWarps] = w + 1 == line.warps ? p.segments : line.lower_bound(key_end, lane);
  __syncthreads();
  const uint64_t s0 = starts[wi], s1 = starts[wi + 1];
  const uint64_t last_end = w + 1 == line.warps ? UINT64_MAX : key_end;

  /* the groups of a long segment begun in an earlier share */
  if (s0 > 0) {
    const uint64_t a = p.offsets[s0 - 1], b = p.offsets[s0];
    if (line.valid(a, b) && b - a > (uint64_t)kPackedChunks * V && line.pos(a, s0 - 1) < key)
      long_segment<Op>(p, line, s0 - 1, a, b, w, key, last_end, lane);
  }
  for (uint64_t s = s0; s < s1;) {
    uint64_t at = s;
    unsigned long_bits = 0;
    s = window_run<Op>(p, line, s, s1, windows[wi], lane, &at, &long_bits);
    if (__any_sync(0xffffffffu, long_bits != 0))
      window_long_segments<Op>(p, line, at, long_bits, w, key, last_end, lane);
  }

  /* the last block of the launch clears what invalid offsets left */
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    is_last = atomicAdd(&p.state->grid_ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (is_last) {
    __threadfence();
    if (*static_cast<volatile unsigned *>(&p.state->invalid_seen)) {
      const uint64_t tickets = line.warps * kSegmentTicketsPerWarp;
      for (uint64_t i = threadIdx.x; i < tickets; i += kThreads) p.tickets[i] = 0u;
      __syncthreads();
      if (threadIdx.x == 0) p.state->invalid_seen = 0u;
    }
    if (threadIdx.x == 0) p.state->grid_ticket = 0u;
  }
}

} /* namespace gr */

#endif /* GR_CUDA_KERNEL_SEGMENTS_CUH */
