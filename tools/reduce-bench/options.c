/*
 * options.c - reduce-bench's command line: the usage text (the one source
 * of --help and of reduce-bench(1)'s OPTIONS and EXIT STATUS), getopt_long
 * and the checks across options (see options.h).
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

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpureduce.h"

#include "bench.h"
#include "bench_cub.h"
#include "options.h"

#include "args.h"

#define LADDER_MIN_REPEAT 10
#define TABLE_REPEAT 5
#define MAX_N ((uint64_t)1 << 40)
#define MAX_OFFSET ((uint64_t)1 << 30)

/* ---- usage: the source of --help and of the man page ---------------------- */

static const char *const usage_text[] = {
    "Usage: reduce-bench [OPTION]...",
    "Time gpureduce's reductions beside the classic CUDA reduction kernels, CUB,",
    "cuBLAS and a read-only bandwidth probe, and check every result.",
    "",
    "With no option, the ladder: n = 2^24-611 floats, all 1.0, summed by the six",
    "teaching kernels v1 to v6, by gpureduce and by CUB, and read by the probe.",
    "Another --op, --type or flag than the f32 sum: one size of --sweep.",
    "",
    "Options:",
    "  --n N             elements (default 2^24-611); with a sweep its largest size",
    "                    (default 2^30, 2^28 for the batched and segmented sweeps;",
    "                    host backend 2^26 and 2^24); N is 1000, 2^K, 2^K-M or 16M",
    "  --op NAME         sum, prod, min, max, argmin, argmax, sum_abs, sum_squares,",
    "                    nrm2, mean_var, logsumexp, amax (default sum), or dot",
    "                    (gpureduce_dot)",
    "  --type NAME       f16, bf16, f32, f64, i8, u8, i32, u32, i64 or u64 (f32)",
    "  --f64-accumulate  accumulate an f32 reduction in double",
    "  --with-value      argmin or argmax with the element's value",
    "  --offset K        start the input K elements into its allocation (default 0)",
    "  --sweep           n = 2^10, 2^11, ... and 2^24-611 on random data",
    "  --batch B         one batched call: B rows of --n elements",
    "  --columns         with --batch: the columns of an N x B matrix instead",
    "  --stride S        with --batch: the leading dimension (default: dense)",
    "  --sweep-batched   --n elements as rows of 1 to 2^24 elements, as columns and",
    "                    as misaligned rows",
    "  --segments DIST   one segmented call over --n elements, lengths drawn from",
    "                    uniform:L, random:L, zipf:S:MAX, huge:A:B or huge:A:B:K",
    "  --sweep-segments  uniform:L and random:L for L = 1 to 2^24, zipf and huge",
    "  --tune            measure the block counts for --op and --type, and save them",
    "  --repeat R        timed runs (ladder, default 10) or batches of 20 calls (5)",
    "  --device D        CUDA device (default 0)",
    "  --backend B       auto, cuda or host (default auto: host without a device)",
    "  --csv             comma-separated values",
    "  --no-check        do not check the results",
    "  --version         print the version and exit",
    "  --help            print this help and exit",
    "",
    "Exit status:",
    "  0  every result right",
    "  1  a wrong result, or a failed library, CUDA or allocation call",
    "  2  a bad option or value",
    "  3  no CUDA device for --backend cuda, --device D or --tune",
    "",
    "reduce-bench(1) says what each mode times and how it checks the results.",
};

static void print_usage(void) {
  for (size_t i = 0; i < sizeof usage_text / sizeof usage_text[0]; ++i)
    printf("%s\n", usage_text[i]);
}

/* ---- values ---------------------------------------------------------------- */

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

static void option_op(const char *arg, struct options *o) {
  o->dot = strcmp(arg, "dot") == 0;
  const int op = o->dot ? GPUREDUCE_SUM : args_op(arg);
  if (op < 0) usage_error("--op: unknown operation '%s'", arg);
  o->op = (gpureduce_op_t)op;
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

static struct seg_dist option_dist(const char *arg) {
  struct seg_dist d;
  char why[200];
  if (dist_parse(arg, &d, why, sizeof why)) usage_error("--segments %s", why);
  return d;
}

/* ---- what the options share ---------------------------------------------- */

const char *op_text(const struct options *o) {
  return o->dot ? "dot" : gpureduce_op_name(o->op);
}

int is_with_value(const struct options *o) { return (o->flags & GPUREDUCE_WITH_VALUE) != 0; }

int is_plain_f32_sum(const struct options *o) {
  return o->type == GPUREDUCE_F32 && o->op == GPUREDUCE_SUM && !o->flags && !o->dot;
}

static const char *cub_text(char *buf, size_t size) {
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
  char cub[32];
  printf(PROGRAM " (gpureduce) %s\n", version);
  printf("library %s (built against header %s), reduction order version %d\n",
         gpureduce_version_string(), GPUREDUCE_VERSION_STRING, GPUREDUCE_ORDER_VERSION);
  printf("CUB comparison: %s\n", cub_text(cub, sizeof cub));
}

/* ---- getopt_long, and the checks across options ------------------------------ */

enum {
  OPT_N = 256,
  OPT_OP,
  OPT_TYPE,
  OPT_F64,
  OPT_WITH_VALUE,
  OPT_OFFSET,
  OPT_SWEEP,
  OPT_BATCH,
  OPT_COLUMNS,
  OPT_STRIDE,
  OPT_SWEEP_BATCHED,
  OPT_SEGMENTS,
  OPT_SWEEP_SEGMENTS,
  OPT_TUNE,
  OPT_REPEAT,
  OPT_DEVICE,
  OPT_BACKEND,
  OPT_CSV,
  OPT_NO_CHECK,
  OPT_VERSION,
  OPT_HELP
};

static void check_options(struct options *o, int n_given) {
  if (!o->dot && o->op == GPUREDUCE_LOGSUMEXP && gpureduce_result_size(o->type, o->op, 0) == 0)
    usage_error("--op %s takes f16, bf16, f32 and f64, not %s", op_text(o),
                gpureduce_type_name(o->type));
  if (is_with_value(o) && o->op != GPUREDUCE_ARGMIN && o->op != GPUREDUCE_ARGMAX)
    usage_error("--with-value applies to argmin and argmax, not to %s", op_text(o));
  if (o->flags && gpureduce_result_size(o->type, o->op, o->flags) == 0)
    usage_error("--f64-accumulate applies to the f32 sum, prod, sum_abs, sum_squares, nrm2, "
                "mean_var and dot, not to %s %s",
                gpureduce_type_name(o->type), op_text(o));
  if ((o->columns || o->stride) && !(o->mode == MODE_BATCHED && !o->sweep))
    usage_error("--columns and --stride describe the matrix of --batch");
  if (o->mode == MODE_TUNE && o->offset) usage_error("--tune: not with --offset");
  if (o->mode == MODE_TUNE && o->backend == BACKEND_HOST)
    usage_error("--tune: block counts are for CUDA devices, not the host backend");
  if (!n_given) o->n = o->sweep || o->mode == MODE_TUNE ? 0 : LADDER_N;
  if (o->offset > SIZE_MAX / 16 - o->n) usage_error("--offset: too large for --n");
  char why[200];
  if (o->mode == MODE_SEGMENTS && !o->sweep && dist_fits(&o->dist, o->n, why, sizeof why))
    usage_error("--segments %s", why);
  if (o->mode != MODE_BATCHED || o->sweep) return;
  /* rows: B vectors of N, ld >= N apart; columns: an N x B matrix, ld >= B */
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

static const struct option long_options[] = {
    {"n", required_argument, NULL, OPT_N},
    {"op", required_argument, NULL, OPT_OP},
    {"type", required_argument, NULL, OPT_TYPE},
    {"f64-accumulate", no_argument, NULL, OPT_F64},
    {"with-value", no_argument, NULL, OPT_WITH_VALUE},
    {"offset", required_argument, NULL, OPT_OFFSET},
    {"sweep", no_argument, NULL, OPT_SWEEP},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"columns", no_argument, NULL, OPT_COLUMNS},
    {"stride", required_argument, NULL, OPT_STRIDE},
    {"sweep-batched", no_argument, NULL, OPT_SWEEP_BATCHED},
    {"segments", required_argument, NULL, OPT_SEGMENTS},
    {"sweep-segments", no_argument, NULL, OPT_SWEEP_SEGMENTS},
    {"tune", no_argument, NULL, OPT_TUNE},
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"backend", required_argument, NULL, OPT_BACKEND},
    {"csv", no_argument, NULL, OPT_CSV},
    {"no-check", no_argument, NULL, OPT_NO_CHECK},
    {"version", no_argument, NULL, OPT_VERSION},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

/* Whether the word "--xyz[=...]" abbreviates more than one long option. */
static int ambiguous(const char *word) {
  const size_t len = strcspn(word + 2, "=");
  int hits = 0;
  for (const struct option *p = long_options; p->name; ++p) {
    if (strlen(p->name) == len && strncmp(p->name, word + 2, len) == 0) return 0;
    hits += strncmp(p->name, word + 2, len) == 0;
  }
  return hits > 1;
}

/* The name of the option that chose a mode (--sweep ...), or NULL. */
static const char *mode_option(int c, struct options *o) {
  switch (c) {
    case OPT_SWEEP: o->mode = MODE_SWEEP, o->sweep = 1; return "--sweep";
    case OPT_BATCH: o->mode = MODE_BATCHED; return "--batch";
    case OPT_SWEEP_BATCHED: o->mode = MODE_BATCHED, o->sweep = 1; return "--sweep-batched";
    case OPT_SEGMENTS: o->mode = MODE_SEGMENTS; return "--segments";
    case OPT_SWEEP_SEGMENTS: o->mode = MODE_SEGMENTS, o->sweep = 1; return "--sweep-segments";
    case OPT_TUNE: o->mode = MODE_TUNE; return "--tune";
  }
  return NULL;
}

void parse_options(int argc, char **argv, struct options *o) {
  const char *mode_name = NULL;
  int n_given = 0, repeat_given = 0;
  memset(o, 0, sizeof *o);
  o->op = GPUREDUCE_SUM;
  o->type = GPUREDUCE_F32;
  o->check = 1;
  opterr = 0; /* the messages are usage_error's, in getopt_long's words */
  for (;;) {
    const int c = getopt_long(argc, argv, ":", long_options, NULL);
    if (c == -1) break;
    const char *name = mode_option(c, o);
    if (name && mode_name) usage_error("%s and %s: choose one", mode_name, name);
    if (name) mode_name = name;
    switch (c) {
      case OPT_N: o->n = option_count("n", optarg, 1, MAX_N), n_given = 1; break;
      case OPT_OP: option_op(optarg, o); break;
      case OPT_TYPE: o->type = option_type(optarg); break;
      case OPT_F64: o->flags |= GPUREDUCE_ACCUMULATE_F64; break;
      case OPT_WITH_VALUE: o->flags |= GPUREDUCE_WITH_VALUE; break;
      case OPT_OFFSET: o->offset = option_count("offset", optarg, 0, MAX_OFFSET); break;
      case OPT_BATCH: o->batch = option_count("batch", optarg, 1, MAX_N); break;
      case OPT_COLUMNS: o->columns = 1; break;
      case OPT_STRIDE: o->stride = option_count("stride", optarg, 1, MAX_N); break;
      case OPT_SEGMENTS: o->dist = option_dist(optarg); break;
      case OPT_SWEEP:
      case OPT_SWEEP_BATCHED:
      case OPT_SWEEP_SEGMENTS:
      case OPT_TUNE: break;
      case OPT_REPEAT:
        o->repeat = option_int("repeat", optarg, 1, 100000), repeat_given = 1;
        break;
      case OPT_DEVICE:
        o->device = option_int("device", optarg, 0, 1023), o->device_given = 1;
        break;
      case OPT_BACKEND: o->backend = option_backend(optarg); break;
      case OPT_CSV: o->csv = 1; break;
      case OPT_NO_CHECK: o->check = 0; break;
      case OPT_VERSION: print_version(); exit(EXIT_OK);
      case OPT_HELP: print_usage(); exit(EXIT_OK);
      case ':': usage_error("option '%s' requires an argument", argv[optind - 1]);
      default:
        for (const struct option *p = long_options; optopt && p->name; ++p)
          if (p->val == optopt) usage_error("option '--%s' doesn't allow an argument", p->name);
        if (strncmp(argv[optind - 1], "--", 2) == 0 && ambiguous(argv[optind - 1]))
          usage_error("option '%s' is ambiguous", argv[optind - 1]);
        usage_error("unrecognized option '%s'", argv[optind - 1]);
    }
  }
  if (optind < argc) usage_error("unexpected argument '%s'", argv[optind]);
  if (o->dot && mode_name && o->mode != MODE_SWEEP)
    usage_error("--op dot: with --n or --sweep, not %s", mode_name);
  if (o->dot)
    o->mode = MODE_DOT;
  else if (!mode_name)
    o->mode = is_plain_f32_sum(o) ? MODE_LADDER : MODE_SWEEP;
  check_options(o, n_given);
  if (!repeat_given) o->repeat = o->mode == MODE_LADDER ? LADDER_MIN_REPEAT : TABLE_REPEAT;
  if (o->mode == MODE_LADDER && o->repeat < LADDER_MIN_REPEAT) {
    message("--repeat %d raised to %d, the ladder's minimum", o->repeat, LADDER_MIN_REPEAT);
    o->repeat = LADDER_MIN_REPEAT;
  }
}
