/*
 * test-batched.c - the batched battery (tests/lib/batched.c) on CUDA
 * device 0, where every result is also compared bit for bit with the host
 * backend's, and what only a CUDA handle has: batches beyond 2^16 short
 * vectors, a few vectors of 2^24 + 5 elements, host memory refused, and
 * a batched call captured in a CUDA graph as one kernel.
 *
 * Without a usable CUDA device it prints "1..0 # SKIP no CUDA device".
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "batched.h"
#include "graph.h"

/* Beyond 2^16 vectors, and few long ones. */
static void cuda_large_shapes(void **state) {
  (void)state;
  static const struct bb_kind kinds[] = {{GPUREDUCE_F32, GPUREDUCE_SUM, 0},
               {GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
               {GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0},
               {GPUREDUCE_F16, GPUREDUCE_SUM, 0},
               {GPUREDUCE_BF16, GPUREDUCE_MAX, 0},
               {GPUREDUCE_U8, GPUREDUCE_SUM, 0},
               {GPUREDUCE_I64, GPUREDUCE_ARGMIN, 0}};
  const size_t short_n[] = {1, 3, 17, 100};
  for (size_t k = 0; k < COUNT(kinds); ++k) {
    const gpureduce_type_t type = kinds[k].type;
    for (size_t si = 0; si < COUNT(short_n); ++si) {
      const struct bb_shape rows = bb_layout(BB_MISALIGNED, type, 70001, short_n[si], 0);
      bb_check_random(&rows, type, kinds[k].op, kinds[k].flags, "70001 short rows");
      const struct bb_shape cols = bb_layout(BB_COLUMNS, type, 70001, short_n[si], 0);
      bb_check_random(&cols, type, kinds[k].op, kinds[k].flags, "70001 short columns");
    }
  }
  /* 3 rows of 2^24 + 5 floats; 5 of 2^22 + 1 at ld = n + 1 */
  for (size_t k = 0; k < 3; ++k) {
    const struct bb_shape sh = bb_layout(BB_DENSE, GPUREDUCE_F32, 3, ((size_t)1 << 24) + 5, 0);
    bb_check_random(&sh, GPUREDUCE_F32, kinds[k].op, kinds[k].flags, "3 long rows");
  }
  const struct bb_shape mis =
      bb_layout(BB_MISALIGNED, GPUREDUCE_F16, 5, ((size_t)1 << 22) + 1, 3);
  bb_check_random(&mis, GPUREDUCE_F16, GPUREDUCE_SUM, 0, "5 long misaligned rows");
}

static void cuda_batched_memory_spaces(void **state) {
  (void)state;
  gpureduce_handle_t h = battery_handle();
  enum { N = 1024 };
  float *host = tu_alloc(N * sizeof *host), *dev = NULL;
  unsigned char *d_out = NULL, ob[64];
  for (int i = 0; i < N; ++i) host[i] = (float)(i % 13);
  CK(cudaMalloc((void **)&dev, N * sizeof *dev));
  CK(cudaMalloc((void **)&d_out, sizeof ob));
  CK(cudaMemcpy(dev, host, N * sizeof *dev, cudaMemcpyHostToDevice));
  memset(ob, 0xC3, sizeof ob);
  CK(cudaMemcpy(d_out, ob, sizeof ob, cudaMemcpyHostToDevice));
  check_status(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
               gpureduce_reduce_batched(host, d_out, 4, 16, 16, 1, GPUREDUCE_F32, GPUREDUCE_SUM,
                                        0, h),
               "host input to a CUDA handle");
  check_true(*gpureduce_last_message(h) != '\0', "host input: the message says why");
  /* rows from the last one up: the lowest element is what is checked */
  check_status(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
               gpureduce_reduce_batched(host + 48, d_out, 4, 16, -16, 1, GPUREDUCE_F32,
                                        GPUREDUCE_SUM, 0, h),
               "host input, negative batch_stride, to a CUDA handle");
  CK(cudaMemcpy(ob, d_out, sizeof ob, cudaMemcpyDeviceToHost));
  check_bytes(ob, 0xC3, sizeof ob, "host input: the device output is untouched");
  memset(ob, 0xC3, sizeof ob);
  check_status(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
               gpureduce_reduce_batched(dev, ob, 4, 16, 16, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
                                        h),
               "host output from a CUDA handle");
  check_bytes(ob, 0xC3, sizeof ob, "host output: untouched");
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_batched(dev, d_out, 4, 16, 16, 1, GPUREDUCE_F32, GPUREDUCE_SUM,
                                        0, h),
               "device input and output after the errors");
  CK(cudaMemcpy(ob, d_out, sizeof ob, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 4; ++b) {
    float sum = 0; /* small integers: exact in any order */
    for (int i = 0; i < 16; ++i) sum += host[16 * b + i];
    check_bits(tu_f32_bits(sum), tu_load(ob, (size_t)b, 4), "row %d's sum after the errors", b);
  }
  cudaFree(dev);
  cudaFree(d_out);
  free(host);
}

/* Captured in a CUDA graph (global mode: an allocation or a
 * synchronization during the capture would end it): one kernel node, and
 * replays give the host backend's bits. */
static void cuda_batched_graph(void **state) {
  (void)state;
  const size_t batch = 1000, n = 333;
  float *x = tu_alloc(batch * n * sizeof *x);
  tu_rng r;
  tu_rng_init(&r, "batched graph");
  tc_fill(&r, GPUREDUCE_F32, G_WIDE, x, batch * n);
  float *d_x = NULL, *d_out = NULL, *want = tu_alloc(batch * sizeof *want);
  float *back = tu_alloc(batch * sizeof *back);
  gpureduce_handle_t h = NULL, hh = NULL;
  cudaStream_t s;
  CK(cudaMalloc((void **)&d_x, batch * n * sizeof *x));
  CK(cudaMalloc((void **)&d_out, batch * sizeof *d_out));
  CK(cudaMemcpy(d_x, x, batch * n * sizeof *x, cudaMemcpyHostToDevice));
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&h, 0), "create a CUDA handle");
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&hh, GPUREDUCE_DEVICE_HOST),
               "create a host handle");
  check_status(GPUREDUCE_SUCCESS, gpureduce_set_stream(h, s), "set the handle's stream");
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_batched(x, want, batch, n, (int64_t)n, 1, GPUREDUCE_F32,
                                        GPUREDUCE_SUM, 0, hh),
               "the host backend's row sums");
  CK(cudaDeviceSynchronize());

  struct tu_graph g;
  tu_graph_begin(&g, s);
  const gpureduce_status_t st = gpureduce_reduce_batched(
      d_x, d_out, batch, n, (int64_t)n, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0, h);
  tu_graph_end(&g);
  check_status(GPUREDUCE_SUCCESS, st, "gpureduce_reduce_batched during capture (%s)",
               gpureduce_last_message(h));
  tu_graph_instantiate(&g, "the batched call", 1, "one node, the batched call's kernel", 1);
  for (int replay = 0; replay < 2; ++replay) {
    CK(cudaMemset(d_out, 0xff, batch * sizeof *d_out));
    CK(cudaDeviceSynchronize());
    tu_graph_launch(&g);
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(back, d_out, batch * sizeof *back, cudaMemcpyDeviceToHost));
    for (size_t b = 0; b < batch; ++b)
      check_bits(tu_f32_bits(want[b]), tu_f32_bits(back[b]),
                 "replay %d: row %zu's sum has the host backend's bits", replay, b);
  }
  tu_graph_destroy(&g);
  check_status(GPUREDUCE_SUCCESS, gpureduce_destroy(h), "destroy the CUDA handle");
  check_status(GPUREDUCE_SUCCESS, gpureduce_destroy(hh), "destroy the host handle");
  CK(cudaStreamDestroy(s));
  cudaFree(d_x);
  cudaFree(d_out);
  free(x);
  free(want);
  free(back);
}

int main(void) {
  if (!tu_cuda_start(0)) return 0;
  setenv("GPUREDUCE_TUNE", "off", 1);
  cmocka_set_message_output(CM_OUTPUT_TAP);
  batched_use(&bt_cuda_backend);
  const struct CMUnitTest tests[] = {
      BATCHED_TESTS,
      cmocka_unit_test(cuda_large_shapes),
      cmocka_unit_test(cuda_batched_memory_spaces),
      cmocka_unit_test(cuda_batched_graph),
  };
  return cmocka_run_group_tests_name("test-batched (CUDA)", tests, batched_setup,
                                     batched_teardown);
}
