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
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#define _GNU_SOURCE 1 /* dlsym's RTLD_NEXT */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "gpureduce_mpi.h"

#include "elements.h"
#include "rng.h"

#if GR_TEST_INTERPOSE
#include <dlfcn.h>
#endif

/* ---- the run ------------------------------------------------------------- */

static int g_rank, g_size;
static MPI_Comm g_comm;          /* MPI_COMM_WORLD */
static gpureduce_handle_t g_host; /* every rank's host handle */
static uint64_t g_seed;           /* rank 0's tu_seed(), broadcast */
static int g_tap;                 /* TAP lines printed (rank 0) */
static int g_failed_lines;

/* The first diagnostic of this rank since the last tap(). */
static char g_diag[400];
static int g_bad; /* this rank's failures since the last tap() */

static void bad(const char *fmt, ...) {
  if (g_bad++ == 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_diag, sizeof g_diag, fmt, ap);
    va_end(ap);
  }
}

/* One TAP line, from every rank's failures since the last one. */
static void tap(const char *fmt, ...) {
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

static void skip(const char *why, const char *fmt, ...) {
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

/* Every rank's value equal? */
static int all_equal_int(int v) {
  int lo = v, hi = v;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, g_comm);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, g_comm);
  return lo == hi;
}

/* ---- an injected failure of gpureduce_partial_reduce() -------------------- */

static int g_inject_rank = -1;
static gpureduce_status_t g_inject_status;
static long g_partial_calls; /* calls that went through the interposer */

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

/* ---- data ------------------------------------------------------------------ */

static uint64_t mix(uint64_t x) {
  x += UINT64_C(0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

enum data_kind { D_PLAIN, D_SPECIAL, D_TIES, D_KINDS };
static const char *const data_names[D_KINDS] = {"plain", "specials", "ties"};

/* Float layouts: total bits, fraction bits, exponent bias. */
static void layout(gpureduce_type_t t, unsigned *bits, unsigned *frac, unsigned *bias) {
  switch (t) {
    case GPUREDUCE_F16: *bits = 16, *frac = 10, *bias = 15; break;
    case GPUREDUCE_BF16: *bits = 16, *frac = 7, *bias = 127; break;
    case GPUREDUCE_F32: *bits = 32, *frac = 23, *bias = 127; break;
    default: *bits = 64, *frac = 52, *bias = 1023; break;
  }
}

/* Element i of the array of (type, kind, seed); `prod' asks for values
 * whose product stays in range (near 1 in magnitude, some negative). */
static uint64_t element(gpureduce_type_t type, enum data_kind kind, int prod, uint64_t seed,
                        uint64_t i) {
  const uint64_t h = mix(seed ^ mix(i)), h2 = mix(h);
  const tu_type *t = TU_TYPE(type);
  if (!t->is_float) {
    const uint64_t mask = tu_size_mask(t->size);
    if (kind == D_TIES) { /* -2 .. 2, or 0 .. 4 */
      const int64_t v = (int64_t)(h % 5) - (t->is_signed ? 2 : 0);
      return (uint64_t)v & mask;
    }
    if (kind == D_SPECIAL) { /* the extremes among random values */
      switch (h % 8) {
        case 0: return tu_type_max(type);
        case 1: return tu_type_lowest(type);
        case 2: return 0;
        case 3: return mask; /* -1, or the largest unsigned */
        default: break;
      }
    }
    if (prod) return (h2 % 16 ? (h | 1) : h) & mask; /* mostly odd */
    return h2 & mask;
  }
  unsigned bits, frac, bias;
  layout(type, &bits, &frac, &bias);
  const uint64_t fmask = (UINT64_C(1) << frac) - 1;
  const uint64_t sign = (uint64_t)1 << (bits - 1);
  const uint64_t s = (h & 1) ? sign : 0;
  if (kind == D_TIES) { /* -2, -1, -0, +0, 1, 2 */
    switch (h % 6) {
      case 0: return sign | (uint64_t)(bias + 1) << frac;
      case 1: return sign | (uint64_t)bias << frac;
      case 2: return sign;
      case 3: return 0;
      case 4: return (uint64_t)bias << frac;
      default: return (uint64_t)(bias + 1) << frac;
    }
  }
  if (kind == D_SPECIAL) {
    const uint64_t all_ones_exp = ((UINT64_C(1) << (bits - 1 - frac)) - 1) << frac;
    switch (h2 % 256) {
      case 0: { /* a NaN: any sign, quiet or signalling, a payload */
        uint64_t m = (h >> 8) & fmask;
        if (m == 0) m = 1;
        return s | all_ones_exp | m;
      }
      case 1: return all_ones_exp;        /* +inf */
      case 2: return sign | all_ones_exp; /* -inf */
      case 3: return 0;                   /* +0 */
      case 4: return sign;                /* -0 */
      default: break;
    }
  }
  if (prod) {
    /* [1, 1 + 2^-6) or (1 - 2^-7, 1): a random walk in the logarithm. */
    const uint64_t small = (h2 >> 12) & (fmask >> 6);
    const uint64_t neg = (h2 % 16 == 0) ? sign : 0;
    if (h & 2) return neg | (uint64_t)bias << frac | small;
    return neg | (uint64_t)(bias - 1) << frac | (fmask - small);
  }
  /* +-m 2^e, m in [1, 2), e in [-8, 8]. */
  const unsigned e = bias - 8 + (unsigned)((h >> 1) % 17);
  return s | (uint64_t)e << frac | (h2 & fmask);
}

static void fill(void *buf, gpureduce_type_t type, enum data_kind kind, int prod, uint64_t seed,
                 size_t n) {
  const unsigned size = TU_TYPE(type)->size;
  for (size_t i = 0; i < n; ++i) tu_store(buf, i, size, element(type, kind, prod, seed, i));
}

/* ---- partitions ------------------------------------------------------------ */

enum part_kind { P_EVEN, P_RANDOM, P_ONE, P_TINY, P_IN_TILE, P_EMPTY_ALT, P_TILE_EDGES, P_KINDS };
static const char *const part_names[P_KINDS] = {"even",      "random cuts", "one rank",
                                                "tiny parts", "cuts in one tile",
                                                "every other rank empty", "cuts at tile edges"};

static int cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* counts[0 .. size-1] of the partition `kind' of n elements over size
 * ranks (tiles of te elements), the same on every rank for the same
 * label. */
static void partition(enum part_kind kind, uint64_t n, uint64_t te, int size, const char *label,
                      uint64_t *counts) {
  tu_rng rng;
  char full[160];
  snprintf(full, sizeof full, "%s/%016llx", label, (unsigned long long)g_seed);
  tu_rng_init(&rng, full);
  uint64_t *cut = malloc(((size_t)size + 1) * sizeof *cut); /* cut[r] = start of rank r */
  cut[0] = 0;
  cut[size] = n;
  switch (kind) {
    case P_EVEN:
      for (int r = 1; r < size; ++r) cut[r] = n * (uint64_t)r / (uint64_t)size;
      break;
    case P_RANDOM:
      for (int r = 1; r < size; ++r) cut[r] = tu_below(&rng, n + 1);
      qsort(cut + 1, (size_t)size - 1, sizeof *cut, cmp_u64);
      break;
    case P_ONE: {
      const int who = (int)tu_below(&rng, (uint64_t)size);
      for (int r = 1; r < size; ++r) cut[r] = r <= who ? 0 : n;
      break;
    }
    case P_TINY: /* ranks 0 .. size-2 hold 0 to 3 elements each */
      for (int r = 1; r < size; ++r) {
        const uint64_t c = cut[r - 1] + tu_below(&rng, 4);
        cut[r] = c < n ? c : n;
      }
      break;
    case P_IN_TILE: { /* every cut inside the tile that holds n / 2 */
      const uint64_t t0 = (n / 2) / te * te, t1 = t0 + te < n ? t0 + te : n;
      for (int r = 1; r < size; ++r) cut[r] = t0 + tu_below(&rng, t1 - t0 + 1);
      qsort(cut + 1, (size_t)size - 1, sizeof *cut, cmp_u64);
      break;
    }
    case P_EMPTY_ALT: /* even ranks empty (rank 0 too, unless alone) */
      for (int r = 1; r < size; ++r) cut[r] = r % 2 ? cut[r - 1] : tu_below(&rng, n + 1);
      for (int r = 2; r < size; ++r)
        if (cut[r] < cut[r - 1]) cut[r] = cut[r - 1];
      if (size > 1 && size % 2 == 0) cut[size - 1] = cut[size - 2]; /* (rank size-1 is odd) */
      break;
    case P_TILE_EDGES: /* next to a tile boundary: k te - 1, k te or k te + 1 */
      for (int r = 1; r < size; ++r) {
        const uint64_t tiles = n / te + 1;
        int64_t c = (int64_t)(tu_below(&rng, tiles + 1) * te) + (int64_t)tu_below(&rng, 3) - 1;
        cut[r] = c < 0 ? 0 : (uint64_t)c > n ? n : (uint64_t)c;
      }
      qsort(cut + 1, (size_t)size - 1, sizeof *cut, cmp_u64);
      break;
    default: break;
  }
  for (int r = 0; r < size; ++r) counts[r] = cut[r + 1] - cut[r];
  free(cut);
}

/* ---- combinations ------------------------------------------------------------ */

typedef struct combo {
  gpureduce_op_t op;
  unsigned flags;
  size_t rs; /* result bytes */
} combo;
#define MAX_COMBOS 24

/* Every (op, flags) that gpureduce.h's table gives type a result for. */
static int combos_of(gpureduce_type_t type, combo *c) {
  static const unsigned flag_sets[] = {0, GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_WITH_VALUE};
  int k = 0;
  for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op)
    for (size_t f = 0; f < COUNT(flag_sets); ++f) {
      const size_t rs = tu_result_size(type, (gpureduce_op_t)op, flag_sets[f]);
      if (rs) c[k++] = (combo){(gpureduce_op_t)op, flag_sets[f], rs};
    }
  return k;
}

static const char *flags_name(unsigned flags) {
  return flags == GPUREDUCE_ACCUMULATE_F64 ? " GPUREDUCE_ACCUMULATE_F64"
         : flags == GPUREDUCE_WITH_VALUE   ? " GPUREDUCE_WITH_VALUE"
                                           : "";
}

/* What rank 0's one gpureduce_reduce() gave. */
typedef struct expect {
  int32_t status;
  uint32_t pad;
  unsigned char bytes[16];
} expect;

static void hex(char *out, size_t size, const unsigned char *b, size_t n) {
  size_t at = 0;
  for (size_t i = 0; i < n && at + 3 < size; ++i) at += (size_t)snprintf(out + at, size - at, "%02x", b[i]);
}

/* ---- where a rank's part and result live ------------------------------------- */

enum backend { B_HOST, B_CUDA };

typedef struct place {
  enum backend backend;
  gpureduce_handle_t handle;
  void *dev_in;        /* CUDA: device copy of the part */
  size_t dev_in_bytes; /* its capacity */
  void *dev_out;       /* CUDA: 16 bytes of device memory */
} place;

static int cuda_ok(cudaError_t e, const char *what) {
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

typedef struct suite {
  const char *name;      /* for the TAP lines */
  int cuda_even, cuda_odd; /* which ranks use their CUDA place */
  int big;               /* the full list of lengths and partitions */
} suite;

/* One type: every combination, lengths and partitions; one TAP line per
 * combination. */
static void run_type(const suite *su, place *mine, gpureduce_type_t type) {
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

/* ---- errors ------------------------------------------------------------------ */

/* Call gpureduce_mpi_reduce with this rank's arguments and check: status
 * want, the same on every rank; output untouched; the message (when the
 * handle exists) holds `says'; with `same_text', it is the same text on
 * every rank that has a handle. */
static void expect_error(const void *in, void *out, size_t n_local, gpureduce_type_t type,
                         gpureduce_op_t op, unsigned flags, gpureduce_handle_t h,
                         gpureduce_status_t want, const char *says, int same_text,
                         const char *fmt, ...) {
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

static void run_errors(void) {
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
  snprintf(says, sizeof says, "rank %d: flags 0x4 has unknown bits", last);
  expect_error(x, out, 8, GPUREDUCE_F32, GPUREDUCE_SUM, g_rank == last ? 0x4u : 0, g_host,
               GPUREDUCE_ERROR_INVALID_ARGUMENT, says, 1,
               "errors: rank %d passes unknown flags 0x4: every rank INVALID_ARGUMENT", last);
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
static void run_steady(void) {
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

/* ---- communicators ------------------------------------------------------------ */

static int g_key_of[4096];
static int by_key(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  if (g_key_of[x] != g_key_of[y]) return g_key_of[x] < g_key_of[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

static void run_communicators(void) {
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

/* ---- CUDA ---------------------------------------------------------------------- */

static int cuda_place(place *pl) {
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

static void run_cuda(place *host, place *cuda) {
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
