/*
 * bench_cub.h - reduce-bench's comparisons: CUB's DeviceReduce and
 * DeviceSegmentedReduce, and cuBLAS's nrm2 in CUB's place, implemented in
 * bench_cub.cu.  (cuBLAS's dot products are cublas.h's.)
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * A plain C header, as bench_cuda.h: the legacy default stream, and a
 * failing call is fatal (exit status 1).  Without CUB (configure's
 * --without-cub, or no CUB found) the create functions return NULL.
 */
#ifndef BENCH_CUB_H
#define BENCH_CUB_H

#include <stddef.h>
#include <stdint.h>

#include "gpureduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when bench_cub.cu was compiled with HAVE_CUB. */
int bench_cub_built(void);
/* CUB_VERSION (300001 is 3.0.1), or 0 when not built. */
int bench_cub_version(void);

/* ---- one vector: DeviceReduce ------------------------------------------ */

/*
 * A CUB reduction of (type, op, flags) with its temporary storage, sized
 * for the largest of ns[0 .. count-1] elements and allocated once, here.
 * Sums, sum_abs and sum_squares go through cub::DeviceReduce::
 * TransformReduce (f32 sum: DeviceReduce::Sum) into the accumulator type
 * (float for f16/bf16/f32, double for f64 or GPUREDUCE_ACCUMULATE_F64,
 * 64-bit integers for integers), prod through TransformReduce with a
 * multiply, min and max through Min and Max, argmin and argmax through
 * ArgMin and ArgMax (value and 64-bit index).  The f32 and f64 nrm2
 * (flags 0) get cuBLAS's cublasSnrm2_64 and cublasDnrm2_64 instead, when
 * configure found cuBLAS; the other nrm2 and mean_var, which CUB has no
 * call for, get NULL.
 */
struct bench_cub;
struct bench_cub *bench_cub_create(gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                                   const size_t *ns, size_t count);
/* The CUB (or cuBLAS) call, e.g. "cub::DeviceReduce::Sum". */
const char *bench_cub_name(const struct bench_cub *c);
/* Enqueue one reduction of n elements (n at most the largest of ns). */
void bench_cub_run(struct bench_cub *c, const void *in, size_t n);
/* Poison the outputs, run once and copy the first bytes (<= 8) of the
 * result to dst: the index for argmin and argmax, else the value (in the
 * accumulator type for sums and prod, the element type for min and max).
 * bytes 16 for argmin and argmax: GPUREDUCE_WITH_VALUE's layout, the index,
 * then CUB's value in the element type, zeros to byte 16. */
void bench_cub_run_once(struct bench_cub *c, const void *in, size_t n, void *dst, size_t bytes);
/* NULL is a no-op. */
void bench_cub_destroy(struct bench_cub *c);

/* ---- many vectors: DeviceSegmentedReduce -------------------------------- */

/*
 * The vectors of a batched or a segmented reduction, as gpureduce takes
 * them, counted in elements.  offsets NULL: a matrix's rows (vector b is
 * the n elements at x + b*ld) or columns (vector b is the elements
 * x + b + i*ld, 0 <= i < n).  Else CSR segments: segment s is
 * x[offsets[s] .. offsets[s+1]-1], offsets (device memory) holding
 * count + 1 nondecreasing offsets, end = offsets[count].
 */
struct bench_segments {
  const void *x;
  size_t count;
  size_t n, ld;
  int columns;
  const uint64_t *offsets;
  uint64_t end;
};

/*
 * CUB's cub::DeviceSegmentedReduce for (type, op, flags), with outputs
 * for up to max_count vectors allocated here; NULL for nrm2 and mean_var.
 * A matrix's segment b is vector b, given by offset iterators (begin b*ld,
 * end b*ld + n: transform iterators over a counting iterator, so pitched
 * rows need no offset array); columns, which CUB has no strides for, are
 * read through a permutation iterator (element k of the sequence is column
 * k / n's element k % n).  CSR offsets are given as begin = offsets and
 * end = offsets + 1.  The sums, sum_abs, sum_squares and prod go through
 * DeviceSegmentedReduce::Reduce over a transform iterator into the
 * accumulator type (as bench_cub_create); the f32 sum through Sum, min and
 * max through Min and Max, argmin and argmax through ArgMin and ArgMax.
 */
struct bench_cub_seg;
struct bench_cub_seg *bench_cub_seg_create(gpureduce_type_t type, gpureduce_op_t op,
                                           unsigned flags, size_t max_count);
/* The CUB call, e.g. "cub::DeviceSegmentedReduce::Sum". */
const char *bench_cub_seg_name(const struct bench_cub_seg *c);
/* 1 when CUB can reduce s; else 0, with the reason in why (ArgMin and
 * ArgMax index with int: inputs beyond 2^31-1 elements). */
int bench_cub_seg_supports(const struct bench_cub_seg *c, const struct bench_segments *s,
                           char *why, size_t why_bytes);
/* Size (and grow) the temporary storage: before timing. */
void bench_cub_seg_prepare(struct bench_cub_seg *c, const struct bench_segments *s);
/* Enqueue one segmented reduction (prepared, supported). */
void bench_cub_seg_run(struct bench_cub_seg *c, const struct bench_segments *s);
/*
 * Poison the outputs, run once, and copy the results of the vectors
 * rows[0 .. count-1] (ascending) to dst, gpureduce_result_size() bytes
 * each, as gpureduce lays them out: the accumulator for the sum-likes and
 * prod, the element for min and max, the index (CUB's offset in the
 * segment) as a uint64_t for argmin and argmax, and with
 * GPUREDUCE_WITH_VALUE CUB's value after it in the element type, zeros to
 * byte 16.
 */
void bench_cub_seg_results(struct bench_cub_seg *c, const struct bench_segments *s,
                           const size_t *rows, size_t count, void *dst);
/* NULL is a no-op. */
void bench_cub_seg_destroy(struct bench_cub_seg *c);

#ifdef __cplusplus
}
#endif

#endif /* BENCH_CUB_H */
