/*
 * checks.c - what a result of reduce-bench must be (see checks.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * Element types, their values and patterns come from the tests'
 * tests/lib/elements.h, the expected results from tests/lib/reference.h.
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

#include "elements.h"
#include "reference.h"

#include "bench.h"
#include "checks.h"

/* ---- results ---------------------------------------------------------------- */

int op_is_arg(gpureduce_op_t op) { return op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX; }

/* MIN, MAX, AMAX: exact, one of the elements (or its magnitude) */
static int op_is_extremum(gpureduce_op_t op) {
  return op == GPUREDUCE_MIN || op == GPUREDUCE_MAX || op == GPUREDUCE_AMAX;
}

/* The type a result is printed as: an index, the element, the magnitude
 * (amax: the unsigned type of a signed integer's width), or the
 * accumulator (f32 or f64; i64 or u64); a mean_var result is two values
 * of it. */
static gpureduce_type_t result_type(gpureduce_type_t t, gpureduce_op_t op, unsigned flags) {
  if (op_is_arg(op)) return GPUREDUCE_U64;
  if (op == GPUREDUCE_AMAX)
    return t == GPUREDUCE_I8    ? GPUREDUCE_U8
           : t == GPUREDUCE_I32 ? GPUREDUCE_U32
           : t == GPUREDUCE_I64 ? GPUREDUCE_U64
                                : t;
  if (op_is_extremum(op)) return t;
  if (tu_is_moment(op)) return tu_moment_is_double(t, flags) ? GPUREDUCE_F64 : GPUREDUCE_F32;
  if (TU_TYPE(t)->is_float) return tu_acc_is_double(t, flags) ? GPUREDUCE_F64 : GPUREDUCE_F32;
  return TU_TYPE(t)->is_signed ? GPUREDUCE_I64 : GPUREDUCE_U64;
}

/* The bits of a result (its value k, 1 for a mean_var's variance) of type
 * rt in host memory. */
static uint64_t result_bits(gpureduce_type_t rt, const void *p) {
  return tu_load(p, 0, TU_TYPE(rt)->size);
}
static uint64_t value_bits(gpureduce_type_t rt, const void *p, int k) {
  return tu_load(p, (size_t)k, TU_TYPE(rt)->size);
}
/* How many values of rt a result of (op) holds: 2 for mean_var. */
static int values_of(gpureduce_op_t op) { return op == GPUREDUCE_MEAN_VAR ? 2 : 1; }

static void format_value(gpureduce_type_t rt, const void *p, char *buf, size_t size) {
  const tu_type *t = TU_TYPE(rt);
  const uint64_t bits = result_bits(rt, p);
  if (t->is_float && t->size == 2)
    snprintf(buf, size, "0x%04x (%.9g)", (unsigned)bits, tu_value(rt, bits));
  else if (t->is_float)
    snprintf(buf, size, "%.17g", tu_value(rt, bits));
  else if (t->is_signed)
    snprintf(buf, size, "%lld", (long long)tu_int_widen(rt, bits));
  else
    snprintf(buf, size, "%llu", (unsigned long long)bits);
}

/* A result of `values` values of rt: one, or {mean, variance}. */
static void format_result(gpureduce_type_t rt, int values, const void *p, char *buf,
                          size_t size) {
  format_value(rt, p, buf, size);
  if (values < 2) return;
  char second[64];
  format_value(rt, (const char *)p + TU_TYPE(rt)->size, second, sizeof second);
  const size_t len = strlen(buf);
  snprintf(buf + len, size - len, ", %s", second);
}

/* ---- checks --------------------------------------------------------------- */

static void verdict_wrong(struct verdict *v, gpureduce_type_t rt, int values, const void *got,
                          const char *fmt, ...) PRINTF_LIKE(5, 6);
static void verdict_wrong(struct verdict *v, gpureduce_type_t rt, int values, const void *got,
                          const char *fmt, ...) {
  char value[96], why[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  format_result(rt, values, got, value, sizeof value);
  v->wrong = 1;
  snprintf(v->detail, sizeof v->detail, "result %s, %s", value, why);
}

static void compare_bits(struct verdict *v, gpureduce_type_t rt, int values, const void *got,
                         const void *want, const char *what) {
  char value[96];
  v->exact = 1;
  if (memcmp(got, want, (size_t)values * TU_TYPE(rt)->size) == 0) return;
  format_result(rt, values, want, value, sizeof value);
  verdict_wrong(v, rt, values, got, "expected %s (%s)", value, what);
}

/* ---- GPUREDUCE_WITH_VALUE's 16 bytes ------------------------------------------ */

static int is_value_result(gpureduce_op_t op, unsigned flags) {
  return op_is_arg(op) && (flags & GPUREDUCE_WITH_VALUE);
}

/* The tests' ref_with_value over x[0 .. n-1]. */
static void reference_value_result(const void *x, size_t n, gpureduce_type_t t,
                                   gpureduce_op_t op, unsigned char out[RESULT_MAX]) {
  if (ref_with_value(x, n, t, op, out) != 0)
    fatal(EXIT_WRONG, "internal error: the tests' reference has no value result for %s %s",
          gpureduce_type_name(t), gpureduce_op_name(op));
}

void value_result_of(gpureduce_type_t t, gpureduce_op_t op, uint64_t index, const void *element,
                     unsigned char out[RESULT_MAX]) {
  reference_value_result(element, element ? 1 : 0, t, op, out);
  if (element) tu_store(out, 0, 8, index);
}

/* "index 5, value 0x3c00 (1)"; the bytes after the value only when they
 * are not zeros. */
static void format_value_result(gpureduce_type_t t, const unsigned char *p, char *buf,
                                size_t size) {
  char value[64];
  int after = 0;
  for (unsigned i = 8 + TU_TYPE(t)->size; i < RESULT_MAX; ++i) after |= p[i];
  format_value(t, p + 8, value, sizeof value);
  snprintf(buf, size, "index %llu, value %s%s", (unsigned long long)tu_load(p, 0, 8), value,
           after ? ", bytes after it not zero" : "");
}

static void compare_value_result(struct verdict *v, gpureduce_type_t t, const void *got,
                                 const void *want, const char *what) {
  const unsigned char *g = got, *w = want;
  char gs[112], ws[112];
  v->exact = 1;
  const int index_same = memcmp(g, w, 8) == 0, value_same = memcmp(g + 8, w + 8, 8) == 0;
  if (index_same && value_same) return;
  format_value_result(t, g, gs, sizeof gs);
  format_value_result(t, w, ws, sizeof ws);
  v->wrong = 1;
  snprintf(v->detail, sizeof v->detail, "result %s, expected %s (%s; the %s)", gs, ws, what,
           !index_same && !value_same ? "index and the value differ"
           : index_same               ? "value differs"
                                      : "index differs");
}

/* compare_bits of a result of (t, op, flags): the value results whole. */
static void compare_result(struct verdict *v, gpureduce_type_t t, gpureduce_op_t op,
                           unsigned flags, const void *got, const void *want, const char *what) {
  if (is_value_result(op, flags))
    compare_value_result(v, t, got, want, what);
  else
    compare_bits(v, result_type(t, op, flags), values_of(op), got, want, what);
}

/* Value k of got (rt a floating type) within bound of want. */
static void compare_bound(struct verdict *v, gpureduce_type_t rt, int values, const void *got,
                          int k, double want, double bound, const char *what) {
  const double r = tu_value(rt, value_bits(rt, got, k));
  if (fabs(r - want) <= bound) return;
  verdict_wrong(v, rt, values, got, "expected %s%.17g within %.3g (%s)",
                values > 1 ? (k ? "variance " : "mean ") : "", want, bound, what);
}

struct verdict check_same(gpureduce_type_t t, gpureduce_op_t op, unsigned flags,
                          const void *got, const void *want, const char *what) {
  struct verdict v = {0, 0, ""};
  compare_result(&v, t, op, flags, got, want, what);
  return v;
}

struct verdict check_close(gpureduce_type_t t, gpureduce_op_t op, unsigned flags, size_t n,
                           const void *got, const void *want, const char *what) {
  struct verdict v = {0, 0, ""};
  const gpureduce_type_t rt = result_type(t, op, flags);
  if (op_is_arg(op) || op_is_extremum(op) || !TU_TYPE(rt)->is_float) {
    compare_result(&v, t, op, flags, got, want, what);
    return v;
  }
  const double w = tu_value(rt, result_bits(rt, want));
  const double tiny = rt == GPUREDUCE_F64 ? DBL_MIN : FLT_MIN;
  const double bound = op == GPUREDUCE_PROD || op == GPUREDUCE_NRM2
                           ? 1e-3 * fabs(w) + tiny
                           : 1e-3 * fmax(fabs(w), sqrt((double)n));
  compare_bound(&v, rt, 1, got, 0, w, bound, what);
  return v;
}

struct verdict check_near_f32(float got, double want, double bound, const char *what) {
  struct verdict v = {0, 0, ""};
  compare_bound(&v, GPUREDUCE_F32, 1, &got, 0, want, bound, what);
  return v;
}

struct verdict check_ones(size_t n, float got) {
  struct verdict v = {0, 1, ""};
  if (n > ((size_t)1 << 24)) {
    v.exact = 0;
    compare_bound(&v, GPUREDUCE_F32, 1, &got, 0, (double)n,
                  (ceil_log2(n) + 8) * ldexp((double)n, -24),
                  "the sum of n ones, not exact in float past 2^24");
  } else if (got != (float)n) {
    verdict_wrong(&v, GPUREDUCE_F32, 1, &got, "expected %zu (all-ones input)", n);
  }
  return v;
}

/* check_reference, with (bound) or without the error bound. */
static struct verdict against_reference(gpureduce_type_t t, gpureduce_op_t op, unsigned flags,
                                        const void *x, size_t n, const void *got, int bound) {
  struct verdict v = {0, 0, ""};
  struct ref_answer ref;
  if (is_value_result(op, flags)) {
    RESULT_BUFFER(want);
    reference_value_result(x, n, t, op, want);
    compare_value_result(&v, t, got, want, "the tests' reference");
    return v;
  }
  const int r = ref_answer(x, n, t, op, flags, &ref);
  if (r == -2) fatal(EXIT_WRONG, "out of host memory (the tests' reference, n = %zu)", n);
  if (r != 0)
    fatal(EXIT_WRONG, "internal error: the tests' reference has no answer for %s %s, n = %zu",
          gpureduce_type_name(t), gpureduce_op_name(op), n);
  const gpureduce_type_t rt = result_type(t, op, flags);
  const int values = values_of(op);
  for (int k = 0; bound && k < (ref.has_bound2 ? 2 : ref.has_bound ? 1 : 0); ++k) {
    const double value = tu_value(rt, value_bits(rt, got, k));
    const long double exact = k ? ref.exact2 : ref.exact;
    const double bound = k ? ref.bound2 : ref.bound;
    if (!(fabsl((long double)value - exact) <= bound)) {
      verdict_wrong(&v, rt, values, got,
                    "expected %s%.17Lg within %.3g (the tests' reference, its bound)",
                    values > 1 ? (k ? "variance " : "mean ") : "", exact, bound);
      return v;
    }
  }
  unsigned char want[16] = {0};
  memcpy(want, &ref.bits, 8); /* little-endian: the result's first bytes */
  memcpy(want + 8, &ref.bits2, 8);
  compare_bits(&v, rt, values, got, want, "the tests' reference");
  return v;
}

struct verdict check_reference(gpureduce_type_t t, gpureduce_op_t op, unsigned flags,
                               const void *x, size_t n, const void *got) {
  return against_reference(t, op, flags, x, n, got, 1);
}

struct verdict check_reference_bits(gpureduce_type_t t, gpureduce_op_t op, unsigned flags,
                                    const void *x, size_t n, const void *got) {
  return against_reference(t, op, flags, x, n, got, 0);
}
