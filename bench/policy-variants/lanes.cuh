// lanes.cuh - experimental lanes for bench/policy-variants (a developer's experiment, not
// built or installed).  VX(G, T, OP, MB, LANE, SH, TR, LD) in variants.inc runs reduce_kernel
// with LANE<Op> as its lane; VC(G, T, OP, MB, LK, SH, TR, LD) runs the row with BranchCombine<Op>
// (below) as its operation.
#ifndef GR_PV_LANES_CUH
#define GR_PV_LANES_CUH

namespace gr {
template <class Op, int MB, template <class> class LN, Shift S, LaneTree TR, Load LD>
struct TunedLane : Op {};
template <class Op, int MB, template <class> class LN, Shift S, LaneTree TR, Load LD>
struct PolicyOf<TunedLane<Op, MB, LN, S, TR, LD>> {
  static constexpr ReducePolicy value{LaneKind::kSequential, MB, S, TR, 8, LD};
  static constexpr int min_blocks = MB;
  static constexpr int batched_min_blocks = MB; /* as cuda/tuning/policy.cuh's PolicyOf; unused here */
  static constexpr Shift shift = S;
  static constexpr LaneTree tree = TR;
  static constexpr Load load = LD;
  using Lane = LN<Op>;
};

/* The experimental f64/f32 min/max lanes (2 or 4 running values, compare and select) of
 * PERFORMANCE.md's "Chunks not kept in L1" section were timed and gave nothing; they are in
 * git history (7f6d418), no longer here. */

/* Op with the MinMax::combine (cuda/thread/ops.cuh) the library had before its float combine lost its
 * branches (2026-12-03), as the baseline to time it against: a NaN test, another, then
 * equality and the sign (BSSY/BRA in the SASS), in the lane tree, the range tree and the
 * last block's roots.  The same value. */
template <class Op> struct BranchCombine : Op {
  using Acc = typename Op::Acc;
  __device__ static Acc combine(Acc a, Acc b) {
    if constexpr (std::is_floating_point<Acc>::value) {
      if (a != a) return a;
      if (b != b) return b;
      if (a == b) return Op::kIsMax ? (signbit(a) ? b : a) : (signbit(a) ? a : b);
      return (Op::kIsMax ? (a > b) : (a < b)) ? a : b;
    } else {
      return Op::combine(a, b);
    }
  }
};

/* The 8-bit arg lane the library had before Byte8ArgLane lost its branch (2026-12-03), as
 * the baseline to time it against: each chunk's best byte by vmin4/vmax4, and the chunk
 * searched for its first occurrence whenever that beats the lane's best. */
template <class Op> struct Byte8ArgBranch {
  static constexpr bool Signed = Op::kType == GPUREDUCE_I8, IsMax = Op::kIsMax;
  struct State {
    int best;
    int pos;
  };
  __device__ static State init() { return State{0, -1}; }
  template <int K> __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    const uint32_t w = vbest4<Signed, IsMax>(vbest4<Signed, IsMax>(v.x, v.y),
                                             vbest4<Signed, IsMax>(v.z, v.w));
    const int b = best_byte<Signed, IsMax>(w);
    if (K == 0 || (IsMax ? b > s.best : b < s.best)) {
      const uint32_t bb = (uint32_t)(uint8_t)b * 0x01010101u;
      const uint32_t m0 = __vcmpeq4(v.x, bb), m1 = __vcmpeq4(v.y, bb),
                     m2 = __vcmpeq4(v.z, bb), m3 = __vcmpeq4(v.w, bb);
      const int j = m0 ? (__ffs(m0) - 1) / 8
                  : m1 ? 4 + (__ffs(m1) - 1) / 8
                  : m2 ? 8 + (__ffs(m2) - 1) / 8
                       : 12 + (__ffs(m3) - 1) / 8;
      s.best = b;
      s.pos = K * 16 + j;
    }
  }
  __device__ static typename Op::Acc finish(const State &s, uint64_t first) {
    const uint64_t k = (uint64_t)(s.pos / 16), j = (uint64_t)(s.pos % 16);
    return typename Op::Acc{(typename Op::W)s.best, first + k * GR_LANES * 16 + j};
  }
};
/* MIN and MAX of 8-bit integers by vbest2 (cuda/thread/fold.cuh), as Byte8ArgLane finds a chunk's
 * best byte: the running best of the words and of the words shifted a byte, two 16-bit
 * halves each, where Byte8MinMaxLane folds each word by vmin4/vmax4, which sm_90 emulates.
 * The same value.  Timed 2026-12-03 against kByteSimd (doc/PERFORMANCE.md, "seventh"):
 * 1.01 to 1.06 times as fast from 2^24, 0.97 to 0.99 at 2^20 aligned; not adopted yet. */
template <class Op> struct Byte8MinMaxPairs {
  static constexpr bool Signed = Op::kType == GPUREDUCE_I8, IsMax = Op::kIsMax;
  struct State {
    uint32_t odd;  /* bytes 1 and 3 of every word, in the halves' high bytes */
    uint32_t even; /* bytes 0 and 2, shifted there */
  };
  __device__ static State init() { return State{0, 0}; } /* chunk 0 always comes first */
  template <int K> __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    const uint2 p = vbest2_chunk<Signed, IsMax>(v);
    s.odd = K == 0 ? p.x : vbest2<Signed, IsMax>(s.odd, p.x);
    s.even = K == 0 ? p.y : vbest2<Signed, IsMax>(s.even, p.y);
  }
  __device__ static typename Op::Acc finish(const State &s, uint64_t) {
    return (typename Op::Acc)vbest2_byte<Signed, IsMax>(s.odd, s.even);
  }
};
/* MEAN_VAR's combine as the library had it before 2026-12-04 (third run): the division even
 * where the counts are equal (cuda/thread/ops.cuh now takes r = 1/2 there), as the baseline to time it
 * against.  The same bits. */
template <class Op> struct MeanVarDivide : Op {
  using Acc = typename Op::Acc;
  using W = decltype(Acc::mean);
  __device__ static Acc combine(const Acc &a, const Acc &b) {
    if (b.n == 0) return a;
    if (a.n == 0) return b;
    const uint64_t n = a.n + b.n;
    const W r = div_rn((W)b.n, (W)n);
    const W delta = sub_rn(b.mean, a.mean);
    return Acc{add_rn(a.mean, mul_rn(delta, r)),
               add_rn(add_rn(a.m2, b.m2), mul_rn(mul_rn(delta, delta), mul_rn((W)a.n, r))),
               n};
  }
};
/* Timed 2026-12-04 (fifth run) against the library's ArgLane and not taken: PERFORMANCE.md,
 * "The 16-bit arg ops by chunks".
 * ARGMIN and ARGMAX of 16-bit floats (f16, bf16) as Byte8ArgLane does
 * 8-bit integers: each chunk's best value by the hardware's 16-bit float
 * min/max that lets NaNs through (Half2NativeMinMaxLane's best; before
 * sm_80, half by half in float), four instructions for eight elements; a
 * chunk whose best beats the lane's (strictly, in ArgMinMax's order: a
 * NaN beats every number, -0 ties +0, ties keep the earlier element)
 * becomes the lane's best chunk by select, its 16 bytes kept; at finish,
 * the first element of that chunk equal to the best (a NaN, where it is
 * one), and that element's own value.  The kept chunk is the lane's first
 * that holds its best value, so this is ArgLane's answer.  ArgLane
 * compares element by element: two NaN tests, a comparison and two
 * selects an element. */
template <class Op, bool IsMax> struct Half2ArgLane {
  using In = typename Op::In;
  using W = typename Op::W; /* float */
  static_assert(sizeof(In) == 2 && sizeof(W) == 4, "16-bit floats only");
  static constexpr int V = kChunkElems(sizeof(In));
  struct State {
    W best;  /* the best value of the kept chunk */
    int k;   /* its chunk */
    uint4 v; /* that chunk */
  };
  __device__ static W widen_bits(uint32_t h) {
    const uint16_t b = (uint16_t)h;
    In e;
    memcpy(&e, &b, sizeof e);
    return (W)Op::E::widen(e);
  }
  /* each half of a and b: the better of the two, a NaN where either is */
  __device__ static uint32_t best2(uint32_t a, uint32_t b) {
#if __CUDA_ARCH__ >= 800
    return Half2NativeMinMaxLane<MinMax<Op::kType, IsMax>, IsMax>::best(a, b);
#else
    uint32_t r = 0;
#pragma unroll
    for (int sh = 0; sh < 32; sh += 16) {
      const W x = widen_bits(a >> sh), y = widen_bits(b >> sh);
      const bool pick_b = !is_nan(x) && (is_nan(y) || (IsMax ? y > x : y < x));
      r |= ((pick_b ? b : a) >> sh & 0xffffu) << sh;
    }
    return r;
#endif
  }
  /* unused: every lane that folds starts from its chunk 0, which it keeps */
  __device__ static State init() { return State{W(0), 0, make_uint4(0, 0, 0, 0)}; }
  template <int K>
  __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    const uint32_t m = best2(best2(v.x, v.y), best2(v.z, v.w));
    const W c = widen_bits(best2(m, m >> 16));
    const bool take = K == 0 || (!is_nan(s.best) && (is_nan(c) || (IsMax ? c > s.best : c < s.best)));
    s.best = take ? c : s.best;
    s.k = take ? K : s.k;
    s.v.x = take ? v.x : s.v.x;
    s.v.y = take ? v.y : s.v.y;
    s.v.z = take ? v.z : s.v.z;
    s.v.w = take ? v.w : s.v.w;
  }
  __device__ static typename Op::Acc finish(const State &s, uint64_t first) {
    const uint32_t w[4] = {s.v.x, s.v.y, s.v.z, s.v.w};
    const bool nan = is_nan(s.best);
    int j = 0;
    W val = W(0);
    /* from the last element down: the first match is taken last */
#pragma unroll
    for (int i = V - 1; i >= 0; --i) {
      const W x = widen_bits(w[i / 2] >> (16 * (i % 2)));
      if (nan ? is_nan(x) : x == s.best) {
        j = i;
        val = x;
      }
    }
    return typename Op::Acc{val, first + (uint64_t)s.k * GR_LANES * V + (uint64_t)j};
  }
};

template <class Op> using HalfArgLane = Half2ArgLane<Op, Op::kIsMax>;

/* The library's ExactByteNrm2 (cuda/thread/ops.cuh) as a VW wrapper of the 8-bit NRM2: order-free while its
 * sums are exact, which pv's sizes are. */
template <class Op> using ExactOrderFree = ExactByteNrm2<Op::kType>;
} /* namespace gr */

#endif
