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
 * set and every operation 0 .. GPUREDUCE_OP_COUNT-1, by pack expansions
 * over OpFor (thread/ops.cuh), one kernel of the family at a time
 * (UnitTable, below): a new operation needs its OpFor row and its policy
 * row (tuning/policy.cuh), nothing here.
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

/* ---- each family: its kernels of one Op, pass by pass --------------------- */

/* FamilyOf<Family>: kOps operations a type (the gpureduce_op_t values, or
 * Dot's one), OpAt<T, O, F64> the operation of each, and kPasses passes:
 * fill<Op, P>(k) sets the entries of k that pass P names (kernels.cuh's
 * fields), exact<T>(op, k) the exact kernel that replaces one where there
 * is one (looked up at run time). */
template <class Family> struct FamilyOf;

/* The operations of the families with one a gpureduce_op_t value: OpFor's. */
struct EveryOp {
  static constexpr int kOps = GPUREDUCE_OP_COUNT;
  template <gpureduce_type_t T, int O, bool F64>
  using OpAt = typename OpFor<T, static_cast<gpureduce_op_t>(O), F64>::type;
};

template <> struct FamilyOf<ReduceFamily> : EveryOp {
  static constexpr int kPasses = 1;
  template <class Op, int P> static void fill(ReduceKernels &k) {
    k.kernel = reinterpret_cast<const void *>(&reduce_kernel<Op>);
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

template <> struct FamilyOf<BatchedFamily> : EveryOp {
  /* warp, tiles, columns; the segment kernels of J = 1, 2, 4, 8; dense;
   * short columns */
  static constexpr int kPasses = 9;
  template <class Op, int P> static void fill(BatchedKernels &k) {
    constexpr bool generic = generic_tier<Op>();
    if constexpr (P == 0) {
      k.warp = reinterpret_cast<const void *>(&batched_warp_kernel<Op>);
      k.acc_bytes = sizeof(typename Op::Acc);
    } else if constexpr (P == 1) {
      k.tiles = reinterpret_cast<const void *>(&batched_tiles_kernel<Op>);
    } else if constexpr (P == 2) {
      k.columns = reinterpret_cast<const void *>(&batched_columns_kernel<Op>);
    } else if constexpr (P == 3 && generic) {
      k.segment[0][0] = k.segment[1][0] =
          reinterpret_cast<const void *>(&batched_segment_kernel<Op, 1>);
    } else if constexpr (P == 3) {
      k.segment[0][0] = reinterpret_cast<const void *>(&batched_segment_kernel<Op, 1, 0>);
      k.segment[1][0] = reinterpret_cast<const void *>(&batched_segment_kernel<Op, 1, 1>);
    } else if constexpr ((P == 4 || P == 5) && !generic) {
      k.segment[0][P - 3] = k.segment[1][P - 3] =
          reinterpret_cast<const void *>(&batched_segment_kernel<Op, 1 << (P - 3)>);
    } else if constexpr (P == 6 && (!generic || AccumulatesF64<Op>::value)) {
      k.segment[0][3] = k.segment[1][3] =
          reinterpret_cast<const void *>(&batched_segment_kernel<Op, 8>);
    } else if constexpr (P == 7 && !generic) {
      /* 8-byte types: a chunk holds 2 elements, and no n with 2 <= n < 2
       * takes the dense kernel */
      if constexpr (GR_CHUNK_BYTES / sizeof(typename Op::In) > 2)
        k.dense = reinterpret_cast<const void *>(&batched_dense_kernel<Op>);
    } else if constexpr (P == 8 && !generic) {
      /* 8-bit types: a thread's 16 x 16 elements of a chunk took 255
       * registers (ptxas, sm_90, u8 sum); they keep the segment kernel */
      if constexpr (sizeof(typename Op::In) >= 2)
        k.short_columns = reinterpret_cast<const void *>(&batched_short_columns_kernel<Op>);
    }
  }
  template <gpureduce_type_t T> static void exact(gpureduce_op_t op, BatchedKernels &k) {
    if constexpr (T == GPUREDUCE_I8 || T == GPUREDUCE_U8) {
      if (op != GPUREDUCE_NRM2) return;
      k.exact_tiles = reinterpret_cast<const void *>(&batched_tiles_kernel<ExactByteNrm2<T>>);
      k.exact_max = ExactByteNrm2<T>::kMaxCount;
    }
  }
};

template <> struct FamilyOf<SegmentsFamily> : EveryOp {
  static constexpr int kPasses = 1;
  template <class Op, int P> static void fill(SegmentsKernels &k) {
    k.kernel = reinterpret_cast<const void *>(&segments_kernel<Op>);
  }
  template <gpureduce_type_t T> static void exact(gpureduce_op_t, SegmentsKernels &) {}
};

/* The dot product: one operation a type, Dot<T, F64>, at op 0, which
 * dot_kernels_for (lookup.cu) asks for as GPUREDUCE_SUM. */
static_assert(GPUREDUCE_SUM == 0, "Dot's one row is op 0");
template <> struct FamilyOf<DotFamily> {
  static constexpr int kOps = 1, kPasses = 3;
  template <gpureduce_type_t T, int O, bool F64> using OpAt = Dot<T, F64>;
  template <class Op, int P> static void fill(DotKernels &k) {
    if constexpr (P == 0) k.reduce = reinterpret_cast<const void *>(&reduce_kernel<Op>);
    if constexpr (P == 1) k.tiles = reinterpret_cast<const void *>(&batched_tiles_kernel<Op>);
    if constexpr (P == 2) k.warp = reinterpret_cast<const void *>(&batched_warp_kernel<Op>);
  }
  template <gpureduce_type_t T> static void exact(gpureduce_op_t, DotKernels &) {}
};

/* ---- a unit's table, named kernel by kernel -------------------------------- */

/*
 * The kernels of Family for every type of the set, every operation, and
 * F32's ACCUMULATE_F64 row (no other type has one), built pass by pass:
 * pass P names its kernel of every (type, op) before pass P + 1 names the
 * next.  nvcc emits a unit's kernels in the order the unit first names
 * them, and its fatbin's compressor finds a kernel's near copies (the same
 * kernel of f16 and bf16, or of i32 and u32) only within a window: side
 * by side, the batched units' PTX and SASS compress smaller
 * than when each type's kernels of every operation came together
 * (doc/BUILD.md gives the bytes).  The order of the rows is no concern of
 * the lookup, which is one static table a unit, built at its first call.
 */
template <class Family, class Types> class UnitTable;

template <class Family, gpureduce_type_t... T> class UnitTable<Family, TypeSet<T...>> {
  using F = FamilyOf<Family>;
  using Kernels = typename Family::Kernels;
  using Row = Kernels[F::kOps];
  Row rows_[sizeof...(T)][2] = {}; /* [type][ACCUMULATE_F64] */

  template <int P, gpureduce_type_t U, bool F64, int... O>
  void fill_row(Row &row, std::integer_sequence<int, O...>) {
    (F::template fill<typename F::template OpAt<U, O, F64>, P>(row[O]), ...);
  }
  template <int P, gpureduce_type_t U> void fill_type(Row (&rows)[2]) {
    fill_row<P, U, false>(rows[0], std::make_integer_sequence<int, F::kOps>{});
    if constexpr (U == GPUREDUCE_F32)
      fill_row<P, U, true>(rows[1], std::make_integer_sequence<int, F::kOps>{});
  }
  template <int P> void pass() {
    int t = 0;
    ((fill_type<P, T>(rows_[t]), ++t), ...);
  }
  template <int... P> void passes(std::integer_sequence<int, P...>) { (pass<P>(), ...); }

 public:
  UnitTable() { passes(std::make_integer_sequence<int, F::kPasses>{}); }

  /* the kernels of (type, op, ACCUMULATE_F64), Kernels{} for a type
   * outside the set or an op outside 0 .. kOps-1 */
  Kernels lookup(gpureduce_type_t type, gpureduce_op_t op, bool f64) const {
    Kernels k{};
    if ((unsigned)op >= (unsigned)F::kOps) return k;
    int t = 0;
    (void)((type == T ? (k = rows_[t][type == GPUREDUCE_F32 && f64][op],
                         F::template exact<T>(op, k), true)
                      : (++t, false)) ||
           ...);
    return k;
  }
};

template <class Family, class Types>
typename Family::Kernels kernels_for(gpureduce_type_t type, gpureduce_op_t op, bool f64) {
  static const UnitTable<Family, Types> table;
  return table.lookup(type, op, f64);
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
