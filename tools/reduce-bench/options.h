/*
 * options.h - reduce-bench's command line.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_OPTIONS_H
#define REDUCE_BENCH_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "gpureduce.h"

#define LADDER_N (((size_t)1 << 24) - 611) /* 611 = 13 x 47: no block size divides n */
#define MAX_SIZES 64                       /* the sizes --sizes may name */

enum backend { BACKEND_AUTO, BACKEND_CUDA, BACKEND_HOST };
enum format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

/* Rows of the ladder, in order; also the bits of --only. */
enum row_id {
  ROW_V1,
  ROW_V2,
  ROW_V3,
  ROW_V4,
  ROW_V5,
  ROW_V6,
  ROW_LIB,
  ROW_CUB,
  ROW_PROBE,
  ROW_COUNT
};

/* The layouts of --sweep-batched, in the order it runs them; also the
 * bits of --layouts.  LAYOUT_MISALIGNED: rows with ld = n + 1. */
enum layout { LAYOUT_ROWS, LAYOUT_COLUMNS, LAYOUT_MISALIGNED, LAYOUT_COUNT };

/* The segment lengths of --segments DIST (segments.c makes them). */
enum seg_kind { SEG_UNIFORM, SEG_RANDOM, SEG_ZIPF, SEG_HUGE };

struct seg_dist {
  enum seg_kind kind;
  uint64_t length;   /* uniform:L, random:L: L */
  double exponent;   /* zipf:S:MAX: S */
  uint64_t max;      /* zipf:S:MAX: MAX */
  uint64_t lo, hi;   /* huge:A:B[:K]: A, B */
  uint64_t small;    /* huge:A:B:K: K; 0: huge:A:B */
};

struct options {
  size_t n;
  int n_given;
  int device_given;
  gpureduce_op_t op; /* GPUREDUCE_SUM for --op dot; a list's first */
  int dot;           /* --op dot: gpureduce_dot (dot.c) */
  gpureduce_type_t type; /* a list's first */
  /* --op LIST and --type LIST (--sweep-1d): bits 1 << op, 1 << type; 0:
   * not given.  The counts are the names given (more than 1: a list). */
  unsigned op_mask, type_mask;
  int op_count, type_count;
  unsigned flags;
  size_t offset;
  int offset_given;
  int device;
  enum backend backend;
  enum format format;
  unsigned only; /* bits of enum row_id */
  int only_given;
  int repeat;
  int repeat_given;
  int sweep;
  int check;
  int tune;
  unsigned blocks; /* 0: the library's choice */
  /* --batch, --columns, --stride: one batched call (gpureduce_reduce_batched) */
  size_t batch; /* 0: not given */
  int columns;
  size_t stride; /* 0: dense (n for rows, batch for columns) */
  /* --sweep-batched, --sweep-elements, --layouts */
  int sweep_batched;
  size_t sweep_elements; /* 0: the default (2^28; host backend 2^24) */
  unsigned layouts;      /* bits of enum layout */
  int layouts_given;
  /* --segments, --sweep-segments, --seed: gpureduce_reduce_segments */
  int segments; /* --segments given: dist holds it */
  struct seg_dist dist;
  int sweep_segments;
  uint64_t seed;
  int seed_given;
  /* --sweep-1d, --sizes, --runs: every op and type of gpureduce_reduce */
  int sweep_1d;
  size_t sizes[MAX_SIZES]; /* --sizes, ascending, each once */
  int nsizes;              /* 0: the default sizes */
  int runs;                /* median of this many runs (default 3) */
  int runs_given;
};

/*
 * Read argv into o, with the defaults: --repeat 10 for the ladder (a
 * smaller value raised to it, with a line on stderr), 5 for --sweep,
 * --sweep-1d, --batch and --sweep-batched; for --sweep-1d, --offset 3
 * and --runs 3.
 * --help and --version print and exit 0; a bad option or value prints
 * one line and the usage on stderr and exits 2.
 */
void parse_options(int argc, char **argv, struct options *o);

/* --batch or --sweep-batched: a mode of gpureduce_reduce_batched. */
int is_batched(const struct options *o);

/* --segments or --sweep-segments: a mode of gpureduce_reduce_segments. */
int is_segmented(const struct options *o);

/* DIST as --segments reads it back: "uniform:32", "zipf:1.5:1048576". */
const char *dist_text(const struct seg_dist *d, char *buf, size_t size);
/* The name of d's kind: "uniform", "random", "zipf", "huge". */
const char *dist_kind_name(const struct seg_dist *d);

/* The operation's name: gpureduce_op_name(o->op), or "dot". */
const char *op_text(const struct options *o);

/* --with-value: ARGMIN or ARGMAX with GPUREDUCE_WITH_VALUE. */
int is_with_value(const struct options *o);

/* The f32 sum without flags: the operation of the ladder's rungs. */
int is_plain_f32_sum(const struct options *o);

/* The CUB version compared with, "3.0.1", or "not built". */
const char *cub_text(char *buf, size_t size);

#endif /* REDUCE_BENCH_OPTIONS_H */
