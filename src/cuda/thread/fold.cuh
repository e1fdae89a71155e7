/*
 * cuda/thread/fold.cuh - the thread layer: how one thread, one lane of the
 * order, folds its 8 chunks of an interior tile.  The lane kinds are named
 * by LaneKind; the policy table (tuning/policy.cuh) picks one per operation and
 * type family.
 *
 * A lane has a State, init(), chunk<K>(state, 16 bytes, first) for the
 * lane's K-th chunk (first: index of its first element) and
 * finish(state, first) -> Op::Acc, where first is the index of the first
 * element of the lane's chunk 0, so that chunk K's element j has index
 * first + K*GR_LANES*V + j.
 *
 * The floating-point sums, NRM2 and MEAN_VAR must follow the order
 * element by element (SequentialLane; Nrm2MediumLane, which leaves out
 * only additions of +0), except where the lane's value is exact
 * (Byte8Nrm2Lane).  Every other operation gives the same answer in
 * any order, so its lane may take exact shortcuts: min and max of floats use
 * the hardware's float min/max, argmin and argmax remember a small
 * position instead of a 64-bit index, and 8-bit integers use the SIMD byte
 * instructions (dp4a, vmin4).  Tiles that touch an end of the array come
 * here only under Shift::kRealign, their elements outside the array padded
 * so that they change nothing and their chunks past its end left out
 * (agent/reduce.cuh, lane_edge_realigned); under the other shifts they use
 * the plain element-by-element fold of the agent.
 *
 * H200, n = 2^28: with the plain fold u8 argmin read at 0.18x and f16 min
 * at 0.54x the f32 sum's GB/s (doc/TUNING.md, "Lane kinds").
 */
#ifndef GR_CUDA_THREAD_FOLD_CUH
#define GR_CUDA_THREAD_FOLD_CUH

#include <cstring>
#include <type_traits>

#include "cuda/thread/ops.cuh"
#include "order/order.h"

namespace gr {

__host__ __device__ constexpr int kChunkElems(int elem_bytes) { return GR_CHUNK_BYTES / elem_bytes; }

/* Run f(std::integral_constant<int, K>) for K = 0 .. N-1, unrolled, so
 * that each chunk's (or element's) position is a compile-time constant. */
template <int K, int N, class F> __device__ __forceinline__ void static_for(F &&f) {
  if constexpr (K < N) {
    f(std::integral_constant<int, K>{});
    static_for<K + 1, N>(f);
  }
}

/* Fold the V elements of one 16-byte chunk, whose first element has index
 * `first`, into acc in index order (the order's rule 3), or whole where
 * the operation folds chunks (HasChunkFold). */
template <class Op>
__device__ __forceinline__ void fold_chunk(typename Op::Acc &acc, const uint4 &v,
                                           uint64_t first) {
  using In = typename Op::In;
  constexpr int V = kChunkElems(sizeof(In));
  In e[V];
  memcpy(e, &v, sizeof e);
  if constexpr (HasChunkFold<Op>::value) {
    acc = Op::fold_run(acc, e, 0, V);
  } else {
#pragma unroll
    for (int j = 0; j < V; ++j) acc = fold_element<Op>(acc, e[j], first + j);
  }
}

/* Does Op fold element number C of a lane by Op::fold_nth<C> (MEAN_VAR,
 * whose combine with one element depends on the count before it)? */
template <class Op, class = void> struct HasCountedFold : std::false_type {};
template <class Op>
struct HasCountedFold<Op, std::void_t<decltype(Op::kCountedFold)>>
    : std::integral_constant<bool, Op::kCountedFold> {};

/* The order itself: every element in turn.  An interior tile's lane folds
 * all its 8 chunks from the identity, so element j of its chunk K is the
 * lane's element number K*V + j, a constant, which an operation with
 * fold_nth uses for the same bits as combine(acc, lift(x)). */
template <class Op> struct SequentialLane {
  using State = typename Op::Acc;
  __device__ static State init() { return Op::identity(); }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t first) {
    if constexpr (HasCountedFold<Op>::value) {
      using In = typename Op::In;
      constexpr int V = kChunkElems(sizeof(In));
      In e[V];
      memcpy(e, &v, sizeof e);
      static_for<0, V>([&](auto j) { Op::template fold_nth<K * V + j.value>(s, e[j.value]); });
    } else {
      fold_chunk<Op>(s, v, first);
    }
  }
  __device__ static typename Op::Acc finish(const State &s, uint64_t) { return s; }
};

/* ---- NRM2 -------------------------------------------------------------------- */

/* May an element of type T be small (nonzero, below Blue's tsml) or big
 * (finite, above tbig) in NRM2's accumulator W?  Integers never are: a
 * nonzero one is at least 1, and 2^64 < 2^486.  Nor are f16 elements in a
 * float accumulator (2^-24 to 65504, against 2^-63 and 2^52), nor f32 or
 * bf16 elements in a double one (2^-149 to 2^128, against 2^-511 and
 * 2^486).  An infinity is big in every type. */
template <gpureduce_type_t T, class W> __host__ __device__ constexpr bool nrm2_may_scale() {
  return T == GPUREDUCE_BF16 || T == GPUREDUCE_F32 ? sizeof(W) == 4 : T == GPUREDUCE_F64;
}

/*
 * NRM2's fold where a chunk has no small and no big element: x*x into
 * the medium sum alone.  That is the order's fold itself (SequentialLane
 * with Nrm2::lift), not a shortcut: lift scales a medium |x| by 1 and
 * squares it, x*x to the bit, and adds +0 to the small and the big sums,
 * which changes neither (each is +0 or a sum of squares, never -0, and
 * neither is ever a NaN: a NaN is medium, and squares to a NaN here as in
 * lift).  Zero is small for lift but squares to +0 in any class, so it
 * counts as medium here.  A chunk with a small or a big element (an
 * infinity among them) takes fold_chunk with lift, so the result has the
 * order's bits for every input.
 *
 * The test costs little where it costs anything: integers and f16 never
 * scale (nrm2_may_scale); an infinity is found by the largest |x| of the
 * chunk; a small nonzero float by the smallest of 2 * bits(|x|) - 1 over
 * the chunk, unsigned, where zero wraps to the top.  H200, from 2^24, this
 * lane / lift's three sums an element: f16 and bf16 1.4 to 1.7x, f32 1.02
 * to 1.29x, 32-bit integers 1.08 to 1.18x (doc/TUNING.md, "NRM2").
 */
template <class Op> struct Nrm2MediumLane {
  static_assert(Op::kFamily == OpFamily::kNrm2, "NRM2 only");
  using In = typename Op::In;
  using State = typename Op::Acc;
  using W = decltype(Op::identity().med);
  using B = BlueConstants<W>;
  static constexpr gpureduce_type_t T = Op::kType;
  static constexpr int V = kChunkElems(sizeof(In));

  __device__ static State init() { return Op::identity(); }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t first) {
    In e[V];
    memcpy(e, &v, sizeof e);
    W q[V];
    bool medium = true;
    if constexpr (!Elem<T>::is_float) {
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const W w = moment_value<T, W>(e[j]);
        q[j] = mul_rn(w, w);
      }
    } else {
      W top = W(0);          /* the largest |x|: CUDA's fmax (PTX max) gives
                              * the number beside a NaN, any NaN */
      uint32_t low = ~0u;    /* the smallest 2 * bits(|x|) - 1 (float W) */
      bool small = false;    /* a small nonzero |x| (double W) */
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const W w = moment_value<T, W>(e[j]);
        q[j] = mul_rn(w, w);
        top = fmax(top, abs_value(w));
        if constexpr (nrm2_may_scale<T, W>()) {
          if constexpr (sizeof(W) == 4) {
            const uint32_t b = __float_as_uint(w);
            low = min(low, b + b - 1u);
          } else {
            small |= abs_value(w) < B::tsml && w != W(0);
          }
        }
      }
      medium = !(top > B::tbig);
      if constexpr (nrm2_may_scale<T, W>()) {
        if constexpr (sizeof(W) == 4) medium = medium && low >= 2u * __float_as_uint(B::tsml) - 1u;
        else medium = medium && !small;
      }
    }
    if (medium) {
#pragma unroll
      for (int j = 0; j < V; ++j) s.med = add_rn(s.med, q[j]);
    } else {
      fold_chunk<Op>(s, v, first);
    }
  }
  __device__ static typename Op::Acc finish(const State &s, uint64_t) { return s; }
};

/* ---- min and max of floating-point values ----------------------------------- */

/* The value a min/max lane gives when it saw a NaN: every bit but the
 * sign set for MAX, every bit set for MIN (the NaNs the ordered-key lanes
 * gave, kept so that a lane's value stays what it was); MinMax's finish
 * makes it the canonical NaN. */
template <class W, bool IsMax> __device__ __forceinline__ W lane_nan() {
  if constexpr (sizeof(W) == 4) return __int_as_float(IsMax ? 0x7fffffff : -1);
  else return __longlong_as_double(IsMax ? 0x7fffffffffffffffll : -1ll);
}

/* MIN and MAX of 32- and 64-bit floats by fmax and fmin (PTX max and
 * min), with a flag for a NaN seen beside.  PTX's max and min order -0
 * below +0 and return the number when one operand is a NaN (PTX ISA,
 * Floating Point Instructions: max, min), so the lane's value is the best
 * of its numbers in MinMax's order, or lane_nan when it saw a NaN.  For
 * f32 that is FMNMX, two instructions an element with the NaN test; sm_90
 * has no double min/max instruction, and nvcc makes the f64 one DSETP.MAX
 * with selects, about six (SASS, sm_90).  H200 f32 min at 2^28: 237.8 us,
 * against 240.5 with ordered integer keys (doc/TUNING.md, "Lane kinds"). */
template <class Op, bool IsMax> struct NativeMinMaxLane {
  using In = typename Op::In;
  using W = typename Op::Acc; /* float or double */
  static_assert(sizeof(In) == sizeof(W), "32- and 64-bit floats only");
  struct State {
    W best;
    bool nan;
  };
  __device__ static W best(W a, W b) { return IsMax ? fmax(a, b) : fmin(a, b); }
  __device__ static State init() { return State{Op::identity(), false}; }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    constexpr int V = kChunkElems(sizeof(In));
    W e[V];
    memcpy(e, &v, sizeof e);
    bool nan = false;
#pragma unroll
    for (int j = 0; j < V; ++j) nan |= e[j] != e[j];
#pragma unroll
    for (int step = 1; step < V; step *= 2)
#pragma unroll
      for (int j = 0; j + step < V; j += 2 * step) e[j] = best(e[j], e[j + step]);
    s.best = K == 0 ? e[0] : best(s.best, e[0]);
    s.nan = K == 0 ? nan : (s.nan || nan);
  }
  __device__ static W finish(const State &s, uint64_t) {
    return s.nan ? lane_nan<W, IsMax>() : s.best;
  }
};

/* MIN and MAX of 16-bit floats (f16, bf16) on packed keys, two elements a
 * 32-bit word, without widening: the key of each half is its bits with the
 * 15 low bits flipped when the sign is set (a signed 16-bit order that is
 * the float order, -0 below +0), a NaN's key the winning end (0x7fff for
 * MAX, 0x8000 for MIN; a NaN is a magnitude above the infinity's, found by
 * a carry into bit 15 that cannot reach the other half).  __vmaxs2 and
 * __vmins2 take the best of each half; the lane's value is the best of its
 * two halves, widened, or lane_nan.  Half2NativeMinMaxLane's value, for
 * the architectures before sm_80, which have no 16-bit float min/max. */
template <class Op, bool IsMax> struct Half2MinMaxLane {
  using In = typename Op::In;
  using W = typename Op::Acc; /* float */
  static_assert(sizeof(In) == 2 && sizeof(W) == 4, "16-bit floats only");
  /* magnitude + kNanCarry sets bit 15 exactly for magnitudes above the
   * infinity's (f16 0x7c00, bf16 0x7f80) */
  static constexpr uint32_t kNanCarry = Op::kType == GPUREDUCE_F16 ? 0x03ff03ffu : 0x007f007fu;
  static constexpr uint32_t kNanKeys = IsMax ? 0x7fff7fffu : 0x80008000u;
  using State = uint32_t;
  __device__ static uint32_t keys(uint32_t w) {
    const uint32_t magnitude = w & 0x7fff7fffu;
    const uint32_t flip = ((w >> 15) & 0x00010001u) * 0x7fffu;
    const uint32_t nan = (((magnitude + kNanCarry) >> 15) & 0x00010001u) * 0xffffu;
    return ((w ^ flip) & ~nan) | (kNanKeys & nan);
  }
  __device__ static uint32_t best(uint32_t a, uint32_t b) {
    return IsMax ? __vmaxs2(a, b) : __vmins2(a, b);
  }
  /* unused: every lane that folds starts from its chunk 0 */
  __device__ static State init() { return kNanKeys ^ 0xffffffffu; }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    const uint32_t m = best(best(keys(v.x), keys(v.y)), best(keys(v.z), keys(v.w)));
    s = K == 0 ? m : best(s, m);
  }
  __device__ static W finish(const State &s, uint64_t) {
    const int lo = (int16_t)(s & 0xffffu), hi = (int16_t)(s >> 16);
    const int k = IsMax ? max(lo, hi) : min(lo, hi);
    if (k == (int)(int16_t)(kNanKeys & 0xffffu)) return lane_nan<W, IsMax>();
    const uint16_t bits = (uint16_t)(k < 0 ? (k ^ 0x7fff) : k);
    In e;
    memcpy(&e, &bits, sizeof e);
    return Op::E::widen(e);
  }
};

/* MIN and MAX of 16-bit floats (f16, bf16) by the hardware's min and max
 * of two halves a word that let NaNs through (HMNMX2, PTX max.NaN.f16x2
 * and max.NaN.bf16x2, sm_80 and later): -0 below +0 as above, and a half
 * that saw a NaN holds the canonical NaN.  The lane's value is the best of
 * its two halves, widened, or lane_nan: one instruction a word instead of
 * Half2MinMaxLane's dozen.  Before sm_80 it is Half2MinMaxLane. */
template <class Op, bool IsMax> struct Half2NativeMinMaxLane {
  using In = typename Op::In;
  using W = typename Op::Acc; /* float */
  using Keys = Half2MinMaxLane<Op, IsMax>;
  static_assert(sizeof(In) == 2 && sizeof(W) == 4, "16-bit floats only");
  using State = uint32_t; /* two halves (sm_80 on), or Keys' two keys */
  __device__ static uint32_t best(uint32_t a, uint32_t b) {
    uint32_t d;
    if constexpr (Op::kType == GPUREDUCE_F16) {
      if constexpr (IsMax) asm("max.NaN.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
      else asm("min.NaN.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    } else {
      if constexpr (IsMax) asm("max.NaN.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
      else asm("min.NaN.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    }
    return d;
  }
  /* unused (every lane that folds starts from its chunk 0), but the
   * identity all the same: two halves of -inf (MAX) or +inf (MIN) */
  __device__ static State init() {
#if __CUDA_ARCH__ >= 800
    return (uint32_t)Op::E::narrow(Op::identity()) * 0x00010001u;
#else
    return Keys::init();
#endif
  }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t first) {
#if __CUDA_ARCH__ >= 800
    const uint32_t m = best(best(v.x, v.y), best(v.z, v.w));
    s = K == 0 ? m : best(s, m);
#else
    Keys::template chunk<K>(s, v, first);
#endif
  }
  __device__ static W finish(const State &s, uint64_t first) {
#if __CUDA_ARCH__ >= 800
    const W lo = Op::E::widen((In)(s & 0xffffu)), hi = Op::E::widen((In)(s >> 16));
    if (lo != lo || hi != hi) return lane_nan<W, IsMax>();
    return IsMax ? fmaxf(lo, hi) : fminf(lo, hi);
#else
    return Keys::finish(s, first);
#endif
  }
};

/* ARGMIN and ARGMAX of any element type: the best value so far and its
 * position in the tile (chunk K, element j: K*V + j).  Each chunk is first
 * reduced by a small tree (depth log2 V instead of a chain of V), then
 * merged into the lane's best.  take(a, b), with b after a in the array,
 * says whether b replaces a: a NaN is never replaced and replaces any
 * number (the first NaN wins), otherwise only a strictly better value
 * wins (ties keep the earlier element). */
template <class Op, bool IsMax> struct ArgLane {
  using In = typename Op::In;
  using W = typename Op::W;
  struct State {
    W best;
    int pos;
  };
  __device__ static bool take(W a, W b) {
    return !is_nan(a) && (is_nan(b) || (IsMax ? b > a : b < a));
  }
  __device__ static State init() { return State{W(), -1}; }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    constexpr int V = kChunkElems(sizeof(In));
    In e[V];
    memcpy(e, &v, sizeof e);
    W val[V];
    int pos[V];
#pragma unroll
    for (int j = 0; j < V; ++j) {
      val[j] = (W)Op::E::widen(e[j]);
      pos[j] = K * V + j;
    }
#pragma unroll
    for (int step = 1; step < V; step *= 2)
#pragma unroll
      for (int j = 0; j + step < V; j += 2 * step) {
        const bool t = take(val[j], val[j + step]);
        val[j] = t ? val[j + step] : val[j];
        pos[j] = t ? pos[j + step] : pos[j];
      }
    if (K == 0) {
      s.best = val[0];
      s.pos = pos[0];
    } else {
      const bool t = take(s.best, val[0]);
      s.best = t ? val[0] : s.best;
      s.pos = t ? pos[0] : s.pos;
    }
  }
  __device__ static typename Op::Acc finish(const State &s, uint64_t first) {
    constexpr int V = kChunkElems(sizeof(In));
    const uint64_t k = (uint64_t)(s.pos / V), j = (uint64_t)(s.pos % V);
    return typename Op::Acc{s.best, first + k * GR_LANES * V + j};
  }
};

/* ---- 8-bit integers --------------------------------------------------------- */

template <bool Signed> __device__ __forceinline__ int dot4(uint32_t a, uint32_t b, int c) {
  if constexpr (Signed) return __dp4a((int)a, (int)b, c);
  else return (int)__dp4a(a, b, (unsigned)c);
}

/* SUM, SUM_ABS and SUM_SQUARES of 8-bit integers: dp4a sums four bytes (or
 * their squares) per instruction into 32 bits, which cannot overflow in
 * one tile (128 elements of at most 2^16 each), then the lane widens once. */
template <class Op, bool Signed, SumKind Kind> struct Byte8SumLane {
  using State = int;
  __device__ static State init() { return 0; }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      if (Kind == kSumSquares) s = dot4<Signed>(w[i], w[i], s);
      else if (Kind == kSumAbs && Signed) s = dot4<false>(__vabs4(w[i]), 0x01010101u, s);
      else s = dot4<Signed>(w[i], 0x01010101u, s);
    }
  }
  __device__ static typename Op::Acc finish(const State &s, uint64_t) {
    /* signed sums are negative only for SUM of i8; squares and |x| are not */
    return Signed && Kind == kSum ? (uint64_t)(int64_t)s : (uint64_t)(uint32_t)s;
  }
};

/* The product of a word's four bytes as signed 8-bit integers, exact
 * (|p| <= 128^4 = 2^28). */
__device__ __forceinline__ int32_t word_product_s8(uint32_t w) {
  return (int32_t)(int8_t)w * (int8_t)(w >> 8) * (int8_t)(w >> 16) * (int8_t)(w >> 24);
}

/* PROD of 8-bit integers: four bytes multiply exactly in 32 bits
 * (255^4 < 2^32, 128^4 = 2^28).  u8: one 64-by-32-bit multiply per word
 * into the state.  i8: the words' products in pairs first, each pair by
 * one widening multiply (|p0 p1| <= 2^56, exact), then one 64-bit
 * multiply of the two pairs and one into the state, where a 64-bit
 * multiply per word would take the sign-extended high word too.  The
 * products wrap modulo 2^64 as the operation's do, so the pairing changes
 * no bit.  H200, pairs / a word at a time, 2^20 to 2^30: i8 1.00 to
 * 1.02x (2^28: 68.8 -> 67.6 us); u8 0.97 to 1.01x, so u8 keeps a multiply
 * a word. */
template <class Op, bool Signed> struct Byte8ProdLane {
  using State = uint64_t;
  __device__ static State init() { return 1; }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    const uint32_t w[4] = {v.x, v.y, v.z, v.w};
    if constexpr (Signed) {
      int64_t q[2];
#pragma unroll
      for (int i = 0; i < 2; ++i)
        q[i] = (int64_t)word_product_s8(w[2 * i]) * word_product_s8(w[2 * i + 1]);
      s *= (uint64_t)q[0] * (uint64_t)q[1];
    } else {
#pragma unroll
      for (int i = 0; i < 4; ++i)
        s *= (uint64_t)((w[i] & 0xff) * ((w[i] >> 8) & 0xff) * ((w[i] >> 16) & 0xff) *
                        (w[i] >> 24));
    }
  }
  __device__ static typename Op::Acc finish(const State &s, uint64_t) { return s; }
};

/* NRM2 of 8-bit integers: dp4a's sum of the lane's squares, converted
 * once.  The same value as the order's element-by-element fold
 * (SequentialLane with Nrm2::lift), though NRM2's order decides its
 * value in general: no nonzero integer is small or big for Blue's
 * thresholds, so that fold adds x*x to the medium sum (a double for
 * integers) and +0 to the other two, and every square is an integer of
 * at most 255^2 < 2^16, so the lane's 128 of them sum below 2^23 and each
 * of its double additions is exact.  Everything above the lane is
 * unchanged. */
template <class Op, bool Signed>
struct Byte8Nrm2Lane : Byte8SumLane<Op, Signed, kSumSquares> { /* its State, init and chunk */
  static_assert(Op::kFamily == OpFamily::kNrm2 && sizeof(typename Op::In) == 1,
                "the NRM2 of 8-bit integers");
  static_assert((long long)GR_CHUNKS_PER_LANE * 16 * 255 * 255 <= 2147483647LL,
                "a lane's squares sum in the int State, far below 2^53");
  using W = decltype(Op::identity().med);
  __device__ static typename Op::Acc finish(const int &s, uint64_t) {
    return typename Op::Acc{W(0), W(s), W(0)};
  }
};

template <bool Signed, bool IsMax> __device__ __forceinline__ uint32_t vbest4(uint32_t a, uint32_t b) {
  if constexpr (Signed) return IsMax ? __vmaxs4(a, b) : __vmins4(a, b);
  else return IsMax ? __vmaxu4(a, b) : __vminu4(a, b);
}

/* The best of the four bytes of a word. */
template <bool Signed, bool IsMax> __device__ __forceinline__ int best_byte(uint32_t w) {
  w = vbest4<Signed, IsMax>(w, w >> 16);
  w = vbest4<Signed, IsMax>(w, w >> 8);
  return Signed ? (int)(int8_t)w : (int)(w & 0xff);
}

/* MIN and MAX of 8-bit integers: four lanes of bytes per instruction. */
template <class Op, bool Signed, bool IsMax> struct Byte8MinMaxLane {
  using State = uint32_t; /* four running bests */
  __device__ static State init() {
    const uint32_t id = (uint32_t)(uint8_t)Op::E::narrow(Op::identity());
    return id * 0x01010101u;
  }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    s = vbest4<Signed, IsMax>(s, vbest4<Signed, IsMax>(vbest4<Signed, IsMax>(v.x, v.y),
                                                       vbest4<Signed, IsMax>(v.z, v.w)));
  }
  __device__ static typename Op::Acc finish(const State &s, uint64_t) {
    return (typename Op::Acc)best_byte<Signed, IsMax>(s);
  }
};

/* AMAX of 8-bit integers: four magnitudes per instruction and their
 * running unsigned maxima.  A signed byte's |x| is the unsigned smaller of
 * x and -x modulo 256 (|-128| = 0x80, 128), what Amax::lift gives. */
template <class Op, bool Signed> struct Byte8AmaxLane {
  using State = uint32_t; /* four running maxima */
  __device__ static uint32_t magnitudes(uint32_t w) {
    if constexpr (Signed) return __vminu4(w, __vsub4(0u, w));
    else return w;
  }
  __device__ static State init() { return 0; }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    s = __vmaxu4(s, __vmaxu4(__vmaxu4(magnitudes(v.x), magnitudes(v.y)),
                             __vmaxu4(magnitudes(v.z), magnitudes(v.w))));
  }
  __device__ static typename Op::Acc finish(const State &s, uint64_t) {
    return (typename Op::Acc)best_byte<false, true>(s);
  }
};

/* AMAX of 16-bit floats (f16, bf16): two elements a word, their bits with
 * the sign cleared (Amax::lift) and their running unsigned maxima, one
 * max.u16x2 (__vmaxu2) a word: every NaN's bits lie above +inf's, as in
 * Amax::combine, so the lane's value is exact. */
template <class Op> struct Half2AmaxLane {
  using State = uint32_t; /* two running maxima */
  static constexpr uint32_t kMagnitudes = 0x7fff7fffu;
  __device__ static State init() { return 0; }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    s = __vmaxu2(s, __vmaxu2(__vmaxu2(v.x & kMagnitudes, v.y & kMagnitudes),
                             __vmaxu2(v.z & kMagnitudes, v.w & kMagnitudes)));
  }
  __device__ static typename Op::Acc finish(const State &s, uint64_t) {
    const uint32_t lo = s & 0xffffu, hi = s >> 16;
    return (typename Op::Acc)(lo > hi ? lo : hi);
  }
};

/* The best byte of each 16-bit half of a word, in the half's high byte,
 * from two words: x's halves hold bytes 1 and 3 high, x << 8's bytes 0
 * and 2.  The min or max of two halves is decided by their high bytes
 * (the low byte is 0..255, below one step of the high byte), so the
 * running best of several words keeps the best high byte of each half.
 * One min.u16x2 or min.s16x2 (__vminu2, __vmins2) from sm_90; before,
 * the intrinsics are emulated (on sm_80, two 32-bit min/max and the
 * moves of the halves, in the PTX). */
template <bool Signed, bool IsMax> __device__ __forceinline__ uint32_t vbest2(uint32_t a, uint32_t b) {
  if constexpr (Signed) return IsMax ? __vmaxs2(a, b) : __vmins2(a, b);
  else return IsMax ? __vmaxu2(a, b) : __vminu2(a, b);
}

/* A chunk's bytes folded by vbest2: x = the best of its words (bytes 1
 * and 3 of each, high in the halves), y = the best of its words shifted
 * left a byte (bytes 0 and 2). */
template <bool Signed, bool IsMax> __device__ __forceinline__ uint2 vbest2_chunk(const uint4 &v) {
  return make_uint2(vbest2<Signed, IsMax>(vbest2<Signed, IsMax>(v.x, v.y),
                                          vbest2<Signed, IsMax>(v.z, v.w)),
                    vbest2<Signed, IsMax>(vbest2<Signed, IsMax>(v.x << 8, v.y << 8),
                                          vbest2<Signed, IsMax>(v.z << 8, v.w << 8)));
}

/* The best byte, as an int of its sign, of two such words. */
template <bool Signed, bool IsMax> __device__ __forceinline__ int vbest2_byte(uint32_t odd,
                                                                            uint32_t even) {
  const uint32_t h = vbest2<Signed, IsMax>(odd, even);
  const uint32_t b = vbest2<Signed, IsMax>(h, h >> 16); /* in its low half's high byte */
  return Signed ? (int)(int8_t)(b >> 8) : (int)((b >> 8) & 0xff);
}

/* ARGMIN and ARGMAX of 8-bit integers, without a branch: each chunk's
 * best byte by the 16-bit SIMD min/max of its words and of its words
 * shifted a byte (vbest2: two instructions and a shift a word, where
 * sm_90 emulates vmin4 by several); a chunk whose best beats the lane's
 * (strictly: ties keep the earlier element) becomes the lane's best chunk
 * by select, its 16 bytes kept; at finish, the best byte's first place in
 * that chunk, by the zero-byte test of "Bit Twiddling Hacks" (S. E.
 * Anderson, "Determine if a word has a zero byte").  H200 u8 argmin from
 * 2^24: 1.26 to 1.49x as fast as a lane that searched each better chunk
 * in a branch (2^28: 88.9 -> 66.1 us). */
template <class Op, bool Signed, bool IsMax> struct Byte8ArgLane {
  /* below (above, for argmin) every byte: the first chunk always wins */
  static constexpr int kNone = IsMax ? (Signed ? -129 : -1) : (Signed ? 128 : 256);
  struct State {
    int best; /* the best byte */
    int k;    /* its chunk */
    uint4 v;  /* that chunk */
  };
  __device__ static State init() { return State{kNone, 0, make_uint4(0, 0, 0, 0)}; }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    const uint2 p = vbest2_chunk<Signed, IsMax>(v);
    const int c = vbest2_byte<Signed, IsMax>(p.x, p.y);
    const bool take = IsMax ? c > s.best : c < s.best;
    s.best = take ? c : s.best;
    s.k = take ? K : s.k;
    s.v.x = take ? v.x : s.v.x;
    s.v.y = take ? v.y : s.v.y;
    s.v.z = take ? v.z : s.v.z;
    s.v.w = take ? v.w : s.v.w;
  }
  __device__ static typename Op::Acc finish(const State &s, uint64_t first) {
    /* the first byte equal to best, a zero byte of word ^ bb: the test
     * marks every zero byte and may mark bytes above one (a borrow), never
     * below the first, so a word's lowest mark is its first match */
    const uint32_t bb = (uint32_t)(uint8_t)s.best * 0x01010101u;
    const uint32_t w[4] = {s.v.x ^ bb, s.v.y ^ bb, s.v.z ^ bb, s.v.w ^ bb};
    uint32_t m[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) m[i] = (w[i] - 0x01010101u) & ~w[i] & 0x80808080u;
    const int i0 = m[0] ? 0 : m[1] ? 1 : m[2] ? 2 : 3;
    const uint32_t mi = m[0] ? m[0] : m[1] ? m[1] : m[2] ? m[2] : m[3];
    const int j = 4 * i0 + (__ffs(mi) - 1) / 8;
    return typename Op::Acc{(typename Op::W)s.best,
                            first + (uint64_t)s.k * GR_LANES * 16 + (uint64_t)j};
  }
};

/* ---- lanes of a whole warp -------------------------------------------------- */

/* The order's fold of a lane by Op::fold_chunk_warp, for the operations
 * that fold chunks (HasChunkFold: LOGSUMEXP of the float types, which reads
 * its exp's table entries by shuffles): the same bits as
 * SequentialLane's fold_run of each chunk, for lanes that every thread of
 * a warp folds together, all its lanes active (an interior tile:
 * agent/reduce.cuh, fold_chunks); each lane's state holds its entry of the
 * table that the warp's shuffles read. */
template <class Op> struct WarpChunkLane {
  struct State {
    typename Op::Acc acc;
    float table;
  };
  __device__ static State init() { return State{Op::identity(), Op::warp_table()}; }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    using In = typename Op::In;
    constexpr int V = kChunkElems(sizeof(In));
    In e[V];
    memcpy(e, &v, sizeof e);
    s.acc = Op::fold_chunk_warp(s.acc, e, s.table);
  }
  __device__ static typename Op::Acc finish(const State &s, uint64_t) { return s.acc; }
};

/* ---- the lane kinds ------------------------------------------------------------ */

enum class LaneKind {
  kSequential,  /* SequentialLane: every element in turn, the order itself */
  kNativeMinMax, /* NativeMinMaxLane, Half2NativeMinMaxLane: the hardware's
                  * float min/max, NaNs found beside or let through */
  kArgPosition, /* ArgLane: the best value and its position in the tile */
  kByteDot,     /* Byte8SumLane: dp4a, four bytes (|x|, x*x) a step */
  kByteProd,    /* Byte8ProdLane: four bytes multiplied in 32 bits */
  kByteSimd,    /* Byte8MinMaxLane: vmin4/vmax4 over four bytes */
  kByteAmax,    /* Byte8AmaxLane: four magnitudes, vmaxu4 */
  kHalfAmax,    /* Half2AmaxLane: two magnitudes' bits, vmaxu2 */
  kByteArg,     /* Byte8ArgLane: min/max.u16x2, then the first match */
  kByteNrm2,    /* Byte8Nrm2Lane: dp4a squares, exact in a lane */
  kNrm2Medium   /* Nrm2MediumLane: x*x into the medium sum, lift where a
                 * chunk has a small or big element */
};

/* The lane of kind K for operation Op. */
template <class Op, LaneKind K> struct LaneOf;
template <class Op> struct LaneOf<Op, LaneKind::kSequential> {
  using type = SequentialLane<Op>;
};
template <class Op> struct LaneOf<Op, LaneKind::kNativeMinMax> {
  using type = typename std::conditional<sizeof(typename Op::In) == 2,
                                         Half2NativeMinMaxLane<Op, Op::kIsMax>,
                                         NativeMinMaxLane<Op, Op::kIsMax>>::type;
};
template <class Op> struct LaneOf<Op, LaneKind::kArgPosition> {
  using type = ArgLane<Op, Op::kIsMax>;
};
template <class Op> struct LaneOf<Op, LaneKind::kByteDot> {
  using type = Byte8SumLane<Op, Op::kType == GPUREDUCE_I8, Op::kKind>;
};
template <class Op> struct LaneOf<Op, LaneKind::kNrm2Medium> {
  using type = Nrm2MediumLane<Op>;
};
template <class Op> struct LaneOf<Op, LaneKind::kByteNrm2> {
  using type = Byte8Nrm2Lane<Op, Op::kType == GPUREDUCE_I8>;
};
template <class Op> struct LaneOf<Op, LaneKind::kByteProd> {
  using type = Byte8ProdLane<Op, Op::kType == GPUREDUCE_I8>;
};
template <class Op> struct LaneOf<Op, LaneKind::kByteSimd> {
  using type = Byte8MinMaxLane<Op, Op::kType == GPUREDUCE_I8, Op::kIsMax>;
};
template <class Op> struct LaneOf<Op, LaneKind::kByteAmax> {
  using type = Byte8AmaxLane<Op, Op::kType == GPUREDUCE_I8>;
};
template <class Op> struct LaneOf<Op, LaneKind::kHalfAmax> {
  using type = Half2AmaxLane<Op>;
};
template <class Op> struct LaneOf<Op, LaneKind::kByteArg> {
  using type = Byte8ArgLane<Op, Op::kType == GPUREDUCE_I8, Op::kIsMax>;
};

} /* namespace gr */

#endif /* GR_CUDA_THREAD_FOLD_CUH */
