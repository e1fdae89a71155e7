/*
 * cuda/kernel/reduce.cuh - the grid layer: the production kernel, one
 * launch for any n.
 *
 *   grid   -> blocks take groups of 2^group_log2 tiles, grid-stride over
 *             the groups (the plan, order/order.h);
 *   agent  -> a block reduces its group to the group's root
 *             (AgentReduce::consume_range, agent/reduce.cuh; AgentDot for
 *             the dot product's two inputs, agent/dot.cuh) and thread 0
 *             writes the root to the workspace;
 *   finish -> the last block to finish (threadfence + atomic ticket)
 *             combines the roots in the tree over group index
 *             (root_tree, block/reduce.cuh), writes the result (and, for
 *             a partial result's node, the root itself: acc_out) and
 *             resets the ticket for the next launch.  With one block and one
 *             group the block writes the result directly.
 * Every step follows the order of doc/ORDER.md, so the bits depend on the
 * element indices only.  The parameters are cuda/dispatch/dispatch.cuh's
 * ReduceParams; the launch shape comes from the policy table (tuning/policy.cuh).
 */
#ifndef GR_CUDA_KERNEL_REDUCE_CUH
#define GR_CUDA_KERNEL_REDUCE_CUH

#include "cuda/agent/dot.cuh"
#include "cuda/agent/reduce.cuh"
#include "cuda/block/reduce.cuh"
#include "cuda/dispatch/dispatch.cuh"
#include "cuda/tuning/policy.cuh"

namespace gr {

/* The one place an accumulator becomes result k of the launch (at
 * p.output, an array of results): Op::finish (canonical NaN, 16-bit
 * narrowing, the index of an argmin), or the empty value when `nonempty`
 * is 0.  ARGMIN and ARGMAX with GPUREDUCE_WITH_VALUE (p.with_value set)
 * write the 16-byte IndexWithValue instead, from the same accumulator, and
 * LOGSUMEXP with GPUREDUCE_SOFTMAX_STATS (p.with_value set too) its
 * {max, sum}; only their kernels read p.with_value, so the others' code
 * is what it was before the flag. */
template <class Op, class Params>
__device__ __forceinline__ void store_result(const Params &p, uint64_t k,
                                             const typename Op::Acc &r, uint64_t nonempty) {
  if constexpr (Op::kFamily == OpFamily::kArg) {
    if (p.with_value) {
      static_cast<IndexWithValue *>(p.output)[k] =
          nonempty ? finish_with_value<Op>(r) : empty_with_value<Op>();
      return;
    }
  }
  if constexpr (Op::kFamily == OpFamily::kLogSumExp) {
    if (p.with_value) { /* GPUREDUCE_SOFTMAX_STATS: {max, sum} */
      static_cast<typename Op::Stats *>(p.output)[k] =
          nonempty ? Op::finish_stats(r) : Op::empty_stats();
      return;
    }
  }
  static_cast<typename Op::Out *>(p.output)[k] = nonempty ? Op::finish(r) : Op::empty();
}

/* The root itself, for a partial result's node (ReduceParams::acc_out). */
template <class Op>
__device__ __forceinline__ void store_root(const ReduceParams &p, const typename Op::Acc &r) {
  using Root = decltype(node_root<Op>(r));
  if (p.acc_out) *static_cast<Root *>(p.acc_out) = node_root<Op>(r);
}

template <class KernelOp>
__global__ void __launch_bounds__(kThreads, PolicyOf<KernelOp>::min_blocks)
reduce_kernel(const ReduceParams p) {
  using Op = ReduceKernelOp<KernelOp>;
  using Acc = typename Op::Acc;
  using Agent = typename AgentOf<Op>::type;
  __shared__ typename Agent::TempStorage temp;
  __shared__ Acc warp_vals[kWarps];
  __shared__ bool is_last;

  Agent agent(temp, p.input, p.input2, p.n);
  Acc *roots = static_cast<Acc *>(p.roots);
  const uint64_t group_tiles = (uint64_t)1 << p.group_log2;
  /* a group's value, by thread 0 */
  const auto put = [&](uint64_t group, const Acc &r) {
    if (gridDim.x == 1 && p.groups == 1) {
      store_result<Op>(p, 0, r, 1);
      store_root<Op>(p, r);
    } else
      roots[group] = r;
  };
  if constexpr (PolicyOf<Op>::tree == LaneTree::kPerTileGroup) {
    agent.consume_groups(blockIdx.x, gridDim.x, p.groups, p.group_log2, p.tiles, put);
  } else {
    for (uint64_t group = blockIdx.x; group < p.groups; group += gridDim.x) {
      const uint64_t t0 = group * group_tiles;
      const uint64_t t1 = min(t0 + group_tiles, p.tiles);
      const Acc r = agent.consume_range(t0, t1);
      if (threadIdx.x == 0) put(group, r);
    }
  }

  if (p.groups <= 1 && gridDim.x == 1) {
    if (p.groups == 0 && threadIdx.x == 0) store_result<Op>(p, 0, Op::identity(), 0);
    return;
  }
  if (gridDim.x > 1) {
    if (threadIdx.x == 0) {
      __threadfence(); /* this block's roots before its ticket */
      is_last = atomicAdd(p.ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last) return;
    __threadfence(); /* everyone's roots after the ticket */
  } else {
    __syncthreads();
  }
  const Acc r = root_tree<Op>(roots, p.groups, warp_vals);
  if (threadIdx.x == 0) {
    store_result<Op>(p, 0, r, p.groups);
    store_root<Op>(p, r);
    if (gridDim.x > 1) *p.ticket = 0u;
  }
}

} /* namespace gr */

#endif /* GR_CUDA_KERNEL_REDUCE_CUH */
