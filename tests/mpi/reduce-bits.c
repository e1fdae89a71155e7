/*
 * reduce-bits.c - test-mpi-reduce's reductions against the reference
 * (test-mpi-reduce.h): every (op, flags) of a type, over lengths, data
 * and partitions, has the status and the bytes of one gpureduce_reduce().
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-mpi-reduce.h"

/* ---- combinations ------------------------------------------------------------ */

/* Every (op, flags) that gpureduce.h's table gives type a result for. */
static int combos_of(gpureduce_type_t type, combo *c) {
  static const unsigned flag_sets[] = {0, GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_WITH_VALUE,
                                       GPUREDUCE_SOFTMAX_STATS};
  int k = 0;
  for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op)
    for (size_t f = 0; f < COUNT(flag_sets); ++f) {
      const size_t rs = tu_result_size(type, (gpureduce_op_t)op, flag_sets[f]);
      if (rs) c[k++] = (combo){(gpureduce_op_t)op, flag_sets[f], rs};
    }
  return k;
}

static const char *flags_name(unsigned flags) {
  return flags == GPUREDUCE_ACCUMULATE_F64  ? " GPUREDUCE_ACCUMULATE_F64"
         : flags == GPUREDUCE_WITH_VALUE    ? " GPUREDUCE_WITH_VALUE"
         : flags == GPUREDUCE_SOFTMAX_STATS ? " GPUREDUCE_SOFTMAX_STATS"
                                            : "";
}

static void hex(char *out, size_t size, const unsigned char *b, size_t n) {
  size_t at = 0;
  for (size_t i = 0; i < n && at + 3 < size; ++i) at += (size_t)snprintf(out + at, size - at, "%02x", b[i]);
}

/* ---- where a rank's part and result live ------------------------------------- */

int cuda_ok(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return 1;
  bad("%s: %s", what, cudaGetErrorString(e));
  return 0;
}

/* Reduce this rank's part [in, in + n_local) with gpureduce_mpi_reduce() on
 * pl and compare with e: the status, the bytes on success, output
 * untouched on error.  Returns 1 when all is well. */
static int check_one(place *pl, const void *in, size_t n_local, gpureduce_type_t type,
                     const combo *c, const expect *e, const char *what) {
  static const unsigned char sentinel = 0xa5;
  _Alignas(16) unsigned char out[16];
  memset(out, sentinel, sizeof out);
  const unsigned size = TU_TYPE(type)->size;
  const void *input = in;
  void *output = out;
  if (pl->backend == B_CUDA) {
    const size_t bytes = n_local * size;
    if (bytes > pl->dev_in_bytes) {
      if (pl->dev_in) cudaFree(pl->dev_in);
      pl->dev_in = NULL;
      pl->dev_in_bytes = 0;
      if (!cuda_ok(cudaMalloc(&pl->dev_in, bytes), "cudaMalloc")) return 0;
      pl->dev_in_bytes = bytes;
    }
    if (bytes && !cuda_ok(cudaMemcpy(pl->dev_in, in, bytes, cudaMemcpyHostToDevice), "cudaMemcpy"))
      return 0;
    if (!cuda_ok(cudaMemset(pl->dev_out, sentinel, 16), "cudaMemset")) return 0;
    input = n_local ? pl->dev_in : NULL;
    output = pl->dev_out;
  }
  const gpureduce_status_t s = gpureduce_mpi_reduce(input, output, n_local, type, c->op, c->flags,
                                                    g_comm, pl->handle);
  if (pl->backend == B_CUDA &&
      !cuda_ok(cudaMemcpy(out, pl->dev_out, 16, cudaMemcpyDeviceToHost), "cudaMemcpy back"))
    return 0;
  if ((int32_t)s != e->status) {
    bad("%s: status %s (%s), expected %s", what, gpureduce_status_name(s),
        gpureduce_last_message(pl->handle), gpureduce_status_name((gpureduce_status_t)e->status));
    return 0;
  }
  if (s == GPUREDUCE_SUCCESS && memcmp(out, e->bytes, c->rs)) {
    char got[40] = "", want[40] = "";
    hex(got, sizeof got, out, c->rs);
    hex(want, sizeof want, e->bytes, c->rs);
    bad("%s: bytes %s, expected %s", what, got, want);
    return 0;
  }
  if (s != GPUREDUCE_SUCCESS)
    for (size_t i = 0; i < sizeof out; ++i)
      if (out[i] != sentinel) {
        bad("%s: %s, but output byte %zu was written", what, gpureduce_status_name(s), i);
        return 0;
      }
  return 1;
}

/* ---- the reductions against the reference ------------------------------------ */

/* (test-mpi-reduce.h) */
void run_type(const suite *su, place *mine, gpureduce_type_t type) {
  combo c[MAX_COMBOS];
  const int nc = combos_of(type, c);
  const uint64_t te = tu_tile_elems(type);
  const unsigned size = TU_TYPE(type)->size;
  const uint64_t lengths_big[] = {0,  1,          2,         7,          100,
                                  te - 1, te,     te + 1,    2 * te + te / 3, 8 * te + 5,
                                  16 * te + te / 2 + 3};
  const uint64_t lengths_small[] = {0, 1, 100, te + 1, 2 * te + te / 3, 8 * te + 5};
  const uint64_t *lengths = su->big ? lengths_big : lengths_small;
  const size_t nlengths = su->big ? COUNT(lengths_big) : COUNT(lengths_small);
  int fails[MAX_COMBOS] = {0}, cases[MAX_COMBOS] = {0};
  char diag[MAX_COMBOS][400];
  expect *e = malloc((size_t)nc * sizeof *e);
  uint64_t *counts = malloc((size_t)g_size * sizeof *counts);
  for (size_t li = 0; li < nlengths; ++li) {
    const uint64_t n = lengths[li];
    const int special = n == 100 || n == te + 1 || n == 2 * te + te / 3;
    for (int dk = 0; dk < D_KINDS; ++dk) {
      if (dk != D_PLAIN && !special) continue;
      if (dk != D_PLAIN && !su->big && n != te + 1) continue;
      const uint64_t seed = mix(g_seed ^ mix(((uint64_t)type << 40) ^ (n << 4) ^ (uint64_t)dk));
      void *plain = malloc(n * size + 16), *prod = malloc(n * size + 16);
      fill(plain, type, (enum data_kind)dk, 0, seed, n);
      fill(prod, type, (enum data_kind)dk, 1, seed, n);
      /* The reference, from rank 0. */
      if (g_rank == 0)
        for (int k = 0; k < nc; ++k) {
          memset(&e[k], 0, sizeof e[k]);
          _Alignas(16) unsigned char out[16];
          const void *in = c[k].op == GPUREDUCE_PROD ? prod : plain;
          e[k].status = (int32_t)gpureduce_reduce(in, out, n, type, c[k].op, c[k].flags, g_host);
          memcpy(e[k].bytes, out, c[k].rs);
        }
      MPI_Bcast(e, (int)((size_t)nc * sizeof *e), MPI_BYTE, 0, g_comm);
      for (int pk = 0; pk < P_KINDS; ++pk) {
        /* one rank: one partition (the suites that are not big take P_ONE) */
        if (g_size == 1 && pk != (su->big ? P_EVEN : P_ONE)) continue;
        if (!su->big && pk != P_RANDOM && pk != P_TILE_EDGES && pk != P_ONE) continue;
        if (g_size > 1 && n > 2 * te && su->big && pk != P_RANDOM && pk != P_TILE_EDGES &&
            pk != P_EMPTY_ALT)
          continue;
        char label[96];
        snprintf(label, sizeof label, "cuts/%d/%llu/%d/%d", (int)type, (unsigned long long)n, dk,
                 pk);
        partition((enum part_kind)pk, n, te, g_size, label, counts);
        uint64_t off = 0;
        for (int r = 0; r < g_rank; ++r) off += counts[r];
        const size_t n_local = counts[g_rank];
        /* The random cuts use an aligned copy of the part; the others point
         * into the whole array (any element alignment). */
        void *copy = NULL;
        if (pk == P_RANDOM) {
          copy = malloc(n_local * size + 16);
          memcpy(copy, (char *)plain + off * size, n_local * size);
        }
        for (int k = 0; k < nc; ++k) {
          const char *base = c[k].op == GPUREDUCE_PROD ? prod : plain;
          const void *in = base + off * size;
          if (copy && c[k].op != GPUREDUCE_PROD) in = copy;
          char what[200];
          snprintf(what, sizeof what, "n %llu, %s data, %s (this rank %zu at %llu)",
                   (unsigned long long)n, data_names[dk], part_names[pk], n_local,
                   (unsigned long long)off);
          const int before = g_bad;
          g_bad = 0;
          if (!check_one(mine, in, n_local, type, &c[k], &e[k], what)) {
            if (fails[k]++ == 0) snprintf(diag[k], sizeof diag[k], "%s", g_diag);
          }
          g_bad = before;
          ++cases[k];
        }
        free(copy);
      }
      free(plain);
      free(prod);
    }
  }
  for (int k = 0; k < nc; ++k) {
    if (fails[k]) {
      g_bad = fails[k];
      memcpy(g_diag, diag[k], sizeof g_diag);
    } else if (cases[k] == 0) { /* a check of nothing is a failure */
      g_bad = 1;
      snprintf(g_diag, sizeof g_diag, "no case ran");
    }
    tap("%s: %s %s%s: %d cases, the bits of one gpureduce_reduce", su->name,
        gpureduce_type_name(type), gpureduce_op_name(c[k].op), flags_name(c[k].flags), cases[k]);
  }
  free(counts);
  free(e);
}
