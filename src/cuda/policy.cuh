/*
 * cuda/policy.cuh - the one policy table of the production kernel.
 *
 * Every (op, type) of gpureduce_reduce() runs the same kernel,
 * reduce_kernel<Op> (kernel_reduce.cuh), with 256 threads a block (one per
 * lane of the order) and a grid that tune/model.c chooses.  What differs
 * is read from this table, one row per operation family and one column per
 * type family (ops.cuh: 16-bit floats, 32/64-bit floats, 8-bit and wider
 * integers):
 *   lane        how a thread folds its 8 chunks (thread_fold.cuh, LaneKind);
 *   min_blocks  the register budget, given to ptxas as the resident blocks
 *               per SM it must allow (__launch_bounds__ minBlocks);
 *   shift       how misaligned interior tiles are loaded (Shift);
 *   tree        when the block combines its lanes' values (LaneTree);
 *   max_waves   the most waves of blocks the block-count model launches
 *               (tune/model.c; 8, the model's most, unless a row says);
 *   load        how the interior tiles' chunks are loaded (Load);
 *   batched_min_blocks  the register budget of batched_tiles_kernel
 *               (kernel_batched.cuh), where it differs from min_blocks
 *               (0: the row's min_blocks, never double_min_blocks);
 *   double_min_blocks  min_blocks for the operations of the row and
 *               column that accumulate in double, where the column also
 *               holds float accumulators (0: min_blocks).
 * Tuning values are data, as in CUB's policies; the measurement behind
 * each is below its row.  None of them changes a bit of any result: the
 * order of doc/ORDER.md does not depend on the lane kind, the register
 * budget or the shift, and the results that kPerRange computes in another
 * order do not depend on the order.
 *
 * A further field, prefetch (the block's next interior tile loaded before
 * the current one is folded, two tiles in registers), was measured below
 * and taken by no row once misaligned tiles took one load a chunk; the
 * code went with it (2026-12-02).  The measurements stay as the reason.
 */
#ifndef GR_CUDA_POLICY_CUH
#define GR_CUDA_POLICY_CUH

#include "cuda/ops.cuh"
#include "cuda/thread_fold.cuh"

namespace gr {

/* How AgentReduce loads an interior tile of misaligned input, whose
 * chunks each straddle two aligned 16-byte blocks (agent_reduce.cuh):
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

/* When the block combines its lanes' values (fold_tiles, agent_reduce.cuh):
 *   kPerTile   the order's lane tree for every tile, then the tile tree;
 *   kPerRange  each thread combines its lane values of every tile of the
 *              range, and the block runs one lane tree a range: no lane
 *              tree a tile, but the running value takes registers.  Only
 *              for the operations whose value does not depend on the order
 *              of combination (Op::kOrderFree), so the same bits.  A
 *              barrier a tile keeps the block's warps on one tile when the
 *              16-byte blocks it loads start 16 bytes off a 32-byte
 *              boundary (below, "Why a barrier a tile"); otherwise none. */
enum class LaneTree { kPerTile, kPerRange };

/* How AgentReduce loads the 16-byte chunks of an interior tile that it
 * loads as aligned input's (load_lane, agent_reduce.cuh: aligned input,
 * realigned tiles, and kNeighbour's blocks; kTwoLoads' two loads a chunk
 * keep kCached, since the second load of each block hits in L1):
 *   kCached      __ldg (ld.global.nc), allocated in L1 as any load;
 *   kNoAllocate  ld.global.nc.L1::no_allocate.L2::128B (sm_75 and later,
 *                kCached before): not kept in L1, and L2 asked to fetch
 *                the 128-byte line. */
enum class Load { kCached, kNoAllocate };

struct ReducePolicy {
  LaneKind lane;
  int min_blocks;
  Shift shift;
  LaneTree tree = LaneTree::kPerTile;
  int max_waves = 8;
  Load load = Load::kCached;
  int batched_min_blocks = 0;
  /* min_blocks where the operation accumulates in double in a column
   * that also holds float accumulators (MEAN_VAR of f64, and of f32
   * under GPUREDUCE_ACCUMULATE_F64); 0: min_blocks */
  int double_min_blocks = 0;
};

/*
 * Why the lanes other than kSequential (H200, 2026-11-30, reduce-bench at
 * n = 2^28, one call): with the plain element-by-element fold, u8 argmin
 * ran at 0.18x and f16 min at 0.54x the f32 sum's GB/s, so compute, not
 * memory, set their speed.  Only the floating sums must follow the order
 * element by element; every other operation gives the same answer in any
 * order, so its lane takes exact shortcuts.
 *
 * Why min_blocks and prefetch (H200, 2026-11-30; reduce-bench --n 2^28
 * --only lib, one call, median of 20; % of the 1 GiB read-only probe),
 * three builds side by side, {3 blocks, no prefetch} / {3, prefetch} /
 * {2, prefetch}:
 *   f32 sum 97 / 90 / 96    u8 argmin 68 / 58 / 51    i8 sum 73 / 71 / 72
 *   f32 argmin 72 / 89 / 90  f64 argmin 81 / 98 / 97  f16 argmin 45 / 49 / 49
 * Without a budget ptxas aims at full occupancy (32 registers) and issues
 * each 16-byte load just before its use: two or three loads in flight
 * instead of eight.  With {3, prefetch} the 32- and 64-bit argmin/argmax
 * kernels spill (80-register cap with two tiles in registers; they take
 * 96 to 101 registers with 2 blocks).  So 3 blocks without prefetch,
 * except argmin/argmax of 16-bit and wider elements, whose per-element
 * compute the prefetch hides.
 *
 * Why 3 blocks for the 16-bit argmin/argmax (H200, 2026-12-01; reduce-bench
 * --sweep --op argmin --type f16, GPUREDUCE_TUNE=off, median of 5 batches of
 * 20 calls, two runs each, side by side): under {2, prefetch} ptxas gives
 * these kernels 80 to 88 registers depending on the surrounding code, and
 * 88 leaves 2 resident blocks instead of 3.  f16 argmin at 87 registers took
 * 615.9 us at 2^30 and 93.4 us at 2^27; the same kernel at 80 registers took
 * 547.0 and 85.1 us (1.10 to 1.13 times faster from 2^25 up).  {3, prefetch}
 * caps them at 80 registers, with no spill (ptxas -v, sm_90).
 *
 * Why no prefetch, 4 resident blocks for the 8-bit argmin/argmax, and the
 * packed lane at 5 blocks for the 16-bit min/max (H200, 2026-12-02): once
 * misaligned tiles took one load a chunk instead of two (agent_reduce.cuh,
 * share_firsts), the kernels need far fewer registers: the f32 and f16
 * argmin take 64 under the 3-block budget (4 blocks resident, where they
 * had 80 and 3).  The same kernels under other rows, all with kNeighbour,
 * launched side by side by a test program on the library's headers, each
 * result's bits equal to gpureduce_reduce's; us at n = 2^28 - 3, aligned /
 * 6 or 12 bytes past alignment ({blocks, prefetch}):
 *   f32 argmin  {3, no} 252.2 / 274.6   {2, yes} 348.1 / 416.6   CUB 241.0 / 249.1
 *   f16 argmin  {3, no} 154.4 / 176.9   {3, yes} 232.1 / 243.8   CUB 155.2 / 151.5
 *   i8 argmin   {4, no} 117.7 / 130.8   {3, no}  137.0 / 143.7   CUB 176.4 / 176.1
 *   bf16 max    packed {5} 134.5 / 144.2   ordered keys {3} 158.6 / 184.5
 *               ordered keys {5} 142.2 / 161.7   CUB 130.0 / 147.0
 *   f32 sum     {3, no} 241.2 / 245.0   {2, yes} 244.8 / 261.5
 * The prefetch now costs everywhere: under 3 blocks it spills (48 to 88
 * bytes), under 2 it leaves half the blocks of {3, no}.  The 16-bit
 * min/max at 6 blocks (40 registers) spills 144 bytes.
 *
 * Why each row's shift (H200, 2026-12-02; reduce-bench --sweep-1d, input
 * 3 elements past alignment, a build with kNeighbour in every row against
 * doc/perf-h200-1d.csv of the two-load build; time with two loads / time
 * with kNeighbour): the sums, products, NRM2, the 32/64-bit MEAN_VAR and
 * the min/max of 32/64-bit and integer elements were slower with
 * kNeighbour where L2 holds the input (0.77 to 0.94 at 2^22 and 2^24 for
 * most; 0.88 to 1.00 from 2^26): its barrier and shuffles cost more than
 * the loads they save.  The arg ops of 32- and 64-bit elements were 1.13
 * to 1.27 faster from 2^24, the 16-bit min/max (with the packed lane)
 * 1.06 to 1.20 (no longer: below), the 16-bit MEAN_VAR 1.02 to 1.19, the
 * 8-bit arg ops 1.09 at 2^22 and 2^24 (0.93 from 2^28, but they need
 * kNeighbour's registers for 4 blocks).  The integer NRM2 no longer: at
 * 4 blocks kNeighbour is what avoids the spill (below, "Why kNeighbour").
 */
/*
 * Why one lane tree a range (LaneTree::kPerRange) for the arg ops of
 * floats and 8-bit integers and the min/max of 32/64-bit floats and 8-bit
 * integers, at 4 blocks (H200, 2026-12-02; reduce_kernel under each row
 * launched side by side by tools/policy-variants,
 * median of 5 batches of 20 launches, each result's bits equal to the
 * kPerTile kernel's; us at n = 2^28, aligned / 3 elements past alignment;
 * {blocks, tree}, registers):
 *   f32 argmin  {3, tile} 64: 251.6 / 274.7   {4, range} 64: 247.5 / 249.1
 *               {3, range} 71 (3 resident): 251.0 / 260.8
 *   f64 argmin  {3, tile} 62: 488.3 / 512.9   {4, range} 64: 479.5 / 488.4
 *   f16 argmin  {3, tile} 64: 146.2 / 204.0   {4, range} 64: 133.2 / 148.4
 *   i8 argmin   {4, tile} 62: 111.9 / 133.8   {4, range} 64: 101.4 / 122.2
 *   f64 min     {3, tile} 62: 490.6 / 514.6   {4, range} 64: 486.8 / 512.5
 *   f32 min     {3, tile} 64: 247.8 / 252.8   {4, range} 64: 245.4 / 252.8
 *   i8 min      {3, tile} 62:  66.8 /  71.1   {4, range} 64:  66.2 /  69.8
 * and at 2^26 / 2^24, 3 past alignment: f32 argmin 75.7 -> 69.6 / 27.1 ->
 * 25.3, f16 argmin 52.3 -> 46.1 / 19.0 -> 18.4.  Left at one tree a tile:
 * the 32/64-bit integer arg ops (at 4 blocks they spill 52 bytes, at 3
 * they take 74 registers and 3 resident blocks; taken later, below), the
 * integer sums (no gain: i32 243.8 / 246.0 against 242.9 / 251.4), the
 * 32/64-bit integer min/max (i32 246.7 / 245.5 against 245.7 / 255.8) and
 * the 16-bit min/max (141.7 / 166.0 against 147.9 / 159.6).  The same
 * run gave the 8-bit NRM2 2 blocks (124 registers, where 3 spilled 12
 * bytes in the library's build): 264.0 / 274.2 -> 246.6 / 257.6 us at
 * 2^28, 22.2 -> 19.5 at 2^24 aligned, 69.0 -> 72.6 at 2^26 misaligned.
 */
/*
 * Why one lane tree a range at 4 blocks for the 32/64-bit integer arg
 * ops, and two loads a chunk for the 16-bit min/max (H200, 2026-12-02,
 * later; tools/policy-variants as above, two runs, the faster; us,
 * aligned / 3 elements past alignment; {blocks, tree}, registers).  The
 * arg ops' value is now the element's own 32 bits for the integers of up
 * to 32 bits (ops.cuh ArgValue), which took the range tree's spill at 4
 * blocks from 40 to 8 bytes (64-bit integers: 40 bytes):
 *   i32 argmin  {3, tile} 64: 2^28 248.3 / 266.7  2^26 68.7 / 71.0
 *               {4, range} 64: 2^28 247.1 / 252.5  2^26 68.5 / 70.2
 *   u32 argmax  {3, tile}: 2^28 248.6 / 289.9   {4, range}: 247.2 / 252.0
 *   i64 argmin  {3, tile} 64: 2^28 491.6 / 568.6  2^26 129.9 / 136.2
 *               {4, range} 64: 2^28 484.3 / 497.5  2^26 129.4 / 131.9
 *   (2^24: i32 23.4 / 25.3 both; i64 38.6 / 40.8 -> 39.3 / 41.0)
 *   bf16 max, packed lane, 5 blocks, 48 registers, kNeighbour / kTwoLoads,
 *   3 past alignment: 2^22 10.47 / 10.20, 2^24 15.16 / 14.32, 2^26
 *   43.48 / 40.41, 2^28 161.2 / 141.3 (aligned the same: 135.5 / 136.3).
 *   The reason for kNeighbour above no longer holds for this lane; the
 *   range tree at 5 blocks spills 28 bytes.
 */
/*
 * Why realigned tiles (Shift::kRealign) for every row whose operations
 * the order does not decide: min, max, argmin, argmax and the integer
 * sums and products (H200, 2026-12-02; tools/policy-variants, each row's
 * kernel under its former shift and under kRealign, median of 5 batches
 * of 20 launches, every result's bits equal; us, aligned / 3 elements
 * past alignment, former -> realigned; the f16 argmin row is from a run
 * of an earlier edge tile, whose interior tiles are the same code):
 *   f16 argmin   2^28 130.9 / 139.5 -> 126.0 / 128.9   2^24 13.3 / 18.5 -> 12.8 / 17.4
 *   bf16 argmax  2^28 131.9 / 148.1 -> 127.7 / 130.4
 *   u8 argmin    2^28  91.2 / 109.4 ->  89.6 /  95.7   2^22  8.5 / 13.9 ->  8.3 / 14.1
 *   u64 argmax   2^28 473.5 / 480.0 -> 469.6 / 477.2   2^22 11.0 / 12.9 -> 10.9 / 11.7
 *   f32 argmin   2^28 242.3 / 243.9 -> 242.0 / 242.2
 *   f64 max      2^28 472.4 / 493.1 -> 472.5 / 480.4
 *   f32 min      2^28 240.3 / 246.1 -> 240.2 / 240.3   2^20  6.0 /  7.4 ->  6.0 /  7.8
 *   f16 max      2^28 131.9 / 135.4 -> 130.6 / 130.9
 *   i8 sum       2^28  63.1 /  69.5 ->  62.9 /  67.1   2^14  4.2 /  4.3 ->  4.2 /  4.6
 *   u32 sum      2^28 237.8 / 239.7 -> 237.8 / 238.0   2^20  4.9 /  5.3 ->  5.0 /  5.5
 * A misaligned vector's interior tiles then cost what aligned ones do:
 * no second load, shuffle or barrier a chunk, and fewer registers (the
 * 32/64-bit integer arg ops lose their 8 to 40 bytes of spill, the f32
 * min/max go from 64 to 53 registers).  What it costs is at the ends: the
 * first chunk's elements in the vector and those past the last realigned
 * tile are folded one a thread, so up to 2^22 a misaligned call took 0.2
 * to 0.5 us more (u8 argmin at 2^14 7.6 -> 8.1; f32 min at 2^20 7.4 ->
 * 7.8).  Since the edge tiles load their chunks 16 bytes at once and fold
 * them through the lane (2026-12-03), a misaligned call costs about
 * 0.1 to 0.4 us more than an aligned one (reduce-bench --sweep-1d,
 * aligned / 3 past alignment: u8 argmin 2^18 7.85 / 8.27 us, bf16 max
 * 2^22 7.24 / 7.48, f32 min 2^20 6.07 / 6.22).  The 16-bit arg ops
 * measured kTwoLoads too: 126.1 / 132.5 at 2^28, between the two.
 */
/*
 * Why 4 blocks for the 8-bit sums and products (H200, 2026-12-03;
 * tools/policy-variants, the same kernel under {3} and {4}, median of 5
 * batches of 20 launches, the faster of two runs, bits equal; us at
 * n = 2^28, aligned / 3 elements past alignment).  Once the realigned
 * edge tiles fold chunks through the lane (agent_reduce.cuh,
 * lane_edge_realigned; measured on its first form), the 3-block budget
 * let ptxas give these kernels 72 registers, 3 resident blocks; under 4
 * they took 63 or 64 (59 or 60 in the final form), with no spill:
 *   u8 sum   {3} 72: 69.4 / 69.4    {4} 63: 64.4 / 64.5
 *   u8 prod  {3} 72: 76.3 / 76.3    {4} 64: 66.7 / 66.6
 *   i8 prod  {3} 72: 78.0 / 78.2    {4} 64: 69.8 / 69.9
 */
/*
 * Why the hardware's float min/max (LaneKind::kNativeMinMax) for MIN and
 * MAX of floats, at 5 blocks a tile tree for 16-bit floats and 4 blocks a
 * range tree for 32/64-bit ones (H200, 2026-12-03; tools/policy-variants,
 * median of 5 batches of 20 launches, every result's bits equal to the
 * former lane's; us, aligned / 3 elements past alignment; {blocks, tree},
 * registers).  The former lanes compared ordered integer keys, five or more
 * instructions an element (about ten a word for 16-bit floats), and where
 * L2 holds the input that compute set the speed:
 *   f16 max   packed keys {5, tile} 48: 2^24 12.20 / 12.27  2^26 40.01 / 40.07  2^30 481.5 / 481.6
 *             native {5, tile} 46:      2^24  9.98 / 10.29  2^26 36.71 / 37.77  2^30 470.9 / 471.2
 *             native {6, tile} 40:      2^24 10.20 / 10.21  2^26 38.02 / 38.16  2^30 474.2 / 474.2
 *   (bf16 min the same to 0.1 us; {6} is 0.05 to 0.2 us faster from 2^14
 *   to 2^22, slower from 2^24; the range tree spills at 6 blocks)
 *   f32 min   ordered keys {4, range} 56: 2^24 21.60 / 21.82  2^28 240.5 / 240.6  2^30 936.1 / 936.4
 *             native {4, range} 56:       2^24 21.08 / 21.13  2^28 237.8 / 237.9  2^30 928.6 / 928.8
 *   (native a tile tree at 4, 5 and 6 blocks: 2^26 65.3, 69.7, 70.2
 *   against 64.3)
 *   f64 max   ordered keys {4, range} 60: 2^22 10.59 / 10.54  2^24 36.67 / 36.84  2^28 472.1 / 479.8
 *             native {4, range} 59:       2^22 10.17 / 10.14  2^24 36.01 / 36.20  2^28 468.0 / 475.3
 *             native {3, tile} 60:        2^22 10.38 / 10.32  2^24 36.99 / 37.21  2^28 472.7 / 474.2
 */
/*
 * Why a barrier a tile under LaneTree::kPerRange when the 16-byte blocks
 * start 16 bytes off a 32-byte boundary (AgentReduce's lockstep; H200,
 * 2026-12-03, tools/policy-variants as above, another machine start).
 * Three elements past a 32-byte-aligned allocation, 8-byte elements start
 * 8 bytes past a 16-byte boundary, so the realigned tiles' blocks are 16
 * bytes off 32-byte sectors and a warp's 512 bytes touch 17 of them (2
 * elements past, the blocks are the same).  Without a barrier, the range
 * tree's warps drift apart over a range and these rows lost 9 % at 2^30
 * (not profiled: the DRAM's side is a guess); with one a tile they run at
 * the aligned speed:
 *   f64 max      {4, range}: 2^28 478.8 / 491.3  2^30 1904.3 / 2075.2
 *                with the barrier: 479.0 / 480.6  1903.1 / 1893.4
 *                {3, tile}:        483.5 / 489.5  1904.5 / 1923.4
 *   f64 argmin   {4, range}: 2^30 1903.8 / 2076.9  with the barrier: 1903.5 / 1894.8
 *   i64 argmax   {4, range}: 2^30 1906.5 / 2081.6  with the barrier: 1908.1 / 1899.6
 * With blocks 32-byte aligned there is no barrier.  A barrier a tile
 * always was measured too and not taken: f32 min 2^30 952.8 -> 948.3, u8
 * argmin 2^30 380.5 -> 348.9 but 2^28 98.6 -> 101.5, f16 argmin 2^30
 * 496.1 -> 512.9.
 */
/*
 * Why one wave for the MEAN_VAR of 32- and 64-bit floats (max_waves 1;
 * H200, 2026-12-03; tools/policy-variants with PV_WAVES="1 4 8", median
 * of 5 batches of 20 launches, bits equal across grids; us at one wave,
 * aligned / 3 elements past alignment, and time at one wave / time at the
 * model's waves).  MEAN_VAR's speed is set by its fold, not by memory
 * (it misses the GB/s target, doc/PERFORMANCE.md), and more, shorter
 * ranges gave it nothing but more combines:
 *   f32 MEAN_VAR  2^28  261.9 / 272.3, 4 waves 0.976 / 0.976
 *                 2^30 1005.7 / 1045.8, 8 waves 0.972 / 0.977
 *   f64 MEAN_VAR  2^28  822.1 / 856.0, 4 waves 0.993 / 1.000
 *                 2^30 3262.5 / 3375.7, 8 waves 1.003 / 1.004
 * (In the run before, the 16-bit MEAN_VAR gained 2 to 7 % from the waves,
 * so its column keeps them.)  Timed under the 2-block row; f64 runs at 3
 * blocks since 2026-12-04 (below, with MEAN_VAR's rows), waves not timed
 * again.
 */
/*
 * Why chunks not kept in L1 (Load::kNoAllocate) for the sums, products,
 * min/max and arg ops of 32/64-bit floats and wider integers (H200,
 * 2026-12-03, doc/PERFORMANCE.md; tools/policy-variants with PV_WAVES=0,
 * the model's waves, each row under both loads in one binary, run twice
 * in each order; median of the four, each a median of 5 batches of 20
 * launches, every result's bits equal; time with __ldg / time with the
 * hint, aligned / 3 elements past alignment):
 *   row           2^20         2^22         2^24         2^26         2^28
 *   f32 argmin    1.000/1.001  1.005/0.992  1.048/1.052  1.013/1.014  1.003/1.004
 *   i32 argmin    1.001/0.999  1.002/1.003  1.045/1.055  1.013/1.013  1.004/1.003
 *   f32 min       0.998/0.998  1.001/1.005  1.031/1.029  1.009/1.010  1.004/1.004
 *   i32 max       1.001/1.001  1.003/1.006  1.035/1.036  1.008/1.008  1.003/1.003
 *   f32 sum       0.996/0.999  1.004/1.002  1.032/1.000  1.008/1.001  1.003/1.000
 *   f64 sum       1.005/0.995  1.005/0.999  1.018/0.999  1.005/0.999  1.002/1.000
 *   u64 sum       1.005/0.989  1.002/0.980  1.016/1.020  1.006/1.005  1.002/1.001
 *   f64 max       0.999/0.986  0.996/0.974  1.017/1.019  1.007/1.005  1.003/1.002
 * (2^30: 0.998 to 1.002.)  The two-load rows (f32, f64 sum) gain only
 * aligned: their misaligned tiles keep __ldg, since the second load of
 * each block hits in L1 (they lost 2 to 30 % with the hint there).  The
 * 64-bit rows lose 1 to 3 % 3 past alignment at 2^20 to 2^22, where
 * in the sweep with the hint every one of them but f64 min/max is 1.6 %
 * or more ahead of CUB; f64 min/max at 2^22 were behind CUB already
 * (not the lane's fold: doc/PERFORMANCE.md) and fell further, to 0.91 to
 * 0.96.
 * Not taken for the 16- and 8-bit rows, which gain 2 to 4 % at 2^26 but
 * lose at 2^24 (f16 argmin 0.927/0.930, f16 max 0.984/0.985, u8 argmin
 * 0.994/0.992), except the 8-bit products (2026-12-04, the same tool,
 * three runs in each order, median of six: i8 1.023/1.027 at 2^26,
 * 1.014/1.014 at 2^28, 1.003 at 2^30, u8 1.026/1.035, 1.011/1.013,
 * 1.002; equal below 2^26), nor for MEAN_VAR (f64 0.957 aligned at
 * 2^22, nothing from 2^26).  In the sweep (reduce-bench --sweep-1d) the 11 rows at
 * 2^24 behind CUB went ahead: f32 argmin 23.00 -> 22.03 us, i32 argmax 3
 * past 22.76 -> 21.67, f32 min 20.89 -> 20.16.
 */
/*
 * Why the 8-bit arg ops keep 4 blocks under the branch-free Byte8ArgLane
 * (thread_fold.cuh; H200, 2026-12-03; tools/policy-variants, PV_WAVES=0,
 * two orders run twice, median of the four; us aligned / 3 past
 * alignment; every result's bits equal to the old lane's):
 *   u8 argmin       2^20         2^24          2^26          2^28          2^30
 *   old lane {4}    8.05/8.25    11.62/11.93   29.29/29.62   88.91/89.27   301.1/301.7
 *   new lane {4}    6.34/6.71     8.32/8.61    22.35/22.59   66.13/66.12   239.8/240.0
 *   new lane {3}    6.32/6.73     9.13/9.71    23.61/24.75   78.01/78.41   243.9/243.9
 * i8 argmax the same (old {4} 98.24 us at 2^28, new {4} 66.05, {3} 80.36).
 * The new lane takes 64 registers under 4 blocks and spills nothing; a
 * first form that kept all 8 chunks until finish needed 79 (3 blocks) or
 * spilled 124 bytes under 4.
 * Why its chunks are not kept in L1 (kNoAllocate; the same runs, time with
 * __ldg / time with the hint, aligned / 3 past alignment; bits equal):
 *   row          2^20         2^24         2^26         2^28         2^30
 *   u8 argmin    0.998/1.000  1.003/1.002  1.042/1.052  1.012/1.015  1.003/1.003
 *   i8 argmax    1.001/1.000  1.000/1.002  1.039/1.051  1.013/1.014  1.003/1.003
 * (u8 argmin 2^28: 67.33 -> 66.5 us.)  The old lane had lost at 2^24 with
 * the hint (0.994/0.992, above); this one does not.
 */
/*
 * Why the NRM2 lanes (H200, 2026-12-03; tools/policy-variants with
 * PV_WAVES=0 and PV_MEDIUM=1, every float value medium; two orders run
 * twice, median of the four; time of the sequential lane {3 blocks} /
 * time of the row, aligned / 3 past alignment; every result's bits equal):
 *   row                    2^20         2^24         2^26         2^28         2^30
 *   f16 kNrm2Medium {3}    1.066/0.983  1.508/1.411  1.398/1.371  1.376/1.400  1.405/1.446
 *   f16 kNrm2Medium {4}    1.068/0.991  1.764/1.523  1.632/1.607  1.541/1.583  1.435/1.475
 *   bf16 kNrm2Medium {3}   1.043/0.992  1.319/1.273  1.311/1.284  1.334/1.335  1.418/1.399
 *   bf16 kNrm2Medium {4}   1.051/0.987  1.505/1.373  1.611/1.556  1.551/1.534  1.462/1.469
 *   f32 kNrm2Medium {3}    0.979/0.989  1.079/1.076  1.067/1.080  1.021/1.044  1.021/1.061
 *   f32 kNrm2Medium {4}    0.977/0.985  1.191/1.180  1.290/1.301  1.080/1.102  1.031/1.070
 *   f64 kNrm2Medium {3}    0.953/0.975  0.981/0.991  0.987/0.986  0.996/0.997  0.996/1.012
 *   f64 kNrm2Medium {4}    0.954/0.975  1.166/1.168  1.116/1.123  1.019/1.025  1.001/1.021
 *   i32 kNrm2Medium {3}    1.063/1.010  1.154/1.178  1.106/1.173  1.091/1.176  1.175/1.240
 *   i32 kNrm2Medium {4}    1.060/1.018  1.160/1.215  1.259/1.331  1.074/1.158  1.130/1.175
 *   i64 kNrm2Medium {3}    1.059/1.018  1.005/1.068  1.007/1.045  1.003/1.015  1.003/1.055
 *   i64 kNrm2Medium {4}    1.027/1.007  1.106/1.176  1.087/1.119  0.963/0.965  0.978/1.017
 *   i8 kByteNrm2 {3}       1.657/1.046  2.554/1.731  2.748/2.397  3.033/3.002  3.602/3.683
 * (i8 against the sequential lane at its 2 blocks, in the first run; u8
 * the same, 2.52 to 3.40 from 2^24.)  At 4 blocks the 16-bit floats, f32
 * and f64 take 64 registers and no spill in reduce_kernel (f32 with
 * ACCUMULATE_F64: a 16-byte spill; batched_tiles_kernel of f64 spills 72
 * bytes and of f32 with ACCUMULATE_F64 96: not timed).  The wider
 * integers first stayed at 3: at 4 under kTwoLoads the 32-bit ones spill
 * 20 bytes and lose from 2^28, the 64-bit ones lose at 2^28; under
 * kNeighbour they now run at 4 (below, "Why kNeighbour").  Byte8Nrm2Lane
 * first stayed at 3 (79 registers; 16 bytes of spill at 4, and at the
 * model's waves 0.96 to 1.17); it now runs at 4 blocks and one wave
 * (below).
 * On pv's default input, where half the f32, bf16 and f64 values are
 * small (below 2^-63 or 2^-511), most chunks take lift (bf16 99.6 %, f32
 * 94 %, f64 75 %), and the
 * lane at 3 blocks ran at 0.79 to 0.90 (bf16), 0.83 to 0.95 (f32) and
 * 0.77 to 0.90 (f64) of the sequential lane's speed: the price of the
 * test, paid by inputs that are mostly tiny or huge.
 */
/*
 * Why 4 blocks and one wave for the NRM2 of 8-bit integers (H200,
 * 2026-12-04; tools/policy-variants at PV_WAVES="0 1", two build orders
 * run twice, median of four, bits equal).  ncu at 2^28: the 3-block
 * kernel (79 registers) waits on memory (long scoreboard 69 % of its
 * stalls) at 37.5 % occupancy and reads 3.43 TB/s; at 4 blocks (64
 * registers, 16 bytes of spill under kTwoLoads, none under kNeighbour:
 * below) 3.97 TB/s; the f32 sum (4 resident, the
 * same bytes) reads 4.21.  More waves of 3 blocks did not help (1, 2, 4,
 * 8: 81.0 to 83.0 us at 2^28).  Time of the old row ({3}, the model's
 * waves, at most 8: PV_MAX_WAVES=8 now) / time of {4} at one wave,
 * aligned / 3 past alignment:
 *   row        2^20         2^22         2^24         2^26         2^28         2^30
 *   i8 {4} w1  0.994/1.015  0.993/1.006  0.962/0.997  1.028/1.061  1.169/1.164  1.024/1.016
 *   u8 {4} w1  1.000/1.011  0.996/1.005  0.966/0.998  1.031/1.094  1.169/1.174  1.024/1.015
 * (i8 2^28: 79.9 -> 68.3 us.)  At the model's waves {4} lost at 2^30
 * (4 waves, 2048 blocks: 252.7/260.5 us against 246.3/249.9 at one).
 * The same runs gave i32 NRM2 at 4 blocks and one wave 1.14 at 2^26 but
 * 0.94 at 2^22 and 0.96/0.98 at 2^30 (20 bytes of spill), under
 * kTwoLoads; kNeighbour, below, has no spill.
 */
/*
 * Why kNeighbour for the NRM2 of integers, 4 blocks for the wider ones,
 * and 3 for their batched_tiles_kernel (H200, 2026-12-04 second run;
 * tools/policy-variants, PV_WAVES="0 1", two build orders run twice,
 * median of four, bits equal).  ptxas (sm_90): under 4 blocks kTwoLoads
 * spills 16 to 20 bytes in reduce_kernel of every integer NRM2, from
 * its misaligned path (two loads a chunk); kNeighbour (one load a chunk,
 * the second block from the neighbouring lane) takes 64 registers and
 * spills nothing.  Aligned input takes the same source path under either
 * shift.
 * us, aligned / 3 past alignment, one wave:
 *   row               2^20       2^24         2^26         2^28          2^30
 *   i32 {3} kTwoLoads 5.63/6.50  23.99/25.16  80.32/80.67  252.81/254.16 939.5/947.8
 *   i32 {4} kTwoLoads 5.63/6.43  23.85/23.93  70.37/70.98  252.30/251.01 981.7/963.0
 *   i32 {4} kNeighb.  5.69/6.56  21.58/22.86  65.41/66.70  239.59/241.01 931.1/941.1
 *   i64 {3} kTwoLoads 6.11/6.54  42.67/43.25 137.35/138.02 481.60/484.17 1850/1865
 *   i64 {4} kNeighb.  6.21/6.62  35.84/37.87 123.42/126.74 468.21/475.94 1852/1885
 *   i8 {4} kTwoLoads  4.99/9.76   7.81/12.49  23.17/28.44  68.31/72.52  246.5/249.9
 *   i8 {4} kNeighb.   5.09/9.86   7.54/12.25  21.09/26.84  64.69/69.62  237.9/242.7
 * (i64 at 2^30 at the model's 8 waves: {4} kNeighbour 1848.9/1855.5,
 * {3} kTwoLoads 1848.0/1860.1.)  The floating NRM2 keep kTwoLoads: under kNeighbour, past
 * alignment from 2^24 to 2^30, f32 ran at 0.86 to 0.95 of its speed, f64
 * at 0.90 to 0.92, bf16 at 0.95 to 0.98, f16 at 0.95 to 1.00 (a second
 * run, pv's default input, 4 blocks, no spill either way).
 * batched_tiles_kernel under 4 blocks spills 72 bytes for every integer
 * NRM2; reduce-bench --batch, nrm2, us aligned / one element past the
 * row (stride n+1), {3, kTwoLoads} -> {4, kNeighbour} -> {3, kNeighbour}
 * (batched_min_blocks, a later machine start):
 *   i32 1024 x 2^16   68.3/72.5 -> 73.2/76.1 -> 68.0/73.4
 *   u64 1024 x 2^15   67.6/69.9 -> 72.4/75.4 -> 67.1/70.2
 *   i32 64 x 2^20     68.4/69.5 -> 68.0/70.0 -> 67.8/70.5
 *   i64 64 x 2^19     67.7/68.8 -> 67.4/69.1 -> 67.1/68.6
 * The 8-bit NRM2's batched kernel stays at 4 (72 bytes of spill since
 * 2026-12-04, first run): against 3 it ran at 0.96 (i8 1024 x 2^16,
 * aligned), 1.07 one past, and within 0.99 to 1.03 for 64 x 2^20.
 */
/*
 * Why 4 blocks for the sums and products of wider integers (ptxas -v,
 * sm_90, 2026-12-03; not timed): under 3, ptxas gave batched_tiles_kernel
 * of the 64-bit integer sums, products and sums of |x| 72 registers, 3
 * resident blocks, where the 1-D kernels took 60 to 63.  Under 4 the
 * batched kernels of the 32/64-bit integer sums and products take 56 to
 * 64, the 1-D kernels 56 to 62; no spill.
 */
/*
 * Why 2 blocks for the dot product (2026-12-01, ptxas -v for sm_90, nvcc
 * 13.0; no GPU timing yet): AgentDot holds its lane's 8 chunks of x and 8
 * of y (64 registers of data, 16 loads in flight).  Under a 3-block budget
 * (80 registers) ptxas spills 8 to 16 bytes in the f32, f64 and integer
 * kernels; with 2 blocks they take 92 registers (121 for i8) and spill
 * nothing.  2 blocks of 256 threads keep 8192 loads of 16 bytes (128 KiB)
 * in flight per SM.  To be timed against {3, no prefetch} on the H200.
 * Its lane kind is unused: AgentDot folds pairs of chunks itself.
 */
/*
 * Why one lane tree a range for the 8-bit products (H200, 2026-12-04;
 * tools/policy-variants, PV_WAVES=0, bits equal; time with a tree a tile
 * / time with one a range, i8, aligned / 3 past alignment):
 *   2^20 1.05/1.03  2^22 1.04/1.02  2^24 1.00/1.01  2^26 1.05/1.06
 *   2^28 1.03/1.03  2^30 1.01/1.00
 * (u8's lane is the same code.)  Like the integer sums, an 8-bit product
 * wraps, so its value does not depend on the order of combination.
 */
/*
 * MEAN_VAR (2026-12-01, ptxas -v, sm_90): the sequential lane, as the
 * floating sums (its order is element by element; its counted fold,
 * thread_fold.cuh, takes its ratios from constants).  f32 MEAN_VAR takes
 * 62 to 64 registers, so 4 of its blocks are resident under the 2-block
 * budget too: a 4-block budget timed the same (0.991 to 1.007, 2^20 to
 * 2^30, 2026-12-03), a 3-block one 0.96 at 2^30 aligned (2026-12-04).
 *
 * Why 3 blocks (now 4: below) with a double accumulator (f64, f32 under
 * ACCUMULATE_F64, the wider integers; double_min_blocks in the float
 * column), 4 and
 * kNeighbour for 8-bit integers, and 2 in batched_tiles_kernel (H200,
 * 2026-12-04, third run; tools/policy-variants, PV_WAVES=0; bits equal).
 * Under 3 blocks ptxas spills 88 to 96 bytes, all in the last block's
 * root tree (cuobjdump: the stores and loads lie between its ticket and
 * its 8-byte ldcg reads of the roots); under 4, 388 to 560 bytes, also
 * in the lane tree.  ncu at 2^28 (--clock-control none): the f64 kernel
 * at 3 blocks reads 80 % of DRAM's peak, the i32 one 67 %; the i8 one at
 * 4, 28 %, with the FP64 pipe half busy (6 DADD/DMUL an element, 14.5
 * instructions an element in all) and 10.3 cycles a warp between
 * issues: a chain of dependent double operations in each lane, which
 * only more warps hide.  Time of the old row {2, kTwoLoads} with the old
 * combine (tools/policy-variants' MeanVarDivide) / time of the new row
 * with the new one (ops.cuh, r = 1/2 for equal counts), aligned / 3 past
 * alignment:
 *   row                  2^20        2^24        2^26        2^28        2^30
 *   f64 {3, kTwoLoads}   1.119/1.135 1.203/1.179 1.331/1.311 1.482/1.469 1.533/1.522
 *   i32 {3, kTwoLoads}   1.103/1.095 1.203/1.080 1.234/1.152 1.426/1.331 1.504/1.401
 *   i64 {3, kTwoLoads}   1.143/1.121 1.144/1.179 1.262/1.319 1.422/1.467 1.495/1.504
 *   i8 {4, kNeighbour}   0.962/1.002 1.066/0.986 1.141/1.122 1.254/1.216 1.350/1.380
 *   u8 {4, kNeighbour}   0.988/1.013 1.056/0.957 1.161/1.108 1.287/1.218 1.422/1.386
 *   f16 {3, kNeighbour}  1.042/1.034 1.057/1.032 1.042/1.049 1.052/1.083 1.030/1.007
 *   f32 {2, kTwoLoads}   1.033/1.041 1.035/1.045 1.024/1.029 1.006/1.022 1.006/0.947
 * (u32, u64 as i32, i64; bf16 1.04 to 1.11.  The f32 row's code differs
 * in the combine only; its 2^30 misaligned figure moved 0.95 to 1.03
 * between runs.)  The new combine alone, at the old rows, an earlier
 * start: f64 1.15 to 1.27, i32 1.10 to 1.25, i64 1.15 to 1.28, i8 1.03 to
 * 1.13 from 2^24.  Under other rows, time of the library's / time of the
 * row, same start:
 *   i8 {4, kN} / {5}     0.989/0.996 0.970/0.979 0.940/1.035 0.842/0.972 0.950/1.030
 *   i8 / {6}, {8}        0.82 to 0.98, 0.70 to 0.92 (spills of 1.1 to 3.6 KB)
 *   i32 {3, kTL} / {4}   0.931/0.959 1.061/1.114 1.175/1.163 1.121/1.087 1.047/1.019
 *   f64 {3, kTL} / {4}   0.948/0.971 1.112/1.106 1.128/1.115 1.075/1.043 1.027/0.986
 *   i32, f64 / {5}, {6}  0.78 to 1.03
 *   f16 {3} / {5}, {6}   0.68 to 1.01
 * For the 8-bit rows, an earlier start, {4} ran 1.00 to 1.16 times as
 * fast as {3} from 2^24 (both kNeighbour), and under {3} kTwoLoads ran
 * at 0.91 to 0.95 of kNeighbour's speed at 2^28 and 2^30.
 * batched_tiles_kernel keeps 2 blocks: not timed at more.
 *
 * Why 4 blocks, not 3, for f64 and the 32/64-bit integers (H200,
 * 2026-12-04, fourth run, as above: the range over two to four more
 * starts, u32 one; time at {3} / time at {4}, aligned / 3 past
 * alignment, 2^20, 2^22, ..., 2^30):
 *   i32  0.93-0.94/0.94-0.96  1.01-1.02/1.05  1.05-1.06/1.04-1.11
 *        1.16-1.18/1.15-1.16  1.11-1.12/1.08-1.18  1.03-1.06/1.01-1.02
 *   u32  0.94/0.96  1.01/1.06  1.06/1.12  1.17/1.15  1.12/1.10  1.01/0.99
 *   i64  0.96-0.97/0.97-0.98  1.06/1.05  1.10/1.10-1.11  1.15/1.13-1.15
 *        1.07/1.05-1.07  1.02-1.05/1.00-1.01
 *   f64  0.95-0.97/0.97  1.07/1.03-1.04  1.10-1.11/1.10  1.11-1.13/1.10-1.12
 *        1.04-1.07/1.03-1.04  0.97-1.04/0.95-1.00
 * 1 to 18 % faster from 2^22 to 2^28 (10 to 18 % at 2^26), 3 to 7 %
 * slower at 2^20 (where a block folds one tile; not explained: the
 * tile's first path issues 11 of its 16 loads before it converts, 10 at
 * 3 blocks), f64 at 2^30 within 5 % either way.  What did not
 * help (same runs, bits equal): the lane's chunks copied ahead into a
 * ring in shared memory by cp.async, 2 or 4 chunks ahead (the next tile's
 * loads in flight while the lane folds; tools/policy-variants/ring.cuh):
 * 0.72 to 1.19 of {3} (f64, i64, f32, f16, bf16, i8), at best {4}'s
 * speed, and for i32 at 4 blocks ahead of {4} at 2^24 and 2^26 only;
 * and the lane tree of each tile computed by warp (tile mod 8) instead
 * of warp 0: 0.89 to 1.05 at the same budget.  So it is
 * neither the loads nor the tree: the lanes' chains of dependent double
 * operations set the speed, and only more warps shorten it.
 */
/* Rows: the operation families; columns, in each row: kFloat16, kFloat,
 * kByte, kWideInt (ops.cuh). */
constexpr ReducePolicy kReducePolicies[7][4] = {
    /* kSum */
    {{LaneKind::kSequential, 3, Shift::kTwoLoads},
     {LaneKind::kSequential, 3, Shift::kTwoLoads, LaneTree::kPerTile, 8, Load::kNoAllocate},
     {LaneKind::kByteDot, 4, Shift::kRealign},
     {LaneKind::kSequential, 4, Shift::kRealign, LaneTree::kPerTile, 8, Load::kNoAllocate}},
    /* kProd */
    {{LaneKind::kSequential, 3, Shift::kTwoLoads},
     {LaneKind::kSequential, 3, Shift::kTwoLoads, LaneTree::kPerTile, 8, Load::kNoAllocate},
     {LaneKind::kByteProd, 4, Shift::kRealign, LaneTree::kPerRange, 8, Load::kNoAllocate},
     {LaneKind::kSequential, 4, Shift::kRealign, LaneTree::kPerTile, 8, Load::kNoAllocate}},
    /* kMinMax */
    {{LaneKind::kNativeMinMax, 5, Shift::kRealign},
     {LaneKind::kNativeMinMax, 4, Shift::kRealign, LaneTree::kPerRange, 8, Load::kNoAllocate},
     {LaneKind::kByteSimd, 4, Shift::kRealign, LaneTree::kPerRange},
     {LaneKind::kSequential, 3, Shift::kRealign, LaneTree::kPerTile, 8, Load::kNoAllocate}},
    /* kArg */
    {{LaneKind::kArgPosition, 4, Shift::kRealign, LaneTree::kPerRange},
     {LaneKind::kArgPosition, 4, Shift::kRealign, LaneTree::kPerRange, 8, Load::kNoAllocate},
     {LaneKind::kByteArg, 4, Shift::kRealign, LaneTree::kPerRange, 8, Load::kNoAllocate},
     {LaneKind::kArgPosition, 4, Shift::kRealign, LaneTree::kPerRange, 8, Load::kNoAllocate}},
    /* kDot */
    {{LaneKind::kSequential, 2, Shift::kNeighbour},
     {LaneKind::kSequential, 2, Shift::kNeighbour},
     {LaneKind::kSequential, 2, Shift::kNeighbour},
     {LaneKind::kSequential, 2, Shift::kNeighbour}},
    /* kNrm2 */
    {{LaneKind::kNrm2Medium, 4, Shift::kTwoLoads},
     {LaneKind::kNrm2Medium, 4, Shift::kTwoLoads},
     {LaneKind::kByteNrm2, 4, Shift::kNeighbour, LaneTree::kPerTile, 1},
     {LaneKind::kNrm2Medium, 4, Shift::kNeighbour, LaneTree::kPerTile, 8, Load::kCached, 3}},
    /* kMeanVar */
    {{LaneKind::kSequential, 3, Shift::kNeighbour},
     {LaneKind::kSequential, 2, Shift::kTwoLoads, LaneTree::kPerTile, 1, Load::kCached, 0, 4},
     {LaneKind::kSequential, 4, Shift::kNeighbour, LaneTree::kPerTile, 8, Load::kCached, 2},
     {LaneKind::kSequential, 4, Shift::kTwoLoads, LaneTree::kPerTile, 8, Load::kCached, 2}},
};

/* The policy of (type, op) for host code: the row of the operation's
 * family, the column of the type's (defined in dispatch.cu). */
const ReducePolicy &reduce_policy_for(gpureduce_type_t type, gpureduce_op_t op);

/* Does Op accumulate in double (its W, where it names one: NRM2,
 * MEAN_VAR, the arg ops)? */
template <class Op, class = void> struct AccumulatesDouble : std::false_type {};
template <class Op>
struct AccumulatesDouble<Op, std::void_t<typename Op::W>>
    : std::is_same<typename Op::W, double> {};

/*
 * The NRM2 of 8-bit integers while its sums are exact (ExactByteNrm2,
 * ops.cuh, taken for n <= its kMaxCount): the order-free rows' realigned
 * tiles and one lane tree a range, with the ordered row's lane, register
 * budget and one wave.
 *
 * Why (H200, 2026-12-04 fifth run; tools/policy-variants, PV_WAVES=0,
 * two runs, mean; every result's bits equal to the ordered kernel's):
 * time of the ordered row {4, kNeighbour, kPerTile, kCached} / time of
 * this one, aligned / 3 elements past alignment, and this one's us:
 *   row     2^14       2^20       2^22       2^24       2^26       2^28       2^30
 *   i8      1.46/1.45  1.02/1.91  1.02/1.76  1.01/1.60  1.04/1.33  1.02/1.09  1.01/1.02
 *   u8      1.42/1.46  1.04/1.90  1.03/1.78  1.01/1.60  1.04/1.33  1.02/1.10  1.01/1.03
 *   i8 us   3.74/3.75  4.93/5.20  5.30/5.67  7.38/7.69  20.2/20.2  63.3/63.4  236.5/236.5
 * Misaligned input loses the neighbour's block and the barrier a tile,
 * and the edge tiles take 16-byte loads instead of one element a load
 * (all of 2^14's input is one edge tile).  Under kRealign, kPerTile with
 * kCached ran 0.94 to 1.02 of this row's speed, kPerRange with kCached
 * 0.95 to 1.04 (0.95 at 2^26 misaligned).  ptxas (sm_90): reduce_kernel
 * 64 registers and no spill under either row, so 4 resident blocks, the
 * count the tuner takes from the ordered kernel (device.cu).
 * batched_tiles_kernel (the long rows, batched_min_blocks 4 as the
 * ordered row's; 72 bytes of spill under either): reduce-bench --batch,
 * us, aligned rows / rows one element apart (stride n+1), the ordered
 * row's build -> this one's, the two run alternately, best of two:
 *   i8 1024 x 2^16   25.30/66.11 -> 24.15/27.14
 *   i8 64 x 2^20     22.64/31.02 -> 21.82/21.17
 *   i8 16 x 2^24     65.18/71.66 -> 63.75/63.67
 * (u8 within 2 % of i8.)
 */
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
  static_assert(tree == LaneTree::kPerTile || Op::kOrderFree,
                "one lane tree a range only where the order does not decide the value");
  static_assert(shift != Shift::kRealign || Op::kOrderFree,
                "realigned tiles only where the order does not decide the value");
  using Lane = typename LaneOf<Op, value.lane>::type;
};

} /* namespace gr */

#endif /* GR_CUDA_POLICY_CUH */
