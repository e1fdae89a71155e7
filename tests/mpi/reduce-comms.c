/*
 * reduce-comms.c - test-mpi-reduce's communicators (test-mpi-reduce.h):
 * MPI_COMM_SELF, sub-communicators made and freed again and again, and
 * the caller's error handler.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-mpi-reduce.h"

/* ---- communicators ------------------------------------------------------------ */

static int g_key_of[4096];
static int by_key(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  if (g_key_of[x] != g_key_of[y]) return g_key_of[x] < g_key_of[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

void run_communicators(void) {
  const size_t n_part = 3000;
  float *part = malloc(n_part * sizeof *part);
  for (size_t i = 0; i < n_part; ++i)
    part[i] = tu_f32_of(
        (uint32_t)element(GPUREDUCE_F32, D_PLAIN, 0, g_seed + 1, i + (uint64_t)g_rank * n_part));
  /* MPI_COMM_SELF: this rank's part alone. */
  {
    _Alignas(16) unsigned char want[8], got[8];
    gpureduce_status_t s =
        gpureduce_reduce(part, want, n_part, GPUREDUCE_F32, GPUREDUCE_SUM, 0, g_host);
    gpureduce_status_t t = gpureduce_mpi_reduce(part, got, n_part, GPUREDUCE_F32, GPUREDUCE_SUM,
                                                0, MPI_COMM_SELF, g_host);
    if (s || t || memcmp(want, got, 4))
      bad("%s / %s, or the bits differ", gpureduce_status_name(s), gpureduce_status_name(t));
    tap("communicators: MPI_COMM_SELF gives each rank the gpureduce_reduce of its own part");
  }
  /* Sub-communicators, made, used and freed again and again (each free
   * frees the library's state of it): a random split each round; the
   * reference is the members' parts concatenated in the order of their
   * ranks in the split (by key, then world rank). */
  if (g_size <= 4096) {
    float *all = malloc(n_part * (size_t)g_size * sizeof *all);
    MPI_Allgather(part, (int)n_part, MPI_FLOAT, all, (int)n_part, MPI_FLOAT, g_comm);
    int *color = malloc((size_t)g_size * sizeof *color);
    int *members = malloc((size_t)g_size * sizeof *members);
    float *sub = malloc(n_part * (size_t)g_size * sizeof *sub);
    const int rounds = 40;
    for (int round = 0; round < rounds; ++round) {
      tu_rng rng;
      char label[64];
      snprintf(label, sizeof label, "split/%d/%016llx", round, (unsigned long long)g_seed);
      tu_rng_init(&rng, label);
      for (int r = 0; r < g_size; ++r) {
        color[r] = (int)tu_below(&rng, 3);
        g_key_of[r] = (int)tu_below(&rng, 1000);
      }
      /* Rank r holds (r + round) % 7 * 400 elements of its part. */
      MPI_Comm c;
      MPI_Comm_split(g_comm, color[g_rank], g_key_of[g_rank], &c);
      int cs = 0;
      for (int r = 0; r < g_size; ++r)
        if (color[r] == color[g_rank]) members[cs++] = r;
      qsort(members, (size_t)cs, sizeof *members, by_key);
      size_t n = 0;
      for (int k = 0; k < cs; ++k) {
        const size_t len = (size_t)((members[k] + round) % 7) * 400;
        memcpy(sub + n, all + (size_t)members[k] * n_part, len * sizeof *sub);
        n += len;
      }
      const size_t mine = (size_t)((g_rank + round) % 7) * 400;
      _Alignas(16) unsigned char want[16], got[16];
      const gpureduce_op_t op = round % 2 ? GPUREDUCE_MEAN_VAR : GPUREDUCE_SUM;
      gpureduce_status_t s = gpureduce_reduce(sub, want, n, GPUREDUCE_F32, op, 0, g_host);
      gpureduce_status_t t =
          gpureduce_mpi_reduce(part, got, mine, GPUREDUCE_F32, op, 0, c, g_host);
      if (s != t ||
          (s == GPUREDUCE_SUCCESS && memcmp(want, got, gpureduce_result_size(GPUREDUCE_F32, op, 0))))
        bad("round %d (a sub-communicator of %d ranks, n %zu): %s / %s, or the bits differ", round,
            cs, n, gpureduce_status_name(s), gpureduce_status_name(t));
      MPI_Comm_free(&c);
    }
    tap("communicators: %d random MPI_Comm_split sub-communicators, each used and freed: the "
        "bits of their members' arrays",
        rounds);
    free(sub);
    free(members);
    free(color);
    free(all);
  }
  /* The caller's communicator keeps its error handler. */
  {
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(g_comm, &eh);
    if (eh != MPI_ERRORS_ARE_FATAL) bad("MPI_COMM_WORLD's error handler changed");
    MPI_Errhandler_free(&eh);
    tap("communicators: MPI_COMM_WORLD keeps MPI_ERRORS_ARE_FATAL (the library's duplicate "
        "returns errors)");
  }
  free(part);
}
