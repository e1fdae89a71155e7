/*
 * cuda/device/device.cu - device management of the CUDA side: a handle's device,
 * its workspace and its tuning table, pointer checks, and the one mapper
 * from CUDA errors to statuses.
 *
 * Every function here returns a status and never prints or exits.  Calls
 * that must run on the handle's device hold a DeviceGuard (device/device.cuh).
 */
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "cuda/cuda.h"
#include "cuda/device/device.cuh"
#include "cuda/dispatch/dispatch.cuh"
#include "cuda/instantiate/kernels.cuh"
#include "cuda/tuning/policy.cuh"
#include "order/order.h"
#include "tune/tune.h"

gpureduce_status_t gr::cuda_fail(gpureduce_handle *h, cudaError_t err, const char *what) {
  cudaGetLastError(); /* clear a non-sticky error so later calls start clean */
  if (err == cudaErrorMemoryAllocation)
    return gr_fail(h, GPUREDUCE_ERROR_OUT_OF_MEMORY, "%s: %s", what, cudaGetErrorString(err));
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver ||
      err == cudaErrorInvalidDevice)
    return gr_fail(h, GPUREDUCE_ERROR_NO_DEVICE,
                   "%s: %s (use GPUREDUCE_DEVICE_HOST for the host backend)", what,
                   cudaGetErrorString(err));
  if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorInvalidDeviceFunction)
    return gr_fail(h, GPUREDUCE_ERROR_CUDA,
                   "%s failed: %s (was the library built for this GPU's architecture? see "
                   "configure --with-cuda-arch)",
                   what, cudaGetErrorString(err));
  return gr_fail(h, GPUREDUCE_ERROR_CUDA, "%s failed: %s", what, cudaGetErrorString(err));
}

/* A named namespace, not an anonymous one: cudafe++ names anonymous
 * namespaces after a hash of the .cu file's absolute path, so two builds
 * of the same tarball in different directories would differ.  Hidden
 * like everything else (-fvisibility=hidden, src/libgpureduce.map). */
namespace gr::device_impl {

/* The cache key of the current device, its grid limit, and the resident
 * blocks of every kernel (the model's unit; querying them also checks that
 * each kernel was built for this device and takes GR_LANES threads) with
 * its policy's most waves; then the 1-D dot product kernels' resident
 * blocks, which depend on the device's architecture and so live in the
 * handle. */
gpureduce_status_t describe_device(gpureduce_handle *h, gr_tune *t) {
  cudaDeviceProp prop;
  cudaError_t err = cudaGetDeviceProperties(&prop, h->device);
  if (err == cudaSuccess) err = cudaDriverGetVersion(&t->key.driver);
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "reading the device properties");
  snprintf(t->key.name, sizeof t->key.name, "%s", prop.name);
  for (char *c = t->key.name; *c; ++c)
    if (*c == '\n' || *c == '\r') *c = ' ';
  for (int i = 0; i < 16; ++i)
    snprintf(t->key.uuid + 2 * i, 3, "%02x", (unsigned char)prop.uuid.bytes[i]);
  t->key.cc_major = prop.major;
  t->key.cc_minor = prop.minor;
  t->key.sms = prop.multiProcessorCount;
  t->max_grid_dim = prop.maxGridSize[0] > 0 ? (unsigned)prop.maxGridSize[0] : 1u;

  for (int type = 0; type < GPUREDUCE_TYPE_COUNT; ++type)
    for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op)
      for (int f = 0; f < 2; ++f) {
        const void *k = gr::reduce_kernels_for((gpureduce_type_t)type, (gpureduce_op_t)op,
                                               f ? GPUREDUCE_ACCUMULATE_F64 : 0)
                            .kernel;
        if (!k) continue;
        cudaFuncAttributes attr;
        int per_sm = 0;
        err = cudaFuncGetAttributes(&attr, k);
        if (err == cudaSuccess && attr.maxThreadsPerBlock < GR_LANES)
          return gr_fail(h, GPUREDUCE_ERROR_CUDA,
                         "the %s %s kernel allows %d threads per block, it needs %d",
                         gpureduce_type_name((gpureduce_type_t)type),
                         gpureduce_op_name((gpureduce_op_t)op), attr.maxThreadsPerBlock, GR_LANES);
        if (err == cudaSuccess)
          err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, GR_LANES, 0);
        if (err != cudaSuccess) return gr::cuda_fail(h, err, "querying the kernels");
        t->resident[type][op][f] = per_sm > 0 ? (unsigned)per_sm : 1u;
        t->max_waves[type][op][f] =
            (unsigned)gr::reduce_policy_for((gpureduce_type_t)type, (gpureduce_op_t)op).max_waves;
      }
  for (int type = 0; type < GPUREDUCE_TYPE_COUNT; ++type)
    for (int f = 0; f < 2; ++f) {
      const void *k =
          gr::dot_kernels_for((gpureduce_type_t)type, f ? GPUREDUCE_ACCUMULATE_F64 : 0).reduce;
      if (!k) continue;
      int per_sm = 0;
      err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, GR_LANES, 0);
      if (err != cudaSuccess) return gr::cuda_fail(h, err, "querying the dot product's kernels");
      t->dot_resident[type][f] = per_sm > 0 ? (unsigned)per_sm : 1u;
    }
  return GPUREDUCE_SUCCESS;
}

/* What gr_cuda_create() may have made: the one cleanup path, for a failed
 * creation and for gr_cuda_destroy().  The device is current. */
cudaError_t release(gpureduce_handle *h) {
  free(h->tune);
  h->tune = nullptr;
  cudaError_t err = cudaSuccess;
  if (h->workspace) err = cudaFree(h->workspace);
  h->workspace = nullptr;
  h->workspace_bytes = 0;
  return err;
}

} /* namespace gr::device_impl */

using namespace gr::device_impl;

extern "C" gpureduce_status_t gr_cuda_create(gpureduce_handle *h, int device) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "cudaGetDeviceCount");
  if (device >= count)
    return gr_fail(h, GPUREDUCE_ERROR_NO_DEVICE,
                   "device %d: this machine has %d CUDA device(s)", device, count);
  gr::DeviceGuard guard(device);
  if (guard.status() != cudaSuccess) return gr::cuda_fail(h, guard.status(), "cudaSetDevice");

  gpureduce_status_t s = GPUREDUCE_SUCCESS;
  err = cudaDeviceGetAttribute(&h->sm_count, cudaDevAttrMultiProcessorCount, device);
  if (err != cudaSuccess) s = gr::cuda_fail(h, err, "cudaDeviceGetAttribute");
  if (s == GPUREDUCE_SUCCESS) {
    err = cudaMalloc(&h->workspace, gr::kWorkspaceBytes);
    if (err != cudaSuccess) {
      h->workspace = nullptr;
      s = gr::cuda_fail(h, err, "cudaMalloc of the workspace");
    }
  }
  if (s == GPUREDUCE_SUCCESS) {
    h->workspace_bytes = gr::kWorkspaceBytes;
    /* The tickets must start at zero; the kernels leave them at zero. */
    err = cudaMemset(h->workspace, 0, gr::kWorkspaceBytes);
    if (err == cudaSuccess) err = cudaStreamSynchronize(0);
    if (err != cudaSuccess) s = gr::cuda_fail(h, err, "initializing the workspace");
  }
  if (s == GPUREDUCE_SUCCESS) {
    h->tune = static_cast<gr_tune *>(calloc(1, sizeof *h->tune));
    if (!h->tune) s = gr_fail(h, GPUREDUCE_ERROR_OUT_OF_MEMORY, "cannot allocate the tuning table");
  }
  if (s == GPUREDUCE_SUCCESS) s = describe_device(h, h->tune);
  if (s == GPUREDUCE_SUCCESS) gr_tune_load(h->tune);
  if (s != GPUREDUCE_SUCCESS) release(h);
  return s;
}

extern "C" gpureduce_status_t gr_cuda_destroy(gpureduce_handle *h) {
  if (!h->workspace) {
    release(h);
    return GPUREDUCE_SUCCESS;
  }
  gr::DeviceGuard guard(h->device);
  const cudaError_t err = release(h);
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "cudaFree of the workspace");
  return GPUREDUCE_SUCCESS;
}

extern "C" gpureduce_status_t gr_cuda_check_pointer(gpureduce_handle *h, const void *p,
                                                    const char *what) {
  cudaPointerAttributes a;
  cudaError_t err = cudaPointerGetAttributes(&a, p);
  if (err != cudaSuccess) {
    cudaGetLastError();
    return gr_fail(h, GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
                   "%s (%p) is not memory CUDA knows (%s); a CUDA handle needs device "
                   "memory from cudaMalloc",
                   what, p, cudaGetErrorString(err));
  }
  if (a.type == cudaMemoryTypeManaged) return GPUREDUCE_SUCCESS;
  if (a.type == cudaMemoryTypeDevice) {
    if (a.device == h->device) return GPUREDUCE_SUCCESS;
    return gr_fail(h, GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
                   "%s (%p) is memory of device %d; this handle is for device %d", what, p,
                   a.device, h->device);
  }
  return gr_fail(h, GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
                 "%s (%p) is host memory; a CUDA handle needs device memory (cudaMalloc) "
                 "or a handle made with GPUREDUCE_DEVICE_HOST",
                 what, p);
}

extern "C" int gr_cuda_owns_pointer(const void *p) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return 0;
  }
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return a.type == cudaMemoryTypeDevice;
}
