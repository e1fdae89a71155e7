/*
 * segments.h - the tests of gpureduce_reduce_segments() both backends must
 * pass, written once and run by tests/host/test-segments (host memory) and
 * tests/cuda/test-segments (CUDA device 0), on the backends of battery.h.
 *
 * Every result of a call with valid offsets is checked three ways: bit
 * for bit against gpureduce_reduce() on a copy of its segment in a
 * buffer of its own (16-byte aligned), on the same handle (the contract;
 * an empty segment's ARGMIN and ARGMAX give GPUREDUCE_NO_INDEX where the
 * 1-D call refuses), bit for bit against the host backend's segmented
 * result when the backend is CUDA, and against the independent reference
 * (reference.h) for every segment of small calls and a sample of the
 * segments of large ones.  Every element of the input buffer outside
 * [input + offsets[0], input + offsets[segments]) holds poison
 * (bt_poison()), the output has a canary before and after it, and
 * gpureduce_get_async_error() says SUCCESS after every valid call.
 *
 * Calls with invalid offsets (sg_bad_offsets) check what gpureduce.h
 * promises for them: the empty result in every invalid segment, the
 * canaries, INVALID_OFFSETS once from gpureduce_get_async_error() with
 * the lowest invalid segment in the message, then SUCCESS, and correct
 * bits from the next valid call on the handle.  The valid segments of
 * such a call are checked on the host backend only (their results are
 * unspecified on CUDA).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_SEGMENTS_H
#define GPUREDUCE_SEGMENTS_H

#include "battery.h"

/* The layout of one segmented call: `segments` segments, offsets[0 ..
 * segments] element offsets from input (host memory, owned by whoever
 * made the shape); input lies `shift` elements past a 256-byte aligned
 * address. */
struct sg_shape {
  size_t segments;
  uint64_t *offsets;
  size_t shift;
  const char *name; /* what the layout is, for messages */
};

/* Shapes from segment lengths: offsets[0] = base, offsets[s + 1] =
 * offsets[s] + len[s].  The offsets live in a buffer of the battery's
 * (the next sg_from_lengths may reuse it): use the shape before making
 * another. */
struct sg_shape sg_from_lengths(const size_t *len, size_t segments, uint64_t base,
                                size_t shift, const char *name);

/* The elements of the segments: bits of segment s's element i (i counted
 * from the segment's first element), asked for in (s, i) order; or, when
 * `fill` is set, all of them at once, in that order, into dst. */
struct sg_data {
  uint64_t (*value)(void *ctx, size_t s, size_t i);
  void *ctx;
  const char *what; /* for messages */
  void (*fill)(void *ctx, void *dst, size_t n);
};

/* A (type, op, flags) of the tests. */
struct sg_kind {
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
};

/* Select the backend (battery_use() too); call before running the group. */
void segments_use(const struct tu_backend *backend);
/* Group setup and teardown: battery_setup() and battery_teardown(), and a
 * host handle when the backend is not the host. */
int segments_setup(void **state);
int segments_teardown(void **state);

/* The host handle the results are compared with when the backend is not
 * the host (NULL on the host backend). */
gpureduce_handle_t sg_host_handle(void);
/* GPUREDUCE_TEST_QUICK is set (smaller sizes, for the sanitizers). */
int sg_quick(void);

/*
 * One segmented call of (type, op, flags) over shape `sh` (valid,
 * nondecreasing offsets), the segments' elements from `data`, every other
 * element of the input buffer `poison`.  Checks the status, the
 * canaries, the async error, and every result as the header says.
 */
void sg_check(const struct sg_shape *sh, gpureduce_type_t type, gpureduce_op_t op,
              unsigned flags, const struct sg_data *data, uint64_t poison);

/* sg_check on random data for op, drawn in element order from a stream
 * named after `label` and the call: wide values for the sums, factors of
 * a finite product for PROD, values inside the type's range for MIN, MAX,
 * ARGMIN and ARGMAX (or, with `pool` set, a few values with many ties,
 * +-0 among the floats); the poison bt_poison(type, op). */
void sg_check_random(const struct sg_shape *sh, gpureduce_type_t type, gpureduce_op_t op,
                     unsigned flags, int pool, const char *label);

/* The last sg_check's result s (host copy). */
bt_result sg_result(size_t s, gpureduce_type_t type, gpureduce_op_t op, unsigned flags);

/* Is segment s of offsets off[0 .. segments] invalid (gpureduce.h: unless
 * offsets[0] <= offsets[s] <= offsets[s+1] <= offsets[segments])? */
int sg_invalid(const uint64_t *off, size_t segments, size_t s);

/* Every (type, op, flags) with a result, in order: *k is the state (start
 * at 0); 0 when there is none left. */
int sg_next_kind(int *k, gpureduce_type_t *type, gpureduce_op_t *op, unsigned *flags);

/* Segment lengths of the mixtures, into len (room for `segments`), drawn
 * from r: uniform in 0 .. 2L; Zipf-like (length floor(max / u^(1/a)) ...
 * see segments.c) in 1 .. max; `tiny` segments of 0 .. 4 with one of
 * `huge` elements at position `at`. */
void sg_uniform_lengths(tu_rng *r, size_t *len, size_t segments, size_t l);
void sg_zipf_lengths(tu_rng *r, size_t *len, size_t segments, size_t max);
void sg_tiny_and_huge(tu_rng *r, size_t *len, size_t segments, size_t huge, size_t at);

/* The tests; SEGMENTS_TESTS lists them for a CMUnitTest array. */
void sg_lengths(void **state);
void sg_empty_segments(void **state);
void sg_start_alignments(void **state);
void sg_mixtures(void **state);
void sg_special_values(void **state);
void sg_no_segments(void **state);
void sg_bad_offsets(void **state);

#define SEGMENTS_TESTS                                                                 \
  cmocka_unit_test(sg_lengths), cmocka_unit_test(sg_empty_segments),                   \
      cmocka_unit_test(sg_start_alignments), cmocka_unit_test(sg_mixtures),            \
      cmocka_unit_test(sg_special_values), cmocka_unit_test(sg_no_segments),           \
      cmocka_unit_test(sg_bad_offsets)

#endif /* GPUREDUCE_SEGMENTS_H */
