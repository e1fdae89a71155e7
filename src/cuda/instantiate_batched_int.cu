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

namespace {

/* batched_tiles_kernel<ExactByteNrm2<T>> where its sums are exact for
 * vectors of n elements, else none. */
template <gpureduce_type_t T> const void *exact_byte_nrm2_tiles(uint64_t n) {
  using Op = gr::ExactByteNrm2<T>;
  return n <= Op::kMaxCount ? reinterpret_cast<const void *>(&gr::batched_tiles_kernel<Op>)
                            : nullptr;
}

} /* namespace */

const void *gr::exact_tiles_kernel_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                                       uint64_t n) {
  if (op != GPUREDUCE_NRM2 || (flags & GPUREDUCE_WITH_VALUE)) return nullptr;
  switch (type) {
    case GPUREDUCE_I8: return exact_byte_nrm2_tiles<GPUREDUCE_I8>(n);
    case GPUREDUCE_U8: return exact_byte_nrm2_tiles<GPUREDUCE_U8>(n);
    default: return nullptr;
  }
}
