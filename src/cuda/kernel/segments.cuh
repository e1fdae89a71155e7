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
 *     a thread takes four with a load each (tiny_window()); else a batch
 *     of up to 128 segments of at most 128 chunks is reduced in rounds of
 *     128 chunk positions, one chunk a position and each segment whole
 *     within its round, its tree by shuffles (short_rounds());
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
 * gr_cuda_take_async_error() reads it).  No byte outside
 * [offsets[0], offsets[segments]) is read: only valid segments are read,
 * each within itself but for the 32-bit words a round reads over 1- and
 * 2-byte elements, which stay within that range (load_round_chunk()).
 * Positions clamp offsets into that range, and the search's answer is
 * nondecreasing in its key whatever the array
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
#include "cuda/thread/prefetch.cuh"
#include "cuda/warp/reduce.cuh"
#include "order/order.h"
#include "order/tree.h"

namespace gr {

/* Segments a warp takes at once (tiny_window(), a batch of
 * short_rounds()), and chunk positions a round holds: kWindowPages a
 * thread. */
constexpr int kWindowPages = 4;
constexpr int kWindow = 32 * kWindowPages;
/* The longest segment, in chunks, that a round packs: a whole round. */
constexpr unsigned kPackedChunks = kWindow;
/* A long segment's groups are at most a share / kGroupsPerShare long (and
 * longer than half that), or one tile when a tile is longer: a warp takes
 * four to eight of them, and the shares' work differs by a group at most. */
constexpr uint64_t kGroupsPerShare = 4;

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
  /* A valid segment [a, b) longer than a round packs: long_segment()'s. */
  __device__ bool is_long(uint64_t a, uint64_t b) const {
    return valid(a, b) && b - a > (uint64_t)kPackedChunks * V;
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

/* What tiny_window() knows of its segments: thread `lane` looks at the
 * segments s + lane*R + r (r < R, R = kWindowPages), of at most `avail`. */
template <int V> struct WindowSegments {
  uint64_t o[kWindowPages + 1];   /* offsets[s + lane*R + r] */
  unsigned count[kWindowPages];   /* its chunks, at least 1 */
  unsigned length[kWindowPages];  /* its elements, or kInvalid */
  bool fits[kWindowPages];        /* one of the `avail`, <= kPackedChunks chunks */

  __device__ __forceinline__ WindowSegments(const SegmentsParams &p, const SegmentLine<V> &line,
                                            uint64_t s, uint64_t avail, unsigned lane) {
    constexpr int R = kWindowPages;
#pragma unroll
    for (int r = 0; r <= R; ++r) {
      const uint64_t j = (uint64_t)lane * R + r;
      o[r] = j <= avail ? p.offsets[s + j] : 0;
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const uint64_t j = (uint64_t)lane * R + r;
      const bool ok = line.valid(o[r], o[r + 1]);
      const uint64_t n = ok ? o[r + 1] - o[r] : 0;
      const uint64_t c = (n + V - 1) / V;
      fits[r] = j < avail && c <= kPackedChunks;
      length[r] = ok ? (unsigned)n : kInvalid;
      count[r] = c ? (unsigned)c : 1u;
    }
  }
};

/* Store segment t's result (its length kInvalid for an invalid one). */
template <class Op>
__device__ __forceinline__ void store_window_result(const SegmentsParams &p, uint64_t t,
                                                    unsigned length,
                                                    const typename Op::Acc &v) {
  if (length & kInvalid) record_invalid(p.state, t);
  store_result<Op>(p, t, v, !(length & kInvalid) && length > 0);
}

/* LOGSUMEXP's combine and chunk fold each take a double exp.  A round's
 * tree has up to 25 combines a thread, each under its own predicate, and
 * its pages and tiny_window()'s fold 4 chunks a thread: inlined, each is a
 * copy of that code.  For LOGSUMEXP the rounds call one out-of-line body
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

/* The bytes [at, end) of the call's elements [lo, hi), one by one, as
 * the 32-bit words from at rounded down (the chunk of a round at either
 * end of the call's elements). */
static __device__ __noinline__ uint4 load_round_edge(uintptr_t at, uintptr_t end,
                                                     uintptr_t lo, uintptr_t hi) {
  uint32_t w[5] = {0, 0, 0, 0, 0};
  const uintptr_t w0 = at & ~(uintptr_t)3;
  for (uintptr_t a = at; a < end; ++a)
    if (a >= lo && a < hi)
      w[(a - w0) / 4] |= (uint32_t)*reinterpret_cast<const uint8_t *>(a) << (8 * ((a - w0) % 4));
  const unsigned sh = (unsigned)(at & 3) * 8;
  return make_uint4(__funnelshift_r(w[0], w[1], sh), __funnelshift_r(w[1], w[2], sh),
                    __funnelshift_r(w[2], w[3], sh), __funnelshift_r(w[3], w[4], sh));
}

/* The chunk of a round at x: its first `count` (1 .. V) elements, the
 * rest zero, reading no byte outside [lo, hi) (the call's elements).
 * 4- and 8-byte elements: a load each.  Narrower ones: the 32-bit words
 * over the chunk's bytes, shifted into place, so that a chunk costs at
 * most five loads whatever V; where those words reach outside [lo, hi)
 * (the first or last chunk of the call's elements), the bytes one by one
 * (load_round_edge()). */
template <class In>
__device__ __forceinline__ uint4 load_round_chunk(const In *x, int count, const char *lo,
                                                  const char *hi) {
  if constexpr (sizeof(In) >= 4) {
    return gather_chunk(x, 1, 0, count);
  } else {
    const uintptr_t at = reinterpret_cast<uintptr_t>(x);
    const uintptr_t w0 = at & ~(uintptr_t)3;
    const unsigned bytes = (unsigned)count * (unsigned)sizeof(In);
    const uintptr_t end = at + bytes;
    const uintptr_t first = reinterpret_cast<uintptr_t>(lo), last = reinterpret_cast<uintptr_t>(hi);
    if (w0 < first || ((end + 3) & ~(uintptr_t)3) > last) return load_round_edge(at, end, first, last);
    uint32_t w[5];
#pragma unroll
    for (int k = 0; k < 5; ++k)
      w[k] = w0 + 4 * k < end ? *reinterpret_cast<const uint32_t *>(w0 + 4 * k) : 0u;
    const unsigned sh = (unsigned)(at & 3) * 8;
    uint32_t r[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const uint32_t v = __funnelshift_r(w[k], w[k + 1], sh);
      const unsigned have = bytes > 4u * k ? bytes - 4u * k : 0u;
      r[k] = have >= 4 ? v : v & ((1u << (8 * have)) - 1u);
    }
    return make_uint4(r[0], r[1], r[2], r[3]);
  }
}

/* Pages of a round (32 chunk positions each: a round holds kPackedChunks
 * positions, a batch as many segments) and how far ahead of a round's
 * first element short_rounds() asks L1 for the input: two full rounds. */
constexpr int kRoundPages = kWindowPages;
static_assert(32 * kRoundPages == kWindow, "a round holds kPackedChunks positions");
constexpr unsigned kRoundAheadBytes = 2 * 32 * kRoundPages * GR_CHUNK_BYTES;

/* A warp's batch of short segments, in shared memory: the first element
 * and the length of each. */
struct RoundStorage {
  uint64_t first[kWindow];
  uint32_t length[kWindow];
};

/* The segments from s (at most `avail` of them, all this warp's) while
 * they are valid and at most kPackedChunks (32R) chunks long, 32R chunk
 * positions a warp at once; returns how many were reduced (0 when
 * segment s is longer or invalid).
 *
 * A batch is the next 32R segments, R a thread (segment j = R lane + r):
 * their offsets, their chunks c (at least one position, for an empty
 * segment) and, by a scan, where their positions end on the batch's
 * line; their first elements and lengths go to ws.  A round is the
 * batch's segments from k up to the last whose positions end within 32R
 * of the round's first, so that no segment leaves its round.  Position
 * t = lane + 32r (page r of thread `lane`) holds chunk l = t - (the
 * first position of its segment) of that segment, found by counting the
 * segments' first positions (bit masks, a page each) at or below t.
 * Rule 4's levels (those of 32R and above only meet empty lanes) take
 * position t + h into t where l < h and l + h < c: for h of 32 or more
 * from the same thread's page r + h/32, below 32 by a shuffle, from page
 * r or r + 1 of thread (lane + h) mod 32.  A round skips the levels at or
 * above its longest segment's chunks. */
template <class Op, int V, int R>
__device__ __forceinline__ uint64_t short_rounds(const SegmentsParams &p,
                                                 const SegmentLine<V> &line, uint64_t s,
                                                 uint64_t avail, RoundStorage &ws, unsigned lane) {
  using In = typename Op::In;
  using Acc = typename Op::Acc;
  constexpr unsigned kFull = 0xffffffffu;
  constexpr unsigned kPositions = 32u * R;
  const In *input = static_cast<const In *>(p.input);
  const char *lo = reinterpret_cast<const char *>(input + line.first);
  const char *hi = lo + line.span * sizeof(In);
  uint64_t taken = 0;
  while (taken < avail) {
    const uint64_t b = s + taken;
    const uint64_t left = avail - taken;
    const unsigned cnt = left < kPositions ? (unsigned)left : kPositions;
    /* thread `lane`: segments b + R lane + r */
    uint64_t o[R + 1];
#pragma unroll
    for (int r = 0; r <= R; ++r) {
      const unsigned j = R * lane + r;
      o[r] = j <= cnt ? p.offsets[b + j] : 0;
    }
    unsigned n[R], c[R], mine_bad = kPositions;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const unsigned j = R * lane + r;
      const bool ok = j < cnt && line.valid(o[r], o[r + 1]) &&
                      o[r + 1] - o[r] <= (uint64_t)kPositions * V;
      n[r] = ok ? (unsigned)(o[r + 1] - o[r]) : 0u;
      c[r] = n[r] ? (n[r] + V - 1) / V : 1u;
      if (!ok && mine_bad == kPositions) mine_bad = j;
    }
    const unsigned q = warp_min(mine_bad); /* the batch's segments: 0 .. q-1 */
    if (q == 0) break;
    unsigned e[R], total = 0; /* e: the end of the segment's positions */
#pragma unroll
    for (int r = 0; r < R; ++r) {
      if (R * lane + r >= q) c[r] = 0;
      total += c[r];
      e[r] = total;
    }
    unsigned before = total;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const unsigned u = __shfl_up_sync(kFull, before, d);
      if (lane >= (unsigned)d) before += u;
    }
    before -= total;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      e[r] += before;
      const unsigned j = R * lane + r;
      if (j < q) {
        ws.first[j] = o[r];
        ws.length[j] = n[r];
      }
    }
    __syncwarp();
    for (unsigned k = 0, base = 0; k < q;) {
      /* the round: segments k .. k1-1, positions base .. next-1 */
      unsigned fit = 0;
#pragma unroll
      for (int r = 0; r < R; ++r) fit += R * lane + r < q && e[r] <= base + kPositions;
      const unsigned k1 = warp_sum(fit);
      unsigned bits[R], longest = 0, next = 0;
#pragma unroll
      for (int r = 0; r < R; ++r) bits[r] = 0;
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const unsigned j = R * lane + r;
        if (j >= k && j < k1) {
          const unsigned at = e[r] - c[r] - base;
#pragma unroll
          for (int g = 0; g < R; ++g)
            if (at / 32u == (unsigned)g) bits[g] |= 1u << (at % 32u);
          longest = c[r] > longest ? c[r] : longest;
          next = e[r];
        }
      }
      unsigned starts[R];
#pragma unroll
      for (int g = 0; g < R; ++g) starts[g] = warp_or(bits[g]);
      longest = warp_max(longest);
      next = warp_max(next);
      const unsigned used = next - base;
      {
        const uint64_t ahead =
            (ws.first[k] - line.first) * sizeof(In) + kRoundAheadBytes + lane * 128u;
        if (lane < 4u * R && ahead < line.span * sizeof(In))
          prefetch_l1(lo + ahead);
      }
      unsigned seg[R], l[R], chunks[R], sn[R];
      Acc v[R];
      {
        unsigned count = 0, last = 0; /* starts in the pages before; the last one's position */
#pragma unroll
        for (int r = 0; r < R; ++r) {
          const unsigned below = starts[r] & (kFull >> (31 - lane));
          seg[r] = k + count + __popc(below) - 1;
          l[r] = below ? lane - (31u - __clz(below)) : 32u * r + lane - last;
          count += __popc(starts[r]);
          if (starts[r]) last = 32u * r + 31u - __clz(starts[r]);
        }
      }
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const bool live = 32u * r + lane < used;
        const uint64_t sa = live ? ws.first[seg[r]] : 0;
        sn[r] = live ? ws.length[seg[r]] : 0u;
        chunks[r] = (sn[r] + V - 1) / V;
        ChunkData d;
        d.count = 0;
        d.raw = make_uint4(0, 0, 0, 0);
        if (l[r] < chunks[r]) {
          d.count = sn[r] - l[r] * V >= (unsigned)V ? V : (int)(sn[r] - l[r] * V);
          d.raw = load_round_chunk<In>(input + sa + (uint64_t)l[r] * V, d.count, lo, hi);
        }
        v[r] = Op::identity();
        window_fold<Op>(v[r], d, (uint64_t)l[r] * V);
      }
#pragma unroll
      for (int m = R / 2; m >= 1; m >>= 1) {
        const unsigned h = 32u * m;
        if (h >= longest) continue; /* the same for the whole warp */
#pragma unroll
        for (int r = 0; r + m < R; ++r)
          if (l[r] < h && l[r] + h < chunks[r]) v[r] = window_combine<Op>(v[r], v[r + m]);
      }
#pragma unroll
      for (unsigned h = 16; h >= 1; h >>= 1) {
        if (h >= longest) continue;
        Acc u[R];
        const int from = (int)((lane + h) & 31u);
#pragma unroll
        for (int r = 0; r < R; ++r)
          u[r] = shfl_idx(r + 1 < R && lane < h ? v[r + 1 < R ? r + 1 : r] : v[r], from);
#pragma unroll
        for (int r = 0; r < R; ++r)
          if (l[r] < h && l[r] + h < chunks[r]) v[r] = window_combine<Op>(v[r], u[r]);
      }
#pragma unroll
      for (int r = 0; r < R; ++r)
        if (32u * r + lane < used && l[r] == 0) store_result<Op>(p, b + seg[r], v[r], sn[r] > 0);
      k = k1;
      base = next;
    }
    __syncwarp(); /* ws is free for the next batch */
    taken += q;
    if (q < cnt) break;
  }
  return taken;
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
  if (j <= s1) prefetch_l1(line.offsets + j);
  const uint64_t o = line.offsets[s]; /* in L1: the window loads it too */
  if (line.first <= o && o <= line.last) {
    const uint64_t bytes = (o - line.first) * (GR_CHUNK_BYTES / V) + kWindow * GR_CHUNK_BYTES +
                           (uint64_t)lane * 128;
    if (bytes < line.span * (GR_CHUNK_BYTES / V))
      prefetch_l1(static_cast<const char *>(p.input) + line.first * (GR_CHUNK_BYTES / V) + bytes);
  }
}

/* The warp's segments from s on, up to s1: runs of segments a chunk or
 * less, 128 at once (tiny_window()), and of segments of at most
 * kPackedChunks chunks, by rounds (short_rounds()); an invalid segment
 * gets the empty result here.  Stops after a long segment (valid, more
 * than kPackedChunks chunks), setting *long_at to it for the caller to
 * pass to long_segment; else *long_at = s1.  Returns the first segment
 * not taken.  Out of line with the loop inside, and with no call in it,
 * so that its registers stay its own and a call's saved registers are
 * paid once a run of segments. */
template <class Op, int V>
__device__ __noinline__ uint64_t window_run(const SegmentsParams &p, const SegmentLine<V> &line,
                                            uint64_t s, uint64_t s1, RoundStorage &ws,
                                            unsigned lane, uint64_t *long_at) {
  *long_at = s1;
  while (s < s1) {
    prefetch_next_window(p, line, s, s1, lane);
    uint64_t done = tiny_window<Op>(p, line, s, s1 - s, lane);
    if (!done) done = short_rounds<Op, V, kRoundPages>(p, line, s, s1 - s, ws, lane);
    if (done) {
      s += done;
      continue;
    }
    /* segment s is invalid or long */
    const uint64_t a = p.offsets[s], b = p.offsets[s + 1];
    if (line.valid(a, b)) {
      *long_at = s;
      return s + 1;
    }
    if (lane == 0) store_window_result<Op>(p, s, kInvalid, Op::identity());
    ++s;
  }
  return s;
}

template <class Op>
__global__ void __launch_bounds__(kThreads, kSegmentBlocksPerSm)
segments_kernel(const SegmentsParams p) {
  using In = typename Op::In;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  __shared__ RoundStorage rounds[kWarps];
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
    if (line.is_long(a, b) && line.pos(a, s0 - 1) < key)
      long_segment<Op>(p, line, s0 - 1, a, b, w, key, last_end, lane);
  }
  for (uint64_t s = s0; s < s1;) {
    uint64_t long_at;
    s = window_run<Op>(p, line, s, s1, rounds[wi], lane, &long_at);
    /* a long segment, and the long ones right after it */
    while (long_at < s1) {
      const uint64_t a = p.offsets[long_at], b = p.offsets[long_at + 1];
      if (line.valid(a, b)) /* as window_run() saw it, unless the offsets changed under us */
        long_segment<Op>(p, line, long_at, a, b, w, key, last_end, lane);
      s = long_at + 1;
      if (s >= s1) break;
      const uint64_t a1 = p.offsets[s], b1 = p.offsets[s + 1];
      long_at = line.is_long(a1, b1) ? s : s1;
    }
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
