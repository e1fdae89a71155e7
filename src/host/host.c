/*
 * host/host.c - the host backend's gr_backend table (core/backend.h): the
 * calls over host arrays, each run by the functions of host/order.c on
 * one thread or on OpenMP's threads; the grouping never changes the bits
 * (each group is a subtree of the order's tile tree).
 */
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/backend.h"
#include "host/host.h"
#include "order/order.h"

#ifdef _OPENMP
#define GR_OMP_VECTORS \
  _Pragma("omp parallel for schedule(static) if (bytes >= GR_HOST_PARALLEL_BYTES)")
/* Segments vary in length: handed out 16 at a time.  (_Pragma takes one
 * string literal, so the line is long.) */
#define GR_OMP_SEGMENTS \
  _Pragma("omp parallel for schedule(dynamic, 16) reduction(min: bad) reduction(+: longs) if (bytes >= GR_HOST_PARALLEL_BYTES)")
#else
#define GR_OMP_VECTORS
#define GR_OMP_SEGMENTS
#endif

typedef gr_host_fn host_fn;

/* The function of (type, op, flags), or NULL with the handle's message
 * set. */
static host_fn host_lookup(struct gpureduce_handle *h, gpureduce_type_t type, gpureduce_op_t op,
                           unsigned flags) {
  const host_fn fn = gr_host_fn_for(type, op, flags);
  if (!fn)
    gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "no host reduction for %s %s",
            gpureduce_type_name(type), gpureduce_op_name(op));
  return fn;
}

static gpureduce_status_t host_create(struct gpureduce_handle *h, int device) {
  (void)device;
  h->workspace = malloc((size_t)GR_MAX_ROOTS * GR_ROOT_BYTES);
  if (!h->workspace)
    return gr_fail(h, GPUREDUCE_ERROR_OUT_OF_MEMORY, "cannot allocate %u bytes of host workspace",
                   GR_MAX_ROOTS * GR_ROOT_BYTES);
  h->workspace_bytes = (size_t)GR_MAX_ROOTS * GR_ROOT_BYTES;
  return GPUREDUCE_SUCCESS;
}

static gpureduce_status_t host_destroy(struct gpureduce_handle *h) {
  free(h->workspace);
  h->workspace = NULL;
  return GPUREDUCE_SUCCESS;
}

static gpureduce_status_t host_reduce(struct gpureduce_handle *h, const void *input,
                                      void *output, uint64_t n, gpureduce_type_t type,
                                      gpureduce_op_t op, unsigned flags) {
  const host_fn fn = host_lookup(h, type, op, flags);
  if (!fn) return GPUREDUCE_ERROR_UNSUPPORTED;
  fn(input, NULL, n, 1, output, h->workspace);
  return GPUREDUCE_SUCCESS;
}

/* a * b, or UINT64_MAX when it does not fit. */
static uint64_t mul_saturated(uint64_t a, uint64_t b) {
  return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/*
 * Many vectors (at least one per thread), or vectors too short for groups
 * to pay off: a parallel loop over the vectors (when the whole input is
 * worth a parallel region), each vector on one thread with no workspace.
 * A few long vectors: one after the other, each in parallel over its
 * groups as gpureduce_reduce() does.  Either way each result has the bits
 * of host_reduce() on its vector alone (GR_HOST_FN).  Vector b starts
 * b * batch_stride elements from input (and from input2, by
 * batch_stride2, for the dot product; NULL otherwise); the API layer
 * checked that these fit in int64_t; with n == 0 the inputs are never read
 * and may be NULL.
 */
static void run_batch(struct gpureduce_handle *h, host_fn fn, const void *input,
                      const void *input2, void *output, uint64_t batch, uint64_t n,
                      int64_t batch_stride, int64_t batch_stride2, int64_t element_stride,
                      size_t size, size_t rs) {
  const char *in = (const char *)input, *in2 = (const char *)input2;
  char *out = (char *)output;
  const int64_t step = n ? batch_stride * (int64_t)size : 0;
  const int64_t step2 = n && in2 ? batch_stride2 * (int64_t)size : 0;
  int over_vectors = 1;
#ifdef _OPENMP
  over_vectors = batch >= (uint64_t)omp_get_max_threads() ||
                 gr_tile_count(n, size) < GR_HOST_PARALLEL_TILES;
#endif
  if (over_vectors) {
    const uint64_t bytes = mul_saturated(mul_saturated(batch, n), size);
    (void)bytes; /* without OpenMP */
    GR_OMP_VECTORS
    for (int64_t b = 0; b < (int64_t)batch; ++b)
      fn(step ? in + b * step : in, step2 ? in2 + b * step2 : in2, n, element_stride,
         out + (size_t)b * rs, NULL);
  } else {
    for (uint64_t b = 0; b < batch; ++b)
      fn(step ? in + (int64_t)b * step : in, step2 ? in2 + (int64_t)b * step2 : in2, n,
         element_stride, out + b * rs, h->workspace);
  }
}

static gpureduce_status_t host_reduce_batched(struct gpureduce_handle *h, const void *input,
                                              void *output, uint64_t batch, uint64_t n,
                                              int64_t batch_stride, int64_t element_stride,
                                              gpureduce_type_t type, gpureduce_op_t op,
                                              unsigned flags) {
  const host_fn fn = host_lookup(h, type, op, flags);
  if (!fn) return GPUREDUCE_ERROR_UNSUPPORTED;
  run_batch(h, fn, input, NULL, output, batch, n, batch_stride, 0, element_stride,
            gpureduce_type_size(type), gpureduce_result_size(type, op, flags));
  return GPUREDUCE_SUCCESS;
}

static gpureduce_status_t host_dot(struct gpureduce_handle *h, const void *x, const void *y,
                                   void *output, uint64_t batch, uint64_t n,
                                   int64_t x_batch_stride, int64_t y_batch_stride,
                                   gpureduce_type_t type, unsigned flags) {
  const host_fn fn = gr_host_dot_fn_for(type, flags);
  run_batch(h, fn, x, y, output, batch, n, x_batch_stride, y_batch_stride, 1,
            gpureduce_type_size(type), gpureduce_result_size(type, GPUREDUCE_SUM, flags));
  return GPUREDUCE_SUCCESS;
}

/*
 * Segments.  A valid segment s is the contiguous vector of offsets[s+1] -
 * offsets[s] elements from input + offsets[s], reduced by its GR_HOST_FN
 * with stride 1, so its result has the bits of host_reduce() on it
 * alone.  An invalid segment, like an empty one, goes through the same
 * function with n == 0, which reads nothing and writes the empty result
 * (for ARGMIN and ARGMAX the identity's index, UINT64_MAX).  Only
 * offsets[0] and offsets[segments] bound what is read: a valid segment
 * lies inside [offsets[0], offsets[segments]).
 *
 * The threads: segments shorter than GR_HOST_PARALLEL_TILES tiles share
 * one parallel loop over the segments (each on one thread with no
 * workspace), when the whole call (its elements and a chunk's worth per
 * segment) is worth a parallel region; the longer ones, which the loop
 * skips, then run one after the other, each in parallel over its groups
 * with the workspace, as gpureduce_reduce() does.  So one huge segment
 * among many tiny ones does not leave one thread with all the work.
 * Without OpenMP every segment goes through the first loop.  The grouping
 * changes no bit (GR_HOST_FN).
 */
static gpureduce_status_t host_reduce_segments(struct gpureduce_handle *h, const void *input,
                                               void *output, const uint64_t *offsets,
                                               uint64_t segments, gpureduce_type_t type,
                                               gpureduce_op_t op, unsigned flags) {
  const host_fn fn = host_lookup(h, type, op, flags);
  if (!fn) return GPUREDUCE_ERROR_UNSUPPORTED;
  const size_t size = gpureduce_type_size(type), rs = gpureduce_result_size(type, op, flags);
  const char *in = (const char *)input;
  char *out = (char *)output;
  const uint64_t lo = offsets[0], hi = offsets[segments];
  uint64_t long_tiles = UINT64_MAX; /* segments of this many tiles run alone */
#ifdef _OPENMP
  long_tiles = GR_HOST_PARALLEL_TILES;
#endif
  const uint64_t elem_bytes = mul_saturated(hi > lo ? hi - lo : 0, size);
  const uint64_t seg_bytes = mul_saturated(segments, GR_CHUNK_BYTES);
  const uint64_t bytes =
      elem_bytes > UINT64_MAX - seg_bytes ? UINT64_MAX : elem_bytes + seg_bytes;
  (void)bytes; /* without OpenMP */
  uint64_t bad = UINT64_MAX, longs = 0;
  GR_OMP_SEGMENTS
  for (uint64_t s = 0; s < segments; ++s) {
    const uint64_t a = offsets[s], b = offsets[s + 1];
    char *const o = out + s * rs;
    if (!(lo <= a && a <= b && b <= hi)) {
      if (s < bad) bad = s;
      fn(in, NULL, 0, 1, o, NULL);
    } else if (gr_tile_count(b - a, size) >= long_tiles) {
      ++longs;
    } else {
      fn(a == b ? in : in + a * size, NULL, b - a, 1, o, NULL); /* no pointer past the array */
    }
  }
  for (uint64_t s = 0; longs > 0 && s < segments; ++s) {
    const uint64_t a = offsets[s], b = offsets[s + 1];
    if (lo <= a && a <= b && b <= hi && gr_tile_count(b - a, size) >= long_tiles) {
      fn(in + a * size, NULL, b - a, 1, out + s * rs, h->workspace);
      --longs;
    }
  }
  if (bad < h->async_bad_segment) h->async_bad_segment = bad;
  return GPUREDUCE_SUCCESS;
}

/* ---- the rest of the backend interface ------------------------------------ */

static gpureduce_status_t host_check_pointer(struct gpureduce_handle *h, const void *p,
                                             const char *what) {
  if (gr_cuda_backend.owns_pointer(p))
    return gr_fail(h, GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
                   "%s (%p) is CUDA device memory; the host handle needs host memory "
                   "(or create the handle for that device)",
                   what, p);
  return GPUREDUCE_SUCCESS;
}

/* No memory is the host's alone: the CUDA backend reads host memory it
 * can map (managed memory) and refuses the rest itself. */
static int host_owns_pointer(const void *p) {
  (void)p;
  return 0;
}

/* The host's calls are synchronous: the sticky error is up to date. */
static gpureduce_status_t host_take_async_error(struct gpureduce_handle *h,
                                                uint64_t *bad_segment) {
  *bad_segment = h->async_bad_segment;
  h->async_bad_segment = UINT64_MAX;
  return GPUREDUCE_SUCCESS;
}

static gpureduce_status_t host_reduce_nodes(struct gpureduce_handle *h, const void *input,
                                            const uint64_t (*nodes)[2], unsigned count,
                                            gpureduce_type_t type, gpureduce_op_t op,
                                            unsigned flags, void *roots,
                                            const struct gr_span *spans, unsigned nspans) {
  const struct gr_host_acc_ops *ops = gr_host_acc_ops_for(type, op, flags);
  if (count && !ops)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "no host reduction for %s %s",
                   gpureduce_type_name(type), gpureduce_op_name(op));
  const unsigned char *in = (const unsigned char *)input;
  const size_t es = gpureduce_type_size(type);
  for (unsigned k = 0; k < count; ++k)
    ops->reduce(in + nodes[k][0] * es, nodes[k][1],
                (unsigned char *)roots + (size_t)k * GR_ROOT_BYTES, h->workspace);
  for (unsigned j = 0; j < nspans; ++j)
    if (spans[j].bytes) memcpy(spans[j].dst, spans[j].src, spans[j].bytes);
  return GPUREDUCE_SUCCESS;
}

static gpureduce_status_t host_write(struct gpureduce_handle *h, void *dst, const void *src,
                                     size_t bytes) {
  (void)h;
  memcpy(dst, src, bytes);
  return GPUREDUCE_SUCCESS;
}

static gpureduce_status_t host_ladder(struct gpureduce_handle *h, gpureduce_ladder_rung_t rung,
                                      const float *input, float *output, uint64_t n,
                                      void *workspace, size_t workspace_bytes,
                                      unsigned *launches) {
  (void)rung, (void)input, (void)output, (void)n, (void)workspace, (void)workspace_bytes,
      (void)launches;
  return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED,
                 "the ladder runs on CUDA devices only, not on the host handle");
}

static gpureduce_status_t host_tune_measure(struct gpureduce_handle *h, gpureduce_type_t type,
                                            gpureduce_op_t op, unsigned flags, size_t max_n,
                                            gpureduce_tune_row_t *rows, size_t max_rows,
                                            size_t *count, unsigned *chosen) {
  (void)type, (void)op, (void)flags, (void)max_n, (void)rows, (void)max_rows, (void)chosen;
  *count = 0;
  return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "block counts are for CUDA handles only");
}

const struct gr_backend gr_host_backend = {
    .create = host_create,
    .destroy = host_destroy,
    .check_pointer = host_check_pointer,
    .owns_pointer = host_owns_pointer,
    .reduce = host_reduce,
    .reduce_batched = host_reduce_batched,
    .reduce_segments = host_reduce_segments,
    .dot = host_dot,
    .take_async_error = host_take_async_error,
    .reduce_nodes = host_reduce_nodes,
    .write = host_write,
    .ladder = host_ladder,
    .tune_measure = host_tune_measure,
};
