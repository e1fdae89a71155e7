/*
 * math-kernels.cu - src/math/exp_log.h's functions on the GPU, for
 * tests/cuda/test-math.c: one thread an input, compiled with -fmad=false
 * as the library's .cu files are (Makefile.am).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <cuda_runtime.h>

#include "math/exp_log.h"
#include "math-kernels.h"

__global__ void gr_test_math_floats(const float *x, float *e, float *l, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    e[i] = gr_expf(x[i]);
    l[i] = gr_logf(x[i]);
  }
}

__global__ void gr_test_math_doubles(const double *x, double *e, double *l, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    e[i] = gr_exp(x[i]);
    l[i] = gr_log(x[i]);
  }
}

__global__ void gr_test_math_terms(const float *x, float *t, float *l, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    t[i] = gr_expf_diff(-fabsf(x[i]), 0.7f);
    l[i] = gr_expf_term(-fabsf(x[i]));
  }
}

/* x[0..n) to the device, `kernel` on them, its two outputs back to e and l. */
template <typename T>
static int run(void (*kernel)(const T *, T *, T *, size_t), const T *x, T *e, T *l, size_t n) {
  T *dx = NULL, *de = NULL, *dl = NULL;
  cudaError_t s = cudaMalloc((void **)&dx, n * sizeof(T));
  if (s == cudaSuccess) s = cudaMalloc((void **)&de, n * sizeof(T));
  if (s == cudaSuccess) s = cudaMalloc((void **)&dl, n * sizeof(T));
  if (s == cudaSuccess) s = cudaMemcpy(dx, x, n * sizeof(T), cudaMemcpyHostToDevice);
  if (s == cudaSuccess && n > 0) {
    kernel<<<(unsigned)((n + 255) / 256), 256>>>(dx, de, dl, n);
    s = cudaGetLastError();
  }
  if (s == cudaSuccess) s = cudaMemcpy(e, de, n * sizeof(T), cudaMemcpyDeviceToHost);
  if (s == cudaSuccess) s = cudaMemcpy(l, dl, n * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(de);
  cudaFree(dl);
  return (int)s;
}

extern "C" int gr_test_math_floats_on_device(const float *x, float *e, float *l, size_t n) {
  return run(gr_test_math_floats, x, e, l, n);
}

extern "C" int gr_test_math_doubles_on_device(const double *x, double *e, double *l, size_t n) {
  return run(gr_test_math_doubles, x, e, l, n);
}

extern "C" int gr_test_math_terms_on_device(const float *x, float *t, float *l, size_t n) {
  return run(gr_test_math_terms, x, t, l, n);
}

extern "C" const char *gr_test_math_error_string(int status) {
  return cudaGetErrorString((cudaError_t)status);
}
