/*
 * test-logsumexp.c - LOGSUMEXP on the host backend against MPFR, the
 * field's reference for correct rounding: the exact log-sum-exp of random
 * and adversarial vectors (M + log(sum exp(x - M)) at 128 bits), and each
 * result within doc/ORDER.md's bound of it (ref_logsumexp_bound), an f32
 * result within one ulp.  The bits themselves are the batteries' (tests/lib,
 * against tests/lib/reference.c and across the backends).  Without MPFR
 * (configure found none) it prints a TAP skip.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "battery.h"
#include "reference.h"
#include "rng.h"

#ifdef GR_HAVE_MPFR
#include <mpfr.h>

static gpureduce_handle_t h;

/* The exact log-sum-exp of x[0 .. n-1] (finite), to the nearest double. */
static double mpfr_logsumexp(const double *x, size_t n) {
  double big = -INFINITY;
  for (size_t i = 0; i < n; ++i)
    if (x[i] > big) big = x[i];
  mpfr_t s, t;
  mpfr_inits2(128, s, t, (mpfr_ptr)0);
  mpfr_set_zero(s, 1);
  for (size_t i = 0; i < n; ++i) {
    mpfr_set_d(t, x[i], MPFR_RNDN);
    mpfr_sub_d(t, t, big, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_add(s, s, t, MPFR_RNDN);
  }
  mpfr_log(s, s, MPFR_RNDN);
  mpfr_add_d(s, s, big, MPFR_RNDN);
  const double r = mpfr_get_d(s, MPFR_RNDN);
  mpfr_clears(s, t, (mpfr_ptr)0);
  return r;
}

/* LOGSUMEXP of the n values v (exact in `type`) against MPFR. */
static void against_mpfr(gpureduce_type_t type, const double *v, size_t n, const char *what) {
  const unsigned es = TU_TYPE(type)->size;
  unsigned char *x = tu_alloc(n * es);
  double *e = tu_alloc(n * sizeof *e);
  for (size_t i = 0; i < n; ++i) {
    tu_store(x, i, es, type == GPUREDUCE_F32 ? tu_f32_bits((float)v[i]) : tu_pattern(type, v[i]));
    e[i] = tu_value(type, tu_load(x, i, es));
  }
  _Alignas(8) unsigned char out[8];
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce(x, out, n, type, GPUREDUCE_LOGSUMEXP, 0, h),
               "%s logsumexp of %zu %s: status", TU_TYPE(type)->name, n, what);
  const double got = type == GPUREDUCE_F64 ? tu_f64_of(tu_load(out, 0, 8))
                                           : (double)tu_f32_of((uint32_t)tu_load(out, 0, 4));
  const double lse = mpfr_logsumexp(e, n);
  check_near(lse, got, ref_logsumexp_bound(type, n, lse) + fabs(lse) * 0x1p-53,
             "%s logsumexp of %zu %s: within doc/ORDER.md's bound of MPFR's %.17g",
             TU_TYPE(type)->name, n, what, lse);
  if (type != GPUREDUCE_F64) {
    int ex = 0;
    frexp(fabs(lse), &ex);
    check_near(lse, got, ldexp(1.0, (ex > -125 ? ex : -125) - 24),
               "%s logsumexp of %zu %s: within one ulp of MPFR's %.9g", TU_TYPE(type)->name, n,
               what, lse);
  }
  free(x);
  free(e);
}

static void random_vectors(void **state) {
  (void)state;
  tu_rng r;
  tu_rng_init(&r, "logsumexp mpfr");
  const size_t big = (size_t)1 << 20;
  double *v = tu_alloc(big * sizeof *v);
  static const size_t sizes[] = {1, 7, 1000, 65536, (size_t)1 << 20};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
    for (size_t i = 0; i < sizes[k]; ++i) v[i] = 20 * tu_unit(&r) - 10;
    against_mpfr(GPUREDUCE_F32, v, sizes[k], "values U(-10, 10)");
    for (size_t i = 0; i < sizes[k]; ++i) v[i] = 1400 * tu_unit(&r) - 700;
    against_mpfr(GPUREDUCE_F64, v, sizes[k], "values U(-700, 700)");
  }
  /* f16 and bf16: steps of 1/16 in [-8, 8), 8 bits at most, exact in both */
  for (size_t i = 0; i < 50000; ++i) v[i] = (double)((int)tu_below(&r, 256) - 128) / 16;
  against_mpfr(GPUREDUCE_F16, v, 50000, "multiples of 1/16 in [-8, 8)");
  against_mpfr(GPUREDUCE_BF16, v, 50000, "multiples of 1/16 in [-8, 8)");
  free(v);
}

static void adversarial_vectors(void **state) {
  (void)state;
  tu_rng r;
  tu_rng_init(&r, "logsumexp mpfr adversarial");
  const size_t n = 300000;
  double *v = tu_alloc(n * sizeof *v);
  /* one huge element among many tiny ones */
  for (size_t i = 0; i < n; ++i) v[i] = -30 - tu_unit(&r);
  v[n / 3] = 20;
  against_mpfr(GPUREDUCE_F32, v, n, "values near -30 and one 20");
  /* increasing values: each chunk a new maximum, so that a lane's fold
   * scales its running sum at every chunk */
  for (size_t i = 0; i < n; ++i) v[i] = -10 + 2e-5 * (double)i;
  against_mpfr(GPUREDUCE_F32, v, n, "increasing values");
  /* most of the sum far below the maximum: one 0 and n - 1 values near -9 */
  for (size_t i = 0; i < n; ++i) v[i] = -9 - 0.25 * tu_unit(&r);
  v[n / 2] = 0;
  against_mpfr(GPUREDUCE_F32, v, n, "values near -9 and one 0");
  /* n copies of one value, near exp's overflow and underflow in float */
  static const double consts[] = {88.72, -103.9, 1e-30, 3e38};
  for (size_t k = 0; k < sizeof consts / sizeof consts[0]; ++k) {
    for (size_t i = 0; i < n; ++i) v[i] = (float)consts[k];
    against_mpfr(GPUREDUCE_F32, v, n, "copies of one value");
  }
  /* f64 near its own overflow, and terms that underflow to 0 */
  for (size_t i = 0; i < n; ++i) v[i] = 709 + tu_unit(&r);
  against_mpfr(GPUREDUCE_F64, v, n, "values 709 + U(0, 1)");
  for (size_t i = 0; i < n; ++i) v[i] = -745 - 100 * tu_unit(&r);
  v[17] = 3;
  against_mpfr(GPUREDUCE_F64, v, n, "values below -745 and one 3");
  free(v);
}

static int setup(void **state) {
  (void)state;
  return gpureduce_create(&h, GPUREDUCE_DEVICE_HOST) == GPUREDUCE_SUCCESS ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  return gpureduce_destroy(h) == GPUREDUCE_SUCCESS ? 0 : -1;
}

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {cmocka_unit_test(random_vectors),
                                     cmocka_unit_test(adversarial_vectors)};
  return cmocka_run_group_tests_name("test-logsumexp (host, MPFR)", tests, setup, teardown);
}
#else
int main(void) {
  printf("1..0 # SKIP MPFR not found by configure: install libmpfr-dev and re-run ./configure\n");
  return 0;
}
#endif
