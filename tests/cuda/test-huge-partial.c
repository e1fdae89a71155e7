/*
 * test-huge-partial.c - partial results past 2^32 elements on CUDA device
 * 0: 2^32 + 70001 bytes in three parts cut inside tiles, u8 and i8 SUM,
 * ARGMIN and ARGMAX with the winners planted at and past 2^32, each part
 * reduced on the CUDA handle and the partials combined on it and on the
 * host handle, against gpureduce_reduce() of the whole array and answers
 * computed here.  A few seconds on an H200.
 *
 * A program of its own, like test-huge, so that it skips as a whole
 * ("1..0 # SKIP ...") without a CUDA device, with less than 6 GiB of
 * device memory free, and under GPUREDUCE_TEST_QUICK=1 (the sanitizer
 * runs), which it is too long for.  The rest of the partial-result tests
 * on CUDA are tests/cuda/test-partial.c.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "battery.h"
#include "segments.h" /* sg_quick: GPUREDUCE_TEST_QUICK */

#define GIB ((size_t)1 << 30)
#define TWO32 ((uint64_t)1 << 32)
#define FILL 0xC3

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
  if (!tu_cuda_start(6 * GIB)) return 0;
  if (sg_quick()) {
    printf("1..0 # SKIP GPUREDUCE_TEST_QUICK is set; partials past 2^32 are a long test\n");
    return 0;
  }
  setenv("GPUREDUCE_TUNE", "off", 1);
  cmocka_set_message_output(CM_OUTPUT_TAP);
  battery_use(&bt_cuda_backend);
  const struct CMUnitTest tests[] = {cmocka_unit_test(cuda_partial_huge)};
  return cmocka_run_group_tests_name("test-huge-partial", tests, battery_setup, battery_teardown);
}
