/*
 * cublas.c - reduce-bench's cuBLAS comparison (see cublas.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <limits.h>
#include <stdlib.h>

#include "bench.h"
#include "cublas.h"

#ifdef HAVE_CUBLAS
#include <cublas_v2.h>

struct bench_cublas {
  cublasHandle_t h;
};

static void ok(cublasStatus_t s, const char *what) {
  if (s != CUBLAS_STATUS_SUCCESS) fatal(EXIT_WRONG, "%s failed: cuBLAS status %d", what, (int)s);
}

struct bench_cublas *bench_cublas_create(void) {
  struct bench_cublas *c = xmalloc(sizeof *c);
  ok(cublasCreate(&c->h), "cublasCreate");
  ok(cublasSetPointerMode(c->h, CUBLAS_POINTER_MODE_DEVICE), "cublasSetPointerMode");
  return c;
}

void bench_cublas_destroy(struct bench_cublas *c) {
  if (!c) return;
  cublasDestroy(c->h);
  free(c);
}

void bench_cublas_dot(struct bench_cublas *c, gpureduce_type_t type, size_t n, const void *x,
                      const void *y, void *result) {
  if (n > INT_MAX) fatal(EXIT_WRONG, "cuBLAS takes at most %d elements, not %zu", INT_MAX, n);
  const int m = (int)n;
  switch (type) {
    case GPUREDUCE_F32: ok(cublasSdot(c->h, m, x, 1, y, 1, result), "cublasSdot"); break;
    case GPUREDUCE_F64: ok(cublasDdot(c->h, m, x, 1, y, 1, result), "cublasDdot"); break;
    case GPUREDUCE_F16:
      ok(cublasDotEx(c->h, m, x, CUDA_R_16F, 1, y, CUDA_R_16F, 1, result, CUDA_R_16F, CUDA_R_32F),
         "cublasDotEx (f16)");
      break;
    case GPUREDUCE_BF16:
      ok(cublasDotEx(c->h, m, x, CUDA_R_16BF, 1, y, CUDA_R_16BF, 1, result, CUDA_R_16BF,
                     CUDA_R_32F),
         "cublasDotEx (bf16)");
      break;
    default: fatal(EXIT_WRONG, "cuBLAS has no dot product of %s", gpureduce_type_name(type));
  }
}
#else
struct bench_cublas *bench_cublas_create(void) { return NULL; }
void bench_cublas_destroy(struct bench_cublas *c) { (void)c; }
void bench_cublas_dot(struct bench_cublas *c, gpureduce_type_t type, size_t n, const void *x,
                      const void *y, void *result) {
  (void)c, (void)type, (void)n, (void)x, (void)y, (void)result;
  fatal(EXIT_WRONG, "reduce-bench was built without cuBLAS");
}
#endif

int bench_cublas_has_dot(gpureduce_type_t type, unsigned flags) {
#ifdef HAVE_CUBLAS
  return !flags && (type == GPUREDUCE_F32 || type == GPUREDUCE_F64 || type == GPUREDUCE_F16 ||
                    type == GPUREDUCE_BF16);
#else
  (void)type, (void)flags;
  return 0;
#endif
}

const char *bench_cublas_dot_name(gpureduce_type_t type) {
  return type == GPUREDUCE_F32 ? "cublasSdot" : type == GPUREDUCE_F64 ? "cublasDdot" : "cublasDotEx";
}
