// lanes.cuh - experimental lanes for tools/policy-variants (a developer's experiment, not
// built or installed).  VX(G, T, OP, MB, LANE, SH, TR, LD) in variants.inc runs reduce_kernel
// with LANE<Op> as its lane; VC(G, T, OP, MB, LK, SH, TR, LD) runs the row with FlatCombine<Op>
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
  static constexpr Shift shift = S;
  static constexpr LaneTree tree = TR;
  static constexpr Load load = LD;
  using Lane = LN<Op>;
};

/* NativeMinMaxLane (thread_fold.cuh) with A running values, chunk K folded into value
 * K % A, so the chain of dependent min/max across the 8 chunks is 8 / A long; the A values
 * meet in a tree at finish.  MIN and MAX do not depend on the order, so the value is the
 * same (Split2, Split4).
 * With Select, a bound rather than a lane the library could use: compare and select (CUB's
 * cuda::maximum) instead of fmax/fmin, with (SelectNan) or without (SelectBare, Nan false)
 * the NaN flag.  -0 and +0 tie, so the first wins, and without the flag a NaN is lost: wrong
 * for the library's MIN/MAX, but not on policy-variants' input (positive finite values),
 * whose bits it gives. */
template <class Op, int A, bool Select, bool Nan> struct ExperimentMinMaxLane {
  using In = typename Op::In;
  using W = typename Op::Acc;
  static constexpr bool IsMax = Op::kIsMax;
  struct State {
    W best[A];
    bool nan;
  };
  __device__ static W best(W a, W b) {
    if constexpr (Select) return IsMax ? (b > a ? b : a) : (b < a ? b : a);
    else return IsMax ? fmax(a, b) : fmin(a, b);
  }
  __device__ static State init() {
    State s;
    for (int a = 0; a < A; ++a) s.best[a] = Op::identity();
    s.nan = false;
    return s;
  }
  template <int K> __device__ static void chunk(State &s, const uint4 &v, uint64_t) {
    constexpr int V = kChunkElems(sizeof(In));
    W e[V];
    memcpy(e, &v, sizeof e);
    bool nan = false;
    if constexpr (Nan) {
#pragma unroll
      for (int j = 0; j < V; ++j) nan |= e[j] != e[j];
    }
#pragma unroll
    for (int step = 1; step < V; step *= 2)
#pragma unroll
      for (int j = 0; j + step < V; j += 2 * step) e[j] = best(e[j], e[j + step]);
    s.best[K % A] = K < A ? e[0] : best(s.best[K % A], e[0]);
    s.nan = K == 0 ? nan : (s.nan || nan);
  }
  __device__ static W finish(const State &s, uint64_t) {
    W b[A];
#pragma unroll
    for (int a = 0; a < A; ++a) b[a] = s.best[a];
#pragma unroll
    for (int step = 1; step < A; step *= 2)
#pragma unroll
      for (int a = 0; a + step < A; a += 2 * step) b[a] = best(b[a], b[a + step]);
    return s.nan ? lane_nan<W, IsMax>() : b[0];
  }
};
template <class Op> using Split2 = ExperimentMinMaxLane<Op, 2, false, true>;
template <class Op> using Split4 = ExperimentMinMaxLane<Op, 4, false, true>;
template <class Op> using SelectNan = ExperimentMinMaxLane<Op, 1, true, true>;
template <class Op> using SelectBare = ExperimentMinMaxLane<Op, 1, true, false>;

/* Op with MinMax::combine (ops.cuh) for floats without branches: the same value, since the
 * result is a if a is a NaN, else b if b is, else PTX max/min, which orders -0 below +0 as
 * MinMax does (NativeMinMaxLane relies on the same).  combine is what the lane tree, the
 * range tree and the last block's roots use; for doubles MinMax::combine branches (BSSY/BRA
 * in the SASS).  Not measured yet: VC(...) in variants.inc runs it. */
template <class Op> struct FlatCombine : Op {
  using Acc = typename Op::Acc;
  __device__ static Acc combine(Acc a, Acc b) {
    if constexpr (std::is_floating_point<Acc>::value) {
      const Acc m = Op::kIsMax ? fmax(a, b) : fmin(a, b);
      return a != a ? a : (b != b ? b : m);
    } else {
      return Op::combine(a, b);
    }
  }
};
} /* namespace gr */

#endif
