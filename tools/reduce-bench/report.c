/*
 * report.c - reduce-bench's tables as text or CSV (RFC 4180), with the
 * lines around them (see report.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
/* isatty, sysconf also under -std=c11. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpureduce.h"

#include "bench.h"
#include "bench_cuda.h"
#include "options.h"
#include "report.h"
#include "run.h"

/* ---- tables ------------------------------------------------------------------ */

void table_init(struct table *t, const struct column *col, int ncol) {
  memset(t, 0, sizeof *t);
  t->col = col;
  t->ncol = ncol;
  for (int c = 0; c < ncol; ++c) {
    t->enabled[c] = 1;
    t->title[c] = col[c].title;
    t->key[c] = col[c].key;
  }
}

struct row *table_add(struct table *t) {
  if (t->nrow == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 16;
    struct row *grown = realloc(t->row, (size_t)t->cap * sizeof *grown);
    if (!grown) fatal(EXIT_WRONG, "out of host memory");
    t->row = grown;
  }
  struct row *r = &t->row[t->nrow++];
  memset(r, 0, sizeof *r);
  return r;
}

void set_num(struct row *r, int c, double v) {
  r->cell[c].kind = CELL_NUM;
  r->cell[c].num = v;
}

void set_text(struct row *r, int c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  r->cell[c].kind = CELL_TEXT;
  vsnprintf(r->cell[c].text, sizeof r->cell[c].text, fmt, ap);
  va_end(ap);
}

/* A cell as the table shows it ("-" when empty) or as data (integers
 * without a point, others with 7 significant digits; "" when empty). */
static void format_cell(const struct column *col, const struct cell *x, int data, char *buf,
                        size_t size) {
  if (x->kind == CELL_TEXT)
    snprintf(buf, size, "%s", x->text);
  else if (x->kind == CELL_NONE || !isfinite(x->num))
    snprintf(buf, size, "%s", data ? "" : "-");
  else if (!data)
    snprintf(buf, size, "%.*f", col->prec, x->num);
  else if (x->num == floor(x->num) && fabs(x->num) < 0x1p53)
    snprintf(buf, size, "%.0f", x->num);
  else
    snprintf(buf, size, "%.7g", x->num);
}

static int column_shown(const struct table *t, int c, int show) {
  return t->enabled[c] && (t->col[c].show & show);
}

static void print_table_text(FILE *f, const struct table *t) {
  int width[MAX_COLUMNS];
  char buf[96];
  for (int c = 0; c < t->ncol; ++c) {
    width[c] = (int)strlen(t->title[c]);
    for (int r = 0; r < t->nrow; ++r) {
      format_cell(&t->col[c], &t->row[r].cell[c], 0, buf, sizeof buf);
      if ((int)strlen(buf) > width[c]) width[c] = (int)strlen(buf);
    }
  }
  int last = -1;
  for (int c = 0; c < t->ncol; ++c)
    if (column_shown(t, c, SHOW_TEXT)) last = c;
  for (int r = -1; r < t->nrow; ++r) {
    const char *sep = "";
    for (int c = 0; c <= last; ++c) {
      if (!column_shown(t, c, SHOW_TEXT)) continue;
      if (r < 0)
        snprintf(buf, sizeof buf, "%s", t->title[c]);
      else
        format_cell(&t->col[c], &t->row[r].cell[c], 0, buf, sizeof buf);
      const int w = c == last && t->col[c].left ? 0 : width[c]; /* no trailing blanks */
      fprintf(f, "%s%*s", sep, t->col[c].left ? -w : w, buf);
      sep = "  ";
    }
    fputc('\n', f);
  }
}

/* One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a
   comma, a quote or a line break. */
static void csv_field(FILE *f, const char *s) {
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; ++s) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void print_table_csv(FILE *f, const struct table *t) {
  char buf[96];
  for (int r = -1; r < t->nrow; ++r) {
    const char *sep = "";
    for (int c = 0; c < t->ncol; ++c) {
      if (!column_shown(t, c, SHOW_DATA)) continue;
      if (r < 0)
        snprintf(buf, sizeof buf, "%s", t->key[c]);
      else
        format_cell(&t->col[c], &t->row[r].cell[c], 1, buf, sizeof buf);
      fputs(sep, f);
      csv_field(f, buf);
      sep = ",";
    }
    fputc('\n', f);
  }
}

static void table_free(struct table *t) {
  free(t->row);
  t->row = NULL;
}

/* ---- the lines around the table, and the output ---------------------------- */

const char *label_n(size_t n, char *buf, size_t size) {
  if (n == LADDER_N)
    snprintf(buf, size, "2^24-611");
  else if (n && !(n & (n - 1)))
    snprintf(buf, size, "2^%u", ceil_log2(n));
  else
    snprintf(buf, size, "%zu", n);
  return buf;
}

const char *describe_n(size_t n, char *buf, size_t size) {
  char nl[32];
  label_n(n, nl, sizeof nl);
  if (strchr(nl, '^'))
    snprintf(buf, size, "n = %zu (%s)", n, nl);
  else
    snprintf(buf, size, "n = %zu", n);
  return buf;
}

const char *describe_bytes(double bytes, char *buf, size_t size) {
  static const char *const units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000 && u < 4) bytes /= 1000, ++u;
  snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
  return buf;
}

static void version_text(int v, char *buf, size_t size) {
  snprintf(buf, size, "%d.%d", v / 1000, v % 1000 / 10);
}

const char *call_text(gpureduce_type_t t, const char *op, unsigned flags, char *buf,
                      size_t size) {
  snprintf(buf, size, "%s %s%s%s", gpureduce_type_name(t), op,
           flags & GPUREDUCE_ACCUMULATE_F64 ? " (f64 accumulation)" : "",
           flags & GPUREDUCE_WITH_VALUE ? " (with value)" : "");
  return buf;
}

const char *what_text(const struct options *o, char *buf, size_t size) {
  return call_text(o->type, op_text(o), o->flags, buf, size);
}

static void print_header_text(FILE *f, const struct run *run) {
  char rt[16], drv[16], l2[32];
  if (run->cuda) {
    version_text(run->dev.runtime_version, rt, sizeof rt);
    version_text(run->dev.driver_version, drv, sizeof drv);
    fprintf(f,
            "%s %s: %s (device %d), %d SMs, compute capability %d.%d, CUDA runtime %s, "
            "driver %s, L2 %s\n",
            program_name, gpureduce_version_string(), run->dev.name, run->dev.ordinal, run->dev.sm_count,
            run->dev.cc_major, run->dev.cc_minor, rt, drv,
            describe_bytes((double)run->dev.l2_bytes, l2, sizeof l2));
  } else {
    fprintf(f, "%s %s: host backend, %ld CPUs online\n", program_name, gpureduce_version_string(),
            sysconf(_SC_NPROCESSORS_ONLN));
  }
  for (int i = 0; i < run->nhead; ++i) fprintf(f, "%s\n", run->head[i]);
  if (run->limit_gbs > 0)
    fprintf(f,
            "bandwidth limit: %.0f GB/s (read-only probe over 1 GiB, best grid %u blocks of %d)\n",
            run->limit_gbs, run->limit_grid, BENCH_BLOCK);
}

void print_report(const struct run *run, struct table *t) {
  if (run->opt->csv) {
    print_table_csv(stdout, t);
    for (int i = 0; i < run->nsummary; ++i) message("%s", run->summary[i]);
  } else {
    print_header_text(stdout, run);
    putchar('\n');
    print_table_text(stdout, t);
    putchar('\n');
    for (int i = 0; i < run->nsummary; ++i) printf("%s\n", run->summary[i]);
    for (int i = 0; i < run->nnotes; ++i) printf("note: %s", run->notes[i]);
  }
  fflush(stdout);
  table_free(t);
}

void progress(const char *fmt, ...) {
  if (!isatty(STDERR_FILENO)) return;
  char line[80];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\r%-60s\r", line);
  fflush(stderr);
}
