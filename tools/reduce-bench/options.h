/*
 * options.h - reduce-bench's command line.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_OPTIONS_H
#define REDUCE_BENCH_OPTIONS_H

#include <stddef.h>

#include "gpureduce.h"

#include "lengths.h"

#define LADDER_N (((size_t)1 << 24) - 611) /* 611 = 13 x 47: no block size divides n */

enum backend { BACKEND_AUTO, BACKEND_CUDA, BACKEND_HOST };

/* What a run measures (main.c calls the mode's run_ function, modes.h). */
enum mode {
  MODE_LADDER,   /* the default: the f32 sum of n ones */
  MODE_SWEEP,    /* --sweep, or one size of it: another operation, type or flag */
  MODE_BATCHED,  /* --batch, --sweep-batched */
  MODE_SEGMENTS, /* --segments, --sweep-segments */
  MODE_DOT,      /* --op dot */
  MODE_TUNE      /* --tune */
};

struct options {
  enum mode mode;
  int sweep; /* --sweep, --sweep-batched, --sweep-segments: a table of sizes */
  size_t n;  /* a sweep's largest size, or 0 for its default */
  gpureduce_op_t op; /* GPUREDUCE_SUM for --op dot */
  int dot;
  gpureduce_type_t type;
  unsigned flags;
  size_t offset;
  int device;
  int device_given;
  enum backend backend;
  int repeat;
  size_t batch; /* --batch: rows, or with --columns columns */
  int columns;
  size_t stride; /* 0: dense (n for rows, batch for columns) */
  struct seg_dist dist; /* --segments */
  int csv;
  int check;
};

/*
 * Read argv into o.  --repeat's default is 10 for the ladder (a smaller
 * value is raised to it, with a line on stderr), else 5.  --help and
 * --version print and exit 0; a bad option or value prints one line and
 * a hint on stderr and exits 2.
 */
void parse_options(int argc, char **argv, struct options *o);

/* The operation's name: gpureduce_op_name(o->op), or "dot". */
const char *op_text(const struct options *o);

/* --with-value: ARGMIN or ARGMAX with GPUREDUCE_WITH_VALUE. */
int is_with_value(const struct options *o);

/* The f32 sum without flags: the ladder's operation. */
int is_plain_f32_sum(const struct options *o);

#endif /* REDUCE_BENCH_OPTIONS_H */
