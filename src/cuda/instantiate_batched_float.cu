/*
 * cuda/instantiate_batched_float.cu - batched kernels for f16, bf16, f32
 * and f64 (and f32 accumulated in double).
 */
#include "cuda/instantiate_batched.cuh"

gr::BatchedKernels gr::float_batched_kernels_for(gpureduce_type_t type, gpureduce_op_t op,
                                                 bool f64) {
  switch (type) {
    case GPUREDUCE_F16: return batched_row<GPUREDUCE_F16>(op);
    case GPUREDUCE_BF16: return batched_row<GPUREDUCE_BF16>(op);
    case GPUREDUCE_F32:
      return f64 ? batched_row<GPUREDUCE_F32, true>(op) : batched_row<GPUREDUCE_F32>(op);
    case GPUREDUCE_F64: return batched_row<GPUREDUCE_F64>(op);
    default: return BatchedKernels{};
  }
}
