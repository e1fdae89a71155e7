/*
 * reduce-steady.c - test-mpi-reduce's steady state (test-mpi-reduce.h):
 * repeated calls on one partition make each rank's partial once, and a
 * change, an error or an injected failure in between gives the right
 * status and bits.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-mpi-reduce.h"

/* ---- the steady state ------------------------------------------------------------ */

/* Calls of this rank's gpureduce_partial_reduce() that `call' made, or -1
 * without the interposer. */
#if GR_TEST_INTERPOSE
#define PARTIAL_CALLS_SINCE(before) (g_partial_calls - (before))
#else
#define PARTIAL_CALLS_SINCE(before) ((void)(before), -1L)
#endif

/* One call on this rank's part of `whole' (counts[], over every rank),
 * checked against gpureduce_reduce() of whole; returns the calls of
 * gpureduce_partial_reduce() it made on this rank (-1 without the
 * interposer). */
static long steady_call(const float *whole, const uint64_t *counts, gpureduce_op_t op,
                        const char *what) {
  uint64_t n = 0, off = 0;
  for (int r = 0; r < g_size; ++r) {
    if (r < g_rank) off += counts[r];
    n += counts[r];
  }
  _Alignas(16) unsigned char want[16], got[16];
  const size_t rs = gpureduce_result_size(GPUREDUCE_F32, op, 0);
  const gpureduce_status_t s = gpureduce_reduce(whole, want, n, GPUREDUCE_F32, op, 0, g_host);
  const long before = g_partial_calls;
  const gpureduce_status_t t = gpureduce_mpi_reduce(whole + off, got, counts[g_rank],
                                                    GPUREDUCE_F32, op, 0, g_comm, g_host);
  if (s != GPUREDUCE_SUCCESS || t != GPUREDUCE_SUCCESS || memcmp(want, got, rs))
    bad("%s: %s / %s (%s), or the bits differ", what, gpureduce_status_name(s),
        gpureduce_status_name(t), gpureduce_last_message(g_host));
  return PARTIAL_CALLS_SINCE(before);
}

/* The number of partial reductions every rank made: want on the ranks of
 * `which' (1) and want_other on the rest; nothing to check without the
 * interposer. */
static void expect_calls(long got, int which, long want, long want_other, const char *what) {
  if (got < 0) return;
  const long w = which ? want : want_other;
  if (got != w) bad("%s: %ld partial reductions on this rank, expected %ld", what, got, w);
}

/* Repeated calls on one partition make each rank's partial once, in the
 * one collective of round 1; a changed n_local, op or data, an error, or
 * an injected failure, in the middle of a steady state, gives the right
 * status and bits. */
void run_steady(void) {
  const uint64_t te = tu_tile_elems(GPUREDUCE_F32);
  const uint64_t n = 5 * te + 77;
  float *whole = malloc(n * sizeof *whole), *other = malloc(n * sizeof *other);
  for (uint64_t i = 0; i < n; ++i) {
    whole[i] = tu_f32_of((uint32_t)element(GPUREDUCE_F32, D_PLAIN, 0, g_seed + 3, i));
    other[i] = tu_f32_of((uint32_t)element(GPUREDUCE_F32, D_TIES, 0, g_seed + 4, i));
  }
  uint64_t *counts = malloc((size_t)g_size * sizeof *counts);
  partition(P_RANDOM, n, te, g_size, "steady/1", counts);
  const char *no_count = GR_TEST_INTERPOSE ? "" : " (no interposer: the calls are not counted)";

  long c = steady_call(whole, counts, GPUREDUCE_SUM, "first call");
  if (c == 0 || c > 2) bad("first call: %ld partial reductions on this rank, not 1 or 2", c);
  c = steady_call(whole, counts, GPUREDUCE_SUM, "second call");
  expect_calls(c, 1, 1, 1, "second call");
  c = steady_call(whole, counts, GPUREDUCE_SUM, "third call");
  expect_calls(c, 1, 1, 1, "third call");
  tap("steady: the same call three times on random cuts: the bits of gpureduce_reduce each "
      "time, one partial reduction a call on every rank%s",
      no_count);

  c = steady_call(other, counts, GPUREDUCE_SUM, "new data");
  expect_calls(c, 1, 1, 1, "new data");
  tap("steady: new data on the same partition: the new bits (no result is kept)");

  /* The last rank gives one element to its left neighbour (or, alone,
   * drops it): the ranks whose n_local stayed made their partial in round
   * 1 for nothing, and again in round 2. */
  const int last = g_size - 1;
  uint64_t *moved = malloc((size_t)g_size * sizeof *moved);
  memcpy(moved, counts, (size_t)g_size * sizeof *moved);
  int from = last;
  while (from >= 0 && moved[from] == 0) --from;
  if (from < 0) from = last; /* (n > 0: some rank has elements) */
  moved[from] -= 1;
  if (from > 0) moved[from - 1] += 1;
  const int changed = moved[g_rank] != counts[g_rank];
  float *shorter = whole; /* alone: the array is one element shorter */
  c = steady_call(shorter, moved, GPUREDUCE_SUM, "a changed partition");
  expect_calls(c, !changed, 2, 1, "a changed partition");
  c = steady_call(shorter, moved, GPUREDUCE_SUM, "the changed partition again");
  expect_calls(c, 1, 1, 1, "the changed partition again");
  tap("steady: rank %d moves one element: the new bits, round 2 only on that call%s", from,
      no_count);

  c = steady_call(shorter, moved, GPUREDUCE_ARGMAX, "argmax after sum");
  expect_calls(c, 1, 1, 1, "argmax after sum");
  c = steady_call(shorter, moved, GPUREDUCE_ARGMAX, "argmax again");
  expect_calls(c, 1, 1, 1, "argmax again");
  tap("steady: argmax after sum on the same partition: the argmax bits, no partial made for "
      "the old op%s",
      no_count);

  /* An error in the steady state, and the steady state after it. */
  {
    uint64_t off = 0;
    for (int r = 0; r < g_rank; ++r) off += moved[r];
    char says[64];
    snprintf(says, sizeof says, "rank %d: output is NULL", last);
    _Alignas(16) unsigned char out[16];
    expect_error(shorter + off, g_rank == last ? NULL : out, moved[g_rank], GPUREDUCE_F32,
                 GPUREDUCE_ARGMAX, 0, g_host, GPUREDUCE_ERROR_INVALID_ARGUMENT, says, 1,
                 "steady: rank %d's output is NULL in the steady state: every rank "
                 "INVALID_ARGUMENT, output untouched",
                 last);
    c = steady_call(shorter, moved, GPUREDUCE_ARGMAX, "after the error");
    expect_calls(c, 1, 1, 1, "after the error");
    tap("steady: the call after that error gives the bits, in one round%s", no_count);
#if GR_TEST_INTERPOSE
    g_inject_rank = 0;
    g_inject_status = GPUREDUCE_ERROR_CUDA;
    expect_error(shorter + off, out, moved[g_rank], GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0, g_host,
                 GPUREDUCE_ERROR_CUDA, "rank 0: ", 0,
                 "steady: rank 0's partial reduction fails in round 1 (injected): every rank "
                 "CUDA, output untouched");
    g_inject_rank = -1;
    c = steady_call(shorter, moved, GPUREDUCE_ARGMAX, "after the injected failure");
    expect_calls(c, 1, 1, 1, "after the injected failure");
    tap("steady: the call after the injected failure gives the bits, in one round");
#else
    skip("no shared libraries: gpureduce_partial_reduce cannot be interposed",
         "steady: rank 0's partial reduction fails in round 1 (injected)");
    skip("no shared libraries", "steady: the call after the injected failure");
#endif
  }
  free(moved);
  free(counts);
  free(other);
  free(whole);
}
