/*
 * tune.c - block counts: the model, the autotuner, and the tuning cache.
 *
 * The block count never changes a result (doc/ORDER.md); it changes the
 * speed.  A CUDA handle starts from the model
 *     blocks = min(groups of tiles, SMs x resident blocks of the kernel)
 * and uses a tuned count for a size bucket when it has one: from the cache
 * file loaded at creation, from gpureduce_autotune(), or set by hand.
 *
 * The cache file's format is in tune_cache.c; this file reads and writes
 * it (atomically: a temporary file, then rename).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "internal.h"

/* ---- buckets and the model ----------------------------------------------- */

unsigned gr_bucket(uint64_t tiles) {
  unsigned b = 0;
  while (b + 1 < GR_BUCKETS && ((uint64_t)1 << b) < tiles) ++b;
  return b;
}

static int f64_index(unsigned flags) { return (flags & GPUREDUCE_ACCUMULATE_F64) != 0; }

static unsigned model_grid(const struct gpureduce_handle *h, gpureduce_type_t type,
                           gpureduce_op_t op, unsigned flags, uint64_t groups) {
  const uint64_t fill =
      (uint64_t)h->sm_count * h->tune->resident[type][op][f64_index(flags)];
  const uint64_t g = groups < fill ? groups : fill;
  return g ? (unsigned)g : 1u;
}

unsigned gr_tune_grid(const struct gpureduce_handle *h, gpureduce_type_t type,
                      gpureduce_op_t op, unsigned flags, const struct gr_plan *plan) {
  const unsigned tuned =
      h->tune->blocks[type][op][f64_index(flags)][gr_bucket(plan->tiles)];
  return tuned ? tuned : model_grid(h, type, op, flags, plan->groups);
}

/* ---- creation ---------------------------------------------------------------- */

static gpureduce_status_t cuda_status(struct gpureduce_handle *h, cudaError_t err,
                                      const char *what) {
  cudaGetLastError();
  if (err == cudaErrorMemoryAllocation)
    return gr_fail(h, GPUREDUCE_ERROR_OUT_OF_MEMORY, "%s: %s", what, cudaGetErrorString(err));
  return gr_fail(h, GPUREDUCE_ERROR_CUDA, "%s failed: %s", what, cudaGetErrorString(err));
}

gpureduce_status_t gr_tune_init(struct gpureduce_handle *h) {
  struct gr_tune *t = calloc(1, sizeof *t);
  if (!t) return gr_fail(h, GPUREDUCE_ERROR_OUT_OF_MEMORY, "cannot allocate the tuning table");
  h->tune = t;
  struct cudaDeviceProp prop;
  cudaError_t err = cudaGetDeviceProperties(&prop, h->device);
  if (err == cudaSuccess) err = cudaDriverGetVersion(&t->key.driver);
  if (err != cudaSuccess) return cuda_status(h, err, "reading the device properties");
  snprintf(t->key.name, sizeof t->key.name, "%s", prop.name);
  for (char *c = t->key.name; *c; ++c)
    if (*c == '\n' || *c == '\r') *c = ' ';
  for (int i = 0; i < 16; ++i)
    snprintf(t->key.uuid + 2 * i, 3, "%02x", (unsigned char)prop.uuid.bytes[i]);
  t->key.cc_major = prop.major;
  t->key.cc_minor = prop.minor;
  t->key.sms = prop.multiProcessorCount;
  t->max_grid_dim = prop.maxGridSize[0] > 0 ? (unsigned)prop.maxGridSize[0] : 1u;

  /* Resident blocks of every kernel: the model's unit, and a check that
   * each kernel was built for this device and takes GR_LANES threads. */
  for (int type = 0; type < GPUREDUCE_TYPE_COUNT; ++type)
    for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op)
      for (int f = 0; f < 2; ++f) {
        const void *k = gr_kernel_for((gpureduce_type_t)type, (gpureduce_op_t)op,
                                      f ? GPUREDUCE_ACCUMULATE_F64 : 0);
        if (!k) continue;
        struct cudaFuncAttributes attr;
        int per_sm = 0;
        err = cudaFuncGetAttributes(&attr, k);
        if (err == cudaSuccess && attr.maxThreadsPerBlock < GR_LANES)
          return gr_fail(h, GPUREDUCE_ERROR_CUDA,
                         "the %s %s kernel allows %d threads per block, it needs %d",
                         gpureduce_type_name((gpureduce_type_t)type),
                         gpureduce_op_name((gpureduce_op_t)op), attr.maxThreadsPerBlock, GR_LANES);
        if (err == cudaSuccess)
          err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, GR_LANES, 0);
        if (err != cudaSuccess)
          return cuda_status(h, err, "querying the kernels (was the library built for this "
                                     "GPU's architecture? see configure --with-cuda-arch)");
        t->resident[type][op][f] = per_sm > 0 ? (unsigned)per_sm : 1u;
      }
  if (!gr_tune_cache_path(t->key.uuid, t->path, sizeof t->path)) t->path[0] = '\0';
  t->state = gr_tune_disabled() ? GPUREDUCE_TUNE_CACHE_DISABLED
             : t->path[0]        ? gr_tune_file_read(t->path, &t->key, &t->blocks)
                                 : GPUREDUCE_TUNE_CACHE_ABSENT;
  return GPUREDUCE_SUCCESS;
}

/* ---- the public tuning calls ------------------------------------------------ */

static gpureduce_status_t check_tunable(gpureduce_handle_t h, gpureduce_type_t type,
                                        gpureduce_op_t op, unsigned flags) {
  h->message[0] = '\0';
  if (h->device == GPUREDUCE_DEVICE_HOST)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "block counts are for CUDA handles only");
  if (gpureduce_result_size(type, op, flags) == 0)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "no reduction for type %d, op %d, flags 0x%x",
                   (int)type, (int)op, flags);
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_get_blocks(gpureduce_handle_t h, gpureduce_type_t type,
                                        gpureduce_op_t op, unsigned flags, size_t n,
                                        unsigned *blocks, int *tuned) {
  if (!h) return GPUREDUCE_ERROR_INVALID_HANDLE;
  gpureduce_status_t s = check_tunable(h, type, op, flags);
  if (s != GPUREDUCE_SUCCESS) return s;
  if (!blocks) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "blocks is NULL");
  struct gr_plan plan;
  gr_plan_make(n, gpureduce_type_size(type), 1, &plan);
  const unsigned set = h->tune->blocks[type][op][f64_index(flags)][gr_bucket(plan.tiles)];
  *blocks = gr_tune_grid(h, type, op, flags, &plan);
  if (tuned) *tuned = set != 0;
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_set_blocks(gpureduce_handle_t h, gpureduce_type_t type,
                                        gpureduce_op_t op, unsigned flags, size_t n,
                                        unsigned blocks) {
  if (!h) return GPUREDUCE_ERROR_INVALID_HANDLE;
  gpureduce_status_t s = check_tunable(h, type, op, flags);
  if (s != GPUREDUCE_SUCCESS) return s;
  if (blocks > h->tune->max_grid_dim)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "%u blocks: the device launches at most %u", blocks, h->tune->max_grid_dim);
  h->tune->blocks[type][op][f64_index(flags)][gr_bucket(gr_tile_count(n, gpureduce_type_size(type)))] =
      blocks;
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_tune_cache_state(gpureduce_handle_t h, gpureduce_tune_cache_t *state,
                                              const char **path) {
  if (!h) return GPUREDUCE_ERROR_INVALID_HANDLE;
  h->message[0] = '\0';
  if (!state) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "state is NULL");
  *state = h->tune ? h->tune->state : GPUREDUCE_TUNE_CACHE_ABSENT;
  if (path) *path = h->tune && h->tune->path[0] ? h->tune->path : NULL;
  return GPUREDUCE_SUCCESS;
}

/* ---- the autotuner ----------------------------------------------------------- */

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

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int k) {
  qsort(v, (size_t)k, sizeof *v, cmp_double);
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

/* One timed batch of `batch` calls with `grid` blocks: microseconds per call. */
static gpureduce_status_t time_batch(struct timer *tm, uint64_t n, unsigned grid, int batch,
                                     double *us) {
  cudaStream_t stream = (cudaStream_t)tm->h->stream;
  cudaError_t err = cudaEventRecord(tm->start, stream);
  for (int i = 0; i < batch && err == cudaSuccess; ++i) {
    gpureduce_status_t s =
        gr_cuda_launch(tm->h, tm->input, tm->output, n, tm->type, tm->op, tm->flags, grid);
    if (s != GPUREDUCE_SUCCESS) return s;
  }
  if (err == cudaSuccess) err = cudaEventRecord(tm->stop, stream);
  if (err == cudaSuccess) err = cudaEventSynchronize(tm->stop);
  float ms = 0.0f;
  if (err == cudaSuccess) err = cudaEventElapsedTime(&ms, tm->start, tm->stop);
  if (err != cudaSuccess) return cuda_status(tm->h, err, "timing a candidate");
  *us = 1000.0 * ms / batch;
  return GPUREDUCE_SUCCESS;
}

struct candidate {
  unsigned grid;
  int count;
  double us[2 * GR_TUNE_REPS];
  double med;
};

static int add_candidate(struct candidate *c, int k, unsigned grid, unsigned limit) {
  if (grid == 0 || grid > limit || k >= GR_TUNE_MAX_CANDIDATES) return k;
  for (int i = 0; i < k; ++i)
    if (c[i].grid == grid) return k;
  memset(&c[k], 0, sizeof c[k]);
  c[k].grid = grid;
  return k + 1;
}

static gpureduce_status_t measure(struct timer *tm, uint64_t n, struct candidate *c, int batch,
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

static int by_median(const void *a, const void *b) {
  return cmp_double(&((const struct candidate *)a)->med, &((const struct candidate *)b)->med);
}

/* Tune one bucket at n elements; fills row. */
static gpureduce_status_t tune_bucket(struct timer *tm, uint64_t n, gpureduce_tune_row_t *row,
                                      unsigned *chosen) {
  struct gpureduce_handle *h = tm->h;
  struct gr_plan plan;
  gr_plan_make(n, gpureduce_type_size(tm->type), 1, &plan);
  const unsigned model = model_grid(h, tm->type, tm->op, tm->flags, plan.groups);
  const unsigned resident = h->tune->resident[tm->type][tm->op][f64_index(tm->flags)];
  const unsigned limit = h->tune->max_grid_dim;
  struct candidate c[GR_TUNE_MAX_CANDIDATES];
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

gpureduce_status_t gpureduce_autotune(gpureduce_handle_t h, gpureduce_type_t type,
                                      gpureduce_op_t op, unsigned flags, size_t max_n,
                                      gpureduce_tune_row_t *rows, size_t max_rows,
                                      size_t *row_count) {
  if (!h) return GPUREDUCE_ERROR_INVALID_HANDLE;
  gpureduce_status_t s = check_tunable(h, type, op, flags);
  if (s != GPUREDUCE_SUCCESS) return s;
  if (!rows && max_rows > 0) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "rows is NULL");

  int previous = -1;
  cudaError_t err = cudaGetDevice(&previous);
  if (err == cudaSuccess && previous != h->device) err = cudaSetDevice(h->device);
  if (err != cudaSuccess) return cuda_status(h, err, "cudaSetDevice");

  const size_t elem = gpureduce_type_size(type);
  size_t free_bytes = 0, total = 0;
  err = cudaMemGetInfo(&free_bytes, &total);
  uint64_t bytes = free_bytes / 4;
  if (bytes > ((uint64_t)1 << 32)) bytes = (uint64_t)1 << 32;
  if (max_n && (uint64_t)max_n * elem < bytes) bytes = (uint64_t)max_n * elem;
  const uint64_t n_max = bytes / elem;
  struct timer tm = {h, NULL, NULL, NULL, NULL, type, op, flags};
  void *input = NULL, *output = NULL;
  if (err == cudaSuccess && n_max == 0) err = cudaErrorMemoryAllocation;
  if (err == cudaSuccess) err = cudaMalloc(&input, (size_t)bytes);
  if (err == cudaSuccess) err = cudaMalloc(&output, 16);
  /* not zeros: 0x3c bytes are small finite values in every float type */
  if (err == cudaSuccess) err = cudaMemset(input, 0x3c, (size_t)bytes);
  if (err == cudaSuccess) err = cudaEventCreate(&tm.start);
  if (err == cudaSuccess) err = cudaEventCreate(&tm.stop);
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  s = err == cudaSuccess ? GPUREDUCE_SUCCESS : cuda_status(h, err, "preparing the tuning buffer");
  tm.input = input;
  tm.output = output;

  const uint64_t tile_elems = (uint64_t)GR_TILE_CHUNKS * (GR_CHUNK_BYTES / elem);
  size_t count = 0;
  unsigned chosen[GR_BUCKETS] = {0};
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
  if (previous >= 0 && previous != h->device) cudaSetDevice(previous);
  if (row_count) *row_count = count;
  if (s != GPUREDUCE_SUCCESS) return s;

  for (size_t b = 0; b < count; ++b) h->tune->blocks[type][op][f64_index(flags)][b] = chosen[b];
  if (gr_tune_disabled()) return GPUREDUCE_SUCCESS;
  if (!h->tune->path[0])
    return gr_fail(h, GPUREDUCE_ERROR_TUNE_CACHE,
                   "no cache directory: set GPUREDUCE_TUNE_CACHE, XDG_CACHE_HOME or HOME");
  char why[200];
  if (!gr_tune_file_write(h->tune->path, &h->tune->key, &h->tune->blocks, why, sizeof why))
    return gr_fail(h, GPUREDUCE_ERROR_TUNE_CACHE, "cannot write %s: %s", h->tune->path, why);
  return GPUREDUCE_SUCCESS;
}
