/*
 * cuda/instantiate_with_value_int.cu - ARGMIN and ARGMAX with
 * GPUREDUCE_WITH_VALUE for i8, u8, i32, u32, i64 and u64.
 */
#include "cuda/instantiate_with_value.cuh"

gr::WithValueKernels gr::int_with_value_kernels_for(gpureduce_type_t type, gpureduce_op_t op) {
  switch (type) {
    case GPUREDUCE_I8: return with_value_row<GPUREDUCE_I8>(op);
    case GPUREDUCE_U8: return with_value_row<GPUREDUCE_U8>(op);
    case GPUREDUCE_I32: return with_value_row<GPUREDUCE_I32>(op);
    case GPUREDUCE_U32: return with_value_row<GPUREDUCE_U32>(op);
    case GPUREDUCE_I64: return with_value_row<GPUREDUCE_I64>(op);
    case GPUREDUCE_U64: return with_value_row<GPUREDUCE_U64>(op);
    default: return WithValueKernels{};
  }
}
