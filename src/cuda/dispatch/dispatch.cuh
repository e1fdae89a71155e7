/*
 * cuda/dispatch/dispatch.cuh - what the dispatch layer (the .cu files of
 * dispatch/) and the kernels share: the kernels' parameter blocks and
 * launch constants.  The kernels of an (op, type) are looked up in
 * instantiate/kernels.cuh.  Host and device C++.  Not installed.
 */
#ifndef GR_CUDA_DISPATCH_DISPATCH_CUH
#define GR_CUDA_DISPATCH_DISPATCH_CUH

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
  /* ARGMIN, ARGMAX: GPUREDUCE_WITH_VALUE's 16-byte results; LOGSUMEXP:
   * GPUREDUCE_SOFTMAX_STATS's {max, sum}.  Last and 8 bytes wide, here and
   * in the other blocks, so that the kernels that never read it compile as
   * they did without it. */
  uint64_t with_value;
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
  unsigned g_log2;     /* segment kernel: log2 of the threads sharing a vector (G) */
  unsigned form;       /* segment kernel: 0 rows, 1 columns */
  unsigned columns;    /* columns kernel: vectors per block (X) */
  unsigned piece_log2; /* columns kernel: log2 of the vectors a 16-byte piece
                          spans (Q; 0: each thread gathers its own) */
  void *roots;         /* kBatchRoots roots of workspace */
  unsigned *tickets;   /* kBatchTickets tickets, zero between launches */
  uint64_t with_value; /* as ReduceParams::with_value */
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

/* Parameters of segments_kernel (kernel/segments.cuh). */
struct SegmentsParams {
  const void *input;
  void *output;
  const uint64_t *offsets; /* segments + 1 element offsets, device memory */
  uint64_t segments;
  void *nodes;             /* kSegmentNodesPerWarp roots a warp of the grid */
  unsigned *tickets;       /* kSegmentTicketsPerWarp a warp, zero between launches */
  SegmentsState *state;
  uint64_t with_value;     /* as ReduceParams::with_value */
};

/* Workspace of segments_kernel a warp of its grid: the values and tickets
 * of the trees that combine a long segment's groups (kernel/segments.cuh
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

/* The batched dispatch's tile groups (dispatch/batched.cu), which the dot
 * product's batched dispatch (dispatch/dot.cu) shares. */
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

} /* namespace gr */

#endif /* GR_CUDA_DISPATCH_DISPATCH_CUH */
