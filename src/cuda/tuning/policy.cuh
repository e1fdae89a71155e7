/*
 * cuda/tuning/policy.cuh - the one policy table of the production kernel.
 *
 * Every (op, type) of gpureduce_reduce() runs the same kernel,
 * reduce_kernel<Op> (kernel/reduce.cuh), with 256 threads a block (one per
 * lane of the order) and a grid that tune/model.c chooses.  What differs
 * is read from this table, one row per operation family and one column per
 * type family (thread/ops.cuh: 16-bit floats, 32/64-bit floats, 8-bit and wider
 * integers); ReducePolicy says what each field means.  Tuning values are
 * data, as in CUB's policies: each entry has one line of provenance, the
 * GPU, the shape and the gain that chose it.  doc/TUNING.md gives the
 * reasons that need more than a line, and what was tried and not kept.
 * None of the fields changes a bit of any result: the order of
 * doc/ORDER.md does not depend on them, and the two that read the data in
 * another grouping (kRealign, kPerRange) are allowed only where the order
 * does not decide the value (PolicyOf's static_asserts).
 *
 * The rows were measured on sm_90: an H200, CUDA 13.0, the kernel under
 * each candidate row side by side (bench/policy-variants), at n = 2^28
 * unless a line says otherwise; "a / b" is aligned / 3 elements past
 * alignment, "{4}" a budget of 4 blocks, "1.05x" old time / new time.
 * Other architectures get the same rows: the table has no architecture
 * dimension.  The budgets give the same registers a thread on every
 * architecture (65536 an SM), a budget above an SM's threads (5 blocks on
 * sm_75) is ignored by ptxas, the lanes fall back where an instruction is
 * missing (thread/fold.cuh), and the block count follows the GPU's SMs
 * and resident blocks at run time (doc/TUNING.md, "Other architectures").
 */
#ifndef GR_CUDA_POLICY_CUH
#define GR_CUDA_POLICY_CUH

#include "cuda/thread/ops.cuh"
#include "cuda/thread/fold.cuh"

namespace gr {

/* How AgentReduce loads an interior tile of misaligned input, whose
 * chunks each straddle two aligned 16-byte blocks (agent/reduce.cuh;
 * doc/TUNING.md, "Misaligned input"):
 *   kTwoLoads   both blocks of every chunk: twice the loads and the
 *               registers of aligned input, no barrier;
 *   kNeighbour  one block a chunk, the one it starts in; the second from
 *               the neighbouring lane by a warp shuffle, or through shared
 *               memory: the loads and registers of aligned input, one more
 *               barrier a tile;
 *   kRealign    no straddling chunks: the tiles are those of the aligned
 *               blocks from the 16-byte boundary below the vector, each
 *               loaded and folded as aligned input's, the elements before
 *               the vector left out by its first tile and the few past the
 *               last realigned tile taken by its last (consume_realigned).
 *               The lanes then hold other elements than the order's, so
 *               only for the operations whose value does not depend on the
 *               order of combination (Op::kOrderFree): the same bits. */
enum class Shift { kTwoLoads, kNeighbour, kRealign };

/* When the block combines its lanes' values (fold_tiles, agent/reduce.cuh):
 *   kPerTile   the order's lane tree for every tile, then the tile tree;
 *   kPerRange  each thread combines its lane values of every tile of the
 *              range, and the block runs one lane tree a range: no lane
 *              tree a tile, but the running value takes registers.  Only
 *              for the operations whose value does not depend on the order
 *              of combination (Op::kOrderFree), so the same bits.  A
 *              barrier a tile keeps the block's warps on one tile when the
 *              16-byte blocks it loads start 16 bytes off a 32-byte
 *              boundary (doc/TUNING.md, "One lane tree a range");
 *   kPerTileGroup  kPerTile's trees, the tiles taken 8 at a time: each
 *              thread writes its 8 lane values to shared memory, warp w
 *              computes tile w's lane tree, and thread 0 takes the 8 tile
 *              values into the tile tree.  The same bits as kPerTile, the
 *              trees' combines shared by the 8 warps where kPerTile gives
 *              them all to warp 0 while the others wait at the next
 *              tile's barrier: for the operations whose combine costs
 *              most (LOGSUMEXP's double exp).  With kTwoLoads only, whose
 *              tiles load without a barrier. */
enum class LaneTree { kPerTile, kPerRange, kPerTileGroup };

/* How AgentReduce loads the 16-byte chunks of an interior tile that it
 * loads as aligned input's (load_lane, agent/reduce.cuh: aligned input,
 * realigned tiles, and kNeighbour's blocks; kTwoLoads' two loads a chunk
 * keep kCached, since the second load of each block hits in L1):
 *   kCached      __ldg (ld.global.nc), allocated in L1 as any load;
 *   kNoAllocate  ld.global.nc.L1::no_allocate.L2::128B (sm_75 and later,
 *                kCached before): not kept in L1, and L2 asked to fetch
 *                the 128-byte line. */
enum class Load { kCached, kNoAllocate };

struct ReducePolicy {
  LaneKind lane;  /* how a thread folds its 8 chunks (thread/fold.cuh) */
  int min_blocks; /* the register budget: the resident blocks an SM that
                   * ptxas must allow (__launch_bounds__ minBlocks) */
  Shift shift;
  LaneTree tree = LaneTree::kPerTile;
  int max_waves = 8; /* the most waves of blocks the block-count model
                      * launches (tune/model.c) */
  Load load = Load::kCached;
  int batched_min_blocks = 0; /* the budget of batched_tiles_kernel
                               * (kernel/batched.cuh); 0: the row's
                               * min_blocks, never double_min_blocks */
  /* min_blocks where the operation accumulates in double in a column
   * that also holds float accumulators (MEAN_VAR of f64, and of f32
   * under GPUREDUCE_ACCUMULATE_F64); 0: min_blocks */
  int double_min_blocks = 0;
};

/* Rows: the operation families; columns, in each row: kFloat16, kFloat,
 * kByte, kWideInt (thread/ops.cuh).  One line of provenance above each entry
 * (H200, sm_90; doc/TUNING.md has the reasons). */
constexpr ReducePolicy kReducePolicies[8][4] = {
    /* kSum */
    /* 16-bit: H200 f32 sum {3} 0.97 of the probe, {2, prefetch} 0.96; kNeighbour 0.77-0.94x */
    {{LaneKind::kSequential, 3, Shift::kTwoLoads},
     /* 32/64-bit: H200 f32 sum 2^24, kNoAllocate 1.032x (f64 1.018x) */
     {LaneKind::kSequential, 3, Shift::kTwoLoads, LaneTree::kPerTile, 8, Load::kNoAllocate},
     /* 8-bit: H200 u8 sum {4} 64.4 us, {3} 69.4; i8 kRealign 3 past 69.5 -> 67.1 us */
     {LaneKind::kByteDot, 4, Shift::kRealign},
     /* wider: H200 u64 sum kNoAllocate 1.016x at 2^24; ptxas: batched 64-bit {3} 72 regs, {4} 64 */
     {LaneKind::kSequential, 4, Shift::kRealign, LaneTree::kPerTile, 8, Load::kNoAllocate}},
    /* kProd */
    /* 16-bit: as the 16-bit sums (H200: not timed apart) */
    {{LaneKind::kSequential, 3, Shift::kTwoLoads},
     /* 32/64-bit: as the 32/64-bit sums (H200: kNoAllocate timed on the sums, the same loads) */
     {LaneKind::kSequential, 3, Shift::kTwoLoads, LaneTree::kPerTile, 8, Load::kNoAllocate},
     /* 8-bit: H200 u8 prod {4} 66.7 us, {3} 76.3; i8 range tree 1.03-1.06x, kNoAllocate 1.014x */
     {LaneKind::kByteProd, 4, Shift::kRealign, LaneTree::kPerRange, 8, Load::kNoAllocate},
     /* wider: as the wider sums (H200: not timed apart) */
     {LaneKind::kSequential, 4, Shift::kRealign, LaneTree::kPerTile, 8, Load::kNoAllocate}},
    /* kMinMax */
    /* 16-bit: H200 f16 max 2^24 native 9.98 us, packed keys 12.20; 2^26 {5} 36.71 us, {6} 38.02 */
    {{LaneKind::kNativeMinMax, 5, Shift::kRealign},
     /* 32/64-bit: H200 f32 min native {4, range} 237.8 us, keys 240.5; kNoAllocate 1.031x at 2^24 */
     {LaneKind::kNativeMinMax, 4, Shift::kRealign, LaneTree::kPerRange, 8, Load::kNoAllocate},
     /* 8-bit: H200 i8 min {4, range} 66.2 / 69.8 us, {3, tile} 66.8 / 71.1 */
     {LaneKind::kByteSimd, 4, Shift::kRealign, LaneTree::kPerRange},
     /* wider: H200 i32 min {3, tile} 246.7 / 245.5 us, {4, range} 245.7 / 255.8 */
     {LaneKind::kSequential, 3, Shift::kRealign, LaneTree::kPerTile, 8, Load::kNoAllocate}},
    /* kArg */
    /* 16-bit: H200 f16 argmin {4, range} 133.2 / 148.4 us, {3, tile} 146.2 / 204.0 */
    {{LaneKind::kArgPosition, 4, Shift::kRealign, LaneTree::kPerRange},
     /* 32/64-bit: H200 f32 argmin {4, range} 247.5 / 249.1 us, {3, tile} 251.6 / 274.7 */
     {LaneKind::kArgPosition, 4, Shift::kRealign, LaneTree::kPerRange, 8, Load::kNoAllocate},
     /* 8-bit: H200 u8 argmin, branch-free lane {4} 66.1 us, {3} 78.0; kNoAllocate 1.04x at 2^26 */
     {LaneKind::kByteArg, 4, Shift::kRealign, LaneTree::kPerRange, 8, Load::kNoAllocate},
     /* wider: H200 i32 argmin {4, range} 247.1 / 252.5 us, {3, tile} 249.1 / 264.4 */
     {LaneKind::kArgPosition, 4, Shift::kRealign, LaneTree::kPerRange, 8, Load::kNoAllocate}},
    /* kDot */
    /* every type: ptxas {3} spills 8-16 bytes, {2} none (92 registers); H200 1.01-1.06x cuBLAS */
    {{LaneKind::kSequential, 2, Shift::kNeighbour},
     {LaneKind::kSequential, 2, Shift::kNeighbour},
     {LaneKind::kSequential, 2, Shift::kNeighbour},
     {LaneKind::kSequential, 2, Shift::kNeighbour}},
    /* kNrm2 */
    /* 16-bit: H200 f16 medium lane {4} 1.54x the sequential {3} (1.76x at 2^24) */
    {{LaneKind::kNrm2Medium, 4, Shift::kTwoLoads},
     /* 32/64-bit: H200 f32 medium lane {4} 1.29x at 2^26; kNeighbour 0.86-0.95x past alignment */
     {LaneKind::kNrm2Medium, 4, Shift::kTwoLoads},
     /* 8-bit, past kMaxCount: H200 i8 {4} one wave 68.3 us, {3} 79.9; at {4} kNeighbour 64.7 us */
     {LaneKind::kByteNrm2, 4, Shift::kNeighbour, LaneTree::kPerTile, 1},
     /* wider: H200 i32 2^26 {4, kNeighbour} 65.4 us, {3, kTwoLoads} 80.3; batched {3} 1.08x {4} */
     {LaneKind::kNrm2Medium, 4, Shift::kNeighbour, LaneTree::kPerTile, 8, Load::kCached, 3}},
    /* kMeanVar */
    /* 16-bit: H200 f16 {5} 0.85-1.01x {3}; kNeighbour 1.02-1.19x past alignment from 2^24 */
    {{LaneKind::kSequential, 3, Shift::kNeighbour},
     /* f32: H200 {2} has 4 resident, {4} 0.99-1.01x; one wave 1.02x; f64 {4} 1.10-1.13x {3} */
     {LaneKind::kSequential, 2, Shift::kTwoLoads, LaneTree::kPerTile, 1, Load::kCached, 0, 4},
     /* 8-bit: H200 i8 {4} 1.00-1.16x {3} from 2^24, {5} 0.84x; kNeighbour 1.05-1.10x */
     {LaneKind::kSequential, 4, Shift::kNeighbour, LaneTree::kPerTile, 8, Load::kCached, 2},
     /* wider: H200 i32 {4} 1.16-1.18x {3} at 2^26 (0.93x at 2^20); batched {2}, not timed */
     {LaneKind::kSequential, 4, Shift::kTwoLoads, LaneTree::kPerTile, 8, Load::kCached, 2}},
    /* kLogSumExp: floating types only (integers are refused); SUM's float rows, the lane
     * trees of 8 tiles shared by the 8 warps: H100 1-D f32 1.21-1.34x, bf16 1.13-1.27x from
     * 2^24, rows of 2^16 and 2^20 1.33-1.44x (with the float exp's bit tricks, 1.01-1.03x);
     * 1-D {4} (64 registers; bf16 spills 8 bytes) H100 2^24-2^28 f32 1.02-1.05x {3}, bf16
     * 1.04-1.07x; batched tiles keep {3}; f64 {2} (4 bytes spilled at {3}) */
    {{LaneKind::kSequential, 4, Shift::kTwoLoads, LaneTree::kPerTileGroup, 8, Load::kCached, 3},
     {LaneKind::kSequential, 4, Shift::kTwoLoads, LaneTree::kPerTileGroup, 8, Load::kNoAllocate,
      3, 2},
     {LaneKind::kSequential, 2, Shift::kTwoLoads},
     {LaneKind::kSequential, 2, Shift::kTwoLoads}},
};

/* The policy of (type, op) for host code: the row of the operation's
 * family, the column of the type's (defined in dispatch/reduce.cu). */
const ReducePolicy &reduce_policy_for(gpureduce_type_t type, gpureduce_op_t op);

/* Does Op accumulate in double (its W, where it names one: NRM2,
 * MEAN_VAR, the arg ops)? */
template <class Op, class = void> struct AccumulatesDouble : std::false_type {};
template <class Op>
struct AccumulatesDouble<Op, std::void_t<typename Op::W>>
    : std::is_same<typename Op::W, double> {};

/* The NRM2 of 8-bit integers while its sums are exact (ExactByteNrm2,
 * thread/ops.cuh, taken for n <= its kMaxCount): the order-free rows' realigned
 * tiles and one lane tree a range, with the ordered row's lane, register
 * budget (64 registers, no spill) and one wave.
 * H200 i8, the ordered row's time / this row's: 1.02 / 1.91x at 2^20, 1.02 / 1.09x at 2^28 */
constexpr ReducePolicy kExactByteNrm2Policy{LaneKind::kByteNrm2, 4, Shift::kRealign,
                                            LaneTree::kPerRange, 1, Load::kNoAllocate};

/* The policy table's row of Op: that of its family and its type's
 * column, or an operation's own. */
template <class Op> struct PolicyRow {
  static constexpr ReducePolicy value =
      kReducePolicies[static_cast<int>(Op::kFamily)][static_cast<int>(type_family(Op::kType))];
};
template <gpureduce_type_t T> struct PolicyRow<ExactByteNrm2<T>> {
  static constexpr ReducePolicy value = kExactByteNrm2Policy;
};
/* AMAX: MIN/MAX's row (its family's: the same loads, realignment and range
 * tree, not timed apart), with AMAX's lanes in place of the min/max ones:
 * four bytes or two 16-bit floats at once, else the sequential lane of
 * Amax::combine. */
constexpr ReducePolicy with_amax_lane(ReducePolicy p, TypeFamily f) {
  p.lane = f == TypeFamily::kByte      ? LaneKind::kByteAmax
           : f == TypeFamily::kFloat16 ? LaneKind::kHalfAmax
                                       : LaneKind::kSequential;
  return p;
}
template <gpureduce_type_t T> struct PolicyRow<Amax<T>> {
  static constexpr ReducePolicy value = with_amax_lane(
      kReducePolicies[static_cast<int>(OpFamily::kMinMax)][static_cast<int>(type_family(T))],
      type_family(T));
};

/* The row of Op: its policy and its lane. */
template <class Op> struct PolicyOf {
  static constexpr ReducePolicy value = PolicyRow<Op>::value;
  static constexpr int min_blocks = value.double_min_blocks > 0 && AccumulatesDouble<Op>::value
                                        ? value.double_min_blocks
                                        : value.min_blocks;
  static constexpr int batched_min_blocks =
      value.batched_min_blocks > 0 ? value.batched_min_blocks : value.min_blocks;
  static constexpr Shift shift = value.shift;
  static constexpr LaneTree tree = value.tree;
  static constexpr Load load = value.load;
  static_assert(value.max_waves >= 1, "one wave at least");
  static_assert(tree != LaneTree::kPerRange || Op::kOrderFree,
                "one lane tree a range only where the order does not decide the value");
  static_assert(tree != LaneTree::kPerTileGroup || shift == Shift::kTwoLoads,
                "tiles grouped by 8 only where a tile loads without a barrier");
  static_assert(shift != Shift::kRealign || Op::kOrderFree,
                "realigned tiles only where the order does not decide the value");
  using Lane = typename LaneOf<Op, value.lane>::type;
};

} /* namespace gr */

#endif /* GR_CUDA_POLICY_CUH */
