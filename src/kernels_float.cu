/*
 * kernels_float.cu - production kernels for f16, bf16, f32 and f64
 * (and f32 accumulated in double).
 */
#include "kernel_table.cuh"

extern "C" const void *gr_kernel_float(gpureduce_type_t type, gpureduce_op_t op,
                                       int f64) {
  using namespace gr;
  switch (type) {
    case GPUREDUCE_F16: return kernel_for<GPUREDUCE_F16>(op);
    case GPUREDUCE_BF16: return kernel_for<GPUREDUCE_BF16>(op);
    case GPUREDUCE_F32:
      return f64 ? kernel_for<GPUREDUCE_F32, true>(op) : kernel_for<GPUREDUCE_F32>(op);
    case GPUREDUCE_F64: return kernel_for<GPUREDUCE_F64>(op);
    default: return nullptr;
  }
}
