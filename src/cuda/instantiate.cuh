/*
 * cuda/instantiate.cuh - the one list that instantiates the production
 * kernel.
 *
 * kernel_row<T, F64>(op) returns the address of reduce_kernel<Op> for the
 * operation `op` on element type T, built from the operation list
 * 0 .. GPUREDUCE_OP_COUNT-1 by one pack expansion: adding an operation to
 * gpureduce.h and OpFor (ops.cuh), and its row to the policy table, is all
 * it takes.  Each instantiate_*.cu file instantiates the rows of its type
 * family, so the families compile in parallel.
 */
#ifndef GR_CUDA_INSTANTIATE_CUH
#define GR_CUDA_INSTANTIATE_CUH

#include <utility>

#include "cuda/dispatch.cuh"
#include "cuda/kernel_reduce.cuh"

namespace gr {

template <gpureduce_type_t T, bool F64, int... O>
const void *pick_kernel(gpureduce_op_t op, std::integer_sequence<int, O...>) {
  static const void *const row[] = {reinterpret_cast<const void *>(
      &reduce_kernel<typename OpFor<T, static_cast<gpureduce_op_t>(O), F64>::type>)...};
  return (unsigned)op < sizeof row / sizeof row[0] ? row[op] : nullptr;
}

template <gpureduce_type_t T, bool F64 = false>
const void *kernel_row(gpureduce_op_t op) {
  return pick_kernel<T, F64>(op, std::make_integer_sequence<int, GPUREDUCE_OP_COUNT>{});
}

} /* namespace gr */

#endif /* GR_CUDA_INSTANTIATE_CUH */
