/*
 * device.c - tu_have_cuda() (testutil.h): the one helper that calls the
 * CUDA runtime, in a file of its own so that a test that never calls it
 * (test-tune-cache) links no CUDA.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <cuda_runtime_api.h>

#include "testutil.h"

int tu_have_cuda(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return 0;
  return count > 0;
}
