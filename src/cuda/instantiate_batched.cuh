/*
 * cuda/instantiate_batched.cuh - the one list that instantiates the
 * batched kernels (kernel_batched.cuh), built like instantiate.cuh's from
 * the operation list 0 .. GPUREDUCE_OP_COUNT-1.  Each
 * instantiate_batched_*.cu file instantiates the rows of its type family.
 */
#ifndef GR_CUDA_INSTANTIATE_BATCHED_CUH
#define GR_CUDA_INSTANTIATE_BATCHED_CUH

#include <utility>

#include "cuda/dispatch.cuh"
#include "cuda/kernel_batched.cuh"

namespace gr {

template <class Op> BatchedKernels batched_kernels_of() {
  BatchedKernels k;
  k.segment[0][0] = reinterpret_cast<const void *>(&batched_segment_kernel<Op, false, 1>);
  k.segment[0][1] = reinterpret_cast<const void *>(&batched_segment_kernel<Op, false, 2>);
  k.segment[0][2] = reinterpret_cast<const void *>(&batched_segment_kernel<Op, false, 4>);
  k.segment[0][3] = reinterpret_cast<const void *>(&batched_segment_kernel<Op, false, 8>);
  k.segment[1][0] = reinterpret_cast<const void *>(&batched_segment_kernel<Op, true, 1>);
  k.segment[1][1] = reinterpret_cast<const void *>(&batched_segment_kernel<Op, true, 2>);
  k.segment[1][2] = reinterpret_cast<const void *>(&batched_segment_kernel<Op, true, 4>);
  k.segment[1][3] = reinterpret_cast<const void *>(&batched_segment_kernel<Op, true, 8>);
  k.dense = reinterpret_cast<const void *>(&batched_dense_kernel<Op>);
  k.warp = reinterpret_cast<const void *>(&batched_warp_kernel<Op>);
  k.tiles = reinterpret_cast<const void *>(&batched_tiles_kernel<Op>);
  k.columns = reinterpret_cast<const void *>(&batched_columns_kernel<Op>);
  return k;
}

template <gpureduce_type_t T, bool F64, int... O>
BatchedKernels pick_batched(gpureduce_op_t op, std::integer_sequence<int, O...>) {
  static const BatchedKernels row[] = {
      batched_kernels_of<typename OpFor<T, static_cast<gpureduce_op_t>(O), F64>::type>()...};
  return (unsigned)op < sizeof row / sizeof row[0] ? row[op] : BatchedKernels{};
}

template <gpureduce_type_t T, bool F64 = false>
BatchedKernels batched_row(gpureduce_op_t op) {
  return pick_batched<T, F64>(op, std::make_integer_sequence<int, GPUREDUCE_OP_COUNT>{});
}

} /* namespace gr */

#endif /* GR_CUDA_INSTANTIATE_BATCHED_CUH */
