/*
 * cuda/instantiate/instantiate.cuh - the one list of what the library
 * instantiates, and the template that instantiates it.
 *
 * The list is GR_CUDA_INSTANCES in Makefile.am: one entry FAMILY-TYPES
 * for each kernel family and set of element types below (reduce-float,
 * segments-int, dot-all, ...), from which make generates the
 * translation unit instantiate/FAMILY-TYPES.cu, whose one line is
 * GR_INSTANTIATE(FAMILY, TYPES).  One unit an entry lets them compile in
 * parallel.  Each unit instantiates kernels_for<Family, Types>
 * (kernels.cuh), and with it the family's kernels for every type of the
 * set and every operation 0 .. GPUREDUCE_OP_COUNT-1, by one pack expansion
 * over OpFor (thread/ops.cuh): a new operation needs its OpFor row and its
 * policy row (tuning/policy.cuh), nothing here.
 *
 *   family     kernels of an Op                                types
 *   Reduce     reduce_kernel (+ ExactByteNrm2's for i8, u8)    Float, Int
 *   Batched    the batched kernels (+ ExactByteNrm2's tiles)   Float, Int
 *   Segments   segments_kernel                                 Float, Int
 *   Dot        reduce_kernel, tiles and warp kernels of Dot    All
 *
 * Only F32 has a row for GPUREDUCE_ACCUMULATE_F64 (f64 = true).
 * GPUREDUCE_WITH_VALUE has no kernels of its own: it is a run-time flag
 * of ARGMIN's and ARGMAX's (kernel/reduce.cuh, store_result).
 */
#ifndef GR_CUDA_INSTANTIATE_INSTANTIATE_CUH
#define GR_CUDA_INSTANTIATE_INSTANTIATE_CUH

#include <type_traits>
#include <utility>

#include "cuda/instantiate/kernels.cuh"
#include "cuda/kernel/batched.cuh"
#include "cuda/kernel/reduce.cuh"
#include "cuda/kernel/segments.cuh"
#include "cuda/thread/ops.cuh"

namespace gr {

/* ---- each family: its kernels of one Op, and its row of type T ------------ */

template <class Family> struct FamilyOf;

template <> struct FamilyOf<ReduceFamily> {
  static constexpr bool kF64 = true;
  template <class Op> static ReduceKernels of() {
    return ReduceKernels{reinterpret_cast<const void *>(&reduce_kernel<Op>), nullptr, 0};
  }
  /* the NRM2 of 8-bit integers while its sums are exact */
  template <gpureduce_type_t T> static void exact(gpureduce_op_t op, ReduceKernels &k) {
    if constexpr (T == GPUREDUCE_I8 || T == GPUREDUCE_U8) {
      if (op != GPUREDUCE_NRM2) return;
      k.exact = reinterpret_cast<const void *>(&reduce_kernel<ExactByteNrm2<T>>);
      k.exact_max = ExactByteNrm2<T>::kMaxCount;
    }
  }
};

/* Whether Op is an f32 operation of GPUREDUCE_ACCUMULATE_F64. */
template <class Op> struct AccumulatesF64 : std::false_type {};
template <gpureduce_type_t T, SumKind K>
struct AccumulatesF64<SumLike<T, K, true>> : std::true_type {};
template <gpureduce_type_t T> struct AccumulatesF64<Nrm2<T, true>> : std::true_type {};
template <gpureduce_type_t T> struct AccumulatesF64<MeanVar<T, true>> : std::true_type {};

/* The batched generic tier: the operations of GPUREDUCE_ACCUMULATE_F64,
 * and those on integers but SUM, MIN, MAX, ARGMIN and ARGMAX (PROD,
 * SUM_ABS, SUM_SQUARES, NRM2, MEAN_VAR and the signed types' AMAX):
 * seldom asked for at every shape (torch.var and torch.linalg.vector_norm
 * refuse integer tensors, and CUB reduces them only through a caller's
 * functor).  They keep the tiles, warp and columns kernels and the
 * segment kernel of J = 1, its form read at run time, for vectors of up
 * to 32 chunks; the ACCUMULATE_F64 ones also that of J = 8 for 33 to 256
 * chunks, where the integers' go to the warp kernel, or as columns to the
 * columns kernel (dispatch/batched.cu): their J = 8 kernels were 0.37 MB
 * of the sm_90 fatbin, the 8-bit MEAN_VAR's and NRM2's unrolled over 8
 * chunks of 16 elements.  4 or 5 kernels an operation instead of 10, and
 * the same bits, as from every kernel. */
template <class Op> constexpr bool generic_tier() {
  if constexpr (AccumulatesF64<Op>::value) {
    return true;
  } else if constexpr (Elem<Op::kType>::is_float) {
    return false;
  } else if constexpr (Op::kFamily == OpFamily::kSum || Op::kFamily == OpFamily::kProd) {
    return Op::kKind != kSum;
  } else if constexpr (Op::kFamily == OpFamily::kMinMax) {
    return std::is_same_v<Op, Amax<Op::kType>>;
  } else {
    return Op::kFamily != OpFamily::kArg;
  }
}

template <> struct FamilyOf<BatchedFamily> {
  static constexpr bool kF64 = true;
  template <class Op> static BatchedKernels of() {
    BatchedKernels k{};
    k.warp = reinterpret_cast<const void *>(&batched_warp_kernel<Op>);
    k.tiles = reinterpret_cast<const void *>(&batched_tiles_kernel<Op>);
    k.columns = reinterpret_cast<const void *>(&batched_columns_kernel<Op>);
    k.acc_bytes = sizeof(typename Op::Acc);
    if constexpr (generic_tier<Op>()) {
      k.segment[0][0] = k.segment[1][0] =
          reinterpret_cast<const void *>(&batched_segment_kernel<Op, 1>);
      if constexpr (AccumulatesF64<Op>::value)
        k.segment[0][3] = k.segment[1][3] =
            reinterpret_cast<const void *>(&batched_segment_kernel<Op, 8>);
    } else {
      k.segment[0][0] = reinterpret_cast<const void *>(&batched_segment_kernel<Op, 1, 0>);
      k.segment[1][0] = reinterpret_cast<const void *>(&batched_segment_kernel<Op, 1, 1>);
      k.segment[0][1] = k.segment[1][1] =
          reinterpret_cast<const void *>(&batched_segment_kernel<Op, 2>);
      k.segment[0][2] = k.segment[1][2] =
          reinterpret_cast<const void *>(&batched_segment_kernel<Op, 4>);
      k.segment[0][3] = k.segment[1][3] =
          reinterpret_cast<const void *>(&batched_segment_kernel<Op, 8>);
      /* 8-byte types: a chunk holds 2 elements, and no n with 2 <= n < 2
       * takes the dense kernel */
      if constexpr (GR_CHUNK_BYTES / sizeof(typename Op::In) > 2)
        k.dense = reinterpret_cast<const void *>(&batched_dense_kernel<Op>);
      /* 8-bit types: a thread's 16 x 16 elements of a chunk took 255
       * registers (ptxas, sm_90, u8 sum); they keep the segment kernel */
      if constexpr (sizeof(typename Op::In) >= 2)
        k.short_columns = reinterpret_cast<const void *>(&batched_short_columns_kernel<Op>);
    }
    return k;
  }
  template <gpureduce_type_t T> static void exact(gpureduce_op_t op, BatchedKernels &k) {
    if constexpr (T == GPUREDUCE_I8 || T == GPUREDUCE_U8) {
      if (op != GPUREDUCE_NRM2) return;
      k.exact_tiles = reinterpret_cast<const void *>(&batched_tiles_kernel<ExactByteNrm2<T>>);
      k.exact_max = ExactByteNrm2<T>::kMaxCount;
    }
  }
};

template <> struct FamilyOf<SegmentsFamily> {
  static constexpr bool kF64 = true;
  template <class Op> static SegmentsKernels of() {
    return SegmentsKernels{reinterpret_cast<const void *>(&segments_kernel<Op>)};
  }
  template <gpureduce_type_t T> static void exact(gpureduce_op_t, SegmentsKernels &) {}
};

template <> struct FamilyOf<DotFamily> {
  static constexpr bool kF64 = true;
};

/* Family's kernels of every op on type T, one pack expansion over the
 * operations, built once. */
template <class Family, gpureduce_type_t T, bool F64, int... O>
typename Family::Kernels op_row(gpureduce_op_t op, std::integer_sequence<int, O...>) {
  using F = FamilyOf<Family>;
  static const typename Family::Kernels row[] = {
      F::template of<typename OpFor<T, static_cast<gpureduce_op_t>(O), F64>::type>()...};
  typename Family::Kernels k =
      (unsigned)op < sizeof row / sizeof row[0] ? row[op] : typename Family::Kernels{};
  F::template exact<T>(op, k);
  return k;
}

template <class Family, gpureduce_type_t T, bool F64>
typename Family::Kernels row(gpureduce_op_t op) {
  if constexpr (std::is_same_v<Family, DotFamily>) {
    using Op = Dot<T, F64>;
    return DotKernels{reinterpret_cast<const void *>(&reduce_kernel<Op>),
                      reinterpret_cast<const void *>(&batched_tiles_kernel<Op>),
                      reinterpret_cast<const void *>(&batched_warp_kernel<Op>)};
  } else {
    return op_row<Family, T, F64>(op, std::make_integer_sequence<int, GPUREDUCE_OP_COUNT>{});
  }
}

/* ---- the type sets: one row a type ----------------------------------------- */

/* Type T's row, its ACCUMULATE_F64 row where f64 and the family has one
 * (f32 only: no other type instantiates one). */
template <class Family, gpureduce_type_t T>
typename Family::Kernels row_of(gpureduce_op_t op, bool f64) {
  if constexpr (FamilyOf<Family>::kF64 && T == GPUREDUCE_F32) {
    if (f64) return row<Family, T, true>(op);
  }
  return row<Family, T, false>(op);
}

template <class Family, gpureduce_type_t... T>
typename Family::Kernels pick(TypeSet<T...>, gpureduce_type_t type, gpureduce_op_t op,
                              bool f64) {
  typename Family::Kernels k{};
  (void)((type == T && (k = row_of<Family, T>(op, f64), true)) || ...);
  return k;
}

template <class Family, class Types>
typename Family::Kernels kernels_for(gpureduce_type_t type, gpureduce_op_t op, bool f64) {
  return pick<Family>(Types{}, type, op, f64);
}

/* The names of the list's entries (FAMILY-TYPES). */
using reduce_family = ReduceFamily;
using batched_family = BatchedFamily;
using segments_family = SegmentsFamily;
using dot_family = DotFamily;
using float_types = FloatTypes;
using int_types = IntTypes;
using all_types = AllTypes;

} /* namespace gr */

/* The body of a generated unit: GR_INSTANTIATE(reduce, float). */
#define GR_INSTANTIATE(FAMILY, TYPES)                                                 \
  template gr::FAMILY##_family::Kernels                                               \
  gr::kernels_for<gr::FAMILY##_family, gr::TYPES##_types>(gpureduce_type_t, gpureduce_op_t, \
                                                           bool);

#endif /* GR_CUDA_INSTANTIATE_INSTANTIATE_CUH */
