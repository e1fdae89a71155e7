/*
 * cuda/instantiate/kernels.cuh - the kernels the dispatch layer launches,
 * looked up by (type, op, flags): host C++, with none of the kernels'
 * code, so that a dispatch file compiles no kernel.  The kernels are
 * instantiated from the one list of instantiate.cuh, in the translation
 * units that make generates from it (Makefile.am, GR_CUDA_INSTANCES).
 * Not installed.
 */
#ifndef GR_CUDA_INSTANTIATE_KERNELS_CUH
#define GR_CUDA_INSTANTIATE_KERNELS_CUH

#include <cstdint>

#include "gpureduce.h"

namespace gr {

/* reduce_kernel<Op> (kernel/reduce.cuh) of one (type, op, flags), and
 * where the order cannot show in the result for counts up to exact_max,
 * the kernel that gives its bits by another grouping (the NRM2 of 8-bit
 * integers, ExactByteNrm2 in thread/ops.cuh). */
struct ReduceKernels {
  const void *kernel;
  const void *exact;
  uint64_t exact_max;
};

/* The batched kernels of one (type, op, flags) (kernel/batched.cuh);
 * exact_tiles is batched_tiles_kernel's counterpart of
 * ReduceKernels::exact, for vectors of up to exact_max elements. */
struct BatchedKernels {
  /* segment[f][q]: batched_segment_kernel in form f (0 rows, 1 columns)
   * for J = 2^q lanes a thread: five kernels, J = 1 in each form, and
   * J = 2, 4 and 8, which read the form at run time; in the generic tier
   * (instantiate.cuh) J = 1 in both forms, and for ACCUMULATE_F64 J = 8 */
  const void *segment[2][4];
  const void *dense; /* none for 8-byte types (no vector length takes it)
                       and in the generic tier */
  const void *warp, *tiles, *columns;
  const void *short_columns; /* none for 8-bit types and in the generic tier */
  const void *exact_tiles;
  uint64_t exact_max;
  unsigned acc_bytes; /* sizeof(Op::Acc): the segment kernel's columns form
                         takes R * 256 of them of dynamic shared memory */
};

/* segments_kernel<Op> (kernel/segments.cuh). */
struct SegmentsKernels {
  const void *kernel;
};

/* The dot product's kernels of (type, flags): reduce_kernel<Dot> for one
 * pair of vectors, batched_tiles_kernel<Dot> and batched_warp_kernel<Dot>
 * for rows. */
struct DotKernels {
  const void *reduce, *tiles, *warp;
};

/* Each lookup gives the kernels of (type, op, flags), all nullptr for a
 * combination without a meaning (gpureduce_result_size() == 0).
 * GPUREDUCE_WITH_VALUE picks ARGMIN's and ARGMAX's own kernels: it is a
 * run-time parameter of theirs (the kernels' with_value). */
ReduceKernels reduce_kernels_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);
BatchedKernels batched_kernels_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);
const void *segments_kernel_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);
DotKernels dot_kernels_for(gpureduce_type_t type, unsigned flags);

/* ---- the one list's families and type sets (instantiate.cuh) ------------ */

template <gpureduce_type_t... T> struct TypeSet {};
using FloatTypes = TypeSet<GPUREDUCE_F16, GPUREDUCE_BF16, GPUREDUCE_F32, GPUREDUCE_F64>;
using IntTypes = TypeSet<GPUREDUCE_I8, GPUREDUCE_U8, GPUREDUCE_I32, GPUREDUCE_U32, GPUREDUCE_I64,
                         GPUREDUCE_U64>;
using AllTypes = TypeSet<GPUREDUCE_F16, GPUREDUCE_BF16, GPUREDUCE_F32, GPUREDUCE_F64,
                         GPUREDUCE_I8, GPUREDUCE_U8, GPUREDUCE_I32, GPUREDUCE_U32, GPUREDUCE_I64,
                         GPUREDUCE_U64>;

struct ReduceFamily {
  using Kernels = ReduceKernels;
};
struct BatchedFamily {
  using Kernels = BatchedKernels;
};
struct SegmentsFamily {
  using Kernels = SegmentsKernels;
};
struct DotFamily {
  using Kernels = DotKernels;
};

/* The kernels of Family for an element type of Types, op and the
 * ACCUMULATE_F64 row (f32 only): Family::Kernels{} for a type outside
 * Types.  Defined in instantiate.cuh, instantiated once for each entry of
 * the list. */
template <class Family, class Types>
typename Family::Kernels kernels_for(gpureduce_type_t type, gpureduce_op_t op, bool f64);

} /* namespace gr */

#endif /* GR_CUDA_INSTANTIATE_KERNELS_CUH */
