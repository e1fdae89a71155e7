/*
 * battery-offsets.c - the battery's inputs at every misalignment
 * (battery.h), with poison around them that would change the answer if
 * read.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battery-internal.h"

/* ---- tests: pointer offsets ---------------------------------------------------- */

/* (battery.h) */
uint64_t bt_poison(gpureduce_type_t type, gpureduce_op_t op) {
  const tu_type *t = TU_TYPE(type);
  switch (op) {
    case GPUREDUCE_MIN:
    case GPUREDUCE_ARGMIN: return t->is_float ? tu_neg_inf(type) : tu_type_lowest(type);
    case GPUREDUCE_MAX:
    case GPUREDUCE_ARGMAX: return t->is_float ? tu_pos_inf(type) : tu_type_max(type);
    case GPUREDUCE_AMAX: /* the largest magnitude: the lowest signed, the largest unsigned */
      if (!t->is_float) return t->is_signed ? tu_type_lowest(type) : tu_type_max(type);
      return tu_nan(type, 0, 1, 0x5a5a5a5a5a5a5a5aull);
    default:
      return t->is_float ? tu_nan(type, 0, 1, 0x5a5a5a5a5a5a5a5aull)
                         : (0x5a5a5a5a5a5a5a5aull & tu_size_mask(t->size));
  }
}

/* 1 to 4 tiles + 11: interior tiles exist at every misalignment.  te - 2,
 * 2 te and 3 te - 1 end a few elements short of a tile's end: where an
 * operation reads a misaligned vector in the tiles of its aligned blocks
 * (the CUDA kernels' realigned tiles), those elements lie past the last
 * such tile. */
static size_t offset_sizes(gpureduce_type_t type, tu_rng *r, size_t *s) {
  (void)r;
  const size_t te = tu_tile_elems(type);
  const size_t sizes[] = {1, 5, 100, te - 2, te + 7, 2 * te, 3 * te - 1, 4 * te + 11};
  memcpy(s, sizes, sizeof sizes);
  return COUNT(sizes);
}

void bt_offsets_and_poison(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      /* min/max data avoids the extremes the poison uses */
      {G_INNER, TC_ALL_OPS & ~TC_OP(GPUREDUCE_PROD), "values inside the type's range"},
      {G_FACTORS, TC_OP(GPUREDUCE_PROD), "factors of a finite product"},
  };
  const struct tc_plan plan = {
      .stream = "offsets", .sizes = offset_sizes, .data = data, .ndata = COUNT(data), .offsets = 16};
  struct tc_walk walk;
  struct tc_case c;
  struct ref_answer w;
  bt_result at0 = {{0, 0}};
  tc_begin(&walk, &plan);
  while (tu_next_case(&walk, &c)) {
    const uint64_t poison = bt_poison(c.type, c.op);
    char what[240];
    snprintf(what, sizeof what,
             "%s %s%s n=%zu (%s) at %zu elements past an aligned address, poison 0x%" PRIx64
             " around",
             bt_type_name(c.type), bt_op_name(c.op), c.flags ? " accumulate-f64" : "", c.n,
             c.data->what, c.offset, poison);
    bt_result got;
    const gpureduce_status_t s =
        battery_reduce(c.x, c.n, c.type, c.op, c.flags, c.offset, poison, &got);
    check_status(GPUREDUCE_SUCCESS, s, "%s: status", what);
    if (c.offset == 0) { /* the offsets of a case come one after another */
      w = bt_want_for(c.x, c.n, c.type, c.op, c.flags);
      check_want(&w, got, what);
      at0 = got;
    } else {
      check_result(at0, got, w.result_bytes, "%s: the same bits as at offset 0", what);
    }
  }
}

/* The extremes at the ends of a misaligned vector: MIN, MAX, ARGMIN and
 * ARGMAX at every misalignment (offsets 0 .. V-1 elements), with the one
 * smallest or largest element, or two equal ones, at the first and last
 * elements of the vector, of its first and last chunks and tiles, and
 * among the up to V-1 last elements a realigned reading (the CUDA kernels
 * of these operations: the tiles of the vector's aligned blocks) takes
 * past its last tile.  The poison around the vector is the winning
 * extreme, so an element read from outside the vector wins. */
void bt_misaligned_ends(void **state) {
  (void)state;
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    const tu_type *t = TU_TYPE(type);
    const unsigned es = t->size, v = tu_chunk_elems(type);
    const size_t te = tu_tile_elems(type);
    /* the last tile full, or 2 elements short, both short by less than a
     * chunk (past the realigned tiles at most misalignments); none past
     * them (2 te + 5); and a vector ending around element 256 v, in or
     * just before thread 0's chunk 1, which stands in for its chunk 0 */
    const size_t sizes[] = {te - 2, te, 3 * te - 1, 3 * te, 2 * te + 5,
                            256 * (size_t)v - 1, 256 * (size_t)v + v / 2};
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "misaligned ends %s", t->name);
    tu_rng_init(&r, label);
    const size_t room = 3 * te;
    void *base = tu_alloc(room * es), *x = tu_alloc(room * es);
    const struct bt_extremes ex = bt_fill_between(type, &r, base, room);
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      const size_t n = sizes[si];
      /* {p, q}: the extreme at p and, when q != p, a tie at q > p; the
       * last four around element 256 v, near the start of thread 0's
       * chunk 1 of a misaligned tile 0, whose copy stands in for its
       * chunk 0 (lane_edge_realigned) */
      const size_t c1 = 256 * (size_t)v;
      const size_t at[][2] = {{0, 0},           {1, 1},           {v - 1, v - 1},
                              {v, v},           {te - 1, te - 1}, {n - v - 1, n - v - 1},
                              {n - v, n - v},   {n - 2, n - 2},   {n - 1, n - 1},
                              {0, n - 1},       {n - 2, n - 1},   {v - 1, n - v + 1},
                              {c1 - 1, c1 - 1}, {c1 + 1, c1 + 1}, {c1 - 1, c1 + 1},
                              {v - 2, c1}};
      for (size_t offset = 0; offset < v; ++offset)
        for (size_t k = 0; k < COUNT(at); ++k) {
          const size_t p = at[k][0], q = at[k][1];
          if (q >= n || p > q) continue;
          for (size_t oi = 0; oi < COUNT(bt_minmax_ops); ++oi) {
            const gpureduce_op_t op = bt_minmax_ops[oi];
            const int is_min = op == GPUREDUCE_MIN || op == GPUREDUCE_ARGMIN;
            const uint64_t extreme = is_min ? ex.low : ex.high;
            memcpy(x, base, n * es);
            tu_store(x, p, es, extreme);
            tu_store(x, q, es, extreme);
            const uint64_t poison = bt_poison(type, op);
            char what[240];
            snprintf(what, sizeof what,
                     "%s %s n=%zu %zu elements past an aligned address, the extreme at %zu "
                     "and %zu, poison 0x%" PRIx64 " around",
                     bt_type_name(type), bt_op_name(op), n, offset, p, q, poison);
            bt_result got;
            const gpureduce_status_t s = battery_reduce(x, n, type, op, 0, offset, poison, &got);
            check_status(GPUREDUCE_SUCCESS, s, "%s: status", what);
            check_result(bt_word(bt_is_arg(op) ? p : extreme), got,
                         tu_result_size(type, op, 0), "%s", what);
          }
        }
    }
    free(base);
    free(x);
  }
}
