/*
 * order/plan.c - tiles and groups of the launch plan (order/order.h).
 */
#include "order/order.h"

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

void gr_plan_fit(struct gr_plan *plan, unsigned grid) {
  if (grid < 1) grid = 1;
  unsigned g = plan->group_log2;
  uint64_t groups = plan->groups;
  while (groups > grid && g < 63) {
    ++g;
    groups = (plan->tiles >> g) + ((plan->tiles & ((1ull << g) - 1)) != 0);
  }
  if (g != plan->group_log2 && groups * 10 >= (uint64_t)grid * 9) {
    plan->group_log2 = g;
    plan->groups = groups;
  }
  plan->grid = plan->groups < grid ? (unsigned)(plan->groups ? plan->groups : 1) : grid;
}
