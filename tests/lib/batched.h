/*
 * batched.h - the tests of gpureduce_reduce_batched() both backends must
 * pass, written once and run by tests/host/test-batched (host memory) and
 * tests/cuda/test-batched (CUDA device 0), on the backends of battery.h.
 *
 * Every batched result is checked three ways: bit for bit against
 * gpureduce_reduce() on a contiguous copy of its vector on the same
 * handle (the contract), bit for bit against the host backend's batched
 * result when the backend is CUDA, and against the independent reference
 * (reference.h: exact answers, the doc/ORDER.md bits and the error bound)
 * for every row of small batches and a sample of rows of large ones.
 * Every element of the input buffer that is not in a vector holds poison
 * (bt_poison()), and the output is followed by a canary.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_BATCHED_H
#define GPUREDUCE_BATCHED_H

#include "battery.h"

/* The layout of one batched call: vector b's element i at
 * input + b*batch_stride + i*element_stride elements; the lowest element
 * lies `offset` elements past a 256-byte aligned address. */
struct bb_shape {
  size_t batch, n;
  int64_t batch_stride, element_stride;
  size_t offset;
  const char *layout; /* its name, for messages */
};

/* The layouts of the tests, for `batch` vectors of n elements of `type`. */
enum bb_layout {
  BB_DENSE,           /* rows, batch_stride n */
  BB_PADDED,          /* rows, batch_stride n rounded up to 16 bytes, plus 16 bytes */
  BB_MISALIGNED,      /* rows, batch_stride n + 1: rows start at every alignment */
  BB_COLUMNS,         /* columns: batch_stride 1, element_stride batch + 3 */
  BB_ZERO_BATCH,      /* batch_stride 0: every vector the same elements */
  BB_ZERO_ELEMENT,    /* element_stride 0: vector b is n copies of one element */
  BB_NEGATIVE_BATCH,  /* batch_stride -(n + 2): rows from the last one up */
  BB_NEGATIVE_ELEMENT, /* element_stride -1: each row reversed */
  BB_BOTH_NEGATIVE,   /* batch_stride -(n + 1), element_stride -1 */
  BB_NEGATIVE_COLUMNS, /* batch_stride -1, element_stride -(batch + 3) */
  BB_MATRIX_COLUMNS,  /* the columns of a row-major matrix: batch_stride 1, element_stride batch */
  BB_ALIGNED_COLUMNS, /* columns, element_stride batch rounded up to 16 bytes, plus 16 bytes */
  BB_LAYOUTS
};
struct bb_shape bb_layout(enum bb_layout layout, gpureduce_type_t type, size_t batch, size_t n,
                          size_t offset);

/* A (type, op, flags) of the tests. */
struct bb_kind {
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
};

/* The elements of the vectors: bits of vector b's element i. */
struct bb_data {
  uint64_t (*value)(void *ctx, size_t b, size_t i);
  void *ctx;
  const char *what; /* for messages */
};

/* Select the backend (battery_use() too); call before running the group. */
void batched_use(const struct tu_backend *backend);
/* Group setup and teardown: battery_setup() and battery_teardown(), and a
 * host handle when the backend is not the host. */
int batched_setup(void **state);
int batched_teardown(void **state);

/*
 * One batched call of (type, op, flags) over shape `sh`, the vectors'
 * elements from `data`, every other element of the input buffer `poison`.
 * Checks the status (GPUREDUCE_ERROR_EMPTY_INPUT for ARGMIN and ARGMAX of
 * n == 0, with the output untouched), the canary after the batch*result
 * bytes, and every result as the header says.
 */
void bb_check(const struct bb_shape *sh, gpureduce_type_t type, gpureduce_op_t op,
              unsigned flags, const struct bb_data *data, uint64_t poison);

/* The data of random tests: elements from a generator, drawn in (b, i)
 * order from a stream of their own. */
struct bb_random {
  tu_rng rng;
  gpureduce_type_t type;
  enum tc_gen gen;
};
uint64_t bb_random_value(void *ctx, size_t b, size_t i);

/* bb_check on random data for op, drawn in (b, i) order from a stream
 * named after `label` and the call: wide values for the sums, factors of
 * a finite product for PROD, values inside the type's range for MIN, MAX,
 * ARGMIN and ARGMAX; the poison bt_poison(type, op). */
void bb_check_random(const struct bb_shape *sh, gpureduce_type_t type, gpureduce_op_t op,
                     unsigned flags, const char *label);

/* The tests; BATCHED_TESTS lists them for a CMUnitTest array. */
void bb_row_lengths(void **state);
void bb_many_tiles(void **state);
void bb_column_pieces(void **state);
void bb_short_columns(void **state);
void bb_large_batch(void **state);
void bb_layouts(void **state);
void bb_pointer_offsets(void **state);
void bb_special_values(void **state);
void bb_empty_vectors(void **state);
void bb_empty_batch(void **state);
void bb_errors_leave_output(void **state);

#define BATCHED_TESTS                                                                  \
  cmocka_unit_test(bb_row_lengths), cmocka_unit_test(bb_many_tiles),                   \
      cmocka_unit_test(bb_column_pieces), cmocka_unit_test(bb_short_columns),          \
      cmocka_unit_test(bb_large_batch), cmocka_unit_test(bb_layouts),                  \
      cmocka_unit_test(bb_pointer_offsets), cmocka_unit_test(bb_special_values),       \
      cmocka_unit_test(bb_empty_vectors), cmocka_unit_test(bb_empty_batch),            \
      cmocka_unit_test(bb_errors_leave_output)

#endif /* GPUREDUCE_BATCHED_H */
