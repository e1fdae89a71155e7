/*
 * partial-bits.c - the partial-result tests of the bits (partial.h):
 * every kind cut every way, deep tile trees and groups of tiles, special
 * values where the parts meet, many parts, doc/ORDER.md's example, and
 * empty arrays.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "partial-internal.h"
#include "reference.h"
#include "segments.h" /* sg_quick */

/* The sizes of pt_every_kind: a few elements, and k tiles and one element
 * either side for k = 1, 2, 3, 5, 8, 9. */
static size_t every_kind_sizes(gpureduce_type_t type, size_t *s) {
  static const size_t small[] = {1, 2, 7, 100};
  static const size_t tiles[] = {1, 2, 3, 5, 8, 9};
  const size_t te = tu_tile_elems(type);
  size_t k = 0;
  for (size_t i = 0; i < COUNT(small); ++i) s[k++] = small[i];
  for (size_t i = 0; i < COUNT(tiles); ++i) {
    s[k++] = tiles[i] * te - 1;
    s[k++] = tiles[i] * te;
    s[k++] = tiles[i] * te + 1;
  }
  return k;
}

/* ---- tests: the bits, every kind --------------------------------------------- */

void pt_every_kind(void **state) {
  (void)state;
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (pt_next_kind(&k, &type, &op, &flags)) {
    if (sg_quick() && k % 7 != 1) continue;
    size_t sizes[32];
    size_t ns = every_kind_sizes(type, sizes);
    if (sg_quick() && ns > 10) ns = 10; /* a few elements, 1 and 2 tiles */
    char stream[100];
    snprintf(stream, sizeof stream, "partial every kind %s", bt_kind_name(type, op, flags));
    tu_rng r;
    tu_rng_init(&r, stream);
    for (size_t si = 0; si < ns; ++si) {
      const size_t n = sizes[si];
      void *x = bt_room_for(&pt_data, n * TU_TYPE(type)->size);
      struct pt_array a = {x, n, type, op, flags, pt_fill(&r, type, op, (int)(si % 3), x, n),
                           0, {{0, 0}}};
      pt_prepare(&a);
      struct pt_split sp;
      for (int f = 0; f < PT_MANY; ++f) /* (pt_many_parts: PT_MANY) */
        if (pt_make_split((enum pt_family)f, n, type, &r, &sp)) pt_check_split(&a, &sp, &r);
    }
  }
}

/* 301 tiles (77 elements in the last): deep tile trees, parts of many
 * canonical nodes.  The kinds whose type and op numbers add up to a
 * multiple of 4: 31 of them, every type and every op among them, flags
 * included. */
void pt_few_hundred_tiles(void **state) {
  (void)state;
  static const enum pt_family fams[] = {PT_RANDOM, PT_NEAR_TILES, PT_ODD_TILES};
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (pt_next_kind(&k, &type, &op, &flags))
    if (((int)type + (int)op) % 4 == 0 && (!sg_quick() || k % 3 == 1))
      pt_check_random(type, op, flags, 300 * tu_tile_elems(type) + 77, fams, COUNT(fams),
                      "few hundred tiles");
}

/* Past GR_MAX_ROOTS (8192) tiles, where gpureduce_reduce() reduces groups
 * of tiles and then the groups' roots: 8195 tiles.  Not in quick mode
 * (PARTIAL_LONG_TESTS). */
void pt_tile_groups(void **state) {
  (void)state;
  static const enum pt_family fams[] = {PT_RANDOM, PT_ODD_TILES};
  static const struct {
    gpureduce_type_t type;
    gpureduce_op_t op;
    unsigned flags;
  } kinds[] = {{GPUREDUCE_F64, GPUREDUCE_SUM, 0},
               {GPUREDUCE_F64, GPUREDUCE_ARGMAX, GPUREDUCE_WITH_VALUE}};
  for (size_t i = 0; i < COUNT(kinds); ++i)
    pt_check_random(kinds[i].type, kinds[i].op, kinds[i].flags,
                    8195 * tu_tile_elems(kinds[i].type) - 3, fams, COUNT(fams), "tile groups");
}

/* ---- tests: special values where the parts meet --------------------------------- */

/* Special values on both sides of the cuts of four parts, [0, c1), [c1,
 * c2), [c2, c3), [c3, n), combined in three shuffled orders: the answers
 * of gpureduce.h written out, as well as the bits of the whole array. */
void pt_specials_at_cuts(void **state) {
  (void)state;
  tu_rng r;
  tu_rng_init(&r, "partial specials at cuts");
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    const int fl = TU_TYPE(type)->is_float;
    const unsigned es = TU_TYPE(type)->size;
    const size_t te = tu_tile_elems(type), n = 3 * te + 11;
    const size_t c1 = te - 1, c2 = te + 1, c3 = 2 * te + 5;
    struct pt_split sp = {4, {0, c1, c2, c3, n}, "four parts cut near tiles 1 and 2"};
    unsigned char *x = bt_room_for(&pt_data, n * es);
    /* middling values: 1 .. 2 (floats), 10 .. 99 (integers) */
    const uint64_t lo = fl ? tu_pattern(type, 0.5) : 3, hi = fl ? tu_pattern(type, 4.0) : 120;
    enum { TIES, ZEROS, NANS, INFS, PATTERNS };
    for (int pat = 0; pat < PATTERNS; ++pat) {
      if (!fl && pat != TIES) continue;
      for (size_t i = 0; i < n; ++i)
        tu_store(x, i, es, fl ? tu_pattern(type, 1.0 + (double)tu_below(&r, 64) / 64)
                              : 10 + tu_below(&r, 90));
      const char *what = "";
      size_t imin = 0, imax = 0;
      switch (pat) {
        case TIES: /* the smallest at c1-1, c1 and c3; the largest at c3-1, c3+1 */
          tu_store(x, c1 - 1, es, lo);
          tu_store(x, c1, es, lo);
          tu_store(x, c3 + 2, es, lo);
          tu_store(x, c3 - 1, es, hi);
          tu_store(x, c3 + 1, es, hi);
          imin = c1 - 1;
          imax = c3 - 1;
          what = "ties of the smallest and the largest value on both sides of cuts";
          break;
        case ZEROS: /* +0 at c1, -0 at c2 (last part first in value order) */
          for (size_t i = 0; i < n; ++i) tu_store(x, i, es, tu_pattern(type, 1.0));
          tu_store(x, c1, es, tu_pattern(type, 0.0));
          tu_store(x, c2, es, tu_pattern(type, -0.0));
          imin = c1;
          imax = 0;
          what = "all 1 but +0 at c1 and -0 at c2";
          break;
        case NANS: /* NaNs at c2 and c1 + 1 */
          tu_store(x, c2, es, tu_nan(type, 0, 1, 1));
          tu_store(x, c1 + 1, es, tu_nan(type, 1, 0, 7));
          imin = imax = c1 + 1;
          what = "NaNs at c1+1 and c2";
          break;
        default: /* -inf at c3, +inf at c1 - 1 */
          tu_store(x, c3, es, tu_neg_inf(type));
          tu_store(x, c1 - 1, es, tu_pos_inf(type));
          imin = c3;
          imax = c1 - 1;
          what = "+inf at c1-1 and -inf at c3";
          break;
      }
      int k = 0;
      gpureduce_type_t t2;
      gpureduce_op_t op;
      unsigned flags;
      while (pt_next_kind(&k, &t2, &op, &flags)) {
        if (t2 != type) continue;
        struct pt_array a = {x, n, type, op, flags, what, 0, {{0, 0}}};
        pt_prepare(&a);
        for (int rep = 0; rep < 3; ++rep) pt_check_split(&a, &sp, &r);
        /* the answers written out */
        const char *kn = bt_kind_name(type, op, flags);
        if (bt_is_arg(op))
          check_bits(op == GPUREDUCE_ARGMIN ? imin : imax, a.want.w[0],
                     "%s, %s: the index written out from gpureduce.h (the lowest of a tie, "
                     "the first NaN)", kn, what);
        if (op == GPUREDUCE_MIN && pat == ZEROS)
          check_bits(tu_pattern(type, -0.0), a.want.w[0], "%s, %s: -0", kn, what);
        if (op == GPUREDUCE_MAX && pat == INFS)
          check_bits(tu_pos_inf(type), a.want.w[0], "%s, %s: +inf", kn, what);
        if (op == GPUREDUCE_SUM && pat == INFS)
          check_bits(bt_result_pattern(type, op, flags, NAN), a.want.w[0],
                     "%s, %s: the sum of +inf and -inf is NaN", kn, what);
        if (op == GPUREDUCE_MIN && pat == TIES)
          check_bits(lo, a.want.w[0], "%s, %s: the smallest", kn, what);
      }
    }
  }
}

/* More than 64 parts, many of them empty (the combine lists partials out
 * of offset order, allocating beyond 64): every kind at 3 tiles + 5. */
void pt_many_parts(void **state) {
  (void)state;
  static const enum pt_family fams[] = {PT_MANY};
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (pt_next_kind(&k, &type, &op, &flags))
    if (!sg_quick() || k % 7 == 1)
      pt_check_random(type, op, flags, 3 * tu_tile_elems(type) + 5, fams, COUNT(fams),
                      "many parts");
}

/* doc/ORDER.md's example: F32, N = 20000 (tiles 0, 1, 2, the last of 3616
 * elements), parts [0, 5000), [5000, 5001), [5001, 20000); every f32 kind,
 * and the sum against the example's bracketing (t0 + t1) + t2, the tiles
 * by rules 3 and 4 (reference.h). */
void pt_order_example(void **state) {
  (void)state;
  const size_t N = 20000, te = tu_tile_elems(GPUREDUCE_F32);
  tu_rng r;
  tu_rng_init(&r, "partial doc/ORDER.md example");
  float *x = bt_room_for(&pt_data, N * sizeof *x);
  tc_fill(&r, GPUREDUCE_F32, G_WIDE, x, N);
  const struct pt_split sp = {3, {0, 5000, 5001, N}, "doc/ORDER.md's example"};
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (pt_next_kind(&k, &type, &op, &flags)) {
    if (type != GPUREDUCE_F32) continue;
    struct pt_array a = {x, N, type, op, flags, "random floats", 0, {{0, 0}}};
    pt_prepare(&a);
    for (int rep = 0; rep < 3; ++rep) pt_check_split(&a, &sp, &r);
    if (op != GPUREDUCE_SUM || flags) continue;
    const float t0 = ref_order_tile_f(x, te, 4, 0), t1 = ref_order_tile_f(x + te, te, 4, 0);
    const float t2 = ref_order_tile_f(x + 2 * te, N - 2 * te, 4, 0);
    check_bits(tu_f32_bits((t0 + t1) + t2), a.want.w[0],
               "f32 sum of doc/ORDER.md's example: (t0 + t1) + t2, the tiles by rules 3 and 4");
  }
}

/* ---- tests: n = 0 ------------------------------------------------------------------- */

/* An empty array: one empty part, and five: the documented empty result
 * of gpureduce.h (+0, 1, the largest or the lowest value); ARGMIN,
 * ARGMAX and MEAN_VAR: GPUREDUCE_ERROR_EMPTY_INPUT, the partial
 * untouched. */
void pt_empty_array(void **state) {
  (void)state;
  const gpureduce_handle_t h = battery_handle();
  tu_rng r;
  tu_rng_init(&r, "partial empty array");
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (pt_next_kind(&k, &type, &op, &flags)) {
    const char *kn = bt_kind_name(type, op, flags);
    char what[160];
    snprintf(what, sizeof what, "%s of an empty array (n_global 0)", kn);
    const size_t bytes = pt_checked_bytes(0, 0, 0, type, op, flags, what);
    if (bt_empty_is_error(op)) {
      unsigned char *p = bt_room_for(&pt_made, bytes + CANARY), *dummy = bt_room_for(&pt_again_mem, 256);
      for (int with_ptr = 0; with_ptr < 2; ++with_ptr) {
        memset(p, PFILL, bytes + CANARY);
        const gpureduce_status_t s =
            gpureduce_partial_reduce(with_ptr ? dummy : NULL, p, 0, 0, 0, type, op, flags, h);
        expect_failure(h, GPUREDUCE_ERROR_EMPTY_INPUT, s, p, PFILL, bytes + CANARY,
                       "%s, input %s: gpureduce_partial_reduce()", what,
                       with_ptr ? "a valid pointer" : "NULL");
      }
      continue;
    }
    struct pt_array a = {NULL, 0, type, op, flags, "no elements", 0, {{0, 0}}};
    pt_prepare(&a);
    check_result(bt_empty_result(type, op, flags), a.want, a.rs,
                 "%s: gpureduce_reduce() gives the documented empty result", what);
    struct pt_split sp;
    if (pt_make_split(PT_ONE, 0, type, &r, &sp)) pt_check_split(&a, &sp, &r);
    if (pt_make_split(PT_EMPTY, 0, type, &r, &sp)) pt_check_split(&a, &sp, &r);
  }
}
