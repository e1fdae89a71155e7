/*
 * test-partial.c - the partial-result battery (tests/lib/partial.h) on
 * CUDA device 0, where every partial is also made on the host handle and
 * must be the same bytes, and CUDA and host partials combine together on
 * either handle; and what only a CUDA handle has:
 *   - memory spaces: host input or output on the CUDA handle, device
 *     input or output on the host handle, refused;
 *   - more kinds past 16384 tiles (groups of four tiles in
 *     gpureduce_reduce()).
 * Partials past 2^32 elements, which need 6 GiB of device memory, are a
 * program of their own: tests/cuda/test-huge-partial.c.
 *
 * Without a usable CUDA device it prints "1..0 # SKIP no CUDA device".
 * GPUREDUCE_TEST_QUICK=1 (the sanitizer runs) leaves out the long cases,
 * cuda_partial_large and PARTIAL_LONG_TESTS, with a TAP comment.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "partial.h"
#include "segments.h" /* sg_quick: GPUREDUCE_TEST_QUICK */

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

/* Past 16384 tiles: groups of four tiles in gpureduce_reduce().  Not in
 * quick mode. */
static void cuda_partial_large(void **state) {
  (void)state;
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

int main(void) {
  if (!tu_cuda_start(0)) return 0;
  setenv("GPUREDUCE_TUNE", "off", 1);
  cmocka_set_message_output(CM_OUTPUT_TAP);
  partial_use(&bt_cuda_backend);
  struct CMUnitTest tests[] = {
      cmocka_unit_test(cuda_partial_memory_spaces),
      cmocka_unit_test(cuda_partial_large),
      PARTIAL_TESTS, /* (pt_damaged_headers last) */
  };
  size_t count = COUNT(tests);
  if (sg_quick()) {
    static const CMUnitTestFunction long_tests[] = {cuda_partial_large, PARTIAL_LONG_TESTS};
    count = tu_leave_out(tests, count, long_tests, COUNT(long_tests), "GPUREDUCE_TEST_QUICK");
  }
  return _cmocka_run_group_tests("test-partial (CUDA)", tests, count, partial_setup,
                                 partial_teardown);
}
