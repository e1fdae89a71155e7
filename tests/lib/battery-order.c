/*
 * battery-order.c - the battery's tests of the order of doc/ORDER.md
 * (battery.h): its worked examples, and exact tile counts.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdlib.h>

#include "battery-internal.h"

/* ---- tests: the order ------------------------------------------------------------ */

void bt_order_example(void **state) {
  (void)state;
  float *x = tu_alloc(TC_EXAMPLE_ROOM * sizeof *x);
  for (int k = 0; k < TC_EXAMPLES; ++k) {
    const struct tc_example e = tc_order_example(k, x);
    expect(x, e.n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, tu_f32_bits(e.sum), "%s", e.what);
  }
  free(x);
}

/* Exactly 1, 2, 3, 4, 5, 7, 8, 9, 16 and 17 tiles, each a random n. */
static size_t tile_count_sizes(gpureduce_type_t type, tu_rng *r, size_t *s) {
  static const size_t tile_counts[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17};
  const size_t te = tu_tile_elems(type);
  for (size_t k = 0; k < COUNT(tile_counts); ++k)
    s[k] = (tile_counts[k] - 1) * te + 1 + tu_below(r, te);
  return COUNT(tile_counts);
}

void bt_order_tiles(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      {G_WIDE, TC_OP(GPUREDUCE_SUM) | TC_OP(GPUREDUCE_SUM_ABS) | TC_OP(GPUREDUCE_SUM_SQUARES),
       "wide random values, the order of doc/ORDER.md"},
      {G_NEAR1, TC_OP(GPUREDUCE_PROD), "near 1, the order of doc/ORDER.md"},
      {G_WIDE, TC_OP(GPUREDUCE_NRM2) | TC_OP(GPUREDUCE_MEAN_VAR),
       "wide random values, the order of doc/ORDER.md"},
  };
  const struct tc_plan plan = {.stream = "order tiles",
                               .kinds = tc_sum_kinds,
                               .nkinds = COUNT(tc_sum_kinds),
                               .sizes = tile_count_sizes,
                               .data = data,
                               .ndata = COUNT(data)};
  bt_check_cases(&plan);
}
