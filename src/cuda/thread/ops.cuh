/*
 * cuda/thread/ops.cuh - the reduction operations of the CUDA side, and
 * OpFor, the operation of each (type, op, flags).
 *
 * Each operation is a small struct with the accumulator type `Acc`, the
 * result type `Out` and four functions: identity(), lift() (one element,
 * with its index, into an accumulator), combine() (two accumulators) and
 * finish() (accumulator to result), plus its type and family for the
 * policy table (tuning/policy.cuh).  The kernel layers call nothing else, so the
 * semantics documented in gpureduce.h live here (LOGSUMEXP's in
 * thread/logsumexp.cuh) and in the host backend's twin, src/host/order.c
 * (doc/ARCHITECTURE.md says why there are two).  The element types and the
 * arithmetic without contraction are thread/element.cuh's.
 */
#ifndef GR_CUDA_OPS_CUH
#define GR_CUDA_OPS_CUH

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "cuda/thread/element.cuh"
#include "cuda/thread/logsumexp.cuh"
#include "gpureduce.h"

namespace gr {

/* ---- sum-like operations ------------------------------------------------- */

/* The accumulator of a sum-like operation: float or double for floating
 * input (A chosen by the caller for f32 with GPUREDUCE_ACCUMULATE_F64),
 * uint64_t for integers (wrapping modulo 2^64). */
template <gpureduce_type_t T, bool F64>
using SumAcc = typename std::conditional<
    Elem<T>::is_float,
    typename std::conditional<F64, double, typename Elem<T>::Wide>::type,
    uint64_t>::type;

enum SumKind { kSum, kProd, kSumAbs, kSumSquares };

template <gpureduce_type_t T, SumKind K, bool F64 = false> struct SumLike {
  using E = Elem<T>;
  using In = typename E::In;
  using Acc = SumAcc<T, F64>;
  using Out = Acc; /* float, double or uint64_t (an int64_t's bits) */
  static constexpr bool kOrderFree = !E::is_float;
  static constexpr gpureduce_type_t kType = T;
  static constexpr SumKind kKind = K;
  static constexpr OpFamily kFamily = K == kProd ? OpFamily::kProd : OpFamily::kSum;

  __device__ static Acc identity() {
    if (K == kProd) return (Acc)1;
    /* -0 is the exact identity of IEEE addition: -0 + x == x for every x,
     * +0 included.  Integers: 0. */
    return E::is_float ? (Acc)-0.0 : (Acc)0;
  }
  __device__ static Acc lift(In x, uint64_t) {
    Acc v = (Acc)E::widen(x); /* integers: sign-extend, then reinterpret */
    if (K == kSumAbs) return lift_abs(x);
    if (K == kSumSquares) return mul_rn(v, v);
    return v;
  }
  __device__ static Acc combine(Acc a, Acc b) {
    return K == kProd ? mul_rn(a, b) : add_rn(a, b);
  }
  __device__ static Out finish(Acc a) { return fin(a); }
  __device__ static Out empty() {
    return K == kProd ? (Out)1 : (Out)0; /* +0, not the identity's -0 */
  }

 private:
  __device__ static Acc lift_abs(In x) {
    if constexpr (E::is_float) {
      return (Acc)abs_value(E::widen(x));
    } else if constexpr (std::is_signed<In>::value) {
      /* |x| in 64 bits: |INT64_MIN| is 2^63, fine as uint64_t. */
      const typename E::Wide w = E::widen(x);
      return w < 0 ? (Acc)0 - (Acc)w : (Acc)w;
    } else {
      return (Acc)x;
    }
  }
  __device__ static float fin(float a) { return canonical(a); }
  __device__ static double fin(double a) { return canonical(a); }
  __device__ static uint64_t fin(uint64_t a) { return a; }
};

/* ---- min and max --------------------------------------------------------- */

template <gpureduce_type_t T, bool IsMax> struct MinMax {
  using E = Elem<T>;
  using In = typename E::In;
  using Acc = typename E::Wide;
  using Out = In;
  static constexpr bool kOrderFree = true;
  static constexpr gpureduce_type_t kType = T;
  static constexpr bool kIsMax = IsMax;
  static constexpr OpFamily kFamily = OpFamily::kMinMax;

  __device__ static Acc identity() {
    if constexpr (E::is_float) return IsMax ? (Acc)-INFINITY : (Acc)INFINITY;
    else return (Acc)(IsMax ? E::lowest : E::highest);
  }
  __device__ static Acc lift(In x, uint64_t) { return E::widen(x); }
  /* NaN wins; -0 is below +0; otherwise the usual order.  The result is
   * one of a and b, so any order of combination gives the same answer.
   * Floats without a branch: PTX max/min (fmax, fmin) orders -0 below +0
   * and gives the number when one operand is a NaN, so the NaN is chosen
   * by select.  It replaced a NaN test, another, then a test of equality
   * and the sign, which branched (BSSY/BRA in the SASS) in every lane
   * tree, range tree and root combine: f64 max at 2^22 10.21 -> 9.14 us
   * (H200; doc/TUNING.md, "Lane kinds").  The partial-input tests' ties,
   * +-0 and NaNs (tests/lib/partial.c) check it against
   * tests/lib/reference.c. */
  __device__ static Acc combine(Acc a, Acc b) {
    if constexpr (E::is_float) {
      const Acc m = IsMax ? fmax(a, b) : fmin(a, b);
      return is_nan(a) ? a : (is_nan(b) ? b : m);
    } else {
      return (IsMax ? (a > b) : (a < b)) ? a : b;
    }
  }
  __device__ static Out finish(Acc a) { return fin(a); }
  __device__ static Out empty() { return fin(identity()); }

 private:
  __device__ static Out fin(Acc a) {
    if constexpr (T == GPUREDUCE_F16 || T == GPUREDUCE_BF16) {
      if (is_nan(a)) return E::canonical_nan;
      if (isinf(a)) return a > 0 ? E::pos_inf : E::neg_inf;
      return E::narrow(a);
    } else if constexpr (E::is_float) {
      return canonical(a);
    } else {
      return E::narrow(a);
    }
  }
};

/* ---- amax ------------------------------------------------------------------ */

/* The unsigned integer type of `Bytes` bytes. */
template <int Bytes>
using UnsignedOf = typename std::conditional<
    Bytes == 1, uint8_t,
    typename std::conditional<Bytes == 2, uint16_t,
                              typename std::conditional<Bytes == 4, uint32_t,
                                                        uint64_t>::type>::type>::type;

/*
 * AMAX, the largest |x|, exact.  Floats: the element's bits with the sign
 * bit cleared, compared as unsigned integers, order like the magnitudes,
 * with every NaN above +inf's bits; the largest of them is the result,
 * written as the canonical quiet NaN when it is a NaN's.  Integers: |x| in
 * the unsigned type of the element's width (|INT8_MIN| = 128).  The
 * accumulator is an unsigned integer of 32 bits (64 for 64-bit elements:
 * what the warp shuffles take, and host/order.c's *_amax accumulator, so a
 * partial's node has the same bytes from either backend); combine is its
 * max, so any order of combination gives the same answer.  Its family is
 * MIN/MAX's (the policy row: tuning/policy.cuh, PolicyRow<Amax>), whose
 * padding by copies of an element changes no maximum either.
 */
template <gpureduce_type_t T> struct Amax {
  using E = Elem<T>;
  using In = typename E::In;
  using Bits = UnsignedOf<sizeof(In)>;
  using Acc = typename std::conditional<sizeof(In) == 8, uint64_t, uint32_t>::type;
  using Out = Bits; /* the magnitude's bits, or the unsigned integer */
  static constexpr bool kOrderFree = true;
  static constexpr gpureduce_type_t kType = T;
  static constexpr OpFamily kFamily = OpFamily::kMinMax;
  static constexpr Bits kSign = (Bits)((Bits)1 << (8 * sizeof(In) - 1));
  /* +inf's bits: the largest magnitude that is not a NaN */
  static constexpr Acc kInf = T == GPUREDUCE_F16    ? (Acc)0x7c00u
                              : T == GPUREDUCE_BF16 ? (Acc)0x7f80u
                              : T == GPUREDUCE_F32  ? (Acc)0x7f800000u
                                                    : (Acc)0x7ff0000000000000ull;

  __device__ static Acc identity() { return Acc(0); }
  __device__ static Acc lift(In x, uint64_t) {
    if constexpr (E::is_float) {
      Bits b;
      memcpy(&b, &x, sizeof b);
      return (Acc)(Bits)(b & (Bits)~kSign);
    } else if constexpr (std::is_signed<In>::value) {
      /* two's complement: 0 - x in the unsigned type is |x| */
      return x < 0 ? (Acc)(Bits)((Bits)0 - (Bits)x) : (Acc)(Bits)x;
    } else {
      return (Acc)x;
    }
  }
  __device__ static Acc combine(Acc a, Acc b) { return a > b ? a : b; }
  __device__ static Out finish(Acc a) {
    if constexpr (E::is_float) return a > kInf ? (Out)~kSign : (Out)a;
    else return (Out)a;
  }
  __device__ static Out empty() { return Out(0); }
};

/* ---- argmin and argmax -------------------------------------------------- */

template <class W> struct ValueIndex {
  W v;
  uint64_t i;
};

/* The value ARGMIN and ARGMAX compare: float or double for floating-point
 * elements (Elem::Wide), the element widened to 32 bits for integers of
 * up to 32 bits (the same order as its 64-bit widening, in half the
 * registers), the element itself for 64-bit integers. */
template <gpureduce_type_t T>
using ArgValue = typename std::conditional<
    Elem<T>::is_float || sizeof(typename Elem<T>::In) == 8, typename Elem<T>::Wide,
    typename std::conditional<std::is_signed<typename Elem<T>::In>::value, int32_t,
                              uint32_t>::type>::type;

template <gpureduce_type_t T, bool IsMax> struct ArgMinMax {
  using E = Elem<T>;
  using In = typename E::In;
  using W = ArgValue<T>;
  using Acc = ValueIndex<W>;
  using Out = uint64_t;
  static constexpr bool kOrderFree = true;
  static constexpr gpureduce_type_t kType = T;
  static constexpr bool kIsMax = IsMax;
  static constexpr OpFamily kFamily = OpFamily::kArg;

  /* Loses to every element: the worst value and the largest index, so an
   * element equal to it still wins the tie on its lower index. */
  __device__ static Acc identity() {
    W worst;
    if constexpr (E::is_float)
      worst = IsMax ? (W)-INFINITY : (W)INFINITY;
    else
      worst = IsMax ? (W)E::lowest : (W)E::highest;
    return Acc{worst, UINT64_MAX};
  }
  __device__ static Acc lift(In x, uint64_t i) { return Acc{(W)E::widen(x), i}; }
  /* The first NaN wins; otherwise the better value; ties (-0 == +0
   * included) go to the lower index.  A total order on (value, index), so
   * the answer is independent of the order of combination. */
  __device__ static Acc combine(Acc a, Acc b) {
    bool an = is_nan(a.v), bn = is_nan(b.v);
    if (an || bn) {
      if (an && bn) return a.i < b.i ? a : b;
      return an ? a : b;
    }
    if (IsMax ? (a.v > b.v) : (a.v < b.v)) return a;
    if (IsMax ? (b.v > a.v) : (b.v < a.v)) return b;
    return a.i < b.i ? a : b;
  }
  __device__ static Out finish(Acc a) { return a.i; }
  /* GPUREDUCE_NO_INDEX: an empty segment's (the 1-D call refuses n == 0) */
  __device__ static Out empty() { return UINT64_MAX; }
};

/* An accumulator as a partial result's node holds it (kernel/reduce.cuh
 * store_root; api/partial.c and host/order.c read its bytes): Op::Acc
 * itself, except that ARGMIN's and ARGMAX's value is Elem::Wide there (a
 * 64-bit integer at byte 0 for every integer type, host/order.c's
 * pair_*), the index at byte 8. */
template <class Op> __device__ inline auto node_root(const typename Op::Acc &a) {
  if constexpr (Op::kFamily == OpFamily::kArg) {
    using Wide = typename Op::E::Wide;
    return ValueIndex<Wide>{(Wide)a.v, a.i};
  } else {
    return a;
  }
}

/* The 16-byte result of ARGMIN and ARGMAX with GPUREDUCE_WITH_VALUE: the
 * index at byte 0, the element at byte 8 in its own type (the low bytes
 * of `value`, little-endian), zeros up to byte 16.  Written with one
 * 16-byte store: the API checks that the output is 16-byte aligned. */
struct alignas(16) IndexWithValue {
  uint64_t index;
  uint64_t value;
};

/* x's bytes, zero-extended to 64 bits (IndexWithValue::value). */
template <class X> __device__ __forceinline__ uint64_t low_bytes_of(X x) {
  UnsignedOf<sizeof(X)> b;
  memcpy(&b, &x, sizeof b);
  return (uint64_t)b;
}

/* ARGMIN's and ARGMAX's result with GPUREDUCE_WITH_VALUE, a run-time flag
 * of the same kernels (the kernels' store_result): the index, and the
 * winner's value, which the accumulator already holds, written as MIN or
 * MAX would write that one element (the canonical quiet NaN; a zero keeps
 * its sign).  No element is read again. */
template <class Op>
__device__ __forceinline__ IndexWithValue finish_with_value(typename Op::Acc a) {
  using Value = MinMax<Op::kType, Op::kIsMax>;
  return IndexWithValue{a.i, low_bytes_of(Value::finish(a.v))};
}
/* An empty segment's: GPUREDUCE_NO_INDEX and MIN's or MAX's empty value. */
template <class Op> __device__ __forceinline__ IndexWithValue empty_with_value() {
  using Value = MinMax<Op::kType, Op::kIsMax>;
  return IndexWithValue{UINT64_MAX, low_bytes_of(Value::empty())};
}

/* ---- the dot product ------------------------------------------------------ */

/* gpureduce_dot(): SUM with two inputs.  lift2(x, y) is x*y in SUM's
 * accumulator, rounded once (mul_rn: never fused with the addition that
 * follows); identity, combine, finish and empty are SUM's.  Integers
 * widen (sign-extend) to 64 bits and multiply modulo 2^64.  The agents
 * that read two inputs are AgentDot and warp_tile_dot (agent/dot.cuh). */
template <gpureduce_type_t T, bool F64 = false> struct Dot : SumLike<T, kSum, F64> {
  using E = Elem<T>;
  using In = typename E::In;
  using Acc = SumAcc<T, F64>;
  static constexpr bool kTwoInputs = true;
  static constexpr OpFamily kFamily = OpFamily::kDot;
  __device__ static Acc lift2(In x, In y, uint64_t) {
    return mul_rn((Acc)E::widen(x), (Acc)E::widen(y));
  }
};

/* Does Op read two inputs (Dot)? */
template <class Op, class = void> struct IsTwoInput : std::false_type {};
template <class Op>
struct IsTwoInput<Op, std::void_t<decltype(Op::kTwoInputs)>> : std::bool_constant<Op::kTwoInputs> {};
/* ---- the norm and the moments ---------------------------------------------- */

/* The accumulator type of NRM2 and MEAN_VAR: float for f16, bf16 and f32,
 * double for f64 and for f32 with GPUREDUCE_ACCUMULATE_F64, double for
 * integers (each element converted to double, rounded to nearest). */
template <gpureduce_type_t T, bool F64>
using MomentAcc = typename std::conditional<
    Elem<T>::is_float,
    typename std::conditional<F64, double, typename Elem<T>::Wide>::type, double>::type;

/* Element x of type T in the accumulator type W: exact for floats (f16,
 * bf16, f32 widened), rounded to nearest for 64-bit integers. */
template <gpureduce_type_t T, class W>
__device__ __forceinline__ W moment_value(typename Elem<T>::In x) {
  return (W)Elem<T>::widen(x);
}

/*
 * Blue's constants for the accumulator format W, as reference LAPACK 3.10's
 * dnrm2.f90 derives them (Anderson, "Algorithm 978: Safe scaling in the
 * Level 1 BLAS", ACM TOMS 2017), from the format's minimum and maximum
 * exponents and digits (std::numeric_limits: min_exponent, max_exponent,
 * digits): |x| < tsml is small and scaled up by ssml, |x| > tbig is big and
 * scaled down by sbig, everything between is squared as it is.  All are
 * powers of two, so the scaling is exact (a small value times ssml and a
 * big one times sbig, even subnormals, and their squares up to the one
 * rounding of the product), and no square of a finite value overflows or
 * underflows to zero.  float: 2^-63, 2^52, 2^75, 2^-76; double: 2^-511,
 * 2^486, 2^537, 2^-538.
 */
template <class W> struct BlueConstants;
template <> struct BlueConstants<float> {
  static constexpr float tsml = 0x1p-63f, tbig = 0x1p52f, ssml = 0x1p75f, sbig = 0x1p-76f;
  static constexpr float inv_ssml = 0x1p-75f, inv_sbig = 0x1p76f;
  static constexpr int e_tsml = -63, e_tbig = 52, e_ssml = 75, e_sbig = -76;
};
template <> struct BlueConstants<double> {
  static constexpr double tsml = 0x1p-511, tbig = 0x1p486, ssml = 0x1p537, sbig = 0x1p-538;
  static constexpr double inv_ssml = 0x1p-537, inv_sbig = 0x1p538;
  static constexpr int e_tsml = -511, e_tbig = 486, e_ssml = 537, e_sbig = -538;
};
/* dnrm2.f90's formulas: tsml = 2^ceil((minexp - 1) / 2), tbig =
 * 2^floor((maxexp - digits + 1) / 2), ssml = 2^-floor((minexp - digits) / 2),
 * sbig = 2^-ceil((maxexp + digits - 1) / 2).  (C++ integer division
 * truncates: ceil for the negative quotients, floor for the positive.) */
template <class W> constexpr bool blue_matches_format() {
  using L = std::numeric_limits<W>;
  using B = BlueConstants<W>;
  return B::e_tsml == (L::min_exponent - 1) / 2 &&
         B::e_tbig == (L::max_exponent - L::digits + 1) / 2 &&
         B::e_ssml == (L::digits - L::min_exponent + 1) / 2 &&
         B::e_sbig == -((L::max_exponent + L::digits) / 2);
}
static_assert(blue_matches_format<float>() && blue_matches_format<double>(),
              "Blue's constants follow from the format");

/* NRM2's accumulator: the sums of the scaled squares of the small, the
 * medium and the big elements. */
template <class W> struct Nrm2Acc {
  W sml, med, big;
};

template <gpureduce_type_t T, bool F64 = false> struct Nrm2 {
  using E = Elem<T>;
  using In = typename E::In;
  using W = MomentAcc<T, F64>;
  using B = BlueConstants<W>;
  using Acc = Nrm2Acc<W>;
  using Out = W;
  static constexpr bool kOrderFree = false;
  static constexpr gpureduce_type_t kType = T;
  static constexpr OpFamily kFamily = OpFamily::kNrm2;

  /* +0 is exact for sums of squares: +0 + q == q for every q >= +0 or NaN. */
  __device__ static Acc identity() { return Acc{W(0), W(0), W(0)}; }
  /* |x| scaled by its class's power of two (1 for a medium one), squared,
   * into its class's sum; the other two sums get +0.  Branch-free: NaN
   * compares false both ways and lands in med, +-inf in big. */
  __device__ static Acc lift(In x, uint64_t) {
    const W a = abs_value(moment_value<T, W>(x));
    const bool big = a > B::tbig, sml = a < B::tsml;
    const W y = mul_rn(a, big ? B::sbig : sml ? B::ssml : W(1));
    const W q = mul_rn(y, y);
    return Acc{sml ? q : W(0), big || sml ? W(0) : q, big ? q : W(0)};
  }
  __device__ static Acc combine(const Acc &a, const Acc &b) {
    return Acc{add_rn(a.sml, b.sml), add_rn(a.med, b.med), add_rn(a.big, b.big)};
  }
  /* dnrm2.f90's final combination: with big values, med (scaled down
   * twice by sbig) joins big and small values are negligible; with small
   * and medium values, sqrt(med) and sqrt(sml)/ssml combine as
   * ymax * sqrt(1 + (ymin/ymax)^2), written ymax^2 (1 + (ymin/ymax)^2)
   * under one square root; otherwise the one sum alone.  Each step one
   * rounded operation (host/order.c repeats them). */
  __device__ static Out finish(const Acc &a) {
    W r;
    if (a.big > W(0)) {
      W s = a.big;
      if (a.med > W(0) || is_nan(a.med)) s = add_rn(s, mul_rn(mul_rn(a.med, B::sbig), B::sbig));
      r = mul_rn(sqrt_rn(s), B::inv_sbig);
    } else if (a.sml > W(0)) {
      if (a.med > W(0) || is_nan(a.med)) {
        const W am = sqrt_rn(a.med), as = mul_rn(sqrt_rn(a.sml), B::inv_ssml);
        const W ymin = as > am ? am : as, ymax = as > am ? as : am;
        const W q = div_rn(ymin, ymax);
        r = sqrt_rn(mul_rn(mul_rn(ymax, ymax), add_rn(W(1), mul_rn(q, q))));
      } else {
        r = mul_rn(sqrt_rn(a.sml), B::inv_ssml);
      }
    } else {
      r = sqrt_rn(a.med);
    }
    return canonical(r);
  }
  __device__ static Out empty() { return W(0); }
};

/*
 * The NRM2 of 8-bit integers where its order cannot show: every square
 * is an integer of at most kMaxSquare (128^2 for i8, 255^2 for u8), so
 * every partial sum of squares of n <= kMaxCount elements is an integer
 * of at most 2^53, which double holds exactly, and every addition of the
 * order's tree is exact.  Any grouping of the elements then gives the
 * same sum and the same bits, so its kernels may take the order-free
 * rows' tiles and tree (tuning/policy.cuh, kExactByteNrm2Policy).  The
 * dispatch launches them for n <= kMaxCount only (ReduceKernels::exact
 * and BatchedKernels::exact_tiles, instantiate/kernels.cuh); beyond, the
 * sums round and the order's kernels (Nrm2) decide.
 */
template <gpureduce_type_t T> struct ExactByteNrm2 : Nrm2<T> {
  static_assert(T == GPUREDUCE_I8 || T == GPUREDUCE_U8, "the NRM2 of 8-bit integers");
  static_assert(std::is_same<typename Nrm2<T>::W, double>::value, "sums of squares in double");
  static constexpr bool kOrderFree = true;
  static constexpr uint64_t kMaxSquare = T == GPUREDUCE_I8 ? 128 * 128 : 255 * 255;
  static constexpr uint64_t kMaxCount = ((uint64_t)1 << 53) / kMaxSquare;
};

/* MEAN_VAR's accumulator: the mean, the sum of squared deviations from it
 * (M2) and the count of a part of the input. */
template <class W> struct MeanVarAcc {
  W mean, m2;
  uint64_t n;
};

/* MEAN_VAR's result: {mean, population variance}, aligned to its size. */
template <class W> struct alignas(2 * sizeof(W)) MeanVarOut {
  W mean, var;
};

/*
 * MEAN_VAR: Chan, Golub and LeVeque's pairwise update ("Algorithms for
 * computing the sample variance: analysis and recommendations", The
 * American Statistician, 1983) in the order's tree, where SUM would add.
 * combine(a, b), n = na + nb, with N(k) the count k converted to W
 * (rounded to nearest):
 *   delta = mb - ma
 *   r     = N(nb) / N(n)
 *   mean  = ma + delta * r
 *   M2    = (M2a + M2b) + (delta * delta) * (N(na) * r)
 * each operation rounded once, in this order; a side with count 0 (the
 * identity) gives the other side unchanged.
 */
template <gpureduce_type_t T, bool F64 = false> struct MeanVar {
  using E = Elem<T>;
  using In = typename E::In;
  using W = MomentAcc<T, F64>;
  using Acc = MeanVarAcc<W>;
  using Out = MeanVarOut<W>;
  static constexpr bool kOrderFree = false;
  static constexpr gpureduce_type_t kType = T;
  static constexpr OpFamily kFamily = OpFamily::kMeanVar;
  /* the sequential lane folds element number C of a lane with fold_nth<C> */
  static constexpr bool kCountedFold = true;

  __device__ static Acc identity() { return Acc{W(0), W(0), 0}; }
  __device__ static Acc lift(In x, uint64_t) { return Acc{moment_value<T, W>(x), W(0), 1}; }
  /* Where the counts are equal (every level of a full tile's lane tree
   * and of a group's tile tree), r is N(c) / N(2c), and N(2c) = 2 N(c)
   * exactly (doubling commutes with rounding): r = 1/2 without the
   * division, the same bits. */
  __device__ static Acc combine(const Acc &a, const Acc &b) {
    if (b.n == 0) return a;
    if (a.n == 0) return b;
    const uint64_t n = a.n + b.n;
    const W r = a.n == b.n ? W(0.5) : div_rn((W)b.n, (W)n);
    const W delta = sub_rn(b.mean, a.mean);
    return Acc{add_rn(a.mean, mul_rn(delta, r)),
               add_rn(add_rn(a.m2, b.m2), mul_rn(mul_rn(delta, delta), mul_rn((W)a.n, r))),
               n};
  }
  /* combine(a, lift(x)) where a is the fold of a lane's first C elements
   * from the identity: a.n == C, so r = 1/(C+1) and N(na) * r = C * r are
   * constants, rounded once each at compile time as the division and the
   * product would round them; M2a + M2b is M2a + (+0), which is M2a (M2 is
   * never -0), so it is left out.  The same bits as combine(a, lift(x)),
   * without its division. */
  template <int C> __device__ __forceinline__ static void fold_nth(Acc &a, In x) {
    const W v = moment_value<T, W>(x);
    if constexpr (C == 0) {
      a = Acc{v, W(0), 1};
    } else {
      constexpr W r = W(1) / W(C + 1);
      constexpr W w = W(C) * r;
      const W delta = sub_rn(v, a.mean);
      a = Acc{add_rn(a.mean, mul_rn(delta, r)), add_rn(a.m2, mul_rn(mul_rn(delta, delta), w)),
              (uint64_t)C + 1};
    }
  }
  /* {mean, M2 / N(n)}; a NaN mean (a NaN in the input, or an infinity
   * among two or more elements) makes the variance NaN too. */
  __device__ static Out finish(const Acc &a) {
    const W nan = canonical(W(NAN));
    return Out{canonical(a.mean), is_nan(a.mean) ? nan : canonical(div_rn(a.m2, (W)a.n))};
  }
  /* an empty segment: {NaN, NaN} */
  __device__ static Out empty() { return Out{canonical(W(NAN)), canonical(W(NAN))}; }
};

/* ---- the operation for (type, op, flags) --------------------------------- */

template <gpureduce_type_t T, gpureduce_op_t O, bool F64 = false> struct OpFor;
/* 64-bit integers: SUM, PROD and SUM_SQUARES wrap modulo 2^64, where an
 * i64 and a u64 element of the same bits lift to the same accumulator, so
 * u64 takes i64's operations (one set of kernels of each family fewer). */
template <gpureduce_type_t T>
constexpr gpureduce_type_t kWrapType = T == GPUREDUCE_U64 ? GPUREDUCE_I64 : T;
template <gpureduce_type_t T, bool F64> struct OpFor<T, GPUREDUCE_SUM, F64> { using type = SumLike<kWrapType<T>, kSum, F64>; };
template <gpureduce_type_t T, bool F64> struct OpFor<T, GPUREDUCE_PROD, F64> { using type = SumLike<kWrapType<T>, kProd, F64>; };
/* Unsigned integers: |x| is x, so SUM_ABS is SUM's operation and AMAX is
 * MAX's (the same bits, and one set of kernels of each family fewer). */
template <gpureduce_type_t T>
constexpr bool kUnsignedInt = !Elem<T>::is_float && !std::is_signed<typename Elem<T>::In>::value;
template <gpureduce_type_t T, bool F64> struct OpFor<T, GPUREDUCE_SUM_ABS, F64> {
  using type = typename std::conditional<kUnsignedInt<T>, typename OpFor<T, GPUREDUCE_SUM, F64>::type,
                                         SumLike<T, kSumAbs, F64>>::type;
};
template <gpureduce_type_t T, bool F64> struct OpFor<T, GPUREDUCE_SUM_SQUARES, F64> { using type = SumLike<kWrapType<T>, kSumSquares, F64>; };
template <gpureduce_type_t T, bool F64> struct OpFor<T, GPUREDUCE_MIN, F64> { using type = MinMax<T, false>; };
template <gpureduce_type_t T, bool F64> struct OpFor<T, GPUREDUCE_MAX, F64> { using type = MinMax<T, true>; };
template <gpureduce_type_t T, bool F64> struct OpFor<T, GPUREDUCE_ARGMIN, F64> { using type = ArgMinMax<T, false>; };
template <gpureduce_type_t T, bool F64> struct OpFor<T, GPUREDUCE_ARGMAX, F64> { using type = ArgMinMax<T, true>; };
template <gpureduce_type_t T, bool F64> struct OpFor<T, GPUREDUCE_NRM2, F64> { using type = Nrm2<T, F64>; };
template <gpureduce_type_t T, bool F64> struct OpFor<T, GPUREDUCE_MEAN_VAR, F64> { using type = MeanVar<T, F64>; };
template <gpureduce_type_t T, bool F64> struct OpFor<T, GPUREDUCE_AMAX, F64> {
  using type = typename std::conditional<kUnsignedInt<T>, MinMax<T, true>, Amax<T>>::type;
};
/* LOGSUMEXP of an integer type is refused (UNSUPPORTED) before any launch;
 * its entry reuses AMAX's kernels of that type, which exist anyway, rather
 * than instantiate kernels that never run. */
template <gpureduce_type_t T, bool F64> struct OpFor<T, GPUREDUCE_LOGSUMEXP, F64> {
  using type = typename std::conditional<Elem<T>::is_float, LogSumExp<T>,
                                         typename OpFor<T, GPUREDUCE_AMAX, F64>::type>::type;
};
/* combine(acc, lift(x)): the fold of one element x of index i, as rule 3
 * of doc/ORDER.md states it, or Op::fold_one where Op has one (the same
 * bits at less cost: LogSumExp). */
template <class Op, class = void> struct HasFoldOne : std::false_type {};
template <class Op>
struct HasFoldOne<Op, std::void_t<decltype(Op::fold_one(Op::identity(), typename Op::In{}))>>
    : std::true_type {};
template <class Op>
__device__ __forceinline__ typename Op::Acc fold_element(const typename Op::Acc &acc,
                                                         typename Op::In x, uint64_t i) {
  if constexpr (HasFoldOne<Op>::value) {
    return Op::fold_one(acc, x);
  } else {
    return Op::combine(acc, Op::lift(x, i));
  }
}

/* Does Op fold a chunk whole, Op::fold_run(acc, e, lo, hi), rather than
 * element by element (LOGSUMEXP of the float types)?  Every place that
 * folds elements of a chunk asks. */
template <class Op, class = void> struct HasChunkFold : std::false_type {};
template <class Op>
struct HasChunkFold<Op, std::void_t<decltype(Op::kChunkFold)>>
    : std::integral_constant<bool, Op::kChunkFold> {};

/* Op with its combine out of line where the combine is large (LOGSUMEXP:
 * a double exp), for the kernels whose many trees and levels would each
 * inline a copy of it (the batched columns, short columns and warp
 * kernels, the segment windows); every other operation is itself.  The
 * same operations, so the same bits. */
template <class Op>
__device__ __noinline__ typename Op::Acc combine_call(typename Op::Acc a, typename Op::Acc b) {
  return Op::combine(a, b);
}
template <class Op> struct OutOfLineCombine : Op {
  __device__ static typename Op::Acc combine(const typename Op::Acc &a,
                                             const typename Op::Acc &b) {
    return combine_call<Op>(a, b);
  }
};
template <class Op>
using CompactOp = typename std::conditional<Op::kFamily == OpFamily::kLogSumExp,
                                            OutOfLineCombine<Op>, Op>::type;
/* The 1-D kernel's Op: CompactOp for the LOGSUMEXP of the 16-bit floats
 * (its combines in the block's lane and root trees one copy), Op itself
 * for every other operation and type (doc/TUNING.md, "LOGSUMEXP's
 * calls"). */
template <class Op>
using ReduceKernelOp =
    typename std::conditional<sizeof(typename Op::In) == 2, CompactOp<Op>, Op>::type;

/* GPUREDUCE_WITH_VALUE is a run-time flag of ArgMinMax's kernels
 * (finish_with_value); the dot product's operation is Dot, a family of
 * its own in the one list of instantiate/instantiate.cuh. */

} /* namespace gr */

#endif /* GR_CUDA_OPS_CUH */
