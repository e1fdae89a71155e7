/*
 * api/ladder.c - the public calls of the ladder (gpureduce/ladder.h):
 * rung names, workspace sizes (the CUDA side's, cuda/ladder/ladder.cu), and the
 * checked entry to the handle's backend's rungs (the host backend has
 * none).
 */
#include "config.h"

#include "api/args.h"
#include "core/backend.h"
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
  gpureduce_handle_t h = handle;
  gpureduce_status_t s = gr_begin(h);
  if (s != GPUREDUCE_SUCCESS) return s;
  if (!rung_valid(rung))
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "ladder rung %d does not exist (1..%d)",
                   (int)rung, GPUREDUCE_LADDER_LAST);
  /* the f32 sum's checks of gpureduce_reduce() */
  struct gr_call c = {.type = GPUREDUCE_F32, .op = GPUREDUCE_SUM, .batch = 1, .n = n,
                      .inputs = 1, .in = {{"input", input, 0, 1}}, .output = output};
  if ((s = gr_prologue(h, &c)) != GPUREDUCE_SUCCESS) return s;
  /* the backend checks the workspace: the host backend has no rungs */
  return h->backend->ladder(h, rung, input, output, n, workspace, workspace_bytes, launches);
}
