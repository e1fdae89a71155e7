/*
 * cuda/instantiate_segments.cuh - the one list that instantiates
 * segments_kernel (kernel_segments.cuh), built like instantiate.cuh's from
 * the operation list 0 .. GPUREDUCE_OP_COUNT-1.  Each
 * instantiate_segments_*.cu file instantiates the rows of its type family.
 */
#ifndef GR_CUDA_INSTANTIATE_SEGMENTS_CUH
#define GR_CUDA_INSTANTIATE_SEGMENTS_CUH

#include <utility>

#include "cuda/dispatch.cuh"
#include "cuda/kernel_segments.cuh"

namespace gr {

template <gpureduce_type_t T, bool F64, int... O>
const void *pick_segments(gpureduce_op_t op, std::integer_sequence<int, O...>) {
  static const void *const row[] = {reinterpret_cast<const void *>(
      &segments_kernel<typename OpFor<T, static_cast<gpureduce_op_t>(O), F64>::type>)...};
  return (unsigned)op < sizeof row / sizeof row[0] ? row[op] : nullptr;
}

template <gpureduce_type_t T, bool F64 = false> const void *segments_row(gpureduce_op_t op) {
  return pick_segments<T, F64>(op, std::make_integer_sequence<int, GPUREDUCE_OP_COUNT>{});
}

} /* namespace gr */

#endif /* GR_CUDA_INSTANTIATE_SEGMENTS_CUH */
