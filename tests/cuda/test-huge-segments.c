/*
 * test-huge-segments.c - gpureduce_reduce_segments() past 2^32 on CUDA
 * device 0, each once:
 *   - one segment of 2^32 + 4099 elements among a few short ones: u8 SUM,
 *     i8 SUM, u8 MIN, MAX, ARGMIN and ARGMAX of bytes with a period of 251
 *     and a unique 0 and 255 placed past 2^32, checked against their closed
 *     forms and the 1-D call on a copy of the segment; f16 SUM of 2^32 +
 *     4099 random halves against the 1-D call on a copy;
 *   - 2^28 segments of 0, 1 or 2 elements: u8 SUM and f16 SUM and ARGMAX,
 *     every result against a host computation written from gpureduce.h
 *     and doc/ORDER.md, a sample against the 1-D call, and the u8 sums
 *     against the host backend.
 * Skips without a CUDA device or with less than 24 GiB of device memory
 * free.  Seconds on an H200.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "segments.h"

#define GIB ((size_t)1 << 30)
#define TWO32 ((size_t)1 << 32)
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
                          const char *what) {
  static void *d_one;
  if (!d_one) d_one = dmalloc(16);
  uint64_t r = 0;
  check_status(GPUREDUCE_SUCCESS, gpureduce_reduce(d_in, d_one, n, type, op, 0, H),
               "%s: status of the 1-D reduction (%s)", what, gpureduce_last_message(H));
  CK(cudaMemcpy(&r, d_one, tu_result_size(type, op, 0), cudaMemcpyDeviceToHost));
  return r;
}

/* Fill `count` elements of `size` bytes at d with the `block` elements at
 * host address src, repeated: one copy, then doubling device copies. */
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

/* One segmented call on device buffers, its results copied back; checks
 * the status, the canary after the results and the async error. */
static void call(const void *d_in, const uint64_t *d_off, size_t segments,
                 gpureduce_type_t type, gpureduce_op_t op, void *res, const char *what) {
  const size_t rs = tu_result_size(type, op, 0), bytes = segments * rs;
  unsigned char *d_out = dmalloc(bytes + 64), canary[64];
  CK(cudaMemset(d_out, FILL, bytes + 64));
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_segments(d_in, d_out, d_off, segments, type, op, 0, H),
               "%s: status (%s)", what, gpureduce_last_message(H));
  check_status(GPUREDUCE_SUCCESS, gpureduce_get_async_error(H), "%s: no async error", what);
  CK(cudaMemcpy(res, d_out, bytes, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(canary, d_out + bytes, 64, cudaMemcpyDeviceToHost));
  check_bytes(canary, FILL, 64, "%s: the canary after the results survives", what);
  cudaFree(d_out);
}

/* ---- one segment past 2^32 ----------------------------------------------------- */

#define PERIOD 251 /* bytes 1 .. 251, global element j holding 1 + j % 251 */

static uint8_t byte_at(size_t j) { return (uint8_t)(1 + j % PERIOD); }

/* The u8 (or, signed, the i8) sum of elements [a, b) of the pattern, in
 * closed form: whole periods times the period's sum, and the rest. */
static uint64_t pattern_sum(size_t a, size_t b, int is_signed) {
  uint64_t period = 0, sum = 0;
  for (size_t k = 0; k < PERIOD; ++k)
    period += is_signed ? (uint64_t)(int64_t)(int8_t)(k + 1) : (uint64_t)(k + 1);
  size_t j = a;
  for (; j < b && j % PERIOD != 0; ++j)
    sum += is_signed ? (uint64_t)(int64_t)(int8_t)byte_at(j) : byte_at(j);
  const size_t whole = (b - j) / PERIOD;
  sum += (uint64_t)whole * period;
  for (j += whole * PERIOD; j < b; ++j)
    sum += is_signed ? (uint64_t)(int64_t)(int8_t)byte_at(j) : byte_at(j);
  return sum;
}

static void huge_segment(void **state) {
  (void)state;
  const size_t len[] = {5, TWO32 + 4099, 0, 1000};
  enum { S = 4 };
  uint64_t off[S + 1] = {3};
  for (size_t s = 0; s < S; ++s) off[s + 1] = off[s] + len[s];
  const size_t total = (size_t)off[S];
  check_true(len[1] > TWO32, "segment 1 is longer than 2^32 elements");

  /* the bytes, and a unique 0 and a unique 255 in segment 1 past 2^32 */
  uint8_t block[PERIOD];
  for (size_t k = 0; k < PERIOD; ++k) block[k] = byte_at(k);
  uint8_t *d_x = dmalloc(total);
  fill_repeated(d_x, total, 1, block, PERIOD);
  const size_t at_min = (size_t)off[1] + TWO32 + 17, at_max = (size_t)off[1] + TWO32 + 4000;
  const uint8_t lo = 0, hi = 255;
  CK(cudaMemcpy(d_x + at_min, &lo, 1, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_x + at_max, &hi, 1, cudaMemcpyHostToDevice));
  uint64_t *d_off = dmalloc(sizeof off);
  CK(cudaMemcpy(d_off, off, sizeof off, cudaMemcpyHostToDevice));

  /* the closed forms of segment s */
  uint64_t want[2][S]; /* u8, i8 sums */
  for (int sg = 0; sg < 2; ++sg)
    for (size_t s = 0; s < S; ++s) {
      uint64_t w = pattern_sum((size_t)off[s], (size_t)off[s + 1], sg);
      if (s == 1) {
        w -= sg ? (uint64_t)(int64_t)(int8_t)byte_at(at_min) : byte_at(at_min);
        w -= sg ? (uint64_t)(int64_t)(int8_t)byte_at(at_max) : byte_at(at_max);
        w += sg ? (uint64_t)(int64_t)(int8_t)hi : hi; /* (the 0 adds nothing) */
      }
      want[sg][s] = w;
    }

  uint64_t r8[S];
  call(d_x, d_off, S, GPUREDUCE_U8, GPUREDUCE_SUM, r8, "u8 SUM, a segment of 2^32 + 4099");
  for (size_t s = 0; s < S; ++s)
    check_bits(want[0][s], r8[s], "u8 SUM of segment %zu (%zu elements) is exact", s, len[s]);
  call(d_x, d_off, S, GPUREDUCE_I8, GPUREDUCE_SUM, r8, "i8 SUM, a segment of 2^32 + 4099");
  for (size_t s = 0; s < S; ++s)
    check_bits(want[1][s], r8[s], "i8 SUM of segment %zu (%zu elements) is exact", s, len[s]);
  call(d_x, d_off, S, GPUREDUCE_U8, GPUREDUCE_ARGMAX, r8, "u8 ARGMAX");
  check_bits(at_max - off[1], r8[1], "u8 ARGMAX of segment 1: the 255 past 2^32, counted "
                                     "from the segment's start");
  check_bits(GPUREDUCE_NO_INDEX, r8[2], "u8 ARGMAX of the empty segment 2");
  call(d_x, d_off, S, GPUREDUCE_U8, GPUREDUCE_ARGMIN, r8, "u8 ARGMIN");
  check_bits(at_min - off[1], r8[1], "u8 ARGMIN of segment 1: the 0 past 2^32");
  /* segment 0 (offsets 3 .. 8) holds 4 5 6 7 8; segment 3 starts at
   * 2^32 + 4107, 1 + that % 251 */
  check_bits(0, r8[0], "u8 ARGMIN of segment 0: its first element is the smallest");
  uint8_t r1[S];
  call(d_x, d_off, S, GPUREDUCE_U8, GPUREDUCE_MAX, r1, "u8 MAX");
  check_bits(255, r1[1], "u8 MAX of segment 1");
  check_bits(0, r1[2], "u8 MAX of the empty segment 2: 0, the lowest u8");
  call(d_x, d_off, S, GPUREDUCE_U8, GPUREDUCE_MIN, r1, "u8 MIN");
  check_bits(0, r1[1], "u8 MIN of segment 1");
  check_bits(4, r1[0], "u8 MIN of segment 0 (4 5 6 7 8)");

  /* the 1-D call on a copy of segment 1 */
  uint8_t *d_copy = dmalloc(len[1]);
  CK(cudaMemcpy(d_copy, d_x + off[1], len[1], cudaMemcpyDeviceToDevice));
  call(d_x, d_off, S, GPUREDUCE_U8, GPUREDUCE_SUM, r8, "u8 SUM again");
  check_bits(reduce_1d(d_copy, len[1], GPUREDUCE_U8, GPUREDUCE_SUM, "u8 copy"), r8[1],
             "u8 SUM of segment 1: the bits of the 1-D call on its copy");
  call(d_x, d_off, S, GPUREDUCE_U8, GPUREDUCE_ARGMAX, r8, "u8 ARGMAX again");
  check_bits(reduce_1d(d_copy, len[1], GPUREDUCE_U8, GPUREDUCE_ARGMAX, "u8 copy"), r8[1],
             "u8 ARGMAX of segment 1: the 1-D call's index on its copy");
  for (size_t s = 0; s < S; s += 3)
    check_bits(reduce_1d(d_x + off[s], len[s], GPUREDUCE_U8, GPUREDUCE_ARGMAX, "short"), r8[s],
               "u8 ARGMAX of short segment %zu: the 1-D call's", s);
  cudaFree(d_copy);
  cudaFree(d_x);

  /* f16: random halves, repeated in blocks of an odd length */
  const size_t block16 = ((size_t)1 << 20) + 17;
  uint16_t *h = tu_alloc(block16 * sizeof *h);
  tu_rng r;
  tu_rng_init(&r, "huge segment f16");
  tc_fill(&r, GPUREDUCE_F16, G_WIDE, h, block16);
  uint16_t *d_h = dmalloc(total * sizeof *d_h);
  fill_repeated(d_h, total, 2, h, block16);
  float rf[S];
  call(d_h, d_off, S, GPUREDUCE_F16, GPUREDUCE_SUM, rf, "f16 SUM, a segment of 2^32 + 4099");
  uint16_t *d_hc = dmalloc(len[1] * sizeof *d_hc);
  CK(cudaMemcpy(d_hc, d_h + off[1], len[1] * sizeof *d_hc, cudaMemcpyDeviceToDevice));
  uint32_t bits;
  memcpy(&bits, &rf[1], 4);
  check_bits(reduce_1d(d_hc, len[1], GPUREDUCE_F16, GPUREDUCE_SUM, "f16 copy"), bits,
             "f16 SUM of segment 1: the bits of the 1-D call on its copy");
  for (size_t s = 0; s < S; s += 3) {
    memcpy(&bits, &rf[s], 4);
    check_bits(reduce_1d(d_h + off[s], len[s], GPUREDUCE_F16, GPUREDUCE_SUM, "short"), bits,
               "f16 SUM of short segment %zu: the 1-D call's bits", s);
  }
  memcpy(&bits, &rf[2], 4);
  check_bits(0, bits, "f16 SUM of the empty segment 2 is +0");
  cudaFree(d_hc);
  cudaFree(d_h);
  cudaFree(d_off);
  free(h);
}

/* ---- 2^28 segments ----------------------------------------------------------- */

/* -0 + a, then + b, in float: lane 0 of doc/ORDER.md for a segment of one
 * or two elements (every other lane is -0, which changes nothing); +0
 * when empty (rule 6). */
__attribute__((noinline)) static float add_f(float a, float b) { return a + b; }

static void many_segments(void **state) {
  (void)state;
  const size_t S = (size_t)1 << 28;
  uint64_t *off = tu_alloc((S + 1) * sizeof *off);
  tu_rng r;
  tu_rng_init(&r, "2^28 segments");
  off[0] = 0;
  for (size_t s = 0; s < S; ++s) {
    const uint64_t u = tu_next(&r);
    off[s + 1] = off[s] + ((u & 15) == 0 ? 0 : 1 + (u >> 4 & 1)); /* 0 (1 in 16), 1 or 2 */
  }
  const size_t n = (size_t)off[S];
  uint64_t *d_off = dmalloc((S + 1) * sizeof *off);
  CK(cudaMemcpy(d_off, off, (S + 1) * sizeof *off, cudaMemcpyHostToDevice));

  /* u8 sums */
  uint8_t *x = tu_alloc(n);
  for (size_t i = 0; i < n; i += 8) {
    const uint64_t u = tu_next(&r);
    memcpy(x + i, &u, n - i < 8 ? n - i : 8);
  }
  uint8_t *d_x = dmalloc(n);
  CK(cudaMemcpy(d_x, x, n, cudaMemcpyHostToDevice));
  uint64_t *res = tu_alloc(S * sizeof *res);
  call(d_x, d_off, S, GPUREDUCE_U8, GPUREDUCE_SUM, res, "u8 SUM of 2^28 segments");
  size_t bad = 0, first_bad = S;
  for (size_t s = 0; s < S; ++s) {
    uint64_t w = 0;
    for (uint64_t i = off[s]; i < off[s + 1]; ++i) w += x[i];
    if (w != res[s] && bad++ == 0) first_bad = s;
  }
  check_true(bad == 0, "u8 SUM of 2^28 segments of 0 .. 2: every sum exact (%zu wrong, the "
                       "first segment %zu)", bad, first_bad);
  uint64_t *hres = tu_alloc(S * sizeof *hres);
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_segments(x, hres, off, S, GPUREDUCE_U8, GPUREDUCE_SUM, 0, HH),
               "the host backend's u8 SUM of 2^28 segments");
  check_true(memcmp(hres, res, S * sizeof *res) == 0,
             "u8 SUM of 2^28 segments: the host backend's bits");
  free(hres);
  for (size_t k = 0; k < 1000; ++k) {
    const size_t s = (size_t)tu_below(&r, S);
    check_bits(reduce_1d(d_x + off[s], (size_t)(off[s + 1] - off[s]), GPUREDUCE_U8,
                         GPUREDUCE_SUM, "u8 sample"),
               res[s], "u8 SUM of segment %zu: the 1-D call's bits", s);
  }
  cudaFree(d_x);
  free(x);

  /* f16 sums and argmaxes of finite halves */
  uint16_t *hx = tu_alloc(n * sizeof *hx);
  tc_fill(&r, GPUREDUCE_F16, G_WIDE, hx, n);
  uint16_t *d_h = dmalloc(n * sizeof *d_h);
  CK(cudaMemcpy(d_h, hx, n * sizeof *hx, cudaMemcpyHostToDevice));
  float *fres = (float *)res; /* (room for 2^28 results of 8 bytes) */
  call(d_h, d_off, S, GPUREDUCE_F16, GPUREDUCE_SUM, fres, "f16 SUM of 2^28 segments");
  bad = 0;
  first_bad = S;
  for (size_t s = 0; s < S; ++s) {
    float w = 0.0f;
    if (off[s + 1] > off[s]) {
      w = -0.0f;
      for (uint64_t i = off[s]; i < off[s + 1]; ++i) w = add_f(w, (float)tu_f16_value(hx[i]));
    }
    if (tu_f32_bits(w) != tu_f32_bits(fres[s]) && bad++ == 0) first_bad = s;
  }
  check_true(bad == 0, "f16 SUM of 2^28 segments of 0 .. 2: every sum has the bits of "
                       "doc/ORDER.md (%zu wrong, the first segment %zu)", bad, first_bad);
  call(d_h, d_off, S, GPUREDUCE_F16, GPUREDUCE_ARGMAX, res, "f16 ARGMAX of 2^28 segments");
  bad = 0;
  first_bad = S;
  for (size_t s = 0; s < S; ++s) {
    const size_t m = (size_t)(off[s + 1] - off[s]);
    uint64_t w = GPUREDUCE_NO_INDEX;
    if (m == 1) w = 0;
    if (m == 2) /* ties (-0 == +0 too) go to the lower index */
      w = tu_f16_value(hx[off[s] + 1]) > tu_f16_value(hx[off[s]]) ? 1 : 0;
    if (w != res[s] && bad++ == 0) first_bad = s;
  }
  check_true(bad == 0, "f16 ARGMAX of 2^28 segments of 0 .. 2: every index (%zu wrong, the "
                       "first segment %zu)", bad, first_bad);
  cudaFree(d_h);
  cudaFree(d_off);
  free(hx);
  free(res);
  free(off);
}

int main(void) {
  /* the largest case: two copies of 2^32 + 5103 halves, 17.2 GB */
  if (!tu_cuda_start(24 * GIB)) return 0;
  setenv("GPUREDUCE_TUNE", "off", 1);
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {cmocka_unit_test(huge_segment),
                                     cmocka_unit_test(many_segments)};
  return cmocka_run_group_tests_name("test-huge-segments", tests, setup, teardown);
}
