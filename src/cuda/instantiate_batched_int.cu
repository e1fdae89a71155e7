/*
 * cuda/instantiate_batched_int.cu - batched kernels for i8, u8, i32, u32,
 * i64 and u64.
 */
#include "cuda/instantiate_batched.cuh"

gr::BatchedKernels gr::int_batched_kernels_for(gpureduce_type_t type, gpureduce_op_t op) {
  switch (type) {
    case GPUREDUCE_I8: return batched_row<GPUREDUCE_I8>(op);
    case GPUREDUCE_U8: return batched_row<GPUREDUCE_U8>(op);
    case GPUREDUCE_I32: return batched_row<GPUREDUCE_I32>(op);
    case GPUREDUCE_U32: return batched_row<GPUREDUCE_U32>(op);
    case GPUREDUCE_I64: return batched_row<GPUREDUCE_I64>(op);
    case GPUREDUCE_U64: return batched_row<GPUREDUCE_U64>(op);
    default: return BatchedKernels{};
  }
}
