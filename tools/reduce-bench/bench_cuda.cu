/*
 * bench_cuda.cu - the CUDA side of reduce-bench (see bench_cuda.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * Every CUDA call is checked; a failure prints the call and CUDA's message
 * and exits with status 1.  Everything runs on the legacy default stream.
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

#include "bench_cuda.h"

#ifdef HAVE_CUBLAS
#include <cublas_v2.h>
#endif

/* ---- errors ------------------------------------------------------------ */

static void bench_check(cudaError_t err, const char *what, const char *file, int line) {
  if (err == cudaSuccess) return;
  std::fprintf(stderr, "reduce-bench: CUDA error in %s: %s (%s) [%s:%d]\n", what,
               cudaGetErrorString(err), cudaGetErrorName(err), file, line);
  std::exit(1);
}

#define CHECK(call, what) bench_check((call), (what), __FILE__, __LINE__)
/* After a launch: the launch error, if any. */
#define CHECK_LAUNCH(what) bench_check(cudaGetLastError(), (what), __FILE__, __LINE__)

static unsigned grid_for(size_t items, unsigned cap) {
  const size_t blocks = (items + BENCH_BLOCK - 1) / BENCH_BLOCK;
  return blocks == 0 ? 1u : blocks < cap ? (unsigned)blocks : cap;
}

/* ---- devices ----------------------------------------------------------- */

extern "C" int bench_cuda_device_count(char *why, size_t why_bytes) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    int driver = 0;
    if (err == cudaErrorInsufficientDriver && cudaDriverGetVersion(&driver) == cudaSuccess &&
        driver == 0) {
      /* What the runtime says when libcuda.so is not there at all. */
      if (why && why_bytes) std::snprintf(why, why_bytes, "no NVIDIA driver loaded");
    } else if (why && why_bytes) {
      std::snprintf(why, why_bytes, "%s", cudaGetErrorString(err));
    }
    return 0;
  }
  if (count == 0 && why && why_bytes) std::snprintf(why, why_bytes, "no CUDA device found");
  return count;
}

extern "C" void bench_cuda_open(int device, struct bench_device_info *info) {
  std::memset(info, 0, sizeof *info);
  CHECK(cudaSetDevice(device), "cudaSetDevice");
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  std::snprintf(info->name, sizeof info->name, "%s", prop.name);
  info->ordinal = device;
  CHECK(cudaDeviceGetAttribute(&info->sm_count, cudaDevAttrMultiProcessorCount, device),
        "cudaDeviceGetAttribute(MultiProcessorCount)");
  CHECK(cudaDeviceGetAttribute(&info->cc_major, cudaDevAttrComputeCapabilityMajor, device),
        "cudaDeviceGetAttribute(ComputeCapabilityMajor)");
  CHECK(cudaDeviceGetAttribute(&info->cc_minor, cudaDevAttrComputeCapabilityMinor, device),
        "cudaDeviceGetAttribute(ComputeCapabilityMinor)");
  int l2 = 0;
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device),
        "cudaDeviceGetAttribute(L2CacheSize)");
  info->l2_bytes = (size_t)l2;
  CHECK(cudaRuntimeGetVersion(&info->runtime_version), "cudaRuntimeGetVersion");
  CHECK(cudaDriverGetVersion(&info->driver_version), "cudaDriverGetVersion");
  CHECK(cudaMemGetInfo(&info->free_bytes, &info->total_bytes), "cudaMemGetInfo");
}

/* ---- memory ------------------------------------------------------------ */

extern "C" void *bench_cuda_alloc(size_t bytes, const char *what) {
  void *p = nullptr;
  const cudaError_t err = cudaMalloc(&p, bytes ? bytes : 1);
  if (err != cudaSuccess) {
    std::fprintf(stderr, "reduce-bench: cudaMalloc of %zu bytes (%s) failed: %s\n", bytes, what,
                 cudaGetErrorString(err));
    std::exit(1);
  }
  return p;
}

extern "C" void bench_cuda_free(void *p) {
  if (p) CHECK(cudaFree(p), "cudaFree");
}

extern "C" void bench_cuda_copy_to_host(void *dst, const void *src, size_t bytes) {
  CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy device to host");
}

extern "C" void bench_cuda_copy_to_device(void *dst, const void *src, size_t bytes) {
  CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy host to device");
}

extern "C" void bench_cuda_poison(void *p, size_t bytes) {
  CHECK(cudaMemsetAsync(p, 0xff, bytes, 0), "cudaMemsetAsync (poison)");
  CHECK(cudaStreamSynchronize(0), "cudaStreamSynchronize (poison)");
}

extern "C" void bench_cuda_sync(const char *what) { CHECK(cudaDeviceSynchronize(), what); }

/* ---- inputs ------------------------------------------------------------ */

/* splitmix64's finalizer: a good 64-bit mix of (seed, index). */
__host__ __device__ static inline uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Bits of m / 2^(mant_bits) in a 16-bit float with mant_bits stored
 * mantissa bits and exponent bias `bias`, for |m| <= 2^mant_bits (exact). */
__host__ __device__ static inline uint16_t small_to_half_bits(int m, int mant_bits, int bias) {
  if (m == 0) return 0;
  const unsigned sign = m < 0 ? 1u : 0u, a = m < 0 ? (unsigned)-m : (unsigned)m;
  int e = 0;
  while ((a >> (e + 1)) != 0) ++e; /* floor(log2 a) <= mant_bits */
  const unsigned exponent = (unsigned)(e - mant_bits + bias);
  const unsigned mantissa = (a << (mant_bits - e)) & ((1u << mant_bits) - 1u);
  return (uint16_t)(sign << 15 | exponent << mant_bits | mantissa);
}

__host__ __device__ static inline void put_random(void *base, size_t i, gpureduce_type_t type,
                                                  uint64_t seed) {
  const uint64_t h = mix64(seed ^ mix64(i));
  switch (type) {
    case GPUREDUCE_F16:
      static_cast<uint16_t *>(base)[i] = small_to_half_bits((int)(h >> 53) - 1024, 10, 15);
      break;
    case GPUREDUCE_BF16:
      static_cast<uint16_t *>(base)[i] = small_to_half_bits((int)(h >> 56) - 128, 7, 127);
      break;
    case GPUREDUCE_F32:
      static_cast<float *>(base)[i] = (float)((int32_t)(h >> 40) - (1 << 23)) * 0x1p-23f;
      break;
    case GPUREDUCE_F64:
      static_cast<double *>(base)[i] = (double)((int64_t)(h >> 11) - (1ll << 52)) * 0x1p-52;
      break;
    case GPUREDUCE_I8: static_cast<int8_t *>(base)[i] = (int8_t)(uint8_t)(h >> 56); break;
    case GPUREDUCE_U8: static_cast<uint8_t *>(base)[i] = (uint8_t)(h >> 56); break;
    case GPUREDUCE_I32: static_cast<int32_t *>(base)[i] = (int32_t)(h >> 48) - 32768; break;
    case GPUREDUCE_U32: static_cast<uint32_t *>(base)[i] = (uint32_t)(h >> 48); break;
    case GPUREDUCE_I64: static_cast<int64_t *>(base)[i] = (int64_t)(h >> 48) - 32768; break;
    case GPUREDUCE_U64: static_cast<uint64_t *>(base)[i] = h >> 48; break;
  }
}

__host__ __device__ static inline void put_one(void *base, size_t i, gpureduce_type_t type) {
  switch (type) {
    case GPUREDUCE_F16: static_cast<uint16_t *>(base)[i] = 0x3c00u; break;
    case GPUREDUCE_BF16: static_cast<uint16_t *>(base)[i] = 0x3f80u; break;
    case GPUREDUCE_F32: static_cast<float *>(base)[i] = 1.0f; break;
    case GPUREDUCE_F64: static_cast<double *>(base)[i] = 1.0; break;
    case GPUREDUCE_I8: static_cast<int8_t *>(base)[i] = 1; break;
    case GPUREDUCE_U8: static_cast<uint8_t *>(base)[i] = 1; break;
    case GPUREDUCE_I32: static_cast<int32_t *>(base)[i] = 1; break;
    case GPUREDUCE_U32: static_cast<uint32_t *>(base)[i] = 1; break;
    case GPUREDUCE_I64: static_cast<int64_t *>(base)[i] = 1; break;
    case GPUREDUCE_U64: static_cast<uint64_t *>(base)[i] = 1; break;
  }
}

__global__ void fill_random_kernel(void *base, size_t n, gpureduce_type_t type, uint64_t seed) {
  const size_t step = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
    put_random(base, i, type, seed);
}

__global__ void fill_ones_kernel(void *base, size_t n, gpureduce_type_t type) {
  const size_t step = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
    put_one(base, i, type);
}

static void check_type(gpureduce_type_t type) {
  if (gpureduce_type_size(type) == 0) {
    std::fprintf(stderr, "reduce-bench: internal error: fill of unknown type %d\n", (int)type);
    std::exit(1);
  }
}

extern "C" void bench_fill_ones(void *d, size_t n, gpureduce_type_t type) {
  check_type(type);
  fill_ones_kernel<<<grid_for(n, 8192), BENCH_BLOCK>>>(d, n, type);
  CHECK_LAUNCH("fill_ones_kernel launch");
  bench_cuda_sync("fill_ones_kernel");
}

extern "C" void bench_fill_random(void *d, size_t n, gpureduce_type_t type, uint64_t seed) {
  check_type(type);
  fill_random_kernel<<<grid_for(n, 8192), BENCH_BLOCK>>>(d, n, type, seed);
  CHECK_LAUNCH("fill_random_kernel launch");
  bench_cuda_sync("fill_random_kernel");
}

extern "C" void bench_fill_ones_host(void *h, size_t n, gpureduce_type_t type) {
  check_type(type);
  for (size_t i = 0; i < n; ++i) put_one(h, i, type);
}

extern "C" void bench_fill_random_host(void *h, size_t n, gpureduce_type_t type, uint64_t seed) {
  check_type(type);
  for (size_t i = 0; i < n; ++i) put_random(h, i, type, seed);
}

/* ---- timing ------------------------------------------------------------ */

struct bench_timer {
  cudaEvent_t start, stop;
};

extern "C" struct bench_timer *bench_timer_create(void) {
  bench_timer *t = static_cast<bench_timer *>(std::calloc(1, sizeof *t));
  if (!t) {
    std::fprintf(stderr, "reduce-bench: out of host memory\n");
    std::exit(1);
  }
  CHECK(cudaEventCreate(&t->start), "cudaEventCreate");
  CHECK(cudaEventCreate(&t->stop), "cudaEventCreate");
  return t;
}

extern "C" void bench_timer_start(struct bench_timer *t) {
  CHECK(cudaEventRecord(t->start, 0), "cudaEventRecord (start)");
}

extern "C" double bench_timer_stop_ms(struct bench_timer *t) {
  CHECK(cudaEventRecord(t->stop, 0), "cudaEventRecord (stop)");
  CHECK(cudaEventSynchronize(t->stop), "cudaEventSynchronize (timed work)");
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, t->start, t->stop), "cudaEventElapsedTime");
  return ms;
}

extern "C" void bench_timer_destroy(struct bench_timer *t) {
  if (!t) return;
  CHECK(cudaEventDestroy(t->start), "cudaEventDestroy");
  CHECK(cudaEventDestroy(t->stop), "cudaEventDestroy");
  std::free(t);
}

/* ---- block sums shared by the probe and the atomic sum ------------------ */

template <typename T>
__device__ static inline T warp_sum(T v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

/* Sum of v over the block, valid in thread 0. */
template <typename T>
__device__ static inline T block_sum(T v) {
  __shared__ T warp_sums[BENCH_BLOCK / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_sum(lane < BENCH_BLOCK / 32 ? warp_sums[lane] : T(0));
  return v;
}

/* ---- the probe --------------------------------------------------------- */

__device__ static inline unsigned fold4(uint4 v) { return (v.x + v.y) + (v.z + v.w); }

/* head bytes from p, then nvec 16-byte vectors, then tail bytes. */
__global__ void __launch_bounds__(BENCH_BLOCK)
    probe_kernel(const unsigned char *__restrict__ p, unsigned head, size_t nvec, unsigned tail,
                 unsigned *sink) {
  const uint4 *__restrict__ v = reinterpret_cast<const uint4 *>(p + head);
  const size_t step = (size_t)gridDim.x * blockDim.x;
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc = 0;
  for (; i + 3 * step < nvec; i += 4 * step) {
    const uint4 a = v[i], b = v[i + step], c = v[i + 2 * step], d = v[i + 3 * step];
    acc += (fold4(a) + fold4(b)) + (fold4(c) + fold4(d));
  }
  for (; i < nvec; i += step) acc += fold4(v[i]);
  if (blockIdx.x == 0 && threadIdx.x < head) acc += p[threadIdx.x];
  if (blockIdx.x == 0 && threadIdx.x < tail) acc += p[head + 16 * nvec + threadIdx.x];
  acc = block_sum(acc);
  if (threadIdx.x == 0) atomicAdd(sink, acc);
}

struct bench_probe {
  unsigned *sink;
};

extern "C" struct bench_probe *bench_probe_create(void) {
  bench_probe *p = static_cast<bench_probe *>(std::calloc(1, sizeof *p));
  if (!p) {
    std::fprintf(stderr, "reduce-bench: out of host memory\n");
    std::exit(1);
  }
  p->sink = static_cast<unsigned *>(bench_cuda_alloc(sizeof(unsigned), "probe sink"));
  /* the probe adds into it: start from a defined value (compute-sanitizer
   * initcheck on the H200 flagged the first atomicAdd) */
  CHECK(cudaMemset(p->sink, 0, sizeof(unsigned)), "cudaMemset of the probe sink");
  return p;
}

extern "C" void bench_probe_run(struct bench_probe *p, const void *in, size_t bytes,
                                unsigned grid) {
  const unsigned char *b = static_cast<const unsigned char *>(in);
  size_t head = (16 - (uintptr_t)b % 16) % 16;
  if (head > bytes) head = bytes;
  const size_t nvec = (bytes - head) / 16;
  const size_t tail = bytes - head - 16 * nvec;
  probe_kernel<<<grid ? grid : 1u, BENCH_BLOCK>>>(b, (unsigned)head, nvec, (unsigned)tail, p->sink);
  CHECK_LAUNCH("probe_kernel launch");
}

extern "C" void bench_probe_destroy(struct bench_probe *p) {
  if (!p) return;
  bench_cuda_free(p->sink);
  std::free(p);
}

/* ---- the atomic (nondeterministic) sum --------------------------------- */

__device__ static inline float fold4(float4 v) { return (v.x + v.y) + (v.z + v.w); }

/* head floats from x, then nvec float4 vectors, then tail floats. */
__global__ void __launch_bounds__(BENCH_BLOCK)
    atomic_sum_kernel(const float *__restrict__ x, unsigned head, size_t nvec, unsigned tail,
                      float *out) {
  const float4 *__restrict__ v = reinterpret_cast<const float4 *>(x + head);
  const size_t step = (size_t)gridDim.x * blockDim.x;
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (; i + 3 * step < nvec; i += 4 * step) {
    const float4 a = v[i], b = v[i + step], c = v[i + 2 * step], d = v[i + 3 * step];
    acc += (fold4(a) + fold4(b)) + (fold4(c) + fold4(d));
  }
  for (; i < nvec; i += step) acc += fold4(v[i]);
  if (blockIdx.x == 0 && threadIdx.x < head) acc += x[threadIdx.x];
  if (blockIdx.x == 0 && threadIdx.x < tail) acc += x[head + 4 * nvec + threadIdx.x];
  acc = block_sum(acc);
  if (threadIdx.x == 0) atomicAdd(out, acc);
}

extern "C" void bench_atomic_sum_f32(const float *in, size_t n, float *out, unsigned grid) {
  if ((uintptr_t)in % sizeof(float)) {
    std::fprintf(stderr, "reduce-bench: internal error: atomic sum of a misaligned float array\n");
    std::exit(1);
  }
  size_t head = ((16 - (uintptr_t)in % 16) % 16) / sizeof(float);
  if (head > n) head = n;
  const size_t nvec = (n - head) / 4;
  const size_t tail = n - head - 4 * nvec;
  CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0), "cudaMemsetAsync (atomic sum output)");
  atomic_sum_kernel<<<grid ? grid : 1u, BENCH_BLOCK>>>(in, (unsigned)head, nvec, (unsigned)tail,
                                                       out);
  CHECK_LAUNCH("atomic_sum_kernel launch");
}

/* ---- batched: strided copies -------------------------------------------- */

/* count elements of es bytes, stride bytes apart in src, to dst (contiguous). */
__global__ void gather_kernel(unsigned char *__restrict__ dst, const unsigned char *__restrict__ src,
                              size_t count, size_t stride, unsigned es) {
  const size_t step = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += step)
    for (unsigned k = 0; k < es; ++k) dst[i * es + k] = src[i * stride + k];
}

extern "C" void bench_cuda_copy_strided_async(void *dst, const void *src, size_t es,
                                              size_t src_stride, size_t count) {
  if (count == 0) return;
  if (count == 1 || src_stride == es) {
    CHECK(cudaMemcpyAsync(dst, src, count * es, cudaMemcpyDeviceToDevice, 0),
          "cudaMemcpyAsync (a vector copied for the checks)");
    return;
  }
  static int max_pitch = -1; /* cudaMemcpy2D's limit on a pitch, in bytes */
  if (max_pitch < 0) {
    int device = 0;
    CHECK(cudaGetDevice(&device), "cudaGetDevice");
    CHECK(cudaDeviceGetAttribute(&max_pitch, cudaDevAttrMaxPitch, device),
          "cudaDeviceGetAttribute(MaxPitch)");
  }
  if (src_stride <= (size_t)max_pitch) {
    CHECK(cudaMemcpy2DAsync(dst, es, src, src_stride, es, count, cudaMemcpyDeviceToDevice, 0),
          "cudaMemcpy2DAsync (a column copied for the checks)");
    return;
  }
  gather_kernel<<<grid_for(count, 8192), BENCH_BLOCK>>>(static_cast<unsigned char *>(dst),
                                                        static_cast<const unsigned char *>(src),
                                                        count, src_stride, (unsigned)es);
  CHECK_LAUNCH("gather_kernel launch (a column copied for the checks)");
}

/* ---- CUB --------------------------------------------------------------- */

struct bench_cub {
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  void *temp;
  size_t temp_bytes;
  void *out;   /* 16 bytes: the value */
  void *index; /* int64_t: argmin/argmax index */
  void *blas;  /* the cublasHandle_t of cuBLAS's nrm2, or NULL for CUB */
};

/* The operations CUB computes: all but nrm2 and mean_var. */
static int cub_has_op(gpureduce_op_t op) {
  return op != GPUREDUCE_NRM2 && op != GPUREDUCE_MEAN_VAR;
}

/* A comparison of (type, op, flags) with its outputs: 16 bytes for the
 * value, an int64_t for the index; `who` names them (CUB or cuBLAS). */
static bench_cub *comparison_new(gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                                 const char *who) {
  bench_cub *c = static_cast<bench_cub *>(std::calloc(1, sizeof *c));
  if (!c) {
    std::fprintf(stderr, "reduce-bench: out of host memory\n");
    std::exit(1);
  }
  char what[64];
  c->type = type;
  c->op = op;
  c->flags = flags;
  std::snprintf(what, sizeof what, "%s output", who);
  c->out = bench_cuda_alloc(16, what);
  std::snprintf(what, sizeof what, "%s index output", who);
  c->index = bench_cuda_alloc(sizeof(int64_t), what);
  return c;
}

#ifdef HAVE_CUB

extern "C" int bench_cub_built(void) { return 1; }

extern "C" int bench_cub_version(void) { return CUB_VERSION; }

namespace {

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
    default: break; /* nrm2, mean_var: no CUB call (cub_has_op) */
  }
  return cudaErrorInvalidValue;
}

/* The element types and their accumulators: one list, one dispatch. */
#define BENCH_CUB_TYPES(X)                \
  X(GPUREDUCE_F16, __half, float)         \
  X(GPUREDUCE_BF16, __nv_bfloat16, float) \
  X(GPUREDUCE_F32, float, float)          \
  X(GPUREDUCE_F64, double, double)        \
  X(GPUREDUCE_I8, int8_t, int64_t)        \
  X(GPUREDUCE_U8, uint8_t, uint64_t)      \
  X(GPUREDUCE_I32, int32_t, int64_t)      \
  X(GPUREDUCE_U32, uint32_t, uint64_t)    \
  X(GPUREDUCE_I64, int64_t, int64_t)      \
  X(GPUREDUCE_U64, uint64_t, uint64_t)

cudaError_t cub_dispatch(const bench_cub *c, void *temp, size_t &bytes, const void *in, size_t n) {
  if (c->type == GPUREDUCE_F32 && (c->flags & GPUREDUCE_ACCUMULATE_F64))
    return cub_call<float, double>(c->op, temp, bytes, in, c->out, c->index, n);
  switch (c->type) {
#define BENCH_CUB_CASE(type, T, A) \
  case type: return cub_call<T, A>(c->op, temp, bytes, in, c->out, c->index, n);
    BENCH_CUB_TYPES(BENCH_CUB_CASE)
#undef BENCH_CUB_CASE
  }
  return cudaErrorInvalidValue;
}

const char *cub_call_name(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  switch (op) {
    case GPUREDUCE_SUM:
      return type == GPUREDUCE_F32 && !flags ? "cub::DeviceReduce::Sum"
                                             : "cub::DeviceReduce::TransformReduce(+)";
    case GPUREDUCE_PROD: return "cub::DeviceReduce::TransformReduce(*)";
    case GPUREDUCE_SUM_ABS: return "cub::DeviceReduce::TransformReduce(+, |x|)";
    case GPUREDUCE_SUM_SQUARES: return "cub::DeviceReduce::TransformReduce(+, x*x)";
    case GPUREDUCE_MIN: return "cub::DeviceReduce::Min";
    case GPUREDUCE_MAX: return "cub::DeviceReduce::Max";
    case GPUREDUCE_ARGMIN: return "cub::DeviceReduce::ArgMin";
    case GPUREDUCE_ARGMAX: return "cub::DeviceReduce::ArgMax";
    default: break;
  }
  return "cub";
}

} /* namespace */

struct bench_cub *cub_create(gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                             const size_t *ns, size_t count) {
  if (!cub_has_op(op)) return nullptr;
  bench_cub *c = comparison_new(type, op, flags, "CUB");
  for (size_t k = 0; k < count; ++k) {
    size_t bytes = 0;
    CHECK(cub_dispatch(c, nullptr, bytes, nullptr, ns[k]), "CUB temporary storage size query");
    if (bytes > c->temp_bytes) c->temp_bytes = bytes;
  }
  c->temp = bench_cuda_alloc(c->temp_bytes, "CUB temporary storage");
  return c;
}

const char *cub_name(const struct bench_cub *c) { return cub_call_name(c->type, c->op, c->flags); }

void cub_run(struct bench_cub *c, const void *in, size_t n) {
  size_t bytes = c->temp_bytes;
  CHECK(cub_dispatch(c, c->temp, bytes, in, n), cub_name(c));
  CHECK_LAUNCH(cub_name(c));
}

/* ---- CUB's segmented reductions (batched) -------------------------------- */

struct bench_cub_seg {
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  void *temp;
  size_t temp_bytes;
  void *out;           /* max_batch results of result_bytes */
  size_t max_batch;
  size_t result_bytes; /* CUB's output per segment */
  size_t value_at;     /* ArgMin, ArgMax: the value's offset in CUB's pair */
};

namespace {

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
using OffsetIt = thrust::transform_iterator<SegmentOffset, Count>;

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

/* The matrix as CUB sees it: rows directly, columns through the
 * permutation iterator. */
template <typename T, typename A>
cudaError_t seg_matrix(gpureduce_op_t op, void *temp, size_t &bytes, const bench_matrix *m,
                       void *out) {
  const T *x = static_cast<const T *>(m->x);
  const int64_t segments = (int64_t)m->batch, n = (int64_t)m->n, ld = (int64_t)m->ld;
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

/* CSR offsets: begin = offsets, end = offsets + 1. */
template <typename T, typename A>
cudaError_t seg_offsets(gpureduce_op_t op, void *temp, size_t &bytes, const bench_offsets *s,
                        void *out) {
  const uint64_t *b = s->offsets;
  return seg_call<T, A>(op, temp, bytes, static_cast<const T *>(s->x), out, (int64_t)s->segments,
                        b, b + 1);
}

/* CUB's output per segment: its bytes and, for ArgMin and ArgMax, where
 * the pair holds the value. */
struct SegLayout {
  size_t bytes, value_at;
};

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

cudaError_t seg_dispatch(const bench_cub_seg *c, void *temp, size_t &bytes,
                         const bench_matrix *m) {
  if (c->type == GPUREDUCE_F32 && (c->flags & GPUREDUCE_ACCUMULATE_F64))
    return seg_matrix<float, double>(c->op, temp, bytes, m, c->out);
  switch (c->type) {
#define BENCH_CUB_CASE(type, T, A) \
  case type: return seg_matrix<T, A>(c->op, temp, bytes, m, c->out);
    BENCH_CUB_TYPES(BENCH_CUB_CASE)
#undef BENCH_CUB_CASE
  }
  return cudaErrorInvalidValue;
}

cudaError_t seg_dispatch_offsets(const bench_cub_seg *c, void *temp, size_t &bytes,
                                 const bench_offsets *s) {
  if (c->type == GPUREDUCE_F32 && (c->flags & GPUREDUCE_ACCUMULATE_F64))
    return seg_offsets<float, double>(c->op, temp, bytes, s, c->out);
  switch (c->type) {
#define BENCH_CUB_CASE(type, T, A) \
  case type: return seg_offsets<T, A>(c->op, temp, bytes, s, c->out);
    BENCH_CUB_TYPES(BENCH_CUB_CASE)
#undef BENCH_CUB_CASE
  }
  return cudaErrorInvalidValue;
}

SegLayout seg_layout_of(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  if (type == GPUREDUCE_F32 && (flags & GPUREDUCE_ACCUMULATE_F64))
    return seg_result_layout<float, double>(op);
  switch (type) {
#define BENCH_CUB_CASE(type, T, A) \
  case type: return seg_result_layout<T, A>(op);
    BENCH_CUB_TYPES(BENCH_CUB_CASE)
#undef BENCH_CUB_CASE
  }
  return {0, 0};
}

const char *seg_call_name(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  switch (op) {
    case GPUREDUCE_SUM:
      return type == GPUREDUCE_F32 && !flags ? "cub::DeviceSegmentedReduce::Sum"
                                             : "cub::DeviceSegmentedReduce::Reduce(+)";
    case GPUREDUCE_PROD: return "cub::DeviceSegmentedReduce::Reduce(*)";
    case GPUREDUCE_SUM_ABS: return "cub::DeviceSegmentedReduce::Reduce(+, |x|)";
    case GPUREDUCE_SUM_SQUARES: return "cub::DeviceSegmentedReduce::Reduce(+, x*x)";
    case GPUREDUCE_MIN: return "cub::DeviceSegmentedReduce::Min";
    case GPUREDUCE_MAX: return "cub::DeviceSegmentedReduce::Max";
    case GPUREDUCE_ARGMIN: return "cub::DeviceSegmentedReduce::ArgMin";
    case GPUREDUCE_ARGMAX: return "cub::DeviceSegmentedReduce::ArgMax";
    default: break;
  }
  return "cub::DeviceSegmentedReduce";
}

} /* namespace */

extern "C" struct bench_cub_seg *bench_cub_seg_create(gpureduce_type_t type, gpureduce_op_t op,
                                                      unsigned flags, size_t max_batch) {
  if (!cub_has_op(op)) return nullptr;
  const size_t rs = gpureduce_result_size(type, op, flags);
  bench_cub_seg *c = static_cast<bench_cub_seg *>(std::calloc(1, sizeof *c));
  if (!c) {
    std::fprintf(stderr, "reduce-bench: out of host memory\n");
    std::exit(1);
  }
  c->type = type;
  c->op = op;
  c->flags = flags;
  c->max_batch = max_batch;
  const SegLayout layout = seg_layout_of(type, op, flags);
  c->result_bytes = layout.bytes;
  c->value_at = layout.value_at;
  const int arg = op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX;
  if (rs == 0 || c->result_bytes == 0 || (!arg && c->result_bytes != rs)) {
    std::fprintf(stderr,
                 "reduce-bench: internal error: CUB's segmented result (%zu bytes) is not "
                 "gpureduce's (%zu bytes) for %s %s\n",
                 c->result_bytes, rs, gpureduce_type_name(type), gpureduce_op_name(op));
    std::exit(1);
  }
  c->out = bench_cuda_alloc(max_batch * c->result_bytes, "CUB segmented outputs");
  return c;
}

extern "C" const char *bench_cub_seg_name(const struct bench_cub_seg *c) {
  return seg_call_name(c->type, c->op, c->flags);
}

extern "C" int bench_cub_seg_supports(const struct bench_cub_seg *c, const struct bench_matrix *m,
                                      char *why, size_t why_bytes) {
  /* The length of CUB's input sequence: the rows' span, or batch x n
   * through the column iterator. */
  const double length = m->columns ? (double)m->batch * (double)m->n
                                   : ((double)m->batch - 1) * (double)m->ld + (double)m->n;
  if (m->batch > c->max_batch) {
    std::snprintf(why, why_bytes, "internal error: %zu segments, room for %zu", m->batch,
                  c->max_batch);
    return 0;
  }
  if ((c->op == GPUREDUCE_ARGMIN || c->op == GPUREDUCE_ARGMAX) && length > (double)INT_MAX) {
    std::snprintf(why, why_bytes,
                  "n/a: CUB's segmented ArgMin/ArgMax index with int offsets, and the input "
                  "spans more than 2^31-1 elements");
    return 0;
  }
  return 1;
}

extern "C" void bench_cub_seg_prepare(struct bench_cub_seg *c, const struct bench_matrix *m) {
  size_t bytes = 0;
  CHECK(seg_dispatch(c, nullptr, bytes, m), "CUB segmented temporary storage size query");
  if (bytes <= c->temp_bytes && c->temp) return;
  bench_cuda_free(c->temp);
  c->temp = bench_cuda_alloc(bytes, "CUB segmented temporary storage");
  c->temp_bytes = bytes;
}

extern "C" void bench_cub_seg_run(struct bench_cub_seg *c, const struct bench_matrix *m) {
  size_t bytes = c->temp_bytes;
  CHECK(seg_dispatch(c, c->temp, bytes, m), bench_cub_seg_name(c));
  CHECK_LAUNCH(bench_cub_seg_name(c));
}

/* CUB's results of segments rows[0 .. count-1] from c->out to dst, as
 * gpureduce lays them out (bench_cub_seg_results). */
static void copy_seg_results(struct bench_cub_seg *c, const size_t *rows, size_t count,
                             void *dst) {
  const size_t rb = c->result_bytes;
  const size_t rs = gpureduce_result_size(c->type, c->op, c->flags);
  const int arg = c->op == GPUREDUCE_ARGMIN || c->op == GPUREDUCE_ARGMAX;
  unsigned char *staged = static_cast<unsigned char *>(std::malloc(count * rb + 1));
  if (!staged) {
    std::fprintf(stderr, "reduce-bench: out of host memory (CUB's results)\n");
    std::exit(1);
  }
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
    if (arg) {
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

extern "C" void bench_cub_seg_results(struct bench_cub_seg *c, const struct bench_matrix *m,
                                      const size_t *rows, size_t count, void *dst) {
  bench_cuda_poison(c->out, m->batch * c->result_bytes);
  bench_cub_seg_prepare(c, m);
  bench_cub_seg_run(c, m);
  copy_seg_results(c, rows, count, dst);
}

extern "C" void bench_cub_seg_destroy(struct bench_cub_seg *c) {
  if (!c) return;
  bench_cuda_free(c->temp);
  bench_cuda_free(c->out);
  std::free(c);
}

extern "C" int bench_cub_seg_supports_offsets(const struct bench_cub_seg *c,
                                              const struct bench_offsets *s, char *why,
                                              size_t why_bytes) {
  if (s->segments > c->max_batch) {
    std::snprintf(why, why_bytes, "internal error: %zu segments, room for %zu", s->segments,
                  c->max_batch);
    return 0;
  }
  if ((c->op == GPUREDUCE_ARGMIN || c->op == GPUREDUCE_ARGMAX) && s->end > (uint64_t)INT_MAX) {
    std::snprintf(why, why_bytes,
                  "n/a: CUB's segmented ArgMin/ArgMax index with int offsets, and the offsets "
                  "go beyond 2^31-1");
    return 0;
  }
  return 1;
}

extern "C" void bench_cub_seg_prepare_offsets(struct bench_cub_seg *c,
                                              const struct bench_offsets *s) {
  size_t bytes = 0;
  CHECK(seg_dispatch_offsets(c, nullptr, bytes, s), "CUB segmented temporary storage size query");
  if (bytes <= c->temp_bytes && c->temp) return;
  bench_cuda_free(c->temp);
  c->temp = bench_cuda_alloc(bytes, "CUB segmented temporary storage");
  c->temp_bytes = bytes;
}

extern "C" void bench_cub_seg_run_offsets(struct bench_cub_seg *c, const struct bench_offsets *s) {
  size_t bytes = c->temp_bytes;
  CHECK(seg_dispatch_offsets(c, c->temp, bytes, s), bench_cub_seg_name(c));
  CHECK_LAUNCH(bench_cub_seg_name(c));
}

extern "C" void bench_cub_seg_results_offsets(struct bench_cub_seg *c,
                                              const struct bench_offsets *s, const size_t *rows,
                                              size_t count, void *dst) {
  bench_cuda_poison(c->out, s->segments * c->result_bytes);
  bench_cub_seg_prepare_offsets(c, s);
  bench_cub_seg_run_offsets(c, s);
  copy_seg_results(c, rows, count, dst);
}

#else /* !HAVE_CUB */

extern "C" int bench_cub_built(void) { return 0; }

extern "C" int bench_cub_version(void) { return 0; }

struct bench_cub *cub_create(gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                             const size_t *ns, size_t count) {
  (void)type, (void)op, (void)flags, (void)ns, (void)count;
  return nullptr;
}

const char *cub_name(const struct bench_cub *c) {
  (void)c;
  return "cub (not built)";
}

void cub_run(struct bench_cub *c, const void *in, size_t n) { (void)c, (void)in, (void)n; }

extern "C" struct bench_cub_seg *bench_cub_seg_create(gpureduce_type_t type, gpureduce_op_t op,
                                                      unsigned flags, size_t max_batch) {
  (void)type, (void)op, (void)flags, (void)max_batch;
  return nullptr;
}

extern "C" const char *bench_cub_seg_name(const struct bench_cub_seg *c) {
  (void)c;
  return "cub (not built)";
}

extern "C" int bench_cub_seg_supports(const struct bench_cub_seg *c, const struct bench_matrix *m,
                                      char *why, size_t why_bytes) {
  (void)c, (void)m;
  std::snprintf(why, why_bytes, "not built (configure found no CUB)");
  return 0;
}

extern "C" void bench_cub_seg_prepare(struct bench_cub_seg *c, const struct bench_matrix *m) {
  (void)c, (void)m;
}

extern "C" void bench_cub_seg_run(struct bench_cub_seg *c, const struct bench_matrix *m) {
  (void)c, (void)m;
}

extern "C" void bench_cub_seg_results(struct bench_cub_seg *c, const struct bench_matrix *m,
                                      const size_t *rows, size_t count, void *dst) {
  (void)c, (void)m, (void)rows, (void)count, (void)dst;
}

extern "C" void bench_cub_seg_destroy(struct bench_cub_seg *c) { (void)c; }

extern "C" int bench_cub_seg_supports_offsets(const struct bench_cub_seg *c,
                                              const struct bench_offsets *s, char *why,
                                              size_t why_bytes) {
  (void)c, (void)s;
  std::snprintf(why, why_bytes, "not built (configure found no CUB)");
  return 0;
}

extern "C" void bench_cub_seg_prepare_offsets(struct bench_cub_seg *c,
                                              const struct bench_offsets *s) {
  (void)c, (void)s;
}

extern "C" void bench_cub_seg_run_offsets(struct bench_cub_seg *c, const struct bench_offsets *s) {
  (void)c, (void)s;
}

extern "C" void bench_cub_seg_results_offsets(struct bench_cub_seg *c,
                                              const struct bench_offsets *s, const size_t *rows,
                                              size_t count, void *dst) {
  (void)c, (void)s, (void)rows, (void)count, (void)dst;
}

#endif /* HAVE_CUB */

/* ---- cuBLAS's nrm2, in CUB's place ------------------------------------------ */

/* cuBLAS times the f32 and f64 nrm2 (the issue's side-by-side comparison):
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

extern "C" int bench_cublas_built(void) {
#ifdef HAVE_CUBLAS
  return 1;
#else
  return 0;
#endif
}

extern "C" int bench_cub_supports(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  return blas_nrm2(type, op, flags) || (bench_cub_built() && cub_has_op(op));
}

extern "C" struct bench_cub *bench_cub_create(gpureduce_type_t type, gpureduce_op_t op,
                                              unsigned flags, const size_t *ns, size_t count) {
  if (!blas_nrm2(type, op, flags)) return cub_create(type, op, flags, ns, count);
  bench_cub *c = comparison_new(type, op, flags, "cuBLAS");
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

extern "C" const char *bench_cub_name(const struct bench_cub *c) {
  if (!c->blas) return cub_name(c);
  return c->type == GPUREDUCE_F32 ? "cublasSnrm2_64" : "cublasDnrm2_64";
}

extern "C" void bench_cub_run(struct bench_cub *c, const void *in, size_t n) {
  if (!c->blas) {
    cub_run(c, in, n);
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
  const int arg = c->op == GPUREDUCE_ARGMIN || c->op == GPUREDUCE_ARGMAX;
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
