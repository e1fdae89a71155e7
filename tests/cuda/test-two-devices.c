/*
 * test-two-devices.c - a CUDA handle of device 0 used while device 1 is
 * current: the call reduces device 0's memory on its own device, with the
 * host backend's bits, and leaves device 1 current.
 *
 * Needs two GPUs: with fewer it prints "1..0 # SKIP ..." (no CUDA device,
 * or how many there are), which automake's TAP driver counts as a skip.
 * The case is a program of its own for that reason: inside another
 * program's cmocka group it could only pass untested, or fail (cmocka
 * 1.1.5's skip() prints "not ok").  Runs with GPUREDUCE_TUNE=off (no
 * tuning cache is read or written).
 *
 * GPUREDUCE_TEST_QUICK=1 (set by `make check-gpu-sanitizers`) shrinks the
 * array so that the program stays quick under compute-sanitizer.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "segments.h" /* sg_quick: GPUREDUCE_TEST_QUICK */

static void another_device_is_current(void **state) {
  (void)state;
  const size_t n = sg_quick() ? 50001 : ((size_t)1 << 20) + 17;
  tu_rng r;
  tu_rng_init(&r, "device 1 current");
  float *x = tu_alloc(n * sizeof *x);
  tc_fill(&r, GPUREDUCE_F32, G_MODERATE, x, n);
  float *d_x, *d_out;
  cudaStream_t s0;
  gpureduce_handle_t h0 = NULL, host = NULL;
  uint64_t want = 0, seen = 0;
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&host, GPUREDUCE_DEVICE_HOST),
               "create a host handle");
  check_status(GPUREDUCE_SUCCESS, gpureduce_reduce(x, &want, n, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
                                                   host),
               "host backend: f32 sum of %zu elements", n);
  CK(cudaSetDevice(0));
  CK(cudaMalloc((void **)&d_x, n * sizeof *x));
  CK(cudaMalloc((void **)&d_out, 16));
  CK(cudaMemcpy(d_x, x, n * sizeof *x, cudaMemcpyHostToDevice));
  CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&h0, 0), "create a handle on device 0");
  check_status(GPUREDUCE_SUCCESS, gpureduce_set_stream(h0, s0), "a device-0 stream");

  CK(cudaSetDevice(1));
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce(d_x, d_out, n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, h0),
               "reduce device-0 memory with the device-0 handle while device 1 is current (%s)",
               gpureduce_last_message(h0));
  int current = -1;
  CK(cudaGetDevice(&current));
  check_true(current == 1, "device 1 is still current after the call (cudaGetDevice: %d)",
             current);
  CK(cudaStreamSynchronize(s0));
  CK(cudaMemcpy(&seen, d_out, sizeof(float), cudaMemcpyDeviceToHost));
  check_bits(tu_load(&want, 0, 4), tu_load(&seen, 0, 4), "the sum equals the host backend's");
  current = -1;
  CK(cudaGetDevice(&current));
  check_true(current == 1, "device 1 is still current at the end (cudaGetDevice: %d)", current);

  CK(cudaSetDevice(0));
  check_status(GPUREDUCE_SUCCESS, gpureduce_destroy(h0), "destroy the handle");
  check_status(GPUREDUCE_SUCCESS, gpureduce_destroy(host), "destroy the host handle");
  CK(cudaStreamDestroy(s0));
  cudaFree(d_x);
  cudaFree(d_out);
  free(x);
}

int main(void) {
  if (!tu_cuda_need_devices(2)) return 0;
  setenv("GPUREDUCE_TUNE", "off", 1); /* no tuning cache is read or written */
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(another_device_is_current),
  };
  return cmocka_run_group_tests_name("test-two-devices", tests, tu_seed_setup, NULL);
}
