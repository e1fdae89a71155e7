/*
 * cuda/instantiate_with_value_float.cu - ARGMIN and ARGMAX with
 * GPUREDUCE_WITH_VALUE for f16, bf16, f32 and f64.
 */
#include "cuda/instantiate_with_value.cuh"

gr::WithValueKernels gr::float_with_value_kernels_for(gpureduce_type_t type,
                                                      gpureduce_op_t op) {
  switch (type) {
    case GPUREDUCE_F16: return with_value_row<GPUREDUCE_F16>(op);
    case GPUREDUCE_BF16: return with_value_row<GPUREDUCE_BF16>(op);
    case GPUREDUCE_F32: return with_value_row<GPUREDUCE_F32>(op);
    case GPUREDUCE_F64: return with_value_row<GPUREDUCE_F64>(op);
    default: return WithValueKernels{};
  }
}

gr::WithValueKernels gr::with_value_kernels_for(gpureduce_type_t type, gpureduce_op_t op) {
  return is_floating(type_family(type)) ? float_with_value_kernels_for(type, op)
                                        : int_with_value_kernels_for(type, op);
}
