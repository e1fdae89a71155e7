// ring.cuh - an experimental agent for bench/policy-variants (a developer's experiment, not
// built or installed): the library's reduce_kernel with each lane's chunks copied into a ring
// in shared memory by cp.async (16 bytes, sm_80 and later), D chunks ahead of the fold, across
// the tiles of a range.  The lanes read their chunks back and fold them with the library's
// lane, so the bits are the library's.  Written for MEAN_VAR, whose lane is a chain of
// dependent double operations: with register loads a warp has 8 chunks in flight and then
// none while it folds them; here the next D chunks are on their way while it folds.
//
// Needs bulk.cuh (StagedPolicy, StagedVector) before it.
// VR(G, T, OP, MB, D) in variants.inc runs reduce_kernel<Ring<Op, MB, D>>: AgentOf picks
// AgentRing, the lane tree runs once a tile (kPerTile), edge tiles read global memory
// (lane_edge).
//
// The ring: 2D slots of a chunk a lane (slot k % 2D for chunk k of any tile; 8 % 2D == 0).
// The range's chunks, tile by tile, are a sequence; position g is copied (one commit group,
// empty for an edge tile or past the range) when chunk g - D is folded, into a slot last read
// at g - 2D, so no copy lands in a slot before its last reader is done with it.  Before
// reading position g a thread waits until at most D groups, those of g+1 .. g+D, are pending.
// Misaligned input: chunk c is the bytes m .. m+15 of blocks c and c+1; a lane copies block c,
// reads block c+1 from lane+1's slot after a __syncwarp, and lane 31 copies block c+1 itself
// into `extra`.  The copy into a slot for position g + 2D, issued at position g + D, comes
// after the lane's __syncwarp of position g + 1 (D >= 2), which lane - 1 reaches only after
// its read of the slot at position g.
// Static shared memory: 2D x 4 KiB + the agent's lane-tree buffers (D = 4: 33 KiB + 14 KiB
// for MEAN_VAR of double).
// Status (2026-12-04): run on the H200 (doc/PERFORMANCE.md, "MEAN_VAR at 4 blocks ...", fourth
// run): every result's bits the library's, aligned and 3 past alignment, 2^20 to 2^30; no
// faster than the register loads at 4 blocks but for i32 MEAN_VAR at 2^24 and 2^26; not
// adopted.
#ifndef GR_PV_RING_CUH
#define GR_PV_RING_CUH

namespace gr {

template <class Op, int MB, int D> struct Ring : Op {};
template <class Op, int MB, int D> struct PolicyOf<Ring<Op, MB, D>> : StagedPolicy<Op, MB> {};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define GR_PV_RING_ASM(...) __trap()
#else
#define GR_PV_RING_ASM(...) asm volatile(__VA_ARGS__)
#endif

template <class Op, int D> class AgentRing : StagedVector<typename Op::In> {
  using Vector = StagedVector<typename Op::In>;
  using Vector::x_, Vector::n_, Vector::misalign_, Vector::blocks_, Vector::interior;
  static_assert(D == 2 || D == 4, "D chunks ahead: 2 or 4 (2D slots divide a lane's 8)");
  static constexpr int kSlots = 2 * D;

 public:
  using Acc = typename Op::Acc;
  using In = typename Op::In;
  struct TempStorage {
    Acc buf[2][kThreads];
    Acc stack[kStackDepth];
    uint4 ring[kSlots][kThreads];
    uint4 extra[kSlots][kWarps];
  };

  __device__ __forceinline__ AgentRing(TempStorage &temp, const void *vector, const void *,
                                       uint64_t n)
      : Vector(vector, n), temp_(temp) {}

  __device__ __forceinline__ Acc consume_range(uint64_t t0, uint64_t t1) {
    t1_ = t1;
    static_for<0, D>([&](auto k) { issue<k.value>(t0); });
    return fold_tiles<Op>(temp_.buf, temp_.stack, parity_, t0, t1,
                          [&](uint64_t tile) { return consume_tile(tile); });
  }

 private:
  /* Copy chunk K of `tile` (nothing for an edge tile or one past the range), one group. */
  template <int K> __device__ __forceinline__ void issue(uint64_t tile) {
    if (tile < t1_ && interior(tile)) {
      const uint64_t c = tile * GR_TILE_CHUNKS + threadIdx.x + (uint64_t)K * kThreads;
      GR_PV_RING_ASM("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(
                         (uint32_t)__cvta_generic_to_shared(&temp_.ring[K % kSlots][threadIdx.x])),
                     "l"(blocks_ + c)
                     : "memory");
      if (misalign_ != 0 && threadIdx.x % 32 == 31)
        GR_PV_RING_ASM("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(
                           (uint32_t)__cvta_generic_to_shared(&temp_.extra[K % kSlots][threadIdx.x / 32])),
                       "l"(blocks_ + c + 1)
                       : "memory");
    }
    GR_PV_RING_ASM("cp.async.commit_group;" ::: "memory");
  }

  /* The copy D positions after chunk K of `tile`. */
  template <int K> __device__ __forceinline__ void issue_ahead(uint64_t tile) {
    if constexpr (K + D < kChunksPerLane)
      issue<K + D>(tile);
    else
      issue<K + D - kChunksPerLane>(tile + 1);
  }

  /* Chunk K of this lane, copied: after the copy D ahead is issued, D groups may pend. */
  template <int K> __device__ __forceinline__ uint4 own(uint64_t tile) {
    issue_ahead<K>(tile);
    GR_PV_RING_ASM("cp.async.wait_group %0;" ::"n"(D) : "memory");
    return temp_.ring[K % kSlots][threadIdx.x];
  }

  __device__ __forceinline__ Acc consume_tile(uint64_t tile) {
    if (!interior(tile)) {
      __syncwarp();
      static_for<0, kChunksPerLane>([&](auto k) { issue_ahead<k.value>(tile); });
      return lane_edge<Op>(x_, n_, tile);
    }
    if (misalign_ == 0)
      return fold_chunks<Op>(tile, [&](auto k) { return own<k.value>(tile); });
    const unsigned rbits = (misalign_ % 4) * 8;
    return with_word_offset(misalign_, [&](auto q) {
      return fold_chunks<Op>(tile, [&](auto k) {
        const uint4 a = own<k.value>(tile);
        __syncwarp();
        const unsigned lane = threadIdx.x % 32;
        const uint4 b = lane == 31 ? temp_.extra[k.value % kSlots][threadIdx.x / 32]
                                   : temp_.ring[k.value % kSlots][threadIdx.x + 1];
        return shift_chunk<q.value>(a, b, rbits);
      });
    });
  }

  TempStorage &temp_;
  uint64_t t1_ = 0;
  int parity_ = 0;
};

template <class Op, int MB, int D> struct AgentOf<Ring<Op, MB, D>, false> {
  using type = AgentRing<Ring<Op, MB, D>, D>;
};

} /* namespace gr */

#endif
