/*
 * options.c - reduce-bench's command line: the usage text (the one source
 * of --help and of reduce-bench(1)), getopt_long and the checks across
 * options (see options.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
/* getopt_long also under -std=c11. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpureduce.h"

#include "bench.h"
#include "bench_cub.h"
#include "bench_cuda.h"
#include "options.h"

#include "args.h"

#define LADDER_MIN_REPEAT 10
#define SWEEP_REPEAT 5
#define MAX_N ((uint64_t)1 << 40)
#define MAX_OFFSET ((uint64_t)1 << 30)
#define MAX_ZIPF_MAX ((uint64_t)1 << 24) /* zipf:S:MAX: a table of MAX doubles */
#define MAX_ZIPF_EXPONENT 100.0
#define DEFAULT_SEED 1
#define SWEEP_1D_OFFSET 3 /* --sweep-1d's misaligned offset, in elements */
#define SWEEP_1D_RUNS 3

/* ---- usage: one array, the source of --help and of the man page -------- */

static const char *const usage_text[] = {
    "Usage: reduce-bench [OPTION]...",
    "Time gpureduce's reductions against the classic CUDA reduction kernels,",
    "CUB and a read-only bandwidth probe, and check every result.",
    "",
    "With no option, the ladder: n = 2^24-611 floats, all 1.0, reduced by the",
    "six teaching rungs v1..v6, by gpureduce (gpureduce_sum_f32), by CUB",
    "(cub::DeviceReduce::Sum) and read by the probe; every sum must be exactly",
    "n.  Time: median of --repeat runs of one whole reduction after 3 warm-up",
    "runs (CUDA events).  GB/s: bytes read by all passes / time; % of limit:",
    "against the probe's GB/s on a 1 GiB buffer.",
    "",
    "--batch and --sweep-batched: GB/s = (input + output bytes) / time; the",
    "probe's GB/s = the bytes it reads (the matrix, padding included) / time.",
    "--segments and --sweep-segments: GB/s = (input + 8 x (segments + 1) offset",
    "+ output bytes) / time; the probe reads the input and the offsets.",
    "",
    "Options:",
    "  --n N             elements (default 2^24-611): a decimal number, 2^K,",
    "                    2^K+M or 2^K-M, or a number with the suffix K, M or G",
    "                    (times 2^10, 2^20, 2^30): 16M, 1G",
    "  --op NAME         sum, prod, min, max, argmin, argmax, sum_abs,",
    "                    sum_squares, nrm2, mean_var or dot (default sum); the",
    "                    f32 and f64 nrm2 are timed against cuBLAS (cublasSnrm2,",
    "                    cublasDnrm2) in CUB's place, when configure found it;",
    "                    dot times gpureduce_dot of two random vectors of --n",
    "                    elements (or, with --sweep, of n = 2^10 .. 2^30; host",
    "                    backend up to 2^24) beside cuBLAS (cublasSdot,",
    "                    cublasDdot, cublasDotEx for f16 and bf16) when it was",
    "                    built in, GB/s counting both inputs, and checks every",
    "                    result up to n = 2^26 bit for bit against the tests'",
    "                    reference; with --sweep-1d a comma-separated list of",
    "                    operations other than dot (default: all of them)",
    "  --type NAME       f16, bf16, f32, f64, i8, u8, i32, u32, i64 or u64",
    "                    (default f32); the ladder rungs are f32 sum only, other",
    "                    operations and types get rows gpureduce, cub and probe;",
    "                    with --sweep-1d a comma-separated list (default: all)",
    "  --f64-accumulate  accumulate an f32 sum, prod, sum_abs, sum_squares, nrm2,",
    "                    mean_var or dot in double (GPUREDUCE_ACCUMULATE_F64)",
    "  --with-value      argmin or argmax with the element's value",
    "                    (GPUREDUCE_WITH_VALUE, 16-byte results); the 1-D runs",
    "                    time the plain arg op beside it",
    "  --offset K        start the input K elements into its allocation, so it",
    "                    is misaligned (default 0); with --sweep-1d the offset",
    "                    of the misaligned rows beside offset 0 (default 3; 0:",
    "                    offset 0 only)",
    "  --device D        CUDA device ordinal (default 0); given with --backend",
    "                    auto and no device, exit status 3 (no host fallback)",
    "  --backend B       auto, cuda or host (default auto: CUDA when a device",
    "                    exists, else the host backend)",
    "  --only LIST       rows of the ladder to run, comma separated: 1 to 6 (or",
    "                    v1 to v6), lib, cub, probe",
    "  --repeat R        timed runs (ladder: default and minimum 10) or timed",
    "                    batches of 20 calls (default 5: --sweep and the batched",
    "                    and segmented modes)",
    "  --sweep           time n = 2^10, 2^11, ..., 2^30 and 2^24-611 (host",
    "                    backend: up to 2^26) on random data: gpureduce, CUB,",
    "                    the probe and, for the f32 sum, an atomic",
    "                    (nondeterministic) kernel; gpureduce's results are",
    "                    checked against the tests' reference (tests/lib) and,",
    "                    on CUDA, bit for bit against the host backend",
    "  --sweep-1d        every operation and type that gpureduce_reduce supports",
    "                    with flags 0, at n = 2^10, 2^14, 2^18, 2^20, 2^22,",
    "                    2^24, 2^26, 2^28 and 2^30 (host backend: up to 2^20)",
    "                    and at offsets 0 and --offset, one input buffer per",
    "                    type: gpureduce, CUB and the probe, each time the",
    "                    median of --runs runs of the --sweep timing; results",
    "                    up to n = 2^20 checked bit for bit (CUDA: against the",
    "                    host backend on the data copied back; host backend:",
    "                    against the tests' reference)",
    "  --sizes LIST      the sizes of --sweep-1d, comma separated, in the",
    "                    syntax of --n (default: as above)",
    "  --runs R          --sweep-1d: each time is the median of R runs (default",
    "                    3)",
    "  --batch B         one batched call (gpureduce_reduce_batched) of B vectors",
    "                    of --n elements, the rows of a B x N matrix, timed with",
    "                    CUB (DeviceSegmentedReduce) and the probe; every result",
    "                    checked bit for bit against gpureduce_reduce of its",
    "                    vector alone: all B when B <= 65536, else 4096 of them",
    "                    (the first 1024, the last 1024, 2048 spread evenly)",
    "  --columns         with --batch: the columns of an N x B matrix instead (B",
    "                    vectors of N elements, ld elements apart)",
    "  --stride S        with --batch: the leading dimension ld in elements",
    "                    (default and minimum: dense, N for rows, B for",
    "                    columns); N+1 misaligns the rows",
    "  --sweep-batched   --op and --type (default f32 sum) on 2^28 elements as",
    "                    rows of n = 1, 2, 4, 8, 32, 128, 512, 4096, 65536, 2^20,",
    "                    2^24 and 2^28 elements (B = 2^28 / n rows), as columns",
    "                    (an n x B matrix, ld = B), and as rows with ld = n+1",
    "                    (misaligned, n >= 2); timed and checked as --batch",
    "  --sweep-elements N",
    "                    the elements of --sweep-batched and --sweep-segments",
    "                    (default 2^28; host backend 2^24): n up to N, and one",
    "                    row (segment) of N",
    "  --layouts LIST    the parts of --sweep-batched to run, comma separated:",
    "                    rows, columns, misaligned (default all three)",
    "  --segments DIST   one segmented call (gpureduce_reduce_segments) over --n",
    "                    elements cut into segments of lengths drawn from DIST:",
    "                    uniform:L (every segment L; the last one shorter when L",
    "                    does not divide N), random:L (uniform on 0..2L),",
    "                    zipf:S:MAX (P(length k) proportional to k^-S, k = 1..MAX,",
    "                    MAX <= 2^24), huge:A:B (one segment of N/2 elements in",
    "                    the middle of segments uniform on A..B, which hold the",
    "                    rest) or huge:A:B:K (K segments uniform on A..B, the",
    "                    huge one, in their middle, holds the rest); the last",
    "                    drawn segment is cut to end at N.  Timed with",
    "                    gpureduce_reduce_batched (uniform:L, L dividing N), CUB",
    "                    (DeviceSegmentedReduce with the offsets) and the probe;",
    "                    every result checked bit for bit against",
    "                    gpureduce_reduce of its segment alone: all when there",
    "                    are <= 65536 segments, else 4096 as --batch and the",
    "                    longest segment",
    "  --sweep-segments  --op and --type on 2^28 elements (--sweep-elements;",
    "                    host backend 2^24) cut as uniform:L and random:L for L",
    "                    = 1, 2, 4, 8, 32, 128, 512, 4096, 65536, 2^20 and 2^24",
    "                    (those below the elements), uniform:N, zipf:1.5:2^20,",
    "                    huge:1:64 and huge:1:64:K (K = elements / 256); timed",
    "                    and checked as --segments",
    "  --seed S          the seed of the segment lengths (default 1): the same",
    "                    seed, DIST and N give the same offsets",
    "  --tune            measure the fastest block count of every size bucket",
    "                    for --op and --type (gpureduce_autotune), print default",
    "                    and tuned counts and times, save them in the tuning",
    "                    cache and exit",
    "  --blocks B        launch gpureduce with B blocks at every size (it",
    "                    changes no result, only speed; gpureduce_set_blocks)",
    "  --csv             print comma-separated values: a header line, one line",
    "                    per row",
    "  --json            print one JSON object",
    "  --no-check        do not check the results",
    "  --version         print the version and exit",
    "  --help            print this help and exit",
    "",
    "Exit status:",
    "  0  every result right",
    "  1  a wrong result, a library or CUDA call or a memory allocation failed",
    "     (a failing status of gpureduce_reduce_batched or",
    "     gpureduce_reduce_segments: reported, then exit 1), or --tune could",
    "     not write the tuning cache",
    "  2  a bad option or value",
    "  3  no CUDA device: --backend cuda or --tune without one, or --device D",
    "     that does not exist",
};

static void print_usage(FILE *f) {
  for (size_t i = 0; i < sizeof usage_text / sizeof usage_text[0]; ++i)
    fprintf(f, "%s\n", usage_text[i]);
}

/* One line "reduce-bench: ..." on stderr, the usage, exit 2. */
static _Noreturn void usage_error(const char *fmt, ...) PRINTF_LIKE(1, 2);
static _Noreturn void usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(fmt, ap);
  va_end(ap);
  print_usage(stderr);
  exit(EXIT_USAGE);
}

/* ---- options ------------------------------------------------------------ */

#define RUNG_ROWS ((1u << ROW_LIB) - 1u)

static size_t option_count(const char *name, const char *arg, uint64_t min, uint64_t max) {
  uint64_t v;
  if (args_count(arg, &v))
    usage_error("--%s: '%s' is not a count (a decimal number, 2^K, 2^K+M, 2^K-M or 16M style)",
                name, arg);
  if (v < min || v > max)
    usage_error("--%s: %s is out of range (%llu to %llu)", name, arg, (unsigned long long)min,
                (unsigned long long)max);
  return (size_t)v;
}

static int option_int(const char *name, const char *arg, int min, int max) {
  const char *p = arg;
  uint64_t v;
  if (args_decimal(&p, &v) || *p)
    usage_error("--%s: '%s' is not a non-negative decimal number", name, arg);
  if (v < (uint64_t)min || v > (uint64_t)max)
    usage_error("--%s: %s is out of range (%d to %d)", name, arg, min, max);
  return (int)v;
}

static gpureduce_op_t option_op(const char *arg) {
  const int op = args_op(arg);
  if (op < 0) usage_error("--op: unknown operation '%s'", arg);
  return (gpureduce_op_t)op;
}

static gpureduce_type_t option_type(const char *arg) {
  const int t = args_type(arg);
  if (t < 0) usage_error("--type: unknown type '%s'", arg);
  return (gpureduce_type_t)t;
}

static enum backend option_backend(const char *arg) {
  if (strcmp(arg, "auto") == 0) return BACKEND_AUTO;
  if (strcmp(arg, "cuda") == 0) return BACKEND_CUDA;
  if (strcmp(arg, "host") == 0) return BACKEND_HOST;
  usage_error("--backend: '%s' is not auto, cuda or host", arg);
}

static int only_row(const char *item, size_t len) {
  static const char *const names[ROW_COUNT] = {"1", "2", "3", "4", "5", "6", "lib", "cub", "probe"};
  if (len == 2 && item[0] == 'v' && item[1] >= '1' && item[1] <= '6') return item[1] - '1';
  if (len == 9 && strncmp(item, "gpureduce", 9) == 0) return ROW_LIB;
  for (int r = 0; r < ROW_COUNT; ++r)
    if (strlen(names[r]) == len && strncmp(item, names[r], len) == 0) return r;
  return -1;
}

static unsigned option_layouts(const char *arg) {
  static const char *const names[LAYOUT_COUNT] = {"rows", "columns", "misaligned"};
  unsigned mask = 0;
  const char *p = arg;
  for (;;) {
    const size_t len = strcspn(p, ",");
    int hit = -1;
    for (int l = 0; l < LAYOUT_COUNT; ++l)
      if (strlen(names[l]) == len && strncmp(p, names[l], len) == 0) hit = l;
    if (hit < 0)
      usage_error("--layouts: '%.*s' is not a layout (rows, columns, misaligned)", (int)len, p);
    mask |= 1u << hit;
    if (!p[len]) break;
    p += len + 1;
  }
  return mask;
}

/* ---- lists: --op, --type, --sizes ---------------------------------------- */

/* Item `len` bytes at p of a comma-separated list of option `name`, as a
 * string in buf (an item too long for it, or empty, is a usage error). */
static const char *list_item(const char *name, const char *p, size_t len, char *buf,
                             size_t size) {
  if (len == 0) usage_error("--%s: an empty item in the list", name);
  if (len >= size) usage_error("--%s: '%.*s...' is too long for an item", name, 20, p);
  memcpy(buf, p, len);
  buf[len] = '\0';
  return buf;
}

/* --op NAME or --op LIST: o->op (the first), o->op_mask, o->op_count; dot
 * alone only. */
static void option_ops(const char *arg, struct options *o) {
  char item[32];
  o->dot = strcmp(arg, "dot") == 0;
  o->op = GPUREDUCE_SUM;
  o->op_mask = 0;
  o->op_count = 0;
  if (o->dot) return;
  for (const char *p = arg;;) {
    const size_t len = strcspn(p, ",");
    list_item("op", p, len, item, sizeof item);
    if (strcmp(item, "dot") == 0)
      usage_error("--op: dot goes alone (it is gpureduce_dot, not an operation of a list)");
    const gpureduce_op_t op = option_op(item);
    if (o->op_count++ == 0) o->op = op;
    o->op_mask |= 1u << op;
    if (!p[len]) break;
    p += len + 1;
  }
}

/* --type NAME or --type LIST: o->type (the first), o->type_mask,
 * o->type_count. */
static void option_types(const char *arg, struct options *o) {
  char item[32];
  o->type_mask = 0;
  o->type_count = 0;
  for (const char *p = arg;;) {
    const size_t len = strcspn(p, ",");
    const gpureduce_type_t t = option_type(list_item("type", p, len, item, sizeof item));
    if (o->type_count++ == 0) o->type = t;
    o->type_mask |= 1u << t;
    if (!p[len]) break;
    p += len + 1;
  }
}

static int compare_sizes(const void *a, const void *b) {
  const size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

/* --sizes LIST: counts from 1 to MAX_N, sorted, each once. */
static void option_sizes(const char *arg, struct options *o) {
  char item[64];
  int count = 0;
  for (const char *p = arg;;) {
    const size_t len = strcspn(p, ",");
    if (count == MAX_SIZES) usage_error("--sizes: more than %d sizes", MAX_SIZES);
    o->sizes[count++] = option_count("sizes", list_item("sizes", p, len, item, sizeof item), 1,
                                     MAX_N);
    if (!p[len]) break;
    p += len + 1;
  }
  qsort(o->sizes, (size_t)count, sizeof o->sizes[0], compare_sizes);
  o->nsizes = 0;
  for (int i = 0; i < count; ++i)
    if (i == 0 || o->sizes[i] != o->sizes[i - 1]) o->sizes[o->nsizes++] = o->sizes[i];
}

/* ---- --segments DIST ----------------------------------------------------- */

#define DIST_SYNTAX "uniform:L, random:L, zipf:S:MAX, huge:A:B or huge:A:B:K"

/* Field i of DIST as a count from min to max (the syntax of --n). */
static uint64_t dist_count(const char *arg, const char *field, const char *name, uint64_t min,
                           uint64_t max) {
  uint64_t v;
  if (args_count(field, &v))
    usage_error("--segments %s: %s '%s' is not a count (a decimal number, 2^K, 2^K+M, 2^K-M "
                "or 16M style)",
                arg, name, field);
  if (v < min || v > max)
    usage_error("--segments %s: %s = %s is out of range (%llu to %llu)", arg, name, field,
                (unsigned long long)min, (unsigned long long)max);
  return v;
}

static struct seg_dist option_dist(const char *arg) {
  char buf[128], *field[5];
  int nf = 0;
  struct seg_dist d;
  memset(&d, 0, sizeof d);
  if (strlen(arg) >= sizeof buf)
    usage_error("--segments: '%.40s...' is not a distribution (" DIST_SYNTAX ")", arg);
  strcpy(buf, arg);
  for (char *p = buf;;) {
    if (nf == 5) usage_error("--segments: '%s' is not a distribution (" DIST_SYNTAX ")", arg);
    field[nf++] = p;
    p = strchr(p, ':');
    if (!p) break;
    *p++ = '\0';
  }
  const char *kind = field[0];
  if (strcmp(kind, "uniform") == 0 && nf == 2) {
    d.kind = SEG_UNIFORM;
    d.length = dist_count(arg, field[1], "L", 1, MAX_N);
  } else if (strcmp(kind, "random") == 0 && nf == 2) {
    d.kind = SEG_RANDOM;
    d.length = dist_count(arg, field[1], "L", 1, MAX_N);
  } else if (strcmp(kind, "zipf") == 0 && nf == 3) {
    char *end;
    d.kind = SEG_ZIPF;
    d.exponent = strtod(field[1], &end);
    if (!*field[1] || *end || !isfinite(d.exponent) || !(d.exponent > 0) ||
        d.exponent > MAX_ZIPF_EXPONENT || !(isdigit((unsigned char)*field[1]) || *field[1] == '.'))
      usage_error("--segments %s: S '%s' is not an exponent (a decimal number above 0, at "
                  "most %g)",
                  arg, field[1], MAX_ZIPF_EXPONENT);
    d.max = dist_count(arg, field[2], "MAX", 1, MAX_ZIPF_MAX);
  } else if (strcmp(kind, "huge") == 0 && (nf == 3 || nf == 4)) {
    d.kind = SEG_HUGE;
    d.lo = dist_count(arg, field[1], "A", 0, MAX_N);
    /* huge:A:B draws until the lengths reach N/2: B >= 1 */
    d.hi = dist_count(arg, field[2], "B", nf == 3 ? 1 : 0, MAX_N);
    if (d.lo > d.hi) usage_error("--segments %s: A is above B", arg);
    if (nf == 4) d.small = dist_count(arg, field[3], "K", 1, MAX_N);
  } else if (strcmp(kind, "uniform") == 0 || strcmp(kind, "random") == 0 ||
             strcmp(kind, "zipf") == 0 || strcmp(kind, "huge") == 0) {
    usage_error("--segments: '%s': %s takes %s", arg, kind,
                kind[0] == 'u'   ? "one field, uniform:L"
                : kind[0] == 'r' ? "one field, random:L"
                : kind[0] == 'z' ? "two fields, zipf:S:MAX"
                                 : "two or three fields, huge:A:B or huge:A:B:K");
  } else {
    usage_error("--segments: '%s' is not a distribution (" DIST_SYNTAX ")", arg);
  }
  return d;
}

const char *dist_kind_name(const struct seg_dist *d) {
  static const char *const names[] = {"uniform", "random", "zipf", "huge"};
  return names[d->kind];
}

const char *dist_text(const struct seg_dist *d, char *buf, size_t size) {
  switch (d->kind) {
    case SEG_UNIFORM:
    case SEG_RANDOM:
      snprintf(buf, size, "%s:%llu", dist_kind_name(d), (unsigned long long)d->length);
      break;
    case SEG_ZIPF:
      snprintf(buf, size, "zipf:%g:%llu", d->exponent, (unsigned long long)d->max);
      break;
    case SEG_HUGE:
      if (d->small)
        snprintf(buf, size, "huge:%llu:%llu:%llu", (unsigned long long)d->lo,
                 (unsigned long long)d->hi, (unsigned long long)d->small);
      else
        snprintf(buf, size, "huge:%llu:%llu", (unsigned long long)d->lo,
                 (unsigned long long)d->hi);
      break;
  }
  return buf;
}

static uint64_t option_seed(const char *arg) {
  const char *p = arg;
  uint64_t v;
  if (args_decimal(&p, &v) || *p)
    usage_error("--seed: '%s' is not a non-negative decimal number below 2^64", arg);
  return v;
}

static unsigned option_only(const char *arg) {
  unsigned mask = 0;
  const char *p = arg;
  for (;;) {
    const size_t len = strcspn(p, ",");
    const int row = only_row(p, len);
    if (row < 0) usage_error("--only: '%.*s' is not a row (1 to 6, lib, cub, probe)", (int)len, p);
    mask |= 1u << row;
    if (!p[len]) break;
    p += len + 1;
  }
  return mask;
}

enum {
  OPT_N = 256,
  OPT_OP,
  OPT_TYPE,
  OPT_F64,
  OPT_WITH_VALUE,
  OPT_OFFSET,
  OPT_DEVICE,
  OPT_BACKEND,
  OPT_ONLY,
  OPT_REPEAT,
  OPT_SWEEP,
  OPT_SWEEP_1D,
  OPT_SIZES,
  OPT_RUNS,
  OPT_TUNE,
  OPT_BATCH,
  OPT_COLUMNS,
  OPT_STRIDE,
  OPT_SWEEP_BATCHED,
  OPT_SWEEP_ELEMENTS,
  OPT_LAYOUTS,
  OPT_SEGMENTS,
  OPT_SWEEP_SEGMENTS,
  OPT_SEED,
  OPT_BLOCKS,
  OPT_CSV,
  OPT_JSON,
  OPT_NO_CHECK,
  OPT_VERSION,
  OPT_HELP
};

static const struct option long_options[] = {
    {"n", required_argument, NULL, OPT_N},
    {"op", required_argument, NULL, OPT_OP},
    {"type", required_argument, NULL, OPT_TYPE},
    {"f64-accumulate", no_argument, NULL, OPT_F64},
    {"with-value", no_argument, NULL, OPT_WITH_VALUE},
    {"offset", required_argument, NULL, OPT_OFFSET},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"backend", required_argument, NULL, OPT_BACKEND},
    {"only", required_argument, NULL, OPT_ONLY},
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {"sweep", no_argument, NULL, OPT_SWEEP},
    {"sweep-1d", no_argument, NULL, OPT_SWEEP_1D},
    {"sizes", required_argument, NULL, OPT_SIZES},
    {"runs", required_argument, NULL, OPT_RUNS},
    {"tune", no_argument, NULL, OPT_TUNE},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"columns", no_argument, NULL, OPT_COLUMNS},
    {"stride", required_argument, NULL, OPT_STRIDE},
    {"sweep-batched", no_argument, NULL, OPT_SWEEP_BATCHED},
    {"sweep-elements", required_argument, NULL, OPT_SWEEP_ELEMENTS},
    {"layouts", required_argument, NULL, OPT_LAYOUTS},
    {"segments", required_argument, NULL, OPT_SEGMENTS},
    {"sweep-segments", no_argument, NULL, OPT_SWEEP_SEGMENTS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"blocks", required_argument, NULL, OPT_BLOCKS},
    {"csv", no_argument, NULL, OPT_CSV},
    {"json", no_argument, NULL, OPT_JSON},
    {"no-check", no_argument, NULL, OPT_NO_CHECK},
    {"version", no_argument, NULL, OPT_VERSION},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

static const char *option_name(int val) {
  for (const struct option *o = long_options; o->name; ++o)
    if (o->val == val) return o->name;
  return "?";
}

const char *cub_text(char *buf, size_t size) {
  const int v = bench_cub_version();
  if (!bench_cub_built())
    snprintf(buf, size, "not built");
  else
    snprintf(buf, size, "%d.%d.%d", v / 100000, v / 100 % 1000, v % 100);
  return buf;
}

static void print_version(void) {
#ifdef PACKAGE_VERSION
  const char *version = PACKAGE_VERSION;
#else
  const char *version = gpureduce_version_string();
#endif
  printf(PROGRAM " (gpureduce) %s\n", version);
  printf("library %s (built against header %s), reduction order version %d\n",
         gpureduce_version_string(), GPUREDUCE_VERSION_STRING, GPUREDUCE_ORDER_VERSION);
  char cub[32];
  printf("CUB comparison: %s\n", cub_text(cub, sizeof cub));
}

int is_batched(const struct options *o) { return o->batch || o->sweep_batched; }

int is_segmented(const struct options *o) { return o->segments || o->sweep_segments; }

int is_with_value(const struct options *o) { return (o->flags & GPUREDUCE_WITH_VALUE) != 0; }

int is_plain_f32_sum(const struct options *o) {
  return o->type == GPUREDUCE_F32 && o->op == GPUREDUCE_SUM && !o->flags && !o->dot;
}

const char *op_text(const struct options *o) {
  return o->dot ? "dot" : gpureduce_op_name(o->op);
}

/* --batch, --columns, --stride, --sweep-batched and what goes with them. */
static void check_batched_options(const struct options *o) {
  if (o->batch && o->sweep_batched)
    usage_error("--batch and --sweep-batched: the sweep has its own shapes");
  if ((o->columns || o->stride) && !o->batch)
    usage_error("--columns and --stride describe the matrix of --batch");
  if (o->layouts_given && !o->sweep_batched) usage_error("--layouts applies to --sweep-batched");
  if (o->sweep_elements && !o->sweep_batched && !o->sweep_segments)
    usage_error("--sweep-elements applies to --sweep-batched and --sweep-segments");
  if (o->sweep_batched && o->n_given)
    usage_error("--n and --sweep-batched: the sweep has its own sizes (--sweep-elements)");
  if (!is_batched(o)) return;
  if (o->sweep || o->tune || o->only_given || o->blocks)
    usage_error("--%s: not with --sweep, --tune, --only or --blocks",
                o->batch ? "batch" : "sweep-batched");
  if (!o->batch) return;
  /* Rows: B vectors of N, ld >= N apart; columns: an N x B matrix, ld >= B. */
  const uint64_t dense = o->columns ? o->batch : o->n;
  const uint64_t ld = o->stride ? o->stride : dense;
  if (ld < dense)
    usage_error("--stride %zu: below the dense leading dimension %llu (%s)", o->stride,
                (unsigned long long)dense, o->columns ? "--batch, for --columns" : "--n, for rows");
  /* the matrix's elements, from its first to its last: (lines - 1) x ld + line */
  const uint64_t lines = o->columns ? o->n : o->batch, line = dense;
  if (lines - 1 > (MAX_N - line) / ld || (lines - 1) * ld + line > MAX_N - o->offset)
    usage_error("--batch %zu, --n %zu, --stride %llu: the matrix spans more than 2^40 elements",
                o->batch, o->n, (unsigned long long)ld);
}

/* --segments, --sweep-segments, --seed and what goes with them. */
static void check_segmented_options(const struct options *o) {
  const struct seg_dist *d = &o->dist;
  char dt[96];
  if (o->seed_given && !is_segmented(o))
    usage_error("--seed: the seed of the segment lengths, for --segments and --sweep-segments");
  if (!is_segmented(o)) return;
  const char *mode = o->segments ? "segments" : "sweep-segments";
  if (o->segments && o->sweep_segments)
    usage_error("--segments and --sweep-segments: the sweep has its own distributions");
  if (is_batched(o) || o->columns || o->stride || o->layouts_given)
    usage_error("--%s: not with --batch, --columns, --stride, --sweep-batched or --layouts",
                mode);
  if (o->sweep || o->tune || o->only_given || o->blocks)
    usage_error("--%s: not with --sweep, --tune, --only or --blocks", mode);
  if (o->sweep_segments && o->n_given)
    usage_error("--n and --sweep-segments: the sweep has its own sizes (--sweep-elements)");
  if (!o->segments) return;
  dist_text(d, dt, sizeof dt);
  if (d->kind == SEG_UNIFORM && d->length > o->n)
    usage_error("--segments %s: L is above the --n elements (%zu)", dt, o->n);
  if (d->kind == SEG_HUGE && o->n < 2)
    usage_error("--segments %s: the huge segment needs --n 2 or more", dt);
  /* K segments of at most B leave at least one element to the huge one */
  if (d->kind == SEG_HUGE && d->small && d->hi && d->small > (o->n - 1) / d->hi)
    usage_error("--segments %s: K x B = %llu x %llu is not below the --n elements (%zu)", dt,
                (unsigned long long)d->small, (unsigned long long)d->hi, o->n);
}

/* --sweep-1d, --sizes, --runs, and the lists of --op and --type. */
static void check_sweep_1d_options(struct options *o) {
  if (o->op_count > 1 && !o->sweep_1d)
    usage_error("--op: a list of operations applies to --sweep-1d; the other modes take one");
  if (o->type_count > 1 && !o->sweep_1d)
    usage_error("--type: a list of types applies to --sweep-1d; the other modes take one");
  if ((o->nsizes || o->runs_given) && !o->sweep_1d)
    usage_error("--sizes and --runs apply to --sweep-1d");
  if (!o->sweep_1d) return;
  if (o->n_given || o->sweep || o->tune || is_batched(o) || is_segmented(o) || o->only_given ||
      o->blocks)
    usage_error("--sweep-1d: not with --n (--sizes chooses its sizes), --sweep, --tune, --batch, "
                "--sweep-batched, --segments, --sweep-segments, --only or --blocks");
  if (o->dot) usage_error("--sweep-1d times gpureduce_reduce's operations, not --op dot");
  if (o->flags)
    usage_error("--sweep-1d: flags 0 only (not --f64-accumulate or --with-value)");
  int pairs = 0;
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t)
    for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op)
      pairs += (!o->type_mask || (o->type_mask >> t & 1u)) &&
               (!o->op_mask || (o->op_mask >> op & 1u)) &&
               gpureduce_result_size((gpureduce_type_t)t, (gpureduce_op_t)op, 0) != 0;
  if (!pairs)
    usage_error("--sweep-1d: gpureduce_reduce supports none of these operations on these types "
                "with flags 0");
  if (!o->offset_given) o->offset = SWEEP_1D_OFFSET;
  if (!o->runs_given) o->runs = SWEEP_1D_RUNS;
}

/* Cross-option rules, after every option was read. */
static void check_options(struct options *o) {
  check_sweep_1d_options(o);
  check_batched_options(o);
  check_segmented_options(o);
  if (o->dot && (is_batched(o) || is_segmented(o) || o->tune || o->only_given || o->blocks))
    usage_error("--op dot: --n or --sweep only (not with --batch, --sweep-batched, "
                "--segments, --sweep-segments, --tune, --only or --blocks)");
  if (is_with_value(o) && o->op != GPUREDUCE_ARGMIN && o->op != GPUREDUCE_ARGMAX)
    usage_error("--with-value applies to argmin and argmax, not to %s", op_text(o));
  if (o->flags && gpureduce_result_size(o->type, o->op, o->flags) == 0)
    usage_error(
        "--f64-accumulate applies to the f32 sum, prod, sum_abs, sum_squares, nrm2, "
        "mean_var and dot, not to %s %s",
        gpureduce_type_name(o->type), op_text(o));
  if (o->sweep && o->n_given) usage_error("--n and --sweep: the sweep has its own sizes");
  if (o->tune && (o->sweep || o->only_given || o->blocks || o->offset))
    usage_error("--tune: only --op, --type, --f64-accumulate, --with-value, --n (the largest "
                "size), --device and the output format apply");
  if (o->tune && o->backend == BACKEND_HOST)
    usage_error("--tune: block counts are for CUDA devices, not the host backend");
  if (o->sweep && o->only_given)
    usage_error("--only selects ladder rows; it does not apply to --sweep");
  if (o->only_given && (o->only & RUNG_ROWS) && !is_plain_f32_sum(o))
    usage_error(
        "--only: the ladder rungs 1 to 6 are f32 sum only (no --op, --type, "
        "--f64-accumulate or --with-value)");
  if (o->offset > SIZE_MAX / 16 - o->n) usage_error("--offset: too large for --n");
  if (o->nsizes && o->offset > SIZE_MAX / 16 - o->sizes[o->nsizes - 1])
    usage_error("--offset: too large for --sizes");
}

/* --repeat's default, and the ladder's minimum. */
static void default_repeat(struct options *o) {
  /* batches of calls */
  const int batches = o->sweep || o->sweep_1d || o->dot || is_batched(o) || is_segmented(o);
  if (!o->repeat_given) o->repeat = batches ? SWEEP_REPEAT : LADDER_MIN_REPEAT;
  if (!batches && o->repeat < LADDER_MIN_REPEAT) {
    fprintf(stderr, PROGRAM ": --repeat %d raised to %d, the ladder's minimum\n", o->repeat,
            LADDER_MIN_REPEAT);
    o->repeat = LADDER_MIN_REPEAT;
  }
}

void parse_options(int argc, char **argv, struct options *o) {
  memset(o, 0, sizeof *o);
  o->n = LADDER_N;
  o->op = GPUREDUCE_SUM;
  o->type = GPUREDUCE_F32;
  o->only = (1u << ROW_COUNT) - 1u;
  o->layouts = (1u << LAYOUT_COUNT) - 1u;
  o->check = 1;
  o->seed = DEFAULT_SEED;
  int format_options = 0;
  opterr = 0;
  for (;;) {
    const int c = getopt_long(argc, argv, ":", long_options, NULL);
    if (c == -1) break;
    switch (c) {
      case OPT_N: o->n = option_count("n", optarg, 1, MAX_N), o->n_given = 1; break;
      case OPT_OP: option_ops(optarg, o); break;
      case OPT_TYPE: option_types(optarg, o); break;
      case OPT_F64: o->flags |= GPUREDUCE_ACCUMULATE_F64; break;
      case OPT_WITH_VALUE: o->flags |= GPUREDUCE_WITH_VALUE; break;
      case OPT_OFFSET:
        o->offset = option_count("offset", optarg, 0, MAX_OFFSET), o->offset_given = 1;
        break;
      case OPT_DEVICE:
        o->device = option_int("device", optarg, 0, 1023), o->device_given = 1;
        break;
      case OPT_BACKEND: o->backend = option_backend(optarg); break;
      case OPT_ONLY: o->only = option_only(optarg), o->only_given = 1; break;
      case OPT_REPEAT:
        o->repeat = option_int("repeat", optarg, 1, 100000), o->repeat_given = 1;
        break;
      case OPT_SWEEP: o->sweep = 1; break;
      case OPT_SWEEP_1D: o->sweep_1d = 1; break;
      case OPT_SIZES: option_sizes(optarg, o); break;
      case OPT_RUNS: o->runs = option_int("runs", optarg, 1, 1000), o->runs_given = 1; break;
      case OPT_TUNE: o->tune = 1; break;
      case OPT_BATCH: o->batch = option_count("batch", optarg, 1, MAX_N); break;
      case OPT_COLUMNS: o->columns = 1; break;
      case OPT_STRIDE: o->stride = option_count("stride", optarg, 1, MAX_N); break;
      case OPT_SWEEP_BATCHED: o->sweep_batched = 1; break;
      case OPT_SWEEP_ELEMENTS:
        o->sweep_elements = option_count("sweep-elements", optarg, 1, MAX_N);
        break;
      case OPT_LAYOUTS: o->layouts = option_layouts(optarg), o->layouts_given = 1; break;
      case OPT_SEGMENTS: o->dist = option_dist(optarg), o->segments = 1; break;
      case OPT_SWEEP_SEGMENTS: o->sweep_segments = 1; break;
      case OPT_SEED: o->seed = option_seed(optarg), o->seed_given = 1; break;
      case OPT_BLOCKS: o->blocks = (unsigned)option_int("blocks", optarg, 1, 2147483647); break;
      case OPT_CSV: o->format = FORMAT_CSV, ++format_options; break;
      case OPT_JSON: o->format = FORMAT_JSON, ++format_options; break;
      case OPT_NO_CHECK: o->check = 0; break;
      case OPT_VERSION: print_version(); exit(EXIT_OK);
      case OPT_HELP: print_usage(stdout); exit(EXIT_OK);
      case ':': usage_error("--%s needs a value", option_name(optopt));
      default: usage_error("unknown or ambiguous option '%s'", argv[optind - 1]);
    }
  }
  if (optind < argc) usage_error("unexpected argument '%s'", argv[optind]);
  if (format_options > 1) usage_error("--csv and --json: choose one output format");
  check_options(o);
  default_repeat(o);
}
