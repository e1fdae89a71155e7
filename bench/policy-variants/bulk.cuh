// bulk.cuh - an experimental agent for bench/policy-variants (a developer's experiment, not
// built or installed): the library's reduce_kernel with each interior tile brought into shared
// memory by one bulk copy (cp.async.bulk, sm_90), S tiles ahead, completing on an mbarrier.
// The lanes then read their chunks from shared memory and fold them with the library's lane,
// so the bits are the library's.  The bytes in flight cost shared memory, not registers: S
// tiles of 32 KiB a block, where the register path keeps 8 loads of 16 bytes a thread.
//
// VB(G, T, OP, MB, S) in variants.inc runs reduce_kernel<Bulk<Op, MB, S>>: AgentOf picks
// AgentBulk, the lane tree runs once a tile (kPerTile), misaligned input reads each chunk's
// two blocks from the stage (as Shift::kTwoLoads does from global memory), edge tiles read
// global memory (lane_edge).  policy-variants launches it with bulk_smem_bytes(S) of dynamic
// shared memory.
//
// The pipeline, one block: its tiles in the kernel's order (groups strided by the grid, the
// tiles of a group in order) form a sequence; tile i of it uses stage i % S.  Thread 0 issues
// tiles 0 .. S-1 at the block's first group; when the block starts on tile i (i >= 1), every
// thread has passed the lane tree's barrier of tile i-1, so thread 0 refills that tile's stage
// with tile i+S-1.  Edge tiles take a stage but no copy.  The next group of a block starts
// gridDim.x groups on; a group has t1-t0 tiles unless it ends the vector.
//
// The producer rebuilds the kernel's schedule from n and gridDim.x: it holds while the plan
// gives tiles = ceil(n / tile elements) and groups = ceil(tiles / 2^group_log2) (src/order/plan.c).
// The refill relies on the barrier of a lane tree a tile (kPerTile, asserted below).
//
// Status (2026-12-04): run on the H200 (doc/PERFORMANCE.md, "The bulk-copy agent measured"):
// no trap, every result's bits the library's, 2^20 to 2^30, aligned and 3 past alignment.  As
// fast as the register path at 4 blocks from 2^26, slower below; not adopted.  A reviewer's
// host model of issue() and consume_tile() against the kernel's group loop agreed on 379,968
// schedules (1 to 4 stages, 1 to 40 tiles, groups of 1 to 16, every grid, aligned and not).
// A wait that spins 2^26 times, or a stage holding another tile than the one expected, traps
// (the launch fails) rather than hang or fold wrong bytes.
// Blocks resident are set by shared memory: a stage is 32,896 bytes; 2 stages leave the f32
// sum 3 blocks an SM and i32 NRM2 2, 3 stages both 2; 6 stages at most (227 KiB a block).
#ifndef GR_PV_BULK_CUH
#define GR_PV_BULK_CUH

namespace gr {

/* The row of an experimental agent's kernel (Bulk here, ring.cuh's Ring): Op's lane under MB
 * blocks' register budget, misaligned chunks from their two blocks, a lane tree a tile. */
template <class Op, int MB> struct StagedPolicy {
  static constexpr ReducePolicy value{PolicyOf<Op>::value.lane, MB, Shift::kTwoLoads,
                                      LaneTree::kPerTile, 8, Load::kCached};
  static constexpr int min_blocks = MB;
  static constexpr int batched_min_blocks = MB; /* as cuda/tuning/policy.cuh's PolicyOf; unused here */
  static constexpr Shift shift = Shift::kTwoLoads;
  static constexpr LaneTree tree = LaneTree::kPerTile;
  static constexpr Load load = Load::kCached;
  using Lane = typename PolicyOf<Op>::Lane;
};

/* An experimental agent's vector, as AgentReduce holds it: its first element, its n elements,
 * the bytes past a 16-byte boundary and that boundary; interior(tile) as AgentReduce's. */
template <class In> struct StagedVector {
  __device__ __forceinline__ StagedVector(const void *vector, uint64_t n)
      : x_(static_cast<const In *>(vector)),
        n_(n),
        misalign_((unsigned)(reinterpret_cast<uintptr_t>(vector) % GR_CHUNK_BYTES)),
        blocks_(reinterpret_cast<const uint4 *>(static_cast<const char *>(vector) - misalign_)) {}
  __device__ __forceinline__ bool interior(uint64_t tile) const {
    return tile_interior(tile, misalign_, n_ * sizeof(In));
  }
  const In *x_;
  uint64_t n_;
  unsigned misalign_;
  const uint4 *blocks_;
};

template <class Op, int MB, int S> struct Bulk : Op {};
template <class Op, int MB, int S> struct PolicyOf<Bulk<Op, MB, S>> : StagedPolicy<Op, MB> {};

/* A stage: a tile's 16-byte blocks and the one after (misaligned input), padded to 128 bytes. */
constexpr int kStageBlocks = GR_TILE_CHUNKS + 8;
constexpr size_t bulk_smem_bytes(int stages) { return (size_t)stages * kStageBlocks * 16; }

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}

/* The asm below is sm_90's; built for an older GPU, a VB variant traps when run. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define GR_PV_BULK_ASM(...) __trap()
#else
#define GR_PV_BULK_ASM(...) asm volatile(__VA_ARGS__)
#endif

template <class Op, int S> class AgentBulk : StagedVector<typename Op::In> {
  using Vector = StagedVector<typename Op::In>;
  using Vector::x_, Vector::n_, Vector::misalign_, Vector::blocks_, Vector::interior;

  static_assert(S >= 1 && S <= 6, "stages: 1 to 6 (shared memory: 227 KiB a block)");
  static_assert(PolicyOf<Op>::tree == LaneTree::kPerTile,
                "the refill relies on the lane tree's barrier a tile");

 public:
  using Acc = typename Op::Acc;
  using In = typename Op::In;
  struct TempStorage {
    Acc buf[2][kThreads];
    Acc stack[kStackDepth];
    alignas(8) unsigned long long full[S];
    uint64_t tile_of[S]; /* the tile last copied into each stage, a check */
  };

  __device__ __forceinline__ AgentBulk(TempStorage &temp, const void *vector, const void *,
                                       uint64_t n)
      : Vector(vector, n), temp_(temp) {
    constexpr uint64_t tile_elems = (uint64_t)GR_TILE_CHUNKS * (GR_CHUNK_BYTES / sizeof(In));
    tiles_ = n / tile_elems + (n % tile_elems != 0);
    if (threadIdx.x == 0) {
      for (int s = 0; s < S; ++s)
        GR_PV_BULK_ASM("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&temp_.full[s]))
                       : "memory");
      GR_PV_BULK_ASM("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
  }

  /* The value of the tiles [t0, t1), in thread 0, as AgentReduce::consume_range. */
  __device__ __forceinline__ Acc consume_range(uint64_t t0, uint64_t t1) {
    if (threadIdx.x == 0 && !started_) {
      started_ = true;
      group_ = t1 - t0;
      p_tile_ = t0;
      p_end_ = t1;
      for (int s = 0; s < S; ++s) issue();
    }
    return fold_tiles<Op>(temp_.buf, temp_.stack, parity_, t0, t1,
                          [&](uint64_t tile) { return consume_tile(tile); });
  }

 private:
  __device__ __forceinline__ uint4 *stage(int s) const {
    extern __shared__ __align__(128) uint4 gr_pv_bulk_stages[];
    return gr_pv_bulk_stages + (size_t)s * kStageBlocks;
  }

  /* Thread 0: copy the producer's next tile into its stage (interior tiles only), and step
   * the producer to the tile after it in the block's sequence. */
  __device__ __forceinline__ void issue() {
    if (p_tile_ >= tiles_) return; /* the sequence is over */
    const int s = (int)(p_seq_ % S);
    if (interior(p_tile_)) {
      const uint32_t bytes = (GR_TILE_CHUNKS + (misalign_ ? 1 : 0)) * 16u;
      const uint32_t bar = smem_addr(&temp_.full[s]);
      temp_.tile_of[s] = p_tile_; /* published by the arrive's release */
      GR_PV_BULK_ASM("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
                     "r"(bytes)
                     : "memory");
      GR_PV_BULK_ASM(
          "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
          "[%3];" ::"r"(smem_addr(stage(s))),
          "l"(blocks_ + p_tile_ * GR_TILE_CHUNKS), "r"(bytes), "r"(bar)
          : "memory");
    }
    ++p_seq_;
    if (++p_tile_ == p_end_) { /* the group is done: the block's next group, if any */
      const uint64_t next = p_end_ - group_ + (uint64_t)gridDim.x * group_;
      if (p_end_ >= tiles_ || next >= tiles_) {
        p_tile_ = tiles_;
      } else {
        p_tile_ = next;
        p_end_ = min(next + group_, tiles_);
      }
    }
  }

  __device__ __forceinline__ void wait(int s) {
    const uint32_t bar = smem_addr(&temp_.full[s]);
    const uint32_t parity = (phase_ >> s) & 1u;
    uint32_t done, spins = 0;
    do {
      if (++spins == (1u << 26)) __trap(); /* a schedule bug: fail, do not hang */
      GR_PV_BULK_ASM(
          "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; "
          "selp.u32 %0, 1, 0, p; }"
          : "=r"(done)
          : "r"(bar), "r"(parity)
          : "memory");
    } while (!done);
    phase_ ^= 1u << s;
  }

  __device__ __forceinline__ Acc consume_tile(uint64_t tile) {
    if (threadIdx.x == 0 && c_seq_ > 0) issue(); /* into the stage of tile c_seq_ - 1 */
    const int s = (int)(c_seq_ % S);
    ++c_seq_;
    if (!interior(tile)) return lane_edge<Op>(x_, n_, tile);
    wait(s);
    if (temp_.tile_of[s] != tile) __trap(); /* the stage holds another tile */
    const uint4 *b = stage(s);
    Acc v;
    if (misalign_ == 0) {
      v = fold_chunks<Op>(tile, [&](auto k) { return b[threadIdx.x + k.value * kThreads]; });
    } else {
      const unsigned rbits = (misalign_ % 4) * 8;
      v = with_word_offset(misalign_, [&](auto q) {
        return fold_chunks<Op>(tile, [&](auto k) {
          const int c = threadIdx.x + k.value * kThreads;
          return shift_chunk<q.value>(b[c], b[c + 1], rbits);
        });
      });
    }
    /* this thread's reads of the stage (generic proxy) before the next bulk copy into it
     * (async proxy), which thread 0 issues after the lane tree's barrier */
    GR_PV_BULK_ASM("fence.proxy.async.shared::cta;" ::: "memory");
    return v;
  }

  TempStorage &temp_;
  uint64_t tiles_;
  int parity_ = 0;      /* the lane tree's double buffer */
  uint32_t phase_ = 0;  /* each stage's mbarrier phase to wait for, a bit a stage */
  uint64_t c_seq_ = 0;  /* the consumers' place in the block's sequence */
  /* the producer (thread 0) */
  bool started_ = false;
  uint64_t group_ = 0;  /* tiles a group */
  uint64_t p_tile_ = 0, p_end_ = 0, p_seq_ = 0;
};

template <class Op, int MB, int S> struct AgentOf<Bulk<Op, MB, S>, false> {
  using type = AgentBulk<Bulk<Op, MB, S>, S>;
};

} /* namespace gr */

#endif
