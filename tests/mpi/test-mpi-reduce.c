/*
 * test-mpi-reduce.c - gpureduce_mpi_reduce() (gpureduce_mpi.h), run by
 * tests/mpi/test-mpi.sh under mpirun with 1, 2, 3, 4 and 8 ranks.
 *
 * The reference: every rank generates the whole array from the run's seed
 * (each element a hash of the seed and its index), rank 0 reduces it with
 * one gpureduce_reduce() on a host handle and broadcasts the status and
 * the result bytes; every rank then reduces its part of the array with
 * gpureduce_mpi_reduce() and compares the status and the bytes exactly.
 * For every (type, op, flags) that gpureduce_reduce() takes, lengths from
 * 0 to past 16 tiles, random data (mixed magnitudes and signs; NaN with
 * payloads, +-inf and +-0 in some cases; many ties in others), and
 * partitions: even, random cuts at element granularity, one rank holding
 * everything, tiny parts, cuts inside one tile, every other rank empty,
 * cuts next to tile boundaries.  Then the errors: ranks that disagree on
 * (type, op, flags), one rank's bad argument, two ranks' bad arguments,
 * an empty argmin, a rank whose partial reduction fails (an injected
 * failure, by interposing gpureduce_partial_reduce()), a NULL and an
 * inter-communicator: every rank must return the same status (where
 * gpureduce_mpi.h says so), name the failing rank and leave output
 * untouched.  Sub-communicators, MPI_COMM_SELF and freed communicators
 * exercise the per-communicator state.
 *
 * CUDA: with GPUREDUCE_TEST_CUDA=1 (then a CUDA handle is required), or
 * when every rank can create a CUDA handle (device = node-local rank
 * modulo the device count), the reductions run again with even ranks on
 * CUDA and odd ranks on the host, and with every rank on CUDA, device
 * buffers, against the same host reference; plus a host pointer given to
 * a CUDA handle.
 *
 * TAP from rank 0 only: each line's pass or fail is the sum of every
 * rank's failures (MPI_Allreduce), the failing ranks' first diagnostics
 * gathered to rank 0.  The plan comes last.
 *
 * This file holds the run (its TAP lines, the injected failure) and main,
 * which runs the parts in turn; the parts are reduce-*.c, one a topic,
 * and test-mpi-reduce.h what they share.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#define _GNU_SOURCE 1 /* dlsym's RTLD_NEXT */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-mpi-reduce.h"

#if GR_TEST_INTERPOSE
#include <dlfcn.h>
#endif

/* ---- the run ------------------------------------------------------------- */

int g_rank, g_size;
MPI_Comm g_comm;
gpureduce_handle_t g_host;
uint64_t g_seed;
static int g_tap; /* TAP lines printed (rank 0) */
static int g_failed_lines;

char g_diag[400];
int g_bad;

void bad(const char *fmt, ...) {
  if (g_bad++ == 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_diag, sizeof g_diag, fmt, ap);
    va_end(ap);
  }
}

/* (test-mpi-reduce.h) */
void tap(const char *fmt, ...) {
  char desc[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(desc, sizeof desc, fmt, ap);
  va_end(ap);
  int total = 0;
  MPI_Allreduce(&g_bad, &total, 1, MPI_INT, MPI_SUM, g_comm);
  char *all = NULL;
  if (total) {
    if (g_rank == 0) all = malloc((size_t)g_size * sizeof g_diag);
    if (!g_bad) g_diag[0] = '\0';
    MPI_Gather(g_diag, (int)sizeof g_diag, MPI_CHAR, all, (int)sizeof g_diag, MPI_CHAR, 0,
               g_comm);
  }
  if (g_rank == 0) {
    ++g_tap;
    if (total) {
      ++g_failed_lines;
      printf("not ok %d - %s (%d failures)\n", g_tap, desc, total);
      for (int r = 0; r < g_size && all; ++r)
        if (all[(size_t)r * sizeof g_diag]) printf("# rank %d: %s\n", r, all + (size_t)r * sizeof g_diag);
    } else {
      printf("ok %d - %s\n", g_tap, desc);
    }
    fflush(stdout);
  }
  free(all);
  g_bad = 0;
  g_diag[0] = '\0';
}

void skip(const char *why, const char *fmt, ...) {
  char desc[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(desc, sizeof desc, fmt, ap);
  va_end(ap);
  if (g_rank == 0) {
    ++g_tap;
    printf("ok %d - %s # SKIP %s\n", g_tap, desc, why);
    fflush(stdout);
  }
}

int all_equal_int(int v) {
  int lo = v, hi = v;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, g_comm);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, g_comm);
  return lo == hi;
}

/* ---- an injected failure of gpureduce_partial_reduce() -------------------- */

int g_inject_rank = -1;
gpureduce_status_t g_inject_status;
long g_partial_calls;

#if GR_TEST_INTERPOSE
/* libgpureduce_mpi's calls of gpureduce_partial_reduce() come here (this
 * program's definition interposes libgpureduce's), and go on to the real
 * one unless this rank is to fail. */
typedef gpureduce_status_t (*partial_reduce_fn)(const void *, void *, size_t, uint64_t,
                                                uint64_t, gpureduce_type_t, gpureduce_op_t,
                                                unsigned, gpureduce_handle_t);
gpureduce_status_t gpureduce_partial_reduce(const void *input, void *partial, size_t n_local,
                                            uint64_t offset, uint64_t n_global,
                                            gpureduce_type_t type, gpureduce_op_t op,
                                            unsigned flags, gpureduce_handle_t handle) {
  static partial_reduce_fn real;
  ++g_partial_calls;
  if (g_inject_rank == g_rank) {
    (void)gpureduce_set_last_message(handle, g_inject_status, "failure injected by the test");
    return g_inject_status;
  }
  if (!real) {
    void *sym = dlsym(RTLD_NEXT, "gpureduce_partial_reduce");
    memcpy(&real, &sym, sizeof real);
  }
  if (!real) return GPUREDUCE_ERROR_UNSUPPORTED;
  return real(input, partial, n_local, offset, n_global, type, op, flags, handle);
}
#endif

/* ---- main ---------------------------------------------------------------------- */

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  g_comm = MPI_COMM_WORLD;
  MPI_Comm_rank(g_comm, &g_rank);
  MPI_Comm_size(g_comm, &g_size);
  g_seed = tu_seed();
  MPI_Bcast(&g_seed, 1, MPI_UINT64_T, 0, g_comm);
  if (g_rank == 0) printf("# %d ranks, seed %llu\n", g_size, (unsigned long long)g_seed);

  int ok = gpureduce_create(&g_host, GPUREDUCE_DEVICE_HOST) == GPUREDUCE_SUCCESS;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, g_comm);
  if (!ok) {
    if (g_rank == 0) printf("Bail out! a rank cannot create a host handle\n");
    MPI_Finalize();
    return 1;
  }
  place host = {B_HOST, g_host, NULL, 0, NULL};

  const suite hosts = {"host handles", 0, 0, 1};
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) run_type(&hosts, &host, (gpureduce_type_t)t);
  run_errors();
  run_steady();
  run_communicators();

  /* CUDA handles, when asked for or when every rank can have one. */
  const char *want_cuda = getenv("GPUREDUCE_TEST_CUDA");
  const int required = want_cuda && strcmp(want_cuda, "1") == 0;
  place cuda = {B_HOST, NULL, NULL, 0, NULL};
  int have = cuda_place(&cuda);
  MPI_Allreduce(MPI_IN_PLACE, &have, 1, MPI_INT, MPI_MIN, g_comm);
  if (have) {
    run_cuda(&host, &cuda);
  } else if (required) {
    bad("GPUREDUCE_TEST_CUDA=1, but not every rank could create a CUDA handle");
    tap("CUDA handles (GPUREDUCE_TEST_CUDA=1)");
  } else {
    skip("no CUDA device (GPUREDUCE_TEST_CUDA=1 requires one)", "CUDA handles");
  }
  if (cuda.handle) (void)gpureduce_destroy(cuda.handle);
  if (cuda.dev_in) cudaFree(cuda.dev_in);
  if (cuda.dev_out) cudaFree(cuda.dev_out);

  (void)gpureduce_destroy(g_host);
  if (g_rank == 0) printf("1..%d\n", g_tap);
  MPI_Finalize();
  return 0;
}
