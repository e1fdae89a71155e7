/*
 * tune/model.c - size buckets and the block count of a launch.
 *
 * The block count never changes a result (doc/ORDER.md); it changes the
 * speed.  A CUDA handle starts from the model
 *     blocks = min(groups of tiles, waves x SMs x resident blocks of the kernel)
 * (resident: cudaOccupancyMaxActiveBlocksPerMultiprocessor, read once at
 * creation by cuda/device.cu; waves: gr_model_waves, at most the policy
 * row's max_waves, cuda/policy.cuh) and uses a tuned
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
 * 8 tiles or more.
 *
 * Why (H200, 2026-12-03; tools/policy-variants with PV_WAVES="1 2 4 8",
 * 26 kernels of the policy table over two machine starts, median of 5
 * batches of 20 launches, every result's bits equal; time at one wave /
 * time at w waves, aligned and 3 elements past alignment; more in
 * doc/PERFORMANCE.md): at one wave each block reads one long range; more,
 * shorter ranges finished sooner at the largest sizes:
 *   2^30, 8 waves: 1.002 to 1.03 for the sums, products, min/max and
 *     16- to 64-bit arg ops, 1.03 to 1.06 for NRM2 and bf16 argmax, 1.10
 *     to 1.11 for the 8-bit arg ops (u8 argmin 329.8 -> 297.7 us); f32
 *     MEAN_VAR 0.99
 *   2^28, 4 waves (32 to 63 tiles a block): 1.00 to 1.01 for the 32-bit
 *     sums and arg ops in one run, 1.02 in the other; 8-bit arg ops 1.02
 *     to 1.05; f32 MEAN_VAR 0.98 to 0.99
 *   16 tiles a block or fewer (f32, f16 and u8 to 2^26), 2 to 8
 *     waves: 0.78 to 1.01, mostly below 1, since the last block then
 *     combines more roots;
 *   31 tiles a block (f64 at 2^26, f16 at 2^28), 4 waves: the 64-bit
 *     kernels 1.00 to 1.03, f16 argmin 0.98: left at one wave. */
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
