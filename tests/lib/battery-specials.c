/*
 * battery-specials.c - the battery's special values (battery.h): NaNs,
 * signed zeros, infinities, ties and half-precision subnormals, against
 * answers written out by hand from gpureduce.h.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battery-internal.h"

/* ---- tests: special values ------------------------------------------------- */

/* Run every operation (and f32's double accumulation) on x and compare
 * with: NaN for MIN/MAX/sum-likes when nan_index < n (then ARG* give
 * nan_index).  Used by the NaN tests. */
static void expect_nan_everywhere(const void *x, size_t n, gpureduce_type_t type,
                                  size_t nan_index, const char *how) {
  for (int oi = 0; oi < GPUREDUCE_OP_COUNT; ++oi) {
    const gpureduce_op_t op = (gpureduce_op_t)oi;
    for (size_t fi = 0; fi < TU_FLAG_VALUES; ++fi) {
      const unsigned flags = tu_flag_values[fi];
      const size_t rs = tu_result_size(type, op, flags);
      if (!rs) continue;
      const bt_result wanted = (op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX)
                                   ? bt_word((uint64_t)nan_index)
                                   : bt_result_of(type, op, flags, NAN, NAN);
      expect_result(x, n, type, op, flags, wanted,
             "%s: %s", how,
             (op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX)
                 ? "the index of the first NaN"
                 : "the canonical quiet NaN of the result type");
    }
  }
}

void bt_nan_positions(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(tc_float_types); ++ti) {
    const gpureduce_type_t type = tc_float_types[ti];
    const unsigned es = TU_TYPE(type)->size, v = tu_chunk_elems(type);
    const size_t te = tu_tile_elems(type), n = 3 * te + 5;
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "nan positions %s", TU_TYPE(type)->name);
    tu_rng_init(&r, label);
    void *base = tu_alloc(n * es), *y = tu_alloc(n * es);
    tc_fill(&r, type, G_WIDE, base, n);
    /* chunk, warp (32 lanes), lane-wrap (256 chunks) and tile boundaries */
    const size_t pos[] = {0, 1, v - 1, v, 31, 32, 33, 255, 256, 257, 32 * v - 1, 32 * v,
                          256 * v - 1, 256 * v, 256 * v + 1, te - 1, te, te + 1, 2 * te - 1,
                          2 * te, n - 2, n - 1};
    for (size_t pi = 0; pi < COUNT(pos); ++pi) {
      const size_t p = pos[pi];
      memcpy(y, base, n * es);
      /* payloads and signs vary: quiet/signalling, positive/negative */
      const int neg = (int)(pi & 1), quiet = (int)((pi >> 1) & 1);
      const uint64_t nan1 = tu_nan(type, neg, quiet, tu_next(&r));
      tu_store(y, p, es, nan1);
      size_t q = n;
      if (p + 1 < n) {
        q = p + 1 + tu_below(&r, n - p - 1);
        tu_store(y, q, es, tu_nan(type, !neg, !quiet, tu_next(&r)));
      }
      char how[160];
      snprintf(how, sizeof how, "NaN 0x%" PRIx64 " at index %zu and another NaN at %zu", nan1, p,
               q);
      expect_nan_everywhere(y, n, type, p, how);
    }
    free(base);
    free(y);
  }
}

void bt_all_nan(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(tc_float_types); ++ti) {
    const gpureduce_type_t type = tc_float_types[ti];
    const unsigned es = TU_TYPE(type)->size;
    const size_t sizes[] = {1, 100, tu_tile_elems(type) + 3};
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "all nan %s", TU_TYPE(type)->name);
    tu_rng_init(&r, label);
    void *y = tu_alloc(sizes[2] * es);
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      for (size_t i = 0; i < sizes[si]; ++i) {
        const uint64_t b = tu_next(&r);
        tu_store(y, i, es, tu_nan(type, (int)(b & 1), (int)((b >> 1) & 1), b >> 2));
      }
      expect_nan_everywhere(y, sizes[si], type, 0, "every element a NaN of random payload");
    }
    free(y);
  }
}

/* Fill n elements with the pattern of v. */
static void fill_value(gpureduce_type_t type, void *x, size_t n, double v) {
  const uint64_t b = tu_pattern(type, v);
  for (size_t i = 0; i < n; ++i) tu_store(x, i, TU_TYPE(type)->size, b);
}

void bt_signed_zeros(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(tc_float_types); ++ti) {
    const gpureduce_type_t type = tc_float_types[ti];
    const unsigned es = TU_TYPE(type)->size;
    const size_t te = tu_tile_elems(type);
    const size_t big = 2 * te + 3;
    void *x = tu_alloc(big * es);
    const uint64_t pz = tu_pattern(type, 0.0), nz = tu_pattern(type, -0.0);

    /* all -0 */
    const size_t sizes[] = {1, 2, 7, te + 1, big};
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      const size_t n = sizes[si];
      fill_value(type, x, n, -0.0);
      for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
        if (!tu_result_size(type, GPUREDUCE_SUM, flags)) continue;
        expect(x, n, type, GPUREDUCE_SUM, flags, rp(type, GPUREDUCE_SUM, flags, -0.0),
               "all elements -0: the sum is -0");
        expect(x, n, type, GPUREDUCE_SUM_ABS, flags, rp(type, GPUREDUCE_SUM_ABS, flags, 0.0),
               "all elements -0: the sum of |x| is +0");
        expect(x, n, type, GPUREDUCE_SUM_SQUARES, flags,
               rp(type, GPUREDUCE_SUM_SQUARES, flags, 0.0),
               "all elements -0: the sum of squares is +0");
        expect(x, n, type, GPUREDUCE_PROD, flags,
               rp(type, GPUREDUCE_PROD, flags, n % 2 ? -0.0 : 0.0),
               "all elements -0: the product is -0 for odd n, +0 for even n");
      }
      expect(x, n, type, GPUREDUCE_MIN, 0, nz, "all elements -0: min is -0");
      expect(x, n, type, GPUREDUCE_MAX, 0, nz, "all elements -0: max is -0");
      expect(x, n, type, GPUREDUCE_ARGMIN, 0, 0, "all elements -0: argmin is 0");
      expect(x, n, type, GPUREDUCE_ARGMAX, 0, 0, "all elements -0: argmax is 0");
      expect(x, n, type, GPUREDUCE_AMAX, 0, pz, "all elements -0: amax is +0");
      expect_result(x, n, type, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS,
                    bt_result_of(type, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS, -0.0,
                                 (double)n),
                    "all elements -0: the softmax statistics are {-0, n}");
      bt_check_one(x, n, type, GPUREDUCE_LOGSUMEXP, 0, "all elements -0: log n");
    }

    /* two elements, both orders */
    for (int order = 0; order < 2; ++order) {
      tu_store(x, 0, es, order ? pz : nz);
      tu_store(x, 1, es, order ? nz : pz);
      const char *how = order ? "{+0, -0}" : "{-0, +0}";
      expect(x, 2, type, GPUREDUCE_MIN, 0, nz, "%s: min is -0", how);
      expect(x, 2, type, GPUREDUCE_MAX, 0, pz, "%s: max is +0", how);
      expect(x, 2, type, GPUREDUCE_ARGMIN, 0, 0, "%s: argmin is 0 (a tie)", how);
      expect(x, 2, type, GPUREDUCE_ARGMAX, 0, 0, "%s: argmax is 0 (a tie)", how);
      expect(x, 2, type, GPUREDUCE_SUM, 0, rp(type, GPUREDUCE_SUM, 0, 0.0), "%s: sum is +0",
             how);
      expect(x, 2, type, GPUREDUCE_AMAX, 0, pz, "%s: amax is +0", how);
      expect_result(x, 2, type, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS,
                    bt_result_of(type, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS, 0.0, 2.0),
                    "%s: the softmax statistics are {+0, 2} (+0 above -0, as for max)", how);
      expect(x, 1, type, GPUREDUCE_LOGSUMEXP, 0,
             rp(type, GPUREDUCE_LOGSUMEXP, 0, order ? 0.0 : -0.0),
             "%s: logsumexp of the first alone is that zero, its sign kept", how);
    }

    /* one odd zero out in a long array, at either end and across tiles */
    const size_t n = big;
    const size_t spots[] = {0, te - 1, te, n - 1};
    for (size_t k = 0; k < COUNT(spots); ++k) {
      for (int lone_neg = 0; lone_neg < 2; ++lone_neg) {
        for (size_t i = 0; i < n; ++i) tu_store(x, i, es, lone_neg ? pz : nz);
        tu_store(x, spots[k], es, lone_neg ? nz : pz);
        const char *how = lone_neg ? "all +0 but one -0" : "all -0 but one +0";
        expect(x, n, type, GPUREDUCE_MIN, 0, nz, "%s at %zu: min is -0", how, spots[k]);
        expect(x, n, type, GPUREDUCE_MAX, 0, pz, "%s at %zu: max is +0", how, spots[k]);
        expect(x, n, type, GPUREDUCE_ARGMIN, 0, 0, "%s at %zu: argmin is 0 (ties)", how,
               spots[k]);
        expect(x, n, type, GPUREDUCE_ARGMAX, 0, 0, "%s at %zu: argmax is 0 (ties)", how,
               spots[k]);
        expect(x, n, type, GPUREDUCE_SUM, 0, rp(type, GPUREDUCE_SUM, 0, 0.0),
               "%s at %zu: sum is +0", how, spots[k]);
      }
    }
    free(x);
  }
}

void bt_infinities(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(tc_float_types); ++ti) {
    const gpureduce_type_t type = tc_float_types[ti];
    const unsigned es = TU_TYPE(type)->size;
    const size_t te = tu_tile_elems(type);
    const size_t sizes[] = {1, 2, 33, te + 1};
    void *x = tu_alloc((2 * te + 8) * es);
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      const size_t n = sizes[si];
      for (int sign = 0; sign < 2; ++sign) {
        const double inf = sign ? -INFINITY : INFINITY;
        fill_value(type, x, n, inf);
        const char *how = sign ? "all -inf" : "all +inf";
        expect(x, n, type, GPUREDUCE_MIN, 0, tu_pattern(type, inf), "%s: min", how);
        expect(x, n, type, GPUREDUCE_MAX, 0, tu_pattern(type, inf), "%s: max", how);
        expect(x, n, type, GPUREDUCE_ARGMIN, 0, 0, "%s: argmin is 0 (all tie)", how);
        expect(x, n, type, GPUREDUCE_ARGMAX, 0, 0, "%s: argmax is 0 (all tie)", how);
        expect(x, n, type, GPUREDUCE_AMAX, 0, tu_pos_inf(type), "%s: amax is +inf", how);
        expect(x, n, type, GPUREDUCE_LOGSUMEXP, 0, rp(type, GPUREDUCE_LOGSUMEXP, 0, inf),
               "%s: logsumexp is %s", how, sign ? "-inf" : "+inf");
        expect_result(x, n, type, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS,
                      bt_result_of(type, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS, inf,
                                   (double)n),
                      "%s: the softmax statistics are {%s, n}", how, sign ? "-inf" : "+inf");
        for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
          if (!tu_result_size(type, GPUREDUCE_SUM, flags)) continue;
          expect(x, n, type, GPUREDUCE_SUM, flags, rp(type, GPUREDUCE_SUM, flags, inf),
                 "%s: sum is %s", how, sign ? "-inf" : "+inf");
          expect(x, n, type, GPUREDUCE_SUM_ABS, flags,
                 rp(type, GPUREDUCE_SUM_ABS, flags, INFINITY), "%s: sum of |x| is +inf", how);
          expect(x, n, type, GPUREDUCE_SUM_SQUARES, flags,
                 rp(type, GPUREDUCE_SUM_SQUARES, flags, INFINITY), "%s: sum of squares is +inf",
                 how);
          expect(x, n, type, GPUREDUCE_PROD, flags,
                 rp(type, GPUREDUCE_PROD, flags, (sign && n % 2) ? -INFINITY : INFINITY),
                 "%s: product", how);
        }
      }
    }

    /* +inf and -inf in one sum: NaN; in different tiles too */
    const size_t n = 2 * te + 8;
    fill_value(type, x, n, 1.0);
    const size_t pairs[][2] = {{0, 1}, {3, 2}, {5, te + 1}, {n - 1, 0}, {te, 2 * te}};
    for (size_t k = 0; k < COUNT(pairs); ++k) {
      fill_value(type, x, n, 1.0);
      tu_store(x, pairs[k][0], es, tu_pos_inf(type));
      tu_store(x, pairs[k][1], es, tu_neg_inf(type));
      for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
        if (!tu_result_size(type, GPUREDUCE_SUM, flags)) continue;
        expect(x, n, type, GPUREDUCE_SUM, flags, rp(type, GPUREDUCE_SUM, flags, NAN),
               "+inf at %zu and -inf at %zu among ones: the sum is NaN", pairs[k][0],
               pairs[k][1]);
        expect(x, n, type, GPUREDUCE_SUM_ABS, flags, rp(type, GPUREDUCE_SUM_ABS, flags, INFINITY),
               "+inf at %zu and -inf at %zu among ones: the sum of |x| is +inf", pairs[k][0],
               pairs[k][1]);
      }
      expect(x, n, type, GPUREDUCE_ARGMIN, 0, pairs[k][1],
             "+inf at %zu and -inf at %zu among ones: argmin is the -inf", pairs[k][0],
             pairs[k][1]);
      expect(x, n, type, GPUREDUCE_ARGMAX, 0, pairs[k][0],
             "+inf at %zu and -inf at %zu among ones: argmax is the +inf", pairs[k][0],
             pairs[k][1]);
      expect(x, n, type, GPUREDUCE_AMAX, 0, tu_pos_inf(type),
             "+inf at %zu and -inf at %zu among ones: amax is +inf", pairs[k][0], pairs[k][1]);
      expect(x, n, type, GPUREDUCE_LOGSUMEXP, 0, rp(type, GPUREDUCE_LOGSUMEXP, 0, INFINITY),
             "+inf at %zu and -inf at %zu among ones: logsumexp is +inf", pairs[k][0],
             pairs[k][1]);
      expect_result(x, n, type, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS,
                    bt_result_of(type, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS, INFINITY,
                                 1.0),
                    "+inf at %zu and -inf at %zu among ones: the softmax statistics are "
                    "{+inf, 1}", pairs[k][0], pairs[k][1]);
      /* a second +inf: the count of the +inf elements */
      tu_store(x, n / 2, es, tu_pos_inf(type));
      expect_result(x, n, type, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS,
                    bt_result_of(type, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS, INFINITY,
                                 pairs[k][0] == n / 2 ? 1.0 : 2.0),
                    "+inf at %zu and %zu, -inf at %zu among ones: {+inf, the count of +inf}",
                    pairs[k][0], n / 2, pairs[k][1]);
      /* -inf among finite values: a term of exactly 0 */
      fill_value(type, x, n, 1.0);
      tu_store(x, pairs[k][1], es, tu_neg_inf(type));
      expect_result(x, n, type, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS,
                    bt_result_of(type, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS, 1.0,
                                 (double)(n - 1)),
                    "-inf at %zu among ones: {1, n - 1}, the -inf adds exp(-inf) = 0",
                    pairs[k][1]);
    }
    /* 0 * inf in a product: NaN */
    fill_value(type, x, 40, 1.0);
    tu_store(x, 3, es, tu_pattern(type, 0.0));
    tu_store(x, 37, es, tu_pos_inf(type));
    for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags)
      if (tu_result_size(type, GPUREDUCE_PROD, flags))
        expect(x, 40, type, GPUREDUCE_PROD, flags, rp(type, GPUREDUCE_PROD, flags, NAN),
               "0 at 3 and +inf at 37 among ones: the product is NaN");
    free(x);
  }

  /* Accumulation width: f16/bf16 sum in float, f32 overflows float. */
  uint16_t h[2] = {0x7bff, 0x7bff}; /* 65504, the largest f16 */
  expect(h, 2, GPUREDUCE_F16, GPUREDUCE_SUM, 0, tu_f32_bits(131008.0f),
         "65504 + 65504 accumulates in float: 131008, not inf");
  expect(h, 2, GPUREDUCE_F16, GPUREDUCE_MAX, 0, 0x7bff, "max of {65504, 65504}");
  uint16_t b[2] = {0x7f7f, 0x7f7f}; /* the largest bf16 */
  expect(b, 2, GPUREDUCE_BF16, GPUREDUCE_SUM, 0, 0x7f800000u,
         "largest bf16 twice overflows the float accumulator to +inf");
  float f[2] = {3.4028234663852886e38f, 3.4028234663852886e38f};
  expect(f, 2, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 0x7f800000u, "FLT_MAX + FLT_MAX is +inf");
  expect(f, 2, GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64,
         tu_f64_bits(2.0 * 3.4028234663852886e38), "FLT_MAX + FLT_MAX in double is finite");
}

void bt_ties(void **state) {
  (void)state;
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    const tu_type *t = TU_TYPE(type);
    const unsigned es = t->size, v = tu_chunk_elems(type);
    const size_t te = tu_tile_elems(type), n = 3 * te + 7;
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "ties %s", t->name);
    tu_rng_init(&r, label);
    void *base = tu_alloc(n * es), *x = tu_alloc(n * es);
    const struct bt_extremes ex = bt_fill_between(type, &r, base, n);
    const uint64_t low = ex.low, high = ex.high;
    const size_t dist[] = {1, 31, 32, 33, v, 256, 256 * v, te - 1, te, te + 1, 2 * te};
    const size_t first[] = {0, 31, te - 1};
    for (size_t di = 0; di < COUNT(dist); ++di)
      for (size_t fi = 0; fi < COUNT(first); ++fi) {
        const size_t p = first[fi], q = p + dist[di];
        if (q >= n) continue;
        memcpy(x, base, n * es);
        tu_store(x, p, es, low);
        tu_store(x, q, es, low);
        expect(x, n, type, GPUREDUCE_ARGMIN, 0, p,
               "the smallest value at %zu and %zu (%zu apart): the lowest index", p, q, dist[di]);
        expect(x, n, type, GPUREDUCE_MIN, 0, low, "the smallest value at %zu and %zu", p, q);
        memcpy(x, base, n * es);
        tu_store(x, p, es, high);
        tu_store(x, q, es, high);
        expect(x, n, type, GPUREDUCE_ARGMAX, 0, p,
               "the largest value at %zu and %zu (%zu apart): the lowest index", p, q, dist[di]);
        expect(x, n, type, GPUREDUCE_MAX, 0, high, "the largest value at %zu and %zu", p, q);
        bt_check_one(x, n, type, GPUREDUCE_AMAX, 0, "the largest value twice: amax");
        if (t->is_float || t->is_signed) { /* the largest magnitude negative, twice */
          tu_store(x, p, es, t->is_float ? tu_pattern(type, -8.0) : tu_type_lowest(type));
          tu_store(x, q, es, t->is_float ? tu_pattern(type, -8.0) : tu_type_lowest(type));
          expect(x, n, type, GPUREDUCE_AMAX, 0,
                 /* 2^(8 size - 1): the lowest integer's pattern is its magnitude */
                 t->is_float ? tu_pattern(type, 8.0) : tu_type_lowest(type),
                 "the most negative value at %zu and %zu: amax is its magnitude", p, q);
        }
      }
    if (t->is_float) {
      /* -0 and +0 tie for ARGMIN/ARGMAX, while MIN/MAX tell them apart */
      const uint64_t pz = tu_pattern(type, 0.0), nz = tu_pattern(type, -0.0);
      const size_t zd[] = {1, 32, 256 * v, te};
      for (size_t di = 0; di < COUNT(zd); ++di)
        for (int order = 0; order < 2; ++order) {
          const size_t p = 5, q = 5 + zd[di];
          memcpy(x, base, n * es); /* positive values */
          tu_store(x, p, es, order ? nz : pz);
          tu_store(x, q, es, order ? pz : nz);
          expect(x, n, type, GPUREDUCE_ARGMIN, 0, p,
                 "%s at %zu and %s at %zu among positives: argmin is the first (a tie)",
                 order ? "-0" : "+0", p, order ? "+0" : "-0", q);
          expect(x, n, type, GPUREDUCE_MIN, 0, nz, "+0 and -0 among positives: min is -0");
          for (size_t i = 0; i < n; ++i) /* negative values */
            tu_store(x, i, es, tu_pattern(type, -tu_value(type, tu_load(base, i, es))));
          tu_store(x, p, es, order ? nz : pz);
          tu_store(x, q, es, order ? pz : nz);
          expect(x, n, type, GPUREDUCE_ARGMAX, 0, p,
                 "%s at %zu and %s at %zu among negatives: argmax is the first (a tie)",
                 order ? "-0" : "+0", p, order ? "+0" : "-0", q);
          expect(x, n, type, GPUREDUCE_MAX, 0, pz, "+0 and -0 among negatives: max is +0");
        }
    }
    free(base);
    free(x);
  }
}

void bt_half_subnormals(void **state) {
  (void)state;
  tu_rng r;
  tu_rng_init(&r, "half subnormals");
  enum { N = 1000, NSQ = 32 };
  uint16_t x[N];
  /* f16 subnormals are m * 2^-24, |m| <= 1023: sums of 1000 of them are
   * integers times 2^-24 below 2^24 * 2^-24, exact in float. */
  int64_t msum = 0, mabs = 0;
  for (int i = 0; i < N; ++i) {
    const uint16_t m = (uint16_t)(1 + tu_below(&r, 1023));
    const int neg = (int)tu_below(&r, 2);
    x[i] = (uint16_t)((neg ? 0x8000u : 0u) | m);
    msum += neg ? -(int64_t)m : (int64_t)m;
    mabs += m;
  }
  expect(x, N, GPUREDUCE_F16, GPUREDUCE_SUM, 0, tu_f32_bits((float)ldexp((double)msum, -24)),
         "1000 random f16 subnormals: the exact sum %" PRId64 " * 2^-24", msum);
  expect(x, N, GPUREDUCE_F16, GPUREDUCE_SUM_ABS, 0, tu_f32_bits((float)ldexp((double)mabs, -24)),
         "1000 random f16 subnormals: the exact sum of |x|");
  for (size_t oi = 0; oi < COUNT(bt_minmax_ops); ++oi)
    expect(x, N, GPUREDUCE_F16, bt_minmax_ops[oi], 0,
           bt_want_for(x, N, GPUREDUCE_F16, bt_minmax_ops[oi], 0).bits,
           "1000 random f16 subnormals: the plain-loop answer");
  /* squares (m 2^-24)^2 = m^2 2^-48 with m < 512: 32 of them sum exactly */
  int64_t sq = 0;
  for (int i = 0; i < NSQ; ++i) {
    const uint16_t m = (uint16_t)(1 + tu_below(&r, 511));
    x[i] = (uint16_t)((tu_below(&r, 2) ? 0x8000u : 0u) | m);
    sq += (int64_t)m * m;
  }
  expect(x, NSQ, GPUREDUCE_F16, GPUREDUCE_SUM_SQUARES, 0,
         tu_f32_bits((float)ldexp((double)sq, -48)),
         "32 f16 subnormals below 512 * 2^-24: the exact sum of squares");

  /* bf16 subnormals are m * 2^-133, |m| <= 127: float holds their sums
   * exactly; their squares (below 2^-252) round to +0 in float. */
  msum = mabs = 0;
  for (int i = 0; i < N; ++i) {
    const uint16_t m = (uint16_t)(1 + tu_below(&r, 127));
    const int neg = (int)tu_below(&r, 2);
    x[i] = (uint16_t)((neg ? 0x8000u : 0u) | m);
    msum += neg ? -(int64_t)m : (int64_t)m;
    mabs += m;
  }
  expect(x, N, GPUREDUCE_BF16, GPUREDUCE_SUM, 0, tu_f32_bits((float)ldexp((double)msum, -133)),
         "1000 random bf16 subnormals: the exact sum %" PRId64 " * 2^-133", msum);
  expect(x, N, GPUREDUCE_BF16, GPUREDUCE_SUM_ABS, 0,
         tu_f32_bits((float)ldexp((double)mabs, -133)),
         "1000 random bf16 subnormals: the exact sum of |x|");
  expect(x, N, GPUREDUCE_BF16, GPUREDUCE_SUM_SQUARES, 0, 0x00000000u,
         "bf16 subnormals squared underflow: the sum of squares is +0");
  for (size_t oi = 0; oi < COUNT(bt_minmax_ops); ++oi)
    expect(x, N, GPUREDUCE_BF16, bt_minmax_ops[oi], 0,
           bt_want_for(x, N, GPUREDUCE_BF16, bt_minmax_ops[oi], 0).bits,
           "1000 random bf16 subnormals: the plain-loop answer");

  /* a subnormal as the answer of MIN/MAX among normals (both formats) */
  for (int fmt = 0; fmt < 2; ++fmt) {
    const gpureduce_type_t type = fmt ? GPUREDUCE_BF16 : GPUREDUCE_F16;
    const uint16_t sub = fmt ? 0x0005 : 0x0203; /* smallish subnormal patterns */
    for (int i = 0; i < N; ++i) x[i] = (uint16_t)tu_pattern(type, 1.0 + (double)(i % 64) / 64);
    x[777] = sub;
    expect(x, N, type, GPUREDUCE_MIN, 0, sub, "subnormal 0x%04x among values in [1, 2): min", sub);
    expect(x, N, type, GPUREDUCE_ARGMIN, 0, 777, "subnormal among values in [1, 2): argmin");
    for (int i = 0; i < N; ++i) x[i] = (uint16_t)(x[i] | 0x8000u);
    expect(x, N, type, GPUREDUCE_MAX, 0, sub | 0x8000u,
           "negative subnormal 0x%04x among values in (-2, -1]: max", sub | 0x8000u);
    expect(x, N, type, GPUREDUCE_ARGMAX, 0, 777, "negative subnormal among negatives: argmax");
  }

  /* random f16 over the whole finite range, subnormals included, across tiles */
  const size_t n = 2 * tu_tile_elems(GPUREDUCE_F16) + 17;
  uint16_t *y = tu_alloc(n * sizeof *y);
  tc_fill(&r, GPUREDUCE_F16, G_WIDE, y, n);
  for (int oi = 0; oi < GPUREDUCE_OP_COUNT; ++oi)
    if (oi != GPUREDUCE_PROD)
      bt_check_one(y, n, GPUREDUCE_F16, (gpureduce_op_t)oi, 0, "random f16 with subnormals");
  free(y);
}
