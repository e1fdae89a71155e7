/*
 * battery-moments.c - the battery's NRM2 and MEAN_VAR tests (battery.h):
 * norms that need scaling, Blue's classes of values, the accuracy
 * gpureduce.h states, and special values written out by hand.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battery-internal.h"

/* ---- tests: NRM2 and MEAN_VAR ---------------------------------------------------- */

/* n elements of a floating type from the doubles v: rounded to nearest
 * for F32, exact in the type for the others. */
static void *fill_doubles(gpureduce_type_t type, const double *v, size_t n) {
  void *x = tu_alloc((n ? n : 1) * TU_TYPE(type)->size);
  for (size_t i = 0; i < n; ++i)
    tu_store(x, i, TU_TYPE(type)->size,
             type == GPUREDUCE_F32 ? tu_f32_bits((float)v[i]) : tu_pattern(type, v[i]));
  return x;
}

/* Norms whose sum of squares overflows or underflows the accumulator,
 * from subnormals to near the largest value: check_one compares with the
 * order's bits and with the long double norm within gpureduce.h's bound
 * (an overflow or an underflow to zero would be far outside it), and
 * each is also written out by hand. */
void bt_nrm2_scaling(void **state) {
  (void)state;
  static const struct {
    gpureduce_type_t type;
    unsigned flags;
    size_t n;
    double v[6];
    double norm; /* to 17 digits */
    const char *what;
  } cases[] = {
      {GPUREDUCE_F64, 0, 4, {1e200, 1e200, 3e200, -1e200}, 3.4641016151377545e200,
       "(1e200, 1e200, 3e200, -1e200): sqrt(12) 1e200, its squares overflow"},
      {GPUREDUCE_F64, 0, 2, {3e-200, 4e-200}, 5e-200, "(3e-200, 4e-200): 5e-200, its squares underflow"},
      {GPUREDUCE_F64, 0, 2, {1e308, 1e308}, 1.4142135623730951e308, "(1e308, 1e308)"},
      {GPUREDUCE_F64, 0, 3, {0x1p-1074, 0x3p-1074, 0x4p-1074}, 5.0990195135927845 * 0x1p-1074,
       "three subnormals 1, 3, 4 times 2^-1074: sqrt(26) 2^-1074"},
      {GPUREDUCE_F64, 0, 3, {1e300, 1.0, 1e-300}, 1e300, "big, medium and small: 1e300"},
      {GPUREDUCE_F64, 0, 4, {3e-300, 1e-310, 4e-300, 0}, 5.000000000000000999e-300,
       "small values and a subnormal: 5e-300"},
      {GPUREDUCE_F64, 0, 2, {1.0, 1e-300}, 1.0, "medium and small: 1"},
      {GPUREDUCE_F32, 0, 4, {1e30, 1e30, 3e30, -1e30}, 3.4641016151377545e30,
       "f32 (1e30, 1e30, 3e30, -1e30): squares overflow float"},
      {GPUREDUCE_F32, 0, 2, {3e-30, 4e-30}, 5e-30, "f32 (3e-30, 4e-30): squares underflow float"},
      {GPUREDUCE_F32, 0, 2, {2e38, 2e38}, 2.8284271247461902e38, "f32 (2e38, 2e38)"},
      {GPUREDUCE_F32, GPUREDUCE_ACCUMULATE_F64, 2, {3e38, 3e38}, 4.2426406871192851e38,
       "f32 (3e38, 3e38) in double: above FLT_MAX, fine in double"},
      {GPUREDUCE_F32, 0, 3, {0x1p-149, 0x3p-149, 0x4p-149}, 5.0990195135927845 * 0x1p-149,
       "three f32 subnormals 1, 3, 4 times 2^-149: sqrt(26) 2^-149"},
      {GPUREDUCE_F32, 0, 3, {1e30, 1.0, 1e-30}, 1e30, "f32 big, medium and small"},
      {GPUREDUCE_F16, 0, 2, {0x1p-24, 0x1p-24}, 1.4142135623730951 * 0x1p-24,
       "two smallest f16 subnormals"},
      {GPUREDUCE_BF16, 0, 2, {0x1p127, 0x1p127}, 1.4142135623730951 * 0x1p127,
       "bf16 2^127 twice: the float accumulator's squares would overflow"},
  };
  for (size_t k = 0; k < COUNT(cases); ++k) {
    const gpureduce_type_t type = cases[k].type;
    void *x = fill_doubles(type, cases[k].v, cases[k].n);
    bt_check_one(x, cases[k].n, type, GPUREDUCE_NRM2, cases[k].flags, cases[k].what);
    bt_result got;
    check_status(GPUREDUCE_SUCCESS,
                 battery_reduce(x, cases[k].n, type, GPUREDUCE_NRM2, cases[k].flags, 0, 0, &got),
                 "nrm2 %s: status", cases[k].what);
    const size_t rs = tu_result_size(type, GPUREDUCE_NRM2, cases[k].flags);
    const double r = ref_result_value((unsigned)rs, got.w[0]);
    /* a few ulps of the result, or of f32 elements rounded from decimals;
     * a subnormal norm rounds to the subnormals' grid */
    const double ulps = rs == 4 || type == GPUREDUCE_F32 ? 0x1p-21 : 0x1p-50;
    check_near(cases[k].norm, r, fabs(cases[k].norm) * ulps + (rs == 4 ? 0x1p-149 : 0x1p-1074),
               "nrm2 %s: within a few ulps of the norm written out", cases[k].what);
    free(x);
  }
  /* the same cases spread over tiles and lanes: one case's values at
   * random places among zeros */
  const size_t n = 3 * tu_tile_elems(GPUREDUCE_F64) + 11;
  tu_rng r;
  tu_rng_init(&r, "nrm2 scaling spread");
  double *v = tu_alloc(n * sizeof *v);
  for (size_t k = 0; k < COUNT(cases); ++k) {
    if (cases[k].type != GPUREDUCE_F64 && cases[k].type != GPUREDUCE_F32) continue;
    memset(v, 0, n * sizeof *v);
    for (size_t i = 0; i < cases[k].n; ++i) v[tu_below(&r, n)] += cases[k].v[i];
    void *x = fill_doubles(cases[k].type, v, n);
    bt_check_one(x, n, cases[k].type, GPUREDUCE_NRM2, cases[k].flags, "spread over three tiles");
    free(x);
  }
  free(v);
}

/* On a CUDA backend: the partial of the whole array (gpureduce/partial.h),
 * whose node holds NRM2's three sums themselves, made from the staged
 * input of the last battery_reduce() call (offset elements past the
 * aligned start) must be the host handle's bytes for the same elements.
 * A value put into the wrong sum changes those bytes even where the norm
 * cannot show it (an infinity's sum, say). */
static void check_partial_matches_host(const void *x, size_t n, gpureduce_type_t type,
                                       gpureduce_op_t op, unsigned flags, size_t offset,
                                       const char *what) {
  const gpureduce_handle_t HOST = battery_host_handle();
  if (!HOST) return;
  const size_t bytes = gpureduce_partial_bytes(n, 0, n, type, op, flags);
  check_true(bytes > 0 && bytes <= GPUREDUCE_PARTIAL_MAX_BYTES, "%s: partial size %zu", what,
             bytes);
  unsigned char *got = tu_alloc(bytes), *want = tu_alloc(bytes);
  memset(got, 0xA5, bytes);
  memset(want, 0x5A, bytes);
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_partial_reduce(bt_staged_input(type, offset), got, n, 0, n, type, op,
                                        flags, battery_handle()),
               "%s: partial on the %s backend", what, battery_backend()->name);
  check_status(GPUREDUCE_SUCCESS, gpureduce_partial_reduce(x, want, n, 0, n, type, op, flags, HOST),
               "%s: partial on the host backend", what);
  check_true(memcmp(got, want, bytes) == 0,
             "%s: the %zu bytes of the whole array's partial (its three sums) are the host's",
             what, bytes);
  free(got);
  free(want);
}

/*
 * NRM2 where values of Blue's classes fall at random places among zeros
 * over 9 to 10 tiles.  The CUDA lane squares a chunk whose values are all
 * medium straight into the medium sum and gives any other chunk the
 * order's lift (cuda/thread/fold.cuh, Nrm2MediumLane), so interior tiles mix
 * both kinds of chunk.  The rounds:
 *   0  small normal values (nonzero, below tsml) among medium ones at
 *      tsml and a little above it;
 *   1  the same with subnormal small values;
 *   2  big values in (tbig, 2 tbig] among medium ones at tbig and far
 *      below it, whose squares a sum of big squares would round away;
 *   3  round 2 with values whose squares overflow the accumulator (the
 *      norm does not);
 *   4  round 2 and an infinity in an interior tile (+inf), 5  and also a
 *      NaN in one (the canonical NaN; gpureduce.h).
 * The norm must have the order's bits (tests/lib/reference.c), aligned
 * and 3 elements past alignment.  A value in the wrong sum can leave the
 * norm's bits as they are (a subnormal's scaled square is lost beside the
 * other small values', a big square is scaled by a power of two, an
 * infinity is an infinity in any sum), but not the three sums: on a CUDA
 * backend the partial of the whole array (gpureduce/partial.h), which
 * holds them, must be the host backend's bytes
 * (check_partial_matches_host).  f16 in a float accumulator and f32 in a
 * double one have no small or big finite values: their rounds hold the
 * type's extremes instead, and only an infinity is big.
 */
void bt_nrm2_classes(void **state) {
  (void)state;
  enum { NV = 6 };
  static const struct {
    gpureduce_type_t type;
    unsigned flags;
    double small[NV], subnormal[NV], near_tsml[NV], big[NV], below_tbig[NV], huge[NV];
  } kinds[] = {
      /* float accumulator: tsml 2^-63, tbig 2^52 */
      {GPUREDUCE_BF16,
       0,
       {0x1p-64, -0x1.fcp-64, 0x1.4p-68, -0x1p-75, 0x1p-100, -0x1.8p-120},
       {0x1p-133, -0x1.8p-130, 0x1p-127, -0x1.fcp-127, 0x1p-131, -0x1.4p-129},
       {0x1p-63, -0x1.02p-63, 0x1.8p-62, -0x1.4p-61, 0x1.fep-61, 0x1p-60},
       {0x1.02p52, -0x1.3p52, 0x1.8p52, -0x1.fep52, 0x1p53, 0x1.7ep52},
       {0x1p52, -0x1.fep42, 0x1.4p40, -0x1.1p41, 0x1.9ep43, 0x1p44},
       {0x1p70, -0x1.4p100, 0x1p110, 0x1.8p90, -0x1p100, 0x1.fep105}},
      {GPUREDUCE_F32,
       0,
       {0x1p-64, -0x1.fffffep-64, 0x1.4p-68, -0x1.123456p-75, 0x1p-100, -0x1.8p-120},
       {0x1p-149, -0x1p-140, 0x1.8p-130, -0x1.fffffcp-127, 0x1p-127, -0x1.4p-135},
       {0x1p-63, -0x1.000002p-63, 0x1.8p-62, -0x1.4p-61, 0x1.fep-61, 0x1.abcdep-60},
       {0x1.000002p52, -0x1.3p52, 0x1.8p52, -0x1.fffffep52, 0x1p53, 0x1.234566p52},
       {0x1p52, -0x1.fffffep42, 0x1.4p40, -0x1.123456p41, 0x1.9ep43, 0x1p44},
       {0x1p70, -3e30, 0x1p110, 0x1.8p90, -0x1p100, 0x1.fffffep105}},
      /* double accumulator: tsml 2^-511, tbig 2^486 */
      {GPUREDUCE_F64,
       0,
       {0x1p-512, -0x1.fffffffffffffp-512, 0x1.4p-530, -0x1.123456789p-600, 0x1p-900, -0x1.8p-1000},
       {0x1p-1074, -1e-310, 0x1.8p-1030, -0x1p-1023, 0x1.ffffffffffffep-1023, -0x1.4p-1050},
       {0x1p-511, -0x1.0000000000001p-511, 0x1.8p-510, -0x1.4p-509, 0x1.fep-509, 0x1.abcdefp-508},
       {0x1.0000000000001p486, -0x1.3p486, 0x1.8p486, -0x1.fffffffffffffp486, 0x1p487, 0x1.23456789p486},
       {0x1p486, -0x1.fffffffffffffp461, 0x1.4p459, -0x1.123456789p460, 0x1.9ep462, 0x1p458},
       {0x1p520, -1e300, 0x1p1000, 0x1.8p700, -0x1p600, 0x1.fffffffffffffp1005}},
      /* nothing finite scales: the types' extremes */
      {GPUREDUCE_F16,
       0,
       {0x1p-14, -0x1.004p-14, 0x1p-13, -0x1.8p-12, 0x1p-10, -0x1.ffcp-11},
       {0x1p-24, -0x1p-20, 0x1.8p-22, -0x1.ff8p-15, 0x1p-15, -0x1.4p-21},
       {0x1p-14, -0x1.004p-14, 0x1.8p-13, -0x1.4p-12, 0x1.ffcp-12, 0x1p-10},
       {65504, -65504, 0x1.8p15, -0x1.004p15, 0x1p15, 0x1.ffcp14},
       {0x1p14, -0x1.ffcp13, 0x1.4p12, -0x1.1p11, 0x1.9ep13, 0x1p11},
       {65504, -65504, 65504, -65504, 65504, -65504}},
      {GPUREDUCE_F32,
       GPUREDUCE_ACCUMULATE_F64,
       {0x1p-126, -0x1.000002p-126, 0x1.8p-125, -0x1.4p-120, 0x1.fep-100, 0x1p-90},
       {0x1p-149, -0x1p-140, 0x1.8p-130, -0x1.fffffcp-127, 0x1p-127, -0x1.4p-135},
       {0x1p-126, -0x1.000002p-126, 0x1.8p-125, -0x1.4p-120, 0x1.fep-100, 0x1p-90},
       {0x1.fffffep127, -0x1.fffffep127, 0x1.8p127, -0x1.000002p127, 0x1p127, 0x1.234566p126},
       {0x1p126, -0x1.fffffep125, 0x1.4p124, -0x1.123456p123, 0x1.9ep125, 0x1p123},
       {0x1.fffffep127, -0x1.fffffep127, 0x1.fffffep127, -0x1.fffffep127, 0x1.fffffep127, -3e38}},
  };
  static const char *const round_name[] = {
      "small values among medium ones near tsml", "subnormal small values among medium ones",
      "big values up to 2 tbig among medium ones", "big values and squares that overflow",
      "big values and an infinity", "big values, an infinity and a NaN"};
  tu_rng r;
  tu_rng_init(&r, "nrm2 classes");
  for (size_t k = 0; k < COUNT(kinds); ++k) {
    const gpureduce_type_t type = kinds[k].type;
    const unsigned flags = kinds[k].flags;
    const unsigned es = TU_TYPE(type)->size;
    const size_t te = tu_tile_elems(type), n = 9 * te + 1 + tu_below(&r, te);
    unsigned char *x = tu_alloc(n * es);
    for (int round = 0; round < 6; ++round) {
      memset(x, 0, n * es); /* +0: medium for the lane, small for lift */
      /* 400 values at random places; a place taken twice keeps the last */
      for (int m = 0; m < 400; ++m) {
        const int j = (int)tu_below(&r, NV);
        const double v = round <= 1 ? (m % 2 == 0   ? kinds[k].near_tsml[j]
                                       : round == 0 ? kinds[k].small[j]
                                                    : kinds[k].subnormal[j])
                         : round == 3 && m % 8 == 0 ? kinds[k].huge[j]
                         : m % 2                    ? kinds[k].big[j]
                                                    : kinds[k].below_tbig[j];
        tu_store(x, tu_below(&r, n), es,
                 type == GPUREDUCE_F32 ? tu_f32_bits((float)v) : tu_pattern(type, v));
      }
      /* the infinity and the NaN in tiles 1 to 6: interior tiles at both
       * offsets, of the whole array and of the partial's first node (tiles
       * 0 to 7, reduced as an array of its own) */
      if (round >= 4) tu_store(x, te + tu_below(&r, 6 * te), es, tu_pattern(type, INFINITY));
      if (round == 5) tu_store(x, te + tu_below(&r, 6 * te), es, tu_pattern(type, NAN));
      const struct ref_answer w = bt_want_for(x, n, type, GPUREDUCE_NRM2, flags);
      for (size_t offset = 0; offset <= 3; offset += 3) {
        char what[200];
        snprintf(what, sizeof what, "%s nrm2%s n=%zu offset %zu, round %d (%s)", bt_type_name(type),
                 flags ? " accumulate-f64" : "", n, offset, round, round_name[round]);
        bt_result got;
        check_status(GPUREDUCE_SUCCESS,
                     battery_reduce(x, n, type, GPUREDUCE_NRM2, flags, offset, 0, &got),
                     "%s: status", what);
        if (round < 4) {
          check_want(&w, got, what);
        } else { /* +inf, then the canonical NaN: gpureduce.h */
          const size_t rs = tu_result_size(type, GPUREDUCE_NRM2, flags);
          check_result(bt_word(round == 4 ? rp(type, GPUREDUCE_NRM2, flags, INFINITY)
                                          : tu_canonical_nan((unsigned)rs)),
                       got, rs, "%s: the value gpureduce.h gives", what);
          check_result(bt_word(w.bits), got, rs, "%s: the reference's bits", what);
        }
        check_partial_matches_host(x, n, type, GPUREDUCE_NRM2, flags, offset, what);
      }
    }
    free(x);
  }
}

/* The relative error of a MEAN_VAR result's variance against the long
 * double variance of the elements. */
static double variance_error(const void *x, size_t n, gpureduce_type_t type, unsigned flags,
                             long double *var) {
  long double s = 0, d = 0;
  for (size_t i = 0; i < n; ++i) s += tu_value(type, tu_load(x, i, TU_TYPE(type)->size));
  const long double mean = s / n;
  for (size_t i = 0; i < n; ++i) {
    const long double e = tu_value(type, tu_load(x, i, TU_TYPE(type)->size)) - mean;
    d += e * e;
  }
  *var = d / n;
  bt_result got;
  check_status(GPUREDUCE_SUCCESS,
               battery_reduce(x, n, type, GPUREDUCE_MEAN_VAR, flags, 0, 0, &got),
               "mean_var of %zu values: status", n);
  const unsigned rs = (unsigned)tu_result_size(type, GPUREDUCE_MEAN_VAR, flags);
  return (double)(fabsl(ref_mean_var_value(rs, got.w, 1) - *var) / *var);
}

/* gpureduce.h's accuracy cases: 10^6 values of 1e4 + U(-.5, .5) (f32
 * relative error of the variance <= 1e-2, with ACCUMULATE_F64 <= 1e-9),
 * huge offsets in f64, constant input (variance exactly 0, the mean the
 * constant), each also against the order's bits and the stated bounds. */
void bt_mean_var_accuracy(void **state) {
  (void)state;
  enum { N = 1000000 };
  tu_rng r;
  tu_rng_init(&r, "mean var accuracy");
  float *x = tu_alloc(N * sizeof *x);
  for (size_t i = 0; i < N; ++i) x[i] = (float)(1e4 + (tu_unit(&r) - 0.5));
  long double var;
  const double e32 = variance_error(x, N, GPUREDUCE_F32, 0, &var);
  check_true(e32 <= 1e-2, "f32 mean_var of 10^6 values 1e4 + U(-.5, .5): relative error of the "
             "variance %.3g (variance %.6Lg) <= 1e-2", e32, var);
  check_true(var > 0.08 && var < 0.087, "the variance of U(-.5, .5) is about 1/12: %.6Lg", var);
  const double e64 = variance_error(x, N, GPUREDUCE_F32, GPUREDUCE_ACCUMULATE_F64, &var);
  check_true(e64 <= 1e-9, "f32 mean_var accumulated in double, 10^6 values 1e4 + U(-.5, .5): "
             "relative error of the variance %.3g <= 1e-9", e64);
  bt_check_one(x, N, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, 0, "1e4 + U(-.5, .5)");
  bt_check_one(x, N, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, GPUREDUCE_ACCUMULATE_F64,
               "1e4 + U(-.5, .5)");
  free(x);

  /* huge offsets: f64 c + U(-.5, .5) for c up to 1e12 */
  enum { M = 100000 };
  double *y = tu_alloc(M * sizeof *y);
  static const double offsets[] = {0, 1e6, 1e9, 1e12};
  for (size_t k = 0; k < COUNT(offsets); ++k) {
    for (size_t i = 0; i < M; ++i) y[i] = offsets[k] + (tu_unit(&r) - 0.5);
    char what[96];
    snprintf(what, sizeof what, "%g + U(-.5, .5)", offsets[k]);
    bt_check_one(y, M, GPUREDUCE_F64, GPUREDUCE_MEAN_VAR, 0, what);
    const double e = variance_error(y, M, GPUREDUCE_F64, 0, &var);
    check_true(e <= (offsets[k] >= 1e12 ? 1e-1 : 1e-3),
               "f64 mean_var of %s: relative error of the variance %.3g", what, e);
  }
  free(y);

  /* constant input: the mean is the constant and the variance exactly +0 */
  const size_t te = tu_tile_elems(GPUREDUCE_F32);
  const size_t sizes[] = {1, 2, 33, te + 1, 3 * te + 5};
  float *c = tu_alloc(sizes[4] * sizeof *c);
  static const float consts[] = {1e4f, -3.25f, 1e30f, 1e-40f};
  for (size_t ci = 0; ci < COUNT(consts); ++ci)
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      for (size_t i = 0; i < sizes[si]; ++i) c[i] = consts[ci];
      for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags)
        expect_result(c, sizes[si], GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, flags,
                      bt_result_of(GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, flags, consts[ci], 0.0),
                      "every element %g: mean %g, variance exactly 0", consts[ci], consts[ci]);
    }
  free(c);
}

/* NaN, signed zeros and infinities, written out from gpureduce.h, and
 * integer inputs against values by hand. */
void bt_moment_specials(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(tc_float_types); ++ti) {
    const gpureduce_type_t type = tc_float_types[ti];
    const size_t te = tu_tile_elems(type), n = te + 9;
    double *v = tu_alloc(n * sizeof *v);
    for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
      if (!tu_result_size(type, GPUREDUCE_NRM2, flags)) continue;
#define MOMENTS(NRM, MEAN, VAR, ...)                                                          \
  do {                                                                                        \
    void *x_ = fill_doubles(type, v, n);                                                      \
    expect_result(x_, n, type, GPUREDUCE_NRM2, flags,                                         \
                  bt_result_of(type, GPUREDUCE_NRM2, flags, (NRM), 0), __VA_ARGS__);          \
    expect_result(x_, n, type, GPUREDUCE_MEAN_VAR, flags,                                     \
                  bt_result_of(type, GPUREDUCE_MEAN_VAR, flags, (MEAN), (VAR)), __VA_ARGS__); \
    free(x_);                                                                                 \
  } while (0)
      for (size_t i = 0; i < n; ++i) v[i] = 2.0;
      v[te + 3] = NAN;
      MOMENTS(NAN, NAN, NAN, "a NaN among 2s: NaN (both values of mean_var)");
      v[te + 3] = INFINITY;
      MOMENTS(INFINITY, NAN, NAN, "+inf among 2s: norm +inf, mean and variance NaN");
      v[te + 3] = -INFINITY;
      MOMENTS(INFINITY, NAN, NAN, "-inf among 2s: norm +inf, mean and variance NaN");
      v[0] = NAN;
      MOMENTS(NAN, NAN, NAN, "a NaN and -inf: NaN");
      for (size_t i = 0; i < n; ++i) v[i] = i % 2 ? 0.0 : -0.0;
      MOMENTS(0.0, 0.0, 0.0, "-0 and +0: norm +0, mean +0, variance +0");
      for (size_t i = 0; i < n; ++i) v[i] = 0.0;
      v[5] = 3.0;
      v[te + 1] = -4.0;
      void *x34 = fill_doubles(type, v, n);
      expect(x34, n, type, GPUREDUCE_NRM2, flags, rp(type, GPUREDUCE_NRM2, flags, 5.0),
             "3 and -4 among zeros, in different tiles: norm 5");
      free(x34);
#undef MOMENTS
      /* one element: the norm |x|, the mean x, the variance +0 */
      const double ones[] = {-2.5, INFINITY, -INFINITY, -0.0};
      for (size_t k = 0; k < COUNT(ones); ++k) {
        void *x = fill_doubles(type, &ones[k], 1);
        expect_result(x, 1, type, GPUREDUCE_NRM2, flags,
                      bt_result_of(type, GPUREDUCE_NRM2, flags, fabs(ones[k]), 0),
                      "the one element %g: norm %g", ones[k], fabs(ones[k]));
        expect_result(x, 1, type, GPUREDUCE_MEAN_VAR, flags,
                      bt_result_of(type, GPUREDUCE_MEAN_VAR, flags, ones[k], 0.0),
                      "the one element %g: mean %g, variance +0", ones[k], ones[k]);
        free(x);
      }
    }
    free(v);
  }
  /* reduce.h's example: the f32 {1, 2, 3, 4} has the mean_var {2.5, 1.25} */
  static const float f4[] = {1, 2, 3, 4};
  expect_result(f4, 4, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, 0,
                bt_result_of(GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, 0, 2.5, 1.25),
                "f32 {1, 2, 3, 4}: mean 2.5, variance 1.25 (the example of reduce.h)");
  /* integers: {3, -4} (norm 5, mean -0.5, variance 12.25), and the
   * extremes of i64 and u64, rounded to double */
  static const int32_t i32[] = {3, -4};
  expect(i32, 2, GPUREDUCE_I32, GPUREDUCE_NRM2, 0, tu_f64_bits(5.0), "i32 {3, -4}: norm 5");
  expect_result(i32, 2, GPUREDUCE_I32, GPUREDUCE_MEAN_VAR, 0,
                bt_result_of(GPUREDUCE_I32, GPUREDUCE_MEAN_VAR, 0, -0.5, 12.25),
                "i32 {3, -4}: mean -0.5, variance 12.25");
  static const int64_t i64[] = {INT64_MIN, INT64_MIN};
  expect(i64, 2, GPUREDUCE_I64, GPUREDUCE_NRM2, 0, tu_f64_bits(0x1p63 * 1.4142135623730951),
         "i64 {INT64_MIN, INT64_MIN}: norm 2^63 sqrt(2), computed in double");
  static const uint64_t u64[] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
  expect_result(u64, 3, GPUREDUCE_U64, GPUREDUCE_MEAN_VAR, 0,
                bt_result_of(GPUREDUCE_U64, GPUREDUCE_MEAN_VAR, 0, 0x1p64, 0.0),
                "u64 UINT64_MAX three times: each rounds to 2^64 in double, variance 0");
  static const uint8_t u8[] = {255, 0, 255, 0};
  expect_result(u8, 4, GPUREDUCE_U8, GPUREDUCE_MEAN_VAR, 0,
                bt_result_of(GPUREDUCE_U8, GPUREDUCE_MEAN_VAR, 0, 127.5, 127.5 * 127.5),
                "u8 {255, 0, 255, 0}: mean 127.5, variance 127.5^2");
}

/* ---- LOGSUMEXP ---------------------------------------------------------------- */

/* LOGSUMEXP of random data, plain and with GPUREDUCE_SOFTMAX_STATS: the
 * bits of doc/ORDER.md's order, and the plain result within the bound
 * stated there of the exact log-sum-exp (reference.c). */
void bt_logsumexp_random(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      {G_MODERATE, TC_OP(GPUREDUCE_LOGSUMEXP), "moderate values"},
      {G_WIDE, TC_OP(GPUREDUCE_LOGSUMEXP), "random values, exponents over +-24 binades"},
      {G_INF, TC_OP(GPUREDUCE_LOGSUMEXP), "random values and infinities"},
      {G_POOL, TC_OP(GPUREDUCE_LOGSUMEXP), "a few values, many ties, +-0"},
  };
  const struct tc_plan plan = {.stream = "logsumexp",
                               .types = tc_float_types,
                               .ntypes = COUNT(tc_float_types),
                               .data = data,
                               .ndata = COUNT(data)};
  bt_check_cases(&plan);
}

/* The spacing of floats at |v| (subnormals' below 2^-126). */
static double float_ulp(long double v) {
  int e = 0;
  frexp((double)fabsl(v), &e);
  return ldexp(1.0, (e > -125 ? e : -125) - 24);
}

/* An f32 LOGSUMEXP of x[0 .. n-1]: the bits and the bound of the
 * reference, and within one ulp of the exact value rounded to float. */
static void lse_within_ulp(const float *x, size_t n, const char *what) {
  bt_check_one(x, n, GPUREDUCE_F32, GPUREDUCE_LOGSUMEXP, 0, what);
  const struct ref_answer w = bt_want_for(x, n, GPUREDUCE_F32, GPUREDUCE_LOGSUMEXP, 0);
  bt_result got;
  check_status(GPUREDUCE_SUCCESS,
               battery_reduce(x, n, GPUREDUCE_F32, GPUREDUCE_LOGSUMEXP, 0, 0, 0, &got),
               "f32 logsumexp n=%zu (%s): status", n, what);
  check_near(w.exact, (double)tu_f32_of((uint32_t)got.w[0]), float_ulp(w.exact),
             "f32 logsumexp n=%zu (%s): within 1 ulp of the exact log-sum-exp", n, what);
}

/* Random and adversarial vectors against the exact log-sum-exp, and the
 * exact cases of gpureduce.h: one element x gives x, n copies of c give
 * c + log n, values near the overflow of exp do not overflow. */
void bt_logsumexp_accuracy(void **state) {
  (void)state;
  tu_rng r;
  tu_rng_init(&r, "logsumexp accuracy");
  const size_t big = (size_t)1 << 24;
  float *x = tu_alloc(big * sizeof *x);

  /* random f32 in [-10, 10) and N(0, 1)-like sums of uniforms, up to 2^24 */
  static const size_t sizes[] = {1000, (size_t)1 << 16, (size_t)1 << 20, (size_t)1 << 24};
  for (size_t si = 0; si < COUNT(sizes); ++si) {
    for (size_t i = 0; i < sizes[si]; ++i) x[i] = (float)(20 * tu_unit(&r) - 10);
    lse_within_ulp(x, sizes[si], "U(-10, 10)");
  }
  for (size_t i = 0; i < 100000; ++i)
    x[i] = (float)(tu_unit(&r) + tu_unit(&r) + tu_unit(&r) - 1.5);
  lse_within_ulp(x, 100000, "sums of three uniforms");

  /* one huge element among many tiny ones, and the reverse */
  const size_t n = 300000;
  for (size_t i = 0; i < n; ++i) x[i] = (float)(-30 - tu_unit(&r));
  static const size_t spots[] = {0, 4095, 4096, 8191, 150001, 299999};
  for (size_t k = 0; k < COUNT(spots); ++k) {
    x[spots[k]] = 20.0f;
    lse_within_ulp(x, n, "one 20 among 3e5 values near -30");
    x[spots[k]] = -1e30f;
    lse_within_ulp(x, n, "one -1e30 among 3e5 values near -30");
    x[spots[k]] = -30.0f;
  }

  /* n copies of one value: c + log n; near exp's overflow (88.72 for f32)
   * and underflow; one element: exactly c */
  static const float consts[] = {0.0f, 1.0f, -3.5f, 88.7f, 88.72f, -88.7f, -103.9f,
                                 1e-30f, 3.0e38f, -3.0e38f};
  static const size_t counts[] = {1, 2, 7, 2049, 65536 + 3};
  for (size_t ci = 0; ci < COUNT(consts); ++ci)
    for (size_t ni = 0; ni < COUNT(counts); ++ni) {
      for (size_t i = 0; i < counts[ni]; ++i) x[i] = consts[ci];
      char what[64];
      snprintf(what, sizeof what, "%zu copies of %g", counts[ni], (double)consts[ci]);
      lse_within_ulp(x, counts[ni], what);
      if (counts[ni] == 1)
        expect(x, 1, GPUREDUCE_F32, GPUREDUCE_LOGSUMEXP, 0, tu_f32_bits(consts[ci]),
               "one element %g: exactly itself", (double)consts[ci]);
      expect_result(x, counts[ni], GPUREDUCE_F32, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS,
                    bt_result_of(GPUREDUCE_F32, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS,
                                 consts[ci], (double)counts[ni]),
                    "%s: the softmax statistics are {c, n} exactly", what);
    }
  free(x);

  /* one element of every floating type: exactly itself, as the result
   * type holds it; f64 near its own overflow (709.78) */
  for (size_t ti = 0; ti < COUNT(tc_float_types); ++ti) {
    const gpureduce_type_t type = tc_float_types[ti];
    static const double ones[] = {1.5, -2.25, 0.125, 11.0, -7.0, 96.0};
    for (size_t k = 0; k < COUNT(ones); ++k) {
      void *y = fill_doubles(type, &ones[k], 1);
      expect(y, 1, type, GPUREDUCE_LOGSUMEXP, 0,
             rp(type, GPUREDUCE_LOGSUMEXP, 0, ones[k]), "one element %g: exactly itself",
             ones[k]);
      free(y);
    }
  }
  double d[4096];
  for (size_t i = 0; i < COUNT(d); ++i) d[i] = 709.0 + tu_unit(&r);
  bt_check_one(d, COUNT(d), GPUREDUCE_F64, GPUREDUCE_LOGSUMEXP, 0, "709 + U(0, 1)");
  for (size_t i = 0; i < COUNT(d); ++i) d[i] = -745.0 - 100 * tu_unit(&r);
  d[17] = 3.0;
  bt_check_one(d, COUNT(d), GPUREDUCE_F64, GPUREDUCE_LOGSUMEXP, 0,
               "one 3 among values below -745, whose terms underflow to 0");
}
