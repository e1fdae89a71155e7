/*
 * cuda/instantiate_with_value.cuh - the kernels of ARGMIN and ARGMAX with
 * GPUREDUCE_WITH_VALUE: reduce_kernel, the batched kernels and
 * segments_kernel of ArgMinMaxWithValue (ops.cuh), which shares
 * ArgMinMax's accumulator, lanes and policy row and differs only in the
 * result it writes.  instantiate_with_value_float.cu and _int.cu
 * instantiate the rows of their type family.
 */
#ifndef GR_CUDA_INSTANTIATE_WITH_VALUE_CUH
#define GR_CUDA_INSTANTIATE_WITH_VALUE_CUH

#include "cuda/dispatch.cuh"
#include "cuda/instantiate_batched.cuh"
#include "cuda/kernel_reduce.cuh"
#include "cuda/kernel_segments.cuh"

namespace gr {

template <class Op> WithValueKernels with_value_kernels_of() {
  return WithValueKernels{reinterpret_cast<const void *>(&reduce_kernel<Op>),
                          batched_kernels_of<Op>(),
                          reinterpret_cast<const void *>(&segments_kernel<Op>)};
}

/* Type T's kernels for op: ARGMIN or ARGMAX, all nullptr otherwise. */
template <gpureduce_type_t T> WithValueKernels with_value_row(gpureduce_op_t op) {
  static const WithValueKernels argmin = with_value_kernels_of<ArgMinMaxWithValue<T, false>>();
  static const WithValueKernels argmax = with_value_kernels_of<ArgMinMaxWithValue<T, true>>();
  return op == GPUREDUCE_ARGMIN ? argmin : op == GPUREDUCE_ARGMAX ? argmax : WithValueKernels{};
}

} /* namespace gr */

#endif /* GR_CUDA_INSTANTIATE_WITH_VALUE_CUH */
