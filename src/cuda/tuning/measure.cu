/*
 * cuda/tuning/measure.cu - the autotuner's measuring: time candidate block
 * counts of (type, op, flags) in every size bucket with CUDA events and
 * choose one per bucket.  The public call, the model and the cache are
 * CUDA-free (tune/tune.c, tune/model.c, tune/cache.c); this file is the
 * only part of tuning that touches the device.
 *
 * Per bucket: the model's count, SMs x r for r up to the kernel's
 * resident blocks, and (for small plans) the group count and its halves
 * and quarters are each timed (median of GR_TUNE_REPS batches); the model
 * and the best GR_TUNE_RETEST others are timed again, and a candidate
 * replaces the model only when faster by more than the noise (half the
 * interquartile range of the model's repeats).
 */
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#include "cuda/cuda.h"
#include "cuda/device/device.cuh"
#include "order/order.h"
#include "tune/tune.h"

/* A named namespace, not an anonymous one: cudafe++ names anonymous
 * namespaces after a hash of the .cu file's absolute path, so two builds
 * of the same tarball in different directories would differ.  Hidden
 * like everything else (-fvisibility=hidden, src/libgpureduce.map). */
namespace gr::tune_impl {

#define GR_TUNE_REPS 5          /* timed batches per candidate, first round */
#define GR_TUNE_RETEST 3        /* candidates timed again besides the model */
#define GR_TUNE_BATCH_US 100.0  /* aim of one timed batch */
#define GR_TUNE_MAX_CANDIDATES 12

struct timer {
  struct gpureduce_handle *h;
  cudaEvent_t start, stop;
  const void *input;
  void *output;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
};

int cmp_double(const void *a, const void *b) {
  const double x = *static_cast<const double *>(a), y = *static_cast<const double *>(b);
  return (x > y) - (x < y);
}

double median(double *v, int k) {
  qsort(v, (size_t)k, sizeof *v, cmp_double);
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

/* One timed batch of `batch` calls with `grid` blocks: microseconds per call. */
gpureduce_status_t time_batch(timer *tm, uint64_t n, unsigned grid, int batch,
                                     double *us) {
  cudaStream_t stream = static_cast<cudaStream_t>(tm->h->stream);
  cudaError_t err = cudaEventRecord(tm->start, stream);
  for (int i = 0; i < batch && err == cudaSuccess; ++i) {
    gpureduce_status_t s =
        gr_cuda_reduce(tm->h, tm->input, tm->output, n, tm->type, tm->op, tm->flags, grid);
    if (s != GPUREDUCE_SUCCESS) return s;
  }
  if (err == cudaSuccess) err = cudaEventRecord(tm->stop, stream);
  if (err == cudaSuccess) err = cudaEventSynchronize(tm->stop);
  float ms = 0.0f;
  if (err == cudaSuccess) err = cudaEventElapsedTime(&ms, tm->start, tm->stop);
  if (err != cudaSuccess) return gr::cuda_fail(tm->h, err, "timing a candidate");
  *us = 1000.0 * ms / batch;
  return GPUREDUCE_SUCCESS;
}

struct candidate {
  unsigned grid;
  int count;
  double us[2 * GR_TUNE_REPS];
  double med;
};

int add_candidate(candidate *c, int k, unsigned grid, unsigned limit) {
  if (grid == 0 || grid > limit || k >= GR_TUNE_MAX_CANDIDATES) return k;
  for (int i = 0; i < k; ++i)
    if (c[i].grid == grid) return k;
  memset(&c[k], 0, sizeof c[k]);
  c[k].grid = grid;
  return k + 1;
}

gpureduce_status_t measure(timer *tm, uint64_t n, candidate *c, int batch,
                                  int reps) {
  for (int r = 0; r < reps; ++r) {
    double us;
    gpureduce_status_t s = time_batch(tm, n, c->grid, batch, &us);
    if (s != GPUREDUCE_SUCCESS) return s;
    c->us[c->count++] = us;
  }
  double tmp[2 * GR_TUNE_REPS];
  memcpy(tmp, c->us, sizeof(double) * (size_t)c->count);
  c->med = median(tmp, c->count);
  return GPUREDUCE_SUCCESS;
}

int by_median(const void *a, const void *b) {
  return cmp_double(&static_cast<const candidate *>(a)->med, &static_cast<const candidate *>(b)->med);
}

/* Tune one bucket at n elements; fills row. */
gpureduce_status_t tune_bucket(timer *tm, uint64_t n, gpureduce_tune_row_t *row,
                                      unsigned *chosen) {
  gpureduce_handle *h = tm->h;
  gr_plan plan;
  gr_plan_make(n, gpureduce_type_size(tm->type), 1, &plan);
  const unsigned model = gr_tune_model_grid(h, tm->type, tm->op, tm->flags, &plan);
  const unsigned resident = h->tune->resident[tm->type][tm->op][gr_tune_f64_index(tm->flags)];
  const unsigned limit = h->tune->max_grid_dim;
  candidate c[GR_TUNE_MAX_CANDIDATES];
  int k = add_candidate(c, 0, model, limit);
  for (unsigned r = 1; r <= resident; ++r)
    if ((uint64_t)h->sm_count * r <= plan.groups)
      k = add_candidate(c, k, (unsigned)h->sm_count * r, limit);
  if (plan.groups <= (uint64_t)h->sm_count * resident) {
    k = add_candidate(c, k, (unsigned)plan.groups, limit);
    k = add_candidate(c, k, (unsigned)((plan.groups + 1) / 2), limit);
    k = add_candidate(c, k, (unsigned)((plan.groups + 3) / 4), limit);
  }
  /* warm up, and size the batch from one call */
  double first = 0.0;
  gpureduce_status_t s = time_batch(tm, n, model, 2, &first);
  if (s == GPUREDUCE_SUCCESS) s = time_batch(tm, n, model, 1, &first);
  if (s != GPUREDUCE_SUCCESS) return s;
  int batch = first > 0.0 ? (int)(GR_TUNE_BATCH_US / first) : 20;
  batch = batch < 1 ? 1 : batch > 20 ? 20 : batch;

  for (int i = 0; i < k; ++i)
    if ((s = measure(tm, n, &c[i], batch, GR_TUNE_REPS)) != GPUREDUCE_SUCCESS) return s;
  /* c[0] is the model; time it and the best few others again */
  qsort(c + 1, (size_t)(k - 1), sizeof c[0], by_median);
  for (int i = 0; i <= GR_TUNE_RETEST && i < k; ++i)
    if ((s = measure(tm, n, &c[i], batch, GR_TUNE_REPS)) != GPUREDUCE_SUCCESS) return s;
  /* noise: half the interquartile range of the model's repeats */
  double sorted[2 * GR_TUNE_REPS];
  memcpy(sorted, c[0].us, sizeof(double) * (size_t)c[0].count);
  qsort(sorted, (size_t)c[0].count, sizeof(double), cmp_double);
  const double noise = 0.5 * (sorted[(3 * c[0].count) / 4] - sorted[c[0].count / 4]);
  int best = 0;
  for (int i = 1; i <= GR_TUNE_RETEST && i < k; ++i)
    if (c[i].count == 2 * GR_TUNE_REPS && c[i].med < c[best].med) best = i;
  if (best != 0 && c[0].med - c[best].med <= noise) best = 0;

  row->n = (size_t)n;
  row->default_blocks = model;
  row->default_us = c[0].med;
  row->tuned_blocks = c[best].grid;
  row->tuned_us = c[best].med;
  row->noise_us = noise;
  *chosen = c[best].grid;
  return GPUREDUCE_SUCCESS;
}

} /* namespace gr::tune_impl */

using namespace gr::tune_impl;

extern "C" gpureduce_status_t gr_cuda_tune_measure(gpureduce_handle *h, gpureduce_type_t type,
                                                   gpureduce_op_t op, unsigned flags,
                                                   size_t max_n, gpureduce_tune_row_t *rows,
                                                   size_t max_rows, size_t *row_count,
                                                   unsigned chosen[GR_BUCKETS]) {
  *row_count = 0;
  gr::DeviceGuard guard(h->device);
  if (guard.status() != cudaSuccess) return gr::cuda_fail(h, guard.status(), "cudaSetDevice");

  const size_t elem = gpureduce_type_size(type);
  size_t free_bytes = 0, total = 0;
  cudaError_t err = cudaMemGetInfo(&free_bytes, &total);
  uint64_t bytes = free_bytes / 4;
  if (bytes > ((uint64_t)1 << 32)) bytes = (uint64_t)1 << 32;
  if (max_n && (uint64_t)max_n * elem < bytes) bytes = (uint64_t)max_n * elem;
  const uint64_t n_max = bytes / elem;
  timer tm = {h, nullptr, nullptr, nullptr, nullptr, type, op, flags};
  void *input = nullptr, *output = nullptr;
  if (err == cudaSuccess && n_max == 0) err = cudaErrorMemoryAllocation;
  if (err == cudaSuccess) err = cudaMalloc(&input, (size_t)bytes);
  if (err == cudaSuccess) err = cudaMalloc(&output, 16);
  /* not zeros: 0x3c bytes are small finite values in every float type */
  if (err == cudaSuccess) err = cudaMemset(input, 0x3c, (size_t)bytes);
  if (err == cudaSuccess) err = cudaEventCreate(&tm.start);
  if (err == cudaSuccess) err = cudaEventCreate(&tm.stop);
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  gpureduce_status_t s =
      err == cudaSuccess ? GPUREDUCE_SUCCESS : gr::cuda_fail(h, err, "preparing the tuning buffer");
  tm.input = input;
  tm.output = output;

  const uint64_t tile_elems = (uint64_t)GR_TILE_CHUNKS * (GR_CHUNK_BYTES / elem);
  size_t count = 0;
  for (unsigned b = 0; s == GPUREDUCE_SUCCESS && b < GR_BUCKETS; ++b) {
    const uint64_t top = ((uint64_t)1 << b) * tile_elems; /* largest n of bucket b */
    const uint64_t n = top < n_max ? top : n_max;
    if (b > 0 && n <= (((uint64_t)1 << (b - 1)) * tile_elems)) break; /* bucket not reached */
    gpureduce_tune_row_t row;
    s = tune_bucket(&tm, n, &row, &chosen[b]);
    if (s == GPUREDUCE_SUCCESS && count < max_rows) rows[count] = row;
    if (s == GPUREDUCE_SUCCESS) ++count;
  }
  if (tm.start) cudaEventDestroy(tm.start);
  if (tm.stop) cudaEventDestroy(tm.stop);
  cudaFree(input);
  cudaFree(output);
  *row_count = count;
  return s;
}
