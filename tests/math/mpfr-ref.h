/*
 * mpfr-ref.h - MPFR, the reference of the tests of src/math/exp_log.h:
 * exp and log of a float correctly rounded to binary32, and the error of
 * a double result in ulps.  For tests/math/test-exp-log.c and
 * tests/math/exhaustive.c (both need MPFR).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_MPFR_REF_H
#define GPUREDUCE_MPFR_REF_H

#include <stdint.h>
#include <string.h>

#include <mpfr.h>

/* The binary32 format in MPFR: 24 bits, exponents of MPFR's convention
 * (the significand in [1/2, 1)) from -148 (2^-149, the least subnormal)
 * to 128; mpfr_subnormalize then rounds a result below 2^-126 to the
 * subnormal grid, as the IEEE format does.  MPFR's exponent range is per
 * thread: each thread calls mr_binary32_begin() before mr_expf/mr_logf,
 * and mr_binary32_end() after. */
struct mr_saved {
  mpfr_exp_t emin, emax;
};

static inline struct mr_saved mr_binary32_begin(void) {
  struct mr_saved s = {mpfr_get_emin(), mpfr_get_emax()};
  mpfr_set_emin(-148);
  mpfr_set_emax(128);
  return s;
}

static inline void mr_binary32_end(struct mr_saved s) {
  mpfr_set_emin(s.emin);
  mpfr_set_emax(s.emax);
}

/* MPFR's function f at the float x, correctly rounded to nearest (ties to
 * even) to binary32, as float bits; tmp is a 24-bit mpfr_t of the
 * caller's.  Within mr_binary32_begin/end.  A NaN result is gpureduce.h's
 * canonical quiet NaN, 0x7fffffff. */
static inline uint32_t mr_binary32(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), float x,
                                   mpfr_t tmp) {
  mpfr_t in;
  mpfr_init2(in, 24);
  mpfr_set_flt(in, x, MPFR_RNDN); /* exact */
  int t = f(tmp, in, MPFR_RNDN);
  mpfr_subnormalize(tmp, t, MPFR_RNDN);
  float y = mpfr_get_flt(tmp, MPFR_RNDN); /* exact */
  mpfr_clear(in);
  uint32_t u;
  memcpy(&u, &y, sizeof u);
  /* NaN: MPFR has one; gpureduce.h's canonical quiet NaN is 0x7fffffff */
  if (y != y) u = 0x7fffffffu;
  return u;
}

/* |seen - f(x)| in ulps of double, where the ulp of a value v is
 * 2^(floor(log2 |v|) - 52), 2^-1074 below 2^-1022 (f(x) computed with 256
 * bits; within MPFR's default exponent range).  Where f(x) rounds to an
 * infinity (overflow included) or is NaN: 0 when seen is the same, else
 * a large number. */
static inline double mr_ulp_error(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), double x,
                                  double seen) {
  mpfr_t in, ref, d;
  mpfr_inits2(256, in, ref, d, (mpfr_ptr)0);
  mpfr_set_d(in, x, MPFR_RNDN);
  f(ref, in, MPFR_RNDN);
  double err, r = mpfr_get_d(ref, MPFR_RNDN);
  if (r - r != 0) {
    err = (r == seen || (r != r && seen != seen)) ? 0.0 : 1e300;
  } else if (seen - seen != 0) {
    err = 1e300;
  } else {
    mpfr_sub_d(d, ref, seen, MPFR_RNDN); /* exact at 256 bits for these */
    long e = mpfr_zero_p(ref) ? -1074 : (long)mpfr_get_exp(ref) - 1 - 52;
    if (e < -1074) e = -1074;
    mpfr_mul_2si(d, d, -e, MPFR_RNDN);
    err = mpfr_get_d(d, MPFR_RNDN);
    if (err < 0) err = -err;
  }
  mpfr_clears(in, ref, d, (mpfr_ptr)0);
  return err;
}

#endif
