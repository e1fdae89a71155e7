/*
 * battery-random.c - the battery's empty inputs, and random data against
 * the independent reference (battery.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdlib.h>

#include "battery-internal.h"

/* ---- tests: random data against the references ----------------------------- */

void bt_empty_inputs(void **state) {
  (void)state;
  unsigned char dummy[16] = {0};
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    const tu_type *t = TU_TYPE(type);
    for (int oi = 0; oi < GPUREDUCE_OP_COUNT; ++oi) {
      const gpureduce_op_t op = (gpureduce_op_t)oi;
      for (size_t fi = 0; fi < TU_FLAG_VALUES; ++fi) {
        const unsigned flags = tu_flag_values[fi];
        if (!tu_result_size(type, op, flags)) continue;
        for (int with_ptr = 0; with_ptr < 2; ++with_ptr) {
          const void *x = with_ptr ? dummy : NULL;
          bt_result got;
          const gpureduce_status_t s = battery_reduce(x, 0, type, op, flags, 0, 0, &got);
          const char *in = with_ptr ? "a valid input pointer" : "a NULL input";
          if (bt_empty_is_error(op)) {
            /* battery_reduce checked the output is untouched */
            check_status(GPUREDUCE_ERROR_EMPTY_INPUT, s, "%s %s of n=0 with %s", t->name,
                         tu_op_names[op], in);
            continue;
          }
          check_status(GPUREDUCE_SUCCESS, s, "%s %s flags %u of n=0 with %s", t->name,
                       tu_op_names[op], flags, in);
          check_result(bt_empty_result(type, op, flags), got, tu_result_size(type, op, flags),
                       "%s %s flags %u of n=0 with %s is the documented empty result", t->name,
                       tu_op_names[op], flags, in);
        }
      }
    }
  }
}

void bt_integers_random(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      {G_WIDE, TC_ALL_OPS & ~TC_OP(GPUREDUCE_PROD), "random bits"},
      {G_ODD, TC_OP(GPUREDUCE_PROD) | TC_OP(GPUREDUCE_SUM_SQUARES), "random odd values"},
      {G_POOL, TC_OP(GPUREDUCE_SUM) | TC_OP(GPUREDUCE_SUM_ABS) | TC_MIN_MAX_OPS,
       "extremes and small values, many ties"},
  };
  const struct tc_plan plan = {.stream = "integers",
                               .types = tc_int_types,
                               .ntypes = COUNT(tc_int_types),
                               .data = data,
                               .ndata = COUNT(data)};
  bt_check_cases(&plan);
}

void bt_float_min_max_random(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      {G_WIDE, TC_MIN_MAX_OPS | TC_OP(GPUREDUCE_AMAX), "random finite values"},
      {G_INF, TC_MIN_MAX_OPS | TC_OP(GPUREDUCE_AMAX), "random values and infinities"},
      {G_POOL, TC_MIN_MAX_OPS | TC_OP(GPUREDUCE_AMAX), "six values with ties and +-0"},
  };
  const struct tc_plan plan = {.stream = "min max",
                               .types = tc_float_types,
                               .ntypes = COUNT(tc_float_types),
                               .data = data,
                               .ndata = COUNT(data)};
  bt_check_cases(&plan);
}

/* Every floating accumulation (tc_sum_kinds), every size of tc_sizes. */
void bt_float_sums_random(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      {G_WIDE, TC_OP(GPUREDUCE_SUM) | TC_OP(GPUREDUCE_SUM_ABS) | TC_OP(GPUREDUCE_SUM_SQUARES),
       "random values, mixed signs, exponents over +-24 binades"},
      {G_WIDE, TC_OP(GPUREDUCE_NRM2) | TC_OP(GPUREDUCE_MEAN_VAR),
       "random values, mixed signs, exponents over +-24 binades"},
      {G_MODERATE, TC_OP(GPUREDUCE_MEAN_VAR), "moderate values"},
  };
  const struct tc_plan plan = {.stream = "sums",
                               .kinds = tc_sum_kinds,
                               .nkinds = COUNT(tc_sum_kinds),
                               .data = data,
                               .ndata = COUNT(data)};
  bt_check_cases(&plan);
}

void bt_float_products_random(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      {G_NEAR1, TC_OP(GPUREDUCE_PROD), "random values within 1/64 of 1"},
  };
  const struct tc_plan plan = {.stream = "products",
                               .kinds = tc_sum_kinds,
                               .nkinds = COUNT(tc_sum_kinds),
                               .data = data,
                               .ndata = COUNT(data)};
  bt_check_cases(&plan);
}
