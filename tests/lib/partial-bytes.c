/*
 * partial-bytes.c - the tests of gpureduce_partial_bytes() (partial.h):
 * the size of every kind's partial for ordinary and extreme parts, and
 * n_global at the bound of partial.h.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partial-internal.h"

/* ---- tests: gpureduce_partial_bytes ------------------------------------------------ */

/* A part: n_local elements from offset of n_global. */
struct range {
  uint64_t n_local, offset, n_global;
};

/* The extreme parts of an array of N elements (te a tile): everything;
 * an empty part at either end; the last element; from inside tile 0 to
 * inside tile T-2, te-1 raw elements at each end and the whole tiles from
 * tile 1 between them, the most canonical nodes; from inside tile 1 to
 * the end; all but the last element.  Returns how many (7). */
static size_t extreme_parts(uint64_t N, uint64_t te, struct range *p) {
  const uint64_t T = N / te + (N % te != 0);
  size_t k = 0;
  p[k++] = (struct range){N, 0, N};
  p[k++] = (struct range){0, N, N};
  p[k++] = (struct range){0, 0, N};
  p[k++] = (struct range){1, N - 1, N};
  p[k++] = (struct range){(T - 1) * te - 2, 1, N};
  p[k++] = (struct range){N - te - 1, te + 1, N};
  p[k++] = (struct range){N - 1, 0, N};
  return k;
}

void pt_bytes(void **state) {
  (void)state;
  /* valid exactly where gpureduce_result_size() has a result, which
   * agrees with gpureduce.h's table */
  for (int ti = 0; ti <= GPUREDUCE_TYPE_COUNT; ++ti)
    for (int oi = 0; oi <= GPUREDUCE_OP_COUNT; ++oi)
      for (unsigned flags = 0; flags < 8; ++flags) {
        const gpureduce_type_t type = (gpureduce_type_t)ti;
        const gpureduce_op_t op = (gpureduce_op_t)oi;
        const size_t rs = gpureduce_result_size(type, op, flags);
        check_bits(tu_result_size(type, op, flags), rs,
                   "type %d op %d flags %u: gpureduce_result_size() agrees with gpureduce.h's "
                   "table", ti, oi, flags);
        const size_t b = gpureduce_partial_bytes(100, 0, 100, type, op, flags);
        if (rs)
          check_true(b > 0, "type %d op %d flags %u (%s): a partial has bytes", ti, oi, flags,
                     bt_kind_name(type, op, flags));
        else
          check_bits(0, b, "type %d op %d flags %u, no result: gpureduce_partial_bytes() is 0",
                     ti, oi, flags);
      }

  /* every kind, ordinary and extreme parts: n_global up to 2^63 bytes */
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  size_t largest = 0;
  while (pt_next_kind(&k, &type, &op, &flags)) {
    const uint64_t te = tu_tile_elems(type), es = TU_TYPE(type)->size;
    struct range parts[32] = {{0, 0, 0},          {1, 0, 1},           {te, 0, te},
                              {te - 1, 1, te},    {3, te - 2, 2 * te}, {5 * te, te + 1, 9 * te},
                              {0, 9 * te, 9 * te}, {te, te, 3 * te + 1}};
    size_t np = 8;
    np += extreme_parts(((uint64_t)1 << 63) / es - 1, te, parts + np);
    np += extreme_parts(((uint64_t)1 << 62) / es + 12345, te, parts + np);
    for (size_t i = 0; i < np; ++i) {
      char what[200];
      snprintf(what, sizeof what, "%s, %" PRIu64 " elements from %" PRIu64 " of %" PRIu64,
               bt_kind_name(type, op, flags), parts[i].n_local, parts[i].offset, parts[i].n_global);
      const size_t b = pt_checked_bytes(parts[i].n_local, parts[i].offset, parts[i].n_global, type,
                                     op, flags, what);
      if (b > largest) largest = b;
    }
    /* no part: beyond n_global, or offset + n_local overflowing */
    const struct {
      uint64_t n_local, offset, n_global;
      const char *what;
    } bad[] = {
        {10, 5, 14, "10 elements from 5 of 14"},
        {0, 15, 14, "an empty part at 15 of 14"},
        {1, 14, 14, "one element at 14 of 14"},
        {te, 1, te, "a tile of elements from 1 of te"},
        {2, UINT64_MAX, 100, "2 elements from 2^64-1 (the end overflows)"},
        {UINT64_MAX, 2, UINT64_MAX, "2^64-1 elements from 2 of 2^64-1 (the end overflows)"},
        {UINT64_MAX, 0, UINT64_MAX - 1, "2^64-1 elements of 2^64-2"},
    };
    for (size_t i = 0; i < COUNT(bad); ++i)
      check_bits(0, gpureduce_partial_bytes(bad[i].n_local, bad[i].offset, bad[i].n_global,
                                            type, op, flags),
                 "%s, %s: gpureduce_partial_bytes() is 0", bt_kind_name(type, op, flags), bad[i].what);
  }
  print_message("# the largest partial: %zu bytes of GPUREDUCE_PARTIAL_MAX_BYTES %zu\n", largest,
                GPUREDUCE_PARTIAL_MAX_BYTES);
}

/* n_global at the bound of partial.h (n_global times the element size
 * below 2^63 bytes): every part of extreme_parts at the largest n_global
 * allowed has its partial; one element more, 2^63 and 2^64 - 1 elements
 * give 0. */
void pt_bytes_past_2_63(void **state) {
  (void)state;
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (pt_next_kind(&k, &type, &op, &flags)) {
    const uint64_t te = tu_tile_elems(type), es = TU_TYPE(type)->size;
    const uint64_t most = UINT64_MAX / 2 / es; /* (n_global * es < 2^63) */
    struct range parts[8];
    const size_t np = extreme_parts(most, te, parts);
    for (size_t j = 0; j < np; ++j) {
      char what[200];
      snprintf(what, sizeof what, "%s, %" PRIu64 " elements from %" PRIu64 " of %" PRIu64,
               bt_kind_name(type, op, flags), parts[j].n_local, parts[j].offset, parts[j].n_global);
      (void)pt_checked_bytes(parts[j].n_local, parts[j].offset, parts[j].n_global, type, op, flags,
                          what);
    }
    const uint64_t over[] = {most + 1, (uint64_t)1 << 63, UINT64_MAX};
    for (size_t i = 0; i < COUNT(over); ++i)
      check_bits(0, gpureduce_partial_bytes(1, 0, over[i], type, op, flags),
                 "%s: gpureduce_partial_bytes() of one element of an array of %" PRIu64
                 " elements is 0 (past n_global * element size < 2^63 bytes)",
                 bt_kind_name(type, op, flags), over[i]);
  }
}
