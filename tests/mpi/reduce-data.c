/*
 * reduce-data.c - test-mpi-reduce's data and partitions
 * (test-mpi-reduce.h): every element a hash of the run's seed and its
 * index, and the cuts of an array over the ranks, the same on every rank.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "test-mpi-reduce.h"

/* ---- data ------------------------------------------------------------------ */

uint64_t mix(uint64_t x) {
  x += UINT64_C(0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

const char *const data_names[D_KINDS] = {"plain", "specials", "ties"};

/* Float layouts: total bits, fraction bits, exponent bias. */
static void layout(gpureduce_type_t t, unsigned *bits, unsigned *frac, unsigned *bias) {
  switch (t) {
    case GPUREDUCE_F16: *bits = 16, *frac = 10, *bias = 15; break;
    case GPUREDUCE_BF16: *bits = 16, *frac = 7, *bias = 127; break;
    case GPUREDUCE_F32: *bits = 32, *frac = 23, *bias = 127; break;
    default: *bits = 64, *frac = 52, *bias = 1023; break;
  }
}

/* (test-mpi-reduce.h) */
uint64_t element(gpureduce_type_t type, enum data_kind kind, int prod, uint64_t seed,
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

void fill(void *buf, gpureduce_type_t type, enum data_kind kind, int prod, uint64_t seed,
          size_t n) {
  const unsigned size = TU_TYPE(type)->size;
  for (size_t i = 0; i < n; ++i) tu_store(buf, i, size, element(type, kind, prod, seed, i));
}

/* ---- partitions ------------------------------------------------------------ */

const char *const part_names[P_KINDS] = {"even",      "random cuts", "one rank",
                                         "tiny parts", "cuts in one tile",
                                         "every other rank empty", "cuts at tile edges"};

static int cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* (test-mpi-reduce.h) */
void partition(enum part_kind kind, uint64_t n, uint64_t te, int size, const char *label,
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
