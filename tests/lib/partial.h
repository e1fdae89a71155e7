/*
 * partial.h - the tests of the partial-result API (gpureduce/partial.h:
 * gpureduce_partial_bytes(), gpureduce_partial_reduce(),
 * gpureduce_partial_combine(), gpureduce_set_last_message()) both
 * backends must pass, written once and run by tests/host/test-partial
 * (host memory) and tests/cuda/test-partial (CUDA device 0), on the
 * backends of battery.h.
 *
 * An array is cut into parts (at random elements, at tile boundaries and
 * one element either side of them, several times inside one tile, with
 * empty parts at the start, the middle and the end, at odd tile indices);
 * each part is reduced on its own, from its own buffer 0 to 15 elements
 * past a 256-byte aligned address with poison (bt_poison()) around it,
 * into a partial of exactly gpureduce_partial_bytes() bytes followed by a
 * canary; the partials are concatenated in a shuffled order and combined.
 * The combined result must have the bits of gpureduce_reduce() of the
 * whole array on a host handle, which in turn must have the bits of the
 * independent reference (reference.h: ref_answer, or ref_with_value for
 * GPUREDUCE_WITH_VALUE).  One part of each split is reduced again from
 * another alignment into a buffer of other contents: the same bytes.  On
 * a CUDA backend every partial is also made on the host handle and must
 * be the same bytes, and a concatenation of CUDA and host partials must
 * combine to the same bits on either handle.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_TESTS_PARTIAL_H
#define GPUREDUCE_TESTS_PARTIAL_H

#include "battery.h"

/* Select the backend (battery_use() too); call before running the group. */
void partial_use(const struct tu_backend *backend);
/* Group setup and teardown: battery_setup() and battery_teardown(), and
 * the battery's buffers. */
int partial_setup(void **state);
int partial_teardown(void **state);

/* The bytes of a partial's fixed header (GPUREDUCE_PARTIAL_MAX_BYTES's
 * 96): every partial holds at least these and the raw elements of the
 * tiles its part cuts. */
#define PT_HEADER_BYTES 96u
/* The most parts of a split (more than the 64 partials the combine lists
 * without allocating). */
#define PT_MAX_PARTS 128

/* The ways of cutting an array of the tests (pt_make_split). */
enum pt_family {
  PT_ONE,        /* one part holding everything */
  PT_RANDOM,     /* 2 .. 9 parts cut at random elements */
  PT_TILES,      /* cuts at tile boundaries */
  PT_NEAR_TILES, /* cuts one element before or after tile boundaries */
  PT_TINY,       /* five cuts inside one tile, parts shorter than a chunk */
  PT_EMPTY,      /* empty parts at the start, the middle and the end */
  PT_ODD_TILES,  /* parts whose whole tiles start at odd tile indices */
  PT_MANY,       /* 100 parts cut at random elements, many of them empty */
  PT_FAMILIES
};

/* An array in parts: part k is elements cuts[k] .. cuts[k+1]-1, cuts[0] =
 * 0 <= cuts[1] <= ... <= cuts[parts] = n. */
struct pt_split {
  size_t parts;
  uint64_t cuts[PT_MAX_PARTS + 1];
  const char *name; /* what the cuts are, for messages */
};

/* The split of family f of an array of n elements of `type`, drawn from r
 * where it is random; 0 when the family has no split of n (too few tiles
 * or elements), else 1. */
int pt_make_split(enum pt_family f, size_t n, gpureduce_type_t type, tu_rng *r,
                  struct pt_split *sp);

/* Elements of a tile of `type` that part [offset, offset + n_local) of an
 * array of n_global elements cuts (holds some but not all of): what its
 * partial carries raw. */
uint64_t pt_raw_elements(uint64_t n_local, uint64_t offset, uint64_t n_global,
                         gpureduce_type_t type);

/* One array of the tests and what the whole of it reduces to. */
struct pt_array {
  const void *x; /* n elements in host memory, element-aligned */
  size_t n;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  const char *what; /* the data, for messages */
  size_t rs;        /* gpureduce_result_size() */
  bt_result want;   /* gpureduce_reduce() of the whole array on a host handle */
};

/* Reduce the whole array a->x on a host handle into a->want and check it
 * against the reference (ref_answer, ref_with_value); n must have an
 * answer (not 0 for ARGMIN, ARGMAX and MEAN_VAR). */
void pt_prepare(struct pt_array *a);
/* Reduce a's parts, combine them in offset order and in a shuffled one,
 * and check everything the header says (rng draws the buffers'
 * alignments and the shuffle). */
void pt_check_split(const struct pt_array *a, const struct pt_split *sp, tu_rng *rng);
/* pt_prepare on random data for (type, op, flags) of n elements (a stream
 * named after label), then pt_check_split for each of the families. */
void pt_check_random(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, size_t n,
                     const enum pt_family *families, size_t nfamilies, const char *label);

/* Every (type, op, flags) gpureduce_result_size() has a result for, flags
 * 0, GPUREDUCE_ACCUMULATE_F64 or GPUREDUCE_WITH_VALUE: *k is the state
 * (start at 0); 0 when there is none left. */
int pt_next_kind(int *k, gpureduce_type_t *type, gpureduce_op_t *op, unsigned *flags);

/* The tests; PARTIAL_TESTS lists them for a CMUnitTest array. */
void pt_every_kind(void **state);
void pt_few_hundred_tiles(void **state);
void pt_tile_groups(void **state);
void pt_specials_at_cuts(void **state);
void pt_many_parts(void **state);
void pt_order_example(void **state);
void pt_empty_array(void **state);
void pt_bytes(void **state);
void pt_bytes_past_2_63(void **state);
void pt_reduce_errors(void **state);
void pt_combine_errors(void **state);
void pt_set_last_message(void **state);
void pt_damaged_headers(void **state);

#define PARTIAL_TESTS                                                              \
  cmocka_unit_test(pt_every_kind), cmocka_unit_test(pt_few_hundred_tiles),         \
      cmocka_unit_test(pt_tile_groups), cmocka_unit_test(pt_specials_at_cuts),     \
      cmocka_unit_test(pt_many_parts), cmocka_unit_test(pt_order_example),         \
      cmocka_unit_test(pt_empty_array), cmocka_unit_test(pt_bytes),                \
      cmocka_unit_test(pt_bytes_past_2_63), cmocka_unit_test(pt_reduce_errors),    \
      cmocka_unit_test(pt_combine_errors), cmocka_unit_test(pt_set_last_message),  \
      cmocka_unit_test(pt_damaged_headers)
/* The long ones among them, which quick mode (GPUREDUCE_TEST_QUICK:
 * sg_quick()) leaves out of the group (tu_leave_out): a list of
 * CMUnitTestFunction. */
#define PARTIAL_LONG_TESTS pt_tile_groups

#endif /* GPUREDUCE_TESTS_PARTIAL_H */
