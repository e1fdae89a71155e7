/*
 * bench/torch-side.cu - what bench/torch-side.py needs beside torch and
 * libgpureduce: a read-only probe of the memory bandwidth and CUB's
 * segmented reductions, as a small shared library that the script builds
 * with nvcc on the GPU machine and loads with ctypes.  Not part of the
 * library; not installed.
 *
 *   nvcc -O3 -arch=sm_90 -shared -Xcompiler -fPIC -o torch-side.so torch-side.cu
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <cstddef>
#include <cstdint>

#include <cub/device/device_segmented_reduce.cuh>
#include <cuda_runtime.h>

namespace {

/* Reads n16 16-byte words, four loads in flight a thread, and keeps them
 * live through an XOR that is never stored in practice. */
__global__ void probe_kernel(const uint4 *__restrict__ p, size_t n16, unsigned *sink) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc = 0;
  for (; i + 3 * stride < n16; i += 4 * stride) {
    const uint4 a = __ldg(p + i), b = __ldg(p + i + stride), c = __ldg(p + i + 2 * stride),
                d = __ldg(p + i + 3 * stride);
    acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^
           d.z ^ d.w;
  }
  for (; i < n16; i += stride) {
    const uint4 a = __ldg(p + i);
    acc ^= a.x ^ a.y ^ a.z ^ a.w;
  }
  if (acc == 0x9e3779b9u) *sink = acc;
}

}  // namespace

/* The probe over `bytes` (a multiple of 16) at p, `blocks` blocks of 256
 * threads, on stream; 0 or the cudaError_t. */
extern "C" int ts_probe(const void *p, size_t bytes, unsigned blocks, void *sink, void *stream) {
  probe_kernel<<<blocks, 256, 0, static_cast<cudaStream_t>(stream)>>>(
      static_cast<const uint4 *>(p), bytes / 16, static_cast<unsigned *>(sink));
  return (int)cudaGetLastError();
}

/* CUB's segmented SUM (op 0), MAX (3) or ARGMAX (5) of f32 over
 * `segments` segments with uint64_t offsets: first with temp == NULL to
 * get *temp_bytes, then to run.  ARGMAX writes cub::KeyValuePair<int,
 * float> (8 bytes: the index in the segment, then the value).  0 or the
 * cudaError_t; -1 for an op it does not have. */
extern "C" int ts_cub_segments(int op, const float *in, void *out, const uint64_t *offsets,
                               int64_t segments, void *temp, size_t *temp_bytes, void *stream) {
  using Seg = cub::DeviceSegmentedReduce;
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (op) {
    case 0:
      return (int)Seg::Sum(temp, *temp_bytes, in, static_cast<float *>(out), segments, offsets,
                           offsets + 1, s);
    case 3:
      return (int)Seg::Max(temp, *temp_bytes, in, static_cast<float *>(out), segments, offsets,
                           offsets + 1, s);
    case 5:
      return (int)Seg::ArgMax(temp, *temp_bytes, in,
                              static_cast<cub::KeyValuePair<int, float> *>(out), segments,
                              offsets, offsets + 1, s);
    default:
      return -1;
  }
}
