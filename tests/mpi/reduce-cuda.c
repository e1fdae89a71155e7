/*
 * reduce-cuda.c - test-mpi-reduce's CUDA handles (test-mpi-reduce.h):
 * the reductions with even ranks on CUDA and with every rank on CUDA, and
 * a host pointer given to a CUDA handle.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "test-mpi-reduce.h"

/* ---- CUDA ---------------------------------------------------------------------- */

int cuda_place(place *pl) {
  int count = 0, local = 0;
  MPI_Comm node;
  MPI_Comm_split_type(g_comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return 0;
  const int dev = local % count;
  if (gpureduce_create(&pl->handle, dev) != GPUREDUCE_SUCCESS) return 0;
  if (cudaSetDevice(dev) != cudaSuccess || cudaMalloc(&pl->dev_out, 16) != cudaSuccess) {
    (void)gpureduce_destroy(pl->handle);
    pl->handle = NULL;
    return 0;
  }
  pl->backend = B_CUDA;
  return 1;
}

/* Every rank on CUDA; rank `bad_rank' passes host memory as its input
 * (bad_output 0) or its output (bad_output 1). */
static void cuda_wrong_space(place *cuda, int bad_rank, int bad_output) {
  const size_t per = 1000, n = per * (size_t)g_size;
  float *whole = malloc(n * sizeof *whole);
  for (size_t i = 0; i < n; ++i)
    whole[i] = tu_f32_of((uint32_t)element(GPUREDUCE_F32, D_PLAIN, 0, g_seed + 3, i));
  expect e;
  memset(&e, 0, sizeof e);
  e.status = (int32_t)gpureduce_reduce(whole, e.bytes, n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, g_host);
  const float *mine = whole + per * (size_t)g_rank;
  _Alignas(16) unsigned char host_out[16];
  memset(host_out, 0xa5, sizeof host_out);
  void *in = NULL, *out = cuda->dev_out;
  int ok = cuda_ok(cudaMemset(cuda->dev_out, 0xa5, 16), "cudaMemset");
  if (ok && cuda->dev_in_bytes < per * sizeof *mine) {
    if (cuda->dev_in) cudaFree(cuda->dev_in);
    cuda->dev_in = NULL;
    cuda->dev_in_bytes = 0;
    ok = cuda_ok(cudaMalloc(&cuda->dev_in, per * sizeof *mine), "cudaMalloc");
    if (ok) cuda->dev_in_bytes = per * sizeof *mine;
  }
  ok = ok && cuda_ok(cudaMemcpy(cuda->dev_in, mine, per * sizeof *mine, cudaMemcpyHostToDevice),
                     "cudaMemcpy");
  in = cuda->dev_in;
  if (g_rank == bad_rank) {
    if (bad_output)
      out = host_out;
    else
      in = (void *)mine;
  }
  gpureduce_status_t s = GPUREDUCE_SUCCESS;
  if (ok) s = gpureduce_mpi_reduce(in, out, per, GPUREDUCE_F32, GPUREDUCE_SUM, 0, g_comm,
                                   cuda->handle);
  unsigned char got[16];
  if (ok) ok = cuda_ok(cudaMemcpy(got, cuda->dev_out, 16, cudaMemcpyDeviceToHost), "cudaMemcpy");
  const int expect_fail = !bad_output || g_rank == bad_rank;
  if (ok && expect_fail) {
    if (s != GPUREDUCE_ERROR_WRONG_MEMORY_SPACE)
      bad("status %s (%s), expected GPUREDUCE_ERROR_WRONG_MEMORY_SPACE", gpureduce_status_name(s),
          gpureduce_last_message(cuda->handle));
    for (int i = 0; i < 16; ++i)
      if (got[i] != 0xa5 || host_out[i] != 0xa5) {
        bad("output written after %s", gpureduce_status_name(s));
        break;
      }
  } else if (ok) {
    if (s != GPUREDUCE_SUCCESS || memcmp(got, e.bytes, 4))
      bad("status %s (%s), or the bits differ from the host reference", gpureduce_status_name(s),
          gpureduce_last_message(cuda->handle));
  }
  if (bad_output)
    tap("CUDA: rank %d gives its CUDA handle a host output: that rank alone returns "
        "WRONG_MEMORY_SPACE, the others the right bits",
        bad_rank);
  else
    tap("CUDA: rank %d gives its CUDA handle a host input: every rank returns "
        "WRONG_MEMORY_SPACE, output untouched",
        bad_rank);
  free(whole);
}

void run_cuda(place *host, place *cuda) {
  const suite mixed = {"even ranks CUDA, odd ranks host", 1, 0, 0};
  const suite all = {"every rank CUDA", 1, 1, 0};
  const suite *suites[] = {&mixed, &all};
  for (size_t k = 0; k < COUNT(suites); ++k) {
    place *pl = (g_rank % 2 == 0 ? suites[k]->cuda_even : suites[k]->cuda_odd) ? cuda : host;
    for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) run_type(suites[k], pl, (gpureduce_type_t)t);
  }
  cuda_wrong_space(cuda, g_size - 1, 0);
  cuda_wrong_space(cuda, 0, 1);
}
