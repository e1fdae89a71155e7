/*
 * battery.h - the reduction tests both backends must pass, written once and
 * run by test-host (host memory, GPUREDUCE_DEVICE_HOST) and test-cuda
 * (device memory, CUDA device 0).
 *
 * A backend says how to create its handle and how to move bytes between
 * the test's host buffers and the memory its handle reduces.  Every test
 * compares with references computed on the host by the test itself
 * (reference.h, or answers written out from gpureduce.h), never with the
 * library's own code.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_BATTERY_H
#define GPUREDUCE_BATTERY_H

#include "testutil.h"

struct tu_backend {
  const char *name;
  int device; /* the gpureduce_create() argument */
  /* Memory the handle reduces, 256-byte aligned; fails the test if it
   * cannot.  `release` of NULL is a no-op. */
  void *(*alloc)(size_t bytes);
  void (*release)(void *p);
  /* Copies in and out (synchronous: `get` returns after the enqueued
   * reductions finished). */
  void (*put)(void *dst, const void *src_host, size_t bytes);
  void (*get)(void *dst_host, const void *src, size_t bytes);
};

/* The backends: host memory on GPUREDUCE_DEVICE_HOST, and device memory
 * of CUDA device 0 (tests/lib/device.c). */
extern const struct tu_backend bt_host_backend;
extern const struct tu_backend bt_cuda_backend;

/* Select the backend; call before running the group. */
void battery_use(const struct tu_backend *backend);
/* The backend battery_use() selected. */
const struct tu_backend *battery_backend(void);
/* Group setup and teardown: print the seed, create and destroy the
 * handle of the backend (and, on CUDA, battery_host_handle()'s). */
int battery_setup(void **state);
int battery_teardown(void **state);
/* The battery's handle (valid between setup and teardown). */
gpureduce_handle_t battery_handle(void);
/* A host handle (GPUREDUCE_DEVICE_HOST) to compare a CUDA backend's results
 * with, made by battery_setup and destroyed by battery_teardown; NULL when
 * the backend is the host. */
gpureduce_handle_t battery_host_handle(void);

/* A result of up to 16 bytes (a MEAN_VAR of a double accumulator is the
 * largest) as two little-endian words: w[0] its bytes 0 .. 7 (zero-
 * extended), w[1] its bytes 8 .. 15 (0 for a shorter result). */
typedef struct bt_result {
  uint64_t w[2];
} bt_result;
/* Result `index` of results of rs bytes each at buf (host memory). */
bt_result bt_result_at(const void *buf, size_t index, size_t rs);
/* A result of one word (rs <= 8). */
bt_result bt_word(uint64_t w0);
/* check_result(wanted, seen, rs, "what", ...): the same rs bytes. */
void bt_check_result_at(const char *file, int line, bt_result wanted, bt_result seen, size_t rs,
                        const char *fmt, ...) TU_PRINTF(6, 7);
#define check_result(w, s, rs, ...) \
  bt_check_result_at(__FILE__, __LINE__, (w), (s), (rs), __VA_ARGS__)

/*
 * Reduce the n elements at host address x on the backend: the data is
 * copied `offset` elements past a 256-byte aligned address, every other
 * byte of the input buffer holding copies of `poison` (an element
 * pattern); the output lies at the start of a buffer whose following 32
 * bytes are a canary.  The result (result_bytes) lands in *out; the
 * canary is checked, and on an error status the result bytes are checked
 * to be untouched.
 */
gpureduce_status_t battery_reduce(const void *x, size_t n, gpureduce_type_t type,
                                  gpureduce_op_t op, unsigned flags, size_t offset,
                                  uint64_t poison, bt_result *out);

/* Compare a result with the battery's references (exact, or the order of
 * doc/ORDER.md bit for bit and the stated error bound); `what` describes
 * the case. */
void bt_check_reference(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                        unsigned flags, bt_result got, const char *what);

/* An element pattern that would change the answer of op if read (data
 * from G_INNER, or G_FACTORS for PROD, leaves room for it): -inf or the
 * lowest value for MIN and ARGMIN, +inf or the largest for MAX and ARGMAX,
 * a NaN or 0x5a... for the sum-like operations. */
uint64_t bt_poison(gpureduce_type_t type, gpureduce_op_t op);

/* Result pattern of value v for (type, op, flags) of a floating type: the
 * element type for MIN/MAX/AMAX, float or double for the sum-like operations;
 * NaN gives the canonical NaN.  v must be exact in that type. */
uint64_t bt_result_pattern(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, double v);
/* The same for any op's result, MEAN_VAR's {v, v2} and LOGSUMEXP's
 * {max, sum} with GPUREDUCE_SOFTMAX_STATS included (v2 is ignored for the
 * others). */
bt_result bt_result_of(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, double v,
                       double v2);
/* ARGMIN, ARGMAX and MEAN_VAR: n == 0 is GPUREDUCE_ERROR_EMPTY_INPUT in
 * gpureduce_reduce() and gpureduce_reduce_batched(). */
int bt_empty_is_error(gpureduce_op_t op);
/* The documented result of no elements (gpureduce.h): +0 for the sums,
 * NRM2 and AMAX, 1 for PROD, +inf or the largest value for MIN, -inf or
 * the lowest for MAX, -inf for LOGSUMEXP ({-inf, 0} with
 * GPUREDUCE_SOFTMAX_STATS); and where n == 0 is an error, the empty
 * segment's: GPUREDUCE_NO_INDEX for ARGMIN and ARGMAX, {NaN, NaN} for
 * MEAN_VAR. */
bt_result bt_empty_result(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);

/* A buffer that grows, in host memory (tu_alloc) or in the backend's
 * (battery_use()), for the batteries that reuse their buffers from call
 * to call; a zero-filled one is empty. */
struct bt_room {
  void *p;
  size_t cap;
  int host;
};
/* At least `bytes` bytes of r (failing the test when they cannot be had);
 * the old contents are not kept. */
void *bt_room_for(struct bt_room *r, size_t bytes);
void bt_room_free(struct bt_room *r);

/* "f32 sum", "f32 sum accumulate-f64", "f32 argmin with-value", ...: a
 * kind for messages (one static buffer). */
const char *bt_kind_name(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);
int bt_is_arg(gpureduce_op_t op);

/* The special values of the batched and segmented batteries, vector (or
 * segment) k of n elements: pattern bt_special_pattern() of k, 0 for n < 5
 * (random values), else k % 8 for floating types and 7 or 0 for integers:
 * 1 a NaN at p, 2 NaNs at p and q, 3 all -0, 4 alternating -0 and +0, 5
 * +inf at p, 6 -inf at p and +inf at q, 7 ties (the smallest at p and q,
 * the largest at p+1 and q+1); p in the first half, q in the second.
 * bt_special_element() is element i (its random values from rng, in
 * element order); bt_special_answer() sets gpureduce.h's answer for op
 * and what it is, or returns 0 where the pattern has none written out
 * (the reference and the 1-D call check those). */
int bt_special_pattern(gpureduce_type_t type, size_t k, size_t n);
uint64_t bt_special_element(gpureduce_type_t type, size_t k, size_t n, size_t i, tu_rng *rng);
int bt_special_answer(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, size_t k,
                      size_t n, bt_result *wanted, const char **why);

/* The tests; BATTERY_TESTS lists them for a CMUnitTest array. */
void bt_empty_inputs(void **state);
void bt_integers_random(void **state);
void bt_float_min_max_random(void **state);
void bt_float_sums_random(void **state);
void bt_float_products_random(void **state);
void bt_nan_positions(void **state);
void bt_all_nan(void **state);
void bt_signed_zeros(void **state);
void bt_infinities(void **state);
void bt_ties(void **state);
void bt_half_subnormals(void **state);
void bt_offsets_and_poison(void **state);
void bt_misaligned_ends(void **state);
void bt_order_example(void **state);
void bt_order_tiles(void **state);
void bt_errors_leave_output(void **state);
void bt_nrm2_scaling(void **state);
void bt_nrm2_classes(void **state);
void bt_mean_var_accuracy(void **state);
void bt_moment_specials(void **state);
void bt_logsumexp_random(void **state);
void bt_logsumexp_accuracy(void **state);

#define BATTERY_TESTS                                                             \
  cmocka_unit_test(bt_empty_inputs), cmocka_unit_test(bt_integers_random),        \
      cmocka_unit_test(bt_float_min_max_random),                                  \
      cmocka_unit_test(bt_float_sums_random),                                     \
      cmocka_unit_test(bt_float_products_random),                                 \
      cmocka_unit_test(bt_nan_positions), cmocka_unit_test(bt_all_nan),           \
      cmocka_unit_test(bt_signed_zeros), cmocka_unit_test(bt_infinities),         \
      cmocka_unit_test(bt_ties), cmocka_unit_test(bt_half_subnormals),            \
      cmocka_unit_test(bt_offsets_and_poison), cmocka_unit_test(bt_misaligned_ends), \
      cmocka_unit_test(bt_order_example),                                          \
      cmocka_unit_test(bt_order_tiles), cmocka_unit_test(bt_errors_leave_output),   \
      cmocka_unit_test(bt_nrm2_scaling), cmocka_unit_test(bt_nrm2_classes),       \
      cmocka_unit_test(bt_mean_var_accuracy),                                       \
      cmocka_unit_test(bt_moment_specials), cmocka_unit_test(bt_logsumexp_random),   \
      cmocka_unit_test(bt_logsumexp_accuracy)

#endif /* GPUREDUCE_BATTERY_H */
