/*
 * checks.c - what a result of reduce-bench must be (see checks.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gpureduce.h"

#include "bench.h"
#include "bench_cuda.h"
#include "checks.h"

/* ---- element and result values ------------------------------------------ */

static int type_is_float(gpureduce_type_t t) { return t <= GPUREDUCE_F64; }

static int type_is_signed(gpureduce_type_t t) {
  return t == GPUREDUCE_I8 || t == GPUREDUCE_I32 || t == GPUREDUCE_I64;
}

int op_is_arg(gpureduce_op_t op) { return op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX; }

int op_is_extremum(gpureduce_op_t op) { return op == GPUREDUCE_MIN || op == GPUREDUCE_MAX; }

gpureduce_type_t result_type(gpureduce_type_t t, gpureduce_op_t op, unsigned flags) {
  if (op_is_arg(op)) return GPUREDUCE_U64;
  if (op_is_extremum(op)) return t;
  if (t == GPUREDUCE_F64 || flags) return GPUREDUCE_F64;
  if (type_is_float(t)) return GPUREDUCE_F32;
  return type_is_signed(t) ? GPUREDUCE_I64 : GPUREDUCE_U64;
}

static double half_to_double(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double v = e == 0    ? ldexp(m, -24)
                   : e == 31 ? (m ? NAN : INFINITY)
                             : ldexp(1024 + m, e - 25);
  return h >> 15 ? -v : v;
}

static double bf16_to_double(uint16_t b) {
  const uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* Element i of a float array as a double (exact). */
static double load_float(gpureduce_type_t t, const void *x, size_t i) {
  switch (t) {
    case GPUREDUCE_F16: return half_to_double(((const uint16_t *)x)[i]);
    case GPUREDUCE_BF16: return bf16_to_double(((const uint16_t *)x)[i]);
    case GPUREDUCE_F32: return ((const float *)x)[i];
    default: return ((const double *)x)[i];
  }
}

/* Element i of an integer array: the value (signed) and its value modulo
 * 2^64 (what the library's integer sums add). */
static int64_t load_signed(gpureduce_type_t t, const void *x, size_t i) {
  switch (t) {
    case GPUREDUCE_I8: return ((const int8_t *)x)[i];
    case GPUREDUCE_I32: return ((const int32_t *)x)[i];
    case GPUREDUCE_I64: return ((const int64_t *)x)[i];
    case GPUREDUCE_U8: return ((const uint8_t *)x)[i];
    case GPUREDUCE_U32: return ((const uint32_t *)x)[i];
    default: return (int64_t)((const uint64_t *)x)[i];
  }
}

static uint64_t load_unsigned(gpureduce_type_t t, const void *x, size_t i) {
  if (type_is_signed(t)) return (uint64_t)load_signed(t, x, i);
  switch (t) {
    case GPUREDUCE_U8: return ((const uint8_t *)x)[i];
    case GPUREDUCE_U32: return ((const uint32_t *)x)[i];
    default: return ((const uint64_t *)x)[i];
  }
}

/* A result (bits of type rt) as a double, for bounds and messages. */
static double result_as_double(gpureduce_type_t rt, const void *bits) {
  if (type_is_float(rt)) return load_float(rt, bits, 0);
  if (type_is_signed(rt)) return (double)load_signed(rt, bits, 0);
  return (double)load_unsigned(rt, bits, 0);
}

static void format_result(gpureduce_type_t rt, const void *bits, char *buf, size_t size) {
  if (rt == GPUREDUCE_F16 || rt == GPUREDUCE_BF16) {
    uint16_t h;
    memcpy(&h, bits, 2);
    snprintf(buf, size, "0x%04x (%.9g)", h, load_float(rt, bits, 0));
  } else if (type_is_float(rt)) {
    snprintf(buf, size, "%.17g", load_float(rt, bits, 0));
  } else if (type_is_signed(rt)) {
    snprintf(buf, size, "%lld", (long long)load_signed(rt, bits, 0));
  } else {
    snprintf(buf, size, "%llu", (unsigned long long)load_unsigned(rt, bits, 0));
  }
}

/* Store v (an integer or an exactly representable value) as type rt. */
static void store_value(gpureduce_type_t rt, double v, uint64_t u, void *bits) {
  if (rt == GPUREDUCE_F32) {
    const float f = (float)v;
    memcpy(bits, &f, sizeof f);
  } else if (rt == GPUREDUCE_F64) {
    memcpy(bits, &v, sizeof v);
  } else {
    memcpy(bits, &u, sizeof u); /* I64, U64: little-endian 8 bytes */
  }
}

/* ---- checks --------------------------------------------------------------- */

static void verdict_wrong(struct verdict *v, gpureduce_type_t rt, const void *got, const char *fmt,
                          ...) PRINTF_LIKE(4, 5);
static void verdict_wrong(struct verdict *v, gpureduce_type_t rt, const void *got, const char *fmt,
                          ...) {
  char value[64], why[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  format_result(rt, got, value, sizeof value);
  v->wrong = 1;
  snprintf(v->detail, sizeof v->detail, "result %s, %s", value, why);
}

void compare_bits(struct verdict *v, gpureduce_type_t rt, const void *got, const void *want,
                  const char *what) {
  const size_t bytes = gpureduce_type_size(rt);
  char value[64];
  v->exact = 1;
  if (memcmp(got, want, bytes) == 0) return;
  format_result(rt, want, value, sizeof value);
  verdict_wrong(v, rt, got, "expected %s (%s)", value, what);
}

void compare_bound(struct verdict *v, gpureduce_type_t rt, const void *got, double want,
                   double bound, const char *what) {
  const double r = result_as_double(rt, got);
  if (fabs(r - want) <= bound) return;
  verdict_wrong(v, rt, got, "expected %.17g within %.3g (%s)", want, bound, what);
}

/*
 * The result of (type, op, flags) over n ones: n for the sums, 1 for prod,
 * min and max, index 0 for argmin and argmax.  Exact, except sums with a
 * float accumulator when n > 2^24: some partial sums of ones are then not
 * representable, and the check allows (log2 n + 8) roundings of n.
 */
struct verdict check_ones(gpureduce_type_t t, gpureduce_op_t op, unsigned flags, size_t n,
                          const void *got) {
  struct verdict v = {0, 0, ""};
  const gpureduce_type_t rt = result_type(t, op, flags);
  unsigned char want[8] = {0};
  if (op_is_arg(op)) {
    store_value(rt, 0, 0, want);
  } else if (op_is_extremum(op)) {
    bench_fill_ones_host(want, 1, t);
  } else {
    const uint64_t count = op == GPUREDUCE_PROD ? 1 : n;
    if (rt == GPUREDUCE_F32 && count > ((uint64_t)1 << 24)) {
      compare_bound(&v, rt, got, (double)count, (ceil_log2(count) + 8) * ldexp((double)count, -24),
                    "the sum of n ones, not exact in float past 2^24");
      return v;
    }
    store_value(rt, (double)count, count, want);
  }
  compare_bits(&v, rt, got, want, "all-ones input");
  return v;
}

/* Index of the extremum of a float array: the first NaN if any, else the
 * first smallest (largest); with signed_zero, -0 counts below +0. */
static size_t float_extremum(gpureduce_type_t t, const void *x, size_t n, int want_max,
                             int signed_zero, int *nan) {
  size_t best = 0;
  double b = load_float(t, x, 0);
  *nan = isnan(b);
  for (size_t i = 1; i < n && !*nan; ++i) {
    const double v = load_float(t, x, i);
    if (isnan(v)) {
      *nan = 1;
      best = i;
    } else if (want_max ? v > b : v < b) {
      best = i, b = v;
    } else if (signed_zero && v == b && v == 0 && signbit(v) != signbit(b) &&
               (want_max ? !signbit(v) : signbit(v) != 0)) {
      best = i, b = v;
    }
  }
  return best;
}

static size_t int_extremum(gpureduce_type_t t, const void *x, size_t n, int want_max) {
  size_t best = 0;
  for (size_t i = 1; i < n; ++i) {
    int better;
    if (type_is_signed(t)) {
      const int64_t a = load_signed(t, x, i), b = load_signed(t, x, best);
      better = want_max ? a > b : a < b;
    } else {
      const uint64_t a = load_unsigned(t, x, i), b = load_unsigned(t, x, best);
      better = want_max ? a > b : a < b;
    }
    if (better) best = i;
  }
  return best;
}

static void canonical_nan(gpureduce_type_t rt, void *bits) {
  static const uint64_t nan64 = 0x7fffffffffffffffull;
  static const uint32_t nan32 = 0x7fffffffu;
  static const uint16_t nan16 = 0x7fffu;
  memcpy(bits,
         rt == GPUREDUCE_F64   ? (const void *)&nan64
         : rt == GPUREDUCE_F32 ? (const void *)&nan32
                               : (const void *)&nan16,
         gpureduce_type_size(rt));
}

/* Min, max, argmin, argmax: the exact expected bits. */
static void oracle_extremum(gpureduce_type_t t, gpureduce_op_t op, const void *x, size_t n,
                            void *want) {
  const int want_max = op == GPUREDUCE_MAX || op == GPUREDUCE_ARGMAX;
  int nan = 0;
  const size_t i = type_is_float(t) ? float_extremum(t, x, n, want_max, !op_is_arg(op), &nan)
                                    : int_extremum(t, x, n, want_max);
  if (op_is_arg(op)) {
    const uint64_t idx = i;
    memcpy(want, &idx, sizeof idx);
  } else if (nan) {
    canonical_nan(t, want);
  } else {
    const size_t es = gpureduce_type_size(t);
    memcpy(want, (const unsigned char *)x + i * es, es);
  }
}

/* Integer sums, prod, sum_abs, sum_squares modulo 2^64: exact bits. */
static void oracle_int_sum(gpureduce_type_t t, gpureduce_op_t op, const void *x, size_t n,
                           void *want) {
  uint64_t acc = op == GPUREDUCE_PROD ? 1 : 0;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t v = load_unsigned(t, x, i);
    if (op == GPUREDUCE_PROD)
      acc *= v;
    else if (op == GPUREDUCE_SUM_SQUARES)
      acc += v * v;
    else if (op == GPUREDUCE_SUM_ABS && type_is_signed(t) && load_signed(t, x, i) < 0)
      acc -= v;
    else
      acc += v;
  }
  memcpy(want, &acc, sizeof acc);
}

/* Float sums: Neumaier-compensated double sum of the lifted elements and
 * the sum of their magnitudes; prod: a double product. */
static void oracle_float_sum(gpureduce_type_t t, gpureduce_op_t op, const void *x, size_t n,
                             double *value, double *magnitude) {
  double s = op == GPUREDUCE_PROD ? 1.0 : 0.0, c = 0.0, m = 0.0;
  for (size_t i = 0; i < n; ++i) {
    double v = load_float(t, x, i);
    if (op == GPUREDUCE_PROD) {
      s *= v;
      continue;
    }
    v = op == GPUREDUCE_SUM_ABS ? fabs(v) : op == GPUREDUCE_SUM_SQUARES ? v * v : v;
    const double u = s + v;
    c += fabs(s) >= fabs(v) ? (s - u) + v : (v - u) + s;
    s = u;
    m += fabs(v);
  }
  *value = s + c;
  *magnitude = m;
}

/*
 * Check got, the library's result over x[0 .. n-1], against an independent
 * oracle: exact for integers and for min, max, argmin, argmax; for float
 * sums |got - sum| <= (8V + 8 + ceil(log2 tiles) + 2) eps sum|x| (V elements
 * per 16-byte chunk, eps of the accumulator: the order's depth plus
 * margin); for float prod (n + 2) eps |prod| plus n underflow steps.
 */
struct verdict check_oracle(gpureduce_type_t t, gpureduce_op_t op, unsigned flags,
                            const void *x, size_t n, const void *got) {
  struct verdict v = {0, 0, ""};
  const gpureduce_type_t rt = result_type(t, op, flags);
  unsigned char want[8] = {0};
  if (op_is_arg(op) || op_is_extremum(op)) {
    oracle_extremum(t, op, x, n, want);
    compare_bits(&v, rt, got, want, "oracle");
    return v;
  }
  if (!type_is_float(t)) {
    oracle_int_sum(t, op, x, n, want);
    compare_bits(&v, rt, got, want, "oracle, modulo 2^64");
    return v;
  }
  double value, magnitude;
  oracle_float_sum(t, op, x, n, &value, &magnitude);
  const int f64 = rt == GPUREDUCE_F64;
  const double eps = f64 ? DBL_EPSILON : FLT_EPSILON, tiny = f64 ? 0x1p-1074 : 0x1p-149;
  double bound;
  if (op == GPUREDUCE_PROD) {
    bound = (double)(n + 2) * eps * fabs(value) + (double)n * tiny;
  } else {
    const size_t chunk = 16 / gpureduce_type_size(t);
    const uint64_t tiles =
        (n + GPUREDUCE_ORDER_TILE_CHUNKS * chunk - 1) / (GPUREDUCE_ORDER_TILE_CHUNKS * chunk);
    bound = (8.0 * chunk + 8 + ceil_log2(tiles) + 2) * eps * magnitude;
  }
  compare_bound(&v, rt, got, value, bound, "oracle bound");
  return v;
}
