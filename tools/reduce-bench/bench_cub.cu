/*
 * bench_cub.cu - reduce-bench's CUB and cuBLAS comparisons (see
 * bench_cub.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * The CUB calls are instantiated for every type, accumulator and
 * operation: this file is most of reduce-bench's build time
 * (doc/BUILD.md).  Its types live in a named namespace, so that the
 * kernels' names are the same in every build directory.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#ifdef HAVE_CUB
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cub/cub.cuh>
#include <cub/version.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#endif

#ifdef HAVE_CUBLAS
#include <cublas_v2.h>
#endif

#include "bench_cub.h"
#include "bench_cuda.h"

#define CHECK(call, what) bench_cuda_check((call), (what), __FILE__, __LINE__)
/* After a launch: the launch error, if any. */
#define CHECK_LAUNCH(what) bench_cuda_check(cudaGetLastError(), (what), __FILE__, __LINE__)

static void *host_calloc(size_t bytes, const char *what) {
  void *p = std::calloc(1, bytes);
  if (!p) {
    std::fprintf(stderr, "reduce-bench: out of host memory (%s)\n", what);
    std::exit(1);
  }
  return p;
}

/* The operations with a CUB call here (cub_call, seg_call); NRM2 (cuBLAS
 * where it has one), MEAN_VAR, AMAX and LOGSUMEXP have none. */
static int cub_has_op(gpureduce_op_t op) {
  switch (op) {
    case GPUREDUCE_SUM:
    case GPUREDUCE_PROD:
    case GPUREDUCE_SUM_ABS:
    case GPUREDUCE_SUM_SQUARES:
    case GPUREDUCE_MIN:
    case GPUREDUCE_MAX:
    case GPUREDUCE_ARGMIN:
    case GPUREDUCE_ARGMAX: return 1;
    default: return 0;
  }
}

static int is_arg(gpureduce_op_t op) { return op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX; }

struct bench_cub {
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  void *temp;
  size_t temp_bytes;
  void *out;   /* 16 bytes: the value */
  void *index; /* int64_t: argmin/argmax index */
  void *blas;  /* the cublasHandle_t of cuBLAS's nrm2, or NULL for CUB */
  char name[64];
};

struct bench_cub_seg {
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  void *temp;
  size_t temp_bytes;
  void *out; /* max_count results of result_bytes */
  size_t max_count;
  size_t result_bytes; /* CUB's output per segment */
  size_t value_at;     /* ArgMin, ArgMax: the value's offset in CUB's pair */
  char name[64];
};

/* CUB's output per segment: its bytes and, for ArgMin and ArgMax, where
 * the pair holds the value. */
struct SegLayout {
  size_t bytes, value_at;
};

namespace bench_cub_detail {

#ifdef HAVE_CUB

/* Element conversions into the accumulator A. */
template <typename A>
struct CastTo {
  template <typename T>
  __host__ __device__ A operator()(const T &x) const {
    return static_cast<A>(x);
  }
};

template <typename A>
struct AbsOf {
  template <typename T>
  __host__ __device__ A operator()(const T &x) const {
    const A v = static_cast<A>(x);
    if constexpr (::cuda::std::is_signed<A>::value || ::cuda::std::is_floating_point<A>::value)
      return v < A(0) ? -v : v;
    else
      return v;
  }
};

template <typename A>
struct SquareOf {
  template <typename T>
  __host__ __device__ A operator()(const T &x) const {
    const A v = static_cast<A>(x);
    return v * v;
  }
};

/* One CUB call of op on T elements accumulated in A (temp == nullptr: the
 * size query).  f32 sum uses DeviceReduce::Sum, the usual CUB call. */
template <typename T, typename A>
cudaError_t cub_call(gpureduce_op_t op, void *temp, size_t &bytes, const void *in_v, void *out,
                     void *index, size_t n) {
  const T *in = static_cast<const T *>(in_v);
  A *acc_out = static_cast<A *>(out);
  T *val_out = static_cast<T *>(out);
  int64_t *idx_out = static_cast<int64_t *>(index);
  using Plus = ::cuda::std::plus<A>;
  using Times = ::cuda::std::multiplies<A>;
  switch (op) {
    case GPUREDUCE_SUM:
      /* The f32 sum is the headline comparison: call it the way most
       * programs do, with an int count (32-bit offsets) when n fits. */
      if constexpr (::cuda::std::is_same<T, float>::value && ::cuda::std::is_same<A, float>::value)
        return n <= (size_t)INT_MAX ? cub::DeviceReduce::Sum(temp, bytes, in, acc_out, (int)n, 0)
                                    : cub::DeviceReduce::Sum(temp, bytes, in, acc_out, n, 0);
      else
        return cub::DeviceReduce::TransformReduce(temp, bytes, in, acc_out, n, Plus(), CastTo<A>(),
                                                  A(0), 0);
    case GPUREDUCE_PROD:
      return cub::DeviceReduce::TransformReduce(temp, bytes, in, acc_out, n, Times(), CastTo<A>(),
                                                A(1), 0);
    case GPUREDUCE_SUM_ABS:
      return cub::DeviceReduce::TransformReduce(temp, bytes, in, acc_out, n, Plus(), AbsOf<A>(),
                                                A(0), 0);
    case GPUREDUCE_SUM_SQUARES:
      return cub::DeviceReduce::TransformReduce(temp, bytes, in, acc_out, n, Plus(), SquareOf<A>(),
                                                A(0), 0);
    case GPUREDUCE_MIN: return cub::DeviceReduce::Min(temp, bytes, in, val_out, n, 0);
    case GPUREDUCE_MAX: return cub::DeviceReduce::Max(temp, bytes, in, val_out, n, 0);
    case GPUREDUCE_ARGMIN:
      return cub::DeviceReduce::ArgMin(temp, bytes, in, val_out, idx_out, (int64_t)n, 0);
    case GPUREDUCE_ARGMAX:
      return cub::DeviceReduce::ArgMax(temp, bytes, in, val_out, idx_out, (int64_t)n, 0);
    default: break; /* no CUB call (cub_has_op) */
  }
  return cudaErrorInvalidValue;
}

/* Segment b's begin (add 0) or end (add n) offset: b * ld + add. */
struct SegmentOffset {
  int64_t ld, add;
  __host__ __device__ int64_t operator()(int64_t b) const { return b * ld + add; }
};

/* Columns: element k of CUB's sequence is element k % rows of column
 * k / rows, at (k % rows) * ld + k / rows. */
struct ColumnIndex {
  int64_t rows, ld;
  __host__ __device__ int64_t operator()(int64_t k) const { return (k % rows) * ld + k / rows; }
};

using Count = thrust::counting_iterator<int64_t>;

/* One segmented reduction of op over the sequence `in`, segments from the
 * offset iterators begin and end (temp == nullptr: the size query); A is
 * the accumulator, as in cub_call. */
template <typename T, typename A, typename InIt, typename OffIt>
cudaError_t seg_call(gpureduce_op_t op, void *temp, size_t &bytes, InIt in, void *out,
                     int64_t segments, OffIt begin, OffIt end) {
  using Seg = cub::DeviceSegmentedReduce;
  using Plus = ::cuda::std::plus<A>;
  using Times = ::cuda::std::multiplies<A>;
  A *acc_out = static_cast<A *>(out);
  T *val_out = static_cast<T *>(out);
  cub::KeyValuePair<int, T> *kv_out = static_cast<cub::KeyValuePair<int, T> *>(out);
  switch (op) {
    case GPUREDUCE_SUM:
      if constexpr (::cuda::std::is_same<T, float>::value && ::cuda::std::is_same<A, float>::value)
        return Seg::Sum(temp, bytes, in, acc_out, segments, begin, end, 0);
      else
        return Seg::Reduce(temp, bytes, thrust::make_transform_iterator(in, CastTo<A>()), acc_out,
                           segments, begin, end, Plus(), A(0), 0);
    case GPUREDUCE_PROD:
      return Seg::Reduce(temp, bytes, thrust::make_transform_iterator(in, CastTo<A>()), acc_out,
                         segments, begin, end, Times(), A(1), 0);
    case GPUREDUCE_SUM_ABS:
      return Seg::Reduce(temp, bytes, thrust::make_transform_iterator(in, AbsOf<A>()), acc_out,
                         segments, begin, end, Plus(), A(0), 0);
    case GPUREDUCE_SUM_SQUARES:
      return Seg::Reduce(temp, bytes, thrust::make_transform_iterator(in, SquareOf<A>()), acc_out,
                         segments, begin, end, Plus(), A(0), 0);
    case GPUREDUCE_MIN: return Seg::Min(temp, bytes, in, val_out, segments, begin, end, 0);
    case GPUREDUCE_MAX: return Seg::Max(temp, bytes, in, val_out, segments, begin, end, 0);
    case GPUREDUCE_ARGMIN: return Seg::ArgMin(temp, bytes, in, kv_out, segments, begin, end, 0);
    case GPUREDUCE_ARGMAX: return Seg::ArgMax(temp, bytes, in, kv_out, segments, begin, end, 0);
    default: break;
  }
  return cudaErrorInvalidValue;
}

/* The vectors as CUB sees them: CSR offsets as begin = offsets and end =
 * offsets + 1; a matrix's rows directly, its columns through the
 * permutation iterator. */
template <typename T, typename A>
cudaError_t seg_vectors(gpureduce_op_t op, void *temp, size_t &bytes, const bench_segments *m,
                        void *out) {
  const T *x = static_cast<const T *>(m->x);
  const int64_t segments = (int64_t)m->count, n = (int64_t)m->n, ld = (int64_t)m->ld;
  if (m->offsets)
    return seg_call<T, A>(op, temp, bytes, x, out, segments, m->offsets, m->offsets + 1);
  if (!m->columns)
    return seg_call<T, A>(op, temp, bytes, x, out, segments,
                          thrust::make_transform_iterator(Count(0), SegmentOffset{ld, 0}),
                          thrust::make_transform_iterator(Count(0), SegmentOffset{ld, n}));
  const auto in = thrust::make_permutation_iterator(
      x, thrust::make_transform_iterator(Count(0), ColumnIndex{n, ld}));
  return seg_call<T, A>(op, temp, bytes, in, out, segments,
                        thrust::make_transform_iterator(Count(0), SegmentOffset{n, 0}),
                        thrust::make_transform_iterator(Count(0), SegmentOffset{n, n}));
}

template <typename T, typename A>
SegLayout seg_result_layout(gpureduce_op_t op) {
  switch (op) {
    case GPUREDUCE_MIN:
    case GPUREDUCE_MAX: return {sizeof(T), 0};
    case GPUREDUCE_ARGMIN:
    case GPUREDUCE_ARGMAX: {
      const cub::KeyValuePair<int, T> kv;
      return {sizeof kv, (size_t)(reinterpret_cast<const char *>(&kv.value) -
                                  reinterpret_cast<const char *>(&kv))};
    }
    default: return {sizeof(A), 0};
  }
}

/* An element type T and its accumulator A. */
template <typename T_, typename A_>
struct Types {
  using T = T_;
  using A = A_;
};

/* f(Types<T, A>{}) for the element type of `type` and its accumulator:
 * float for f16/bf16/f32, double for f64 or GPUREDUCE_ACCUMULATE_F64,
 * 64-bit integers for integers; `none` for an unknown type. */
template <typename R, typename F>
R with_types(gpureduce_type_t type, unsigned flags, R none, F f) {
  if (type == GPUREDUCE_F32 && (flags & GPUREDUCE_ACCUMULATE_F64)) return f(Types<float, double>{});
  switch (type) {
    case GPUREDUCE_F16: return f(Types<__half, float>{});
    case GPUREDUCE_BF16: return f(Types<__nv_bfloat16, float>{});
    case GPUREDUCE_F32: return f(Types<float, float>{});
    case GPUREDUCE_F64: return f(Types<double, double>{});
    case GPUREDUCE_I8: return f(Types<int8_t, int64_t>{});
    case GPUREDUCE_U8: return f(Types<uint8_t, uint64_t>{});
    case GPUREDUCE_I32: return f(Types<int32_t, int64_t>{});
    case GPUREDUCE_U32: return f(Types<uint32_t, uint64_t>{});
    case GPUREDUCE_I64: return f(Types<int64_t, int64_t>{});
    case GPUREDUCE_U64: return f(Types<uint64_t, uint64_t>{});
  }
  return none;
}

#define TYPES_OF(t) typename decltype(t)::T, typename decltype(t)::A

cudaError_t cub_dispatch(const bench_cub *c, void *temp, size_t &bytes, const void *in, size_t n) {
  return with_types(c->type, c->flags, cudaErrorInvalidValue, [&](auto t) {
    return cub_call<TYPES_OF(t)>(c->op, temp, bytes, in, c->out, c->index, n);
  });
}

cudaError_t seg_dispatch(const bench_cub_seg *c, void *temp, size_t &bytes,
                         const bench_segments *s) {
  return with_types(c->type, c->flags, cudaErrorInvalidValue, [&](auto t) {
    return seg_vectors<TYPES_OF(t)>(c->op, temp, bytes, s, c->out);
  });
}

SegLayout seg_layout_of(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  return with_types(type, flags, SegLayout{0, 0},
                    [&](auto t) { return seg_result_layout<TYPES_OF(t)>(op); });
}

#else /* !HAVE_CUB: nothing calls these (the create functions return NULL) */

cudaError_t cub_dispatch(const bench_cub *, void *, size_t &, const void *, size_t) {
  return cudaErrorNotSupported;
}
cudaError_t seg_dispatch(const bench_cub_seg *, void *, size_t &, const bench_segments *) {
  return cudaErrorNotSupported;
}
SegLayout seg_layout_of(gpureduce_type_t, gpureduce_op_t, unsigned) { return {0, 0}; }

#endif /* HAVE_CUB */

/* The call's name, e.g. "cub::DeviceReduce::Sum" or, segmented,
 * "cub::DeviceSegmentedReduce::Reduce(+, x*x)". */
void call_name(int segmented, gpureduce_type_t type, gpureduce_op_t op, unsigned flags, char *buf,
               size_t size) {
  const char *reduce = segmented ? "Reduce" : "TransformReduce";
  const char *call = "", *fold = "";
  switch (op) {
    case GPUREDUCE_SUM:
      if (type == GPUREDUCE_F32 && !flags)
        call = "Sum";
      else
        call = reduce, fold = "(+)";
      break;
    case GPUREDUCE_PROD: call = reduce, fold = "(*)"; break;
    case GPUREDUCE_SUM_ABS: call = reduce, fold = "(+, |x|)"; break;
    case GPUREDUCE_SUM_SQUARES: call = reduce, fold = "(+, x*x)"; break;
    case GPUREDUCE_MIN: call = "Min"; break;
    case GPUREDUCE_MAX: call = "Max"; break;
    case GPUREDUCE_ARGMIN: call = "ArgMin"; break;
    case GPUREDUCE_ARGMAX: call = "ArgMax"; break;
    default: break;
  }
  std::snprintf(buf, size, "cub::%s%s%s%s", segmented ? "DeviceSegmentedReduce" : "DeviceReduce",
                *call ? "::" : "", call, fold);
}

} /* namespace bench_cub_detail */

using namespace bench_cub_detail;

extern "C" int bench_cub_built(void) {
#ifdef HAVE_CUB
  return 1;
#else
  return 0;
#endif
}

extern "C" int bench_cub_version(void) {
#ifdef HAVE_CUB
  return CUB_VERSION;
#else
  return 0;
#endif
}

/* ---- one vector ---------------------------------------------------------- */

/* cuBLAS times the f32 and f64 nrm2 (the side-by-side comparison):
 * cublasSnrm2_64 and cublasDnrm2_64, results in device memory (pointer mode
 * device), so that a call only enqueues work, as gpureduce's does. */
static int blas_nrm2(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
#ifdef HAVE_CUBLAS
  return op == GPUREDUCE_NRM2 && flags == 0 && (type == GPUREDUCE_F32 || type == GPUREDUCE_F64);
#else
  (void)type, (void)op, (void)flags;
  return 0;
#endif
}

extern "C" struct bench_cub *bench_cub_create(gpureduce_type_t type, gpureduce_op_t op,
                                              unsigned flags, const size_t *ns, size_t count) {
  const int blas = blas_nrm2(type, op, flags);
  if (!blas && !(bench_cub_built() && cub_has_op(op))) return nullptr;
  bench_cub *c = static_cast<bench_cub *>(host_calloc(sizeof(bench_cub), "a comparison"));
  c->type = type;
  c->op = op;
  c->flags = flags;
  c->out = bench_cuda_alloc(16, blas ? "cuBLAS output" : "CUB output");
  c->index = bench_cuda_alloc(sizeof(int64_t), blas ? "cuBLAS index output" : "CUB index output");
  if (blas)
    std::snprintf(c->name, sizeof c->name, "%s",
                  type == GPUREDUCE_F32 ? "cublasSnrm2_64" : "cublasDnrm2_64");
  else
    call_name(0, type, op, flags, c->name, sizeof c->name);
  if (blas) {
#ifdef HAVE_CUBLAS
    cublasHandle_t h = nullptr;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS ||
        cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "reduce-bench: cublasCreate failed\n");
      std::exit(1);
    }
    c->blas = h;
#endif
    return c;
  }
  for (size_t k = 0; k < count; ++k) {
    size_t bytes = 0;
    CHECK(cub_dispatch(c, nullptr, bytes, nullptr, ns[k]), "CUB temporary storage size query");
    if (bytes > c->temp_bytes) c->temp_bytes = bytes;
  }
  c->temp = bench_cuda_alloc(c->temp_bytes, "CUB temporary storage");
  return c;
}

extern "C" const char *bench_cub_name(const struct bench_cub *c) { return c->name; }

extern "C" void bench_cub_run(struct bench_cub *c, const void *in, size_t n) {
  if (!c->blas) {
    size_t bytes = c->temp_bytes;
    CHECK(cub_dispatch(c, c->temp, bytes, in, n), bench_cub_name(c));
    CHECK_LAUNCH(bench_cub_name(c));
    return;
  }
#ifdef HAVE_CUBLAS
  cublasHandle_t h = static_cast<cublasHandle_t>(c->blas);
  const cublasStatus_t st =
      c->type == GPUREDUCE_F32
          ? cublasSnrm2_64(h, (int64_t)n, static_cast<const float *>(in), 1,
                           static_cast<float *>(c->out))
          : cublasDnrm2_64(h, (int64_t)n, static_cast<const double *>(in), 1,
                           static_cast<double *>(c->out));
  if (st != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "reduce-bench: %s failed (cuBLAS status %d)\n", bench_cub_name(c),
                 (int)st);
    std::exit(1);
  }
  CHECK_LAUNCH(bench_cub_name(c));
#endif
}

extern "C" void bench_cub_run_once(struct bench_cub *c, const void *in, size_t n, void *dst,
                                   size_t bytes) {
  if (!c) return;
  const int arg = is_arg(c->op);
  bench_cuda_poison(c->out, 16);
  bench_cuda_poison(c->index, sizeof(int64_t));
  bench_cub_run(c, in, n);
  bench_cuda_copy_to_host(dst, arg ? c->index : c->out, bytes < 8 ? bytes : 8);
  if (!arg || bytes < 16) return;
  /* GPUREDUCE_WITH_VALUE's layout: CUB's value after the index, zeros after it */
  unsigned char *value = static_cast<unsigned char *>(dst) + 8;
  std::memset(value, 0, 8);
  bench_cuda_copy_to_host(value, c->out, gpureduce_type_size(c->type));
}

extern "C" void bench_cub_destroy(struct bench_cub *c) {
  if (!c) return;
#ifdef HAVE_CUBLAS
  if (c->blas) cublasDestroy(static_cast<cublasHandle_t>(c->blas));
#endif
  bench_cuda_free(c->temp);
  bench_cuda_free(c->out);
  bench_cuda_free(c->index);
  std::free(c);
}

/* ---- many vectors ---------------------------------------------------------- */

extern "C" struct bench_cub_seg *bench_cub_seg_create(gpureduce_type_t type, gpureduce_op_t op,
                                                      unsigned flags, size_t max_count) {
  if (!bench_cub_built() || !cub_has_op(op)) return nullptr;
  const size_t rs = gpureduce_result_size(type, op, flags);
  bench_cub_seg *c = static_cast<bench_cub_seg *>(host_calloc(sizeof(bench_cub_seg), "CUB"));
  c->type = type;
  c->op = op;
  c->flags = flags;
  c->max_count = max_count;
  call_name(1, type, op, flags, c->name, sizeof c->name);
  const SegLayout layout = seg_layout_of(type, op, flags);
  c->result_bytes = layout.bytes;
  c->value_at = layout.value_at;
  if (rs == 0 || c->result_bytes == 0 || (!is_arg(op) && c->result_bytes != rs)) {
    std::fprintf(stderr,
                 "reduce-bench: internal error: CUB's segmented result (%zu bytes) is not "
                 "gpureduce's (%zu bytes) for %s %s\n",
                 c->result_bytes, rs, gpureduce_type_name(type), gpureduce_op_name(op));
    std::exit(1);
  }
  c->out = bench_cuda_alloc(max_count * c->result_bytes, "CUB segmented outputs");
  return c;
}

extern "C" const char *bench_cub_seg_name(const struct bench_cub_seg *c) { return c->name; }

extern "C" int bench_cub_seg_supports(const struct bench_cub_seg *c, const struct bench_segments *s,
                                      char *why, size_t why_bytes) {
  /* The length of CUB's input sequence: to the last offset, the rows'
   * span, or batch x n through the column iterator. */
  const double length = s->offsets   ? (double)s->end
                        : s->columns ? (double)s->count * (double)s->n
                                     : ((double)s->count - 1) * (double)s->ld + (double)s->n;
  if (s->count > c->max_count) {
    std::snprintf(why, why_bytes, "internal error: %zu segments, room for %zu", s->count,
                  c->max_count);
    return 0;
  }
  if (is_arg(c->op) && length > (double)INT_MAX) {
    std::snprintf(why, why_bytes,
                  "n/a: CUB's segmented ArgMin/ArgMax index with int offsets, and the input "
                  "goes beyond 2^31-1 elements");
    return 0;
  }
  return 1;
}

extern "C" void bench_cub_seg_prepare(struct bench_cub_seg *c, const struct bench_segments *s) {
  size_t bytes = 0;
  CHECK(seg_dispatch(c, nullptr, bytes, s), "CUB segmented temporary storage size query");
  if (bytes <= c->temp_bytes && c->temp) return;
  bench_cuda_free(c->temp);
  c->temp = bench_cuda_alloc(bytes, "CUB segmented temporary storage");
  c->temp_bytes = bytes;
}

extern "C" void bench_cub_seg_run(struct bench_cub_seg *c, const struct bench_segments *s) {
  size_t bytes = c->temp_bytes;
  CHECK(seg_dispatch(c, c->temp, bytes, s), bench_cub_seg_name(c));
  CHECK_LAUNCH(bench_cub_seg_name(c));
}

/* CUB's results of segments rows[0 .. count-1] from c->out to dst, as
 * gpureduce lays them out (bench_cub_seg_results). */
static void copy_seg_results(struct bench_cub_seg *c, const size_t *rows, size_t count,
                             void *dst) {
  const size_t rb = c->result_bytes;
  const size_t rs = gpureduce_result_size(c->type, c->op, c->flags);
  unsigned char *staged = static_cast<unsigned char *>(host_calloc(count * rb + 1, "CUB's results"));
  /* one copy per run of consecutive vectors */
  for (size_t k = 0; k < count;) {
    size_t run = 1;
    while (k + run < count && rows[k + run] == rows[k] + run) ++run;
    bench_cuda_copy_to_host(staged + k * rb, static_cast<const unsigned char *>(c->out) + rows[k] * rb,
                            run * rb);
    k += run;
  }
  unsigned char *d = static_cast<unsigned char *>(dst);
  for (size_t k = 0; k < count; ++k) {
    if (is_arg(c->op)) {
      int key; /* KeyValuePair<int, T>: the key first */
      std::memcpy(&key, staged + k * rb, sizeof key);
      const uint64_t index = (uint64_t)(int64_t)key;
      std::memcpy(d + k * rs, &index, sizeof index);
      if (rs < 16) continue;
      /* GPUREDUCE_WITH_VALUE: the pair's value after the index, zeros after it */
      std::memset(d + k * rs + 8, 0, 8);
      std::memcpy(d + k * rs + 8, staged + k * rb + c->value_at, gpureduce_type_size(c->type));
    } else {
      std::memcpy(d + k * rs, staged + k * rb, rs);
    }
  }
  std::free(staged);
}

extern "C" void bench_cub_seg_results(struct bench_cub_seg *c, const struct bench_segments *s,
                                      const size_t *rows, size_t count, void *dst) {
  bench_cuda_poison(c->out, s->count * c->result_bytes);
  bench_cub_seg_prepare(c, s);
  bench_cub_seg_run(c, s);
  copy_seg_results(c, rows, count, dst);
}

extern "C" void bench_cub_seg_destroy(struct bench_cub_seg *c) {
  if (!c) return;
  bench_cuda_free(c->temp);
  bench_cuda_free(c->out);
  std::free(c);
}
