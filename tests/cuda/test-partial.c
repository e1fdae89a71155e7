/*
 * test-partial.c - the partial-result battery (tests/lib/partial.h) on
 * CUDA device 0, where every partial is also made on the host handle and
 * must be the same bytes, and CUDA and host partials combine together on
 * either handle; and what only a CUDA handle has:
 *   - memory spaces: host input or output on the CUDA handle, device
 *     input or output on the host handle, refused;
 *   - more kinds past 16384 tiles (groups of four tiles in
 *     gpureduce_reduce());
 *   - past 2^32 elements (when 6 GiB of device memory are free): 2^32 +
 *     70001 bytes in three parts cut inside tiles, u8 and i8 SUM, ARGMIN
 *     and ARGMAX with the winners planted at and past 2^32, against
 *     gpureduce_reduce() of the whole array and answers computed here.
 *     A few seconds on an H200.
 *
 * Without a usable CUDA device it prints "1..0 # SKIP no CUDA device".
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "partial.h"
#include "segments.h" /* sg_quick */

#define GIB ((size_t)1 << 30)
#define TWO32 ((uint64_t)1 << 32)
#define FILL 0xC3

/* Host memory given to the CUDA handle and device memory to the host
 * handle: the input of gpureduce_partial_reduce() and the output of
 * gpureduce_partial_combine(). */
static void cuda_partial_memory_spaces(void **state) {
  (void)state;
  const gpureduce_handle_t h = battery_handle(), hh = battery_host_handle();
  enum { N = 1000 };
  float *host = tu_alloc(N * sizeof *host), *dev = NULL;
  for (int i = 0; i < N; ++i) host[i] = (float)(i % 17) - 8;
  unsigned char *d_out = NULL, ob[64], *p = tu_alloc(GPUREDUCE_PARTIAL_MAX_BYTES);
  CK(cudaMalloc((void **)&dev, N * sizeof *dev));
  CK(cudaMalloc((void **)&d_out, sizeof ob));
  CK(cudaMemcpy(dev, host, N * sizeof *dev, cudaMemcpyHostToDevice));
  const size_t bytes = gpureduce_partial_bytes(N, 0, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0);

  memset(p, 0xA5, bytes);
  gpureduce_status_t s =
      gpureduce_partial_reduce(host, p, N, 0, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, h);
  check_status(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE, s,
               "gpureduce_partial_reduce() of host input on the CUDA handle");
  check_bytes(p, 0xA5, bytes, "host input on the CUDA handle: the partial is untouched");
  check_true(*gpureduce_last_message(h), "host input on the CUDA handle: a message says why");
  s = gpureduce_partial_reduce(dev, p, N, 0, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, hh);
  check_status(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE, s,
               "gpureduce_partial_reduce() of device input on the host handle");
  check_bytes(p, 0xA5, bytes, "device input on the host handle: the partial is untouched");
  check_true(*gpureduce_last_message(hh), "device input on the host handle: a message says why");

  check_status(GPUREDUCE_SUCCESS,
               gpureduce_partial_reduce(dev, p, N, 0, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, h),
               "the partial of the whole array on the CUDA handle");
  memset(ob, FILL, sizeof ob);
  s = gpureduce_partial_combine(p, bytes, ob, h);
  check_status(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE, s,
               "gpureduce_partial_combine() into host output on the CUDA handle");
  check_bytes(ob, FILL, sizeof ob, "host output on the CUDA handle: untouched");
  check_true(*gpureduce_last_message(h), "host output on the CUDA handle: a message says why");
  CK(cudaMemcpy(d_out, ob, sizeof ob, cudaMemcpyHostToDevice));
  s = gpureduce_partial_combine(p, bytes, d_out, hh);
  check_status(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE, s,
               "gpureduce_partial_combine() into device output on the host handle");
  CK(cudaMemcpy(ob, d_out, sizeof ob, cudaMemcpyDeviceToHost));
  check_bytes(ob, FILL, sizeof ob, "device output on the host handle: untouched");

  /* after the errors: device output on the CUDA handle, host output on
   * the host handle, both the sum of small integers (exact) */
  float want = 0, got = -1;
  for (int i = 0; i < N; ++i) want += host[i];
  check_status(GPUREDUCE_SUCCESS, gpureduce_partial_combine(p, bytes, d_out, h),
               "the combine into device output on the CUDA handle");
  CK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  check_bits(tu_f32_bits(want), tu_f32_bits(got), "the sum of 1000 small integers, on the device");
  got = -1;
  check_status(GPUREDUCE_SUCCESS, gpureduce_partial_combine(p, bytes, &got, hh),
               "the combine of the CUDA partial into host output on the host handle");
  check_bits(tu_f32_bits(want), tu_f32_bits(got), "the sum of 1000 small integers, on the host");
  cudaFree(dev);
  cudaFree(d_out);
  free(host);
  free(p);
}

/* Past 16384 tiles: groups of four tiles in gpureduce_reduce(). */
static void cuda_partial_large(void **state) {
  (void)state;
  if (sg_quick()) skip(); /* (GPUREDUCE_TEST_QUICK) */
  static const enum pt_family fams[] = {PT_RANDOM, PT_ODD_TILES, PT_NEAR_TILES};
  static const struct {
    gpureduce_type_t type;
    gpureduce_op_t op;
    unsigned flags;
  } kinds[] = {{GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
               {GPUREDUCE_F32, GPUREDUCE_SUM, 0},
               {GPUREDUCE_F64, GPUREDUCE_MEAN_VAR, 0},
               {GPUREDUCE_F32, GPUREDUCE_ARGMIN, GPUREDUCE_WITH_VALUE}};
  for (size_t i = 0; i < COUNT(kinds); ++i)
    pt_check_random(kinds[i].type, kinds[i].op, kinds[i].flags,
                    16389 * tu_tile_elems(kinds[i].type) + 1001, fams, COUNT(fams),
                    "groups of four tiles");
}

/* ---- past 2^32 ------------------------------------------------------------------ */

/* Reduce the three parts of d (N bytes, cut at c1 and c2) on the CUDA
 * handle, combine them on it (device output) and on the host handle, and
 * compare both with gpureduce_reduce() of the whole array and with want
 * (the first 8 bytes; with the value, the element is checked by the
 * caller through value). */
static void huge_case(const unsigned char *d, uint64_t N, uint64_t c1, uint64_t c2,
                      gpureduce_type_t type, gpureduce_op_t op, unsigned flags, uint64_t want,
                      uint64_t value, const char *what) {
  const gpureduce_handle_t h = battery_handle(), hh = battery_host_handle();
  const uint64_t cuts[4] = {0, c1, c2, N};
  const size_t rs = gpureduce_result_size(type, op, flags);
  unsigned char *cat = tu_alloc(3 * GPUREDUCE_PARTIAL_MAX_BYTES);
  size_t total = 0;
  for (int k = 0; k < 3; ++k) {
    const uint64_t nl = cuts[k + 1] - cuts[k];
    const size_t bytes = gpureduce_partial_bytes(nl, cuts[k], N, type, op, flags);
    check_true(bytes > 0 && bytes % 8 == 0 && bytes <= GPUREDUCE_PARTIAL_MAX_BYTES,
               "%s: part %d's partial has %zu bytes, a multiple of 8 and at most "
               "GPUREDUCE_PARTIAL_MAX_BYTES", what, k, bytes);
    const gpureduce_status_t s = gpureduce_partial_reduce(d + cuts[k], cat + total, (size_t)nl,
                                                          cuts[k], N, type, op, flags, h);
    check_status(GPUREDUCE_SUCCESS, s, "%s: part %d (%" PRIu64 " elements from %" PRIu64 ") (%s)",
                 what, k, nl, cuts[k], s ? gpureduce_last_message(h) : "");
    total += bytes;
  }
  /* the whole array, and the combines */
  unsigned char *d_out = NULL, ob[3][16 + 64];
  CK(cudaMalloc((void **)&d_out, 2 * sizeof ob[0]));
  memset(ob, FILL, sizeof ob);
  CK(cudaMemcpy(d_out, ob, 2 * sizeof ob[0], cudaMemcpyHostToDevice));
  gpureduce_status_t s = gpureduce_reduce(d, d_out, (size_t)N, type, op, flags, h);
  check_status(GPUREDUCE_SUCCESS, s, "%s: gpureduce_reduce() of the whole array (%s)", what,
               s ? gpureduce_last_message(h) : "");
  s = gpureduce_partial_combine(cat, total, d_out + sizeof ob[0], h);
  check_status(GPUREDUCE_SUCCESS, s, "%s: the combine on the CUDA handle (%s)", what,
               s ? gpureduce_last_message(h) : "");
  CK(cudaMemcpy(ob, d_out, 2 * sizeof ob[0], cudaMemcpyDeviceToHost));
  _Alignas(16) unsigned char hb[16 + 64];
  memset(hb, FILL, sizeof hb);
  s = gpureduce_partial_combine(cat, total, hb, hh);
  check_status(GPUREDUCE_SUCCESS, s, "%s: the combine of the CUDA partials on the host handle (%s)",
               what, s ? gpureduce_last_message(hh) : "");
  const bt_result whole = bt_result_at(ob[0], 0, rs);
  check_bits(want, whole.w[0], "%s: gpureduce_reduce() of the whole array, the answer "
             "computed here", what);
  if (flags & GPUREDUCE_WITH_VALUE)
    check_bits(value, whole.w[1], "%s: the value of the winning element", what);
  check_result(whole, bt_result_at(ob[1], 0, rs), rs,
               "%s: the partials combined on the CUDA handle have the bits of the whole array's "
               "reduction", what);
  check_bytes(ob[1] + rs, FILL, 64, "%s: the combine wrote only its result", what);
  check_result(whole, bt_result_at(hb, 0, rs), rs,
               "%s: the CUDA partials combined on the host handle have the same bits", what);
  cudaFree(d_out);
  free(cat);
}

static void cuda_partial_huge(void **state) {
  (void)state;
  if (sg_quick()) skip(); /* (GPUREDUCE_TEST_QUICK) */
  size_t free_bytes = 0, total_bytes = 0;
  CK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < 6 * GIB) {
    print_message("# %zu MiB of device memory free, the test past 2^32 needs 6 GiB\n",
                  free_bytes >> 20);
    skip();
  }
  const uint64_t N = TWO32 + 70001, c1 = ((uint64_t)1 << 31) + 12345, c2 = TWO32 + 777;
  check_true(c1 % 32768 != 0 && c2 % 32768 != 0 && (N - c2) > 32768,
             "the cuts lie inside u8 tiles, the last part past 2^32 spans tiles");
  unsigned char *d = NULL;
  CK(cudaMalloc((void **)&d, (size_t)N));
  CK(cudaMemset(d, 1, (size_t)N));
  /* planted bytes; every other byte is 1 */
  const struct {
    uint64_t i;
    unsigned char v;
  } sp[] = {{c1 - 1, 7},        {c1, 9},         {c1 + 1, 200},        {c2 - 1, 0x80},
            {c2, 255},          {TWO32 + 5000, 255}, {TWO32 + 3333, 127}, {N - 1, 127},
            {TWO32 + 4444, 0}, {N - 2, 0},      {5, 130}};
  uint64_t u_sum = N, i_sum = N;
  for (size_t k = 0; k < COUNT(sp); ++k) {
    CK(cudaMemcpy(d + sp[k].i, &sp[k].v, 1, cudaMemcpyHostToDevice));
    u_sum += (uint64_t)sp[k].v - 1;
    i_sum += (uint64_t)((int64_t)(int8_t)sp[k].v - 1);
  }
  huge_case(d, N, c1, c2, GPUREDUCE_U8, GPUREDUCE_SUM, 0, u_sum,
            0, "u8 sum of 2^32 + 70001 bytes in three parts");
  huge_case(d, N, c1, c2, GPUREDUCE_I8, GPUREDUCE_SUM, 0, i_sum, 0,
            "i8 sum of 2^32 + 70001 bytes in three parts");
  huge_case(d, N, c1, c2, GPUREDUCE_U8, GPUREDUCE_ARGMAX, 0, c2, 0,
            "u8 argmax: the first 255, at the cut 2^32 + 777");
  huge_case(d, N, c1, c2, GPUREDUCE_U8, GPUREDUCE_ARGMAX, GPUREDUCE_WITH_VALUE, c2, 255,
            "u8 argmax with its value: 255 at 2^32 + 777");
  huge_case(d, N, c1, c2, GPUREDUCE_U8, GPUREDUCE_ARGMIN, 0, TWO32 + 4444, 0,
            "u8 argmin: the first 0, at 2^32 + 4444");
  huge_case(d, N, c1, c2, GPUREDUCE_I8, GPUREDUCE_ARGMAX, 0, TWO32 + 3333, 0,
            "i8 argmax: the first 127, at 2^32 + 3333");
  huge_case(d, N, c1, c2, GPUREDUCE_I8, GPUREDUCE_ARGMIN, 0, c2 - 1, 0,
            "i8 argmin: -128 just before the cut 2^32 + 777");
  cudaFree(d);
}

int main(void) {
  if (!tu_cuda_start(0)) return 0;
  setenv("GPUREDUCE_TUNE", "off", 1);
  cmocka_set_message_output(CM_OUTPUT_TAP);
  partial_use(&bt_cuda_backend);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cuda_partial_memory_spaces),
      cmocka_unit_test(cuda_partial_large),
      cmocka_unit_test(cuda_partial_huge),
      PARTIAL_TESTS, /* (pt_damaged_headers last) */
  };
  return cmocka_run_group_tests_name("test-partial (CUDA)", tests, partial_setup,
                                     partial_teardown);
}
