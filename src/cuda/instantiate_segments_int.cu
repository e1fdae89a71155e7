/*
 * cuda/instantiate_segments_int.cu - segments_kernel for i8, u8, i32, u32,
 * i64 and u64.
 */
#include "cuda/instantiate_segments.cuh"

const void *gr::int_segments_kernel_for(gpureduce_type_t type, gpureduce_op_t op) {
  switch (type) {
    case GPUREDUCE_I8: return segments_row<GPUREDUCE_I8>(op);
    case GPUREDUCE_U8: return segments_row<GPUREDUCE_U8>(op);
    case GPUREDUCE_I32: return segments_row<GPUREDUCE_I32>(op);
    case GPUREDUCE_U32: return segments_row<GPUREDUCE_U32>(op);
    case GPUREDUCE_I64: return segments_row<GPUREDUCE_I64>(op);
    case GPUREDUCE_U64: return segments_row<GPUREDUCE_U64>(op);
    default: return nullptr;
  }
}
