/*
 * cuda/dispatch.cuh - what the dispatch layers (dispatch.cu,
 * dispatch_batched.cu, dispatch_segments.cu) and the kernels share: the
 * kernels' parameter blocks and the lookup of the kernels of an (op,
 * type).  Host and device C++.  Not installed.
 */
#ifndef GR_CUDA_DISPATCH_CUH
#define GR_CUDA_DISPATCH_CUH

#include <cstdint>

#include "gpureduce.h"

namespace gr {

/* Parameters of the production kernel, one struct for every instantiation. */
struct ReduceParams {
  const void *input;
  const void *input2; /* the dot product's y; unused by the other operations */
  void *output;
  uint64_t n;
  void *roots;      /* GR_MAX_ROOTS * GR_ROOT_BYTES of workspace */
  unsigned *ticket; /* zero between launches; the last block resets it */
  uint64_t tiles;
  uint64_t groups;
  unsigned group_log2;
  /* When not null: the root's accumulator too, before the finish (the
   * partial results' nodes, api/partial.c); GR_ROOT_BYTES of workspace. */
  void *acc_out = nullptr;
};

/* Parameters of the batched kernels, one struct for every instantiation. */
struct BatchedParams {
  const void *input;
  const void *input2; /* the dot product's y (element stride 1), else unused */
  void *output;
  uint64_t batch, n;
  int64_t batch_stride, element_stride; /* elements */
  int64_t batch_stride2; /* the dot product's y_batch_stride, elements */
  uint64_t tiles;      /* tiles of one vector */
  uint64_t groups;     /* tile groups of one vector (tiles, columns kernels) */
  unsigned group_log2; /* log2 of tiles per group */
  unsigned g_log2;     /* rows kernel: log2 of the threads sharing a vector */
  unsigned columns;    /* columns kernel: vectors per block */
  void *roots;         /* kBatchRoots roots of workspace */
  unsigned *tickets;   /* kBatchTickets tickets, zero between launches */
};

/* The state of the segmented reductions in a handle's workspace, on a
 * line of its own: the grid ticket (the last block of a launch resets what
 * invalid offsets may have left), the launch's "an invalid segment was
 * seen" flag, and the sticky error, UINT64_MAX minus the lowest invalid
 * segment index seen since gr_cuda_take_async_error() last read it (0 for
 * none, so that atomicMax keeps the lowest index). */
struct SegmentsState {
  unsigned grid_ticket;
  unsigned invalid_seen;
  unsigned long long sticky;
};

/* Parameters of segments_kernel (kernel_segments.cuh). */
struct SegmentsParams {
  const void *input;
  void *output;
  const uint64_t *offsets; /* segments + 1 element offsets, device memory */
  uint64_t segments;
  void *nodes;             /* kSegmentNodesPerWarp roots a warp of the grid */
  unsigned *tickets;       /* kSegmentTicketsPerWarp a warp, zero between launches */
  SegmentsState *state;
};

/* Workspace of segments_kernel a warp of its grid: the values and tickets
 * of the trees that combine a long segment's groups (kernel_segments.cuh
 * says why these suffice). */
constexpr unsigned kSegmentNodesPerWarp = 32;
constexpr unsigned kSegmentTicketsPerWarp = 16;
/* The most warps a grid of segments_kernel has (the workspace's slots). */
constexpr unsigned kSegmentMaxWarps = 4096;
/* Blocks of segments_kernel a multiprocessor holds at once (its launch
 * bounds), so that a grid of that many blocks a multiprocessor is one wave. */
constexpr unsigned kSegmentBlocksPerSm = 2;

/* Chunks a thread of batched_segment_kernel loads at once, from
 * kRowsPerThread / J vectors (J lanes of each). */
constexpr int kRowsPerThread = 4;

/* Threads sharing one vector in batched_columns_kernel. */
constexpr int kColumnLaneThreads = 8;

/* The batched kernels of one (op, type) (kernel_batched.cuh). */
struct BatchedKernels {
  /* segment[f][q]: batched_segment_kernel in form f (0 rows, 1 columns)
   * with J = 2^q lanes a thread */
  const void *segment[2][4];
  const void *dense, *warp, *tiles, *columns;
};

/* The dot product's kernels of (type, flags): reduce_kernel<Dot> for one
 * pair of vectors, batched_tiles_kernel<Dot> and batched_warp_kernel<Dot>
 * for rows; all nullptr for a combination without a meaning.  Defined in
 * instantiate_dot.cu. */
struct DotKernels {
  const void *reduce, *tiles, *warp;
};
DotKernels dot_kernels_for(gpureduce_type_t type, unsigned flags);

/* The batched dispatch's tile groups (dispatch_batched.cu), which the dot
 * product's batched dispatch (dispatch_dot.cu) shares. */
namespace batched_impl {
/* Blocks of 256 threads a launch aims at, per multiprocessor, so that
 * tile groups are small enough to fill the GPU and the last wave is short. */
constexpr uint64_t kTargetBlocksPerSm = 16;
/* Upper bound of the grid (the kernels grid-stride beyond it). */
constexpr uint64_t kMaxBlocksPerSm = 64;
uint64_t ceil_div(uint64_t a, uint64_t b);
unsigned ceil_log2(uint64_t x);
/* The tile groups of `units` work units (vectors or column groups) of
 * `tiles` tiles each: the smallest group size that gives about `target`
 * items in all, within the workspace's roots (`vectors` roots a group)
 * and tickets (one a unit); one group a vector when they do not fit. */
void plan_groups(uint64_t tiles, uint64_t units, uint64_t vectors, uint64_t target,
                 BatchedParams &p);
} /* namespace batched_impl */

/* reduce_kernel<Op> of (type, op, flags) as the address cudaLaunchKernel
 * takes, or nullptr for a combination without a meaning.  Defined in
 * instantiate_float.cu and instantiate_int.cu, one file a type family so
 * that they compile in parallel; GPUREDUCE_WITH_VALUE's in
 * instantiate_with_value_float.cu and _int.cu (WithValueKernels below). */
const void *reduce_kernel_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);
const void *float_kernel_for(gpureduce_type_t type, gpureduce_op_t op, bool f64);
const void *int_kernel_for(gpureduce_type_t type, gpureduce_op_t op);

/* The kernel that gives reduce_kernel_for()'s bits for n elements by
 * another grouping, where the order cannot show in the result: the NRM2
 * of 8-bit integers up to ExactByteNrm2's kMaxCount (ops.cuh).  nullptr
 * elsewhere.  Defined in instantiate_int.cu. */
const void *exact_kernel_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                             uint64_t n);

/* The batched kernels of (type, op, flags), all nullptr for a combination
 * without a meaning (as above).  Defined in
 * instantiate_batched_float.cu and instantiate_batched_int.cu. */
BatchedKernels batched_kernels_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);
BatchedKernels float_batched_kernels_for(gpureduce_type_t type, gpureduce_op_t op, bool f64);
BatchedKernels int_batched_kernels_for(gpureduce_type_t type, gpureduce_op_t op);

/* batched_tiles_kernel's counterpart of exact_kernel_for() (above), for
 * vectors of n elements.  Defined in instantiate_batched_int.cu. */
const void *exact_tiles_kernel_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                                   uint64_t n);

/* segments_kernel<Op> of (type, op, flags), nullptr for a combination
 * without a meaning (as above).  Defined in
 * instantiate_segments_float.cu and instantiate_segments_int.cu. */
const void *segments_kernel_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);
const void *float_segments_kernel_for(gpureduce_type_t type, gpureduce_op_t op, bool f64);
const void *int_segments_kernel_for(gpureduce_type_t type, gpureduce_op_t op);

/* The kernels of ARGMIN and ARGMAX with GPUREDUCE_WITH_VALUE
 * (ArgMinMaxWithValue, ops.cuh) for the three calls, all nullptr for
 * another op.  Defined in instantiate_with_value_float.cu and
 * instantiate_with_value_int.cu, apart from the rows above so that they
 * compile in parallel with them. */
struct WithValueKernels {
  const void *reduce;
  BatchedKernels batched;
  const void *segments;
};
WithValueKernels with_value_kernels_for(gpureduce_type_t type, gpureduce_op_t op);
WithValueKernels float_with_value_kernels_for(gpureduce_type_t type, gpureduce_op_t op);
WithValueKernels int_with_value_kernels_for(gpureduce_type_t type, gpureduce_op_t op);

} /* namespace gr */

#endif /* GR_CUDA_DISPATCH_CUH */
