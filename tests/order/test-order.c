/*
 * test-order.c - the reduction order of doc/ORDER.md, as the tests'
 * reference (tests/lib/reference.h) computes it, against answers worked out
 * by hand from the document: its example, the lane tree, the tile tree,
 * the identity and rule 6; and ref_answer()'s contract (which combinations
 * have an answer, integer wrap-around, the error bound).  The library's
 * answers are checked against this reference by test-host and test-cuda
 * (tests/lib/battery-order.c, bt_order_example and bt_order_tiles); this
 * program checks the reference itself.  Host only: runs everywhere.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdlib.h>

#include "reference.h"
#include "testutil.h"

/* doc/ORDER.md's worked examples (tc_order_example), through the whole
 * order; the first also through ref_answer. */
static void order_examples(void **state) {
  (void)state;
  float *x = tu_alloc(TC_EXAMPLE_ROOM * sizeof *x);
  for (int k = 0; k < TC_EXAMPLES; ++k) {
    const struct tc_example e = tc_order_example(k, x);
    check_bits(tu_f32_bits(e.sum), tu_f32_bits(ref_order_f(x, e.n, 4, 0)), "the reference: %s",
               e.what);
  }
  struct ref_answer a;
  const struct tc_example e = tc_order_example(0, x);
  check_bits(0, (uint64_t)ref_answer(x, e.n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, &a),
             "ref_answer of doc/ORDER.md's example succeeds");
  check_bits(4, a.result_bytes, "the f32 sum's result is a 4-byte float");
  check_bits(tu_f32_bits(e.sum), a.bits, "ref_answer: %s", e.what);
  check_true(a.has_bound, "a finite f32 sum has an error bound");
  check_near(a.exact, e.sum, a.bound, "1.9375 is within the bound of the exact sum 1.9375");
  free(x);
}

/* Rules 3 and 4 on their own: the lane example is one tile. */
static void lane_tree(void **state) {
  (void)state;
  static float y[1025];
  const struct tc_example e = tc_order_example(1, y);
  check_bits(tu_f32_bits(e.sum), tu_f32_bits(ref_order_tile_f(y, e.n, 4, 0)),
             "one tile: %s", e.what);
  /* a product: lanes 0 and 1 hold 3 and 5 (chunks 0 and 1), the rest 1 */
  for (int i = 0; i < 1025; ++i) y[i] = 1;
  y[1] = 3;
  y[6] = 5;
  check_bits(tu_f32_bits(15.0f), tu_f32_bits(ref_order_f(y, 1025, 4, 1)),
             "a product of ones, 3 and 5: 15");
}

/* Rule 5 on tile values: tiles 2i and 2i+1 first; a missing right subtree
 * leaves its left sibling unchanged. */
static void tile_tree(void **state) {
  (void)state;
  const float five[5] = {16777216.0f, 1, 1, 1, 1};
  /* ((2^24 + 1) + (1 + 1)) + 1 = (2^24 + 2) + 1 -> 2^24 + 4 (ties to even) */
  check_bits(tu_f32_bits(16777220.0f), tu_f32_bits(ref_order_tree_f(five, 5, 0)),
             "tile values 2^24, 1, 1, 1, 1: the tile tree gives 2^24 + 4");
  /* (2^24 + 1) + 1 = 2^24: tile 2 is the right subtree alone */
  check_bits(tu_f32_bits(16777216.0f), tu_f32_bits(ref_order_tree_f(five, 3, 0)),
             "tile values 2^24, 1, 1: the tile tree gives (2^24 + 1) + 1 = 2^24");
  check_bits(tu_f32_bits(16777218.0f), tu_f32_bits(ref_order_tree_f(five, 4, 0)),
             "tile values 2^24, 1, 1, 1: (2^24 + 1) + (1 + 1) = 2^24 + 2");
  check_bits(tu_f32_bits(16777216.0f), tu_f32_bits(ref_order_tree_f(five, 1, 0)),
             "one tile: the tree is its value");
}

/* The identity -0 is exact, and rule 6's empty and NaN results. */
static void identity_and_rule_6(void **state) {
  (void)state;
  const float mz[3] = {-0.0f, -0.0f, -0.0f};
  check_bits(0x80000000u, tu_f32_bits(ref_order_f(mz, 3, 4, 0)),
             "a sum of -0s is -0: the identity -0 changes nothing");
  const double pz[2] = {0.0, -0.0};
  check_bits(0, tu_f64_bits(ref_order_d(pz, 2, 2, 0)), "+0 + -0 is +0");
  check_bits(0, tu_f32_bits(ref_order_f(NULL, 0, 4, 0)), "an empty sum is +0, not the identity -0");
  check_bits(tu_f32_bits(1.0f), tu_f32_bits(ref_order_f(NULL, 0, 4, 1)), "an empty product is 1");
  check_bits(UINT64_C(0x3ff0000000000000), tu_f64_bits(ref_order_d(NULL, 0, 2, 1)),
             "an empty double product is 1");
  const float withnan[3] = {1, tu_f32_of(0xffc01234u), 2};
  check_bits(0x7fffffffu, tu_f32_bits(ref_order_f(withnan, 3, 4, 0)),
             "a sum with a NaN of another payload and sign is the canonical quiet NaN");
  const double dnan[2] = {tu_f64_of(UINT64_C(0xfff8000000000001)), 1};
  check_bits(UINT64_C(0x7fffffffffffffff), tu_f64_bits(ref_order_d(dnan, 2, 2, 1)),
             "a double product with a NaN is the canonical quiet NaN");
}

/* ref_answer's contract: -1 without an answer, exact answers elsewhere. */
static void answers(void **state) {
  (void)state;
  struct ref_answer a;
  const float x[2] = {1, 2};
  check_bits((uint64_t)-1, (uint64_t)(int64_t)ref_answer(x, 0, GPUREDUCE_F32, GPUREDUCE_ARGMIN, 0, &a),
             "ref_answer: argmin of n = 0 has no answer (-1)");
  check_bits((uint64_t)-1, (uint64_t)(int64_t)ref_answer(x, 0, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0, &a),
             "ref_answer: argmax of n = 0 has no answer (-1)");
  check_bits((uint64_t)-1,
             (uint64_t)(int64_t)ref_answer(x, 2, GPUREDUCE_F32, GPUREDUCE_MIN,
                                           GPUREDUCE_ACCUMULATE_F64, &a),
             "ref_answer: f32 min with GPUREDUCE_ACCUMULATE_F64 has no answer (-1)");
  check_bits((uint64_t)-1,
             (uint64_t)(int64_t)ref_answer(x, 2, (gpureduce_type_t)GPUREDUCE_TYPE_COUNT,
                                           GPUREDUCE_SUM, 0, &a),
             "ref_answer: an unknown type has no answer (-1)");
  /* the documented empty results */
  check_bits(0, (uint64_t)ref_answer(NULL, 0, GPUREDUCE_F16, GPUREDUCE_MIN, 0, &a),
             "ref_answer: f16 min of n = 0");
  check_bits(0x7c00u, a.bits, "f16 min of n = 0 is +inf");
  check_bits(0, (uint64_t)ref_answer(NULL, 0, GPUREDUCE_I32, GPUREDUCE_MAX, 0, &a),
             "ref_answer: i32 max of n = 0");
  check_bits(0x80000000u, a.bits, "i32 max of n = 0 is INT32_MIN");
  /* integers wrap modulo 2^64; |INT64_MIN| is 2^63 */
  const int64_t big[3] = {INT64_MAX, INT64_MAX, INT64_MIN};
  check_bits(0, (uint64_t)ref_answer(big, 3, GPUREDUCE_I64, GPUREDUCE_SUM, 0, &a),
             "ref_answer: i64 sum");
  check_bits(UINT64_C(0x7ffffffffffffffe), a.bits,
             "INT64_MAX + INT64_MAX + INT64_MIN wraps to 2^63 - 2");
  check_bits(0, (uint64_t)ref_answer(big, 3, GPUREDUCE_I64, GPUREDUCE_SUM_ABS, 0, &a),
             "ref_answer: i64 sum_abs");
  check_bits(UINT64_C(0x7ffffffffffffffe), a.bits,
             "|INT64_MAX| + |INT64_MAX| + 2^63 wraps to 2^63 - 2");
  check_true(!a.has_bound, "an integer answer is exact: no error bound");
  /* ties and signed zeros */
  const float z[4] = {0.0f, -0.0f, -0.0f, 0.0f};
  check_bits(0, (uint64_t)ref_answer(z, 4, GPUREDUCE_F32, GPUREDUCE_MIN, 0, &a), "f32 min");
  check_bits(0x80000000u, a.bits, "min of {+0, -0, -0, +0} is -0");
  check_bits(0, (uint64_t)ref_answer(z, 4, GPUREDUCE_F32, GPUREDUCE_ARGMIN, 0, &a), "f32 argmin");
  check_bits(0, a.bits, "argmin of {+0, -0, -0, +0} is 0: -0 and +0 tie");
  /* the error bound holds on random data, and the bits are the order's */
  tu_rng r;
  tu_rng_init(&r, "order answers");
  const size_t n = 3 * tu_tile_elems(GPUREDUCE_F32) + 77;
  float *w = tu_alloc(n * sizeof *w), *l = tu_alloc(n * sizeof *l);
  tc_fill(&r, GPUREDUCE_F32, G_WIDE, w, n);
  check_bits(0, (uint64_t)ref_answer(w, n, GPUREDUCE_F32, GPUREDUCE_SUM_SQUARES, 0, &a),
             "ref_answer: f32 sum_squares of %zu random values", n);
  ref_lift_f(GPUREDUCE_F32, GPUREDUCE_SUM_SQUARES, w, n, l);
  check_bits(tu_f32_bits(ref_order_f(l, n, 4, 0)), a.bits,
             "ref_answer's bits are the order of the lifted squares");
  check_true(a.has_bound && a.bound > 0, "a finite sum of squares has a positive bound");
  check_near(a.exact, ref_result_value(a.result_bytes, a.bits), a.bound,
             "the order's sum of squares is within ref_answer's bound of the exact value");
  free(w);
  free(l);
}

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(order_examples), cmocka_unit_test(lane_tree),
      cmocka_unit_test(tile_tree),     cmocka_unit_test(identity_and_rule_6),
      cmocka_unit_test(answers),
  };
  return cmocka_run_group_tests_name("test-order", tests, tu_seed_setup, NULL);
}
