/*
 * cuda/device/device.cuh - device management of the CUDA side: the one device
 * guard, the one mapper from CUDA errors to statuses, and the layout of a
 * handle's device workspace.  Host C++ only (no device code).  Not
 * installed.
 */
#ifndef GR_CUDA_DEVICE_CUH
#define GR_CUDA_DEVICE_CUH

#include <cuda_runtime.h>

#include "core/handle.h"
#include "cuda/dispatch/dispatch.cuh"
#include "order/order.h"

namespace gr {

/* The workspace a CUDA handle allocates once (cudaMalloc, cleared): the
 * group roots of a launch, the production kernel's ticket and the
 * ladder's v6 ticket (each on its own 64-byte line), then the batched
 * kernels' roots (kBatchRoots of them, GR_ROOT_BYTES each) and their
 * tickets (kBatchTickets, one per vector or column group whose tiles
 * several blocks share).  The tickets are zero between launches: the last
 * block of each launch (or of each vector) resets its own.  The segmented
 * reduction's slots follow (dispatch/dispatch.cuh: the tree values and tickets of
 * kSegmentMaxWarps warps, 2.25 MiB), then its SegmentsState on a line of
 * its own. */
constexpr unsigned kWsRoots = 0;
constexpr unsigned kWsTicket = GR_MAX_ROOTS * GR_ROOT_BYTES;
constexpr unsigned kWsLadderTicket = kWsTicket + 64u;
constexpr unsigned kBatchRoots = 65536u;   /* 1 MiB */
constexpr unsigned kBatchTickets = 16384u; /* 64 KiB */
constexpr unsigned kWsBatchRoots = GR_MAX_ROOTS * GR_ROOT_BYTES + 256u;
constexpr unsigned kWsBatchTickets = kWsBatchRoots + kBatchRoots * GR_ROOT_BYTES;
constexpr unsigned kWsSegmentNodes = kWsBatchTickets + kBatchTickets * 4u;
constexpr unsigned kWsSegmentTickets =
    kWsSegmentNodes + kSegmentMaxWarps * kSegmentNodesPerWarp * GR_ROOT_BYTES;
constexpr unsigned kWsSegmentsState =
    kWsSegmentTickets + kSegmentMaxWarps * kSegmentTicketsPerWarp * 4u;
/* The partial results' node roots (api/partial.c, gr_cuda_reduce_nodes),
 * kPartialNodes of GR_ROOT_BYTES each, and the result slot their launches
 * write and nobody reads. */
constexpr unsigned kPartialNodes = 128u;
constexpr unsigned kWsPartialRoots = kWsSegmentsState + 64u;
constexpr unsigned kWsPartialResult = kWsPartialRoots + kPartialNodes * GR_ROOT_BYTES;
constexpr unsigned kWorkspaceBytes = kWsPartialResult + 64u;

/* Make `device` current for the lifetime of the object, then restore the
 * caller's.  Every entry point that touches the device holds one, so a
 * caller with another device current never gets work on the wrong one. */
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) : device_(device) {
    status_ = cudaGetDevice(&previous_);
    if (status_ == cudaSuccess && previous_ != device_) status_ = cudaSetDevice(device_);
  }
  ~DeviceGuard() {
    if (status_ == cudaSuccess && previous_ != device_) cudaSetDevice(previous_);
  }
  DeviceGuard(const DeviceGuard &) = delete;
  DeviceGuard &operator=(const DeviceGuard &) = delete;
  cudaError_t status() const { return status_; }

 private:
  int device_;
  int previous_ = -1;
  cudaError_t status_;
};

/*
 * The status and handle message for a failed CUDA call `what`, after
 * clearing a non-sticky error so that later calls start clean:
 *   cudaErrorMemoryAllocation                       -> OUT_OF_MEMORY
 *   no device, insufficient driver, invalid device  -> NO_DEVICE
 *   no kernel image / invalid device function       -> CUDA, with a hint
 *                                                      at --with-cuda-arch
 *   anything else                                   -> CUDA
 */
gpureduce_status_t cuda_fail(gpureduce_handle *h, cudaError_t err, const char *what);

} /* namespace gr */

#endif /* GR_CUDA_DEVICE_CUH */
