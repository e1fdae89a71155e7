/*
 * cuda/thread/logsumexp.cuh - GPUREDUCE_LOGSUMEXP's operation (LogSumExp),
 * with its chunk fold for the float types and that fold's warp-wide form,
 * whose table entries come by shuffles.  thread/ops.cuh maps the op to it
 * (OpFor); src/host/order.c is its twin on the host.
 */
#ifndef GR_CUDA_LOGSUMEXP_CUH
#define GR_CUDA_LOGSUMEXP_CUH

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda/thread/element.cuh"
#include "gpureduce.h"
#include "math/exp_log.h"

namespace gr {

/* LOGSUMEXP's accumulator: the running maximum m in the element's wide
 * type and the sum s = sum exp(x - m) in double (for every type). */
template <class W> struct LseAcc {
  W m;
  double s;
};

/* GPUREDUCE_SOFTMAX_STATS's result: {max, sum}, aligned to its size. */
template <class W> struct alignas(2 * sizeof(W)) LseStats {
  W max, sum;
};

/*
 * LOGSUMEXP, log(sum exp(x)), as doc/ORDER.md specifies it.  E is the
 * library's exp of a double (gr_exp, math/exp_log.h: E(0) == 1 and
 * E(-inf) == +0), L its log (gr_log), F its float exp of the terms
 * (gr_expf_term), F2 its float exp of a difference (gr_expf_diff).
 *   lift(x)    = (x, 1)
 *   combine((m, s), (m', s')) = (NaN, NaN) if m or m' is a NaN; else,
 *              with M = max(m, m') (+0 above -0):
 *              (M, (m == M ? s : s E(m - M)) + (m' == M ? s' : s' E(m' - M))),
 *              the differences taken in double ((double)m - (double)M),
 *              each operation rounded once, the left term first; written
 *              here with one E, since only the side below M is scaled
 *              (where m == m', E(0) == 1 scales s' exactly)
 *   identity   = (-inf, 0)
 *   chunk      F16, BF16, F32: a lane folds each chunk whole (fold_run):
 *              with c the chunk's largest element, each term is 1 where
 *              x == c, else F(x - c) (the difference rounded to float),
 *              the chunk's terms are summed in float pairwise (sum), and
 *              with acc = (m, s): (c, s F2(m, c) + sum) where c > m, else
 *              (max(m, c), s + sum F2(c, m)), F2 the library's float
 *              e^(a - b) of two floats (gr_expf_diff), the products in
 *              double (exact) and one addition.  F64: element by
 *              element, acc = combine(acc, lift(x)) (fold_one).
 *   finish     a NaN m: the canonical NaN; m = -inf or +inf: m; s == 1:
 *              m (one element x gives x, -0 included); else m + L(s) in
 *              double, rounded once to W.
 *   stats      GPUREDUCE_SOFTMAX_STATS: {m, s rounded to W}, {NaN, NaN}
 *              for a NaN m.
 */
template <gpureduce_type_t T> struct LogSumExp {
  using E = Elem<T>;
  using In = typename E::In;
  using W = typename E::Wide; /* float for f16, bf16, f32; double for f64 */
  using Acc = LseAcc<W>;
  using Out = W;
  using Stats = LseStats<W>;
  static constexpr bool kOrderFree = false;
  static constexpr gpureduce_type_t kType = T;
  static constexpr OpFamily kFamily = OpFamily::kLogSumExp;
  /* the chunk fold of the float types (fold_run) */
  static constexpr bool kChunkFold = std::is_same<W, float>::value;
  static_assert(E::is_float, "LOGSUMEXP of floating types only");

  __device__ static Acc identity() { return Acc{(W)-INFINITY, 0.0}; }
  __device__ static Acc lift(In x, uint64_t) { return Acc{E::widen(x), 1.0}; }
  __device__ static Acc nan() { return Acc{canonical(W(NAN)), canonical(double(NAN))}; }
  /* combine((m, s), (m', s')) with one E:
   *   m' > m:  (m', s E(m - m') + s')
   *   m' == m: (max(m, m'), s + s')    (E(0) == 1; max puts +0 above -0)
   *   m' < m:  (m, s + s' E(m' - m)) */
  __device__ static Acc combine(const Acc &a, const Acc &b) { return merge<false>(a, b); }
  /* combine(a, lift(x)) (F64's fold of an element) */
  __device__ static Acc fold_one(const Acc &a, In in) {
    return merge<true>(a, Acc{E::widen(in), 1.0});
  }
  /* combine's body; UnitRight: b.s is 1 (a lifted element), so b.s E is E
   * itself, a multiplication an element fewer in F64's element fold */
  template <bool UnitRight>
  __device__ static Acc merge(const Acc &a, const Acc &b) {
    if (is_nan(a.m) || is_nan(b.m)) return nan();
    const bool up = b.m > a.m;
    /* d = 0 where m == m': no inf - inf */
    const double d = a.m == b.m ? 0.0
                     : up       ? __dsub_rn((double)a.m, (double)b.m)
                                : __dsub_rn((double)b.m, (double)a.m);
    const double e = gr_exp(d);
    const double be = UnitRight ? e : __dmul_rn(b.s, e);
    return up ? Acc{b.m, __dadd_rn(__dmul_rn(a.s, e), b.s)}
              : Acc{fmax(a.m, b.m), __dadd_rn(a.s, be)};
  }
  /* The chunk fold (F16, BF16, F32) of the chunk's elements e[lo .. hi-1]
   * (hi > lo; the others are not in the vector): terms in float, their
   * pairwise sum over the V slots (a slot outside lo .. hi-1 is +0, which
   * changes no sum of positive terms), one combine.  The sum is the
   * order's sum of a chunk of hi - lo elements only where lo .. hi-1 is a
   * node of the pairwise tree: lo == 0 (a chunk, or its first elements),
   * or hi - lo a power of two that divides lo (a vector of the dense
   * kernel, n dividing V). */
  template <int V>
  __device__ static Acc fold_run(const Acc &a, const In (&e)[V], int lo, int hi) {
    static_assert((V & (V - 1)) == 0, "a chunk of a power of two elements");
    float w[V];
    float c = -INFINITY;
    bool any_nan = false;
#pragma unroll
    for (int j = 0; j < V; ++j) {
      w[j] = E::widen(e[j]);
      if (j >= lo && j < hi) {
        any_nan |= is_nan(w[j]);
        c = fmaxf(c, w[j]); /* +0 above -0 */
      }
    }
    if (any_nan || is_nan(a.m)) return nan();
    float t[V];
    if (isinf(c)) { /* +inf: its count; -inf: every element is -inf */
#pragma unroll
      for (int j = 0; j < V; ++j) t[j] = j >= lo && j < hi && w[j] == c ? 1.0f : 0.0f;
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j) t[j] = j >= lo && j < hi ? gr_expf_term(__fsub_rn(w[j], c)) : 0.0f;
    }
    const bool up = c > a.m;
    return chunk_update(a, c, pair_sum(t), gr_expf_diff(up ? a.m : c, up ? c : a.m));
  }
  /* the chunk's V terms summed in float pairwise (t is overwritten) */
  template <int V> __device__ static float pair_sum(float (&t)[V]) {
#pragma unroll
    for (int h = V / 2; h >= 1; h /= 2)
#pragma unroll
      for (int j = 0; j < h; ++j) t[j] = __fadd_rn(t[2 * j], t[2 * j + 1]);
    return t[0];
  }
  /* a = (m, s) after a chunk of largest element c and term sum `sum`, with
   * f2 = F2 of the lower of m and c less the higher: the side below the
   * new maximum scaled by f2, the left term first: s f2 + sum where c > m,
   * else s + sum f2, the product in double (exact) and one addition */
  __device__ static Acc chunk_update(const Acc &a, float c, float sum, float f2) {
    const bool up = c > a.m;
    const double f = (double)f2, d = (double)sum;
    return Acc{up ? c : fmaxf(a.m, c), __dadd_rn(__dmul_rn(up ? a.s : d, f), up ? d : a.s)};
  }
  /* fold_run of a whole chunk (lo = 0, hi = V) by every lane of a warp
   * at once, the warp converged (an interior tile's lanes: WarpChunkLane,
   * thread/fold.cuh): the same operations, so the same bits, with F's and
   * F2's table entries T[k & 31] read by a shuffle from lane k & 31's
   * `table` (warp_table(): lane j holds T[j]) instead of a load each.
   * Every lane computes the terms and the scale, then a chunk with a NaN
   * or an infinite maximum, or a NaN m, takes fold_run itself, out of
   * line: c starts from the first element (fmaxf(-inf, x) is x but for a
   * NaN x, and a NaN goes that way too). */
  __device__ static float warp_table() {
    return __ldg(&gr_math_expf_table_device[threadIdx.x % 32]);
  }
  __device__ static float warp_entry(float table, uint32_t sb) {
    return __shfl_sync(0xffffffffu, table, (int)sb); /* lane sb mod 32 */
  }
  template <int V>
  __device__ static Acc fold_chunk_warp(const Acc &a, const In (&e)[V], float table) {
    static_assert((V & (V - 1)) == 0, "a chunk of a power of two elements");
    float w[V];
#pragma unroll
    for (int j = 0; j < V; ++j) w[j] = E::widen(e[j]);
    float c = w[0];
    bool any_nan = is_nan(w[0]);
#pragma unroll
    for (int j = 1; j < V; ++j) {
      any_nan |= is_nan(w[j]);
      c = fmaxf(c, w[j]);
    }
    float t[V];
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const float d = __fsub_rn(w[j], c);
      const gr_math_expf_reduced r = gr_math_expf_reduce(d, 0.0f, 0);
      t[j] = gr_math_expf_term_pick(d, gr_math_expf_scale(r, warp_entry(table, r.sb)));
    }
    const float sum = pair_sum(t);
    const bool up = c > a.m;
    const float lo_m = up ? a.m : c, hi_m = up ? c : a.m;
    float dlo;
    const float d = gr_math_two_diff(lo_m, hi_m, &dlo);
    const gr_math_expf_reduced r = gr_math_expf_reduce(d, dlo, 1);
    const float f2 =
        gr_math_expf_diff_pick(lo_m, hi_m, d, gr_math_expf_scale(r, warp_entry(table, r.sb)));
    if (any_nan || is_nan(a.m) || isinf(c)) {
      uint4 raw;
      memcpy(&raw, e, sizeof raw);
      return fold_run_count<V>(a, raw, V);
    }
    return chunk_update(a, c, sum, f2);
  }
  /* fold_run of the chunk in raw's first `count` elements (0 < count <=
   * V), out of line: the chunk fold of fold_loaded<Op, true>
   * (agent/batched.cuh: the segmented kernel and the columns kernel's
   * partial rounds), and fold_chunk_warp's NaNs and infinities */
  template <int V>
  __device__ __noinline__ static Acc fold_run_count(const Acc a, const uint4 raw, int count) {
    In e[V];
    memcpy(e, &raw, sizeof e);
    return fold_run(a, e, 0, count);
  }
  __device__ static Out finish(const Acc &a) {
    if (is_nan(a.m)) return canonical(a.m);
    if (isinf(a.m) || a.s == 1.0) return a.m; /* m + L(1) == m, but -0 + 0 is +0 */
    return (W)__dadd_rn((double)a.m, gr_log(a.s));
  }
  __device__ static Out empty() { return (W)-INFINITY; }
  __device__ static Stats finish_stats(const Acc &a) {
    if (is_nan(a.m)) return Stats{canonical(a.m), canonical(W(NAN))};
    return Stats{a.m, (W)a.s};
  }
  __device__ static Stats empty_stats() { return Stats{(W)-INFINITY, W(0)}; }
};

} /* namespace gr */

#endif /* GR_CUDA_LOGSUMEXP_CUH */
