/*
 * api/handle.c - handles and their messages: gpureduce_create(),
 * gpureduce_destroy(), gpureduce_set_stream(), gpureduce_get_device(),
 * gpureduce_last_message(), and the memory-space check every entry point
 * makes before a backend sees a pointer.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "api/handle.h"
#include "cuda/cuda.h"
#include "host/host.h"

gpureduce_status_t gr_fail(struct gpureduce_handle *h, gpureduce_status_t status,
                           const char *fmt, ...) {
  if (h) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->message, sizeof h->message, fmt, ap);
    va_end(ap);
  }
  return status;
}

const char *gpureduce_last_message(gpureduce_handle_t handle) {
  if (!handle) return gpureduce_status_string(GPUREDUCE_ERROR_INVALID_HANDLE);
  return handle->message;
}

gpureduce_status_t gpureduce_create(gpureduce_handle_t *handle, int device) {
  if (!handle) return GPUREDUCE_ERROR_INVALID_ARGUMENT;
  if (device < 0 && device != GPUREDUCE_DEVICE_HOST) return GPUREDUCE_ERROR_INVALID_ARGUMENT;
  struct gpureduce_handle *h = calloc(1, sizeof *h);
  if (!h) return GPUREDUCE_ERROR_OUT_OF_MEMORY;
  h->device = device;
  h->async_bad_segment = UINT64_MAX; /* no invalid segment yet */
  gpureduce_status_t s =
      device == GPUREDUCE_DEVICE_HOST ? gr_host_create(h) : gr_cuda_create(h, device);
  if (s != GPUREDUCE_SUCCESS) {
    free(h);
    return s;
  }
  h->message[0] = '\0';
  *handle = h;
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_destroy(gpureduce_handle_t handle) {
  if (!handle) return GPUREDUCE_SUCCESS;
  gpureduce_status_t s = GPUREDUCE_SUCCESS;
  if (handle->device == GPUREDUCE_DEVICE_HOST)
    gr_host_destroy(handle);
  else
    s = gr_cuda_destroy(handle);
  free(handle);
  return s;
}

gpureduce_status_t gpureduce_set_stream(gpureduce_handle_t handle, void *stream) {
  if (!handle) return GPUREDUCE_ERROR_INVALID_HANDLE;
  handle->message[0] = '\0';
  handle->stream = stream;
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_get_device(gpureduce_handle_t handle, int *device) {
  if (!handle) return GPUREDUCE_ERROR_INVALID_HANDLE;
  handle->message[0] = '\0';
  if (!device) return gr_fail(handle, GPUREDUCE_ERROR_INVALID_ARGUMENT, "device is NULL");
  *device = handle->device;
  return GPUREDUCE_SUCCESS;
}

/* Memory-space check of one pointer for the handle's backend. */
gpureduce_status_t gr_check_space(struct gpureduce_handle *h, const void *p, const char *what) {
  if (h->device != GPUREDUCE_DEVICE_HOST) return gr_cuda_check_pointer(h, p, what);
  if (gr_cuda_is_device_pointer(p))
    return gr_fail(h, GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
                   "%s (%p) is CUDA device memory; the host handle needs host memory "
                   "(or create the handle for that device)",
                   what, p);
  return GPUREDUCE_SUCCESS;
}
