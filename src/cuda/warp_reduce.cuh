/*
 * cuda/warp_reduce.cuh - the warp layer: accumulators through warp
 * shuffles, and the two warp trees of the order.
 */
#ifndef GR_CUDA_WARP_REDUCE_CUH
#define GR_CUDA_WARP_REDUCE_CUH

#include "cuda/ops.cuh"

namespace gr {

/* v of the lane `delta` above this one (all 32 lanes take part). */
template <class A> __device__ inline A shfl_down(A v, int delta) {
  return __shfl_down_sync(0xffffffffu, v, delta);
}
template <class W>
__device__ inline ValueIndex<W> shfl_down(ValueIndex<W> v, int delta) {
  return ValueIndex<W>{__shfl_down_sync(0xffffffffu, v.v, delta),
                       __shfl_down_sync(0xffffffffu, v.i, delta)};
}

/* Rule 4's last five levels: the value of warp lane l combines with that
 * of lane l + s for s = 16, 8, 4, 2, 1.  The warp's value ends in lane 0. */
template <class Op>
__device__ __forceinline__ typename Op::Acc warp_lane_tree(typename Op::Acc z) {
#pragma unroll
  for (int s = 16; s >= 1; s >>= 1) z = Op::combine(z, shfl_down(z, s));
  return z;
}

/* Rule 5 over the first `width` (a power of two, at most 32) lanes' values
 * in lane order: pairs (0, 1), (2, 3), then pairs of pairs, ...  The value
 * ends in lane 0. */
template <class Op, int width = 32>
__device__ __forceinline__ typename Op::Acc warp_index_tree(typename Op::Acc t) {
#pragma unroll
  for (int s = 1; s < width; s <<= 1) t = Op::combine(t, shfl_down(t, s));
  return t;
}

} /* namespace gr */

#endif /* GR_CUDA_WARP_REDUCE_CUH */
