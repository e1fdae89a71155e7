/*
 * dot.h - the tests of gpureduce_dot() and gpureduce_dot_batched() both
 * backends must pass, written once and run by tests/host/test-dot (host
 * memory) and tests/cuda/test-dot (CUDA device 0), on the backends of
 * battery.h.
 *
 * Every result is checked against the independent reference (reference.h,
 * ref_dot: exact for integers, the doc/ORDER.md bits and the stated error
 * bound for floats) or against answers written out from gpureduce.h; the
 * bit identity with SUM over the rounded products goes through
 * gpureduce_reduce() on the same handle; each batched row is compared
 * with gpureduce_dot() on that row alone; on a CUDA handle every result
 * is also compared bit for bit with the host backend's.  x and y lie at
 * their own offsets past 256-byte aligned addresses, every other element
 * of their buffers holds poison (bt_poison()), and the output is followed
 * by a canary.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_DOT_H
#define GPUREDUCE_DOT_H

#include "battery.h"

/* Select the backend; call before running the group. */
void dot_use(const struct tu_backend *backend);
int dot_setup(void **state);
int dot_teardown(void **state);

/* Check one call on random data (G_WIDE; bf16 G_MODERATE) with every
 * check of the battery: `batch` rows of n elements, row b of x at
 * b*x_stride elements from x, x's lowest element x_offset elements past
 * an aligned address (likewise y); one: gpureduce_dot() (batch 1). */
void dt_check_shape(size_t batch, size_t n, int64_t x_stride, int64_t y_stride, size_t x_offset,
                    size_t y_offset, int one, gpureduce_type_t type, unsigned flags,
                    const char *what);

/* The tests; DOT_TESTS lists them for a CMUnitTest array. */
void dt_bit_identity(void **state);
void dt_types_random(void **state);
void dt_sizes(void **state);
void dt_empty_and_one(void **state);
void dt_special_values(void **state);
void dt_same_vector(void **state);
void dt_batched_rows(void **state);
void dt_batched_strides(void **state);
void dt_batched_empty(void **state);
void dt_errors_leave_output(void **state);

#define DOT_TESTS                                                                   \
  cmocka_unit_test(dt_bit_identity), cmocka_unit_test(dt_types_random),             \
      cmocka_unit_test(dt_sizes), cmocka_unit_test(dt_empty_and_one),               \
      cmocka_unit_test(dt_special_values), cmocka_unit_test(dt_same_vector),        \
      cmocka_unit_test(dt_batched_rows), cmocka_unit_test(dt_batched_strides),      \
      cmocka_unit_test(dt_batched_empty), cmocka_unit_test(dt_errors_leave_output)

#endif /* GPUREDUCE_DOT_H */
