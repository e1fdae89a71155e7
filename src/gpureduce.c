/*
 * gpureduce.c - handles, statuses, argument checks and dispatch to the CUDA
 * or host backend.  Every public entry point checks its arguments here,
 * before a backend sees them, so both backends give the same statuses.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- messages --------------------------------------------------------------- */

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

/* ---- the plan --------------------------------------------------------------- */

uint64_t gr_tile_count(uint64_t n, size_t elem_size) {
  const uint64_t tile_elems = (uint64_t)GR_TILE_CHUNKS * (GR_CHUNK_BYTES / elem_size);
  return n / tile_elems + (n % tile_elems != 0);
}

void gr_plan_make(uint64_t n, size_t elem_size, unsigned max_grid, struct gr_plan *plan) {
  plan->tiles = gr_tile_count(n, elem_size);
  plan->group_log2 = 0;
  while ((plan->tiles >> plan->group_log2) + ((plan->tiles & ((1ull << plan->group_log2) - 1)) != 0) >
         GR_MAX_ROOTS)
    ++plan->group_log2;
  const uint64_t per = 1ull << plan->group_log2;
  plan->groups = plan->tiles / per + (plan->tiles % per != 0);
  if (max_grid < 1) max_grid = 1;
  plan->grid = plan->groups < max_grid ? (unsigned)(plan->groups ? plan->groups : 1) : max_grid;
}

/* ---- handles ---------------------------------------------------------------- */

gpureduce_status_t gpureduce_create(gpureduce_handle_t *handle, int device) {
  if (!handle) return GPUREDUCE_ERROR_INVALID_ARGUMENT;
  if (device < 0 && device != GPUREDUCE_DEVICE_HOST) return GPUREDUCE_ERROR_INVALID_ARGUMENT;
  struct gpureduce_handle *h = calloc(1, sizeof *h);
  if (!h) return GPUREDUCE_ERROR_OUT_OF_MEMORY;
  h->device = device;
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

/* ---- reductions ------------------------------------------------------------- */

/* Memory-space check of one pointer for the handle's backend. */
static gpureduce_status_t check_space(gpureduce_handle_t h, const void *p, const char *what) {
  if (h->device != GPUREDUCE_DEVICE_HOST) return gr_cuda_check_pointer(h, p, what);
  if (gr_cuda_is_device_pointer(p))
    return gr_fail(h, GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
                   "%s (%p) is CUDA device memory; the host handle needs host memory "
                   "(or create the handle for that device)",
                   what, p);
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_reduce(const void *input, void *output, size_t n,
                                    gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                                    gpureduce_handle_t handle) {
  if (!handle) return GPUREDUCE_ERROR_INVALID_HANDLE;
  gpureduce_handle_t h = handle;
  h->message[0] = '\0';
  if ((unsigned)type >= GPUREDUCE_TYPE_COUNT)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "type %d is not a gpureduce_type_t",
                   (int)type);
  if ((unsigned)op >= GPUREDUCE_OP_COUNT)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "op %d is not a gpureduce_op_t", (int)op);
  if (flags & ~GPUREDUCE_ACCUMULATE_F64)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "flags 0x%x has unknown bits", flags);
  if (gpureduce_result_size(type, op, flags) == 0)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED,
                   "GPUREDUCE_ACCUMULATE_F64 applies to f32 sum, prod, sum_abs and "
                   "sum_squares only, not %s %s",
                   gpureduce_type_name(type), gpureduce_op_name(op));
  if (!output) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "output is NULL");
  if (n > 0 && !input)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "input is NULL with n = %zu", n);
  if (n > 0 && (uintptr_t)input % gpureduce_type_size(type))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "input %p is not aligned to its %u-byte elements", input,
                   (unsigned)gpureduce_type_size(type));
  if ((uintptr_t)output % gpureduce_result_size(type, op, flags))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "output %p is not aligned to its %zu-byte result", output,
                   gpureduce_result_size(type, op, flags));
  if (n == 0 && (op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX))
    return gr_fail(h, GPUREDUCE_ERROR_EMPTY_INPUT, "%s of zero elements has no index",
                   gpureduce_op_name(op));
  gpureduce_status_t s;
  if (n > 0 && (s = check_space(h, input, "input")) != GPUREDUCE_SUCCESS) return s;
  if ((s = check_space(h, output, "output")) != GPUREDUCE_SUCCESS) return s;
  if (h->device == GPUREDUCE_DEVICE_HOST) return gr_host_reduce(h, input, output, n, type, op, flags);
  return gr_cuda_reduce(h, input, output, n, type, op, flags);
}

gpureduce_status_t gpureduce_sum_f32(const float *input, float *output, size_t n,
                                     gpureduce_handle_t handle) {
  return gpureduce_reduce(input, output, n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, handle);
}

/* ---- the ladder ------------------------------------------------------------- */

static const char *const ladder_names[] = {
    [GPUREDUCE_LADDER_INTERLEAVED_DIVERGENT] = "interleaved-divergent",
    [GPUREDUCE_LADDER_INTERLEAVED_STRIDED] = "interleaved-strided",
    [GPUREDUCE_LADDER_SEQUENTIAL] = "sequential",
    [GPUREDUCE_LADDER_FIRST_ADD] = "first-add-during-load",
    [GPUREDUCE_LADDER_TWO_PHASE] = "two-phase",
    [GPUREDUCE_LADDER_WARP_SHUFFLE] = "warp-shuffle",
};

static int rung_valid(gpureduce_ladder_rung_t rung) {
  return rung >= GPUREDUCE_LADDER_FIRST && rung <= GPUREDUCE_LADDER_LAST;
}

const char *gpureduce_ladder_name(gpureduce_ladder_rung_t rung) {
  return rung_valid(rung) ? ladder_names[rung] : NULL;
}

gpureduce_status_t gpureduce_ladder_workspace_size(gpureduce_ladder_rung_t rung, size_t n,
                                                   size_t *bytes) {
  if (!rung_valid(rung)) return GPUREDUCE_ERROR_UNSUPPORTED;
  if (!bytes) return GPUREDUCE_ERROR_INVALID_ARGUMENT;
  *bytes = gr_ladder_workspace_bytes(rung, n);
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_ladder_sum_f32(gpureduce_ladder_rung_t rung, const float *input,
                                            float *output, size_t n, void *workspace,
                                            size_t workspace_bytes, unsigned *launches,
                                            gpureduce_handle_t handle) {
  if (!handle) return GPUREDUCE_ERROR_INVALID_HANDLE;
  gpureduce_handle_t h = handle;
  h->message[0] = '\0';
  if (!rung_valid(rung))
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "ladder rung %d does not exist (1..%d)",
                   (int)rung, GPUREDUCE_LADDER_LAST);
  if (h->device == GPUREDUCE_DEVICE_HOST)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED,
                   "the ladder runs on CUDA devices only, not on the host handle");
  if (!output) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "output is NULL");
  if (n > 0 && !input)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "input is NULL with n = %zu", n);
  const size_t need = gr_ladder_workspace_bytes(rung, n);
  if (workspace_bytes < need || (need > 0 && !workspace))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "workspace of %zu bytes at %p; rung %d needs %zu bytes for n = %zu",
                   workspace_bytes, workspace, (int)rung, need, n);
  gpureduce_status_t s;
  if (n > 0 && (s = check_space(h, input, "input")) != GPUREDUCE_SUCCESS) return s;
  if ((s = check_space(h, output, "output")) != GPUREDUCE_SUCCESS) return s;
  if (need > 0 && (s = check_space(h, workspace, "workspace")) != GPUREDUCE_SUCCESS) return s;
  return gr_cuda_ladder(h, rung, input, output, n, workspace, workspace_bytes, launches);
}
