/*
 * api/ladder.c - the public calls of the ladder (gpureduce/ladder.h):
 * rung names, workspace sizes, and the checked entry to the CUDA side's
 * rungs (cuda/ladder.cu).
 */
#include "config.h"

#include "api/handle.h"
#include "cuda/cuda.h"

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
  if (n > 0 && (s = gr_check_space(h, input, "input")) != GPUREDUCE_SUCCESS) return s;
  if ((s = gr_check_space(h, output, "output")) != GPUREDUCE_SUCCESS) return s;
  if (need > 0 && (s = gr_check_space(h, workspace, "workspace")) != GPUREDUCE_SUCCESS) return s;
  return gr_cuda_ladder(h, rung, input, output, n, workspace, workspace_bytes, launches);
}
