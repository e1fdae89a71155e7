/*
 * test-huge.c - element counts above 2^32 on CUDA device 0: 64-bit counts,
 * indices and tile numbers.  Answers are exact by construction:
 *   - 2^32 + 4097 bytes, all 1 but six known ones, reduced as u8 and as i8
 *     (every operation; sums computed arithmetically; MEAN_VAR against
 *     the exact mean and variance, within gpureduce.h's bounds), and
 *     their dot products with themselves and with themselves shifted by
 *     a byte;
 *   - 2^32 + 17 floats, all 1.0f but two known ones, when 18 GiB of device
 *     memory are free: the double-accumulated sum is exact (every partial
 *     sum is a multiple of 0.5 below 2^53), the float sum follows
 *     doc/ORDER.md from tile values computed here, and min/max/arg*.
 * Skips without a CUDA device or with less than 12 GiB free.  A few
 * seconds on an H200.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "reference.h"
#include "testutil.h"

#define GIB ((size_t)1 << 30)
#define TWO32 ((size_t)1 << 32)

static gpureduce_handle_t H;
static unsigned char *d_out; /* result and canary */
#define OUT_BYTES 64
#define OUT_FILL 0xC3

static int setup(void **state) {
  (void)state;
  tu_announce_seed();
  if (gpureduce_create(&H, 0) != GPUREDUCE_SUCCESS) return -1;
  return cudaMalloc((void **)&d_out, OUT_BYTES) == cudaSuccess ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  cudaFree(d_out);
  return gpureduce_destroy(H) == GPUREDUCE_SUCCESS ? 0 : -1;
}

/* The result of gpureduce_reduce() into ob (OUT_BYTES), the canary after
 * it checked; its size. */
static size_t reduce_into(unsigned char *ob, const void *d_in, size_t n, gpureduce_type_t type,
                          gpureduce_op_t op, unsigned flags, const char *what) {
  memset(ob, OUT_FILL, OUT_BYTES);
  CK(cudaMemcpy(d_out, ob, OUT_BYTES, cudaMemcpyHostToDevice));
  check_status(GPUREDUCE_SUCCESS, gpureduce_reduce(d_in, d_out, n, type, op, flags, H),
               "%s: status (%s)", what, gpureduce_last_message(H));
  CK(cudaMemcpy(ob, d_out, OUT_BYTES, cudaMemcpyDeviceToHost));
  const size_t rs = tu_result_size(type, op, flags);
  check_bytes(ob + rs, OUT_FILL, OUT_BYTES - rs, "%s: the canary after the result", what);
  return rs;
}

/* A result of at most 8 bytes. */
static uint64_t reduce(const void *d_in, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                       unsigned flags, const char *what) {
  unsigned char ob[OUT_BYTES];
  const size_t rs = reduce_into(ob, d_in, n, type, op, flags, what);
  return tu_load(ob, 0, (unsigned)rs);
}

/* MEAN_VAR (a double accumulator) of n bytes at d_in, s the sum of their
 * values and q the sum of their squares, against the exact mean and
 * variance, within gpureduce.h's bounds: d = 8V + 10 + ceil(log2 T),
 * u = 2^-53, |mean error| <= 8 (d + 1) u max|x|, |variance error| <=
 * 4 (d + 3) u var + 16 (d + 2) u sd max|x|.  With b = s - n and
 * a = q - 2s + n, the sums of x - 1 and (x - 1)^2 (small integers for
 * input of ones but a few), the mean is 1 + b/n and the variance
 * (a - b^2/n) / n, in long double without cancellation. */
static void check_mean_var(const void *d_in, size_t n, gpureduce_type_t type, int64_t s,
                           uint64_t q, double max_abs, const char *what) {
  unsigned char ob[OUT_BYTES];
  check_bits(16, reduce_into(ob, d_in, n, type, GPUREDUCE_MEAN_VAR, 0, what),
             "%s: two doubles", what);
  const double mean = tu_f64_of(tu_load(ob, 0, 8)), var = tu_f64_of(tu_load(ob, 1, 8));
  const int64_t b = s - (int64_t)n, a = (int64_t)q - 2 * s + (int64_t)n;
  const long double exact_mean = 1 + (long double)b / (long double)n;
  const long double exact_var =
      ((long double)a - (long double)b * (long double)b / (long double)n) / (long double)n;
  int log2t = 0;
  while (((size_t)1 << log2t) < tu_tiles(type, n)) ++log2t;
  const double u = 0x1p-53, dd = 8 * 16 + 10 + log2t;
  check_near(exact_mean, mean, 8 * (dd + 1) * u * max_abs, "%s: the mean (exact %.17Lg)", what,
             exact_mean);
  check_near(exact_var, var,
             4 * (dd + 3) * u * (double)exact_var +
                 16 * (dd + 2) * u * (double)sqrtl(exact_var) * max_abs,
             "%s: the variance (exact %.17Lg)", what, exact_var);
}

static void huge_bytes(void **state) {
  (void)state;
  const size_t n = TWO32 + 4097;
  unsigned char *d = NULL;
  CK(cudaMalloc((void **)&d, n));
  CK(cudaMemset(d, 1, n));
  const struct {
    size_t i;
    unsigned char v;
  } sp[] = {{3, 200}, {TWO32 + 5, 0}, {TWO32 + 77, 255}, {TWO32 + 1234, 0x80},
            {TWO32 + 3000, 255}, {n - 1, 7}};
  uint64_t u_sum = n, u_sq = n, i_sum = n, i_abs = n, i_sq = n;
  for (size_t k = 0; k < COUNT(sp); ++k) {
    CK(cudaMemcpy(d + sp[k].i, &sp[k].v, 1, cudaMemcpyHostToDevice));
    const int64_t u = sp[k].v, s = (int8_t)sp[k].v;
    u_sum += (uint64_t)(u - 1);
    u_sq += (uint64_t)(u * u - 1);
    i_sum += (uint64_t)(s - 1);
    i_abs += (uint64_t)((s < 0 ? -s : s) - 1);
    i_sq += (uint64_t)(s * s - 1);
  }
  const struct {
    gpureduce_type_t type;
    gpureduce_op_t op;
    uint64_t want;
    const char *what;
  } cases[] = {
      {GPUREDUCE_U8, GPUREDUCE_SUM, u_sum, "u8 sum: n ones, corrected for six bytes"},
      {GPUREDUCE_U8, GPUREDUCE_SUM_ABS, u_sum, "u8 sum_abs equals the sum"},
      {GPUREDUCE_U8, GPUREDUCE_SUM_SQUARES, u_sq, "u8 sum_squares"},
      {GPUREDUCE_U8, GPUREDUCE_PROD, 0, "u8 prod (a zero byte at 2^32 + 5)"},
      {GPUREDUCE_U8, GPUREDUCE_MAX, 255, "u8 max"},
      {GPUREDUCE_U8, GPUREDUCE_ARGMAX, TWO32 + 77, "u8 argmax: the first 255, above 2^32"},
      {GPUREDUCE_U8, GPUREDUCE_MIN, 0, "u8 min"},
      {GPUREDUCE_U8, GPUREDUCE_ARGMIN, TWO32 + 5, "u8 argmin: the zero above 2^32"},
      {GPUREDUCE_I8, GPUREDUCE_SUM, i_sum, "i8 sum"},
      {GPUREDUCE_I8, GPUREDUCE_SUM_ABS, i_abs, "i8 sum_abs"},
      {GPUREDUCE_I8, GPUREDUCE_SUM_SQUARES, i_sq, "i8 sum_squares"},
      {GPUREDUCE_I8, GPUREDUCE_MIN, 0x80, "i8 min: -128"},
      {GPUREDUCE_I8, GPUREDUCE_ARGMIN, TWO32 + 1234, "i8 argmin: the -128 above 2^32"},
      {GPUREDUCE_I8, GPUREDUCE_MAX, 7, "i8 max: 7"},
      {GPUREDUCE_I8, GPUREDUCE_ARGMAX, n - 1, "i8 argmax: the last element"},
  };
  for (size_t k = 0; k < COUNT(cases); ++k) {
    char what[128];
    snprintf(what, sizeof what, "%s, n = 2^32 + 4097", cases[k].what);
    check_bits(cases[k].want, reduce(d, n, cases[k].type, cases[k].op, 0, what), "%s", what);
  }
  /* the same bytes from 3 bytes in: misaligned, n - 3 elements */
  check_bits(u_sum - 3, reduce(d + 3, n - 3, GPUREDUCE_U8, GPUREDUCE_SUM, 0, "offset 3"),
             "u8 sum of the 2^32 + 4094 bytes from index 3 (a misaligned start; the three "
             "ones before it left out)");
  check_bits(TWO32 + 77 - 3, reduce(d + 3, n - 3, GPUREDUCE_U8, GPUREDUCE_ARGMAX, 0, "offset 3"),
             "u8 argmax from index 3: the index counts from the new start");
  /* dot products: dot(d, d) is the sum of squares; dot(d + 1, d) over
   * n - 1 elements (x misaligned by a byte, y aligned) is n - 1 ones
   * corrected for each special byte v at p (not neighbours: the products
   * (p-1, p) and (p, p+1) are v) */
  uint64_t shifted = n - 1;
  for (size_t k = 0; k < COUNT(sp); ++k)
    shifted += (uint64_t)(sp[k].v - 1) * ((sp[k].i >= 1) + (sp[k].i + 1 <= n - 1));
  const struct {
    const void *x, *y;
    size_t n;
    gpureduce_type_t type;
    uint64_t want;
    const char *what;
  } dots[] = {
      {d, d, n, GPUREDUCE_U8, u_sq, "u8 dot(x, x): the sum of squares"},
      {d, d, n, GPUREDUCE_I8, i_sq, "i8 dot(x, x): the sum of squares"},
      {d + 1, d, n - 1, GPUREDUCE_U8, shifted, "u8 dot of x = d + 1 and y = d"},
  };
  for (size_t k = 0; k < COUNT(dots); ++k) {
    unsigned char ob[OUT_BYTES];
    memset(ob, OUT_FILL, sizeof ob);
    CK(cudaMemcpy(d_out, ob, sizeof ob, cudaMemcpyHostToDevice));
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_dot(dots[k].x, dots[k].y, d_out, dots[k].n, dots[k].type, 0, H),
                 "%s: status (%s)", dots[k].what, gpureduce_last_message(H));
    CK(cudaMemcpy(ob, d_out, sizeof ob, cudaMemcpyDeviceToHost));
    check_bytes(ob + 8, OUT_FILL, sizeof ob - 8, "%s: the canary after the result", dots[k].what);
    check_bits(dots[k].want, tu_load(ob, 0, 8), "%s, n = 2^32 + 4097 (or one less)",
               dots[k].what);
  }
  /* MEAN_VAR: counts past 2^32 in its combine; from index 3 the three
   * ones before it are left out */
  check_mean_var(d, n, GPUREDUCE_U8, (int64_t)u_sum, u_sq, 255, "u8 mean_var, n = 2^32 + 4097");
  check_mean_var(d, n, GPUREDUCE_I8, (int64_t)i_sum, i_sq, 128, "i8 mean_var, n = 2^32 + 4097");
  check_mean_var(d + 3, n - 3, GPUREDUCE_U8, (int64_t)u_sum - 3, u_sq - 3, 255,
                 "u8 mean_var of the 2^32 + 4094 bytes from index 3");
  cudaFree(d);
}

static void huge_floats(void **state) {
  (void)state;
  const size_t n = TWO32 + 17;
  float *d = NULL;
  CK(cudaMalloc((void **)&d, n * sizeof *d));
  /* fill with 1.0f: 64 MiB from the host, then doubling device copies */
  const size_t chunk = (size_t)16 << 20; /* floats */
  float *ones = tu_alloc(chunk * sizeof *ones);
  for (size_t i = 0; i < chunk; ++i) ones[i] = 1.0f;
  CK(cudaMemcpy(d, ones, chunk * sizeof *d, cudaMemcpyHostToDevice));
  for (size_t have = chunk; have < n;) {
    const size_t c = have < n - have ? have : n - have;
    CK(cudaMemcpy(d + have, d, c * sizeof *d, cudaMemcpyDeviceToDevice));
    have += c;
  }
  const size_t ineg = 7, ipos = TWO32 + 3;
  const float vneg = -4.0f, vpos = 2.5f;
  CK(cudaMemcpy(d + ineg, &vneg, sizeof vneg, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d + ipos, &vpos, sizeof vpos, cudaMemcpyHostToDevice));

  /* double accumulation: every partial sum is a multiple of 0.5 below
   * 2^33, so exact: n - 5 + 1.5 */
  const double exact = (double)n - 3.5;
  check_bits(tu_f64_bits(exact),
             reduce(d, n, GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64, "f32 sum f64"),
             "f32 sum accumulated in double of 2^32 + 17 floats: exactly n - 3.5");

  /* float accumulation by doc/ORDER.md: a tile of 8192 ones is 8192
   * exactly (lanes of 32 ones, then the lane tree, all integers); tile 0
   * and the last tile (17 elements) are computed here. */
  const size_t te = tu_tile_elems(GPUREDUCE_F32), tiles = tu_tiles(GPUREDUCE_F32, n);
  check_bits(((size_t)1 << 19) + 1, tiles, "2^32 + 17 floats are 2^19 + 1 tiles");
  float *tv = tu_alloc(tiles * sizeof *tv);
  for (size_t t = 0; t < tiles; ++t) tv[t] = 8192.0f;
  memcpy(ones, (float[]){1, 1, 1, 1, 1, 1, 1, vneg}, 8 * sizeof(float));
  tv[0] = ref_order_tile_f(ones, te, 4, 0);
  ones[0] = 1.0f;
  ones[ineg] = 1.0f;
  ones[ipos - (tiles - 1) * te] = vpos;
  tv[tiles - 1] = ref_order_tile_f(ones, n - (tiles - 1) * te, 4, 0);
  const float fsum = ref_order_tree_f(tv, tiles, 0);
  const uint64_t got = reduce(d, n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, "f32 sum");
  check_near((long double)exact, (double)tu_f32_of((uint32_t)got),
             (8 * 4 + 8 + 20 + 2) * 0x1p-24 * ((double)n + 6),
             "f32 sum of 2^32 + 17 floats: within (8V + 8 + ceil(log2 T) + 2) u sum|x|");
  check_bits(tu_f32_bits(fsum), got,
             "f32 sum of 2^32 + 17 floats: the bits of doc/ORDER.md's tile tree (%.1f)",
             (double)fsum);
  free(tv);
  free(ones);

  check_bits(tu_f32_bits(vneg), reduce(d, n, GPUREDUCE_F32, GPUREDUCE_MIN, 0, "f32 min"),
             "f32 min of 2^32 + 17 floats: -4");
  check_bits(ineg, reduce(d, n, GPUREDUCE_F32, GPUREDUCE_ARGMIN, 0, "f32 argmin"),
             "f32 argmin of 2^32 + 17 floats: 7");
  check_bits(tu_f32_bits(vpos), reduce(d, n, GPUREDUCE_F32, GPUREDUCE_MAX, 0, "f32 max"),
             "f32 max of 2^32 + 17 floats: 2.5");
  check_bits(ipos, reduce(d, n, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0, "f32 argmax"),
             "f32 argmax of 2^32 + 17 floats: 2^32 + 3");
  cudaFree(d);
}

int main(void) {
  const size_t free_bytes = tu_cuda_start(12 * GIB);
  if (!free_bytes) return 0;
  setenv("GPUREDUCE_TUNE", "off", 1);
  cmocka_set_message_output(CM_OUTPUT_TAP);
  /* the float case (16 GiB) only where it fits; the plan says which ran */
  const struct CMUnitTest both[] = {cmocka_unit_test(huge_bytes), cmocka_unit_test(huge_floats)};
  const struct CMUnitTest bytes_only[] = {cmocka_unit_test(huge_bytes)};
  if (free_bytes >= 18 * GIB)
    return cmocka_run_group_tests_name("test-huge", both, setup, teardown);
  return cmocka_run_group_tests_name("test-huge", bytes_only, setup, teardown);
}
