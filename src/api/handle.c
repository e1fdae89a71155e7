/*
 * api/handle.c - handles: gpureduce_create(), gpureduce_destroy(),
 * gpureduce_set_stream(), gpureduce_get_device() and
 * gpureduce_last_message().  A handle's backend is chosen once, here, by
 * its device; every later call goes through its table (core/backend.h).
 */
#include "config.h"

#include <stdlib.h>

#include "api/args.h"
#include "core/backend.h"

const char *gpureduce_last_message(gpureduce_handle_t handle) {
  if (!handle) return gpureduce_status_string(GPUREDUCE_ERROR_INVALID_HANDLE);
  return handle->message;
}

gpureduce_status_t gpureduce_create(gpureduce_handle_t *handle, int device) {
  if (!handle) return GPUREDUCE_ERROR_INVALID_ARGUMENT;
  if (device < 0 && device != GPUREDUCE_DEVICE_HOST) return GPUREDUCE_ERROR_INVALID_ARGUMENT;
  struct gpureduce_handle *h = calloc(1, sizeof *h);
  if (!h) return GPUREDUCE_ERROR_OUT_OF_MEMORY;
  h->backend = device == GPUREDUCE_DEVICE_HOST ? &gr_host_backend : &gr_cuda_backend;
  h->device = device;
  h->async_bad_segment = UINT64_MAX; /* no invalid segment yet */
  const gpureduce_status_t s = h->backend->create(h, device);
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
  const gpureduce_status_t s = handle->backend->destroy(handle);
  free(handle);
  return s;
}

gpureduce_status_t gpureduce_set_stream(gpureduce_handle_t handle, void *stream) {
  const gpureduce_status_t s = gr_begin(handle);
  if (s == GPUREDUCE_SUCCESS) handle->stream = stream;
  return s;
}

gpureduce_status_t gpureduce_get_device(gpureduce_handle_t handle, int *device) {
  const gpureduce_status_t s = gr_begin(handle);
  if (s != GPUREDUCE_SUCCESS) return s;
  if (!device) return gr_fail(handle, GPUREDUCE_ERROR_INVALID_ARGUMENT, "device is NULL");
  *device = handle->device;
  return GPUREDUCE_SUCCESS;
}
