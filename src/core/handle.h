/*
 * core/handle.h - the bottom layer: the handle behind gpureduce_handle_t
 * and its failure message.  Every other layer (order/, tune/, the
 * backends host/ and cuda/, api/) includes this; it includes only the
 * public header.  Not installed.  Plain C, usable from C++.
 */
#ifndef GR_CORE_HANDLE_H
#define GR_CORE_HANDLE_H

#include <stddef.h>
#include <stdint.h>

#include "gpureduce.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GR_MESSAGE_BYTES 256

struct gr_backend; /* core/backend.h */
struct gr_tune;    /* tune/tune.h: CUDA handles only */

struct gpureduce_handle {
  const struct gr_backend *backend; /* the host or the CUDA backend's table */
  int device;                /* CUDA ordinal or GPUREDUCE_DEVICE_HOST */
  void *stream;              /* cudaStream_t */
  void *workspace;           /* device memory (CUDA) or host memory */
  size_t workspace_bytes;
  int sm_count;              /* CUDA: multiprocessors */
  struct gr_tune *tune;      /* CUDA: kernel facts and tuned block counts; NULL on the host */
  /* Host: the lowest invalid segment index that gpureduce_reduce_segments()
   * saw since the last gpureduce_get_async_error(), UINT64_MAX for none
   * (set at creation for every handle; a CUDA handle keeps its own in
   * device memory). */
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

#ifdef __cplusplus
}
#endif

#endif /* GR_CORE_HANDLE_H */
