/*
 * test-plan.c - the launch plan (src/order/plan.c, order/order.h):
 * gr_plan_make's tiles and groups and gr_plan_fit's choice of one group a
 * block, against the rules order.h states, worked out here by brute force
 * for every tile count up to 70000 and a range of grids, and at the sizes
 * doc/TUNING.md measured.  The plan changes no bit (test-host and
 * test-cuda check the results for many sizes); what is checked is that it
 * covers the tiles with aligned groups, within the workspace's roots and
 * the grid.  plan.c is internal (hidden in the shared library), so this
 * program compiles it itself.  Host only: runs everywhere.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdint.h>

#include "order/order.h"
#include "testutil.h"

/* Groups of 2^g tiles covering `tiles'. */
static uint64_t groups_at(uint64_t tiles, unsigned g) {
  return (tiles + ((uint64_t)1 << g) - 1) >> g;
}

/* The plan order.h describes, found by search: the smallest g with at
 * most GR_MAX_ROOTS groups; then, for the grid, the smallest larger g
 * with at most grid groups, taken when those are at least 9/10 of grid. */
static void expected(uint64_t tiles, unsigned grid, unsigned *g_out, uint64_t *groups_out,
                     unsigned *grid_out) {
  unsigned g = 0;
  while (groups_at(tiles, g) > GR_MAX_ROOTS) ++g;
  unsigned h = g;
  while (groups_at(tiles, h) > grid) ++h;
  if (h > g && groups_at(tiles, h) * 10 >= (uint64_t)grid * 9) g = h;
  const uint64_t groups = groups_at(tiles, g);
  *g_out = g;
  *groups_out = groups;
  *grid_out = groups == 0 ? 1 : groups < grid ? (unsigned)groups : grid;
}

/* f32 elements: a tile is 8192 of them. */
#define F32_TILE ((uint64_t)GR_TILE_CHUNKS * GR_CHUNK_BYTES / 4)

static void check_plan(uint64_t n, size_t es, unsigned grid, int *bad) {
  struct gr_plan p;
  gr_plan_make(n, es, 1, &p);
  const unsigned made_g = p.group_log2;
  gr_plan_fit(&p, grid);
  unsigned g;
  uint64_t groups;
  unsigned eg;
  expected(p.tiles, grid, &g, &groups, &eg);
  const uint64_t per = (uint64_t)1 << p.group_log2;
  const int ok = p.group_log2 == g && p.groups == groups && p.grid == eg &&
                 p.groups <= GR_MAX_ROOTS && p.grid >= 1 && p.grid <= grid &&
                 (p.groups == 0 || (p.groups - 1) * per < p.tiles) && p.groups * per >= p.tiles &&
                 p.group_log2 >= made_g;
  if (!ok && (*bad)++ < 5)
    print_message("# n %llu (%zu-byte elements, %llu tiles), grid %u: g %u, groups %llu, grid %u; "
                  "expected g %u, groups %llu, grid %u\n",
                  (unsigned long long)n, es, (unsigned long long)p.tiles, grid, p.group_log2,
                  (unsigned long long)p.groups, p.grid, g, (unsigned long long)groups, eg);
}

/* Every tile count up to 70000 (past the 8192 roots), grids 1 to 5280 (8
 * waves of 132 SMs x 5 blocks, tune/model.c). */
static void fit_matches_the_rule(void **state) {
  (void)state;
  static const unsigned grids[] = {1, 2, 3, 7, 64, 128, 132, 256, 264, 396, 511, 512, 528, 660, 792, 1200,
                                   2112, 4224, 5280};
  int bad = 0;
  long cases = 0;
  for (uint64_t tiles = 0; tiles <= 70000; ++tiles)
    for (size_t k = 0; k < sizeof grids / sizeof grids[0]; ++k, ++cases)
      check_plan(tiles * F32_TILE - (tiles ? 611 % F32_TILE : 0), 4, grids[k], &bad);
  check_true(bad == 0, "%d of %ld plans differ from order.h's rule", bad, cases);
}

/* The sizes doc/TUNING.md measured ("The block-count model"), by hand. */
static void fit_at_measured_sizes(void **state) {
  (void)state;
  struct gr_plan p;
  gr_plan_make((uint64_t)1 << 26, 4, 1, &p); /* 8192 tiles, groups of one */
  check_true(p.tiles == 8192 && p.groups == 8192 && p.group_log2 == 0, "2^26 f32: 8192 tiles");
  gr_plan_fit(&p, 528);
  check_true(p.group_log2 == 4 && p.groups == 512 && p.grid == 512,
             "2^26 f32 on 528 blocks: 512 groups of 16 tiles on 512 blocks (got g %u, %llu, %u)",
             p.group_log2, (unsigned long long)p.groups, p.grid);
  gr_plan_make((uint64_t)1 << 30, 4, 1, &p);
  gr_plan_fit(&p, 528);
  check_true(p.group_log2 == 8 && p.groups == 512 && p.grid == 512, "2^30 f32: groups of 256");
  gr_plan_make((uint64_t)1 << 26, 4, 1, &p);
  gr_plan_fit(&p, 396); /* 3 blocks an SM: 256 groups would leave a third idle */
  check_true(p.group_log2 == 0 && p.groups == 8192 && p.grid == 396,
             "2^26 f32 on 396 blocks: the groups are kept");
  gr_plan_make(8520 * F32_TILE, 4, 1, &p); /* 4260 groups of 2; 533 of 16 > 528 */
  gr_plan_fit(&p, 528);
  check_true(p.group_log2 == 1 && p.groups == 4260 && p.grid == 528,
             "8520 tiles on 528 blocks: the groups are kept (267 of 32 would idle half)");
  gr_plan_make(100 * F32_TILE, 4, 1, &p);
  gr_plan_fit(&p, 528);
  check_true(p.group_log2 == 0 && p.groups == 100 && p.grid == 100, "100 tiles: 100 blocks");
  gr_plan_make(0, 4, 1, &p);
  gr_plan_fit(&p, 528);
  check_true(p.groups == 0 && p.grid == 1, "no tiles: one block");
  gr_plan_make(5 * F32_TILE, 4, 1, &p);
  gr_plan_fit(&p, 0);
  check_true(p.grid == 1 && p.groups == 1 && p.group_log2 == 3,
             "grid 0 is taken as 1: one group of 8 tiles covers the 5");
}

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fit_matches_the_rule),
      cmocka_unit_test(fit_at_measured_sizes),
  };
  return cmocka_run_group_tests_name("test-plan", tests, NULL, NULL);
}
