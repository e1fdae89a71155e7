/*
 * device.c - tu_have_cuda() (testutil.h) and the CUDA backend of the
 * batteries (battery.h): the helpers that call the CUDA runtime, in a file
 * of their own so that a test that uses neither (test-tune-cache,
 * test-host) links no CUDA.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <cuda_runtime_api.h>

#include "battery.h"

int tu_have_cuda(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return 0;
  return count > 0;
}

/* The CUDA backend of the batteries: device 0. */

static void *cuda_alloc(size_t bytes) {
  void *p = NULL;
  return cudaMalloc(&p, bytes ? bytes : 1) == cudaSuccess ? p : NULL;
}

static void cuda_release(void *p) {
  if (p) cudaFree(p);
}

static void cuda_put(void *dst, const void *src, size_t bytes) {
  CK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}

static void cuda_get(void *dst, const void *src, size_t bytes) {
  CK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost)); /* waits for the reductions */
}

const struct tu_backend bt_cuda_backend = {
    .name = "CUDA",
    .device = 0,
    .alloc = cuda_alloc,
    .release = cuda_release,
    .put = cuda_put,
    .get = cuda_get,
};
