/*
 * api/autotune.c - the public tuning calls: gpureduce_autotune(),
 * gpureduce_get_blocks(), gpureduce_set_blocks() and
 * gpureduce_tune_cache_state().  The measuring is the handle's backend's
 * (cuda/tuning/measure.cu; the host backend has none), the model and the
 * cache file are tune/'s.
 */
#include "config.h"

#include "api/args.h"
#include "core/backend.h"
#include "order/order.h"
#include "tune/tune.h"

/* The prologue, then a handle with block counts (a CUDA handle's tuning
 * table). */
static gpureduce_status_t check_tunable(gpureduce_handle_t h, gpureduce_type_t type,
                                        gpureduce_op_t op, unsigned flags) {
  struct gr_call c = {.type = type, .op = op, .flags = flags, .batch = 1};
  const gpureduce_status_t s = gr_prologue(h, &c);
  if (s != GPUREDUCE_SUCCESS) return s;
  if (!h->tune)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "block counts are for CUDA handles only");
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_get_blocks(gpureduce_handle_t h, gpureduce_type_t type,
                                        gpureduce_op_t op, unsigned flags, size_t n,
                                        unsigned *blocks, int *tuned) {
  gpureduce_status_t s = check_tunable(h, type, op, flags);
  if (s != GPUREDUCE_SUCCESS) return s;
  if (!blocks) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "blocks is NULL");
  struct gr_plan plan;
  gr_plan_make(n, gpureduce_type_size(type), 1, &plan);
  const unsigned set = h->tune->blocks[type][op][gr_tune_f64_index(flags)][gr_bucket(plan.tiles)];
  *blocks = gr_tune_grid(h, type, op, flags, &plan);
  if (tuned) *tuned = set != 0;
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_set_blocks(gpureduce_handle_t h, gpureduce_type_t type,
                                        gpureduce_op_t op, unsigned flags, size_t n,
                                        unsigned blocks) {
  gpureduce_status_t s = check_tunable(h, type, op, flags);
  if (s != GPUREDUCE_SUCCESS) return s;
  if (blocks > h->tune->max_grid_dim)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "%u blocks: the device launches at most %u", blocks, h->tune->max_grid_dim);
  const uint64_t tiles = gr_tile_count(n, gpureduce_type_size(type));
  h->tune->blocks[type][op][gr_tune_f64_index(flags)][gr_bucket(tiles)] = blocks;
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_tune_cache_state(gpureduce_handle_t h, gpureduce_tune_cache_t *state,
                                              const char **path) {
  gpureduce_status_t s = gr_begin(h);
  if (s != GPUREDUCE_SUCCESS) return s;
  if (!state) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "state is NULL");
  *state = h->tune ? h->tune->state : GPUREDUCE_TUNE_CACHE_ABSENT;
  if (path) *path = h->tune && h->tune->path[0] ? h->tune->path : NULL;
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_autotune(gpureduce_handle_t h, gpureduce_type_t type,
                                      gpureduce_op_t op, unsigned flags, size_t max_n,
                                      gpureduce_tune_row_t *rows, size_t max_rows,
                                      size_t *row_count) {
  gpureduce_status_t s = check_tunable(h, type, op, flags);
  if (s != GPUREDUCE_SUCCESS) return s;
  if (!rows && max_rows > 0) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "rows is NULL");

  unsigned chosen[GR_BUCKETS] = {0};
  size_t count = 0;
  s = h->backend->tune_measure(h, type, op, flags, max_n, rows, max_rows, &count, chosen);
  if (row_count) *row_count = count;
  if (s != GPUREDUCE_SUCCESS) return s;

  for (size_t b = 0; b < count; ++b)
    h->tune->blocks[type][op][gr_tune_f64_index(flags)][b] = chosen[b];
  if (gr_tune_disabled()) return GPUREDUCE_SUCCESS;
  if (!h->tune->path[0])
    return gr_fail(h, GPUREDUCE_ERROR_TUNE_CACHE,
                   "no cache directory: set GPUREDUCE_TUNE_CACHE, XDG_CACHE_HOME or HOME");
  char why[200];
  if (!gr_tune_file_write(h->tune->path, &h->tune->key, &h->tune->blocks, why, sizeof why))
    return gr_fail(h, GPUREDUCE_ERROR_TUNE_CACHE, "cannot write %s: %s", h->tune->path, why);
  return GPUREDUCE_SUCCESS;
}
