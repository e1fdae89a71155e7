/*
 * lengths.h - the segment lengths of reduce-bench --segments DIST and
 * --sweep-segments: the distributions, their text, and the CSR offsets
 * they give over n elements.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_LENGTHS_H
#define REDUCE_BENCH_LENGTHS_H

#include <stddef.h>
#include <stdint.h>

enum seg_kind { SEG_UNIFORM, SEG_RANDOM, SEG_ZIPF, SEG_HUGE };

struct seg_dist {
  enum seg_kind kind;
  uint64_t length; /* uniform:L, random:L: L */
  double exponent; /* zipf:S:MAX: S */
  uint64_t max;    /* zipf:S:MAX: MAX */
  uint64_t lo, hi; /* huge:A:B[:K]: A, B */
  uint64_t small;  /* huge:A:B:K: K; 0: huge:A:B */
};

/* DIST into *d: 0, or -1 with a line for "--segments ..." in why. */
int dist_parse(const char *arg, struct seg_dist *d, char *why, size_t why_size);
/* Whether d can cut n elements: 0, or -1 with the reason in why. */
int dist_fits(const struct seg_dist *d, uint64_t n, char *why, size_t why_size);
/* DIST as --segments reads it: "uniform:32", "zipf:1.5:1048576". */
const char *dist_text(const struct seg_dist *d, char *buf, size_t size);
/* The name of d's kind: "uniform", "random", "zipf", "huge". */
const char *dist_kind_name(const struct seg_dist *d);

/* The distributions of --sweep-segments over n elements, into rows (room
 * for SWEEP_DISTS); returns how many. */
#define SWEEP_DISTS 40
int sweep_dists(uint64_t n, struct seg_dist *rows);

/* The offsets of one distribution, in host memory, and what they hold. */
struct seg_layout {
  uint64_t *off; /* segments + 1 */
  size_t segments, cap;
  uint64_t min, max, empty;
  size_t longest; /* the first segment of length max */
};

/* The offsets of d over n elements (dist_fits), lengths drawn from a
 * fixed seed: the same d and n give the same offsets.  free(l->off). */
void make_layout(const struct seg_dist *d, uint64_t n, struct seg_layout *l);

#endif /* REDUCE_BENCH_LENGTHS_H */
