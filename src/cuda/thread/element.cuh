/*
 * cuda/thread/element.cuh - what every operation of the CUDA side builds on:
 * the element types (Elem<T>: the C type, its wide type, the conversions),
 * the type and operation families that index the policy table
 * (tuning/policy.cuh), and arithmetic without contraction.
 *
 * Floating-point arithmetic uses the _rn intrinsics so that nvcc never
 * contracts a multiply and an add into an FMA: the host backend computes
 * the same rounded operations and both must give the same bits.
 */
#ifndef GR_CUDA_ELEMENT_CUH
#define GR_CUDA_ELEMENT_CUH

#include <cmath>
#include <cstdint>

#include <cuda_fp16.h>

#include "gpureduce.h"

namespace gr {

/* ---- families: the rows and columns of the policy table ------------------ */

/* Element types by how their lanes fold (tuning/policy.cuh's columns): 16-bit
 * floats, 32- and 64-bit floats, 8-bit integers, wider integers. */
enum class TypeFamily { kFloat16, kFloat, kByte, kWideInt };
__host__ __device__ constexpr TypeFamily type_family(gpureduce_type_t t) {
  return t == GPUREDUCE_F16 || t == GPUREDUCE_BF16   ? TypeFamily::kFloat16
         : t == GPUREDUCE_F32 || t == GPUREDUCE_F64  ? TypeFamily::kFloat
         : t == GPUREDUCE_I8 || t == GPUREDUCE_U8    ? TypeFamily::kByte
                                                     : TypeFamily::kWideInt;
}
__host__ __device__ constexpr bool is_floating(TypeFamily f) {
  return f == TypeFamily::kFloat16 || f == TypeFamily::kFloat;
}

/* Operations by how their lanes fold (tuning/policy.cuh's rows): the sums (SUM,
 * SUM_ABS, SUM_SQUARES), PROD, MIN/MAX (and AMAX), ARGMIN/ARGMAX, the dot
 * product (two inputs, Dot in thread/ops.cuh), NRM2, MEAN_VAR, LOGSUMEXP. */
enum class OpFamily { kSum, kProd, kMinMax, kArg, kDot, kNrm2, kMeanVar, kLogSumExp };

/* ---- element types ------------------------------------------------------ */

/* Elem<T>: the C type of an element (`In`), the type it widens to
 * (`Wide`: float for f16/bf16/f32, double for f64, int64_t or uint64_t for
 * integers), and the conversion. */
template <gpureduce_type_t T> struct Elem;

template <> struct Elem<GPUREDUCE_F16> {
  using In = uint16_t;
  using Wide = float;
  static constexpr bool is_float = true;
  __device__ static float widen(In x) { return __half2float(__ushort_as_half(x)); }
  __device__ static In narrow(float v) { return __half_as_ushort(__float2half_rn(v)); }
  static constexpr In canonical_nan = 0x7fff, pos_inf = 0x7c00, neg_inf = 0xfc00;
};

template <> struct Elem<GPUREDUCE_BF16> {
  using In = uint16_t;
  using Wide = float;
  static constexpr bool is_float = true;
  __device__ static float widen(In x) { return __uint_as_float((uint32_t)x << 16); }
  /* Only called on values that came from a bf16 element: exact. */
  __device__ static In narrow(float v) { return (In)(__float_as_uint(v) >> 16); }
  static constexpr In canonical_nan = 0x7fff, pos_inf = 0x7f80, neg_inf = 0xff80;
};

template <> struct Elem<GPUREDUCE_F32> {
  using In = float;
  using Wide = float;
  static constexpr bool is_float = true;
  __device__ static float widen(In x) { return x; }
  __device__ static In narrow(float v) { return v; }
};

template <> struct Elem<GPUREDUCE_F64> {
  using In = double;
  using Wide = double;
  static constexpr bool is_float = true;
  __device__ static double widen(In x) { return x; }
  __device__ static In narrow(double v) { return v; }
};

/* Integers: `lowest` and `highest` are the identities of MAX and MIN. */
#define GR_INT_ELEM(ENUM, CTYPE, WIDE, LOWEST, HIGHEST)                 \
  template <> struct Elem<ENUM> {                                       \
    using In = CTYPE;                                                   \
    using Wide = WIDE;                                                  \
    static constexpr bool is_float = false;                             \
    static constexpr In lowest = LOWEST, highest = HIGHEST;             \
    __device__ static Wide widen(In x) { return (Wide)x; }              \
    __device__ static In narrow(Wide v) { return (In)v; }               \
  };
GR_INT_ELEM(GPUREDUCE_I8, int8_t, int64_t, INT8_MIN, INT8_MAX)
GR_INT_ELEM(GPUREDUCE_U8, uint8_t, uint64_t, 0, UINT8_MAX)
GR_INT_ELEM(GPUREDUCE_I32, int32_t, int64_t, INT32_MIN, INT32_MAX)
GR_INT_ELEM(GPUREDUCE_U32, uint32_t, uint64_t, 0, UINT32_MAX)
GR_INT_ELEM(GPUREDUCE_I64, int64_t, int64_t, INT64_MIN, INT64_MAX)
GR_INT_ELEM(GPUREDUCE_U64, uint64_t, uint64_t, 0, UINT64_MAX)
#undef GR_INT_ELEM

/* ---- arithmetic without contraction ------------------------------------- */

__device__ inline float add_rn(float a, float b) { return __fadd_rn(a, b); }
__device__ inline double add_rn(double a, double b) { return __dadd_rn(a, b); }
__device__ inline float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ inline double mul_rn(double a, double b) { return __dmul_rn(a, b); }
__device__ inline float sub_rn(float a, float b) { return __fsub_rn(a, b); }
__device__ inline double sub_rn(double a, double b) { return __dsub_rn(a, b); }
__device__ inline float div_rn(float a, float b) { return __fdiv_rn(a, b); }
__device__ inline double div_rn(double a, double b) { return __ddiv_rn(a, b); }
__device__ inline float sqrt_rn(float a) { return __fsqrt_rn(a); }
__device__ inline double sqrt_rn(double a) { return __dsqrt_rn(a); }
__device__ inline uint64_t add_rn(uint64_t a, uint64_t b) { return a + b; }
__device__ inline uint64_t mul_rn(uint64_t a, uint64_t b) { return a * b; }

__device__ inline bool is_nan(float x) { return x != x; }
__device__ inline bool is_nan(double x) { return x != x; }
template <class I> __device__ inline bool is_nan(I) { return false; }

__device__ inline float canonical(float x) {
  return is_nan(x) ? __uint_as_float(0x7fffffffu) : x;
}
__device__ inline double canonical(double x) {
  return is_nan(x) ? __longlong_as_double(0x7fffffffffffffffll) : x;
}

__device__ inline float abs_value(float x) { return fabsf(x); }
__device__ inline double abs_value(double x) { return fabs(x); }

} /* namespace gr */

#endif /* GR_CUDA_ELEMENT_CUH */
