/*
 * rng.h - the tests' random numbers: xoshiro256** seeded through
 * splitmix64, from one seed per run mixed with a label per purpose, so
 * every run is reproducible and tests draw independent streams whatever
 * order they run in.  No cmocka; safe in threads (each with its own
 * tu_rng, initialised from the main thread).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_TESTS_RNG_H
#define GPUREDUCE_TESTS_RNG_H

#include <stdint.h>

typedef struct tu_rng {
  uint64_t s[4];
} tu_rng;

/* The run's seed: $GPUREDUCE_TEST_SEED (decimal or 0x hex), else a fixed
 * default. */
uint64_t tu_seed(void);
/* A generator for one purpose: the run's seed mixed with a label. */
void tu_rng_init(tu_rng *r, const char *label);
uint64_t tu_next(tu_rng *r);
/* Uniform in [0, bound) (bound > 0). */
uint64_t tu_below(tu_rng *r, uint64_t bound);
/* Uniform in [0, 1). */
double tu_unit(tu_rng *r);

#endif /* GPUREDUCE_TESTS_RNG_H */
