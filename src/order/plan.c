/*
 * order/plan.c - tiles and groups of the launch plan (order/order.h).
 */
#include "order/order.h"

uint64_t gr_tile_count(uint64_t n, size_t elem_size) {
  const uint64_t tile_elems = (uint64_t)GR_TILE_CHUNKS * (GR_CHUNK_BYTES / elem_size);
  return n / tile_elems + (n % tile_elems != 0);
}

/* Groups of 2^g tiles that cover `tiles'. */
static uint64_t groups_of(uint64_t tiles, unsigned g) {
  return (tiles >> g) + ((tiles & ((1ull << g) - 1)) != 0);
}

/* At most grid blocks (>= 1), none without a group but one. */
static unsigned grid_for(uint64_t groups, unsigned grid) {
  if (grid < 1) grid = 1;
  return groups < grid ? (unsigned)(groups ? groups : 1) : grid;
}

void gr_plan_make(uint64_t n, size_t elem_size, unsigned max_grid, struct gr_plan *plan) {
  plan->tiles = gr_tile_count(n, elem_size);
  plan->group_log2 = 0;
  while (groups_of(plan->tiles, plan->group_log2) > GR_MAX_ROOTS) ++plan->group_log2;
  plan->groups = groups_of(plan->tiles, plan->group_log2);
  plan->grid = grid_for(plan->groups, max_grid);
}

void gr_plan_fit(struct gr_plan *plan, unsigned grid) {
  if (grid < 1) grid = 1;
  unsigned g = plan->group_log2;
  uint64_t groups = plan->groups;
  while (groups > grid && g < 63) groups = groups_of(plan->tiles, ++g);
  if (g != plan->group_log2 && groups * 10 >= (uint64_t)grid * 9) {
    plan->group_log2 = g;
    plan->groups = groups;
  }
  plan->grid = grid_for(plan->groups, grid);
}
