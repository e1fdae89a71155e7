/*
 * report.h - reduce-bench's tables and their output: a text table between
 * the run's header and notes, or CSV.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_REPORT_H
#define REDUCE_BENCH_REPORT_H

#include <stddef.h>

#include "gpureduce.h"

#include "bench.h"

struct options;
struct run;

enum cell_kind { CELL_NONE, CELL_NUM, CELL_TEXT };

struct cell {
  enum cell_kind kind;
  double num;
  char text[80];
};

enum { SHOW_TEXT = 1, SHOW_DATA = 2, SHOW_ALL = 3 }; /* the table; CSV */

struct column {
  const char *key;   /* CSV header */
  const char *title; /* table header */
  int prec;          /* digits after the point in the table */
  int show;
  int left; /* left-aligned in the table */
};

#define MAX_COLUMNS 32

struct row {
  struct cell cell[MAX_COLUMNS];
};

struct table {
  const struct column *col;
  int ncol;
  int enabled[MAX_COLUMNS];
  const char *title[MAX_COLUMNS]; /* the columns' titles and keys, renamable */
  const char *key[MAX_COLUMNS];
  struct row *row;
  int nrow, cap;
};

/* Columns col[0 .. ncol-1], all enabled, no rows. */
void table_init(struct table *t, const struct column *col, int ncol);
/* A new empty row at the end. */
struct row *table_add(struct table *t);
void set_num(struct row *r, int c, double v);
void set_text(struct row *r, int c, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* The table as text with the run's header, summary and notes, or with
 * --csv as CSV, on stdout (CSV: the summary on stderr); then freed. */
void print_report(const struct run *run, struct table *t);

/* Progress on stderr, only when it is a terminal. */
void progress(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* "2^24-611", "2^K", or n in decimal. */
const char *label_n(size_t n, char *buf, size_t size);
/* "n = 16776605 (2^24-611)", or "n = 1000" when n has no shorter name. */
const char *describe_n(size_t n, char *buf, size_t size);
/* Bytes in B, kB, MB or GB (powers of 1000), one decimal. */
const char *describe_bytes(double bytes, char *buf, size_t size);
/* "f32 sum", "f32 sum (f64 accumulation)", "f16 argmax (with value)": the
 * type, the operation's name op and the flags. */
const char *call_text(gpureduce_type_t t, const char *op, unsigned flags, char *buf,
                      size_t size);
/* call_text of --op (op_text: "dot" too), --type and the flags. */
const char *what_text(const struct options *o, char *buf, size_t size);

#endif /* REDUCE_BENCH_REPORT_H */
