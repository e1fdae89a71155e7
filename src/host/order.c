/*
 * host/order.c - the host backend's reductions: every (op, type) over host
 * arrays at any stride, in the order of doc/ORDER.md, so floating-point
 * results are bitwise those of the CUDA kernels.  host/host.c runs them
 * for each call.
 *
 * This file is an independent implementation of the order, written from
 * the document rather than from the kernel: tests compare the two bit for
 * bit, which checks both against the text.  Groups of tiles run in
 * parallel with OpenMP when configure found it; the grouping never changes
 * the bits (each group is a subtree of the order's tile tree).
 *
 * The arithmetic must be IEEE single and double rounding with no
 * contraction: configure compiles the library with -ffp-contract=off, and
 * x86-64 evaluates float in float (FLT_EVAL_METHOD 0).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/host.h"
#include "math/exp_log.h"
#include "order/order.h"
#include "order/tree.h"

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#error "the host backend needs FLT_EVAL_METHOD == 0 (SSE arithmetic on x86)"
#endif

#ifdef _OPENMP
#define GR_OMP_GROUPS \
  _Pragma("omp parallel for schedule(dynamic, 1) if (plan.tiles >= GR_HOST_PARALLEL_TILES)")
#else
#define GR_OMP_GROUPS
#endif

/* The tile function of each operation is compiled twice, for stride 1
 * and for any stride (GR_HOST_FN). */
#if defined(__GNUC__)
#define GR_ALWAYS_INLINE inline __attribute__((always_inline))
#define GR_UNUSED __attribute__((unused))
#else
#define GR_ALWAYS_INLINE inline
#define GR_UNUSED
#endif

/* ---- element readers ------------------------------------------------------ */

static inline float f16_to_f32(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu, bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13); /* inf, NaN */
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else { /* subnormal: normalize */
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while (!(mant & 0x400u));
    bits = sign | ((uint32_t)(112 - e) << 23) | ((mant & 0x3ffu) << 13);
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* Nearest binary16 of f; only called with values that came from a
 * binary16 element (MIN, MAX), where it is exact. */
static inline uint16_t f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  const uint32_t exp = (x >> 23) & 0xffu, mant = x & 0x7fffffu;
  if (exp == 0xff) return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0u));
  const int e = (int)exp - 112; /* binary16 biased exponent */
  if (e >= 0x1f) return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) { /* subnormal or zero */
    if (e < -10) return sign;
    const uint32_t m = mant | 0x800000u;
    const int shift = 14 - e;
    uint32_t r = m >> shift;
    const uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1))) ++r;
    return (uint16_t)(sign | r);
  }
  uint32_t r = ((uint32_t)e << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (r & 1))) ++r;
  return (uint16_t)(sign | r);
}

static inline float bf16_to_f32(uint16_t b) {
  const uint32_t bits = (uint32_t)b << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static inline uint16_t f32_to_bf16_exact(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return (uint16_t)(bits >> 16);
}

#define RD_F16(v) f16_to_f32(v)
#define RD_BF16(v) bf16_to_f32(v)
#define RD_SAME(v) (v)
#define RD_I64(v) ((int64_t)(v))
#define RD_U64(v) ((uint64_t)(v))

/* ---- accumulators and their operations ------------------------------------ */

typedef struct { float v; uint64_t i; } pair_float;
typedef struct { double v; uint64_t i; } pair_double;
typedef struct { int64_t v; uint64_t i; } pair_int64_t;
typedef struct { uint64_t v; uint64_t i; } pair_uint64_t;

static inline float canon_float(float x) {
  if (x != x) {
    const uint32_t bits = 0x7fffffffu;
    memcpy(&x, &bits, sizeof x);
  }
  return x;
}
static inline double canon_double(double x) {
  if (x != x) {
    const uint64_t bits = 0x7fffffffffffffffull;
    memcpy(&x, &bits, sizeof x);
  }
  return x;
}

#define GR_FLOAT_OPS(A)                                                      \
  static inline A add_##A(A a, A b) { return a + b; }                        \
  static inline A mul_##A(A a, A b) { return a * b; }                        \
  /* NaN wins; -0 below +0; the result is one of a, b */                     \
  static inline A min_##A(A a, A b) {                                        \
    if (a != a) return a;                                                    \
    if (b != b) return b;                                                    \
    if (a == b) return signbit(a) ? a : b;                                   \
    return a < b ? a : b;                                                    \
  }                                                                          \
  static inline A max_##A(A a, A b) {                                        \
    if (a != a) return a;                                                    \
    if (b != b) return b;                                                    \
    if (a == b) return signbit(a) ? b : a;                                   \
    return a > b ? a : b;                                                    \
  }                                                                          \
  /* first NaN wins; better value wins; ties to the lower index */           \
  static inline pair_##A argmin_##A(pair_##A a, pair_##A b) {                \
    const int an = a.v != a.v, bn = b.v != b.v;                              \
    if (an || bn) return (an && bn) ? (a.i < b.i ? a : b) : (an ? a : b);    \
    if (a.v < b.v) return a;                                                 \
    if (b.v < a.v) return b;                                                 \
    return a.i < b.i ? a : b;                                                \
  }                                                                          \
  static inline pair_##A argmax_##A(pair_##A a, pair_##A b) {                \
    const int an = a.v != a.v, bn = b.v != b.v;                              \
    if (an || bn) return (an && bn) ? (a.i < b.i ? a : b) : (an ? a : b);    \
    if (a.v > b.v) return a;                                                 \
    if (b.v > a.v) return b;                                                 \
    return a.i < b.i ? a : b;                                                \
  }
GR_FLOAT_OPS(float)
GR_FLOAT_OPS(double)

#define GR_INT_OPS(A)                                                        \
  static inline A min_##A(A a, A b) { return a < b ? a : b; }                \
  static inline A max_##A(A a, A b) { return a > b ? a : b; }                \
  static inline pair_##A argmin_##A(pair_##A a, pair_##A b) {                \
    if (a.v != b.v) return a.v < b.v ? a : b;                                \
    return a.i < b.i ? a : b;                                                \
  }                                                                          \
  static inline pair_##A argmax_##A(pair_##A a, pair_##A b) {                \
    if (a.v != b.v) return a.v > b.v ? a : b;                                \
    return a.i < b.i ? a : b;                                                \
  }
GR_INT_OPS(int64_t)
GR_INT_OPS(uint64_t)
static inline uint64_t add_uint64_t(uint64_t a, uint64_t b) { return a + b; }
static inline uint64_t mul_uint64_t(uint64_t a, uint64_t b) { return a * b; }
/* AMAX's combine: the larger magnitude, as unsigned integers (cuda/thread/ops.cuh's
 * Amax) */
static inline uint32_t amax_uint32_t(uint32_t a, uint32_t b) { return a > b ? a : b; }
static inline uint64_t amax_uint64_t(uint64_t a, uint64_t b) { return a > b ? a : b; }

/*
 * NRM2 and MEAN_VAR, twins of cuda/thread/ops.cuh's Nrm2 and MeanVar, the same
 * rounded operations in the same order (the operations and their sources
 * are documented there and in gpureduce.h).
 *
 * Blue's constants (reference LAPACK 3.10 dnrm2.f90) from <float.h>:
 * tsml = 2^ceil((minexp - 1) / 2), tbig = 2^floor((maxexp - digits + 1) / 2),
 * ssml = 2^-floor((minexp - digits) / 2), sbig = 2^-ceil((maxexp + digits -
 * 1) / 2); the assertions check the literals against the formulas.
 */
#define GR_BLUE_ASSERT(P, E_TSML, E_TBIG, E_SSML, E_SBIG)                               \
  _Static_assert((P##_MIN_EXP - 1) / 2 == (E_TSML) &&                                    \
                     (P##_MAX_EXP - P##_MANT_DIG + 1) / 2 == (E_TBIG) &&                 \
                     (P##_MANT_DIG - P##_MIN_EXP + 1) / 2 == (E_SSML) &&                 \
                     -((P##_MAX_EXP + P##_MANT_DIG) / 2) == (E_SBIG),                    \
                 "Blue's constants of " #P)
GR_BLUE_ASSERT(FLT, -63, 52, 75, -76);
GR_BLUE_ASSERT(DBL, -511, 486, 537, -538);
#define BLUE_float 0x1p-63f, 0x1p52f, 0x1p75f, 0x1p-76f, 0x1p-75f, 0x1p76f
#define BLUE_double 0x1p-511, 0x1p486, 0x1p537, 0x1p-538, 0x1p-537, 0x1p538

/* One of the three classes' sums of scaled squares, and the moments of a
 * part: its mean, its sum of squared deviations and its count. */
typedef struct { float sml, med, big; } nrm2_float;
typedef struct { double sml, med, big; } nrm2_double;
typedef struct { float mean, m2; uint64_t n; } mv_float;
typedef struct { double mean, m2; uint64_t n; } mv_double;
typedef struct { float mean, var; } mv_out_float;
typedef struct { double mean, var; } mv_out_double;

#define GR_MOMENT_OPS(A, SQRT, FABS)                                                      \
  static inline nrm2_##A nrm2_lift_##A(A x) {                                            \
    static const A c[6] = {BLUE_##A}; /* tsml, tbig, ssml, sbig, 1/ssml, 1/sbig */       \
    const A a = FABS(x);                                                                 \
    const int big = a > c[1], sml = a < c[0];                                            \
    const A y = a * (big ? c[3] : sml ? c[2] : (A)1), q = y * y;                         \
    return (nrm2_##A){sml ? q : (A)0, big || sml ? (A)0 : q, big ? q : (A)0};            \
  }                                                                                      \
  static inline nrm2_##A nrm2_comb_##A(nrm2_##A a, nrm2_##A b) {                         \
    return (nrm2_##A){a.sml + b.sml, a.med + b.med, a.big + b.big};                      \
  }                                                                                      \
  static inline A nrm2_fin_##A(nrm2_##A a) {                                             \
    static const A c[6] = {BLUE_##A};                                                    \
    A r;                                                                                 \
    if (a.big > 0) {                                                                     \
      A s = a.big;                                                                       \
      if (a.med > 0 || a.med != a.med) s = s + (a.med * c[3]) * c[3];                    \
      r = SQRT(s) * c[5];                                                                \
    } else if (a.sml > 0) {                                                              \
      if (a.med > 0 || a.med != a.med) {                                                 \
        const A am = SQRT(a.med), as = SQRT(a.sml) * c[4];                               \
        const A ymin = as > am ? am : as, ymax = as > am ? as : am;                      \
        const A q = ymin / ymax;                                                         \
        r = SQRT((ymax * ymax) * ((A)1 + q * q));                                        \
      } else {                                                                           \
        r = SQRT(a.sml) * c[4];                                                          \
      }                                                                                  \
    } else {                                                                             \
      r = SQRT(a.med);                                                                   \
    }                                                                                    \
    return canon_##A(r);                                                                 \
  }                                                                                      \
  /* Chan, Golub and LeVeque: delta = mb - ma, r = nb / n, mean = ma +                   \
   * delta r, M2 = (M2a + M2b) + (delta delta)(na r) */                                  \
  static inline mv_##A mv_comb_##A(mv_##A a, mv_##A b) {                                 \
    if (b.n == 0) return a;                                                              \
    if (a.n == 0) return b;                                                              \
    const uint64_t n = a.n + b.n;                                                        \
    const A r = (A)b.n / (A)n, delta = b.mean - a.mean;                                  \
    const A w = (A)a.n * r;                                                              \
    return (mv_##A){a.mean + delta * r, (a.m2 + b.m2) + (delta * delta) * w, n};         \
  }                                                                                      \
  /* {mean, M2 / n}; a NaN mean makes the variance NaN; no elements: both NaN */         \
  static inline mv_out_##A mv_fin_##A(mv_##A a, uint64_t count) {                        \
    const A nan = canon_##A((A)NAN);                                                     \
    if (count == 0) return (mv_out_##A){nan, nan};                                       \
    const A var = a.mean != a.mean ? nan : canon_##A(a.m2 / (A)a.n);                     \
    return (mv_out_##A){canon_##A(a.mean), var};                                         \
  }
GR_MOMENT_OPS(float, sqrtf, fabsf)
GR_MOMENT_OPS(double, sqrt, fabs)
/* LOGSUMEXP, the twin of cuda/thread/logsumexp.cuh's LogSumExp (doc/ORDER.md
 * states it): the running maximum m in A, the sum s of exp(x - m) in
 * double; gr_exp and gr_log are the library's own (math/exp_log.h), the
 * same bits as on CUDA.  The result: m where s is 1, else m + log(s) rounded once to A, or
 * with GPUREDUCE_SOFTMAX_STATS {m, s rounded to A}. */
typedef struct { float m; double s; } lse_float;
typedef struct { double m; double s; } lse_double;
typedef struct { float max, sum; } lse_stats_float;
typedef struct { double max, sum; } lse_stats_double;
#define GR_LSE_OPS(A)                                                                    \
  /* s exp(m - M), or s itself where m is the maximum */                                 \
  static inline double lse_scaled_##A(A m, double s, A M) {                              \
    return m == M ? s : s * gr_exp((double)m - (double)M);                               \
  }                                                                                      \
  static inline lse_##A lse_comb_##A(lse_##A a, lse_##A b) {                             \
    if (a.m != a.m || b.m != b.m)                                                        \
      return (lse_##A){canon_##A((A)NAN), canon_double(NAN)};                            \
    const A M = max_##A(a.m, b.m); /* +0 above -0 */                                     \
    return (lse_##A){M, lse_scaled_##A(a.m, a.s, M) + lse_scaled_##A(b.m, b.s, M)};      \
  }                                                                                      \
  static inline A lse_fin_##A(lse_##A a) {                                               \
    if (a.m != a.m) return canon_##A(a.m);                                               \
    if (isinf(a.m) || a.s == 1.0) return a.m; /* -0 + L(1) would be +0 */                \
    return (A)((double)a.m + gr_log(a.s));                                               \
  }                                                                                      \
  static inline lse_stats_##A lse_stats_of_##A(lse_##A a) {                              \
    if (a.m != a.m) return (lse_stats_##A){canon_##A(a.m), canon_##A(a.m)};              \
    return (lse_stats_##A){a.m, (A)a.s};                                                 \
  }
GR_LSE_OPS(float)
GR_LSE_OPS(double)
/* LOGSUMEXP's chunk fold of F16, BF16 and F32 (doc/ORDER.md; CUDA:
 * LogSumExp::fold_run): w[0 .. count-1] the chunk's elements in the vector
 * (widened), V the chunk's slots (4 or 8).  With c the largest, each term
 * is 1 where w == c (every term, where c is an infinity, is 1 or 0), else
 * gr_expf_term(w - c) in float; the V slots (+0 past count) summed in
 * float pairwise; then, with acc = (m, s), (c, s F2(m, c) + sum) where
 * c > m, else (max(m, c), s + sum F2(c, m)), F2 = gr_expf_diff. */
static inline lse_float lse_chunk_float(lse_float acc, const float *w, unsigned count,
                                        unsigned v) {
  float c = -INFINITY, t[GR_CHUNK_BYTES / 2];
  if (acc.m != acc.m) return acc; /* (NaN, NaN), canonical */
  for (unsigned j = 0; j < count; ++j) {
    if (w[j] != w[j]) return (lse_float){canon_float(NAN), canon_double(NAN)};
    c = max_float(c, w[j]);
  }
  for (unsigned j = 0; j < v; ++j) {
    if (j >= count) t[j] = 0.0f;
    else if (isinf(c)) t[j] = w[j] == c ? 1.0f : 0.0f;
    else t[j] = gr_expf_term(w[j] - c);
  }
  for (unsigned h = v / 2; h >= 1; h /= 2)
    for (unsigned j = 0; j < h; ++j) t[j] = t[2 * j] + t[2 * j + 1];
  const int up = c > acc.m;
  const double f = (double)gr_expf_diff(up ? acc.m : c, up ? c : acc.m);
  const double sum = (double)t[0];
  return (lse_float){up ? c : max_float(acc.m, c), (up ? acc.s : sum) * f + (up ? sum : acc.s)};
}

static inline nrm2_float nrm2_float_lift_of(float w) { return nrm2_lift_float(w); }
static inline nrm2_double nrm2_double_lift_of(double w) { return nrm2_lift_double(w); }
static inline mv_float mv_float_lift_of(float w) { return (mv_float){w, 0.0f, 1}; }
static inline mv_double mv_double_lift_of(double w) { return (mv_double){w, 0.0, 1}; }

/* Lifts: an element's widened value w (and its index i) to an accumulator;
 * v is the widened element of the second input at the same index, which
 * only LIFT_DOT reads (the others drop the expression unevaluated, so the
 * one-input operations never touch their NULL second input). */
#define LIFT_VAL(A, w, v, i) ((A)(w))
#define LIFT_FABS(A, w, v, i) ((A)fabs((double)(w))) /* exact for float too */
#define LIFT_SQ(A, w, v, i) ((A)(w) * (A)(w))
#define LIFT_IABS(A, w, v, i) ((w) < 0 ? (A)0 - (A)(w) : (A)(w))
#define LIFT_PAIR(A, w, v, i) ((A){(w), (i)})
#define LIFT_LSE(A, w, v, i) ((A){(w), 1.0})
/* AMAX of a float read as its bits (an unsigned IN_T, RD_SAME): the bits
 * with the sign bit cleared, which order like the magnitudes, every NaN
 * above +inf.  Integers take LIFT_IABS (signed) or LIFT_VAL (unsigned) into
 * the unsigned accumulator. */
#define LIFT_MAG(A, w, v, i) ((A)(w) & ~((A)1 << (8 * sizeof(w) - 1)))
/* x[i]*y[i] in the accumulator, rounded once (-ffp-contract=off: never
 * fused with the addition that follows); integers wrap in uint64_t. */
#define LIFT_DOT(A, w, v, i) ((A)(w) * (A)(v))
/* NRM2 and MEAN_VAR: the element converted to the accumulator's W (A is
 * nrm2_W or mv_W; integers round to nearest, floats are exact). */
#define LIFT_NRM2(A, w, v, i) A##_lift_of(w)
#define LIFT_MV(A, w, v, i) A##_lift_of(w)

/* Finishers: accumulator r of n elements to the result. */
#define FIN_SUMF(r, n) ((n) ? canon_float(r) : 0.0f) /* +0, not the identity -0 */
#define FIN_SUMD(r, n) ((n) ? canon_double(r) : 0.0)
#define FIN_CANONF(r, n) canon_float(r)
#define FIN_CANOND(r, n) canon_double(r)
#define FIN_SAME(r, n) (r)
#define FIN_F16(r, n) ((r) != (r) ? (uint16_t)0x7fffu : f32_to_f16(r))
#define FIN_BF16(r, n) ((r) != (r) ? (uint16_t)0x7fffu : f32_to_bf16_exact(r))
#define FIN_INDEX(r, n) ((r).i)
/* AMAX of floats: a magnitude above +inf's bits is a NaN, written as the
 * canonical quiet NaN (the largest pattern with the sign clear) */
#define FIN_MAG16(r, n) ((uint16_t)((r) > 0x7c00u ? 0x7fffu : (r)))
#define FIN_MAGB16(r, n) ((uint16_t)((r) > 0x7f80u ? 0x7fffu : (r)))
#define FIN_MAG32(r, n) ((r) > 0x7f800000u ? 0x7fffffffu : (r))
#define FIN_MAG64(r, n) ((r) > 0x7ff0000000000000ull ? 0x7fffffffffffffffull : (r))
#define FIN_U8(r, n) ((uint8_t)(r))
#define FIN_LSEF(r, n) lse_fin_float(r)
#define FIN_LSED(r, n) lse_fin_double(r)
#define FIN_LSE_STATSF(r, n) lse_stats_of_float(r)
#define FIN_LSE_STATSD(r, n) lse_stats_of_double(r)
#define FIN_NRM2F(r, n) nrm2_fin_float(r)
#define FIN_NRM2D(r, n) nrm2_fin_double(r)
#define FIN_MVF(r, n) mv_fin_float((r), (n))
#define FIN_MVD(r, n) mv_fin_double((r), (n))

/* GPUREDUCE_WITH_VALUE's result: the index, then the element in its own
 * type as MIN/MAX write it (FINMM of the pair's widened value, exact since
 * it came from an element), zeros to 16 bytes.  An empty input's pair is
 * the identity, {MIN's or MAX's empty value, UINT64_MAX}. */
typedef struct { uint64_t index; unsigned char value[8]; } with_value;
static inline with_value with_value_of(uint64_t index, const void *value, size_t size) {
  with_value w;
  memset(&w, 0, sizeof w);
  w.index = index;
  memcpy(w.value, value, size);
  return w;
}
#define FIN_WITH_VALUE(IN_T, FINMM, r, n) \
  with_value_of((r).i, &(IN_T){(IN_T)FINMM((r).v, n)}, sizeof(IN_T))

/* ---- the order ------------------------------------------------------------ */

/*
 * One reduction: NAME(input, input2, n, stride, output, workspace) over
 * the n elements input[i * stride] (stride in elements: 1 for
 * gpureduce_reduce(), any int64_t for a batched vector; the API layer
 * checked that every offset fits), and for the dot product the n elements
 * input2[i * stride] beside them (NULL for every other operation).  IN_T is the element type, RD widens it, A_T is the
 * accumulator with identity IDENT, LIFT and COMB as above, OUT_T/FIN the
 * result.
 *
 * With a workspace, the tiles are cut into the plan's groups, which run in
 * parallel (OpenMP) and leave their roots in the workspace.  Without one
 * (NULL: a batched vector on one thread of a parallel loop over vectors),
 * every tile goes into one counter of the tile tree: the same tree, hence
 * the same bits, since each group is an aligned subtree of it.
 *
 * A tile of few elements costs what its elements cost: only the chunks
 * that hold elements are read, only the lanes they fill are set, and the
 * lane tree skips the steps whose right lane is empty, all of whose
 * elements are past n.  Such a lane holds the identity, and combining with
 * the identity is exact (doc/ORDER.md), so skipping it changes no bit.
 */
/* A chunk's elements i0 .. i1-1 into the lane acc, one by one (rule 3). */
#define GR_FOLD_ELEMENTS(A_T, acc, x, y, stride, i0, i1, RD, LIFT, COMB)                \
  for (uint64_t i = (i0); i < (i1); ++i)                                               \
    acc = COMB(acc, LIFT(A_T, RD(x[(int64_t)i * stride]), RD(y[(int64_t)i * stride]), i));
/* The same for LOGSUMEXP of the float types: the chunk whole. */
#define GR_FOLD_LSE_CHUNK(A_T, acc, x, y, stride, i0, i1, RD, LIFT, COMB)               \
  {                                                                                    \
    float w_[GR_CHUNK_BYTES / 2];                                                      \
    const unsigned c_ = (unsigned)((i1) - (i0));                                       \
    for (unsigned j_ = 0; j_ < c_; ++j_) w_[j_] = RD(x[(int64_t)((i0) + j_) * stride]); \
    acc = lse_chunk_float(acc, w_, c_, (unsigned)(GR_CHUNK_BYTES / sizeof *(x)));      \
  }
#define GR_HOST_FN(NAME, IN_T, RD, A_T, IDENT, LIFT, COMB, OUT_T, FIN)                \
  GR_HOST_FN_CHUNK(NAME, IN_T, RD, A_T, IDENT, LIFT, COMB, OUT_T, FIN, GR_FOLD_ELEMENTS)
/* GR_HOST_FN with CHUNK, the fold of a chunk's elements into a lane. */
#define GR_HOST_FN_CHUNK(NAME, IN_T, RD, A_T, IDENT, LIFT, COMB, OUT_T, FIN, CHUNK)    \
  static GR_ALWAYS_INLINE A_T NAME##_tile(const IN_T *x, const IN_T *y, int64_t stride, \
                                          uint64_t n, uint64_t tile) {                \
    (void)y; /* read by LIFT_DOT only */                                              \
    enum { V = GR_CHUNK_BYTES / sizeof(IN_T) };                                       \
    const uint64_t tile_elems = (uint64_t)GR_TILE_CHUNKS * V;                         \
    const uint64_t first = tile * tile_elems, left = n - first;                       \
    const uint64_t count = left < tile_elems ? left : tile_elems;                     \
    const unsigned chunks = (unsigned)((count + V - 1) / V); /* >= 1 */              \
    const unsigned lanes = chunks < GR_LANES ? chunks : GR_LANES;                     \
    A_T lane[GR_LANES];                                                               \
    for (unsigned l = 0; l < lanes; ++l) lane[l] = IDENT;                             \
    for (unsigned c0 = 0; c0 < chunks; c0 += GR_LANES) {                              \
      const unsigned end = chunks - c0 < GR_LANES ? chunks - c0 : GR_LANES;           \
      for (unsigned l = 0; l < end; ++l) {                                            \
        const uint64_t i0 = first + (uint64_t)(c0 + l) * V;                           \
        const uint64_t i1 = n - i0 < V ? n : i0 + V;                                  \
        CHUNK(A_T, lane[l], x, y, stride, i0, i1, RD, LIFT, COMB)                     \
      }                                                                               \
    }                                                                                 \
    /* lanes 0 .. a-1 may differ from the identity before step s */                   \
    for (unsigned s = GR_LANES / 2, a = lanes; s > 0; s >>= 1) {                      \
      for (unsigned l = 0; l + s < a; ++l) lane[l] = COMB(lane[l], lane[l + s]);      \
      if (a > s) a = s;                                                               \
    }                                                                                 \
    return lane[0];                                                                   \
  }                                                                                   \
  /* The tiles t0 .. t1-1 (t1 > t0), an aligned subtree or all the tiles. */          \
  static A_T NAME##_group(const IN_T *x, const IN_T *y, int64_t stride, uint64_t n,  \
                          uint64_t t0, uint64_t t1) {                                 \
    A_T stack[64], r = IDENT;                                                         \
    for (uint64_t t = t0; t < t1; ++t) {                                              \
      /* stride 1, the 1-D call, gets a tile loop of its own */                       \
      A_T v = stride == 1 ? NAME##_tile(x, y, 1, n, t) : NAME##_tile(x, y, stride, n, t); \
      GR_TREE_PUSH(stack, t - t0, v, COMB);                                           \
    }                                                                                 \
    GR_TREE_FOLD(stack, t1 - t0, r, COMB);                                            \
    return r;                                                                         \
  }                                                                                   \
  static A_T NAME##_root(const IN_T *x, const IN_T *y, uint64_t n, int64_t stride,     \
                         void *workspace) {                                           \
    A_T r = IDENT;                                                                    \
    if (!workspace) {                                                                 \
      const uint64_t tiles = gr_tile_count(n, sizeof(IN_T));                          \
      if (tiles) r = NAME##_group(x, y, stride, n, 0, tiles);                         \
    } else {                                                                          \
      A_T *roots = (A_T *)workspace, stack[64];                                       \
      struct gr_plan plan;                                                            \
      gr_plan_make(n, sizeof(IN_T), GR_MAX_ROOTS, &plan);                             \
      const int64_t groups = (int64_t)plan.groups;                                    \
      const uint64_t per = (uint64_t)1 << plan.group_log2;                            \
      GR_OMP_GROUPS                                                                   \
      for (int64_t g = 0; g < groups; ++g) {                                          \
        const uint64_t t0 = (uint64_t)g * per;                                        \
        const uint64_t t1 = t0 + per < plan.tiles ? t0 + per : plan.tiles;            \
        roots[g] = NAME##_group(x, y, stride, n, t0, t1);                             \
      }                                                                               \
      for (int64_t g = 0; g < groups; ++g) {                                          \
        A_T v = roots[g];                                                             \
        GR_TREE_PUSH(stack, (uint64_t)g, v, COMB);                                    \
      }                                                                               \
      GR_TREE_FOLD(stack, (uint64_t)groups, r, COMB);                                 \
    }                                                                                 \
    return r;                                                                         \
  }                                                                                   \
  static void NAME(const void *input, const void *input2, uint64_t n, int64_t stride,  \
                   void *output, void *workspace) {                                   \
    const A_T r = NAME##_root((const IN_T *)input, (const IN_T *)input2, n, stride,   \
                              workspace);                                             \
    const OUT_T out = FIN(r, n);                                                      \
    memcpy(output, &out, sizeof out);                                                 \
  }                                                                                   \
  /* The accumulator interface of host.h (struct gr_host_acc_ops), for the            \
   * partial results; the dot products' are never used. */                           \
  GR_UNUSED static void NAME##_acc(const void *input, uint64_t n, void *acc,          \
                                   void *workspace) {                                 \
    const A_T r = NAME##_root((const IN_T *)input, NULL, n, 1, workspace);            \
    memcpy(acc, &r, sizeof r);                                                        \
  }                                                                                   \
  GR_UNUSED static void NAME##_comb(void *a, const void *b) {                         \
    A_T l, r;                                                                         \
    memcpy(&l, a, sizeof l);                                                          \
    memcpy(&r, b, sizeof r);                                                          \
    l = COMB(l, r);                                                                   \
    memcpy(a, &l, sizeof l);                                                          \
  }                                                                                   \
  GR_UNUSED static void NAME##_fin(const void *acc, uint64_t n, void *output) {       \
    A_T r;                                                                            \
    (void)n; /* most finishers ignore it */                                           \
    memcpy(&r, acc, sizeof r);                                                        \
    const OUT_T out = FIN(r, n);                                                      \
    memcpy(output, &out, sizeof out);                                                 \
  }                                                                                   \
  GR_UNUSED static const struct gr_host_acc_ops NAME##_ops = {sizeof(A_T), NAME##_acc, \
                                                              NAME##_comb, NAME##_fin};

/* ARGMIN and ARGMAX with GPUREDUCE_WITH_VALUE: the same accumulation as
 * without it (so the same index), a finisher that also writes the value;
 * WORST_MIN and WORST_MAX are the identities' values. */
#define GR_WV_FIN_NAME(T) T##_fin_with_value
#define GR_ARG_WITH_VALUE(T, IN_T, RD, W, WORST_MIN, WORST_MAX, FINMM)                        \
  static inline with_value GR_WV_FIN_NAME(T)(pair_##W r, uint64_t n) {                        \
    (void)n;                                                                                  \
    return FIN_WITH_VALUE(IN_T, FINMM, r, n);                                                 \
  }                                                                                           \
  GR_HOST_FN(T##_argmin_wv, IN_T, RD, pair_##W, ((pair_##W){WORST_MIN, UINT64_MAX}),          \
             LIFT_PAIR, argmin_##W, with_value, GR_WV_FIN_NAME(T))                            \
  GR_HOST_FN(T##_argmax_wv, IN_T, RD, pair_##W, ((pair_##W){WORST_MAX, UINT64_MAX}),          \
             LIFT_PAIR, argmax_##W, with_value, GR_WV_FIN_NAME(T))

/* The eight operations on a floating-point type T (element IN_T, widened
 * to W by RD); sum-like operations accumulate in A. */
#define GR_FLOAT_SUMS(T, IN_T, RD, A, FINSUM, FINPROD)                                        \
  GR_HOST_FN(T##_sum, IN_T, RD, A, (A)-0.0, LIFT_VAL, add_##A, A, FINSUM)                    \
  GR_HOST_FN(T##_prod, IN_T, RD, A, (A)1, LIFT_VAL, mul_##A, A, FINPROD)                     \
  GR_HOST_FN(T##_sum_abs, IN_T, RD, A, (A)-0.0, LIFT_FABS, add_##A, A, FINSUM)               \
  GR_HOST_FN(T##_sum_squares, IN_T, RD, A, (A)-0.0, LIFT_SQ, add_##A, A, FINSUM)

/* NRM2 and MEAN_VAR accumulating in A (float or double); FIN is F or D.
 * The identities: +0 sums (exact for sums of squares), count 0. */
#define GR_MOMENTS(T, IN_T, RD, A, FIN)                                                       \
  GR_HOST_FN(T##_nrm2, IN_T, RD, nrm2_##A, ((nrm2_##A){0, 0, 0}), LIFT_NRM2, nrm2_comb_##A,  \
             A, FIN_NRM2##FIN)                                                                \
  GR_HOST_FN(T##_mean_var, IN_T, RD, mv_##A, ((mv_##A){0, 0, 0}), LIFT_MV, mv_comb_##A,       \
             mv_out_##A, FIN_MV##FIN)

#define GR_FLOAT_TYPE(T, IN_T, RD, W, FINSUM, FINPROD, FINMM)                                 \
  GR_FLOAT_SUMS(T, IN_T, RD, W, FINSUM, FINPROD)                                              \
  GR_HOST_FN(T##_min, IN_T, RD, W, (W)INFINITY, LIFT_VAL, min_##W, IN_T, FINMM)              \
  GR_HOST_FN(T##_max, IN_T, RD, W, (W)-INFINITY, LIFT_VAL, max_##W, IN_T, FINMM)             \
  GR_HOST_FN(T##_argmin, IN_T, RD, pair_##W, ((pair_##W){(W)INFINITY, UINT64_MAX}),          \
             LIFT_PAIR, argmin_##W, uint64_t, FIN_INDEX)                                      \
  GR_HOST_FN(T##_argmax, IN_T, RD, pair_##W, ((pair_##W){(W)-INFINITY, UINT64_MAX}),         \
             LIFT_PAIR, argmax_##W, uint64_t, FIN_INDEX)                                      \
  GR_ARG_WITH_VALUE(T, IN_T, RD, W, (W)INFINITY, (W)-INFINITY, FINMM)

/* Integers: W is int64_t or uint64_t, sums wrap in uint64_t; ABS is
 * LIFT_IABS for signed types and LIFT_VAL for unsigned ones. */
#define GR_INT_TYPE(T, IN_T, RD, W, LO, HI, ABS)                                              \
  GR_HOST_FN(T##_sum, IN_T, RD, uint64_t, 0u, LIFT_VAL, add_uint64_t, uint64_t, FIN_SAME)    \
  GR_HOST_FN(T##_prod, IN_T, RD, uint64_t, 1u, LIFT_VAL, mul_uint64_t, uint64_t, FIN_SAME)   \
  GR_HOST_FN(T##_sum_abs, IN_T, RD, uint64_t, 0u, ABS, add_uint64_t, uint64_t, FIN_SAME)     \
  GR_HOST_FN(T##_sum_squares, IN_T, RD, uint64_t, 0u, LIFT_SQ, add_uint64_t, uint64_t,       \
             FIN_SAME)                                                                        \
  GR_HOST_FN(T##_min, IN_T, RD, W, (W)(HI), LIFT_VAL, min_##W, IN_T, FIN_SAME)               \
  GR_HOST_FN(T##_max, IN_T, RD, W, (W)(LO), LIFT_VAL, max_##W, IN_T, FIN_SAME)               \
  GR_HOST_FN(T##_argmin, IN_T, RD, pair_##W, ((pair_##W){(W)(HI), UINT64_MAX}), LIFT_PAIR,   \
             argmin_##W, uint64_t, FIN_INDEX)                                                 \
  GR_HOST_FN(T##_argmax, IN_T, RD, pair_##W, ((pair_##W){(W)(LO), UINT64_MAX}), LIFT_PAIR,   \
             argmax_##W, uint64_t, FIN_INDEX)                                                 \
  GR_ARG_WITH_VALUE(T, IN_T, RD, W, (W)(HI), (W)(LO), FIN_SAME)

GR_FLOAT_TYPE(f16, uint16_t, RD_F16, float, FIN_SUMF, FIN_CANONF, FIN_F16)
GR_FLOAT_TYPE(bf16, uint16_t, RD_BF16, float, FIN_SUMF, FIN_CANONF, FIN_BF16)
GR_FLOAT_TYPE(f32, float, RD_SAME, float, FIN_SUMF, FIN_CANONF, FIN_CANONF)
GR_FLOAT_TYPE(f64, double, RD_SAME, double, FIN_SUMD, FIN_CANOND, FIN_CANOND)
GR_FLOAT_SUMS(f32d, float, RD_SAME, double, FIN_SUMD, FIN_CANOND)
GR_INT_TYPE(i8, int8_t, RD_I64, int64_t, INT8_MIN, INT8_MAX, LIFT_IABS)
GR_INT_TYPE(u8, uint8_t, RD_U64, uint64_t, 0, UINT8_MAX, LIFT_VAL)
GR_INT_TYPE(i32, int32_t, RD_I64, int64_t, INT32_MIN, INT32_MAX, LIFT_IABS)
GR_INT_TYPE(u32, uint32_t, RD_U64, uint64_t, 0, UINT32_MAX, LIFT_VAL)
GR_INT_TYPE(i64, int64_t, RD_I64, int64_t, INT64_MIN, INT64_MAX, LIFT_IABS)
GR_INT_TYPE(u64, uint64_t, RD_U64, uint64_t, 0, UINT64_MAX, LIFT_VAL)
GR_MOMENTS(f16, uint16_t, RD_F16, float, F)
GR_MOMENTS(bf16, uint16_t, RD_BF16, float, F)
GR_MOMENTS(f32, float, RD_SAME, float, F)
GR_MOMENTS(f64, double, RD_SAME, double, D)
GR_MOMENTS(f32d, float, RD_SAME, double, D)
GR_MOMENTS(i8, int8_t, RD_I64, double, D)
GR_MOMENTS(u8, uint8_t, RD_U64, double, D)
GR_MOMENTS(i32, int32_t, RD_I64, double, D)
GR_MOMENTS(u32, uint32_t, RD_U64, double, D)
GR_MOMENTS(i64, int64_t, RD_I64, double, D)
GR_MOMENTS(u64, uint64_t, RD_U64, double, D)

/* AMAX: floats read as their bits (f16 and bf16 as uint16_t, f32 as
 * uint32_t, f64 as uint64_t), integers as themselves; the magnitudes
 * accumulate as unsigned integers of 32 bits, or 64 for the 64-bit
 * types (cuda/thread/ops.cuh's Amax: the same bytes in a partial's node). */
#define GR_AMAX(T, IN_T, RD, A, LIFT, OUT_T, FIN) \
  GR_HOST_FN(T##_amax, IN_T, RD, A, 0u, LIFT, amax_##A, OUT_T, FIN)
GR_AMAX(f16, uint16_t, RD_SAME, uint32_t, LIFT_MAG, uint16_t, FIN_MAG16)
GR_AMAX(bf16, uint16_t, RD_SAME, uint32_t, LIFT_MAG, uint16_t, FIN_MAGB16)
GR_AMAX(f32, uint32_t, RD_SAME, uint32_t, LIFT_MAG, uint32_t, FIN_MAG32)
GR_AMAX(f64, uint64_t, RD_SAME, uint64_t, LIFT_MAG, uint64_t, FIN_MAG64)
GR_AMAX(i8, int8_t, RD_I64, uint32_t, LIFT_IABS, uint8_t, FIN_U8)
GR_AMAX(u8, uint8_t, RD_U64, uint32_t, LIFT_VAL, uint8_t, FIN_U8)
GR_AMAX(i32, int32_t, RD_I64, uint32_t, LIFT_IABS, uint32_t, FIN_SAME)
GR_AMAX(u32, uint32_t, RD_U64, uint32_t, LIFT_VAL, uint32_t, FIN_SAME)
GR_AMAX(i64, int64_t, RD_I64, uint64_t, LIFT_IABS, uint64_t, FIN_SAME)
GR_AMAX(u64, uint64_t, RD_U64, uint64_t, LIFT_VAL, uint64_t, FIN_SAME)

/* LOGSUMEXP of the floating types, plain and with GPUREDUCE_SOFTMAX_STATS;
 * A is float (f16, bf16, f32) or double (f64), FIN F or D. */
#define GR_LSE(T, IN_T, RD, A, FIN, CHUNK)                                                     \
  GR_HOST_FN_CHUNK(T##_logsumexp, IN_T, RD, lse_##A, ((lse_##A){-INFINITY, 0.0}), LIFT_LSE,    \
                   lse_comb_##A, A, FIN_LSE##FIN, CHUNK)                                       \
  GR_HOST_FN_CHUNK(T##_softmax_stats, IN_T, RD, lse_##A, ((lse_##A){-INFINITY, 0.0}),          \
                   LIFT_LSE, lse_comb_##A, lse_stats_##A, FIN_LSE_STATS##FIN, CHUNK)
GR_LSE(f16, uint16_t, RD_F16, float, F, GR_FOLD_LSE_CHUNK)
GR_LSE(bf16, uint16_t, RD_BF16, float, F, GR_FOLD_LSE_CHUNK)
GR_LSE(f32, float, RD_SAME, float, F, GR_FOLD_LSE_CHUNK)
GR_LSE(f64, double, RD_SAME, double, D, GR_FOLD_ELEMENTS)

/* The dot products: SUM's accumulator and result, lift x[i]*y[i]. */
GR_HOST_FN(f16_dot, uint16_t, RD_F16, float, -0.0f, LIFT_DOT, add_float, float, FIN_SUMF)
GR_HOST_FN(bf16_dot, uint16_t, RD_BF16, float, -0.0f, LIFT_DOT, add_float, float, FIN_SUMF)
GR_HOST_FN(f32_dot, float, RD_SAME, float, -0.0f, LIFT_DOT, add_float, float, FIN_SUMF)
GR_HOST_FN(f32d_dot, float, RD_SAME, double, -0.0, LIFT_DOT, add_double, double, FIN_SUMD)
GR_HOST_FN(f64_dot, double, RD_SAME, double, -0.0, LIFT_DOT, add_double, double, FIN_SUMD)
#define GR_INT_DOT(T, IN_T, RD) \
  GR_HOST_FN(T##_dot, IN_T, RD, uint64_t, 0u, LIFT_DOT, add_uint64_t, uint64_t, FIN_SAME)
GR_INT_DOT(i8, int8_t, RD_I64)
GR_INT_DOT(u8, uint8_t, RD_U64)
GR_INT_DOT(i32, int32_t, RD_I64)
GR_INT_DOT(u32, uint32_t, RD_U64)
GR_INT_DOT(i64, int64_t, RD_I64)
GR_INT_DOT(u64, uint64_t, RD_U64)

/* ---- the tables ----------------------------------------------------------- */

typedef gr_host_fn host_fn;

/* One row per type, in gpureduce_op_t order. */
#define GR_ROW(T, LSE)                                                                  \
  {T##_sum,    T##_prod,    T##_min,         T##_max,  T##_argmin,                     \
   T##_argmax, T##_sum_abs, T##_sum_squares, T##_nrm2, T##_mean_var,                   \
   LSE,        T##_amax}

static const host_fn host_table[GPUREDUCE_TYPE_COUNT][GPUREDUCE_OP_COUNT] = {
    GR_ROW(f16, f16_logsumexp), GR_ROW(bf16, bf16_logsumexp), GR_ROW(f32, f32_logsumexp),
    GR_ROW(f64, f64_logsumexp), GR_ROW(i8, NULL),             GR_ROW(u8, NULL),
    GR_ROW(i32, NULL),          GR_ROW(u32, NULL),            GR_ROW(i64, NULL),
    GR_ROW(u64, NULL)};

/* GPUREDUCE_SOFTMAX_STATS: LOGSUMEXP of the floating types. */
static const host_fn host_softmax_stats[GPUREDUCE_TYPE_COUNT] = {
    f16_softmax_stats, bf16_softmax_stats, f32_softmax_stats, f64_softmax_stats};

/* GPUREDUCE_WITH_VALUE: ARGMIN and ARGMAX of every type. */
#define GR_WV_ROW(T) {[GPUREDUCE_ARGMIN] = T##_argmin_wv, [GPUREDUCE_ARGMAX] = T##_argmax_wv}

static const host_fn host_with_value[GPUREDUCE_TYPE_COUNT][GPUREDUCE_OP_COUNT] = {
    GR_WV_ROW(f16), GR_WV_ROW(bf16), GR_WV_ROW(f32), GR_WV_ROW(f64), GR_WV_ROW(i8),
    GR_WV_ROW(u8),  GR_WV_ROW(i32),  GR_WV_ROW(u32), GR_WV_ROW(i64), GR_WV_ROW(u64)};

static const host_fn host_f32_in_f64[GPUREDUCE_OP_COUNT] = {
    [GPUREDUCE_SUM] = f32d_sum,
    [GPUREDUCE_PROD] = f32d_prod,
    [GPUREDUCE_SUM_ABS] = f32d_sum_abs,
    [GPUREDUCE_SUM_SQUARES] = f32d_sum_squares,
    [GPUREDUCE_NRM2] = f32d_nrm2,
    [GPUREDUCE_MEAN_VAR] = f32d_mean_var};

/* The accumulator interfaces, in the tables' shapes. */
#define GR_OPS_ROW(T, LSE)                                                                  \
  {&T##_sum_ops,    &T##_prod_ops,    &T##_min_ops,         &T##_max_ops,  &T##_argmin_ops, \
   &T##_argmax_ops, &T##_sum_abs_ops, &T##_sum_squares_ops, &T##_nrm2_ops, &T##_mean_var_ops, \
   LSE,             &T##_amax_ops}
static const struct gr_host_acc_ops *const host_ops_table[GPUREDUCE_TYPE_COUNT]
                                                         [GPUREDUCE_OP_COUNT] = {
    GR_OPS_ROW(f16, &f16_logsumexp_ops), GR_OPS_ROW(bf16, &bf16_logsumexp_ops),
    GR_OPS_ROW(f32, &f32_logsumexp_ops), GR_OPS_ROW(f64, &f64_logsumexp_ops),
    GR_OPS_ROW(i8, NULL),                GR_OPS_ROW(u8, NULL),
    GR_OPS_ROW(i32, NULL),               GR_OPS_ROW(u32, NULL),
    GR_OPS_ROW(i64, NULL),               GR_OPS_ROW(u64, NULL)};
static const struct gr_host_acc_ops *const host_ops_softmax_stats[GPUREDUCE_TYPE_COUNT] = {
    &f16_softmax_stats_ops, &bf16_softmax_stats_ops, &f32_softmax_stats_ops,
    &f64_softmax_stats_ops};
#define GR_WV_OPS_ROW(T) \
  {[GPUREDUCE_ARGMIN] = &T##_argmin_wv_ops, [GPUREDUCE_ARGMAX] = &T##_argmax_wv_ops}
static const struct gr_host_acc_ops *const host_ops_with_value[GPUREDUCE_TYPE_COUNT]
                                                              [GPUREDUCE_OP_COUNT] = {
    GR_WV_OPS_ROW(f16), GR_WV_OPS_ROW(bf16), GR_WV_OPS_ROW(f32), GR_WV_OPS_ROW(f64),
    GR_WV_OPS_ROW(i8),  GR_WV_OPS_ROW(u8),   GR_WV_OPS_ROW(i32), GR_WV_OPS_ROW(u32),
    GR_WV_OPS_ROW(i64), GR_WV_OPS_ROW(u64)};
static const struct gr_host_acc_ops *const host_ops_f32_in_f64[GPUREDUCE_OP_COUNT] = {
    [GPUREDUCE_SUM] = &f32d_sum_ops,
    [GPUREDUCE_PROD] = &f32d_prod_ops,
    [GPUREDUCE_SUM_ABS] = &f32d_sum_abs_ops,
    [GPUREDUCE_SUM_SQUARES] = &f32d_sum_squares_ops,
    [GPUREDUCE_NRM2] = &f32d_nrm2_ops,
    [GPUREDUCE_MEAN_VAR] = &f32d_mean_var_ops};

const struct gr_host_acc_ops *gr_host_acc_ops_for(gpureduce_type_t type, gpureduce_op_t op,
                                                  unsigned flags) {
  if ((unsigned)type >= GPUREDUCE_TYPE_COUNT || (unsigned)op >= GPUREDUCE_OP_COUNT) return NULL;
  if (flags & GPUREDUCE_SOFTMAX_STATS)
    return op == GPUREDUCE_LOGSUMEXP ? host_ops_softmax_stats[type] : NULL;
  if (flags & GPUREDUCE_ACCUMULATE_F64) return host_ops_f32_in_f64[op];
  if (flags & GPUREDUCE_WITH_VALUE) return host_ops_with_value[type][op];
  return host_ops_table[type][op];
}

static const host_fn host_dot_table[GPUREDUCE_TYPE_COUNT] = {
    f16_dot, bf16_dot, f32_dot, f64_dot, i8_dot, u8_dot, i32_dot, u32_dot, i64_dot, u64_dot};

gr_host_fn gr_host_fn_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  if ((unsigned)type >= GPUREDUCE_TYPE_COUNT || (unsigned)op >= GPUREDUCE_OP_COUNT) return NULL;
  if (flags & GPUREDUCE_SOFTMAX_STATS)
    return op == GPUREDUCE_LOGSUMEXP ? host_softmax_stats[type] : NULL;
  if (flags & GPUREDUCE_ACCUMULATE_F64) return host_f32_in_f64[op];
  if (flags & GPUREDUCE_WITH_VALUE) return host_with_value[type][op];
  return host_table[type][op];
}

gr_host_fn gr_host_dot_fn_for(gpureduce_type_t type, unsigned flags) {
  if ((unsigned)type >= GPUREDUCE_TYPE_COUNT) return NULL;
  return (flags & GPUREDUCE_ACCUMULATE_F64) ? f32d_dot : host_dot_table[type];
}
