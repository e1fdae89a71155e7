/*
 * api/handle.h - the handle behind gpureduce_handle_t, its failure
 * message, and the memory-space check of the API layer.  Not installed.
 * Plain C, usable from C++.
 */
#ifndef GR_API_HANDLE_H
#define GR_API_HANDLE_H

#include <stddef.h>
#include <stdint.h>

#include "gpureduce.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GR_MESSAGE_BYTES 256

struct gr_tune; /* tune/tune.h: CUDA handles only */

struct gpureduce_handle {
  int device;                /* CUDA ordinal or GPUREDUCE_DEVICE_HOST */
  void *stream;              /* cudaStream_t */
  void *workspace;           /* device memory (CUDA) or host memory */
  size_t workspace_bytes;
  int sm_count;              /* CUDA: multiprocessors */
  struct gr_tune *tune;      /* CUDA: kernel facts and tuned block counts */
  /* Host: the lowest invalid segment index that gpureduce_reduce_segments()
   * saw since the last gpureduce_get_async_error(), UINT64_MAX for none
   * (set at creation for every handle; a CUDA handle's is the CUDA side's
   * business, gr_cuda_take_async_error() in cuda/cuda.h). */
  uint64_t async_bad_segment;
  char message[GR_MESSAGE_BYTES]; /* detail of the last failure */
};

/* Set the handle's message (printf-style, when h is not NULL) and return
 * status. */
gpureduce_status_t gr_fail(struct gpureduce_handle *h, gpureduce_status_t status,
                           const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* GPUREDUCE_SUCCESS when p lives in the memory space of h's backend;
 * else GPUREDUCE_ERROR_WRONG_MEMORY_SPACE with a message naming `what`. */
gpureduce_status_t gr_check_space(struct gpureduce_handle *h, const void *p, const char *what);

#ifdef __cplusplus
}
#endif

#endif /* GR_API_HANDLE_H */
