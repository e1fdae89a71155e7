/*
 * reduce-errors.c - test-mpi-reduce's errors (test-mpi-reduce.h): ranks
 * that disagree, bad arguments on one or two ranks, empty arrays, an
 * injected failure of a rank's partial reduction, a NULL and an
 * inter-communicator.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-mpi-reduce.h"

/* ---- errors ------------------------------------------------------------------ */

/* (test-mpi-reduce.h) */
void expect_error(const void *in, void *out, size_t n_local, gpureduce_type_t type,
                  gpureduce_op_t op, unsigned flags, gpureduce_handle_t h,
                  gpureduce_status_t want, const char *says, int same_text, const char *fmt,
                  ...) {
  char desc[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(desc, sizeof desc, fmt, ap);
  va_end(ap);
  unsigned char before[16];
  memset(before, 0x5a, sizeof before);
  if (out) memcpy(out, before, sizeof before);
  const gpureduce_status_t s = gpureduce_mpi_reduce(in, out, n_local, type, op, flags, g_comm, h);
  if (s != want)
    bad("status %s, expected %s (%s)", gpureduce_status_name(s), gpureduce_status_name(want),
        h ? gpureduce_last_message(h) : "no handle");
  if (out && memcmp(out, before, sizeof before))
    bad("%s, but output was written", gpureduce_status_name(s));
  struct {
    int has;
    char text[256];
  } msg = {h != NULL, ""}, first;
  if (h) snprintf(msg.text, sizeof msg.text, "%s", gpureduce_last_message(h));
  if (h && says && !strstr(msg.text, says)) bad("message '%s' does not say '%s'", msg.text, says);
  memcpy(&first, &msg, sizeof first);
  MPI_Bcast(&first, (int)sizeof first, MPI_BYTE, 0, g_comm);
  if (same_text && h && first.has && strcmp(first.text, msg.text))
    bad("message '%s' differs from rank 0's '%s'", msg.text, first.text);
  if (!all_equal_int((int)s)) bad("the ranks returned different statuses");
  tap("%s", desc);
}

void run_errors(void) {
  const int last = g_size - 1, mid = g_size / 2;
  float x[64];
  for (int i = 0; i < 64; ++i) x[i] = (float)(i - 20) * 0.37f;
  _Alignas(16) unsigned char out[32];
  char says[96];
  const int two = g_size >= 2, three = g_size >= 3;

  /* Disagreement (no rank fails its own checks). */
  if (two) {
    snprintf(says, sizeof says, "rank %d passed (f64, sum, flags 0x0), rank 0 (f32, sum", last);
    expect_error(x, out, 8, g_rank == last ? GPUREDUCE_F64 : GPUREDUCE_F32, GPUREDUCE_SUM, 0,
                 g_host, GPUREDUCE_ERROR_INVALID_ARGUMENT, says, 1,
                 "errors: rank %d passes f64, the others f32: every rank INVALID_ARGUMENT, "
                 "naming rank %d, output untouched",
                 last, last);
    expect_error(x, out, 8, GPUREDUCE_F32, g_rank == 1 ? GPUREDUCE_MAX : GPUREDUCE_SUM, 0,
                 g_host, GPUREDUCE_ERROR_INVALID_ARGUMENT, "rank 1 passed (f32, max", 1,
                 "errors: rank 1 passes max, the others sum: every rank INVALID_ARGUMENT");
    expect_error(x, out, 8, GPUREDUCE_F32, GPUREDUCE_SUM,
                 g_rank == 0 ? GPUREDUCE_ACCUMULATE_F64 : 0, g_host,
                 GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 "rank 1 passed (f32, sum, flags 0x0), rank 0 (f32, sum, flags 0x1)", 1,
                 "errors: rank 0 passes GPUREDUCE_ACCUMULATE_F64, the others not: every rank "
                 "INVALID_ARGUMENT, naming rank 1");
  } else {
    skip("one rank", "errors: ranks that disagree on the type");
    skip("one rank", "errors: ranks that disagree on the op");
    skip("one rank", "errors: ranks that disagree on the flags");
  }

  /* One rank's bad argument. */
  snprintf(says, sizeof says, "rank %d: output is NULL", mid);
  expect_error(x, g_rank == mid ? NULL : out, 8, GPUREDUCE_F32, GPUREDUCE_SUM, 0, g_host,
               GPUREDUCE_ERROR_INVALID_ARGUMENT, says, 1,
               "errors: rank %d's output is NULL: every rank INVALID_ARGUMENT, '%s'", mid, says);
  snprintf(says, sizeof says, "rank %d: input is NULL with n_local = 8", mid);
  expect_error(g_rank == mid ? NULL : (const void *)x, out, 8, GPUREDUCE_F32, GPUREDUCE_MAX, 0,
               g_host, GPUREDUCE_ERROR_INVALID_ARGUMENT, says, 1,
               "errors: rank %d's input is NULL with n_local 8: every rank INVALID_ARGUMENT", mid);
  snprintf(says, sizeof says, "rank %d: input is not aligned to its 4-byte elements", last);
  expect_error(g_rank == last ? (const void *)((const char *)x + 2) : (const void *)x, out, 8,
               GPUREDUCE_F32, GPUREDUCE_SUM, 0, g_host, GPUREDUCE_ERROR_INVALID_ARGUMENT, says, 1,
               "errors: rank %d's input is misaligned: every rank INVALID_ARGUMENT", last);
  expect_error(x, g_rank == 0 ? out + 8 : out, 8, GPUREDUCE_F32, GPUREDUCE_ARGMIN,
               GPUREDUCE_WITH_VALUE, g_host, GPUREDUCE_ERROR_INVALID_ARGUMENT,
               "rank 0: output is not aligned to its 16-byte result", 1,
               "errors: rank 0's 16-byte output is 8-byte aligned: every rank INVALID_ARGUMENT");
  snprintf(says, sizeof says, "rank %d: flags 0x8 has unknown bits", last);
  expect_error(x, out, 8, GPUREDUCE_F32, GPUREDUCE_SUM, g_rank == last ? 0x8u : 0, g_host,
               GPUREDUCE_ERROR_INVALID_ARGUMENT, says, 1,
               "errors: rank %d passes unknown flags 0x8: every rank INVALID_ARGUMENT", last);
  snprintf(says, sizeof says, "rank %d: f32 sum with flags 0x2 is not a combination", mid);
  expect_error(x, out, 8, GPUREDUCE_F32, GPUREDUCE_SUM, g_rank == mid ? GPUREDUCE_WITH_VALUE : 0,
               g_host, GPUREDUCE_ERROR_UNSUPPORTED, says, 1,
               "errors: rank %d passes sum with GPUREDUCE_WITH_VALUE: every rank UNSUPPORTED "
               "(its own failure comes before the disagreement)",
               mid);
  snprintf(says, sizeof says, "rank %d: type 77 is not a gpureduce_type_t", last);
  expect_error(x, out, 8, g_rank == last ? (gpureduce_type_t)77 : GPUREDUCE_F32, GPUREDUCE_SUM,
               0, g_host, GPUREDUCE_ERROR_UNSUPPORTED, says, 1,
               "errors: rank %d passes type 77: every rank UNSUPPORTED", last);
  snprintf(says, sizeof says, "rank %d: handle is NULL", last);
  expect_error(x, out, 8, GPUREDUCE_F32, GPUREDUCE_SUM, 0, g_rank == last ? NULL : g_host,
               GPUREDUCE_ERROR_INVALID_HANDLE, says, 1,
               "errors: rank %d's handle is NULL: every rank INVALID_HANDLE", last);

  /* Two ranks fail: the lowest wins. */
  if (three) {
    expect_error(x, g_rank == 1 ? NULL : out, 8, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
                 g_rank == 2 ? NULL : g_host, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 "rank 1: output is NULL", 1,
                 "errors: rank 1's output and rank 2's handle are NULL: every rank returns "
                 "rank 1's INVALID_ARGUMENT");
    expect_error(x, g_rank == 2 ? NULL : out, 8, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
                 g_rank == 1 ? NULL : g_host, GPUREDUCE_ERROR_INVALID_HANDLE,
                 "rank 1: handle is NULL", 1,
                 "errors: rank 1's handle and rank 2's output are NULL: every rank returns "
                 "rank 1's INVALID_HANDLE");
  } else {
    skip("fewer than three ranks", "errors: two ranks fail, rank 1's status wins");
    skip("fewer than three ranks", "errors: two ranks fail, rank 1's status wins (reversed)");
  }

  /* The empty array. */
  expect_error(NULL, out, 0, GPUREDUCE_F32, GPUREDUCE_ARGMIN, 0, g_host,
               GPUREDUCE_ERROR_EMPTY_INPUT, "argmin of an empty array", 1,
               "errors: argmin with every n_local 0: every rank EMPTY_INPUT, output untouched");
  expect_error(NULL, out, 0, GPUREDUCE_I32, GPUREDUCE_MEAN_VAR, 0, g_host,
               GPUREDUCE_ERROR_EMPTY_INPUT, "mean_var of an empty array", 1,
               "errors: mean_var with every n_local 0: every rank EMPTY_INPUT");

  /* A rank's partial reduction fails: its status travels with the partials. */
#if GR_TEST_INTERPOSE
  const long calls = g_partial_calls;
  g_inject_rank = last;
  g_inject_status = GPUREDUCE_ERROR_CUDA;
  snprintf(says, sizeof says, "rank %d: ", last);
  expect_error(x, out, 8, GPUREDUCE_F32, GPUREDUCE_NRM2, 0, g_host, GPUREDUCE_ERROR_CUDA, says, 0,
               "errors: rank %d's gpureduce_partial_reduce fails (CUDA, injected): every rank "
               "CUDA, output untouched, no rank waits",
               last);
  if (g_partial_calls != calls + 1)
    bad("%ld calls of the interposed gpureduce_partial_reduce, not 1", g_partial_calls - calls);
  tap("errors: the injection went through this program's gpureduce_partial_reduce");
  g_inject_rank = 0;
  g_inject_status = GPUREDUCE_ERROR_WRONG_MEMORY_SPACE;
  expect_error(x, out, 8, GPUREDUCE_I8, GPUREDUCE_SUM, 0, g_host,
               GPUREDUCE_ERROR_WRONG_MEMORY_SPACE, "rank 0: ", 0,
               "errors: rank 0's gpureduce_partial_reduce fails (WRONG_MEMORY_SPACE, injected): "
               "every rank WRONG_MEMORY_SPACE");
  g_inject_rank = -1;
#else
  skip("no shared libraries: gpureduce_partial_reduce cannot be interposed",
       "errors: a rank's gpureduce_partial_reduce fails (CUDA, injected)");
  skip("no shared libraries", "errors: the injection went through this program");
  skip("no shared libraries: gpureduce_partial_reduce cannot be interposed",
       "errors: rank 0's gpureduce_partial_reduce fails (WRONG_MEMORY_SPACE, injected)");
#endif

  /* Local-only errors: nothing communicated (every rank makes them). */
  {
    memset(out, 0x5a, 16);
    gpureduce_status_t s =
        gpureduce_mpi_reduce(x, out, 8, GPUREDUCE_F32, GPUREDUCE_SUM, 0, MPI_COMM_NULL, g_host);
    if (s != GPUREDUCE_ERROR_INVALID_ARGUMENT) bad("MPI_COMM_NULL: %s", gpureduce_status_name(s));
    if (!strstr(gpureduce_last_message(g_host), "MPI_COMM_NULL"))
      bad("MPI_COMM_NULL: message '%s'", gpureduce_last_message(g_host));
    tap("errors: comm MPI_COMM_NULL: INVALID_ARGUMENT, without communicating");
  }
  if (two) {
    MPI_Comm half, inter;
    const int low = g_rank < g_size / 2;
    MPI_Comm_split(g_comm, low, g_rank, &half);
    MPI_Intercomm_create(half, 0, g_comm, low ? g_size / 2 : 0, 99, &inter);
    gpureduce_status_t s =
        gpureduce_mpi_reduce(x, out, 8, GPUREDUCE_F32, GPUREDUCE_SUM, 0, inter, g_host);
    if (s != GPUREDUCE_ERROR_INVALID_ARGUMENT) bad("intercomm: %s", gpureduce_status_name(s));
    if (!strstr(gpureduce_last_message(g_host), "inter-communicator"))
      bad("intercomm: message '%s'", gpureduce_last_message(g_host));
    tap("errors: an inter-communicator: INVALID_ARGUMENT on every rank");
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
  } else {
    skip("one rank", "errors: an inter-communicator");
  }

  /* After all that, the communicator's state still works. */
  {
    const size_t per = 40, n = per * (size_t)g_size;
    float *whole = malloc(n * sizeof *whole);
    for (size_t i = 0; i < n; ++i)
      whole[i] = tu_f32_of((uint32_t)element(GPUREDUCE_F32, D_PLAIN, 0, g_seed + 2, i));
    _Alignas(16) unsigned char want[8], got[8];
    gpureduce_status_t s =
        gpureduce_reduce(whole, want, n, GPUREDUCE_F32, GPUREDUCE_SUM_SQUARES, 0, g_host);
    gpureduce_status_t t = gpureduce_mpi_reduce(whole + per * (size_t)g_rank, got, per,
                                                GPUREDUCE_F32, GPUREDUCE_SUM_SQUARES, 0, g_comm,
                                                g_host);
    if (s || t || memcmp(want, got, 4))
      bad("%s / %s, or the bits differ", gpureduce_status_name(s), gpureduce_status_name(t));
    tap("errors: after the errors, the same communicator gives the right bits");
    free(whole);
  }
}
