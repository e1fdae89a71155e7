/*
 * vectors.h - what the batched and segmented modes share: the vectors of
 * one shape (the rows or the columns of a matrix, or the segments of CSR
 * offsets), timed three ways (gpureduce, CUB's DeviceSegmentedReduce and
 * the probe) and checked against gpureduce_reduce of each vector alone,
 * and the table columns of that.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * Time: the median of --repeat batches of BATCH_CALLS calls after the
 * warm-ups, with fewer calls per batch (at least 1) where a batch would
 * take over MAX_BATCH_MS.  Checks: every vector when there are at most
 * CHECK_ALL_MAX; beyond, the first SAMPLE_EDGE, the last SAMPLE_EDGE and
 * SAMPLE_SPREAD spread evenly between (number SAMPLE_EDGE + floor(k (count
 * - 2 SAMPLE_EDGE) / SAMPLE_SPREAD)), and of segments the longest.
 * gpureduce's results must have the bits of gpureduce_reduce of the
 * vector alone (an empty segment's ARGMIN and ARGMAX: GPUREDUCE_NO_INDEX,
 * MEAN_VAR: two NaNs); CUB's must be within check_close of them (empty
 * segments left out).
 */
#ifndef REDUCE_BENCH_VECTORS_H
#define REDUCE_BENCH_VECTORS_H

#include <stddef.h>
#include <stdint.h>

#include "gpureduce.h"

#include "bench_cub.h"
#include "report.h"
#include "timing.h"

struct run;

#define CHECK_ALL_MAX 65536
#define SAMPLE_EDGE 1024
#define SAMPLE_SPREAD 2048

struct vectors {
  struct bench_segments s;  /* the input and the shape, in backend memory */
  const uint64_t *host_off; /* segments: the offsets in host memory */
  size_t longest;           /* segments: the longest one */
  const char *what;         /* the shape, for the messages */
};

/* What one shape measured. */
struct vector_point {
  gpureduce_status_t status; /* of gpureduce's first call */
  double gr_ms, cub_ms, probe_ms; /* 0: not run */
  double probe_bytes;
  unsigned probe_grid;
  int cub_na; /* CUB could not (a note says why) */
  char check[64];
};

/* What a mode keeps for all its shapes. */
struct vectors_ctx {
  struct run *run;
  struct timing tm;
  size_t es, rs;             /* element and result bytes */
  void *out;                 /* gpureduce's results: the mode's, room for every vector */
  struct bench_cub_seg *cub; /* the mode's; NULL: no CUB */
  struct bench_probe *probe; /* CUDA */
  int cub_ran, slow;         /* a shape had CUB; fewer calls per batch */
  /* the checks */
  void *ref_out;  /* backend memory: gpureduce_reduce of each checked vector */
  void *scratch;  /* backend memory: one column, contiguous */
  size_t *rows;   /* the checked vectors, ascending */
  unsigned char *want, *got, *cub_got; /* host memory */
};

/* For shapes of columns of at most `column` elements. */
void vectors_open(struct vectors_ctx *c, struct run *run, size_t column);
void vectors_close(struct vectors_ctx *c);

/* Time one shape and check its results (unless --no-check); a failing
 * first call of gpureduce is reported, counted wrong, and the other
 * columns still run.  check: "ok", "ok (4096)" (the sample), "WRONG:3/4096",
 * "FAILED:STATUS", "WRONG:cub:1/4096", or without checks "-" (or
 * "FAILED"). */
void measure_vectors(struct vectors_ctx *c, const struct vectors *v, struct vector_point *p);

/* The columns of every shape, after the mode's own. */
enum {
  VC_MB,
  VC_BYTES,
  VC_PROBE_BYTES,
  VC_L2_TEXT,
  VC_L2,
  VC_GR_US,
  VC_GR_GBS,
  VC_CUB_US,
  VC_CUB_GBS,
  VC_PROBE_US,
  VC_PROBE_GBS,
  VC_PROBE_GRID,
  VC_GR_VS_PROBE,
  VC_GR_VS_CUB,
  VC_CHECK,
  VC_OP,
  VC_TYPE,
  VC_F64,
  VC_WITH_VALUE,
  VC_COUNT
};

/* A table of the mode's own[0 .. nown-1] columns, then the VC_ ones. */
void vectors_table(const struct vectors_ctx *c, struct table *t, const struct column *own,
                   int nown);
/* The VC_ cells of row r (the mode's columns before them): bytes are
 * what GB/s counts. */
void vector_cells(const struct vectors_ctx *c, struct row *r, int nown,
                  const struct vector_point *p, double bytes);
/* The summary, and the notes on the time, GB/s (the mode's note gbs), the
 * probe, CUB and the checks of "vector" or "segment" shapes; failed: of
 * the count shapes, those whose call failed. */
void vectors_lines(struct vectors_ctx *c, const char *kind, int failed, int count,
                   const char *gbs);

#endif /* REDUCE_BENCH_VECTORS_H */
