/*
 * bench_cuda.h - the CUDA side of reduce-bench: device information, fill
 * kernels, event timers, the CUB reference, the read-only bandwidth probe
 * and a nondeterministic atomic sum.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * A plain C header: the functions are implemented in bench_cuda.cu and use
 * the legacy default stream, as gpureduce handles do until
 * gpureduce_set_stream().  A failing CUDA call prints what failed on stderr
 * ("reduce-bench: ...") and exits with status 1: these are the benchmark's
 * functions, never the library's.  Nothing here includes the library's
 * src/; the element types and operations are gpureduce.h's.
 */
#ifndef BENCH_CUDA_H
#define BENCH_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "gpureduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block of the probe and the atomic sum. */
#define BENCH_BLOCK 256

/* ---- devices ----------------------------------------------------------- */

struct bench_device_info {
  char name[256];
  int ordinal;
  int sm_count;
  int cc_major, cc_minor;
  int runtime_version; /* cudaRuntimeGetVersion: 13000 is 13.0 */
  int driver_version;  /* cudaDriverGetVersion */
  size_t l2_bytes;
  size_t total_bytes;
  size_t free_bytes; /* at bench_cuda_open() */
};

/* CUDA devices present; 0 when there is none or no usable driver, with
 * CUDA's reason in why (never fails, never exits). */
int bench_cuda_device_count(char *why, size_t why_bytes);

/* Make device current and describe it. */
void bench_cuda_open(int device, struct bench_device_info *info);

/* ---- memory ------------------------------------------------------------ */

/* cudaMalloc of bytes (>= 1); what names the buffer in the error message. */
void *bench_cuda_alloc(size_t bytes, const char *what);
/* cudaFree; NULL is a no-op. */
void bench_cuda_free(void *p);
/* Synchronous device-to-host copy. */
void bench_cuda_copy_to_host(void *dst, const void *src, size_t bytes);
/* Synchronous host-to-device copy. */
void bench_cuda_copy_to_device(void *dst, const void *src, size_t bytes);
/* Fill bytes with 0xff (a NaN for every float type) and wait for it. */
void bench_cuda_poison(void *p, size_t bytes);
/* cudaDeviceSynchronize, and report an error of earlier asynchronous work. */
void bench_cuda_sync(const char *what);

/* ---- inputs ------------------------------------------------------------ */

/* n elements of type, every one 1 (0x3c00 for f16, 0x3f80 for bf16). */
void bench_fill_ones(void *d, size_t n, gpureduce_type_t type);
/*
 * n pseudo-random elements from a hash of (seed, index), never all zero:
 * floats uniform on [-1, 1) (f16 on multiples of 2^-10, bf16 of 2^-7, f32
 * of 2^-23, f64 of 2^-52, all exact); i8 and u8 over their whole range;
 * 32- and 64-bit integers on [-32768, 32767] (unsigned: [0, 65535]), so
 * sums and sums of squares of 2^30 elements do not wrap.
 */
void bench_fill_random(void *d, size_t n, gpureduce_type_t type, uint64_t seed);
/* The same two fills, done by the host in host memory (no GPU needed). */
void bench_fill_ones_host(void *h, size_t n, gpureduce_type_t type);
void bench_fill_random_host(void *h, size_t n, gpureduce_type_t type, uint64_t seed);

/* ---- timing ------------------------------------------------------------ */

struct bench_timer;
struct bench_timer *bench_timer_create(void);
/* Record the start event on the legacy default stream. */
void bench_timer_start(struct bench_timer *t);
/* Record the stop event, wait for it and return the milliseconds between. */
double bench_timer_stop_ms(struct bench_timer *t);
void bench_timer_destroy(struct bench_timer *t);

/* ---- CUB --------------------------------------------------------------- */

/* 1 when bench_cuda.cu was compiled with HAVE_CUB. */
int bench_cub_built(void);
/* CUB_VERSION (300001 is 3.0.1), or 0 when not built. */
int bench_cub_version(void);

/*
 * A CUB reduction of (type, op, flags) with its temporary storage, sized
 * for the largest of ns[0 .. count-1] elements and allocated once, here.
 * Sums, sum_abs and sum_squares go through cub::DeviceReduce::
 * TransformReduce (f32 sum: DeviceReduce::Sum) into the accumulator type
 * (float for f16/bf16/f32, double for f64 or GPUREDUCE_ACCUMULATE_F64,
 * 64-bit integers for integers), prod through TransformReduce with a
 * multiply, min and max through Min and Max, argmin and argmax through
 * ArgMin and ArgMax (value and 64-bit index).  Returns NULL when CUB was
 * not built.
 */
struct bench_cub;
struct bench_cub *bench_cub_create(gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                                   const size_t *ns, size_t count);
/* The f32 and f64 nrm2 (flags 0) get cuBLAS's cublasSnrm2_64 and
 * cublasDnrm2_64 instead, when configure found cuBLAS (HAVE_CUBLAS); nrm2
 * of other types and mean_var, which CUB has no call for, get NULL. */
/* 1 when bench_cuda.cu was compiled with HAVE_CUBLAS. */
int bench_cublas_built(void);
/* 1 when bench_cub_create() gives a comparison for (type, op, flags). */
int bench_cub_supports(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);
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
void bench_cub_destroy(struct bench_cub *c);

/* ---- batched: matrices, copies, CUB's segmented reductions -------------- */

/*
 * The vectors of a batched reduction, as gpureduce_reduce_batched() takes
 * them: rows (vector b is the n elements at x + b*ld) or columns (vector b
 * is the elements x + b + i*ld, 0 <= i < n), counted in elements.
 */
struct bench_matrix {
  const void *x;
  int columns;
  size_t batch, n, ld;
};

/* Enqueue (legacy default stream) a copy of count elements of es bytes,
 * src_stride bytes apart, to dst, contiguous: cudaMemcpy2DAsync, or a
 * gather kernel when the stride is above cudaMemcpy2D's pitch limit. */
void bench_cuda_copy_strided_async(void *dst, const void *src, size_t es, size_t src_stride,
                                   size_t count);

/*
 * CUB's cub::DeviceSegmentedReduce for (type, op, flags), with outputs
 * for up to max_batch vectors allocated here.  Segment b is vector b,
 * given by offset iterators (begin b*ld, end b*ld + n: transform
 * iterators over a counting iterator, so pitched rows need no offset
 * array).  Columns, which CUB has no strides for, read through a
 * permutation iterator (element k of the sequence is column k / n's
 * element k % n).  The sums, sum_abs and sum_squares and prod go through
 * DeviceSegmentedReduce::Reduce over a transform iterator into the
 * accumulator type (as bench_cub_create); the f32 sum through Sum, min
 * and max through Min and Max, argmin and argmax through ArgMin and
 * ArgMax.  Returns NULL when CUB was not built.
 */
struct bench_cub_seg;
struct bench_cub_seg *bench_cub_seg_create(gpureduce_type_t type, gpureduce_op_t op,
                                           unsigned flags, size_t max_batch);
/* The CUB call, e.g. "cub::DeviceSegmentedReduce::Sum". */
const char *bench_cub_seg_name(const struct bench_cub_seg *c);
/* 1 when CUB can reduce m; else 0, with the reason in why. */
int bench_cub_seg_supports(const struct bench_cub_seg *c, const struct bench_matrix *m, char *why,
                           size_t why_bytes);
/* Size (and grow) the temporary storage for m: before timing it. */
void bench_cub_seg_prepare(struct bench_cub_seg *c, const struct bench_matrix *m);
/* Enqueue one segmented reduction of m (prepared, supported). */
void bench_cub_seg_run(struct bench_cub_seg *c, const struct bench_matrix *m);
/*
 * Poison the outputs, run once, and copy the results of the vectors
 * rows[0 .. count-1] (ascending) to dst, gpureduce_result_size() bytes
 * each, as gpureduce lays them out: the accumulator for the sum-likes and
 * prod, the element for min and max, the index (CUB's offset in the
 * segment) as a uint64_t for argmin and argmax, and with
 * GPUREDUCE_WITH_VALUE CUB's value after it in the element type, zeros to
 * byte 16.
 */
void bench_cub_seg_results(struct bench_cub_seg *c, const struct bench_matrix *m,
                           const size_t *rows, size_t count, void *dst);
void bench_cub_seg_destroy(struct bench_cub_seg *c);

/* ---- segmented: CSR offsets and CUB's segmented reductions over them ------ */

/*
 * The segments of gpureduce_reduce_segments(): segment s is the elements
 * x[offsets[s] .. offsets[s+1]-1], offsets (device memory) holding
 * segments + 1 nondecreasing element offsets; end is offsets[segments],
 * known on the host.
 */
struct bench_offsets {
  const void *x;
  const uint64_t *offsets;
  size_t segments;
  uint64_t end;
};

/*
 * The same CUB calls as for a matrix (bench_cub_seg_create, with
 * max_batch >= segments), with begin = offsets and end = offsets + 1 as
 * the offset iterators.  supports: 0, with the reason in why, where CUB
 * cannot (ArgMin and ArgMax index with int: offsets beyond 2^31-1);
 * results: as bench_cub_seg_results, segments rows[0 .. count-1].
 */
int bench_cub_seg_supports_offsets(const struct bench_cub_seg *c, const struct bench_offsets *s,
                                   char *why, size_t why_bytes);
void bench_cub_seg_prepare_offsets(struct bench_cub_seg *c, const struct bench_offsets *s);
void bench_cub_seg_run_offsets(struct bench_cub_seg *c, const struct bench_offsets *s);
void bench_cub_seg_results_offsets(struct bench_cub_seg *c, const struct bench_offsets *s,
                                   const size_t *rows, size_t count, void *dst);

/* ---- the probe and the atomic sum --------------------------------------- */

/*
 * Read-only bandwidth probe: grid blocks of BENCH_BLOCK threads read the
 * bytes at in grid-stride as 16-byte vectors (the unaligned head and tail
 * byte by byte), add them into a register and atomically add one value
 * per block into a sink, so no load can be optimised away.
 */
struct bench_probe;
struct bench_probe *bench_probe_create(void);
void bench_probe_run(struct bench_probe *p, const void *in, size_t bytes, unsigned grid);
void bench_probe_destroy(struct bench_probe *p);

/*
 * Nondeterministic f32 sum: cudaMemsetAsync of *out to zero, then grid
 * blocks that read 16-byte vectors grid-stride, reduce with warp shuffles
 * and atomicAdd one value per block into *out.  The order of the atomics
 * varies, so the bits may vary from run to run.
 */
void bench_atomic_sum_f32(const float *in, size_t n, float *out, unsigned grid);

#ifdef __cplusplus
}
#endif

#endif /* BENCH_CUDA_H */
