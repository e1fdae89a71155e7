/*
 * cuda_backend.cu - the CUDA side of a handle: device checks, the
 * workspace, the launch plan and the one launch of gpureduce_reduce().
 *
 * Every function here returns a status and never prints or exits.  Calls
 * that must run on the handle's device switch to it and back, so a caller
 * with another device current never gets a launch on the wrong device.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#include "internal.h"

namespace {

/* Make `device` current for the lifetime of the object, then restore. */
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) : device_(device) {
    status_ = cudaGetDevice(&previous_);
    if (status_ == cudaSuccess && previous_ != device_) status_ = cudaSetDevice(device_);
  }
  ~DeviceGuard() {
    if (status_ == cudaSuccess && previous_ != device_) cudaSetDevice(previous_);
  }
  cudaError_t status() const { return status_; }

 private:
  int device_;
  int previous_ = -1;
  cudaError_t status_;
};

gpureduce_status_t cuda_fail(gpureduce_handle *h, cudaError_t err, const char *what) {
  cudaGetLastError(); /* clear a non-sticky error so later calls start clean */
  if (err == cudaErrorMemoryAllocation)
    return gr_fail(h, GPUREDUCE_ERROR_OUT_OF_MEMORY, "%s: %s", what, cudaGetErrorString(err));
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver ||
      err == cudaErrorInvalidDevice)
    return gr_fail(h, GPUREDUCE_ERROR_NO_DEVICE,
                   "%s: %s (use GPUREDUCE_DEVICE_HOST for the host backend)", what,
                   cudaGetErrorString(err));
  return gr_fail(h, GPUREDUCE_ERROR_CUDA, "%s failed: %s", what, cudaGetErrorString(err));
}

} /* namespace */

extern "C" const void *gr_kernel_for(gpureduce_type_t type, gpureduce_op_t op,
                                     unsigned flags) {
  if (gpureduce_result_size(type, op, flags) == 0) return nullptr;
  const int f64 = (flags & GPUREDUCE_ACCUMULATE_F64) != 0;
  switch (type) {
    case GPUREDUCE_F16:
    case GPUREDUCE_BF16:
    case GPUREDUCE_F32:
    case GPUREDUCE_F64: return gr_kernel_float(type, op, f64);
    default: return gr_kernel_int(type, op);
  }
}

extern "C" gpureduce_status_t gr_cuda_create(gpureduce_handle *h, int device) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) return cuda_fail(h, err, "cudaGetDeviceCount");
  if (device >= count)
    return gr_fail(h, GPUREDUCE_ERROR_NO_DEVICE,
                   "device %d: this machine has %d CUDA device(s)", device, count);
  DeviceGuard guard(device);
  if (guard.status() != cudaSuccess) return cuda_fail(h, guard.status(), "cudaSetDevice");

  err = cudaDeviceGetAttribute(&h->sm_count, cudaDevAttrMultiProcessorCount, device);
  if (err != cudaSuccess) return cuda_fail(h, err, "cudaDeviceGetAttribute");

  void *ws = nullptr;
  err = cudaMalloc(&ws, GR_WORKSPACE_BYTES);
  if (err != cudaSuccess) return cuda_fail(h, err, "cudaMalloc of the workspace");
  /* The tickets must start at zero; the kernels leave them at zero. */
  err = cudaMemset(ws, 0, GR_WORKSPACE_BYTES);
  if (err == cudaSuccess) err = cudaStreamSynchronize(0);
  if (err != cudaSuccess) {
    cudaFree(ws);
    return cuda_fail(h, err, "initializing the workspace");
  }
  h->workspace = ws;
  h->workspace_bytes = GR_WORKSPACE_BYTES;
  gpureduce_status_t s = gr_tune_init(h);
  if (s != GPUREDUCE_SUCCESS) {
    cudaFree(ws);
    h->workspace = nullptr;
  }
  return s;
}

extern "C" gpureduce_status_t gr_cuda_destroy(gpureduce_handle *h) {
  free(h->tune);
  h->tune = nullptr;
  if (!h->workspace) return GPUREDUCE_SUCCESS;
  DeviceGuard guard(h->device);
  cudaError_t err = cudaFree(h->workspace);
  h->workspace = nullptr;
  if (err != cudaSuccess) return cuda_fail(h, err, "cudaFree of the workspace");
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

extern "C" int gr_cuda_is_device_pointer(const void *p) {
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

extern "C" gpureduce_status_t gr_cuda_reduce(gpureduce_handle *h, const void *input,
                                             void *output, uint64_t n,
                                             gpureduce_type_t type, gpureduce_op_t op,
                                             unsigned flags) {
  return gr_cuda_launch(h, input, output, n, type, op, flags, 0);
}

extern "C" gpureduce_status_t gr_cuda_launch(gpureduce_handle *h, const void *input,
                                             void *output, uint64_t n,
                                             gpureduce_type_t type, gpureduce_op_t op,
                                             unsigned flags, unsigned grid) {
  const void *kernel = gr_kernel_for(type, op, flags);
  if (!kernel)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "no kernel for %s %s",
                   gpureduce_type_name(type), gpureduce_op_name(op));
  gr_plan plan;
  gr_plan_make(n, gpureduce_type_size(type), 1, &plan);
  plan.grid = grid ? grid : gr_tune_grid(h, type, op, flags, &plan);

  gr_kernel_params params;
  params.input = input;
  params.output = output;
  params.n = n;
  params.roots = static_cast<char *>(h->workspace) + GR_WS_ROOTS;
  params.ticket = reinterpret_cast<unsigned *>(static_cast<char *>(h->workspace) + GR_WS_TICKET);
  params.tiles = plan.tiles;
  params.groups = plan.groups;
  params.group_log2 = plan.group_log2;
  params.misalign = n ? (unsigned)((uintptr_t)input % GR_CHUNK_BYTES) : 0u;

  DeviceGuard guard(h->device);
  if (guard.status() != cudaSuccess) return cuda_fail(h, guard.status(), "cudaSetDevice");
  void *args[] = {&params};
  cudaError_t err = cudaLaunchKernel(kernel, dim3(plan.grid), dim3(GR_LANES), args, 0,
                                     static_cast<cudaStream_t>(h->stream));
  if (err != cudaSuccess) return cuda_fail(h, err, "cudaLaunchKernel");
  return GPUREDUCE_SUCCESS;
}
