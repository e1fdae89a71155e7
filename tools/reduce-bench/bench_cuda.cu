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

#include "bench_cuda.h"

/* ---- errors ------------------------------------------------------------ */

extern "C" void bench_cuda_check(int status, const char *what, const char *file, int line) {
  const cudaError_t err = static_cast<cudaError_t>(status);
  if (err == cudaSuccess) return;
  std::fprintf(stderr, "reduce-bench: CUDA error in %s: %s (%s) [%s:%d]\n", what,
               cudaGetErrorString(err), cudaGetErrorName(err), file, line);
  std::exit(1);
}

#define CHECK(call, what) bench_cuda_check((call), (what), __FILE__, __LINE__)
/* After a launch: the launch error, if any. */
#define CHECK_LAUNCH(what) bench_cuda_check(cudaGetLastError(), (what), __FILE__, __LINE__)

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
  size_t total = 0;
  CHECK(cudaMemGetInfo(&info->free_bytes, &total), "cudaMemGetInfo");
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

/* ---- strided copies ---------------------------------------------------- */

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
