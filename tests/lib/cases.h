/*
 * cases.h - the tests' data: generators of element arrays for every type,
 * the sizes that cross gpureduce's boundaries (chunks, warps, lanes,
 * tiles), and one iterator over the cases of a random-data test:
 *
 *     for each kind (a type, or a type with one flags value)
 *       for each size n
 *         for each fill (a generator and the operations its data is for)
 *           for each of those operations, for each flags value it has a
 *           result with, for each offset: one case.
 *
 * A test describes what it walks in a struct tc_plan and loops
 *
 *     struct tc_walk w;
 *     struct tc_case c;
 *     tc_begin(&w, &plan);
 *     while (tc_next(&w, &c) > 0) ...reduce c.x[0 .. c.n-1] with c.op...;
 *
 * No cmocka: nothing here prints, exits or fails a test.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_TESTS_CASES_H
#define GPUREDUCE_TESTS_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "gpureduce.h"
#include "rng.h"

/* ---- generators ------------------------------------------------------------ */

enum tc_gen {
  G_WIDE,     /* floats: mixed signs, exponents over +-24 binades (f16: its
               * whole finite range), some +-0 and subnormals; integers:
               * random bits and some extremes */
  G_INF,      /* G_WIDE and a few infinities */
  G_NEAR1,    /* floats within 1/64 of 1, symmetric (products) */
  G_POOL,     /* a few values, many ties (+-0 among the floats; the lowest
               * and largest values among the integers) */
  G_ODD,      /* integers: odd random values (products stay nonzero mod 2^64) */
  G_FACTORS,  /* data for products: G_NEAR1 for floats, G_ODD for integers */
  G_INNER,    /* values strictly inside the type's range: G_WIDE for floats
               * (finite), G_POOL without the lowest and largest value for
               * integers (7 in their place) */
  G_MODERATE  /* no NaN, no infinity, moderate magnitudes: f16 and bf16 of
               * |x| in [2^-5, 2^3) and [2^-7, 2^5), f32 and f64 uniform in
               * [-2, 2); integers of every bit pattern */
};
/* n elements of `type` from generator g into x, drawn from r. */
void tc_fill(tu_rng *r, gpureduce_type_t type, enum tc_gen g, void *x, size_t n);

/* ---- sizes and types ---------------------------------------------------------- */

/* Room enough for any list of sizes of a walk. */
#define TC_MAX_SIZES 32
/* The sizes of the random-data tests, into s: n in {1, 2, 31, 32, 33, 255,
 * 256, 257, 1025} and k tiles +-1 for k = 1, 2, 3, 5 (a tile is 2048 V
 * elements); returns how many. */
size_t tc_sizes(gpureduce_type_t type, size_t *s);

extern const gpureduce_type_t tc_int_types[6];   /* i8 u8 i32 u32 i64 u64 */
extern const gpureduce_type_t tc_float_types[4]; /* f16 bf16 f32 f64 */

/* A type with one flags value. */
struct tc_kind {
  gpureduce_type_t type;
  unsigned flags;
};
/* Every floating accumulation: f16, bf16, f32 in float; f32 and f64 in
 * double. */
extern const struct tc_kind tc_sum_kinds[5];

/* ---- doc/ORDER.md's worked examples ------------------------------------------- */

/* f32 inputs whose sums are worked out by hand from doc/ORDER.md (cases.c
 * shows the working): the library and the reference must both give them. */
struct tc_example {
  const char *what; /* the example and its answer, in words */
  size_t n;         /* elements */
  float sum;        /* the f32 sum by doc/ORDER.md */
};
#define TC_EXAMPLES 4
/* Room for any example: four tiles and one float. */
#define TC_EXAMPLE_ROOM (4 * (size_t)8192 + 1)
/* Example k (0 .. TC_EXAMPLES-1) into x[0 .. n-1]. */
struct tc_example tc_order_example(int k, float *x);

/* ---- the iterator ------------------------------------------------------------ */

/* Bit of an operation in tc_fill's `ops`. */
#define TC_OP(op) (1u << (op))
#define TC_ALL_OPS ((1u << GPUREDUCE_OP_COUNT) - 1)
#define TC_MIN_MAX_OPS \
  (TC_OP(GPUREDUCE_MIN) | TC_OP(GPUREDUCE_MAX) | TC_OP(GPUREDUCE_ARGMIN) | TC_OP(GPUREDUCE_ARGMAX))

/* Data from one generator, and the operations checked on it. */
struct tc_data {
  enum tc_gen gen;
  unsigned ops;     /* TC_OP(op) | ... */
  const char *what; /* what the data is, for the cases' descriptions */
};

struct tc_plan {
  /* The random streams, one per kind: "<stream> <type name>", and
   * " <flags>" after it for kinds. */
  const char *stream;
  /* The kinds: either `types` (each with every flags value the operation
   * has a result with), or `kinds` (each with its one flags value); when
   * both are NULL, every type. */
  const gpureduce_type_t *types;
  size_t ntypes;
  const struct tc_kind *kinds;
  size_t nkinds;
  /* The sizes of a kind, into n (at most TC_MAX_SIZES), drawn from the
   * kind's stream if need be; returns how many.  NULL: tc_sizes. */
  size_t (*sizes)(gpureduce_type_t type, tu_rng *r, size_t *n);
  const struct tc_data *data;
  size_t ndata;
  /* Each case at offsets 0 .. offsets-1 elements past an aligned address,
   * innermost (0 and 1: offset 0 only). */
  size_t offsets;
};

struct tc_case {
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  size_t n;
  size_t offset;
  const struct tc_data *data; /* the generator and what the data is */
  const void *x;              /* n elements in host memory, 256-byte aligned,
                               * valid until the next tc_next */
  int fresh;                  /* the first case on newly filled x */
};

/* The state of a walk; its fields are the iterator's own. */
struct tc_walk {
  const struct tc_plan *plan;
  size_t kind, size, data, nsizes, offset;
  int op;
  unsigned flags;
  int started;
  int unread; /* x was filled since the last case */
  size_t sizes[TC_MAX_SIZES];
  tu_rng rng;
  void *x;
  size_t cap; /* bytes at x */
};

void tc_begin(struct tc_walk *w, const struct tc_plan *plan);
/* 1: *c is the next case; 0: there is none left (the walk's memory is
 * freed); -1: the data's memory cannot be allocated (freed too). */
int tc_next(struct tc_walk *w, struct tc_case *c);
/* Free the walk's memory when leaving a walk early (a no-op after tc_next
 * returned 0 or -1). */
void tc_end(struct tc_walk *w);

#endif /* GPUREDUCE_TESTS_CASES_H */
