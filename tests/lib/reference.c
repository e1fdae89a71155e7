/*
 * reference.c - see reference.h.  Written from gpureduce.h (the semantics
 * table and its rules) and doc/ORDER.md (the bracketing), never from src/,
 * so the tests check the library against the documents.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "reference.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "elements.h"
#include "math/exp_log.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "the order reference needs float arithmetic evaluated in float (FLT_EVAL_METHOD 0)"
#endif

/* ---- doc/ORDER.md ---------------------------------------------------------- */

#define ORDER_LANES 256u        /* rule 3: L = 256 */
#define ORDER_TILE_CHUNKS 2048u /* rule 2 */

/* One rounded operation each, out of line so that no compiler fuses a
 * product with an addition (doc/ORDER.md: no fused multiply-add). */
__attribute__((noinline)) static float mul_f(float a, float b) { return a * b; }
__attribute__((noinline)) static double mul_d(double a, double b) { return a * b; }
__attribute__((noinline)) static float add_f(float a, float b) { return a + b; }
__attribute__((noinline)) static double add_d(double a, double b) { return a + b; }

/* Rules 3-5 for one accumulator type; the identity is -0 for sums (exact:
 * -0 + x == x for every x) and 1 for the product. */
#define REF_ORDER(SUF, A)                                                            \
  static A op_##SUF(A a, A b, int prod) { return prod ? mul_##SUF(a, b) : add_##SUF(a, b); } \
  /* Rules 3 and 4: one tile of `count` elements. */                                 \
  static A tile_##SUF(const A *x, size_t count, unsigned v, int prod) {              \
    A lane[ORDER_LANES];                                                             \
    for (unsigned l = 0; l < ORDER_LANES; ++l) {                                     \
      lane[l] = prod ? (A)1 : (A)-0.0;                                               \
      /* chunks l, l+256, ..., l+1792, each chunk's elements in index order */       \
      for (unsigned c = l; c < ORDER_TILE_CHUNKS; c += ORDER_LANES)                  \
        for (unsigned j = 0; j < v; ++j) {                                           \
          const size_t i = (size_t)c * v + j;                                        \
          if (i < count) lane[l] = op_##SUF(lane[l], x[i], prod);                    \
        }                                                                            \
    }                                                                                \
    for (unsigned s = ORDER_LANES / 2; s >= 1; s /= 2)                               \
      for (unsigned l = 0; l < s; ++l) lane[l] = op_##SUF(lane[l], lane[l + s], prod); \
    return lane[0];                                                                  \
  }                                                                                  \
  /* Rule 5 over the tiles t0 .. t0+count-1: tree(0..T-1) = tree(0..P-1) op         \
   * tree(P..T-1), P the largest power of two below T.  A leaf is vals[t] when      \
   * the tile values are given, else tile t of the n lifted elements x. */         \
  static A tree_##SUF(const A *vals, const A *x, size_t n, unsigned v, size_t t0,    \
                      size_t count, int prod) {                                      \
    if (count == 1) {                                                                \
      if (vals) return vals[t0];                                                     \
      const size_t te = (size_t)ORDER_TILE_CHUNKS * v, left = n - t0 * te;           \
      return tile_##SUF(x + t0 * te, left < te ? left : te, v, prod);                \
    }                                                                                \
    size_t p = 1;                                                                    \
    while (p * 2 < count) p *= 2;                                                    \
    return op_##SUF(tree_##SUF(vals, x, n, v, t0, p, prod),                          \
                    tree_##SUF(vals, x, n, v, t0 + p, count - p, prod), prod);       \
  }
REF_ORDER(f, float)
REF_ORDER(d, double)

float ref_order_f(const float *lifted, size_t n, unsigned v, int prod) {
  if (n == 0) return prod ? 1.0f : 0.0f; /* rule 6: +0, not the identity -0 */
  const size_t te = (size_t)ORDER_TILE_CHUNKS * v;
  const float r = tree_f(NULL, lifted, n, v, 0, n / te + (n % te != 0), prod);
  return r != r ? tu_f32_of(0x7fffffffu) : r;
}

double ref_order_d(const double *lifted, size_t n, unsigned v, int prod) {
  if (n == 0) return prod ? 1.0 : 0.0;
  const size_t te = (size_t)ORDER_TILE_CHUNKS * v;
  const double r = tree_d(NULL, lifted, n, v, 0, n / te + (n % te != 0), prod);
  return r != r ? tu_f64_of(UINT64_C(0x7fffffffffffffff)) : r;
}

float ref_order_tile_f(const float *lifted, size_t count, unsigned v, int prod) {
  return tile_f(lifted, count, v, prod);
}

float ref_order_tree_f(const float *tile_values, size_t t, int prod) {
  return tree_f(tile_values, NULL, 0, 0, 0, t, prod);
}

void ref_lift_f(gpureduce_type_t type, gpureduce_op_t op, const void *x, size_t n, float *out) {
  const unsigned size = TU_TYPE(type)->size;
  for (size_t i = 0; i < n; ++i) {
    const float e = (float)tu_value(type, tu_load(x, i, size)); /* exact */
    out[i] = op == GPUREDUCE_SUM_ABS ? fabsf(e) : op == GPUREDUCE_SUM_SQUARES ? mul_f(e, e) : e;
  }
}

void ref_lift_d(gpureduce_type_t type, gpureduce_op_t op, const void *x, size_t n, double *out) {
  const unsigned size = TU_TYPE(type)->size;
  for (size_t i = 0; i < n; ++i) {
    const double e = tu_value(type, tu_load(x, i, size));
    out[i] = op == GPUREDUCE_SUM_ABS ? fabs(e) : op == GPUREDUCE_SUM_SQUARES ? mul_d(e, e) : e;
  }
}

/* ---- NRM2 and MEAN_VAR, from gpureduce.h ------------------------------------ */

__attribute__((noinline)) static float sub_f(float a, float b) { return a - b; }
__attribute__((noinline)) static double sub_d(double a, double b) { return a - b; }
__attribute__((noinline)) static float div_f(float a, float b) { return a / b; }
__attribute__((noinline)) static double div_d(double a, double b) { return a / b; }

/*
 * The accumulators of gpureduce.h: NRM2's three sums of scaled squares
 * (x = small, y = medium, z = big) and MEAN_VAR's {mean (x), M2 (y),
 * count}.  Blue's constants, as gpureduce.h gives them: float 2^-63,
 * 2^52, 2^75, 2^-76; double 2^-511, 2^486, 2^537, 2^-538.
 */
#define REF_MOMENTS(SUF, A, SQRT, NANV, TSML, TBIG, SSML, SBIG)                            \
  typedef struct { A x, y, z; uint64_t n; } macc_##SUF;                                  \
  static macc_##SUF mlift_##SUF(int mv, A v) {                                           \
    macc_##SUF r = {0, 0, 0, 1};                                                         \
    if (mv) {                                                                            \
      r.x = v;                                                                           \
      return r;                                                                          \
    }                                                                                    \
    const A a = v < 0 ? -v : v; /* |NaN| stays NaN: it is medium */                      \
    if (a > (TBIG)) r.z = mul_##SUF(mul_##SUF(a, (SBIG)), mul_##SUF(a, (SBIG)));         \
    else if (a < (TSML)) r.x = mul_##SUF(mul_##SUF(a, (SSML)), mul_##SUF(a, (SSML)));    \
    else r.y = mul_##SUF(a, a);                                                          \
    return r;                                                                            \
  }                                                                                      \
  static macc_##SUF mcomb_##SUF(int mv, macc_##SUF a, macc_##SUF b) {                    \
    macc_##SUF r;                                                                        \
    if (!mv) {                                                                           \
      r.x = add_##SUF(a.x, b.x);                                                         \
      r.y = add_##SUF(a.y, b.y);                                                         \
      r.z = add_##SUF(a.z, b.z);                                                         \
      r.n = a.n + b.n;                                                                   \
      return r;                                                                          \
    }                                                                                    \
    if (b.n == 0) return a;                                                              \
    if (a.n == 0) return b;                                                              \
    r.n = a.n + b.n;                                                                     \
    const A q = div_##SUF((A)b.n, (A)r.n), delta = sub_##SUF(b.x, a.x);                  \
    r.x = add_##SUF(a.x, mul_##SUF(delta, q));                                           \
    r.y = add_##SUF(add_##SUF(a.y, b.y),                                                 \
                    mul_##SUF(mul_##SUF(delta, delta), mul_##SUF((A)a.n, q)));           \
    r.z = 0;                                                                             \
    return r;                                                                            \
  }                                                                                      \
  /* Rules 3 and 4 over one tile of `count` converted elements. */                       \
  static macc_##SUF mtile_##SUF(int mv, const A *x, size_t count, unsigned v) {          \
    macc_##SUF lane[ORDER_LANES];                                                        \
    const macc_##SUF id = {0, 0, 0, 0};                                                  \
    for (unsigned l = 0; l < ORDER_LANES; ++l) {                                         \
      lane[l] = id;                                                                      \
      for (unsigned c = l; c < ORDER_TILE_CHUNKS; c += ORDER_LANES)                      \
        for (unsigned j = 0; j < v; ++j) {                                               \
          const size_t i = (size_t)c * v + j;                                            \
          if (i < count) lane[l] = mcomb_##SUF(mv, lane[l], mlift_##SUF(mv, x[i]));      \
        }                                                                                \
    }                                                                                    \
    for (unsigned s = ORDER_LANES / 2; s >= 1; s /= 2)                                   \
      for (unsigned l = 0; l < s; ++l) lane[l] = mcomb_##SUF(mv, lane[l], lane[l + s]);  \
    return lane[0];                                                                      \
  }                                                                                      \
  /* Rule 5 over tiles t0 .. t0+count-1 of the n converted elements x. */                \
  static macc_##SUF mtree_##SUF(int mv, const A *x, size_t n, unsigned v, size_t t0,     \
                                size_t count) {                                          \
    const size_t te = (size_t)ORDER_TILE_CHUNKS * v;                                     \
    if (count == 1) {                                                                    \
      const size_t left = n - t0 * te;                                                   \
      return mtile_##SUF(mv, x + t0 * te, left < te ? left : te, v);                     \
    }                                                                                    \
    size_t p = 1;                                                                        \
    while (p * 2 < count) p *= 2;                                                        \
    return mcomb_##SUF(mv, mtree_##SUF(mv, x, n, v, t0, p),                              \
                       mtree_##SUF(mv, x, n, v, t0 + p, count - p));                     \
  }                                                                                      \
  static A canon_##SUF(A r) { return r != r ? (NANV) : r; } /* the canonical NaN */      \
  /* The result's two values (NRM2: the norm, and 0). */                                 \
  static void mresult_##SUF(int mv, const A *x, size_t n, unsigned v, A out[2]) {        \
    if (n == 0) { /* only segments: {NaN, NaN}; NRM2 +0 */                               \
      out[0] = out[1] = mv ? (NANV) : 0;                                                 \
      return;                                                                            \
    }                                                                                    \
    const macc_##SUF a = mtree_##SUF(mv, x, n, v, 0, n / ((size_t)ORDER_TILE_CHUNKS * v) + \
                                     (n % ((size_t)ORDER_TILE_CHUNKS * v) != 0));        \
    if (mv) {                                                                            \
      out[0] = canon_##SUF(a.x);                                                         \
      out[1] = a.x != a.x ? (NANV) : canon_##SUF(div_##SUF(a.y, (A)a.n));                \
      return;                                                                            \
    }                                                                                    \
    A r;                                                                                 \
    const int med = a.y > 0 || a.y != a.y;                                               \
    if (a.z > 0) {                                                                       \
      A s = a.z;                                                                         \
      if (med) s = add_##SUF(s, mul_##SUF(mul_##SUF(a.y, (SBIG)), (SBIG)));              \
      r = mul_##SUF(SQRT(s), 1 / (SBIG));                                                \
    } else if (a.x > 0 && med) {                                                         \
      const A ym = SQRT(a.y), ys = mul_##SUF(SQRT(a.x), 1 / (SSML));                     \
      const A lo = ys > ym ? ym : ys, hi = ys > ym ? ys : ym, q = div_##SUF(lo, hi);     \
      r = SQRT(mul_##SUF(mul_##SUF(hi, hi), add_##SUF(1, mul_##SUF(q, q))));             \
    } else if (a.x > 0) {                                                                \
      r = mul_##SUF(SQRT(a.x), 1 / (SSML));                                              \
    } else {                                                                             \
      r = SQRT(a.y);                                                                     \
    }                                                                                    \
    out[0] = canon_##SUF(r);                                                             \
    out[1] = 0;                                                                          \
  }
REF_MOMENTS(f, float, sqrtf, tu_f32_of(0x7fffffffu), 0x1p-63f, 0x1p52f, 0x1p75f, 0x1p-76f)
REF_MOMENTS(d, double, sqrt, tu_f64_of(UINT64_C(0x7fffffffffffffff)), 0x1p-511, 0x1p486, 0x1p537, 0x1p-538)

/* Element i as a double: exact for floats, rounded to nearest for 64-bit
 * integers, as gpureduce.h converts them. */
static double moment_element(gpureduce_type_t type, const void *x, size_t i) {
  const tu_type *t = TU_TYPE(type);
  const uint64_t b = tu_load(x, i, t->size);
  if (t->is_float) return tu_value(type, b);
  const uint64_t w = tu_int_widen(type, b);
  return t->is_signed ? (double)(int64_t)w : (double)w;
}

double ref_mean_var_value(unsigned result_bytes, const uint64_t got[2], int k) {
  if (result_bytes == 8) return (double)tu_f32_of((uint32_t)(got[0] >> (k ? 32 : 0)));
  return tu_f64_of(got[k]);
}

/*
 * NRM2 and MEAN_VAR: the bits by the order, and the bounds of gpureduce.h.
 * d = 8V + 10 + ceil(log2 T) (the additions an element's term passes
 * through, as for the sums, and its square or update), u = 2^-24 or 2^-53:
 *   NRM2      |r - |x|| <= (d/2 + 8) u |x| + 4 * the smallest subnormal
 *   mean      |m - mean| <= 8 (d + 1) u max|x|
 *   variance  |v - var| <= 4 (d + 3) u var + 16 (d + 2) u sigma max|x|
 * (|x| the norm of the converted elements, sigma = sqrt(var)), plus the
 * long double reference's own n 2^-63 relative.
 */
static int moment_answer(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                         unsigned flags, struct ref_answer *out) {
  const int mv = op == GPUREDUCE_MEAN_VAR;
  const unsigned v = tu_chunk_elems(type);
  const int dbl = tu_moment_is_double(type, flags);
  double *e = malloc((n ? n : 1) * sizeof *e);
  if (!e) return -2;
  for (size_t i = 0; i < n; ++i) e[i] = moment_element(type, x, i);
  if (dbl) {
    double r[2];
    mresult_d(mv, e, n, v, r);
    out->bits = tu_f64_bits(r[0]);
    out->bits2 = mv ? tu_f64_bits(r[1]) : 0;
  } else {
    float *f = malloc((n ? n : 1) * sizeof *f);
    if (!f) {
      free(e);
      return -2;
    }
    for (size_t i = 0; i < n; ++i) f[i] = (float)e[i]; /* exact: f16, bf16, f32 */
    float r[2];
    mresult_f(mv, f, n, v, r);
    free(f);
    out->bits = tu_f32_bits(r[0]);
    if (mv) out->bits |= (uint64_t)tu_f32_bits(r[1]) << 32;
  }
  long double sq = 0, sum = 0, most = 0;
  for (size_t i = 0; i < n; ++i) {
    const long double a = fabsl((long double)e[i]);
    sq += a * a;
    sum += e[i];
    if (a > most) most = a;
  }
  const size_t tiles = tu_tiles(type, n);
  const double d = 8.0 * v + 10 + tu_ceil_log2(tiles ? tiles : 1);
  const double u = dbl ? 0x1p-53 : 0x1p-24, ref_err = (double)n * 0x1p-63;
  if (!mv) {
    out->exact = sqrtl(sq);
    out->has_bound = n > 0 && isfinite(out->exact);
    out->bound = (double)(((d / 2 + 8) * u + ref_err) * out->exact) + 4 * (dbl ? 0x1p-1074 : 0x1p-149);
  } else if (n > 0) {
    const long double mean = sum / n;
    long double dev = 0;
    for (size_t i = 0; i < n; ++i) dev += (e[i] - mean) * (e[i] - mean);
    const long double var = dev / n;
    out->exact = mean;
    out->exact2 = var;
    out->has_bound = out->has_bound2 = isfinite(mean) && isfinite(var) && isfinite(most);
    out->bound = (double)((8 * (d + 1) * u + ref_err) * most);
    out->bound2 = (double)((4 * (d + 3) * u + ref_err) * var + 16 * (d + 2) * u * sqrtl(var) * most);
  }
  free(e);
  return 0;
}

/* ---- plain loops ------------------------------------------------------------ */

/* The answer of an integer reduction, or of a floating MIN, MAX, ARGMIN or
 * ARGMAX, by the rules of gpureduce.h.  n > 0 for ARGMIN and ARGMAX. */
static uint64_t exact_answer(const void *x, size_t n, gpureduce_type_t type,
                             gpureduce_op_t op) {
  const tu_type *t = TU_TYPE(type);
  const int is_min = op == GPUREDUCE_MIN || op == GPUREDUCE_ARGMIN;
  const int is_arg = op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX;
  if (!t->is_float) {
    uint64_t acc = op == GPUREDUCE_PROD ? 1 : 0;
    switch (op) {
      case GPUREDUCE_SUM:
        for (size_t i = 0; i < n; ++i) acc += tu_int_widen(type, tu_load(x, i, t->size));
        return acc;
      case GPUREDUCE_PROD:
        for (size_t i = 0; i < n; ++i) acc *= tu_int_widen(type, tu_load(x, i, t->size));
        return acc;
      case GPUREDUCE_SUM_ABS:
        for (size_t i = 0; i < n; ++i) {
          uint64_t w = tu_int_widen(type, tu_load(x, i, t->size));
          if (t->is_signed && (int64_t)w < 0) w = 0 - w; /* |INT64_MIN| = 2^63 */
          acc += w;
        }
        return acc;
      case GPUREDUCE_SUM_SQUARES:
        for (size_t i = 0; i < n; ++i) {
          const uint64_t w = tu_int_widen(type, tu_load(x, i, t->size));
          acc += w * w;
        }
        return acc;
      default: break;
    }
    if (n == 0) return is_min ? tu_type_max(type) : tu_type_lowest(type);
    size_t best = 0;
    for (size_t i = 1; i < n; ++i) {
      const uint64_t a = tu_int_widen(type, tu_load(x, i, t->size));
      const uint64_t b = tu_int_widen(type, tu_load(x, best, t->size));
      int better;
      if (t->is_signed) better = is_min ? (int64_t)a < (int64_t)b : (int64_t)a > (int64_t)b;
      else better = is_min ? a < b : a > b;
      if (better) best = i; /* strict: ties keep the lowest index */
    }
    return is_arg ? (uint64_t)best : tu_load(x, best, t->size);
  }
  /* floating */
  if (n == 0) return is_min ? tu_pos_inf(type) : tu_neg_inf(type);
  for (size_t i = 0; i < n; ++i)
    if (tu_is_nan(type, tu_load(x, i, t->size)))
      return is_arg ? (uint64_t)i : tu_canonical_nan(t->size); /* the first NaN */
  size_t best = 0;
  double bv = tu_value(type, tu_load(x, 0, t->size));
  for (size_t i = 1; i < n; ++i) {
    const double v = tu_value(type, tu_load(x, i, t->size));
    int better;
    if (is_arg) {
      better = is_min ? v < bv : v > bv; /* -0 == +0: a tie, keep the lowest index */
    } else if (v == 0 && bv == 0) {
      better = is_min ? (signbit(v) && !signbit(bv)) : (!signbit(v) && signbit(bv));
    } else {
      better = is_min ? v < bv : v > bv;
    }
    if (better) {
      best = i;
      bv = v;
    }
  }
  return is_arg ? (uint64_t)best : tu_load(x, best, t->size);
}

/* AMAX by gpureduce.h's words: the largest |x|, compared as values (the
 * floats as doubles, exact), written as that element with its sign
 * cleared; any NaN: the canonical NaN; no element: +0 (integers 0).
 * Signed integers give |x| as the unsigned type of their width. */
static uint64_t amax_answer(const void *x, size_t n, gpureduce_type_t type) {
  const tu_type *t = TU_TYPE(type);
  const uint64_t sign = (uint64_t)1 << (8 * t->size - 1);
  uint64_t best = 0; /* +0's bits; integers 0 */
  if (t->is_float) {
    double bv = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t b = tu_load(x, i, t->size);
      if (tu_is_nan(type, b)) return tu_canonical_nan(t->size);
      const double a = fabs(tu_value(type, b));
      if (a > bv) bv = a, best = b & ~sign;
    }
    return best;
  }
  for (size_t i = 0; i < n; ++i) {
    uint64_t w = tu_int_widen(type, tu_load(x, i, t->size));
    if (t->is_signed && (int64_t)w < 0) w = 0 - w; /* |INT64_MIN| = 2^63 */
    if (w > best) best = w;
  }
  return best;
}

/* ---- LOGSUMEXP, from doc/ORDER.md -------------------------------------------- */

/*
 * The accumulator (m, s): the running maximum m (an element, held here in
 * double, exact for every floating type) and s in double.  E and L are the
 * library's exp and log of a double, F its float exp of a term
 * (math/exp_log.h, which has its own MPFR tests): they are part of the
 * specification, as IEEE's operations are.  lift(x) = (x, 1); combine as
 * doc/ORDER.md writes it; identity (-inf, 0).  F16, BF16 and F32 fold
 * each chunk whole (lse_chunk), F64 element by element.
 */
typedef struct { double m, s; } lacc;

/* The larger of two maxima that are not NaN, +0 above -0 as MAX orders them. */
static double lse_max(double a, double b) {
  if (a != b) return a > b ? a : b;
  return signbit(a) ? b : a;
}

static lacc lse_combine(lacc a, lacc b) {
  if (isnan(a.m) || isnan(b.m)) return (lacc){NAN, NAN};
  const double big = lse_max(a.m, b.m);
  const double ta = a.m == big ? a.s : mul_d(a.s, gr_exp(sub_d(a.m, big)));
  const double tb = b.m == big ? b.s : mul_d(b.s, gr_exp(sub_d(b.m, big)));
  return (lacc){big, add_d(ta, tb)};
}

/* doc/ORDER.md's chunk fold of a float type: the chunk's cnt elements
 * x[0 .. cnt-1] (cnt >= 1) of its v slots; c the largest (+0 above -0),
 * each term 1 where x == c, else F(x - c) with the difference rounded to
 * float; the v slots (+0 past cnt) summed in float, pairwise; then, with
 * a = (m, s), (c, s F2(m, c) + sum) where c > m, else (max(m, c), s + sum
 * F2(c, m)), F2 = gr_expf_diff, the products exact in double. */
static lacc lse_chunk(lacc a, const double *x, unsigned cnt, unsigned v) {
  float c = -INFINITY, t[8];
  if (isnan(a.m)) return a;
  for (unsigned j = 0; j < cnt; ++j) {
    if (isnan(x[j])) return (lacc){NAN, NAN};
    const float w = (float)x[j]; /* exact: an f16, bf16 or f32 element */
    c = (float)lse_max(c, w);
  }
  for (unsigned j = 0; j < v; ++j) {
    const float w = j < cnt ? (float)x[j] : 0.0f;
    if (j >= cnt) t[j] = 0.0f;
    else if (isinf(c)) t[j] = w == c ? 1.0f : 0.0f;
    else t[j] = gr_expf_term(w - c);
  }
  for (unsigned h = v / 2; h >= 1; h /= 2)
    for (unsigned j = 0; j < h; ++j) t[j] = t[2 * j] + t[2 * j + 1];
  const float m = (float)a.m; /* exact: a float type's maximum, or -inf */
  if (c > m) return (lacc){c, add_d(mul_d(a.s, gr_expf_diff(m, c)), t[0])};
  return (lacc){lse_max(m, c), add_d(a.s, mul_d(t[0], gr_expf_diff(c, m)))};
}

static lacc lse_tile(const double *x, size_t count, unsigned v) {
  lacc lane[ORDER_LANES];
  for (unsigned l = 0; l < ORDER_LANES; ++l) {
    lane[l] = (lacc){-INFINITY, 0};
    for (unsigned c = l; c < ORDER_TILE_CHUNKS; c += ORDER_LANES) {
      const size_t i0 = (size_t)c * v;
      if (v > 2 && i0 < count) { /* a float type (F64's chunks hold 2) */
        lane[l] = lse_chunk(lane[l], x + i0, (unsigned)(count - i0 < v ? count - i0 : v), v);
        continue;
      }
      for (unsigned j = 0; j < v; ++j) {
        const size_t i = i0 + j;
        if (i < count) lane[l] = lse_combine(lane[l], (lacc){x[i], 1});
      }
    }
  }
  for (unsigned s = ORDER_LANES / 2; s >= 1; s /= 2)
    for (unsigned l = 0; l < s; ++l) lane[l] = lse_combine(lane[l], lane[l + s]);
  return lane[0];
}

static lacc lse_tree(const double *x, size_t n, unsigned v, size_t t0, size_t count) {
  const size_t te = (size_t)ORDER_TILE_CHUNKS * v;
  if (count == 1) {
    const size_t left = n - t0 * te;
    return lse_tile(x + t0 * te, left < te ? left : te, v);
  }
  size_t p = 1;
  while (p * 2 < count) p *= 2;
  return lse_combine(lse_tree(x, n, v, t0, p), lse_tree(x, n, v, t0 + p, count - p));
}

double ref_logsumexp_bound(gpureduce_type_t type, size_t n, long double lse) {
  const size_t tiles = tu_tiles(type, n);
  const double d = 8.0 * tu_chunk_elems(type) + 8 + tu_ceil_log2(tiles ? tiles : 1);
  const double u = 0x1p-53, mag = (double)fabsl(lse);
  int ex = 0;
  frexp(mag, &ex);
  const double ulp =
      type == GPUREDUCE_F64 || mag == 0 ? 0 : ldexp(1.0, (ex > -125 ? ex : -125) - 24);
  /* the float terms of a chunk and the float scales of a lane's fold
   * (F16, BF16, F32): 23 2^-24 relative in s */
  const double terms = type == GPUREDUCE_F64 ? 0 : 23 * 0x1p-24;
  return ulp + terms + (753 * d + 2 * log((double)n + 1) + 4) * u + 2 * u * mag;
}

/* The bits of a double value in the result type (a float rounds once) */
static uint64_t lse_bits(int dbl, double r) {
  if (r != r) return tu_canonical_nan(dbl ? 8 : 4);
  return dbl ? tu_f64_bits(r) : tu_f32_bits((float)r);
}

/*
 * LOGSUMEXP: the bits by the order, and the bound of doc/ORDER.md against
 * the exact log-sum-exp, lse = M + log(sum exp(x - M)) in long double
 * (M the largest element), for a finite result:
 *     |result - lse| <= ulp_R(lse) + f + (753 d + 2 ln(n + 1) + 4) u + 2 u |lse|
 * with u = 2^-53, d = 8V + 8 + ceil(log2 T) as for SUM, ulp_R the spacing
 * of the result type at |lse| (0 for a double result, whose one rounding
 * is in the 2 u |lse|), f = 23 2^-24 for the float terms and scales of F16,
 * BF16 and F32 (0 for F64) (ref_logsumexp_bound), plus the long double
 * reference's own n 2^-62 |lse|.
 * With GPUREDUCE_SOFTMAX_STATS, {m, s rounded to the result type} (bits
 * and bits2 as MEAN_VAR's), and no bound: s is checked by its bits.
 */
static int lse_answer(const void *x, size_t n, gpureduce_type_t type, unsigned flags,
                      struct ref_answer *out) {
  const tu_type *t = TU_TYPE(type);
  const int dbl = type == GPUREDUCE_F64;
  const unsigned v = tu_chunk_elems(type);
  double *e = malloc((n ? n : 1) * sizeof *e);
  if (!e) return -2;
  for (size_t i = 0; i < n; ++i) e[i] = tu_value(type, tu_load(x, i, t->size));
  lacc a = {-INFINITY, 0};
  if (n) a = lse_tree(e, n, v, 0, tu_tiles(type, n));
  if (flags & GPUREDUCE_SOFTMAX_STATS) {
    const uint64_t m = lse_bits(dbl, a.m), sum = lse_bits(dbl, a.m != a.m ? NAN : a.s);
    out->bits = dbl ? m : m | sum << 32;
    out->bits2 = dbl ? sum : 0;
    free(e);
    return 0;
  }
  double r;
  if (a.m != a.m || isinf(a.m) || a.s == 1) r = a.m; /* one element x: x, -0 too */
  else r = add_d(a.m, gr_log(a.s));
  out->bits = lse_bits(dbl, r);
  long double big = -INFINITY, sum = 0;
  int nan = 0;
  for (size_t i = 0; i < n; ++i) {
    nan |= isnan(e[i]);
    if (e[i] > big) big = e[i];
  }
  if (!nan && isfinite(big)) {
    for (size_t i = 0; i < n; ++i) sum += expl((long double)e[i] - big);
    const long double lse = big + logl(sum);
    out->exact = lse;
    out->has_bound = 1;
    out->bound = ref_logsumexp_bound(type, n, lse) + (double)n * 0x1p-62 * fabsl(lse);
  }
  free(e);
  return 0;
}

/* ---- the answer ------------------------------------------------------------- */

double ref_result_value(unsigned result_bytes, uint64_t bits) {
  return result_bytes == 4 ? (double)tu_f32_of((uint32_t)bits) : tu_f64_of(bits);
}

/*
 * Error bound of a floating SUM, SUM_ABS or SUM_SQUARES: by doc/ORDER.md
 * each lifted element goes through at most 8V-1 additions in its lane, 8 in
 * the lane tree and ceil(log2 T) in the tile tree, so (Higham, recursive
 * summation) |result - sum| <= gamma_d * sum|lifted x| with
 * d = 8V + 7 + ceil(log2 T); we allow
 *     (8V + 8 + ceil(log2 T) + 2) * u * sum|lifted x|
 * with u = 2^-24 for float accumulation and 2^-53 for double (the +2
 * covers gamma's denominator), plus n * 2^-63 * sum|lifted x| for the long
 * double reference itself.  "lifted" is the element in the accumulator
 * type: |x| for SUM_ABS and x*x rounded to the accumulator for
 * SUM_SQUARES, as gpureduce.h specifies, so the reference squares exactly
 * as the library must.
 *
 * PROD: every one of the at most n-1 multiplications that are not by the
 * exact identity 1 rounds once, in any order, so
 *     |result - prod| <= gamma_n * |prod|,  gamma_n = n u / (1 - n u),
 * plus the long double reference's own n * 2^-63 * |prod|.
 */
int ref_answer(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
               unsigned flags, struct ref_answer *out) {
  memset(out, 0, sizeof *out);
  const size_t rs = tu_result_size(type, op, flags);
  if (!rs || (flags & GPUREDUCE_WITH_VALUE)) return -1; /* the flag: ref_with_value */
  if ((op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX) && n == 0) return -1;
  out->result_bytes = (unsigned)rs;
  const tu_type *t = TU_TYPE(type);
  if (tu_is_moment(op)) return moment_answer(x, n, type, op, flags, out);
  if (op == GPUREDUCE_LOGSUMEXP) return lse_answer(x, n, type, flags, out);
  if (op == GPUREDUCE_AMAX) {
    out->bits = amax_answer(x, n, type);
    return 0;
  }
  if (!t->is_float || !tu_is_sum_like(op)) {
    out->bits = exact_answer(x, n, type, op);
    return 0;
  }
  const unsigned v = tu_chunk_elems(type);
  const int prod = op == GPUREDUCE_PROD;
  long double s = prod ? 1.0L : 0.0L, a = 0.0L;
  double u;
  if (tu_acc_is_double(type, flags)) {
    double *l = malloc((n ? n : 1) * sizeof *l);
    if (!l) return -2;
    ref_lift_d(type, op, x, n, l);
    out->bits = tu_f64_bits(ref_order_d(l, n, v, prod));
    for (size_t i = 0; i < n; ++i) {
      s = prod ? s * l[i] : s + l[i];
      a += fabsl((long double)l[i]);
    }
    free(l);
    u = 0x1p-53;
  } else {
    float *l = malloc((n ? n : 1) * sizeof *l);
    if (!l) return -2;
    ref_lift_f(type, op, x, n, l);
    out->bits = tu_f32_bits(ref_order_f(l, n, v, prod));
    for (size_t i = 0; i < n; ++i) {
      s = prod ? s * l[i] : s + l[i];
      a += fabsl((long double)l[i]);
    }
    free(l);
    u = 0x1p-24;
  }
  out->exact = s;
  out->has_bound = isfinite(s) && isfinite(a);
  const double ref_err = (double)n * 0x1p-63;
  if (prod) {
    const double nu = (double)n * u;
    out->bound = nu < 1 ? (double)((nu / (1 - nu) + ref_err) * fabsl(s)) : INFINITY;
  } else {
    const size_t tiles = tu_tiles(type, n);
    const double depth = 8.0 * v + 8 + tu_ceil_log2(tiles ? tiles : 1) + 2;
    out->bound = (double)((depth * u + ref_err) * a);
  }
  return 0;
}

/*
 * GPUREDUCE_WITH_VALUE, from gpureduce.h: the index exactly as without the
 * flag (this file's ARGMIN/ARGMAX loop), then the element at it as MIN or
 * MAX writes it, which is MIN of that one element (the canonical NaN for
 * a NaN, a zero with its sign), zeros to 16 bytes.  No element: the empty
 * segment's result, GPUREDUCE_NO_INDEX and the n == 0 value of MIN (for
 * ARGMIN) or MAX (for ARGMAX).
 */
int ref_with_value(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                   unsigned char out[16]) {
  if ((unsigned)type >= GPUREDUCE_TYPE_COUNT ||
      (op != GPUREDUCE_ARGMIN && op != GPUREDUCE_ARGMAX))
    return -1;
  const unsigned size = TU_TYPE(type)->size;
  const int is_min = op == GPUREDUCE_ARGMIN;
  uint64_t index, value;
  if (n == 0) {
    index = GPUREDUCE_NO_INDEX;
    value = exact_answer(NULL, 0, type, is_min ? GPUREDUCE_MIN : GPUREDUCE_MAX);
  } else {
    index = exact_answer(x, n, type, op);
    value = exact_answer((const unsigned char *)x + index * size, 1, type, GPUREDUCE_MIN);
  }
  memset(out, 0, 16);
  tu_store(out, 0, 8, index);
  tu_store(out + 8, 0, size, value);
  return 0;
}

/*
 * The dot product (gpureduce.h's gpureduce_dot()): lift(i) = x[i]*y[i],
 * rounded once to SUM's accumulator (mul_f or mul_d: the product of two
 * f16, bf16 or, in double, f32 elements is exact unless it overflows or
 * underflows), then the order of doc/ORDER.md with V of the element type.
 * The bound: the sum's, over the rounded products p[i], plus the rounding
 * of each product, u * sum |x[i] y[i]| (the long double sum of the exact
 * products is the reference value), plus, for products that round to a
 * subnormal, half the smallest subnormal each (an absolute error; additions
 * of subnormals are exact):
 *     (8V + 8 + ceil(log2 T) + 3) * u * sum |x[i] y[i]| + n 2^-63 sum |...|
 *     + n * 2^-150 (float accumulator) or n * 2^-1074 (double: the
 *     smallest subnormal, as half of it is not a double).
 */
int ref_dot(const void *x, const void *y, size_t n, gpureduce_type_t type, unsigned flags,
            struct ref_answer *out) {
  memset(out, 0, sizeof *out);
  const size_t rs = tu_result_size(type, GPUREDUCE_SUM, flags);
  if (!rs) return -1;
  out->result_bytes = (unsigned)rs;
  const tu_type *t = TU_TYPE(type);
  if (!t->is_float) {
    uint64_t acc = 0;
    for (size_t i = 0; i < n; ++i)
      acc += tu_int_widen(type, tu_load(x, i, t->size)) * tu_int_widen(type, tu_load(y, i, t->size));
    out->bits = acc;
    return 0;
  }
  const unsigned v = tu_chunk_elems(type);
  long double s = 0.0L, a = 0.0L;
  double u;
  if (tu_acc_is_double(type, flags)) {
    double *l = malloc((n ? n : 1) * sizeof *l);
    if (!l) return -2;
    for (size_t i = 0; i < n; ++i)
      l[i] = mul_d(tu_value(type, tu_load(x, i, t->size)), tu_value(type, tu_load(y, i, t->size)));
    out->bits = tu_f64_bits(ref_order_d(l, n, v, 0));
    free(l);
    u = 0x1p-53;
  } else {
    float *l = malloc((n ? n : 1) * sizeof *l);
    if (!l) return -2;
    for (size_t i = 0; i < n; ++i)
      l[i] = mul_f((float)tu_value(type, tu_load(x, i, t->size)),
                   (float)tu_value(type, tu_load(y, i, t->size)));
    out->bits = tu_f32_bits(ref_order_f(l, n, v, 0));
    free(l);
    u = 0x1p-24;
  }
  for (size_t i = 0; i < n; ++i) {
    const long double p = (long double)tu_value(type, tu_load(x, i, t->size)) *
                          (long double)tu_value(type, tu_load(y, i, t->size));
    s += p;
    a += fabsl(p);
  }
  out->exact = s;
  out->has_bound = isfinite(s) && isfinite(a) && (double)a <= (rs == 4 ? FLT_MAX : DBL_MAX);
  const size_t tiles = tu_tiles(type, n);
  const double depth = 8.0 * v + 8 + tu_ceil_log2(tiles ? tiles : 1) + 3;
  out->bound = (double)((depth * u + (double)n * 0x1p-63) * a) +
               (double)n * (rs == 4 ? 0x1p-150 : 0x1p-1074);
  return 0;
}
