/*
 * test-huge-batched.c - gpureduce_reduce_batched() past 2^32 on CUDA
 * device 0: a batch of 2^32 + 3 vectors, vectors of 2^32 + 3 elements,
 * and a batch of 2^32 elements and more in all, each once.  Zero strides
 * keep the first two small in input:
 *   - batch 2^32 + 3 with batch_stride 0 (every vector the same few
 *     elements): every result has the bits of the vector's 1-D reduction;
 *   - n = 2^32 + 3 with element_stride 0 (vector b is 2^32 + 3 copies of
 *     element b): the bits of the 1-D reduction of such a copy, written
 *     out, and the exact double-accumulated sum and u8 sum;
 *   - 4097 rows of 2^20 + 1 random floats (ld = n + 1; 2^32 + 2^20 + 4096
 *     elements): every row against the 1-D call on the row, some rows and
 *     columns against copies of their own and the host backend.
 * Skips without a CUDA device or with less than 24 GiB of device memory
 * free.  Seconds on an H200.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "testutil.h"

#define GIB ((size_t)1 << 30)
#define TWO32 ((size_t)1 << 32)
#define CANARY 64
#define FILL 0xC3

static gpureduce_handle_t H, HH; /* CUDA device 0, and the host */

static int setup(void **state) {
  (void)state;
  tu_announce_seed();
  if (gpureduce_create(&H, 0) != GPUREDUCE_SUCCESS) return -1;
  return gpureduce_create(&HH, GPUREDUCE_DEVICE_HOST) == GPUREDUCE_SUCCESS ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  gpureduce_destroy(HH);
  return gpureduce_destroy(H) == GPUREDUCE_SUCCESS ? 0 : -1;
}

static void *dmalloc(size_t bytes) {
  void *p = NULL;
  CK(cudaMalloc(&p, bytes));
  return p;
}

/* The 1-D reduction of n device elements, its result as bits. */
static uint64_t reduce_1d(const void *d_in, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                          unsigned flags, const char *what) {
  static void *d_one;
  if (!d_one) d_one = dmalloc(16);
  uint64_t r = 0;
  check_status(GPUREDUCE_SUCCESS, gpureduce_reduce(d_in, d_one, n, type, op, flags, H),
               "%s: status of the 1-D reduction (%s)", what, gpureduce_last_message(H));
  CK(cudaMemcpy(&r, d_one, tu_result_size(type, op, flags), cudaMemcpyDeviceToHost));
  return r;
}

/* Fill `count` elements of `size` bytes at d with the `block` elements
 * at host address src, repeated: one copy, then doubling device copies. */
static void fill_repeated(void *d, size_t count, unsigned size, const void *src, size_t block) {
  unsigned char *p = d;
  const size_t first = block < count ? block : count;
  CK(cudaMemcpy(p, src, first * size, cudaMemcpyHostToDevice));
  for (size_t have = first; have < count;) {
    const size_t c = have < count - have ? have : count - have;
    CK(cudaMemcpy(p + have * size, p, c * size, cudaMemcpyDeviceToDevice));
    have += c;
  }
}

/* Output buffers of `bytes` results and a canary, filled; the canary is
 * checked by check_canary. */
static unsigned char *output_buffer(size_t bytes) {
  unsigned char *d = dmalloc(bytes + CANARY);
  CK(cudaMemset(d, FILL, bytes + CANARY));
  return d;
}

static void check_canary(const unsigned char *d, size_t bytes, const char *what) {
  unsigned char c[CANARY];
  CK(cudaMemcpy(c, d + bytes, CANARY, cudaMemcpyDeviceToHost));
  check_bytes(c, FILL, CANARY, "%s: the canary after the results survives", what);
}

/* Batch 2^32 + 3 of one vector (batch_stride 0): every result equals the
 * 1-D result.  Checked on the device with 1-D MIN and MAX over the results
 * read as unsigned integers of their size (equal: all the same bits), and
 * a few results copied back, at both ends and around 2^32. */
static void huge_batch(void **state) {
  (void)state;
  const size_t batch = TWO32 + 3;
  const struct {
    gpureduce_type_t type;
    gpureduce_op_t op;
    size_t n;
    gpureduce_type_t as; /* the results read as */
  } cases[] = {{GPUREDUCE_F32, GPUREDUCE_SUM, 5, GPUREDUCE_U32},
               {GPUREDUCE_U8, GPUREDUCE_MAX, 37, GPUREDUCE_U8}};
  for (size_t k = 0; k < COUNT(cases); ++k) {
    const gpureduce_type_t type = cases[k].type;
    const unsigned es = TU_TYPE(type)->size;
    const size_t rs = tu_result_size(type, cases[k].op, 0), n = cases[k].n;
    char what[128];
    snprintf(what, sizeof what, "%s %s, batch 2^32 + 3 of one vector of %zu (batch_stride 0)",
             TU_TYPE(type)->name, tu_op_names[cases[k].op], n);
    unsigned char x[64];
    tu_rng r;
    tu_rng_init(&r, "huge batch");
    tc_fill(&r, type, type == GPUREDUCE_F32 ? G_WIDE : G_INNER, x, n);
    void *d_x = dmalloc(n * es);
    CK(cudaMemcpy(d_x, x, n * es, cudaMemcpyHostToDevice));
    const uint64_t want = reduce_1d(d_x, n, type, cases[k].op, 0, what);
    unsigned char *d_out = output_buffer(batch * rs);
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_reduce_batched(d_x, d_out, batch, n, 0, 1, type, cases[k].op, 0, H),
                 "%s: status (%s)", what, gpureduce_last_message(H));
    check_canary(d_out, batch * rs, what);
    check_bits(want, reduce_1d(d_out, batch, cases[k].as, GPUREDUCE_MIN, 0, what),
               "%s: the smallest result bits are the 1-D result's", what);
    check_bits(want, reduce_1d(d_out, batch, cases[k].as, GPUREDUCE_MAX, 0, what),
               "%s: the largest result bits are the 1-D result's (so all are)", what);
    const size_t at[] = {0, 1, TWO32 - 1, TWO32, TWO32 + 1, batch - 1};
    for (size_t i = 0; i < COUNT(at); ++i) {
      uint64_t got = 0;
      CK(cudaMemcpy(&got, d_out + at[i] * rs, rs, cudaMemcpyDeviceToHost));
      check_bits(want, got, "%s: result %zu", what, at[i]);
    }
    cudaFree(d_out);
    cudaFree(d_x);
  }
}

/* n = 2^32 + 3 copies of one element per vector (element_stride 0),
 * vector b's element is x[b] (batch_stride 1). */
static void huge_vectors(void **state) {
  (void)state;
  const size_t n = TWO32 + 3;
  /* the 1-D references: 2^32 + 3 copies written out, one vector at a time */
  void *d_copy = dmalloc(n * sizeof(float));
  {
    const float x[3] = {1.0f, 0.75f, -2.5f};
    float *d_x = dmalloc(sizeof x);
    CK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
    const struct {
      gpureduce_op_t op;
      unsigned flags;
    } ops[] = {{GPUREDUCE_SUM, 0},
               {GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
               {GPUREDUCE_ARGMAX, 0},
               {GPUREDUCE_MIN, 0}};
    for (size_t k = 0; k < COUNT(ops); ++k) {
      const size_t rs = tu_result_size(GPUREDUCE_F32, ops[k].op, ops[k].flags);
      char what[128];
      snprintf(what, sizeof what, "f32 %s%s of 3 vectors of 2^32 + 3 copies (element_stride 0)",
               tu_op_names[ops[k].op], ops[k].flags ? " accumulate-f64" : "");
      unsigned char *d_out = output_buffer(3 * rs), res[24];
      check_status(GPUREDUCE_SUCCESS,
                   gpureduce_reduce_batched(d_x, d_out, 3, n, 1, 0, GPUREDUCE_F32, ops[k].op,
                                            ops[k].flags, H),
                   "%s: status (%s)", what, gpureduce_last_message(H));
      check_canary(d_out, 3 * rs, what);
      CK(cudaMemcpy(res, d_out, 3 * rs, cudaMemcpyDeviceToHost));
      for (size_t b = 0; b < 3; ++b) {
        fill_repeated(d_copy, n, sizeof(float), &x[b], 1);
        check_bits(reduce_1d(d_copy, n, GPUREDUCE_F32, ops[k].op, ops[k].flags, what),
                   tu_load(res, b, (unsigned)rs),
                   "%s: vector %zu has the bits of the 1-D reduction of the copies", what, b);
        if (ops[k].flags)
          check_bits(tu_f64_bits((double)x[b] * (double)n), tu_load(res, b, 8),
                     "%s: vector %zu sums exactly to (2^32 + 3) * %g", what, b, (double)x[b]);
        if (ops[k].op == GPUREDUCE_ARGMAX)
          check_bits(0, tu_load(res, b, 8), "%s: all equal, the first index wins", what);
      }
      cudaFree(d_out);
    }
    cudaFree(d_x);
  }
  /* u8: an exact sum past 2^32 */
  const uint8_t v = 201;
  uint8_t *d_v = dmalloc(1);
  CK(cudaMemcpy(d_v, &v, 1, cudaMemcpyHostToDevice));
  unsigned char *d_out = output_buffer(8);
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_batched(d_v, d_out, 1, n, 0, 0, GPUREDUCE_U8, GPUREDUCE_SUM, 0, H),
               "u8 sum of 2^32 + 3 copies of 201: status (%s)", gpureduce_last_message(H));
  uint64_t got = 0;
  CK(cudaMemcpy(&got, d_out, 8, cudaMemcpyDeviceToHost));
  check_bits((uint64_t)n * v, got, "u8 sum of 2^32 + 3 copies of 201 is exact");
  CK(cudaMemset(d_copy, v, n));
  check_bits(reduce_1d(d_copy, n, GPUREDUCE_U8, GPUREDUCE_SUM, 0, "u8"), got,
             "u8 sum of 2^32 + 3 copies of 201: the 1-D reduction's bits");
  check_canary(d_out, 8, "u8 sum of 2^32 + 3 copies");
  cudaFree(d_out);
  cudaFree(d_v);
  cudaFree(d_copy);
}

/* 4097 rows of 2^20 + 1 random floats at ld = n + 1: more than 2^32
 * elements in one batch, as rows and as columns. */
static void huge_matrix(void **state) {
  (void)state;
  const size_t rows = 4097, cols = ((size_t)1 << 20) + 1, ld = cols + 1;
  const size_t block = (size_t)1 << 24; /* random floats, repeated */
  float *x = tu_alloc(block * sizeof *x);
  tu_rng r;
  tu_rng_init(&r, "huge matrix");
  tc_fill(&r, GPUREDUCE_F32, G_WIDE, x, block);
  float *d_m = dmalloc(rows * ld * sizeof *d_m);
  fill_repeated(d_m, rows * ld, sizeof *d_m, x, block);
  check_true(rows * cols > TWO32, "4097 rows of 2^20 + 1 are more than 2^32 elements");

  /* rows: every row against the 1-D call on the row in place, some
   * against an aligned copy and the host backend */
  float *d_sums = (float *)output_buffer(rows * sizeof(float));
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_batched(d_m, d_sums, rows, cols, (int64_t)ld, 1, GPUREDUCE_F32,
                                        GPUREDUCE_SUM, 0, H),
               "f32 row sums of 4097 x (2^20 + 1): status (%s)", gpureduce_last_message(H));
  check_canary((unsigned char *)d_sums, rows * sizeof(float), "f32 row sums");
  float *d_one = dmalloc(rows * sizeof *d_one);
  for (size_t b = 0; b < rows; ++b)
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_reduce(d_m + b * ld, d_one + b, cols, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
                                  H),
                 "the 1-D sum of row %zu", b);
  float *sums = tu_alloc(rows * sizeof *sums), *one = tu_alloc(rows * sizeof *one);
  CK(cudaMemcpy(sums, d_sums, rows * sizeof *sums, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(one, d_one, rows * sizeof *one, cudaMemcpyDeviceToHost));
  for (size_t b = 0; b < rows; ++b)
    check_bits(tu_f32_bits(one[b]), tu_f32_bits(sums[b]),
               "f32 row %zu of 4097 x (2^20 + 1): the bits of the 1-D sum of the row", b);
  float *d_row = dmalloc(cols * sizeof *d_row), *row = tu_alloc(cols * sizeof *row);
  const size_t sample_rows[] = {0, 1, 2048, 4095, 4096};
  for (size_t k = 0; k < COUNT(sample_rows); ++k) {
    const size_t b = sample_rows[k];
    CK(cudaMemcpy(d_row, d_m + b * ld, cols * sizeof *d_row, cudaMemcpyDeviceToDevice));
    check_bits(reduce_1d(d_row, cols, GPUREDUCE_F32, GPUREDUCE_SUM, 0, "row copy"),
               tu_f32_bits(sums[b]), "f32 row %zu: the bits of the 1-D sum of an aligned copy",
               b);
    CK(cudaMemcpy(row, d_row, cols * sizeof *row, cudaMemcpyDeviceToHost));
    float host = 0;
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_reduce(row, &host, cols, GPUREDUCE_F32, GPUREDUCE_SUM, 0, HH),
                 "the host backend's sum of row %zu", b);
    check_bits(tu_f32_bits(host), tu_f32_bits(sums[b]),
               "f32 row %zu: the bits of the host backend's sum", b);
  }

  /* columns: 2^20 + 1 vectors of 4097 (batch_stride 1, element_stride ld);
   * a sample gathered with cudaMemcpy2D against the 1-D call and the host
   * backend */
  uint64_t *d_arg = (uint64_t *)output_buffer(cols * sizeof(uint64_t));
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_batched(d_m, d_arg, cols, rows, 1, (int64_t)ld, GPUREDUCE_F32,
                                        GPUREDUCE_ARGMAX, 0, H),
               "f32 column argmaxes of 4097 x (2^20 + 1): status (%s)",
               gpureduce_last_message(H));
  check_canary((unsigned char *)d_arg, cols * sizeof(uint64_t), "f32 column argmaxes");
  const size_t sample_cols[] = {0, 1, 77, cols / 2, cols - 2, cols - 1};
  for (size_t k = 0; k < COUNT(sample_cols); ++k) {
    const size_t c = sample_cols[k];
    CK(cudaMemcpy2D(d_row, sizeof(float), d_m + c, ld * sizeof(float), sizeof(float), rows,
                    cudaMemcpyDeviceToDevice));
    uint64_t got = 0, host = 0;
    CK(cudaMemcpy(&got, d_arg + c, sizeof got, cudaMemcpyDeviceToHost));
    check_bits(reduce_1d(d_row, rows, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0, "column copy"), got,
               "f32 column %zu: the 1-D argmax of its copy", c);
    CK(cudaMemcpy(row, d_row, rows * sizeof *row, cudaMemcpyDeviceToHost));
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_reduce(row, &host, rows, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0, HH),
                 "the host backend's argmax of column %zu", c);
    check_bits(host, got, "f32 column %zu: the host backend's argmax", c);
  }
  cudaFree(d_arg);
  cudaFree(d_row);
  cudaFree(d_one);
  cudaFree(d_sums);
  cudaFree(d_m);
  free(row);
  free(one);
  free(sums);
  free(x);
}

int main(void) {
  /* the largest case: 4097 x (2^20 + 2) floats, 17.2 GB, and its outputs */
  if (!tu_cuda_start(24 * GIB)) return 0;
  setenv("GPUREDUCE_TUNE", "off", 1);
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {cmocka_unit_test(huge_batch),
                                     cmocka_unit_test(huge_vectors),
                                     cmocka_unit_test(huge_matrix)};
  return cmocka_run_group_tests_name("test-huge-batched", tests, setup, teardown);
}
