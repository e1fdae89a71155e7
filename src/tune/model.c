/*
 * tune/model.c - size buckets and the block count of a launch.
 *
 * The block count never changes a result (doc/ORDER.md); it changes the
 * speed.  A CUDA handle starts from the model
 *     blocks = min(groups of tiles, waves x SMs x resident blocks of the kernel)
 * (resident: cudaOccupancyMaxActiveBlocksPerMultiprocessor, read once at
 * creation by cuda/device.cu; waves: gr_model_waves) and uses a tuned
 * count for a size bucket when it has one: from the cache file loaded at
 * creation, from gpureduce_autotune(), or set by hand.
 */
#include "api/handle.h"
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
 * 8 tiles or more.
 *
 * Why (H200, 2026-12-03; tools/policy-variants with PV_WAVES="1 2 4 8",
 * ten kernels of the policy table, median of 5 batches of 20 launches,
 * every result's bits equal; time at one wave / time at w waves, aligned
 * and 3 elements past alignment): at one wave each block reads one long
 * range; more, shorter ranges finished sooner at the largest sizes:
 *   2^30, 8 waves: 1.003 to 1.012 for the f16, f32, f64 and i32 kernels (20
 *     of 20 above 1), u8 argmin 1.108 / 1.098 (329.8 -> 297.7 us)
 *   2^28, 4 waves: f32 sum 1.004 / 1.005, i32 sum 1.013 / 1.005, f32 max
 *     1.005 / 1.000, f32 argmin 1.001 / 0.998, u8 argmin 1.030 / 1.023,
 *     but f16 argmin (32 tiles a block) 0.981 / 0.980
 *   2^24 and 2^26 (16 tiles a block or fewer), 2 to 8 waves: 0.78 to 0.99
 *     everywhere, since the last block then combines more roots.
 * 8 waves at 2^28 for the 32-bit kernels (64 tiles a block) were 0.994 to
 * 1.006. */
static uint64_t gr_model_waves(uint64_t tiles, uint64_t fill) {
  if (tiles >= fill * 64) return 8;
  if (tiles >= fill * 32) return 4;
  return 1;
}

unsigned gr_tune_model_grid(const struct gpureduce_handle *h, gpureduce_type_t type,
                            gpureduce_op_t op, unsigned flags, const struct gr_plan *plan) {
  const uint64_t fill =
      (uint64_t)h->sm_count * h->tune->resident[type][op][gr_tune_f64_index(flags)];
  const uint64_t blocks = fill * gr_model_waves(plan->tiles, fill);
  const uint64_t g = plan->groups < blocks ? plan->groups : blocks; /* at most GR_MAX_ROOTS */
  return g ? (unsigned)g : 1u;
}

unsigned gr_tune_grid(const struct gpureduce_handle *h, gpureduce_type_t type,
                      gpureduce_op_t op, unsigned flags, const struct gr_plan *plan) {
  const unsigned tuned =
      h->tune->blocks[type][op][gr_tune_f64_index(flags)][gr_bucket(plan->tiles)];
  return tuned ? tuned : gr_tune_model_grid(h, type, op, flags, plan);
}
