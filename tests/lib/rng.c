/*
 * rng.c - see rng.h.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "rng.h"

#include <stdlib.h>

#define TU_DEFAULT_SEED UINT64_C(20260417)

uint64_t tu_seed(void) {
  static int have = 0;
  static uint64_t seed;
  if (!have) {
    const char *s = getenv("GPUREDUCE_TEST_SEED");
    seed = TU_DEFAULT_SEED;
    if (s && *s) {
      char *end = NULL;
      unsigned long long v = strtoull(s, &end, 0);
      if (end && *end == '\0') seed = (uint64_t)v;
    }
    have = 1;
  }
  return seed;
}

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

void tu_rng_init(tu_rng *r, const char *label) {
  uint64_t h = UINT64_C(1469598103934665603); /* FNV-1a of the label */
  for (const char *p = label; *p; ++p) h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
  uint64_t x = tu_seed() ^ h;
  for (int i = 0; i < 4; ++i) r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t tu_next(tu_rng *r) {
  uint64_t *s = r->s;
  const uint64_t result = rotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint64_t tu_below(tu_rng *r, uint64_t bound) {
  /* Lemire's multiply-shift is not needed: rejection keeps it exact. */
  const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  uint64_t x;
  do x = tu_next(r);
  while (x >= limit);
  return x % bound;
}

double tu_unit(tu_rng *r) { return (double)(tu_next(r) >> 11) * 0x1p-53; }
