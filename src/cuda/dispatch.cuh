/*
 * cuda/dispatch.cuh - what the dispatch layer (dispatch.cu) and the
 * kernels share: the production kernel's parameter block and the lookup
 * of the kernel of an (op, type).  Host and device C++.  Not installed.
 */
#ifndef GR_CUDA_DISPATCH_CUH
#define GR_CUDA_DISPATCH_CUH

#include <cstdint>

#include "gpureduce.h"

namespace gr {

/* Parameters of the production kernel, one struct for every instantiation. */
struct ReduceParams {
  const void *input;
  void *output;
  uint64_t n;
  void *roots;      /* GR_MAX_ROOTS * GR_ROOT_BYTES of workspace */
  unsigned *ticket; /* zero between launches; the last block resets it */
  uint64_t tiles;
  uint64_t groups;
  unsigned group_log2;
};

/* reduce_kernel<Op> of (type, op, flags) as the address cudaLaunchKernel
 * takes, or nullptr for a combination without a meaning.  Defined in
 * instantiate_float.cu and instantiate_int.cu, one file a type family so
 * that they compile in parallel. */
const void *reduce_kernel_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);
const void *float_kernel_for(gpureduce_type_t type, gpureduce_op_t op, bool f64);
const void *int_kernel_for(gpureduce_type_t type, gpureduce_op_t op);

} /* namespace gr */

#endif /* GR_CUDA_DISPATCH_CUH */
