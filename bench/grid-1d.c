/*
 * grid-1d.c - the 1-D grid, a developer's benchmark (bench/README): every
 * operation and type of gpureduce_reduce with flags 0, at a few sizes and
 * at offsets 0 and --offset, in one process, gpureduce beside CUB and the
 * probe; the rows of bench/data/perf-h200-1d.csv, which
 * bench/perf-targets.sh reads.  It is reduce-bench's machinery
 * (tools/reduce-bench/libbench.a) with a main of its own.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * The work is ordered so that nothing but the timed calls is repeated:
 * one input per type (the largest n plus the offset, filled once), one
 * CUB object per (type, op) (its temporary storage sized for the largest
 * n), one probe for the whole run, timed once per (type, n, offset)
 * since what it reads does not depend on the operation.  The rows are
 * printed by (op, type, n, offset) whatever order they were measured in.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
/* getopt_long also under -std=c11. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpureduce.h"

#include "bench.h"
#include "bench_cub.h"
#include "bench_cuda.h"
#include "checks.h"
#include "options.h"
#include "report.h"
#include "run.h"
#include "timing.h"

#include "args.h"

#define NAME "grid-1d"
#define MAX_SIZES 64

#define CHECK_MAX_N ((size_t)1 << 20)    /* results checked up to this n */
#define HOST_DEFAULT_MAX_N ((size_t)1 << 20) /* the host backend's default sizes */

/* The default sizes, as issue 16 lists them. */
static const unsigned default_log2[] = {10, 14, 18, 20, 22, 24, 26, 28, 30};
#define DEFAULT_SIZES ((int)(sizeof default_log2 / sizeof default_log2[0]))

enum {
  C1_OP,
  C1_TYPE,
  C1_N_LABEL,
  C1_N,
  C1_OFFSET,
  C1_GR_US,
  C1_GR_GBS,
  C1_CUB_US,
  C1_PROBE_US,
  C1_GR_VS_CUB,
  C1_GR_VS_PROBE,
  C1_CHECK,
  C1_COUNT
};

/* CSV: op,type,n,offset,gr_us,cub_us,probe_us,check, in that
 * order (bench/data/perf-h200-1d.csv); the table adds GB/s and the ratios. */
static const struct column grid_columns[C1_COUNT] = {
    [C1_OP] = {"op", "op", 0, SHOW_ALL, 1},
    [C1_TYPE] = {"type", "type", 0, SHOW_ALL, 1},
    [C1_N_LABEL] = {"n_label", "n", 0, SHOW_TEXT, 1},
    [C1_N] = {"n", "n", 0, SHOW_DATA, 0},
    [C1_OFFSET] = {"offset", "offset", 0, SHOW_ALL, 0},
    [C1_GR_US] = {"gr_us", "gr us", 2, SHOW_ALL, 0},
    [C1_GR_GBS] = {"gr_gbs", "gr GB/s", 1, SHOW_TEXT, 0},
    [C1_CUB_US] = {"cub_us", "cub us", 2, SHOW_ALL, 0},
    [C1_PROBE_US] = {"probe_us", "probe us", 2, SHOW_ALL, 0},
    [C1_GR_VS_CUB] = {"gr_vs_cub", "gr/cub", 2, SHOW_TEXT, 0},
    [C1_GR_VS_PROBE] = {"gr_vs_probe", "gr/probe", 2, SHOW_TEXT, 0},
    [C1_CHECK] = {"check", "check", 0, SHOW_ALL, 1},
};

/* What one (op, type, n, offset) measured. */
struct point_1d {
  int present;                   /* measured: a supported pair at a size that fits */
  double gr_ms, cub_ms, probe_ms; /* medians of the runs; 0: not run */
  const char *check;             /* "ok", "WRONG" or "-" */
};

/* The command line: op and type lists (bits; 0: all), sizes, runs. */
struct grid_options {
  struct options o; /* what run.c and report.c read */
  unsigned op_mask, type_mask;
  size_t sizes[MAX_SIZES];
  int nsizes; /* 0: the default sizes */
  int runs;
};

struct grid {
  struct run *run;
  const struct grid_options *g;
  struct timing tm;
  int runs;
  gpureduce_op_t ops[GPUREDUCE_OP_COUNT];
  int nops;
  gpureduce_type_t types[GPUREDUCE_TYPE_COUNT];
  int ntypes;
  size_t sizes[MAX_SIZES];
  int nsizes;
  size_t offsets[2]; /* 0, and --offset unless it is 0 */
  int noffsets;
  struct point_1d *pt; /* by (op, type, n, offset) */
  int pairs;           /* supported (op, type) pairs */
  int left_out;        /* points left out: they do not fit */
  double *scratch;     /* 2 x runs times, for the medians */
  void *out;
  struct bench_probe *probe; /* CUDA */
  gpureduce_handle_t host;   /* CUDA with checks: the host backend */
};

static int supported(gpureduce_type_t t, gpureduce_op_t op) {
  return gpureduce_result_size(t, op, 0) != 0;
}

static struct point_1d *point_at(const struct grid *s, int oi, int ti, int si, int fi) {
  return &s->pt[((oi * s->ntypes + ti) * s->nsizes + si) * s->noffsets + fi];
}

/* The ops, types, sizes and offsets the options choose. */
static void choose(struct grid *s) {
  const struct options *o = s->run->opt;
  const struct grid_options *g = s->g;
  for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op)
    if (!g->op_mask || (g->op_mask >> op & 1u)) s->ops[s->nops++] = (gpureduce_op_t)op;
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t)
    if (!g->type_mask || (g->type_mask >> t & 1u)) s->types[s->ntypes++] = (gpureduce_type_t)t;
  if (g->nsizes) {
    memcpy(s->sizes, g->sizes, (size_t)g->nsizes * sizeof s->sizes[0]);
    s->nsizes = g->nsizes;
  } else {
    for (int k = 0; k < DEFAULT_SIZES; ++k) {
      const size_t n = (size_t)1 << default_log2[k];
      if (s->run->cuda || n <= HOST_DEFAULT_MAX_N) s->sizes[s->nsizes++] = n;
    }
  }
  s->offsets[s->noffsets++] = 0;
  if (o->offset) s->offsets[s->noffsets++] = o->offset;
  for (int oi = 0; oi < s->nops; ++oi)
    for (int ti = 0; ti < s->ntypes; ++ti) s->pairs += supported(s->types[ti], s->ops[oi]);
}

/* gpureduce's and CUB's (cc NULL: none) times of one point: the medians
 * of s->runs runs of median_ms each, the two alternating. */
static void time_point(struct grid *s, struct reduce_call *call, struct cub_call *cc,
                       struct point_1d *p) {
  double *gr = s->scratch, *cub = s->scratch + s->runs;
  for (int r = 0; r < s->runs; ++r) {
    gr[r] = median_ms(&s->run->ck, &s->tm, run_reduce, call);
    if (cc) cub[r] = median_ms(&s->run->ck, &s->tm, run_cub, cc);
  }
  p->gr_ms = median_of(gr, s->runs);
  if (cc) p->cub_ms = median_of(cub, s->runs);
}

/* The probe over bytes at x: the median of s->runs runs of its best grid. */
static double probe_median(struct grid *s, const void *x, size_t bytes) {
  for (int r = 0; r < s->runs; ++r)
    s->scratch[r] =
        time_probe(&s->run->ck, &s->tm, s->probe, x, bytes, s->run->dev.sm_count).ms;
  return median_of(s->scratch, s->runs);
}

/* n <= CHECK_MAX_N: gpureduce's bits over call's input against the host
 * backend's on host_x, the same data copied back (CUDA), or the tests'
 * reference's bits (host backend; host_x is the input). */
static const char *check_point(struct grid *s, const struct reduce_call *call,
                               const void *host_x, size_t offset) {
  struct run *run = s->run;
  if (!run->opt->check || call->n > CHECK_MAX_N) return "-";
  RESULT_BUFFER(got);
  struct verdict v;
  library_result(call, run->cuda, got);
  if (run->cuda) {
    RESULT_BUFFER(want) = {0}; /* the host backend writes it: aligned for any result */
    struct reduce_call hc = {host_x, want, call->n, call->type, call->op, 0, s->host};
    run_reduce(&hc);
    v = check_same(call->type, call->op, 0, got, want, "the host backend on the same data");
  } else {
    v = check_reference_bits(call->type, call->op, 0, host_x, call->n, got);
  }
  if (!v.wrong) return "ok";
  char who[96];
  snprintf(who, sizeof who, "gpureduce %s %s at offset %zu", gpureduce_type_name(call->type),
           gpureduce_op_name(call->op), offset);
  report_wrong(run, who, call->n, &v);
  return "WRONG";
}

/* Every point of type ti: one input, filled once, for every op, n and offset. */
static void grid_type(struct grid *s, int ti) {
  struct run *run = s->run;
  const int cuda = run->cuda;
  const gpureduce_type_t t = s->types[ti];
  const size_t es = gpureduce_type_size(t);
  const size_t pad = s->offsets[s->noffsets - 1];
  int oi_of[GPUREDUCE_OP_COUNT], nops = 0; /* the supported ops of t */
  for (int oi = 0; oi < s->nops; ++oi)
    if (supported(t, s->ops[oi])) oi_of[nops++] = oi;
  if (!nops) return;
  const int kept = sizes_that_fit(run, es, pad, s->sizes, s->nsizes);
  if (kept < s->nsizes) {
    char nl[32];
    message("%s: sizes above %s left out: they do not fit in %.0f%% of the free device memory",
            gpureduce_type_name(t), label_n(s->sizes[kept - 1], nl, sizeof nl),
            100 * FREE_ROOM);
    s->left_out += (s->nsizes - kept) * s->noffsets * nops;
  }
  const size_t n_max = s->sizes[kept - 1];
  /* Offset f's rows read elements f .. f+n-1 of one input of n_max + pad. */
  struct input in = input_alloc(cuda, t, n_max + pad, 0, "1-D sweep input");
  fill_random(&in, t, RANDOM_SEED);
  struct bench_cub *cub[GPUREDUCE_OP_COUNT] = {NULL};
  if (cuda)
    for (int k = 0; k < nops; ++k)
      cub[k] = bench_cub_create(t, s->ops[oi_of[k]], 0, s->sizes, (size_t)kept);
  /* The checked prefix, copied back once (CUDA); the input itself on the host. */
  const void *host_in = in.x;
  void *host_copy = NULL;
  if (cuda && run->opt->check && s->sizes[0] <= CHECK_MAX_N) {
    size_t n_check = 0;
    for (int si = 0; si < kept; ++si)
      if (s->sizes[si] <= CHECK_MAX_N) n_check = s->sizes[si];
    host_copy = xmalloc_aligned((n_check + pad) * es);
    bench_cuda_copy_to_host(host_copy, in.x, (n_check + pad) * es);
    host_in = host_copy;
  }
  for (int si = 0; si < kept; ++si) {
    const size_t n = s->sizes[si];
    for (int fi = 0; fi < s->noffsets; ++fi) {
      const size_t off = s->offsets[fi];
      const void *x = (const char *)in.x + off * es;
      char nl[32];
      progress(" %s n=%s offset %zu ...", gpureduce_type_name(t), label_n(n, nl, sizeof nl), off);
      const double probe_ms = cuda ? probe_median(s, x, n * es) : 0.0;
      for (int k = 0; k < nops; ++k) {
        struct point_1d *p = point_at(s, oi_of[k], ti, si, fi);
        struct reduce_call call = {x, s->out, n, t, s->ops[oi_of[k]], 0, run->h};
        p->present = 1;
        p->probe_ms = probe_ms;
        struct cub_call cc = {cub[k], x, n};
        time_point(s, &call, cub[k] ? &cc : NULL, p);
        p->check = check_point(s, &call, (const char *)host_in + off * es, off);
      }
    }
  }
  free(host_copy);
  for (int k = 0; k < nops; ++k) bench_cub_destroy(cub[k]);
  input_free(&in);
}

static void add_row(const struct point_1d *p, gpureduce_op_t op, gpureduce_type_t t, size_t n,
                    size_t offset, struct table *tab) {
  const size_t bytes = n * gpureduce_type_size(t);
  struct row *r = table_add(tab);
  char nl[32];
  set_text(r, C1_OP, "%s", gpureduce_op_name(op));
  set_text(r, C1_TYPE, "%s", gpureduce_type_name(t));
  set_text(r, C1_N_LABEL, "%s", label_n(n, nl, sizeof nl));
  set_num(r, C1_N, (double)n);
  set_num(r, C1_OFFSET, (double)offset);
  set_num(r, C1_GR_US, 1e3 * p->gr_ms);
  set_num(r, C1_GR_GBS, gbps(bytes, p->gr_ms));
  if (p->cub_ms > 0) {
    set_num(r, C1_CUB_US, 1e3 * p->cub_ms);
    set_num(r, C1_GR_VS_CUB, p->cub_ms / p->gr_ms);
  }
  if (p->probe_ms > 0) {
    set_num(r, C1_PROBE_US, 1e3 * p->probe_ms);
    set_num(r, C1_GR_VS_PROBE, p->probe_ms / p->gr_ms);
  }
  set_text(r, C1_CHECK, "%s", p->check);
}

static void grid_lines(struct grid *s) {
  struct run *run = s->run;
  const struct options *o = run->opt;
  char first[32], last[32];
  add_head(run, "1-D grid: %d (op, type) pair(s) that gpureduce_reduce supports with flags 0 "
                "x %d size(s) from %s to %s x offset%s",
           s->pairs, s->nsizes, label_n(s->sizes[0], first, sizeof first),
           label_n(s->sizes[s->nsizes - 1], last, sizeof last),
           s->noffsets > 1 ? "s 0 and --offset" : " 0");
  if (s->noffsets > 1)
    add_head(run, "misaligned rows: offset %zu elements (%zu bytes for 1-byte types, %zu for "
                  "f16 and bf16, %zu for 4-byte, %zu for 8-byte types)",
             o->offset, o->offset, 2 * o->offset, 4 * o->offset, 8 * o->offset);
  if (o->check)
    add_summary(run, "check: %s", run->wrong ? "WRONG results (details on stderr)" : "all right");
  else
    add_summary(run, "check: not done (--no-check)");
  add_note(run,
           "input: random values made %s by a hash of (seed, index), one buffer per type of "
           "the largest n + offset elements; offset K's rows start K elements in",
           run->cuda ? "on the device" : "on the host");
  add_note(run,
           "time: per call, the median of %d runs, each the median of %d batches of %d "
           "back-to-back calls after %d warm-ups (%s) / %d",
           s->runs, o->repeat, BATCH_CALLS, WARMUP_CALLS,
           run->cuda ? "CUDA events" : "CLOCK_MONOTONIC", BATCH_CALLS);
  if (run->cuda) {
    add_note(run, "gr GB/s = n x element size / gr time; gr/cub = cub time / gr time, gr/probe "
                  "= probe time / gr time (> 1: gpureduce faster)");
    add_note(run,
             "probe: read-only, fastest grid of SMs x {1,2,4,8,16} blocks of %d, timed once per "
             "(type, n, offset): the bytes it reads do not depend on the op",
             BENCH_BLOCK);
    add_note(run, "%s",
             bench_cub_built()
                 ? "cub: CUB's call as in reduce-bench --sweep (cuBLAS's nrm2 for f32 and f64 "
                   "nrm2, when built); none for mean_var and the other nrm2"
                 : "cub: not built (configure found no CUB)");
  } else {
    add_note(run, "gr GB/s = n x element size / gr time; host backend: no cub or probe times, n "
                  "up to 2^20 unless --sizes");
  }
  if (o->check)
    add_note(run, "check: n <= 2^20, gpureduce's bits = %s; '-': not checked",
             run->cuda ? "the host backend's on the data copied back"
                       : "the tests' independent reference's");
  if (s->left_out)
    add_note(run, "%d rows left out: their input does not fit in device memory (stderr)",
             s->left_out);
}

static int run_grid(struct run *run, const struct grid_options *g) {
  const struct options *o = run->opt;
  struct grid s;
  struct table tab;
  memset(&s, 0, sizeof s);
  s.run = run;
  s.g = g;
  s.tm = batch_timing(o->repeat);
  s.runs = g->runs;
  choose(&s);
  s.pt = calloc((size_t)s.nops * (size_t)s.ntypes * (size_t)s.nsizes * (size_t)s.noffsets,
                sizeof *s.pt);
  if (!s.pt) fatal(EXIT_WRONG, "out of host memory");
  s.scratch = xmalloc(2 * (size_t)s.runs * sizeof *s.scratch);
  s.out = backend_alloc(run->cuda, RESULT_MAX, "output");
  if (run->cuda) {
    s.probe = bench_probe_create();
    if (o->check) {
      const gpureduce_status_t st = gpureduce_create(&s.host, GPUREDUCE_DEVICE_HOST);
      if (st != GPUREDUCE_SUCCESS)
        library_failed(NULL, st, "gpureduce_create (host backend, checks)");
    }
  }
  for (int ti = 0; ti < s.ntypes; ++ti) grid_type(&s, ti);
  progress(" ");
  table_init(&tab, grid_columns, C1_COUNT);
  tab.enabled[C1_GR_VS_CUB] = tab.enabled[C1_GR_VS_PROBE] = run->cuda;
  for (int oi = 0; oi < s.nops; ++oi)
    for (int ti = 0; ti < s.ntypes; ++ti)
      for (int si = 0; si < s.nsizes; ++si)
        for (int fi = 0; fi < s.noffsets; ++fi) {
          const struct point_1d *p = point_at(&s, oi, ti, si, fi);
          if (p->present)
            add_row(p, s.ops[oi], s.types[ti], s.sizes[si], s.offsets[fi], &tab);
        }
  grid_lines(&s);
  print_report(run, &tab);
  if (s.host) gpureduce_destroy(s.host);
  bench_probe_destroy(s.probe);
  backend_free(run->cuda, s.out);
  free(s.scratch);
  free(s.pt);
  return run->wrong ? EXIT_WRONG : EXIT_OK;
}

/* ---- the command line ------------------------------------------------------ */

static const char *const usage_text[] = {
    "Usage: bench/grid-1d [OPTION]...",
    "Time gpureduce_reduce for every operation and type it supports with flags 0,",
    "at a few sizes and two alignments, beside CUB and the read-only probe, and",
    "check the results up to n = 2^20 bit for bit.",
    "",
    "  --op LIST      operations, comma separated (default: all)",
    "  --type LIST    types, comma separated (default: all)",
    "  --sizes LIST   sizes, comma separated, in reduce-bench's --n syntax (default",
    "                 2^10, 2^14, 2^18, 2^20, ... 2^30; host backend up to 2^20)",
    "  --offset K     the misaligned rows' offset in elements (default 3; 0: none)",
    "  --runs R       each time the median of R runs (default 3)",
    "  --repeat R     each run the median of R batches of 20 calls (default 5)",
    "  --device D     CUDA device (default 0)",
    "  --backend B    auto, cuda or host (default auto)",
    "  --no-check     do not check the results",
    "  --csv          op,type,n,offset,gr_us,cub_us,probe_us,check",
    "  --help         print this help and exit",
};

static uint64_t count_of(const char *name, const char *arg, uint64_t min, uint64_t max) {
  uint64_t v;
  if (args_count(arg, &v) || v < min || v > max)
    usage_error("--%s: '%s' is not a count from %llu to %llu", name, arg,
                (unsigned long long)min, (unsigned long long)max);
  return v;
}

/* A comma-separated list: each item's bit (names) or value (sizes). */
static void parse_list(const char *name, const char *arg, struct grid_options *g) {
  char item[64];
  for (const char *p = arg;;) {
    const size_t len = strcspn(p, ",");
    if (len == 0 || len >= sizeof item) usage_error("--%s: '%s' is not a list", name, arg);
    memcpy(item, p, len);
    item[len] = '\0';
    const int bit = name[0] == 'o' ? args_op(item) : name[0] == 't' ? args_type(item) : 0;
    if (bit < 0) usage_error("--%s: unknown %s '%s'", name, name[0] == 'o' ? "operation" : "type", item);
    if (name[0] == 'o') g->op_mask |= 1u << bit;
    if (name[0] == 't') g->type_mask |= 1u << bit;
    if (name[0] == 's' && g->nsizes == MAX_SIZES) usage_error("--sizes: more than %d", MAX_SIZES);
    if (name[0] == 's') g->sizes[g->nsizes++] = count_of("sizes", item, 1, (uint64_t)1 << 40);
    if (!p[len]) break;
    p += len + 1;
  }
}

static int compare_sizes(const void *a, const void *b) {
  const size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

static void parse_grid_options(int argc, char **argv, struct grid_options *g) {
  static const struct option longs[] = {
      {"op", required_argument, NULL, 'o'},     {"type", required_argument, NULL, 't'},
      {"sizes", required_argument, NULL, 's'},  {"offset", required_argument, NULL, 'k'},
      {"runs", required_argument, NULL, 'r'},   {"repeat", required_argument, NULL, 'R'},
      {"device", required_argument, NULL, 'd'}, {"backend", required_argument, NULL, 'b'},
      {"no-check", no_argument, NULL, 'n'},     {"csv", no_argument, NULL, 'c'},
      {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
  struct options *o = &g->o;
  memset(g, 0, sizeof *g);
  o->check = 1, o->offset = 3, o->repeat = 5, g->runs = 3;
  opterr = 0;
  for (int c; (c = getopt_long(argc, argv, ":", longs, NULL)) != -1;) {
    switch (c) {
      case 'o': parse_list("op", optarg, g); break;
      case 't': parse_list("type", optarg, g); break;
      case 's': parse_list("sizes", optarg, g); break;
      case 'k': o->offset = count_of("offset", optarg, 0, (uint64_t)1 << 30); break;
      case 'r': g->runs = (int)count_of("runs", optarg, 1, 1000); break;
      case 'R': o->repeat = (int)count_of("repeat", optarg, 1, 100000); break;
      case 'd': o->device = (int)count_of("device", optarg, 0, 1023), o->device_given = 1; break;
      case 'b':
        o->backend = !strcmp(optarg, "cuda") ? BACKEND_CUDA : !strcmp(optarg, "host") ? BACKEND_HOST
                                                                                       : BACKEND_AUTO;
        if (o->backend == BACKEND_AUTO && strcmp(optarg, "auto"))
          usage_error("--backend: '%s' is not auto, cuda or host", optarg);
        break;
      case 'n': o->check = 0; break;
      case 'c': o->csv = 1; break;
      case 'h':
        for (size_t i = 0; i < sizeof usage_text / sizeof usage_text[0]; ++i) puts(usage_text[i]);
        exit(EXIT_OK);
      case ':': usage_error("option '%s' requires an argument", argv[optind - 1]);
      default: usage_error("unrecognized option '%s'", argv[optind - 1]);
    }
  }
  if (optind < argc) usage_error("unexpected argument '%s'", argv[optind]);
  qsort(g->sizes, (size_t)g->nsizes, sizeof g->sizes[0], compare_sizes);
  int kept = 0;
  for (int i = 0; i < g->nsizes; ++i)
    if (i == 0 || g->sizes[i] != g->sizes[i - 1]) g->sizes[kept++] = g->sizes[i];
  g->nsizes = kept;
  int pairs = 0;
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t)
    for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op)
      pairs += (!g->type_mask || (g->type_mask >> t & 1u)) &&
               (!g->op_mask || (g->op_mask >> op & 1u)) && supported((gpureduce_type_t)t, (gpureduce_op_t)op);
  if (!pairs) usage_error("gpureduce_reduce supports none of these operations on these types");
}

int main(int argc, char **argv) {
  struct grid_options g;
  struct run run;
  program_name = NAME;
  parse_grid_options(argc, argv, &g);
  open_run(&run, &g.o, 0);
  const int status = run_grid(&run, &g);
  close_run(&run);
  return status;
}
