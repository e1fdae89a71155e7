/*
 * cuda/instantiate/lookup.cu - the lookups of kernels.cuh: the flags and
 * the type's family pick the entry of the one list; no kernel is compiled
 * here.
 */
#include "cuda/instantiate/kernels.cuh"
#include "cuda/thread/ops.cuh"

namespace gr::lookup_impl {

/* Family's kernels of (type, op) from the float or the integer entry. */
template <class Family>
typename Family::Kernels of_family(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  const bool f64 = (flags & GPUREDUCE_ACCUMULATE_F64) != 0;
  return is_floating(type_family(type)) ? kernels_for<Family, FloatTypes>(type, op, f64)
                                        : kernels_for<Family, IntTypes>(type, op, f64);
}

} /* namespace gr::lookup_impl */

using gr::lookup_impl::of_family;

gr::ReduceKernels gr::reduce_kernels_for(gpureduce_type_t type, gpureduce_op_t op,
                                         unsigned flags) {
  if (gpureduce_result_size(type, op, flags) == 0) return ReduceKernels{};
  return of_family<ReduceFamily>(type, op, flags);
}

gr::BatchedKernels gr::batched_kernels_for(gpureduce_type_t type, gpureduce_op_t op,
                                           unsigned flags) {
  if (gpureduce_result_size(type, op, flags) == 0) return BatchedKernels{};
  return of_family<BatchedFamily>(type, op, flags);
}

const void *gr::segments_kernel_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  if (gpureduce_result_size(type, op, flags) == 0) return nullptr;
  return of_family<SegmentsFamily>(type, op, flags).kernel;
}

gr::DotKernels gr::dot_kernels_for(gpureduce_type_t type, unsigned flags) {
  if (gpureduce_result_size(type, GPUREDUCE_SUM, flags) == 0) return DotKernels{};
  return kernels_for<DotFamily, AllTypes>(type, GPUREDUCE_SUM,
                                          (flags & GPUREDUCE_ACCUMULATE_F64) != 0);
}
