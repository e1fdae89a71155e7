/*
 * gpureduce/ladder.h - the classic reduction kernels as teaching rungs (CUDA only).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * Part of <gpureduce.h>; include that, never this file.
 */
#ifndef GPUREDUCE_H_INSIDE
#error "include <gpureduce.h>, not <gpureduce/ladder.h>"
#endif
#ifndef GPUREDUCE_LADDER_H
#define GPUREDUCE_LADDER_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The ladder: the classic CUDA reduction kernels, kept as teaching rungs.
 * Each reduces n floats all the way to one float on a CUDA handle.  They add
 * in their own orders (not the library's), so their bits can differ from
 * gpureduce_sum_f32() on inputs whose sum is not exact.
 */
typedef enum gpureduce_ladder_rung {
  /** v1: interleaved addressing, divergent branch `tid % (2*s) == 0`. */
  GPUREDUCE_LADDER_INTERLEAVED_DIVERGENT = 1,
  /** v2: interleaved addressing, strided shared index (no divergence, bank
   *  conflicts instead). */
  GPUREDUCE_LADDER_INTERLEAVED_STRIDED = 2,
  /** v3: sequential addressing, `tid < s`, stride halving. */
  GPUREDUCE_LADDER_SEQUENTIAL = 3,
  /** v4: sequential addressing, first add during the load (half the
   *  blocks). */
  GPUREDUCE_LADDER_FIRST_ADD = 4,
  /** v5: two phases: grid-stride accumulation and a block tree, then a
   *  second launch over the per-block partials. */
  GPUREDUCE_LADDER_TWO_PHASE = 5,
  /** v6: grid-stride accumulation, warp shuffles, per-warp partials in
   *  shared memory, one launch whose last block combines the partials. */
  GPUREDUCE_LADDER_WARP_SHUFFLE = 6
} gpureduce_ladder_rung_t;

/** First and last ladder rungs. */
#define GPUREDUCE_LADDER_FIRST 1
#define GPUREDUCE_LADDER_LAST 6

/** Short name of a rung ("interleaved-divergent", ...) or NULL. */
GPUREDUCE_API const char *gpureduce_ladder_name(gpureduce_ladder_rung_t rung);

/**
 * Bytes of device workspace gpureduce_ladder_sum_f32() needs for n floats.
 * @param bytes  host pointer; receives the size (0 is possible).
 * @return GPUREDUCE_SUCCESS, GPUREDUCE_ERROR_UNSUPPORTED (unknown rung) or
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (bytes is NULL).
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_ladder_workspace_size(gpureduce_ladder_rung_t rung, size_t n,
    size_t *bytes);

/**
 * Sum n floats with one ladder rung, all the way to one float.
 *
 * @param input      device pointer to n floats, 4-byte aligned.
 * @param output     device pointer to one float.
 * @param workspace  device memory of at least
 *                   gpureduce_ladder_workspace_size() bytes, 16-byte
 *                   aligned; NULL if that size is 0.  Its contents need no
 *                   initialization and are garbage afterwards.
 * @param launches   host pointer that receives the number of kernel
 *                   launches the rung enqueued; may be NULL.
 * Enqueued on the handle's stream; returns without synchronizing.
 *
 * @return GPUREDUCE_SUCCESS, GPUREDUCE_ERROR_INVALID_HANDLE,
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (the checks of
 *         gpureduce_reduce() on input and output, then a workspace too
 *         small), GPUREDUCE_ERROR_UNSUPPORTED (unknown rung, or the host
 *         handle, after the checks of input and output),
 *         GPUREDUCE_ERROR_WRONG_MEMORY_SPACE, GPUREDUCE_ERROR_CUDA.
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_ladder_sum_f32(gpureduce_ladder_rung_t rung, const float *input,
    float *output, size_t n, void *workspace, size_t workspace_bytes,
    unsigned *launches, gpureduce_handle_t handle);

#ifdef __cplusplus
}
#endif

#endif /* GPUREDUCE_LADDER_H */
