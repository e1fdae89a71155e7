/*
 * cuda/instantiate_segments_float.cu - segments_kernel for f16, bf16, f32
 * and f64 (and f32 accumulated in double).
 */
#include "cuda/instantiate_segments.cuh"

const void *gr::float_segments_kernel_for(gpureduce_type_t type, gpureduce_op_t op, bool f64) {
  switch (type) {
    case GPUREDUCE_F16: return segments_row<GPUREDUCE_F16>(op);
    case GPUREDUCE_BF16: return segments_row<GPUREDUCE_BF16>(op);
    case GPUREDUCE_F32:
      return f64 ? segments_row<GPUREDUCE_F32, true>(op) : segments_row<GPUREDUCE_F32>(op);
    case GPUREDUCE_F64: return segments_row<GPUREDUCE_F64>(op);
    default: return nullptr;
  }
}
