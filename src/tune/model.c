/*
 * tune/model.c - size buckets and the block count of a launch.
 *
 * The block count never changes a result (doc/ORDER.md); it changes the
 * speed.  A CUDA handle starts from the model
 *     blocks = min(groups of tiles, SMs x resident blocks of the kernel)
 * (resident: cudaOccupancyMaxActiveBlocksPerMultiprocessor, read once at
 * creation by cuda/device.cu) and uses a tuned count for a size bucket
 * when it has one: from the cache file loaded at creation, from
 * gpureduce_autotune(), or set by hand.
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

unsigned gr_tune_model_grid(const struct gpureduce_handle *h, gpureduce_type_t type,
                            gpureduce_op_t op, unsigned flags, uint64_t groups) {
  const uint64_t fill =
      (uint64_t)h->sm_count * h->tune->resident[type][op][gr_tune_f64_index(flags)];
  const uint64_t g = groups < fill ? groups : fill;
  return g ? (unsigned)g : 1u;
}

unsigned gr_tune_grid(const struct gpureduce_handle *h, gpureduce_type_t type,
                      gpureduce_op_t op, unsigned flags, const struct gr_plan *plan) {
  const unsigned tuned =
      h->tune->blocks[type][op][gr_tune_f64_index(flags)][gr_bucket(plan->tiles)];
  return tuned ? tuned : gr_tune_model_grid(h, type, op, flags, plan->groups);
}
