/*
 * withvalue.h - the tests of GPUREDUCE_WITH_VALUE (ARGMIN and ARGMAX with
 * the element's value, a 16-byte result), written once for any backend of
 * battery.h: gpureduce_reduce(), gpureduce_reduce_batched() and
 * gpureduce_reduce_segments() against the independent reference
 * (reference.h's ref_with_value) and answers spelled out from
 * gpureduce.h, with the index bit for bit the one the call without the
 * flag gives.  test-with-value (host) runs them.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_WITHVALUE_H
#define GPUREDUCE_WITHVALUE_H

#include "battery.h"

/* Select the backend (battery_use); the group setup and teardown are
 * battery_setup and battery_teardown. */
void wv_use(const struct tu_backend *backend);

/* Random data of every type (ties, +-0, infinities, extremes) at sizes
 * across the order's boundaries and at element offsets 0 .. 2. */
void wv_random(void **state);
/* NaNs at chunk, lane and tile boundaries; signed zeros; infinities;
 * integer extremes: spelled-out answers as well as the reference. */
void wv_specials(void **state);
/* gpureduce_reduce_batched(): rows, columns, a negative stride, vectors
 * of one element, a long vector; NaN and ties in some vectors. */
void wv_batched(void **state);
/* gpureduce_reduce_segments(): empty segments among short and long ones
 * (one long enough to run alone), a nonzero offsets[0], invalid offsets. */
void wv_segments(void **state);
/* Errors on the backend leave the output untouched: the flag on the
 * other ops, with GPUREDUCE_ACCUMULATE_F64, n == 0. */
void wv_errors(void **state);

#define WITH_VALUE_TESTS                                                    \
  cmocka_unit_test(wv_random), cmocka_unit_test(wv_specials),               \
      cmocka_unit_test(wv_batched), cmocka_unit_test(wv_segments),          \
      cmocka_unit_test(wv_errors)

#endif /* GPUREDUCE_WITHVALUE_H */
