/*
 * tune/model.c - size buckets and the block count of a launch.
 *
 * The block count never changes a result (doc/ORDER.md); it changes the
 * speed.  A CUDA handle starts from the model
 *     blocks = min(groups of tiles, waves x SMs x resident blocks of the kernel)
 * (resident: cudaOccupancyMaxActiveBlocksPerMultiprocessor, read once at
 * creation by cuda/device/device.cu; waves: gr_model_waves, at most the policy
 * row's max_waves, cuda/tuning/policy.cuh) and uses a tuned
 * count for a size bucket when it has one: from the cache file loaded at
 * creation, from gpureduce_autotune(), or set by hand.
 */
#include "core/handle.h"
#include "order/order.h"
#include "tune/tune.h"

unsigned gr_bucket(uint64_t tiles) {
  unsigned b = 0;
  while (b + 1 < GR_BUCKETS && ((uint64_t)1 << b) < tiles) ++b;
  return b;
}

int gr_tune_f64_index(unsigned flags) { return (flags & GPUREDUCE_ACCUMULATE_F64) != 0; }

/* Waves of blocks for `tiles` tiles when one wave is `fill` blocks: 8
 * where one wave would give each block 64 tiles or more, 4 where it would
 * give 32 to 63, otherwise 1, so that a block of several waves still takes
 * 8 tiles or more (doc/TUNING.md, "The block-count model and the wave
 * limits").  H200, time at one wave / at w waves, 26 kernels of the policy
 * table:
 *   8 (64 tiles a block or more): 2^30 1.00 to 1.03x, NRM2 1.03 to 1.06x,
 *     8-bit arg ops 1.10x (u8 argmin 329.8 -> 297.7 us)
 *   4 (32 to 63): 2^28 1.00 to 1.02x, 8-bit arg ops 1.02 to 1.05x
 *   1 (31 or fewer): 16 tiles a block or fewer 0.78 to 1.01x with 2 to 8
 *     waves; 31, 4 waves: 64-bit kernels 1.00 to 1.03x, f16 argmin 0.98x */
static uint64_t gr_model_waves(uint64_t tiles, uint64_t fill) {
  if (tiles >= fill * 64) return 8;
  if (tiles >= fill * 32) return 4;
  return 1;
}

unsigned gr_tune_model_grid(const struct gpureduce_handle *h, gpureduce_type_t type,
                            gpureduce_op_t op, unsigned flags, const struct gr_plan *plan) {
  const int f = gr_tune_f64_index(flags);
  const uint64_t fill = (uint64_t)h->sm_count * h->tune->resident[type][op][f];
  const uint64_t most = h->tune->max_waves[type][op][f];
  uint64_t waves = gr_model_waves(plan->tiles, fill);
  if (most && waves > most) waves = most;
  const uint64_t blocks = fill * waves;
  const uint64_t g = plan->groups < blocks ? plan->groups : blocks; /* at most GR_MAX_ROOTS */
  return g ? (unsigned)g : 1u;
}

unsigned gr_tune_grid(const struct gpureduce_handle *h, gpureduce_type_t type,
                      gpureduce_op_t op, unsigned flags, const struct gr_plan *plan) {
  const unsigned tuned =
      h->tune->blocks[type][op][gr_tune_f64_index(flags)][gr_bucket(plan->tiles)];
  return tuned ? tuned : gr_tune_model_grid(h, type, op, flags, plan);
}
