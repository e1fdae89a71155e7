/*
 * bench_cuda.h - the CUDA side of reduce-bench: devices, memory, fills,
 * event timers, the read-only bandwidth probe and a nondeterministic
 * atomic sum.  The CUB and cuBLAS comparisons are in bench_cub.h.
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

/* A CUDA status (cudaError_t) other than cudaSuccess: what failed, CUDA's
 * message, exit 1.  For bench_cuda.cu and bench_cub.cu. */
void bench_cuda_check(int err, const char *what, const char *file, int line);

/* ---- devices ----------------------------------------------------------- */

struct bench_device_info {
  char name[256];
  int ordinal;
  int sm_count;
  int cc_major, cc_minor;
  int runtime_version; /* cudaRuntimeGetVersion: 13000 is 13.0 */
  int driver_version;  /* cudaDriverGetVersion */
  size_t l2_bytes;
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
/* Synchronous copies. */
void bench_cuda_copy_to_host(void *dst, const void *src, size_t bytes);
void bench_cuda_copy_to_device(void *dst, const void *src, size_t bytes);
/* Fill bytes with 0xff (a NaN for every float type) and wait for it. */
void bench_cuda_poison(void *p, size_t bytes);
/* cudaDeviceSynchronize, and report an error of earlier asynchronous work. */
void bench_cuda_sync(const char *what);
/* Enqueue a copy of count elements of es bytes, src_stride bytes apart, to
 * dst, contiguous: cudaMemcpy2DAsync, or a gather kernel when the stride
 * is above cudaMemcpy2D's pitch limit. */
void bench_cuda_copy_strided_async(void *dst, const void *src, size_t es, size_t src_stride,
                                   size_t count);

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
