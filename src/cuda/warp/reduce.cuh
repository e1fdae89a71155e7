/*
 * cuda/warp/reduce.cuh - the warp layer: accumulators through warp
 * shuffles, the two warp trees of the order, and warp-wide OR, min, sum
 * and max of unsigned counts and masks.
 */
#ifndef GR_CUDA_WARP_REDUCE_CUH
#define GR_CUDA_WARP_REDUCE_CUH

#include "cuda/thread/ops.cuh"

namespace gr {

/* v of the lane `delta` above this one within its segment of `width`
 * lanes (all 32 lanes take part; a lane whose source would leave the
 * segment gets its own value back). */
template <class A> __device__ inline A shfl_down(A v, int delta, int width = 32) {
  return __shfl_down_sync(0xffffffffu, v, delta, width);
}
template <class W>
__device__ inline ValueIndex<W> shfl_down(ValueIndex<W> v, int delta, int width = 32) {
  return ValueIndex<W>{__shfl_down_sync(0xffffffffu, v.v, delta, width),
                       __shfl_down_sync(0xffffffffu, v.i, delta, width)};
}

template <class W>
__device__ inline Nrm2Acc<W> shfl_down(Nrm2Acc<W> v, int delta, int width = 32) {
  return Nrm2Acc<W>{__shfl_down_sync(0xffffffffu, v.sml, delta, width),
                    __shfl_down_sync(0xffffffffu, v.med, delta, width),
                    __shfl_down_sync(0xffffffffu, v.big, delta, width)};
}
template <class W>
__device__ inline MeanVarAcc<W> shfl_down(MeanVarAcc<W> v, int delta, int width = 32) {
  return MeanVarAcc<W>{__shfl_down_sync(0xffffffffu, v.mean, delta, width),
                       __shfl_down_sync(0xffffffffu, v.m2, delta, width),
                       __shfl_down_sync(0xffffffffu, (unsigned long long)v.n, delta, width)};
}

template <class W>
__device__ inline LseAcc<W> shfl_down(LseAcc<W> v, int delta, int width = 32) {
  return LseAcc<W>{__shfl_down_sync(0xffffffffu, v.m, delta, width),
                   __shfl_down_sync(0xffffffffu, v.s, delta, width)};
}

/* v of lane `src` (all 32 lanes take part). */
template <class A> __device__ inline A shfl_idx(A v, int src) {
  return __shfl_sync(0xffffffffu, v, src);
}
template <class W> __device__ inline ValueIndex<W> shfl_idx(ValueIndex<W> v, int src) {
  return ValueIndex<W>{__shfl_sync(0xffffffffu, v.v, src), __shfl_sync(0xffffffffu, v.i, src)};
}
template <class W> __device__ inline Nrm2Acc<W> shfl_idx(Nrm2Acc<W> v, int src) {
  return Nrm2Acc<W>{__shfl_sync(0xffffffffu, v.sml, src), __shfl_sync(0xffffffffu, v.med, src),
                    __shfl_sync(0xffffffffu, v.big, src)};
}
template <class W> __device__ inline LseAcc<W> shfl_idx(LseAcc<W> v, int src) {
  return LseAcc<W>{__shfl_sync(0xffffffffu, v.m, src), __shfl_sync(0xffffffffu, v.s, src)};
}
template <class W> __device__ inline MeanVarAcc<W> shfl_idx(MeanVarAcc<W> v, int src) {
  return MeanVarAcc<W>{__shfl_sync(0xffffffffu, v.mean, src), __shfl_sync(0xffffffffu, v.m2, src),
                       __shfl_sync(0xffffffffu, (unsigned long long)v.n, src)};
}

/* Rule 4's last five levels: the value of warp lane l combines with that
 * of lane l + s for s = 16, 8, 4, 2, 1.  The warp's value ends in lane 0. */
template <class Op>
__device__ __forceinline__ typename Op::Acc warp_lane_tree(typename Op::Acc z) {
#pragma unroll
  for (int s = 16; s >= 1; s >>= 1) z = Op::combine(z, shfl_down(z, s));
  return z;
}

/* Rule 4's levels s = width/2, ..., 1 within each segment of `width` lanes
 * (a power of two, at most 32): the segments' values end in their first
 * lanes.  Used where a vector's lanes above `width` are all empty, so the
 * levels above are combinations with the identity, which change nothing. */
template <class Op>
__device__ __forceinline__ typename Op::Acc segment_lane_tree(typename Op::Acc z, int width) {
  for (int s = width / 2; s >= 1; s >>= 1) z = Op::combine(z, shfl_down(z, s, width));
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

/* OR, min, sum and max of an unsigned over the 32 lanes of a warp, the
 * answer in every lane: one __reduce_*_sync from sm_80, a butterfly of
 * shuffles below. */
#if __CUDA_ARCH__ >= 800
__device__ __forceinline__ unsigned warp_or(unsigned v) { return __reduce_or_sync(0xffffffffu, v); }
__device__ __forceinline__ unsigned warp_min(unsigned v) { return __reduce_min_sync(0xffffffffu, v); }
__device__ __forceinline__ unsigned warp_sum(unsigned v) { return __reduce_add_sync(0xffffffffu, v); }
__device__ __forceinline__ unsigned warp_max(unsigned v) { return __reduce_max_sync(0xffffffffu, v); }
#else
template <class F> __device__ __forceinline__ unsigned warp_butterfly(unsigned v, F f) {
#pragma unroll
  for (int d = 16; d >= 1; d >>= 1) v = f(v, __shfl_xor_sync(0xffffffffu, v, d));
  return v;
}
__device__ __forceinline__ unsigned warp_or(unsigned v) {
  return warp_butterfly(v, [](unsigned a, unsigned b) { return a | b; });
}
__device__ __forceinline__ unsigned warp_min(unsigned v) {
  return warp_butterfly(v, [](unsigned a, unsigned b) { return b < a ? b : a; });
}
__device__ __forceinline__ unsigned warp_sum(unsigned v) {
  return warp_butterfly(v, [](unsigned a, unsigned b) { return a + b; });
}
__device__ __forceinline__ unsigned warp_max(unsigned v) {
  return warp_butterfly(v, [](unsigned a, unsigned b) { return b > a ? b : a; });
}
#endif

} /* namespace gr */

#endif /* GR_CUDA_WARP_REDUCE_CUH */
