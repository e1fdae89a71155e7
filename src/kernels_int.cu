/*
 * kernels_int.cu - production kernels for i8, u8, i32, u32, i64 and u64.
 */
#include "kernel_table.cuh"

extern "C" const void *gr_kernel_int(gpureduce_type_t type, gpureduce_op_t op) {
  using namespace gr;
  switch (type) {
    case GPUREDUCE_I8: return kernel_for<GPUREDUCE_I8>(op);
    case GPUREDUCE_U8: return kernel_for<GPUREDUCE_U8>(op);
    case GPUREDUCE_I32: return kernel_for<GPUREDUCE_I32>(op);
    case GPUREDUCE_U32: return kernel_for<GPUREDUCE_U32>(op);
    case GPUREDUCE_I64: return kernel_for<GPUREDUCE_I64>(op);
    case GPUREDUCE_U64: return kernel_for<GPUREDUCE_U64>(op);
    default: return nullptr;
  }
}
