/*
 * cublas.h - reduce-bench's cuBLAS comparison: cublasSdot, cublasDdot and
 * cublasDotEx (f16, bf16), timed beside gpureduce_dot (dot.c).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * Built with cuBLAS when configure found it (HAVE_CUBLAS); without it
 * bench_cublas_create() returns NULL and the dot mode runs without the
 * comparison.  The calls use the legacy default stream, as the library's
 * handle does, and the device pointer mode, so a call enqueues its
 * kernels and returns without waiting.  A failing cuBLAS call is fatal
 * (exit status 1).
 */
#ifndef REDUCE_BENCH_CUBLAS_H
#define REDUCE_BENCH_CUBLAS_H

#include <stddef.h>

#include "gpureduce.h"

struct bench_cublas;
/* NULL when cuBLAS was not built in. */
struct bench_cublas *bench_cublas_create(void);
void bench_cublas_destroy(struct bench_cublas *c);
/* 1 when cuBLAS has a dot product of (type, flags): f32 (cublasSdot), f64
 * (cublasDdot), f16 and bf16 (cublasDotEx, executed in float, the result
 * in the element type); else 0. */
int bench_cublas_has_dot(gpureduce_type_t type, unsigned flags);
/* Its name, e.g. "cublasSdot". */
const char *bench_cublas_dot_name(gpureduce_type_t type);
/* Enqueue one dot product of n elements of x and y (device memory) into
 * result (device memory, 8 bytes). */
void bench_cublas_dot(struct bench_cublas *c, gpureduce_type_t type, size_t n, const void *x,
                      const void *y, void *result);

#endif /* REDUCE_BENCH_CUBLAS_H */
