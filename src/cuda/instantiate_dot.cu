/*
 * cuda/instantiate_dot.cu - the dot product's kernels (dispatch.cuh,
 * DotKernels) for every element type, and f32 accumulated in double:
 * reduce_kernel, batched_tiles_kernel and batched_warp_kernel of Dot
 * (ops.cuh), whose agents read two inputs (agent_dot.cuh).
 */
#include "cuda/dispatch.cuh"
#include "cuda/kernel_batched.cuh"
#include "cuda/kernel_reduce.cuh"

namespace gr {
namespace {

template <gpureduce_type_t T, bool F64 = false> DotKernels dot_kernels() {
  using Op = Dot<T, F64>;
  return DotKernels{reinterpret_cast<const void *>(&reduce_kernel<Op>),
                    reinterpret_cast<const void *>(&batched_tiles_kernel<Op>),
                    reinterpret_cast<const void *>(&batched_warp_kernel<Op>)};
}

} /* namespace */
} /* namespace gr */

gr::DotKernels gr::dot_kernels_for(gpureduce_type_t type, unsigned flags) {
  if (gpureduce_result_size(type, GPUREDUCE_SUM, flags) == 0) return DotKernels{};
  if (flags & GPUREDUCE_ACCUMULATE_F64)
    return type == GPUREDUCE_F32 ? dot_kernels<GPUREDUCE_F32, true>() : DotKernels{};
  switch (type) {
    case GPUREDUCE_F16: return dot_kernels<GPUREDUCE_F16>();
    case GPUREDUCE_BF16: return dot_kernels<GPUREDUCE_BF16>();
    case GPUREDUCE_F32: return dot_kernels<GPUREDUCE_F32>();
    case GPUREDUCE_F64: return dot_kernels<GPUREDUCE_F64>();
    case GPUREDUCE_I8: return dot_kernels<GPUREDUCE_I8>();
    case GPUREDUCE_U8: return dot_kernels<GPUREDUCE_U8>();
    case GPUREDUCE_I32: return dot_kernels<GPUREDUCE_I32>();
    case GPUREDUCE_U32: return dot_kernels<GPUREDUCE_U32>();
    case GPUREDUCE_I64: return dot_kernels<GPUREDUCE_I64>();
    case GPUREDUCE_U64: return dot_kernels<GPUREDUCE_U64>();
    default: return DotKernels{};
  }
}
