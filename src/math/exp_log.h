/*
 * exp_log.h - the library's own exp and log: the same bits on the host
 * and in CUDA device code.  C99 or later; C++17 or later or GNU C++ (its
 * constants are hexadecimal floating literals, exact by construction).
 *
 *   float  gr_expf(float x)    correctly rounded (to nearest, ties to even)
 *   float  gr_logf(float x)    correctly rounded (to nearest, ties to even)
 *   double gr_exp(double x)    error < 0.57 ulp (normal results), < 1 ulp
 *                              (subnormal results); gr_exp(0) == 1 exactly
 *   double gr_log(double x)    error < 0.52 ulp
 *   float  gr_expf_term(float d)  e^d for d <= 0, error < 1.02 ulp; +0
 *                              below -86 (LOGSUMEXP's terms)
 *   float  gr_expf_diff(float a, float b)  e^(a - b) for a <= b, the
 *                              difference exact, error < 1.02 ulp; +0
 *                              where a - b rounds below -86 (LOGSUMEXP's
 *                              scales)
 *
 * Header-only, the bottom layer of src/ (it includes nothing from src/ but
 * its own tables, exp_log_tables.h).  In C the functions are static
 * inline; under nvcc (__CUDACC__) they are __host__ __device__ inline,
 * callable from host code and from kernels.  The tables are defined twice, as host
 * arrays and, under nvcc, as __device__ arrays (in global memory, read
 * through the L1 cache: lanes of a warp read different entries); each
 * function picks its copy with __CUDA_ARCH__.
 *
 * Only IEEE-754 basic operations: + - * /, the float fused multiply-add
 * (gr_math_fmaf: the instruction, or its exact emulation in double where
 * the host has none), conversions between float, double and integers,
 * and bit copies through memcpy.  No libm call, no other CUDA intrinsic
 * than __fmaf_rn (and __ldg, a load of the float table).  The bits are
 * the same wherever
 *   - double is IEEE binary64 and float binary32, rounding to nearest
 *     (the default mode), with subnormals (no flush to zero: nvcc's
 *     default -ftz=false; no -ffast-math, no DAZ/FTZ on the host);
 *   - each operation is rounded once to its type: FLT_EVAL_METHOD == 0
 *     (x86-64's SSE2, AArch64, CUDA; i386's x87 evaluates in extended
 *     precision and is refused below), and nothing else is contracted
 *     into an FMA: the library's C is compiled with -ffp-contract=off
 *     (configure) and its .cu files with nvcc -fmad=false (Makefile.am).
 *     Code that includes this header must be compiled so too.
 *
 * Methods.
 *   exp: Tang's table-driven method (P. T. P. Tang, "Table-driven
 *   implementation of the exponential function in IEEE floating-point
 *   arithmetic", ACM TOMS 15(2), 1989), with 64 entries:
 *   x = k ln2/64 + r, k = round(x 64/ln2), |r| <= ln2/128 (+ 2^-42);
 *   exp(x) = 2^(k>>6) 2^((k&63)/64) exp(r), the table giving 2^(j/64) as a
 *   double-double, exp(r) - 1 a degree-5 polynomial (near-minimax,
 *   relative error < 2^-57.7).
 *   log: the reduction of the correctly rounded libms (CORE-MATH's
 *   binary64 log, LLVM libc's log): x = 2^e m, m in [1, 2), c_i ~ 1/m
 *   from a 129-entry table indexed by round((m - 1) 128), c_i a multiple
 *   of 2^-12 so that r = c_i m - 1 is an exact sum of two doubles
 *   without FMA (m split at 2^-40), |r| <= 0.00394;
 *   log(x) = e ln2 - log(c_i) + log1p(r), log1p a degree-7 polynomial
 *   (near-minimax, relative error < 2^-62.9), the large terms added
 *   exactly (Tang's trailing-zero constants, Fast2Sum).
 *   gr_expf and gr_logf: the double evaluation of the binary32 correctly
 *   rounded libms (CORE-MATH binary32, LLVM libc's expf/logf): gr_exp or
 *   gr_log at the float input, whose relative error is below 2^-52.9;
 *   when the float roundings of y(1 - 2^-50) and y(1 + 2^-50) agree, that
 *   is the correctly rounded result (rounding is monotonic); otherwise
 *   (8 of the 2^32 floats for exp, 46 for log) a double-double
 *   evaluation of the same reductions, relative error below 2^-90,
 *   decides.  exp and log of a
 *   float are never a float nor a midpoint of two (Lindemann), except
 *   exp(0) and log(1), which the fast path returns exactly.
 *
 * The double core.  gr_exp is the unrounded double that gr_expf rounds:
 * for a float x, gr_expf(x) == (float)gr_exp(x) except on the hard cases
 * of the rounding test, where gr_expf is the correctly rounded one.  Its
 * relative error is below 2^-52.9 for normal results, and it takes a
 * double argument: the log-sum-exp combine calls it with m - M computed
 * in double.  Its cost, 20 FP64 operations, is the budget to weigh
 * against the GPU's FP64 rate; the log-sum-exp's terms of a float type
 * take gr_expf_term instead (8 FP32 operations).
 *
 * The tables and coefficients come from src/math/gen-exp-log.py (mpmath),
 * which also prints the polynomial bounds quoted here.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GR_MATH_EXP_LOG_H
#define GR_MATH_EXP_LOG_H

#include <float.h>
#include <stdint.h>
#include <string.h>

#include "math/exp_log_tables.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
/* i386's x87: compile with -msse2 -mfpmath=sse. */
#error "src/math/exp_log.h needs FLT_EVAL_METHOD == 0: each operation rounded to its type"
#endif

/* Under nvcc the functions are inline, not static: nvcc names a static
 * function it leaves out of line after a hash of the source's path, which
 * would tie the objects to the build directory (tests/dist/
 * reproducible.sh).  The device tables stay static (nvcc without -rdc
 * wants __device__ variables internal), one copy per translation unit. */
#if defined(__CUDACC__)
#define GR_MATH_FN __host__ __device__ inline
/* The double-double paths, taken by 54 of the 2^33 float inputs, stay
 * out of line, so that they do not grow every kernel that calls gr_expf
 * or gr_logf. */
#define GR_MATH_COLD_FN __host__ __device__ __noinline__ inline
#define GR_MATH_TABLE_DEF inline
#elif defined(__GNUC__)
#define GR_MATH_FN static inline
#define GR_MATH_COLD_FN static __attribute__((noinline, cold))
#define GR_MATH_TABLE_DEF static
#else
#define GR_MATH_FN static inline
#define GR_MATH_COLD_FN static
#define GR_MATH_TABLE_DEF static
#endif

/* The tables: host arrays, and under nvcc device arrays of the same
 * values; GR_MATH_TABLE(name) is the one the code being compiled reads. */
GR_MATH_TABLE_DEF const double gr_math_exp_table_host[128] = GR_MATH_EXP_TABLE;
GR_MATH_TABLE_DEF const double gr_math_log_table_host[3 * 129] = GR_MATH_LOG_TABLE;
GR_MATH_TABLE_DEF const float gr_math_expf_table_host[32] = GR_MATH_EXPF_TABLE;
#if defined(__CUDACC__)
static __device__ const double gr_math_exp_table_device[128] = GR_MATH_EXP_TABLE;
static __device__ const double gr_math_log_table_device[3 * 129] = GR_MATH_LOG_TABLE;
/* 128-byte aligned: one cache line, and entry j's address is the
 * table's with 4 j in its low 7 bits (GR_MATH_EXPF_ENTRY) */
static __device__ __align__(128) const float gr_math_expf_table_device[32] = GR_MATH_EXPF_TABLE;
#endif
#if defined(__CUDA_ARCH__)
#define GR_MATH_TABLE(name) gr_math_##name##_table_device
/* Entry j (0 <= j < 32) of the float table: its address by an OR into
 * the aligned table's, three instructions a term where a 64-bit addition
 * took four (sm_90 SASS of LOGSUMEXP's kernels) */
#define GR_MATH_EXPF_ENTRY(j)                                                            \
  __ldg(reinterpret_cast<const float *>(reinterpret_cast<uintptr_t>(gr_math_expf_table_device) | \
                                        ((uintptr_t)(j) << 2)))
#else
#define GR_MATH_TABLE(name) gr_math_##name##_table_host
#define GR_MATH_EXPF_ENTRY(j) gr_math_expf_table_host[j]
#endif

/* ---- bits ------------------------------------------------------------------ */

GR_MATH_FN uint64_t gr_math_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

GR_MATH_FN double gr_math_from_bits(uint64_t u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

GR_MATH_FN uint32_t gr_math_float_bits(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

GR_MATH_FN float gr_math_float_from_bits(uint32_t u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* 2^e for -1022 <= e <= 1023. */
GR_MATH_FN double gr_math_pow2(int64_t e) {
  return gr_math_from_bits((uint64_t)(e + 1023) << 52);
}

/* The canonical quiet NaNs of gpureduce.h (sign clear, all fraction bits
 * set), which every function returns for a NaN result: the same bits on
 * every platform, whatever the payload of a NaN input. */
#define GR_MATH_NANF_BITS 0x7fffffffu
#define GR_MATH_NAN_BITS 0x7fffffffffffffffull
#define GR_MATH_INF_BITS 0x7ff0000000000000ull

/* ---- double-double arithmetic (the correctly rounding paths) -------------- */

/* hi + lo == a + b exactly, for |a| >= |b| or a == 0 (Fast2Sum). */
GR_MATH_FN void gr_math_fast_two_sum(double a, double b, double *hi, double *lo) {
  double s = a + b;
  *lo = (a - s) + b;
  *hi = s;
}

/* hi + lo == a + b exactly (Knuth's 2Sum). */
GR_MATH_FN void gr_math_two_sum(double a, double b, double *hi, double *lo) {
  double s = a + b;
  double bb = s - a;
  *lo = (a - (s - bb)) + (b - bb);
  *hi = s;
}

/* a * b + c rounded once to float, IEEE 754's fusedMultiplyAdd: the same
 * bits on every platform.  In device code the FFMA instruction; on a host
 * with a fused instruction (GCC and Clang define __FMA__ or
 * __ARM_FEATURE_FMA) that instruction; elsewhere from double arithmetic:
 * a * b is exact in double (24 + 24 bits), the sum is rounded to odd in
 * double (TwoSum gives its error exactly; an inexact sum that came out
 * even moves one ulp toward the error), and rounding that to float is
 * rounding a * b + c once (S. Boldo and G. Melquiond, "Emulation of FMA
 * and correctly rounded sums: proved algorithms using rounding to odd",
 * IEEE Trans. Computers 57(4), 2008: double has 53 >= 24 + 2 bits).  An
 * infinite or NaN sum is left as it is (no finite input of the library's
 * uses reaches one). */
GR_MATH_FN float gr_math_fmaf(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#elif defined(__GNUC__) && (defined(__FMA__) || defined(__ARM_FEATURE_FMA))
  return __builtin_fmaf(a, b, c);
#else
  double s, e;
  gr_math_two_sum((double)a * (double)b, (double)c, &s, &e);
  uint64_t u = gr_math_bits(s);
  if (e != 0.0 && (u & 1) == 0 && s - s == 0.0) u += (e > 0) == (s > 0) ? 1 : (uint64_t)-1;
  return (float)gr_math_from_bits(u);
#endif
}

/* hi + lo == a * b exactly (Dekker's product, Veltkamp's split: no FMA);
 * |a|, |b| < 2^995. */
GR_MATH_FN void gr_math_two_prod(double a, double b, double *hi, double *lo) {
  const double split = 134217729.0; /* 2^27 + 1 */
  double p = a * b;
  double t = split * a;
  double ah = t - (t - a), al = a - ah;
  t = split * b;
  double bh = t - (t - b), bl = b - bh;
  *lo = (((ah * bh - p) + ah * bl) + al * bh) + al * bl;
  *hi = p;
}

/* (h, l) = (ah, al) + (bh, bl), relative error about 2^-104. */
GR_MATH_FN void gr_math_dd_add(double ah, double al, double bh, double bl, double *h,
                               double *l) {
  double s, e, t, f;
  gr_math_two_sum(ah, bh, &s, &e);
  gr_math_two_sum(al, bl, &t, &f);
  e += t;
  gr_math_fast_two_sum(s, e, &s, &e);
  e += f;
  gr_math_fast_two_sum(s, e, h, l);
}

/* (h, l) = (ah, al) * (bh, bl), relative error about 2^-104. */
GR_MATH_FN void gr_math_dd_mul(double ah, double al, double bh, double bl, double *h,
                               double *l) {
  double p, e;
  gr_math_two_prod(ah, bh, &p, &e);
  e += ah * bl + al * bh;
  gr_math_fast_two_sum(p, e, h, l);
}

/* (h, l) = (ah, al) / n, for a small positive integer n. */
GR_MATH_FN void gr_math_dd_div_int(double ah, double al, double n, double *h, double *l) {
  double q = ah / n, p, e;
  gr_math_two_prod(q, n, &p, &e);
  gr_math_fast_two_sum(q, (((ah - p) - e) + al) / n, h, l);
}

/* The float nearest h + l (ties to even), where |l| <= ulp(h)/2 and h + l
 * is no float midpoint: h's own rounding unless h is a midpoint, then l's
 * sign says which side. */
GR_MATH_FN float gr_math_dd_to_float(double h, double l) {
  float a = (float)h;
  if (a - a != 0) /* infinite: overflow, or FLT_MAX if h is the threshold */
    return (h == 0x1.ffffffp127 && l < 0) ? FLT_MAX : a;
  if ((double)a == h || l == 0) return a;
  double b = 2.0 * h - (double)a; /* the other neighbour, if h is a midpoint */
  if ((double)(float)b != b) return a;
  float fb = (float)b;
  if ((l > 0) == (fb > a)) return fb;
  return a;
}

/* The float nearest to v, given y with |y - v| <= 2^-52.9 |v|: 1 and
 * *f = that float when the bounds y(1 -+ 2^-50) round to the same float;
 * 0 otherwise (a hard case: v may lie on either side of a midpoint). */
GR_MATH_FN int gr_math_round_to_float(double y, float *f) {
  double d = y * 0x1p-50;
  float lo = (float)(y - d), hi = (float)(y + d);
  *f = lo;
  return lo == hi;
}

/* ---- exp ------------------------------------------------------------------- */

/* The reduction of exp for -746 < x < 709.79: x = k ln2/64 + r, k =
 * 64 e + j, 0 <= j < 64.  Returns k as a double; r is x - k L1 - k L2
 * (x - k L1 exact; |r| <= 0.00542). */
GR_MATH_FN double gr_math_exp_reduce(double x, double *r, unsigned *j, int64_t *e) {
  const double shift = 0x1.8p52; /* rounds to an integer, ties to even */
  double s = x * GR_MATH_EXP_INV_L + shift;
  double kd = s - shift;
  uint64_t kb = gr_math_bits(s) & 0xfffffffffffffull; /* k + 2^51 */
  *j = (unsigned)(kb & 63);
  *e = (int64_t)(kb >> 6) - ((int64_t)1 << 45);
  *r = (x - kd * GR_MATH_EXP_L1) - kd * GR_MATH_EXP_L2;
  return kd;
}

/* exp(x) 2^-e for -746 < x < 709.79, in [0.99, 2.02), relative error
 * below 2^-52.9 (0.5 ulp for the last addition, 2^-57.1 for the rest):
 * 9 FP64 multiplications and 10 additions. */
GR_MATH_FN double gr_math_exp_scaled(double x, int64_t *e) {
  const double *t = GR_MATH_TABLE(exp);
  double r;
  unsigned j;
  gr_math_exp_reduce(x, &r, &j, e);
  double r2 = r * r;
  double q = (GR_MATH_EXP_C2 + r * GR_MATH_EXP_C3) + r2 * (GR_MATH_EXP_C4 + r * GR_MATH_EXP_C5);
  double p = r + r2 * q; /* exp(r) - 1 */
  double th = t[2 * j], tl = t[2 * j + 1];
  return th + (tl + th * p);
}

/*
 * gr_exp: e^x in double.
 *   Method: Tang's (above): a 64-entry double-double table of 2^(j/64),
 *   a degree-5 polynomial.
 *   Error: below 0.57 ulp for normal results (0.5 for the last rounding,
 *   0.07 for the rest; tests/math measures it against MPFR); below 1 ulp
 *   for subnormal results (x < -708.39: the value, rounded to double, is
 *   rounded once more to the subnormal grid).  The relative error of a
 *   normal result is below 2^-52.9.
 *   Exact: gr_exp(+-0) == 1.  gr_exp(x) == 1 for -2^-54 <= x <= 2^-53
 *   (subnormals included), the correctly rounded e^x but at x = 2^-53,
 *   where e^x = 1 + 2^-53 + 2^-107 rounds to 1 + 2^-52 (gr_exp is
 *   0.5 + 2^-55 ulp off there).
 *   Special cases: NaN -> the canonical quiet NaN (0x7fff...); +inf and
 *   x >= 709.79 -> +inf (e^x overflows from 709.782712893384); -inf and
 *   x <= -746 -> +0 (e^x < 2^-1075 from -745.1332191019412); in between,
 *   subnormals.
 *   Cost of a call (-746 < x < 709.79): 10 FP64 multiplications, 10 FP64
 *   additions, 2 table loads (16 bytes of one 1 KiB table), integer
 *   operations on the bits, no conversion; 1 more multiplication for
 *   results below 2^-1022 or above 2^1023.
 */
GR_MATH_FN double gr_exp(double x) {
  if (x != x) return gr_math_from_bits(GR_MATH_NAN_BITS);
  if (x >= 709.79) return gr_math_from_bits(GR_MATH_INF_BITS);
  if (x <= -746.0) return 0.0;
  int64_t e;
  double y = gr_math_exp_scaled(x, &e);
  if (e >= -1022 && e <= 1023) return y * gr_math_pow2(e);
  if (e > 0) return (y * 2.0) * gr_math_pow2(e - 1);
  return (y * gr_math_pow2(e + 64)) * 0x1p-64; /* one rounding, to subnormal */
}

/* e^(d + lo) in float for -86 <= d <= 0 and |lo| <= 2^-18 (with_lo == 0
 * for gr_expf_term, which adds no lo), the method gr_expf_term states: k
 * from d alone, lo added to the reduced argument r, so that |r| <= ln2/64
 * + 2^-18.  In two steps, so that a caller may read the table entry its
 * own way (LOGSUMEXP's lanes of a whole warp, thread/logsumexp.cuh):
 * gr_math_expf_reduce gives p, e^(d + lo) = 2^(k>>5) T[k&31] (1 + p), and
 * the bits sb of k's float s, whose low 5 bits are k & 31, the entry's
 * index; gr_math_expf_scale gives T (1 + p) 2^(k>>5) from the entry t. */
typedef struct {
  float p;
  uint32_t sb;
} gr_math_expf_reduced;

GR_MATH_FN gr_math_expf_reduced gr_math_expf_reduce(float d, float lo, int with_lo) {
  const float shift = 0x1.8p23f; /* rounds to an integer, ties to even */
  const float s = gr_math_fmaf(d, GR_MATH_EXPF_INV_L, shift);
  const float kf = s - shift;
  /* d - k L1 exact (L1 to 12 bits), then k L2 off in one rounding */
  const float r0 = gr_math_fmaf(-kf, GR_MATH_EXPF_L2, gr_math_fmaf(-kf, GR_MATH_EXPF_L1, d));
  const float r = with_lo ? r0 + lo : r0;
  gr_math_expf_reduced out;
  out.p = gr_math_fmaf(r * r, gr_math_fmaf(r, GR_MATH_EXPF_C3, 0.5f), r);
  out.sb = gr_math_float_bits(s);
  return out;
}

GR_MATH_FN float gr_math_expf_scale(gr_math_expf_reduced red, float t) {
  /* s lies in [2^23, 2^24), where floats are the integers: its bits are
   * the shift's plus k, and the shift's low 22 bits are zero.  So k & 31
   * is bits(s) & 31, and 2^(k >> 5) as an exponent field, (k >> 5) << 23
   * modulo 2^32, is (bits(s) >> 5) << 23: the shift's own bits go out
   * past bit 31, and no shift of a negative number is needed.  On the
   * device it is written in PTX as a shift and a multiply-add,
   * (bits(s) >> 5) * 2^23 + bits(y), two instructions a term where nvcc
   * makes three of the C, a shift, a mask and an addition (sm_90 SASS) */
  const float y = gr_math_fmaf(t, red.p, t);
#if defined(__CUDA_ARCH__)
  uint32_t u;
  asm("{\n\t.reg .u32 q;\n\tshr.u32 q, %1, 5;\n\tmad.lo.u32 %0, q, 8388608, %2;\n\t}"
      : "=r"(u)
      : "r"(red.sb), "r"(gr_math_float_bits(y)));
  return gr_math_float_from_bits(u);
#else
  return gr_math_float_from_bits(gr_math_float_bits(y) + ((red.sb >> 5) << 23));
#endif
}

GR_MATH_FN float gr_math_expf_core(float d, float lo, int with_lo) {
  const gr_math_expf_reduced red = gr_math_expf_reduce(d, lo, with_lo);
  return gr_math_expf_scale(red, GR_MATH_EXPF_ENTRY(red.sb & 31));
}

/* gr_expf_term's and gr_expf_diff's choice of their result: y, their
 * core's value; d, the difference rounded to float; a and b, the
 * operands of gr_expf_diff */
GR_MATH_FN float gr_math_expf_term_pick(float d, float y) { return d >= -86.0f ? y : 0.0f; }
GR_MATH_FN float gr_math_expf_diff_pick(float a, float b, float d, float y) {
  return a == b ? 1.0f : gr_math_expf_term_pick(d, y);
}

/* gr_expf_diff's difference: d = a - b rounded to float, and *lo its
 * rounding error, exactly (Knuth's TwoSum: d + lo == a - b) */
GR_MATH_FN float gr_math_two_diff(float a, float b, float *lo) {
  const float d = a - b;
  const float z = d - a; /* TwoSum(a, -b) */
  *lo = (a - (d - z)) + (-b - z);
  return d;
}

/*
 * gr_expf_term: e^d in float for a float d <= 0, the term of LOGSUMEXP's
 * chunk fold (doc/ORDER.md), where d = x - max is rounded to float.
 *   Method: Tang's in float arithmetic: d = k ln2/32 + r, k = round(d
 *   32/ln2) (by the 1.5 2^23 shift, added to the product in one fused
 *   multiply-add), r = (d - k L1) - k L2 (L1: ln2/32 to 12 bits, so that
 *   d - k L1 is exact for |k| <= 3971; each step a fused multiply-add),
 *   |r| <= ln2/64; e^d = 2^(k>>5) T[k&31] (1 + p), T[j] = 2^(j/32) rounded
 *   to float (a 32-entry table: 128 bytes, one cache line, which a warp's
 *   lanes read at different entries in one request), p = r + r^2 (1/2 +
 *   r C3) (truncation below 2^-30.7 relative; two fused multiply-adds),
 *   T (1 + p) as T + T p fused, the scaling by 2^(k>>5) an integer
 *   addition to the exponent (the result is a normal float).
 *   Error: below 1.02 ulp of the float result for -86 <= d <= 0 (tests/math
 *   measures every such float against MPFR); exact 1 for d = +-0.
 *   Special cases: d < -86, -inf and NaN give +0 (e^-86 < 2^-124: such a
 *   term is below 2^-124 of the chunk's largest term, which is 1).  d > 0
 *   is outside the domain (no fold passes one): its result is unspecified
 *   and may differ between the backends.
 *   Cost: 8 FP32 operations (6 fused multiply-adds, 1 multiplication, 1
 *   addition), one table load, 4 integer operations; no FP64 operation,
 *   no conversion.
 */
GR_MATH_FN float gr_expf_term(float d) {
  /* the core for every d (its table index is masked, so any d reads
   * inside the table), then the choice: no branch, so that the compiler
   * interleaves a chunk's terms */
  return gr_math_expf_term_pick(d, gr_math_expf_core(d, 0.0f, 0));
}

/*
 * gr_expf_diff: e^(a - b) in float for floats a <= b, the difference
 * taken exactly: the scale of a chunk's sum, or of the running sum, in
 * LOGSUMEXP's chunk fold (doc/ORDER.md), where a and b are two maxima.
 *   Method: d = a - b rounded to float and its rounding error lo, exactly
 *   (Knuth's TwoSum: d + lo == a - b), then gr_expf_term's method with k
 *   from d and lo added to the reduced argument (|lo| <= 2^-18 where
 *   d >= -86).
 *   Error: below 1.02 ulp of the float result e^(a - b) wherever d is in
 *   [-86, 0] (tests/math measures it against MPFR on every float a below
 *   0.7, on the floats around the boundary, and on random pairs); exact 1
 *   for a == b.
 *   Special cases: a == b gives 1, infinities included; d below -86 (the
 *   rounded difference: an exact a - b up to 2^-18 below -86 that rounds
 *   to -86 gives its e^(a - b)), an infinite difference and a NaN give
 *   +0.  a > b is outside the domain, as for gr_expf_term.
 *   Cost: gr_expf_term's and 6 FP32 additions.
 */
GR_MATH_FN float gr_expf_diff(float a, float b) {
  /* branch-free, as gr_expf_term */
  float lo;
  const float d = gr_math_two_diff(a, b, &lo);
  return gr_math_expf_diff_pick(a, b, d, gr_math_expf_core(d, lo, 1));
}

/* exp(x) rounded to float for a float x in [-104, 89] whose fast path
 * could not decide: exp(x) as a double-double, relative error below
 * 2^-90 (the reduction with ln2/64 = L1 + L2 + L3, exp(r) as the
 * degree-11 Taylor polynomial, |r|^12/12! < 2^-118, in double-double). */
GR_MATH_COLD_FN float gr_math_expf_accurate(double x) {
  const double *t = GR_MATH_TABLE(exp);
  double r, ph, pl, rh, rl, h = 1.0, l = 0.0, s, c;
  unsigned j;
  int64_t e;
  double kd = gr_math_exp_reduce(x, &r, &j, &e);
  gr_math_two_prod(kd, GR_MATH_EXP_L2, &ph, &pl);
  gr_math_two_sum(x - kd * GR_MATH_EXP_L1, -ph, &rh, &rl);
  gr_math_fast_two_sum(rh, (rl - pl) - kd * GR_MATH_EXP_L3, &rh, &rl);
  for (int n = 11; n >= 1; n--) { /* h + l = 1 + r/n (h + l) */
    gr_math_dd_mul(h, l, rh, rl, &h, &l);
    gr_math_dd_div_int(h, l, (double)n, &h, &l);
    gr_math_fast_two_sum(1.0, h, &s, &c);
    gr_math_fast_two_sum(s, c + l, &h, &l);
  }
  gr_math_dd_mul(t[2 * j], t[2 * j + 1], h, l, &h, &l);
  double scale = gr_math_pow2(e); /* -151 <= e <= 129 */
  return gr_math_dd_to_float(h * scale, l * scale);
}

/* gr_expf's fast path, for -104 <= x <= 89: 1 and *f = e^x rounded when
 * the rounding test decides; 0 on its hard cases. */
GR_MATH_FN int gr_math_expf_fast(float x, float *f) {
  int64_t e;
  double y = gr_math_exp_scaled((double)x, &e);
  return gr_math_round_to_float(y * gr_math_pow2(e), f); /* -151 <= e <= 129 */
}

/*
 * gr_expf: e^x, correctly rounded to nearest (ties to even) for every
 * float x (all 2^32 checked against MPFR by make check-exhaustive).
 *   Method: gr_exp's evaluation at x, rounded to float when the rounding
 *   test (gr_math_round_to_float) decides, else gr_math_expf_accurate.
 *   Special cases: NaN -> the canonical quiet NaN (0x7fffffff); +inf and
 *   x > 89 -> +inf (e^x overflows from 0x1.62e430p+6 = 88.7228394);
 *   -inf and x < -104 -> +0 (e^x rounds to +0 below -103.972084);
 *   subnormal results correctly rounded; gr_expf(+-0) == 1.
 *   Cost (-104 <= x <= 89): 11 FP64 multiplications, 12 FP64 additions,
 *   1 float-to-double and 2 double-to-float conversions, 2 table loads
 *   (16 bytes), integer operations on the bits, 4 comparisons; the
 *   accurate path (8 inputs of the 2^32) some 700 FP64 operations
 *   more.
 */
GR_MATH_FN float gr_expf(float x) {
  if (x != x) return gr_math_float_from_bits(GR_MATH_NANF_BITS);
  if (x > 89.0f) return (float)gr_math_from_bits(GR_MATH_INF_BITS);
  if (x < -104.0f) return 0.0f;
  float f;
  if (gr_math_expf_fast(x, &f)) return f;
  return gr_math_expf_accurate((double)x);
}

/* ---- log ------------------------------------------------------------------- */

/* The reduction of log for a positive, finite x: x = 2^e m, m in [1, 2),
 * i = round((m - 1) 128), c_i m - 1 = rh + rl exactly.  Returns the
 * table's row {c_i, hi_i, lo_i}, -log(c_i) = hi_i + lo_i. */
GR_MATH_FN const double *gr_math_log_reduce(double x, double *ed, double *rh, double *rl) {
  uint64_t u = gr_math_bits(x);
  int64_t e = -1023;
  if (u < 0x10000000000000ull) { /* subnormal: scale by 2^54, exactly */
    u = gr_math_bits(x * 0x1p54);
    e -= 54;
  }
  e += (int64_t)(u >> 52);
  uint64_t mb = (u & 0xfffffffffffffull) | 0x3ff0000000000000ull;
  unsigned i = (unsigned)(((u & 0xfffffffffffffull) + (1ull << 44)) >> 45); /* 0..128 */
  const double *t = GR_MATH_TABLE(log) + 3 * i;
  double m = gr_math_from_bits(mb);
  double mh = gr_math_from_bits(mb & ~0xfffull); /* m to 2^-40 */
  *rh = t[0] * mh - 1.0;                          /* exact: 12 + 41 bits */
  *rl = t[0] * (m - mh);                          /* exact: 12 + 12 bits */
  *ed = (double)e;
  return t;
}

/* log(x) for a positive, finite x, relative error below 2^-52.9: 11 FP64
 * multiplications, 19 additions, 1 integer-to-double conversion. */
GR_MATH_FN double gr_math_log_eval(double x) {
  double ed, rh, rl, r, rerr, s, serr;
  const double *t = gr_math_log_reduce(x, &ed, &rh, &rl);
  gr_math_fast_two_sum(rh, rl, &r, &rerr);      /* exact: c_i m - 1 = r + rerr */
  double hi = ed * GR_MATH_LN2_HI + t[1];       /* exact (Tang's trailing zeros) */
  gr_math_fast_two_sum(hi, r, &s, &serr);       /* |hi| >= 1.97 |r| or hi == 0 */
  double r2 = r * r;
  double q = (GR_MATH_LOG_C3 + r * GR_MATH_LOG_C4) +
             r2 * ((GR_MATH_LOG_C5 + r * GR_MATH_LOG_C6) + r2 * GR_MATH_LOG_C7);
  double corr = r2 * (-0.5 + r * q); /* log1p(r) - r */
  return s + (serr + (rerr + (corr + (ed * GR_MATH_LN2_LO + t[2]))));
}

/*
 * gr_log: the natural logarithm in double.
 *   Method: the table reduction above (129 rows of {c_i, -log c_i as
 *   hi + lo}), a degree-7 polynomial for log1p, the large terms added
 *   exactly.
 *   Error: below 0.52 ulp (0.5 for the last rounding; tests/math measures
 *   it against MPFR), subnormal inputs included.  Relative error below
 *   2^-52.9.
 *   Exact: gr_log(1) == +0.
 *   Special cases: NaN and x < 0 (-inf included) -> the canonical quiet
 *   NaN (0x7fff...); +-0 -> -inf; +inf -> +inf.
 *   Cost of a call (positive finite x): 11 FP64 multiplications, 19 FP64
 *   additions, 1 integer-to-double conversion, 3 table loads (24 bytes of
 *   one 3 KiB table), integer operations on the bits; 1 multiplication
 *   more for a subnormal x.
 */
GR_MATH_FN double gr_log(double x) {
  if (!(x > 0.0)) {
    if (x == 0.0) return -gr_math_from_bits(GR_MATH_INF_BITS);
    return gr_math_from_bits(GR_MATH_NAN_BITS);
  }
  if (x - x != 0.0) return x; /* +inf */
  return gr_math_log_eval(x);
}

/* log(x) rounded to float for a positive float x whose fast path could
 * not decide: log(x) as a double-double, relative error below 2^-90
 * (log1p(r) as the degree-12 Taylor polynomial in double-double,
 * |r|^12/13 < 2^-99; the table's hi + lo and LN2_HI + LN2_LO within
 * 2^-95 of -log c_i and ln2). */
GR_MATH_COLD_FN float gr_math_logf_accurate(double x) {
  double ed, rh, rl, h, l, ch, cl, ph, pl;
  const double *t = gr_math_log_reduce(x, &ed, &rh, &rl);
  gr_math_fast_two_sum(rh, rl, &rh, &rl);
  h = 1.0 / 12.0;
  l = 0.0;
  for (int k = 11; k >= 1; k--) { /* h + l = 1/k - r (h + l) */
    gr_math_dd_div_int(1.0, 0.0, (double)k, &ch, &cl);
    gr_math_dd_mul(h, l, -rh, -rl, &h, &l);
    gr_math_dd_add(ch, cl, h, l, &h, &l);
  }
  gr_math_dd_mul(h, l, rh, rl, &h, &l); /* log1p(r) */
  gr_math_two_prod(ed, GR_MATH_LN2_LO, &ph, &pl);
  gr_math_dd_add(ph, pl, t[2], 0.0, &ph, &pl);
  gr_math_dd_add(ed * GR_MATH_LN2_HI + t[1], 0.0, ph, pl, &ph, &pl);
  gr_math_dd_add(ph, pl, h, l, &h, &l);
  return gr_math_dd_to_float(h, l);
}

/* gr_logf's fast path, for a positive finite x: 1 and *f = log(x)
 * rounded when the rounding test decides; 0 on its hard cases. */
GR_MATH_FN int gr_math_logf_fast(float x, float *f) {
  return gr_math_round_to_float(gr_math_log_eval((double)x), f);
}

/*
 * gr_logf: the natural logarithm, correctly rounded to nearest (ties to
 * even) for every float x (all 2^32 checked against MPFR by make
 * check-exhaustive).
 *   Method: gr_log's evaluation at x (a subnormal float is a normal
 *   double), rounded to float when the rounding test decides, else
 *   gr_math_logf_accurate.
 *   Special cases: NaN and x < 0 (-inf included) -> the canonical quiet
 *   NaN (0x7fffffff); +-0 -> -inf; +inf -> +inf; gr_logf(1) == +0.
 *   Cost (positive finite x): 12 FP64 multiplications, 21 FP64
 *   additions, 1 float-to-double, 1 integer-to-double and 2
 *   double-to-float conversions, 3 table loads (24 bytes), integer
 *   operations on the bits, 4 comparisons; the accurate path (46 inputs
 *   of the 2^32) some 900 FP64 operations more.
 */
GR_MATH_FN float gr_logf(float x) {
  if (!(x > 0.0f)) {
    if (x == 0.0f) return -(float)gr_math_from_bits(GR_MATH_INF_BITS);
    return gr_math_float_from_bits(GR_MATH_NANF_BITS);
  }
  if (x - x != 0.0f) return x; /* +inf */
  float f;
  if (gr_math_logf_fast(x, &f)) return f;
  return gr_math_logf_accurate((double)x);
}

#endif
