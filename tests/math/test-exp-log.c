/*
 * test-exp-log.c - src/math/exp_log.h against MPFR: gr_expf and gr_logf
 * bit for bit with MPFR's correctly rounded binary32 results on a stride
 * through all 2^32 float bit patterns, every boundary and the hard cases
 * of the rounding test; gr_exp and gr_log within their stated ulp bounds
 * on random doubles over the whole range and at the edges; the special
 * cases as C99's Annex F gives them; gr_expf_term, LOGSUMEXP's float
 * terms, within its stated bound on a stride through [-86, 0] (every
 * float of it with GPUREDUCE_TEST_MATH=all), and gr_expf_diff, its
 * scales, on a stride below 0.7 and on random pairs.  make check-exhaustive
 * (tests/math/exhaustive.c) compares all 2^32 floats.
 *
 * Without MPFR at configure time the program prints a TAP skip.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdio.h>

#if GR_HAVE_MPFR

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "math/exp_log.h"
#include "mpfr-ref.h"
#include "testutil.h"

/* The stride through the float bit patterns: a prime, so that every
 * residue of the low bits is visited; 2^32/1021, 4.2 million inputs. */
#define FLOAT_STRIDE 1021u

/* The bounds exp_log.h states, in ulps. */
#define EXP_BOUND 0.57
#define EXP_SUBNORMAL_BOUND 1.0
#define LOG_BOUND 0.52
#define TERM_BOUND 1.02 /* gr_expf_term, in ulps of float */

typedef float (*float_fn)(float);
typedef int (*mpfr_fn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

/* gr's function at the float with bits u against MPFR's, bit for bit. */
static void check_float(const char *name, float_fn gr, mpfr_fn ref, uint32_t u, mpfr_t tmp) {
  float x = gr_math_float_from_bits(u);
  check_bits(mr_binary32(ref, x, tmp), gr_math_float_bits(gr(x)),
             "%s(0x%08" PRIx32 " = %a) against MPFR", name, u, (double)x);
}

/* Both float functions at the bit patterns lo..hi. */
static void check_float_range(uint32_t lo, uint32_t hi, mpfr_t tmp) {
  for (uint32_t u = lo;; u++) {
    check_float("gr_expf", gr_expf, mpfr_exp, u, tmp);
    check_float("gr_logf", gr_logf, mpfr_log, u, tmp);
    if (u == hi) break;
  }
}

/* ---- floats ---------------------------------------------------------------- */

static void float_specials(void **state) {
  (void)state;
  check_bits(0x7fffffffu, gr_math_float_bits(gr_expf(gr_math_float_from_bits(0x7fc00000u))),
             "gr_expf(qNaN) is the canonical qNaN");
  check_bits(0x7fffffffu, gr_math_float_bits(gr_expf(gr_math_float_from_bits(0x7f800001u))),
             "gr_expf(sNaN) is the canonical qNaN");
  check_bits(0x7fffffffu, gr_math_float_bits(gr_expf(gr_math_float_from_bits(0xffc00001u))),
             "gr_expf(-NaN with a payload) is the canonical qNaN");
  check_bits(0x7f800000u, gr_math_float_bits(gr_expf(gr_math_float_from_bits(0x7f800000u))),
             "gr_expf(+inf) = +inf");
  check_bits(0x00000000u, gr_math_float_bits(gr_expf(gr_math_float_from_bits(0xff800000u))),
             "gr_expf(-inf) = +0");
  check_bits(0x3f800000u, gr_math_float_bits(gr_expf(0.0f)), "gr_expf(+0) = 1");
  check_bits(0x3f800000u, gr_math_float_bits(gr_expf(-0.0f)), "gr_expf(-0) = 1");
  check_bits(0x7f800000u, gr_math_float_bits(gr_expf(FLT_MAX)),
             "gr_expf(FLT_MAX) overflows to +inf");
  check_bits(0x00000000u, gr_math_float_bits(gr_expf(-FLT_MAX)), "gr_expf(-FLT_MAX) = +0");
  check_bits(0x7fffffffu, gr_math_float_bits(gr_logf(gr_math_float_from_bits(0x7fc00000u))),
             "gr_logf(qNaN) is the canonical qNaN");
  check_bits(0x7fffffffu, gr_math_float_bits(gr_logf(gr_math_float_from_bits(0xff800001u))),
             "gr_logf(-sNaN) is the canonical qNaN");
  check_bits(0x7fffffffu, gr_math_float_bits(gr_logf(-1.0f)), "gr_logf(-1) is the canonical qNaN");
  check_bits(0x7fffffffu, gr_math_float_bits(gr_logf(gr_math_float_from_bits(0x80000001u))),
             "gr_logf(-least subnormal) is the canonical qNaN");
  check_bits(0x7fffffffu, gr_math_float_bits(gr_logf(gr_math_float_from_bits(0xff800000u))),
             "gr_logf(-inf) is the canonical qNaN");
  check_bits(0xff800000u, gr_math_float_bits(gr_logf(0.0f)), "gr_logf(+0) = -inf");
  check_bits(0xff800000u, gr_math_float_bits(gr_logf(-0.0f)), "gr_logf(-0) = -inf");
  check_bits(0x00000000u, gr_math_float_bits(gr_logf(1.0f)), "gr_logf(1) = +0");
  check_bits(0x7f800000u, gr_math_float_bits(gr_logf(gr_math_float_from_bits(0x7f800000u))),
             "gr_logf(+inf) = +inf");
}

/* The neighbourhoods (+-64 bit patterns) of every boundary of both
 * functions, both signs. */
static void float_boundaries(void **state) {
  static const uint32_t around[] = {
      0x00000000u, /* +0 and the least subnormals */
      0x00400000u, /* subnormals */
      0x00800000u, /* the least normal */
      0x33000000u, /* 2^-25: e^x rounds to 1 below it */
      0x33800000u, /* 2^-24 */
      0x3f800000u, /* 1: log's zero */
      0x3f000000u, /* 1/2 */
      0x40000000u, /* 2 */
      0x3f3504f3u, /* sqrt(1/2) */
      0x3fb504f3u, /* sqrt(2) */
      0x402df854u, /* e */
      0x42b17218u, /* ln(FLT_MAX): the overflow threshold 0x42b17217 */
      0x42aeac50u, /* ln(2^-126) = -87.3365 (negated below): results turn subnormal */
      0x42cff1b5u, /* -ln(2^-150) = 103.972: results round to 0 below its negation */
      0x42b20000u, /* 89: gr_expf's cut-off */
      0x42d00000u, /* 104: gr_expf's cut-off */
      0x7f7fffc0u, /* FLT_MAX */
      0x7f800000u, /* inf and the NaNs above it */
      0x7fc00000u, /* the quiet NaNs */
  };
  mpfr_t tmp;
  struct mr_saved saved = mr_binary32_begin();
  mpfr_init2(tmp, 24);
  (void)state;
  for (size_t i = 0; i < sizeof around / sizeof around[0]; i++)
    for (uint32_t sign = 0; sign <= 1; sign++) {
      uint32_t c = around[i] | sign << 31;
      uint32_t lo = (around[i] < 64 ? around[i] : 64);
      uint32_t hi = (0x7fffffffu - around[i] < 64 ? 0x7fffffffu - around[i] : 64);
      check_float_range(c - lo, c + hi, tmp);
    }
  check_float_range(0xffffffc0u, 0xffffffffu, tmp);
  mpfr_clear(tmp);
  mr_binary32_end(saved);
}

/* Every FLOAT_STRIDE-th bit pattern, from 0 and from the middle of the
 * first stride. */
static void float_stride(void **state) {
  mpfr_t tmp;
  struct mr_saved saved = mr_binary32_begin();
  mpfr_init2(tmp, 24);
  uint64_t n = 0;
  (void)state;
  for (uint64_t u = 0; u <= 0xffffffffu; u += FLOAT_STRIDE) {
    check_float("gr_expf", gr_expf, mpfr_exp, (uint32_t)u, tmp);
    check_float("gr_logf", gr_logf, mpfr_log, (uint32_t)u, tmp);
    n++;
  }
  for (uint64_t u = FLOAT_STRIDE / 2; u <= 0xffffffffu; u += 64 * FLOAT_STRIDE) {
    check_float("gr_expf", gr_expf, mpfr_exp, (uint32_t)u, tmp);
    check_float("gr_logf", gr_logf, mpfr_log, (uint32_t)u, tmp);
    n++;
  }
  printf("# gr_expf and gr_logf: %" PRIu64 " float inputs each, all correctly rounded\n", n);
  mpfr_clear(tmp);
  mr_binary32_end(saved);
}

/* Every input whose fast path leaves the result to the double-double
 * path, as make check-exhaustive lists them (8 for exp, 46 for log, of
 * the 2^32 each): the hard cases of the rounding test, and the only
 * inputs that exercise gr_math_expf_accurate and gr_math_logf_accurate
 * through the public functions. */
static void float_hard_cases(void **state) {
  static const uint32_t exp_hard[] = {
      0x377eff81u, 0x39c6be5bu, 0x4001b249u, 0x40315b33u, 0xb3000000u, 0xbae0e25cu,
      0xbbf0edf1u, 0xc16912cdu,
  };
  static const uint32_t log_hard[] = {
      0x064cb44bu, 0x07c060fau, 0x0dc8bba4u, 0x0f61ff63u, 0x111c87f8u, 0x145cb6d4u,
      0x14907055u, 0x16c5ee7au, 0x18b06f2au, 0x1a8446cbu, 0x1b81ab52u, 0x1f116ab8u,
      0x22925ad4u, 0x2423c085u, 0x28e3fa26u, 0x29e6126bu, 0x29fd22f8u, 0x2c4c24b7u,
      0x2e492984u, 0x3418949bu, 0x38dcbe38u, 0x39c31348u, 0x39c7b1f9u, 0x3bf86ef0u,
      0x3c413d3au, 0x41178febu, 0x464d5b2bu, 0x4665a9a6u, 0x4c5d65a5u, 0x4d604ebeu,
      0x4e85f412u, 0x54af989du, 0x5d800341u, 0x5ee8984eu, 0x5f64c24au, 0x62b467bau,
      0x64e27fa3u, 0x65d890d3u, 0x66a8c860u, 0x66abbd63u, 0x6914cb96u, 0x6d1f23ebu,
      0x6f31a8ecu, 0x7405dee8u, 0x79e7ec37u, 0x7d98b8f4u,
  };
  mpfr_t tmp;
  struct mr_saved saved = mr_binary32_begin();
  mpfr_init2(tmp, 24);
  (void)state;
  float f;
  for (size_t i = 0; i < sizeof exp_hard / sizeof exp_hard[0]; i++) {
    check_true(!gr_math_expf_fast(gr_math_float_from_bits(exp_hard[i]), &f),
               "gr_expf(0x%08" PRIx32 ") takes the double-double path", exp_hard[i]);
    check_float("gr_expf", gr_expf, mpfr_exp, exp_hard[i], tmp);
  }
  for (size_t i = 0; i < sizeof log_hard / sizeof log_hard[0]; i++) {
    check_true(!gr_math_logf_fast(gr_math_float_from_bits(log_hard[i]), &f),
               "gr_logf(0x%08" PRIx32 ") takes the double-double path", log_hard[i]);
    check_float("gr_logf", gr_logf, mpfr_log, log_hard[i], tmp);
  }
  mpfr_clear(tmp);
  mr_binary32_end(saved);
}

/* The double-double path's last rounding: h + l to float when h is a
 * midpoint of two floats, l then deciding; at the least subnormal and at
 * the overflow threshold too. */
static void float_midpoints(void **state) {
  (void)state;
  check_bits(0x3f800001u, gr_math_float_bits(gr_math_dd_to_float(1.0 + 0x1p-24, 0x1p-80)),
             "1 + 2^-24 + 2^-80 rounds up to 1 + 2^-23");
  check_bits(0x3f800000u, gr_math_float_bits(gr_math_dd_to_float(1.0 + 0x1p-24, -0x1p-80)),
             "1 + 2^-24 - 2^-80 rounds down to 1");
  check_bits(0x3f800002u, gr_math_float_bits(gr_math_dd_to_float(1.0 + 3 * 0x1p-24, 0.0)),
             "1 + 3 2^-24 (a tie) rounds to the even 1 + 2^-22");
  check_bits(0xbf800001u, gr_math_float_bits(gr_math_dd_to_float(-1.0 - 0x1p-24, -0x1p-80)),
             "-(1 + 2^-24 + 2^-80) rounds to -(1 + 2^-23)");
  check_bits(0xbf800000u, gr_math_float_bits(gr_math_dd_to_float(-1.0 - 0x1p-24, 0x1p-80)),
             "-(1 + 2^-24 - 2^-80) rounds to -1");
  check_bits(0x00000001u, gr_math_float_bits(gr_math_dd_to_float(0x1p-150, 0x1p-210)),
             "2^-150 + 2^-210 rounds up to the least subnormal");
  check_bits(0x00000000u, gr_math_float_bits(gr_math_dd_to_float(0x1p-150, -0x1p-210)),
             "2^-150 - 2^-210 rounds down to +0");
  check_bits(0x7f7fffffu, gr_math_float_bits(gr_math_dd_to_float(0x1.ffffffp127, -0x1p60)),
             "just below the overflow threshold rounds to FLT_MAX");
  check_bits(0x7f800000u, gr_math_float_bits(gr_math_dd_to_float(0x1.ffffffp127, 0x1p60)),
             "just above the overflow threshold rounds to +inf");
  check_bits(0x3f800000u, gr_math_float_bits(gr_math_dd_to_float(1.0 + 0x1p-30, -0x1p-90)),
             "no midpoint: h's own rounding");
}

/* ---- doubles --------------------------------------------------------------- */

struct ulp_stats {
  double max;
  double at;
  uint64_t n;
};

/* gr(x) within `bound` ulps of MPFR's f(x) (bits for bits where the
 * result is not finite). */
static void check_ulps(const char *name, double (*gr)(double), mpfr_fn ref, double x, double bound,
                       struct ulp_stats *st) {
  double y = gr(x);
  double err = mr_ulp_error(ref, x, y);
  st->n++;
  if (err > st->max) {
    st->max = err;
    st->at = x;
  }
  if (err <= bound) return;
  mpfr_t in, r;
  mpfr_inits2(53, in, r, (mpfr_ptr)0);
  mpfr_set_d(in, x, MPFR_RNDN);
  ref(r, in, MPFR_RNDN);
  double nearest = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clears(in, r, (mpfr_ptr)0);
  fail_msg("%s(%a = 0x%016" PRIx64 ") = 0x%016" PRIx64 ", %.3f ulps from MPFR (nearest double"
           " 0x%016" PRIx64 "), more than %.2f",
           name, x, gr_math_bits(x), gr_math_bits(y), err, gr_math_bits(nearest), bound);
}

static double random_double(tu_rng *r) { return gr_math_from_bits(tu_next(r)); }

/* ---- gr_expf_term ------------------------------------------------------------ */

/* |y - e^d| in ulps of float at e^d, for an exact d (e^d by MPFR to 80
 * bits; e^d is a normal float for -86 <= d <= 0). */
static double exp_ulp_error(mpfr_srcptr d, float y) {
  mpfr_t r;
  mpfr_init2(r, 80);
  mpfr_exp(r, d, MPFR_RNDN);
  const long e = (long)mpfr_get_exp(r) - 1 - 23; /* e^d in [2^(e+23), 2^(e+24)) */
  mpfr_sub_d(r, r, (double)y, MPFR_RNDN);
  mpfr_mul_2si(r, r, -e, MPFR_RNDN);
  const double err = fabs(mpfr_get_d(r, MPFR_RNDN));
  mpfr_clear(r);
  return err;
}

/* gr_expf_term's error at a float d. */
static double term_ulp_error(float d, float y) {
  mpfr_t in;
  mpfr_init2(in, 24);
  mpfr_set_flt(in, d, MPFR_RNDN); /* exact */
  const double err = exp_ulp_error(in, y);
  mpfr_clear(in);
  return err;
}

/* LOGSUMEXP's float terms: gr_expf_term within TERM_BOUND ulps of e^d on
 * every FLOAT_STRIDE-th float of [-86, 0] (all of them, about 1.1e9,
 * with GPUREDUCE_TEST_MATH=all: a long double pre-check, MPFR where it
 * comes within 0.05 ulp of the bound), and its special cases. */
static void float_term(void **state) {
  (void)state;
  const char *mode = getenv("GPUREDUCE_TEST_MATH");
  const int all = mode && strcmp(mode, "all") == 0;
  const uint32_t last = gr_math_float_bits(-86.0f); /* the negative floats grow in bits */
  double worst = 0;
  float at = 0;
  uint64_t n = 0, over = 0;
  for (uint64_t u = 0x80000000u; u <= last; u += all ? 1 : FLOAT_STRIDE) {
    const float d = gr_math_float_from_bits((uint32_t)u);
    const float y = gr_expf_term(d);
    double err;
    if (all) {
      const long double ex = expl((long double)d);
      int e = 0;
      frexpl(ex, &e);
      err = (double)(fabsl((long double)y - ex) / ldexpl(1.0L, e - 24));
      if (err > TERM_BOUND - 0.05) err = term_ulp_error(d, y);
    } else {
      err = term_ulp_error(d, y);
    }
    n++;
    if (err > worst) {
      worst = err;
      at = d;
    }
    if (err > TERM_BOUND && over++ < 10)
      fail_msg("gr_expf_term(%a = 0x%08" PRIx32 ") = %a, %.4f ulps from e^d, more than %.2f",
               (double)d, (uint32_t)u, (double)y, err, TERM_BOUND);
  }
  check_true(over == 0, "gr_expf_term: every input within %.2f ulp", TERM_BOUND);
  printf("# gr_expf_term: at most %.4f ulp (at %a) over %" PRIu64 " inputs of [-86, 0]%s\n",
         worst, (double)at, n, all ? ", all of them" : "; GPUREDUCE_TEST_MATH=all for all");
  check_bits(0x3f800000u, gr_math_float_bits(gr_expf_term(0.0f)), "gr_expf_term(+0) = 1 exactly");
  check_bits(0x3f800000u, gr_math_float_bits(gr_expf_term(-0.0f)), "gr_expf_term(-0) = 1 exactly");
  check_bits(0, gr_math_float_bits(gr_expf_term(-INFINITY)), "gr_expf_term(-inf) = +0");
  check_bits(0, gr_math_float_bits(gr_expf_term(gr_math_float_from_bits(0x7fc00000u))),
             "gr_expf_term(NaN) = +0");
  check_bits(0, gr_math_float_bits(gr_expf_term(gr_math_float_from_bits(last + 1))),
             "gr_expf_term(the float below -86) = +0");
  check_bits(0, gr_math_float_bits(gr_expf_term(-FLT_MAX)), "gr_expf_term(-FLT_MAX) = +0");
  const float at86 = gr_expf_term(-86.0f);
  check_true(at86 >= FLT_MIN && term_ulp_error(-86.0f, at86) <= TERM_BOUND,
             "gr_expf_term(-86) = %a, a normal float within the bound", (double)at86);
}

/* ---- gr_expf_diff ------------------------------------------------------------ */

/* |y - e^(a - b)| in ulps of float at e^(a - b), the difference exact (320
 * bits hold the difference of any two floats), e^(a - b) by MPFR to 80
 * bits; -1 where a - b is above 0, outside the function's domain. */
static double diff_ulp_error(float a, float b, float y) {
  mpfr_t d;
  mpfr_init2(d, 320);
  mpfr_set_flt(d, a, MPFR_RNDN);
  mpfr_sub_d(d, d, (double)b, MPFR_RNDN); /* exact */
  const double err = mpfr_sgn(d) <= 0 ? exp_ulp_error(d, y) : -1;
  mpfr_clear(d);
  return err;
}

/* One pair (a <= b): +0 where a - b rounded to float is below -86 (the
 * difference gr_expf_diff compares), else within TERM_BOUND of e^(a - b),
 * the exact difference's (which may lie up to half a float ulp of 86,
 * 2^-18, below -86). */
static void check_diff(float a, float b, struct ulp_stats *st, uint64_t *over) {
  const float y = gr_expf_diff(a, b);
  const float rounded = a - b;
  if (!(rounded >= -86.0f)) {
    if (gr_math_float_bits(y) != 0 && (*over)++ < 10)
      fail_msg("gr_expf_diff(%a, %a) = %a, not +0 where a - b rounds below -86", (double)a,
               (double)b, (double)y);
    return;
  }
  const double err = diff_ulp_error(a, b, y);
  if (err < 0) return;
  st->n++;
  if (err > st->max) {
    st->max = err;
    st->at = (double)a - (double)b;
  }
  if (err > TERM_BOUND && (*over)++ < 10)
    fail_msg("gr_expf_diff(%a, %a) = %a, %.4f ulps from e^(a - b), more than %.2f", (double)a,
             (double)b, (double)y, err, TERM_BOUND);
}

/* LOGSUMEXP's scales: gr_expf_diff within TERM_BOUND ulps of e^(a - b) for
 * every FLOAT_STRIDE-th float a below b = 0.7 (all of them with
 * GPUREDUCE_TEST_MATH=all), where a - b is rarely a float, and for random
 * pairs of every magnitude whose difference is in [-86, 0]; its special
 * cases. */
static void float_diff(void **state) {
  (void)state;
  const char *mode = getenv("GPUREDUCE_TEST_MATH");
  const int all = mode && strcmp(mode, "all") == 0;
  struct ulp_stats st = {0, 0, 0};
  uint64_t over = 0;
  const float b = 0.7f;
  for (uint64_t u = 0; u <= 0xffffffffu; u += all ? 1 : FLOAT_STRIDE) {
    const float a = gr_math_float_from_bits((uint32_t)u);
    if (a <= b && (double)a - (double)b >= -87.0) check_diff(a, b, &st, &over);
  }
  /* the regime boundary: the 1024 floats a around -86 + b, where a - b
   * rounds into the +0 regime (negative floats grow in bits) */
  const uint32_t edge = gr_math_float_bits(-86.0f + b);
  for (uint32_t k = 0; k < 1024; k++)
    check_diff(gr_math_float_from_bits(edge - 512 + k), b, &st, &over);
  tu_rng r;
  tu_rng_init(&r, "math-expf-diff");
  for (int i = 0; i < 200000; i++) {
    /* b of magnitude 2^-30 to 2^10, either sign; a up to 88 below it */
    const float bb = (float)ldexp((tu_unit(&r) - 0.5) * 2.0, 10 - (int)tu_below(&r, 41));
    const float a = (float)((double)bb - 88.0 * tu_unit(&r) * tu_unit(&r));
    if (a <= bb) check_diff(a, bb, &st, &over);
  }
  check_true(over == 0, "gr_expf_diff: every pair within %.2f ulp", TERM_BOUND);
  printf("# gr_expf_diff: at most %.4f ulp (at a - b = %a) over %" PRIu64 " pairs%s\n", st.max,
         st.at, st.n, all ? "" : "; GPUREDUCE_TEST_MATH=all for every a below 0.7");
  check_bits(0x3f800000u, gr_math_float_bits(gr_expf_diff(1.5f, 1.5f)), "gr_expf_diff(x, x) = 1");
  check_bits(0x3f800000u, gr_math_float_bits(gr_expf_diff(-0.0f, 0.0f)),
             "gr_expf_diff(-0, +0) = 1 exactly");
  check_bits(0x3f800000u, gr_math_float_bits(gr_expf_diff(INFINITY, INFINITY)),
             "gr_expf_diff(+inf, +inf) = 1");
  check_bits(0x3f800000u, gr_math_float_bits(gr_expf_diff(-INFINITY, -INFINITY)),
             "gr_expf_diff(-inf, -inf) = 1");
  check_bits(0, gr_math_float_bits(gr_expf_diff(-INFINITY, 2.0f)), "gr_expf_diff(-inf, 2) = +0");
  check_bits(0, gr_math_float_bits(gr_expf_diff(2.0f, INFINITY)), "gr_expf_diff(2, +inf) = +0");
  check_bits(0, gr_math_float_bits(gr_expf_diff(-FLT_MAX, FLT_MAX)),
             "gr_expf_diff(-FLT_MAX, FLT_MAX) = +0 (the difference overflows)");
  check_bits(0, gr_math_float_bits(gr_expf_diff(gr_math_float_from_bits(0x7fc00000u), 1.0f)),
             "gr_expf_diff(NaN, 1) = +0");
  check_bits(0, gr_math_float_bits(gr_expf_diff(1.0f, gr_math_float_from_bits(0x7fc00000u))),
             "gr_expf_diff(1, NaN) = +0");
  check_bits(0, gr_math_float_bits(gr_expf_diff(-85.75f, 0.5f)), "gr_expf_diff(-85.75, 0.5) = +0");
  check_bits(gr_math_float_bits(gr_expf_term(-3.25f)), gr_math_float_bits(gr_expf_diff(-1.0f, 2.25f)),
             "gr_expf_diff(a, b) = gr_expf_term(a - b) where a - b is exact");
}

static void double_specials(void **state) {
  (void)state;
  check_bits(0x3ff0000000000000ull, gr_math_bits(gr_exp(0.0)), "gr_exp(+0) = 1 exactly");
  check_bits(0x3ff0000000000000ull, gr_math_bits(gr_exp(-0.0)), "gr_exp(-0) = 1 exactly");
  check_bits(0x3ff0000000000000ull, gr_math_bits(gr_exp(0x1p-1074)), "gr_exp(least subnormal) = 1");
  check_bits(0x3ff0000000000000ull, gr_math_bits(gr_exp(-0x1p-1074)),
             "gr_exp(-least subnormal) = 1");
  check_bits(0x3ff0000000000000ull, gr_math_bits(gr_exp(0x1.fffffffffffffp-54)),
             "gr_exp(2^-53 - ulp) = 1");
  check_bits(0x3ff0000000000000ull, gr_math_bits(gr_exp(-0x1p-54)), "gr_exp(-2^-54) = 1");
  check_bits(0x3fefffffffffffffull, gr_math_bits(gr_exp(-0x1.8p-54)),
             "gr_exp(-1.5 2^-54) = 1 - 2^-53");
  check_bits(0x3ff0000000000000ull, gr_math_bits(gr_exp(0x1p-53)),
             "gr_exp(2^-53) = 1, as exp_log.h says (e^x rounds to 1 + 2^-52)");
  check_bits(0x3fefffffffffffffull, gr_math_bits(gr_exp(-0x1.0000000000001p-53)),
             "gr_exp(-2^-53 (1 + 2^-52)) = 1 - 2^-53");
  check_bits(0x7fffffffffffffffull, gr_math_bits(gr_exp(gr_math_from_bits(0x7ff0000000000001ull))),
             "gr_exp(sNaN) is the canonical qNaN");
  check_bits(0x7fffffffffffffffull, gr_math_bits(gr_exp(gr_math_from_bits(0xfff8000000000123ull))),
             "gr_exp(-NaN with a payload) is the canonical qNaN");
  check_bits(0x7ff0000000000000ull, gr_math_bits(gr_exp(HUGE_VAL)), "gr_exp(+inf) = +inf");
  check_bits(0x0000000000000000ull, gr_math_bits(gr_exp(-HUGE_VAL)), "gr_exp(-inf) = +0");
  check_bits(0x7ff0000000000000ull, gr_math_bits(gr_exp(0x1.62e42fefa39f0p+9)),
             "gr_exp(709.782712893384 + ulp) overflows");
  check_true(gr_exp(0x1.62e42fefa39efp+9) <= DBL_MAX, "gr_exp(709.782712893384) is finite");
  check_bits(0x0000000000000000ull, gr_math_bits(gr_exp(-0x1.74910d52d3052p+9)),
             "gr_exp(-745.1332191019412) rounds to +0");
  check_bits(0x0000000000000001ull, gr_math_bits(gr_exp(-0x1.74910d52d3051p+9)),
             "gr_exp(-745.1332191019411) is the least subnormal");
  check_bits(0x0000000000000000ull, gr_math_bits(gr_exp(-746.0)), "gr_exp(-746) = +0");
  check_bits(0x7fffffffffffffffull, gr_math_bits(gr_log(gr_math_from_bits(0x7ff0000000000001ull))),
             "gr_log(sNaN) is the canonical qNaN");
  check_bits(0x7fffffffffffffffull, gr_math_bits(gr_log(-1.0)), "gr_log(-1) is the canonical qNaN");
  check_bits(0x7fffffffffffffffull, gr_math_bits(gr_log(-0x1p-1074)),
             "gr_log(-least subnormal) is the canonical qNaN");
  check_bits(0x7fffffffffffffffull, gr_math_bits(gr_log(-HUGE_VAL)),
             "gr_log(-inf) is the canonical qNaN");
  check_bits(0xfff0000000000000ull, gr_math_bits(gr_log(0.0)), "gr_log(+0) = -inf");
  check_bits(0xfff0000000000000ull, gr_math_bits(gr_log(-0.0)), "gr_log(-0) = -inf");
  check_bits(0x0000000000000000ull, gr_math_bits(gr_log(1.0)), "gr_log(1) = +0");
  check_bits(0x7ff0000000000000ull, gr_math_bits(gr_log(HUGE_VAL)), "gr_log(+inf) = +inf");
}

static void double_exp(void **state) {
  tu_rng r;
  struct ulp_stats st = {0, 0, 0}, sub = {0, 0, 0};
  (void)state;
  tu_rng_init(&r, "math-exp");
  for (int i = 0; i < 100000; i++) /* the range of finite, normal results */
    check_ulps("gr_exp", gr_exp, mpfr_exp, -708.39 + 1418.17 * tu_unit(&r), EXP_BOUND, &st);
  for (int i = 0; i < 30000; i++) { /* near 0: |x| from 2^-60 to 1 */
    double x = ldexp(1.0 + tu_unit(&r), -(int)tu_below(&r, 61));
    check_ulps("gr_exp", gr_exp, mpfr_exp, (i & 1) ? -x : x, EXP_BOUND, &st);
  }
  for (int i = 0; i < 30000; i++) { /* every bit pattern: mostly +inf, +0, 1 */
    double x = random_double(&r);
    if (x != x) continue;
    check_ulps("gr_exp", gr_exp, mpfr_exp, x, EXP_BOUND, &st);
  }
  for (int k = -64; k <= 64; k++) { /* around the overflow threshold */
    double x = gr_math_from_bits(gr_math_bits(0x1.62e42fefa39efp+9) + (uint64_t)(int64_t)k);
    check_ulps("gr_exp", gr_exp, mpfr_exp, x, EXP_BOUND, &st);
  }
  for (int i = 0; i < 20000; i++) /* subnormal results */
    check_ulps("gr_exp", gr_exp, mpfr_exp, -745.14 + (745.14 - 708.40) * tu_unit(&r),
               EXP_SUBNORMAL_BOUND, &sub);
  printf("# gr_exp: at most %.4f ulp (at %a) over %" PRIu64 " inputs with normal results,"
         " %.4f ulp (at %a) over %" PRIu64 " with subnormal ones\n",
         st.max, st.at, st.n, sub.max, sub.at, sub.n);
}

static void double_log(void **state) {
  tu_rng r;
  struct ulp_stats st = {0, 0, 0};
  (void)state;
  tu_rng_init(&r, "math-log");
  for (int i = 0; i < 100000; i++) { /* every positive finite bit pattern */
    double x = gr_math_from_bits(tu_next(&r) >> 1);
    if (x - x != 0) continue;
    check_ulps("gr_log", gr_log, mpfr_log, x, LOG_BOUND, &st);
  }
  for (int i = 0; i < 60000; i++) { /* near 1: 1 +- 2^-1 .. 2^-60 */
    double d = ldexp(1.0 + tu_unit(&r), -1 - (int)tu_below(&r, 60));
    check_ulps("gr_log", gr_log, mpfr_log, (i & 1) ? 1.0 - d / 2 : 1.0 + d, LOG_BOUND, &st);
  }
  for (int i = 0; i < 40000; i++) /* [1/2, 2) */
    check_ulps("gr_log", gr_log, mpfr_log, 0.5 + 1.5 * tu_unit(&r), LOG_BOUND, &st);
  for (int k = 0; k < 64; k++) { /* the edges of the range and of 1 */
    check_ulps("gr_log", gr_log, mpfr_log, gr_math_from_bits(1 + (uint64_t)k), LOG_BOUND, &st);
    check_ulps("gr_log", gr_log, mpfr_log, gr_math_from_bits(0x7fefffffffffffffull - (uint64_t)k),
               LOG_BOUND, &st);
    check_ulps("gr_log", gr_log, mpfr_log, gr_math_from_bits(0x3ff0000000000000ull + (uint64_t)k),
               LOG_BOUND, &st);
    check_ulps("gr_log", gr_log, mpfr_log, gr_math_from_bits(0x3ff0000000000000ull - (uint64_t)k),
               LOG_BOUND, &st);
    check_ulps("gr_log", gr_log, mpfr_log, gr_math_from_bits(0x0010000000000000ull - (uint64_t)k),
               LOG_BOUND, &st);
  }
  printf("# gr_log: at most %.4f ulp (at %a) over %" PRIu64 " inputs\n", st.max, st.at, st.n);
}

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(float_specials),  cmocka_unit_test(float_boundaries),
      cmocka_unit_test(float_stride),    cmocka_unit_test(float_hard_cases),
      cmocka_unit_test(float_midpoints), cmocka_unit_test(double_specials),
      cmocka_unit_test(double_exp),      cmocka_unit_test(double_log),
      cmocka_unit_test(float_term),      cmocka_unit_test(float_diff),
  };
  int rc = cmocka_run_group_tests_name("test-exp-log", tests, tu_seed_setup, NULL);
  mpfr_free_cache();
  return rc;
}

#else /* !GR_HAVE_MPFR */

int main(void) {
  printf("1..0 # SKIP MPFR not found at configure time: install libmpfr-dev (Debian/Ubuntu)"
         " or mpfr-devel (Fedora) and re-run configure\n");
  return 0;
}

#endif
