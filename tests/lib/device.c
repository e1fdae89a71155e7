/*
 * device.c - tu_have_cuda(), tu_cuda_need_devices() and tu_cuda_start()
 * (testutil.h) and the CUDA backend of the batteries (battery.h): the
 * helpers that call the CUDA runtime, in a file of their own so that a
 * test that uses neither (test-tune-cache, test-host) links no CUDA.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "battery.h"

/* The CUDA devices there are: 0 when cudaGetDeviceCount fails (no device,
 * or a driver too old for the runtime). */
static int device_count(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return 0;
  return count;
}

int tu_have_cuda(void) { return device_count() > 0; }

int tu_cuda_need_devices(int devices) {
  const int count = device_count();
  if (count == 0) {
    printf("1..0 # SKIP no CUDA device\n");
    return 0;
  }
  if (count < devices) {
    printf("1..0 # SKIP this test needs %d CUDA devices; this machine has %d\n", devices, count);
    return 0;
  }
  return 1;
}

size_t tu_cuda_start(size_t need) {
  if (!tu_cuda_need_devices(1)) return 0;
  size_t free_bytes = 0, total = 0;
  if (cudaSetDevice(0) != cudaSuccess || cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) {
    printf("1..0 # SKIP cannot query CUDA device 0's memory\n");
    return 0;
  }
  if (free_bytes < need) {
    printf("1..0 # SKIP %zu MiB of device memory free, this test needs %zu GiB\n",
           free_bytes >> 20, need >> 30);
    return 0;
  }
  return free_bytes;
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
