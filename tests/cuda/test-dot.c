/*
 * test-dot.c - the dot product battery (tests/lib/dot.c) on CUDA device 0,
 * where every result is also compared bit for bit with the host backend's,
 * and what only a CUDA handle has: more than 8192 tiles (several blocks
 * and the last block's root tree), 70001 short rows, host memory refused,
 * and a dot product captured in a CUDA graph as one kernel.
 *
 * Without a usable CUDA device it prints "1..0 # SKIP no CUDA device".
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "dot.h"
#include "graph.h"

/* Long vectors (beyond GR_MAX_ROOTS tiles: groups of two tiles and more)
 * at independent misalignments, and many short rows. */
static void cuda_dot_large_shapes(void **state) {
  (void)state;
  const size_t n = ((size_t)1 << 26) + 12345; /* 8194 f32 tiles */
  dt_check_shape(1, n, 0, 0, 1, 3, 1, GPUREDUCE_F32, 0, "2^26 + 12345 floats, offsets 1 and 3");
  dt_check_shape(1, n / 2, 0, 0, 0, 1, 1, GPUREDUCE_F64, 0, "2^25 + 6172 doubles, offsets 0, 1");
  dt_check_shape(1, n, 0, 0, 2, 2, 1, GPUREDUCE_F32, GPUREDUCE_ACCUMULATE_F64,
                 "2^26 + 12345 floats in double");
  dt_check_shape(1, 2 * n, 0, 0, 7, 0, 1, GPUREDUCE_BF16, 0, "2^27 + 24690 bf16");
  dt_check_shape(1, 4 * n + 3, 0, 0, 5, 11, 1, GPUREDUCE_I8, 0, "2^28 + 49383 i8");
  dt_check_shape(70001, 3, 4, 3, 1, 0, 0, GPUREDUCE_F32, 0, "70001 rows of 3");
  dt_check_shape(70001, 100, 101, -100, 0, 0, 0, GPUREDUCE_F64, 0, "70001 rows of 100");
  dt_check_shape(3, ((size_t)1 << 24) + 5, ((int64_t)1 << 24) + 6, 0, 1, 0, 0, GPUREDUCE_F32, 0,
                 "3 rows of 2^24 + 5 against one vector");
}

/* Host memory given to a CUDA handle, for x, for y and for the output. */
static void cuda_dot_memory_spaces(void **state) {
  (void)state;
  const gpureduce_handle_t h = battery_handle();
  enum { N = 1024 };
  float *host = tu_alloc(N * sizeof *host), *dev = NULL;
  unsigned char *d_out = NULL, ob[64];
  for (int i = 0; i < N; ++i) host[i] = (float)(i % 13) - 6;
  CK(cudaMalloc((void **)&dev, N * sizeof *dev));
  CK(cudaMalloc((void **)&d_out, sizeof ob));
  CK(cudaMemcpy(dev, host, N * sizeof *dev, cudaMemcpyHostToDevice));
  memset(ob, 0xC3, sizeof ob);
  CK(cudaMemcpy(d_out, ob, sizeof ob, cudaMemcpyHostToDevice));
  check_status(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
               gpureduce_dot(host, dev, d_out, N, GPUREDUCE_F32, 0, h), "host x to a CUDA handle");
  check_true(strncmp(gpureduce_last_message(h), "x (", 3) == 0 &&
                 tu_mentions(gpureduce_last_message(h), "is host memory"),
             "host x: the message names x, its first element, and host memory (%s)",
             gpureduce_last_message(h));
  check_status(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
               gpureduce_dot(dev, host, d_out, N, GPUREDUCE_F32, 0, h), "host y to a CUDA handle");
  check_true(strncmp(gpureduce_last_message(h), "y (", 3) == 0 &&
                 tu_mentions(gpureduce_last_message(h), "is host memory"),
             "host y: the message names y, its first element, and host memory (%s)",
             gpureduce_last_message(h));
  check_status(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
               gpureduce_dot_batched(dev, host + 48, d_out, 4, 16, 16, -16, GPUREDUCE_F32, 0, h),
               "host y, negative stride, batched, to a CUDA handle");
  check_true(tu_mentions(gpureduce_last_message(h), "y (its lowest element)"),
             "host y, negative stride: the message names y's lowest element (%s)",
             gpureduce_last_message(h));
  CK(cudaMemcpy(ob, d_out, sizeof ob, cudaMemcpyDeviceToHost));
  check_bytes(ob, 0xC3, sizeof ob, "host inputs: the device output is untouched");
  memset(ob, 0xC3, sizeof ob);
  check_status(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
               gpureduce_dot(dev, dev, ob, N, GPUREDUCE_F32, 0, h), "host output from a CUDA handle");
  check_bytes(ob, 0xC3, sizeof ob, "host output: untouched");
  check_status(GPUREDUCE_SUCCESS, gpureduce_dot(dev, dev, d_out, N, GPUREDUCE_F32, 0, h),
               "device inputs and output after the errors");
  CK(cudaMemcpy(ob, d_out, sizeof ob, cudaMemcpyDeviceToHost));
  float want = 0; /* small integers: exact in any order */
  for (int i = 0; i < N; ++i) want += host[i] * host[i];
  check_bits(tu_f32_bits(want), tu_load(ob, 0, 4), "dot(x, x) after the errors");
  cudaFree(dev);
  cudaFree(d_out);
  free(host);
}

/* Captured in a CUDA graph (global mode: an allocation or a
 * synchronization during the capture would end it): one kernel node for
 * gpureduce_dot and one for gpureduce_dot_batched, and replays give the
 * host backend's bits. */
static void cuda_dot_graph(void **state) {
  (void)state;
  const size_t batch = 40, n = 100003;
  float *x = tu_alloc(batch * n * sizeof *x), *y = tu_alloc(n * sizeof *y);
  tu_rng r;
  tu_rng_init(&r, "dot graph");
  tc_fill(&r, GPUREDUCE_F32, G_WIDE, x, batch * n);
  tc_fill(&r, GPUREDUCE_F32, G_WIDE, y, n);
  float *d_x = NULL, *d_y = NULL, *d_out = NULL;
  float *want = tu_alloc((batch + 1) * sizeof *want), *back = tu_alloc((batch + 1) * sizeof *back);
  gpureduce_handle_t h = NULL, hh = NULL;
  cudaStream_t s;
  CK(cudaMalloc((void **)&d_x, batch * n * sizeof *x));
  CK(cudaMalloc((void **)&d_y, n * sizeof *y));
  CK(cudaMalloc((void **)&d_out, (batch + 1) * sizeof *d_out));
  CK(cudaMemcpy(d_x, x, batch * n * sizeof *x, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_y, y, n * sizeof *y, cudaMemcpyHostToDevice));
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&h, 0), "create a CUDA handle");
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&hh, GPUREDUCE_DEVICE_HOST),
               "create a host handle");
  check_status(GPUREDUCE_SUCCESS, gpureduce_set_stream(h, s), "set the handle's stream");
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_dot_batched(x, y, want, batch, n, (int64_t)n, 0, GPUREDUCE_F32, 0, hh),
               "the host backend's row dot products");
  check_status(GPUREDUCE_SUCCESS, gpureduce_dot(x, y, want + batch, n, GPUREDUCE_F32, 0, hh),
               "the host backend's dot product");
  CK(cudaDeviceSynchronize());

  struct tu_graph g;
  tu_graph_begin(&g, s);
  const gpureduce_status_t st1 = gpureduce_dot_batched(d_x, d_y, d_out, batch, n, (int64_t)n, 0,
                                                       GPUREDUCE_F32, 0, h);
  const gpureduce_status_t st2 = gpureduce_dot(d_x, d_y, d_out + batch, n, GPUREDUCE_F32, 0, h);
  tu_graph_end(&g);
  check_status(GPUREDUCE_SUCCESS, st1, "gpureduce_dot_batched during capture (%s)",
               gpureduce_last_message(h));
  check_status(GPUREDUCE_SUCCESS, st2, "gpureduce_dot during capture (%s)",
               gpureduce_last_message(h));
  tu_graph_instantiate(&g, "the dot calls", 2, "two nodes, one kernel per call", 0);
  for (int replay = 0; replay < 2; ++replay) {
    CK(cudaMemset(d_out, 0xff, (batch + 1) * sizeof *d_out));
    CK(cudaDeviceSynchronize());
    tu_graph_launch(&g);
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(back, d_out, (batch + 1) * sizeof *back, cudaMemcpyDeviceToHost));
    for (size_t b = 0; b <= batch; ++b)
      check_bits(tu_f32_bits(want[b]), tu_f32_bits(back[b]),
                 "replay %d: result %zu has the host backend's bits", replay, b);
  }
  tu_graph_destroy(&g);
  check_status(GPUREDUCE_SUCCESS, gpureduce_destroy(h), "destroy the CUDA handle");
  check_status(GPUREDUCE_SUCCESS, gpureduce_destroy(hh), "destroy the host handle");
  CK(cudaStreamDestroy(s));
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_out);
  free(x);
  free(y);
  free(want);
  free(back);
}

int main(void) {
  if (!tu_cuda_start(0)) return 0;
  setenv("GPUREDUCE_TUNE", "off", 1);
  cmocka_set_message_output(CM_OUTPUT_TAP);
  dot_use(&bt_cuda_backend);
  const struct CMUnitTest tests[] = {
      DOT_TESTS,
      cmocka_unit_test(cuda_dot_large_shapes),
      cmocka_unit_test(cuda_dot_memory_spaces),
      cmocka_unit_test(cuda_dot_graph),
  };
  return cmocka_run_group_tests_name("test-dot (CUDA)", tests, dot_setup, dot_teardown);
}
