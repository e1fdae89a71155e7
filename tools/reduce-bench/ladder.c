/*
 * reduce-bench.c - the gpureduce benchmark.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * With no argument it runs the ladder: the six classic reduction kernels
 * (gpureduce_ladder_sum_f32), the library's production path, CUB and a
 * read-only bandwidth probe on n = 2^24 - 611 floats that are all 1.0, so
 * every partial sum is exact and every result is checked exactly.
 * --sweep times one operation over n = 2^10 .. 2^30 on random data made on
 * the device.  Without a GPU the host backend runs the same tables.
 *
 * The CUDA work (fills, events, CUB, the probe) lives in bench_cuda.cu;
 * this file calls the library's public API and bench_cuda.h only.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
/* getopt_long, clock_gettime, isatty, sysconf also under -std=c11. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <ctype.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpureduce.h"

#include "bench_cuda.h"

#define PROGRAM "reduce-bench"

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

enum {
  EXIT_OK = 0,       /* every result right */
  EXIT_WRONG = 1,    /* a wrong result, a CUDA or allocation failure */
  EXIT_USAGE = 2,    /* bad option or value */
  EXIT_NO_DEVICE = 3 /* --backend cuda (or --device D) and no such device */
};

#define LADDER_N (((size_t)1 << 24) - 611) /* 611 = 13 x 47: no block size divides n */
#define LADDER_MIN_REPEAT 10
#define SWEEP_REPEAT 5
#define SWEEP_BATCH 20 /* back-to-back calls timed as one batch */
#define WARMUP_CALLS 3
#define SWEEP_MIN_LOG2 10
#define SWEEP_MAX_LOG2 30                  /* CUDA */
#define HOST_MAX_LOG2 26                   /* host backend */
#define HOST_CHECK_MAX_N ((size_t)1 << 26) /* CUDA sweep: bitwise check against the host */
#define LIMIT_BYTES ((size_t)1 << 30)      /* the probe's buffer for the limit */
#define MAX_N ((uint64_t)1 << 40)
#define MAX_OFFSET ((uint64_t)1 << 30)
#define RANDOM_SEED 0x2545f4914f6cdd1dull

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
    "Options:",
    "  --n N             elements (default 2^24-611): a decimal number, 2^K,",
    "                    2^K+M or 2^K-M, or a number with the suffix K, M or G",
    "                    (times 2^10, 2^20, 2^30): 16M, 1G",
    "  --op NAME         sum, prod, min, max, argmin, argmax, sum_abs or",
    "                    sum_squares (default sum)",
    "  --type NAME       f16, bf16, f32, f64, i8, u8, i32, u32, i64 or u64",
    "                    (default f32); the ladder rungs are f32 sum only, other",
    "                    operations and types get rows gpureduce, cub and probe",
    "  --f64-accumulate  accumulate an f32 sum, prod, sum_abs or sum_squares in",
    "                    double (GPUREDUCE_ACCUMULATE_F64)",
    "  --offset K        start the input K elements into its allocation, so it",
    "                    is misaligned (default 0)",
    "  --device D        CUDA device ordinal (default 0); given with --backend",
    "                    auto and no device, exit status 3 (no host fallback)",
    "  --backend B       auto, cuda or host (default auto: CUDA when a device",
    "                    exists, else the host backend)",
    "  --only LIST       rows of the ladder to run, comma separated: 1 to 6 (or",
    "                    v1 to v6), lib, cub, probe",
    "  --repeat R        timed runs (ladder: default and minimum 10) or timed",
    "                    batches of 20 calls (--sweep: default 5)",
    "  --sweep           time n = 2^10, 2^11, ..., 2^30 and 2^24-611 (host",
    "                    backend: up to 2^26) on random data: gpureduce, CUB,",
    "                    the probe and, for the f32 sum, an atomic",
    "                    (nondeterministic) kernel",
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
    "  1  a wrong result, a CUDA call or a memory allocation failed, or --tune",
    "     could not write the tuning cache",
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
  fputs(PROGRAM ": ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  print_usage(stderr);
  exit(EXIT_USAGE);
}

static _Noreturn void fatal(int status, const char *fmt, ...) PRINTF_LIKE(2, 3);
static _Noreturn void fatal(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs(PROGRAM ": ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(status);
}

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) fatal(EXIT_WRONG, "out of host memory (%zu bytes)", bytes);
  return p;
}

/* 64-byte aligned host memory. */
static void *xmalloc_aligned(size_t bytes) {
  const size_t rounded = (bytes + 63) / 64 * 64;
  void *p = aligned_alloc(64, rounded ? rounded : 64);
  if (!p) fatal(EXIT_WRONG, "out of host memory (%zu bytes)", bytes);
  return p;
}

/* ---- options ------------------------------------------------------------ */

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
#define RUNG_ROWS ((1u << ROW_LIB) - 1u)

struct options {
  size_t n;
  int n_given;
  int device_given;
  gpureduce_op_t op;
  gpureduce_type_t type;
  unsigned flags;
  size_t offset;
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
};

static int parse_decimal(const char **p, uint64_t *v) {
  const char *s = *p;
  uint64_t x = 0;
  if (!isdigit((unsigned char)*s)) return -1;
  for (; isdigit((unsigned char)*s); ++s) {
    const unsigned d = (unsigned)(*s - '0');
    if (x > (UINT64_MAX - d) / 10) return -1;
    x = x * 10 + d;
  }
  *p = s;
  *v = x;
  return 0;
}

/* "2^K", "2^K+M", "2^K-M", "D", "DK", "DM", "DG"; -1 on garbage or overflow. */
static int parse_count(const char *s, uint64_t *out) {
  const char *p = s;
  uint64_t v, m;
  if (p[0] == '2' && p[1] == '^') {
    p += 2;
    if (parse_decimal(&p, &m) || m > 62) return -1;
    v = (uint64_t)1 << m;
    if (*p == '+' || *p == '-') {
      const char sign = *p++;
      if (parse_decimal(&p, &m)) return -1;
      if (sign == '+' ? m > UINT64_MAX - v : m > v) return -1;
      v = sign == '+' ? v + m : v - m;
    }
  } else {
    if (parse_decimal(&p, &v)) return -1;
    const char *suffixes = "KMG";
    const char *hit = *p ? strchr(suffixes, toupper((unsigned char)*p)) : NULL;
    if (hit) {
      const unsigned shift = 10u * (unsigned)(hit - suffixes + 1);
      if (v > (UINT64_MAX >> shift)) return -1;
      v <<= shift;
      ++p;
    }
  }
  if (*p) return -1;
  *out = v;
  return 0;
}

static size_t option_count(const char *name, const char *arg, uint64_t min, uint64_t max) {
  uint64_t v;
  if (parse_count(arg, &v))
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
  if (parse_decimal(&p, &v) || *p)
    usage_error("--%s: '%s' is not a non-negative decimal number", name, arg);
  if (v < (uint64_t)min || v > (uint64_t)max)
    usage_error("--%s: %s is out of range (%d to %d)", name, arg, min, max);
  return (int)v;
}

static gpureduce_op_t option_op(const char *arg) {
  for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op)
    if (strcmp(arg, gpureduce_op_name((gpureduce_op_t)op)) == 0) return (gpureduce_op_t)op;
  usage_error("--op: unknown operation '%s'", arg);
}

static gpureduce_type_t option_type(const char *arg) {
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t)
    if (strcmp(arg, gpureduce_type_name((gpureduce_type_t)t)) == 0) return (gpureduce_type_t)t;
  usage_error("--type: unknown type '%s'", arg);
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
  OPT_OFFSET,
  OPT_DEVICE,
  OPT_BACKEND,
  OPT_ONLY,
  OPT_REPEAT,
  OPT_SWEEP,
  OPT_TUNE,
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
    {"offset", required_argument, NULL, OPT_OFFSET},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"backend", required_argument, NULL, OPT_BACKEND},
    {"only", required_argument, NULL, OPT_ONLY},
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {"sweep", no_argument, NULL, OPT_SWEEP},
    {"tune", no_argument, NULL, OPT_TUNE},
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

/* "3.0.1", or "not built". */
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
  printf(PROGRAM " (gpureduce) %s\n", version);
  printf("library %s (built against header %s), reduction order version %d\n",
         gpureduce_version_string(), GPUREDUCE_VERSION_STRING, GPUREDUCE_ORDER_VERSION);
  char cub[32];
  printf("CUB comparison: %s\n", cub_text(cub, sizeof cub));
}

static int is_plain_f32_sum(const struct options *o) {
  return o->type == GPUREDUCE_F32 && o->op == GPUREDUCE_SUM && !o->flags;
}

/* Cross-option rules, after every option was read. */
static void check_options(struct options *o) {
  if (o->flags && gpureduce_result_size(o->type, o->op, o->flags) == 0)
    usage_error(
        "--f64-accumulate applies to the f32 sum, prod, sum_abs and sum_squares, "
        "not to %s %s",
        gpureduce_type_name(o->type), gpureduce_op_name(o->op));
  if (o->sweep && o->n_given) usage_error("--n and --sweep: the sweep has its own sizes");
  if (o->tune && (o->sweep || o->only_given || o->blocks || o->offset))
    usage_error("--tune: only --op, --type, --f64-accumulate, --n (the largest size), "
                "--device and the output format apply");
  if (o->tune && o->backend == BACKEND_HOST)
    usage_error("--tune: block counts are for CUDA devices, not the host backend");
  if (o->sweep && o->only_given)
    usage_error("--only selects ladder rows; it does not apply to --sweep");
  if (o->only_given && (o->only & RUNG_ROWS) && !is_plain_f32_sum(o))
    usage_error(
        "--only: the ladder rungs 1 to 6 are f32 sum only (no --op, --type or "
        "--f64-accumulate)");
  if (o->offset > SIZE_MAX / 16 - o->n) usage_error("--offset: too large for --n");
}

static void parse_options(int argc, char **argv, struct options *o) {
  memset(o, 0, sizeof *o);
  o->n = LADDER_N;
  o->op = GPUREDUCE_SUM;
  o->type = GPUREDUCE_F32;
  o->only = (1u << ROW_COUNT) - 1u;
  o->check = 1;
  int format_options = 0;
  opterr = 0;
  for (;;) {
    const int c = getopt_long(argc, argv, ":", long_options, NULL);
    if (c == -1) break;
    switch (c) {
      case OPT_N: o->n = option_count("n", optarg, 1, MAX_N), o->n_given = 1; break;
      case OPT_OP: o->op = option_op(optarg); break;
      case OPT_TYPE: o->type = option_type(optarg); break;
      case OPT_F64: o->flags |= GPUREDUCE_ACCUMULATE_F64; break;
      case OPT_OFFSET: o->offset = option_count("offset", optarg, 0, MAX_OFFSET); break;
      case OPT_DEVICE:
        o->device = option_int("device", optarg, 0, 1023), o->device_given = 1;
        break;
      case OPT_BACKEND: o->backend = option_backend(optarg); break;
      case OPT_ONLY: o->only = option_only(optarg), o->only_given = 1; break;
      case OPT_REPEAT:
        o->repeat = option_int("repeat", optarg, 1, 100000), o->repeat_given = 1;
        break;
      case OPT_SWEEP: o->sweep = 1; break;
      case OPT_TUNE: o->tune = 1; break;
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
}

/* ---- element and result values ------------------------------------------ */

static int type_is_float(gpureduce_type_t t) { return t <= GPUREDUCE_F64; }

static int type_is_signed(gpureduce_type_t t) {
  return t == GPUREDUCE_I8 || t == GPUREDUCE_I32 || t == GPUREDUCE_I64;
}

static int op_is_arg(gpureduce_op_t op) { return op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX; }

static int op_is_extremum(gpureduce_op_t op) { return op == GPUREDUCE_MIN || op == GPUREDUCE_MAX; }

/* The type of the result of (type, op, flags), as gpureduce.h's table. */
static gpureduce_type_t result_type(gpureduce_type_t t, gpureduce_op_t op, unsigned flags) {
  if (op_is_arg(op)) return GPUREDUCE_U64;
  if (op_is_extremum(op)) return t;
  if (t == GPUREDUCE_F64 || flags) return GPUREDUCE_F64;
  if (type_is_float(t)) return GPUREDUCE_F32;
  return type_is_signed(t) ? GPUREDUCE_I64 : GPUREDUCE_U64;
}

static double half_to_double(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double v = e == 0    ? ldexp(m, -24)
                   : e == 31 ? (m ? NAN : INFINITY)
                             : ldexp(1024 + m, e - 25);
  return h >> 15 ? -v : v;
}

static double bf16_to_double(uint16_t b) {
  const uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* Element i of a float array as a double (exact). */
static double load_float(gpureduce_type_t t, const void *x, size_t i) {
  switch (t) {
    case GPUREDUCE_F16: return half_to_double(((const uint16_t *)x)[i]);
    case GPUREDUCE_BF16: return bf16_to_double(((const uint16_t *)x)[i]);
    case GPUREDUCE_F32: return ((const float *)x)[i];
    default: return ((const double *)x)[i];
  }
}

/* Element i of an integer array: the value (signed) and its value modulo
 * 2^64 (what the library's integer sums add). */
static int64_t load_signed(gpureduce_type_t t, const void *x, size_t i) {
  switch (t) {
    case GPUREDUCE_I8: return ((const int8_t *)x)[i];
    case GPUREDUCE_I32: return ((const int32_t *)x)[i];
    case GPUREDUCE_I64: return ((const int64_t *)x)[i];
    case GPUREDUCE_U8: return ((const uint8_t *)x)[i];
    case GPUREDUCE_U32: return ((const uint32_t *)x)[i];
    default: return (int64_t)((const uint64_t *)x)[i];
  }
}

static uint64_t load_unsigned(gpureduce_type_t t, const void *x, size_t i) {
  if (type_is_signed(t)) return (uint64_t)load_signed(t, x, i);
  switch (t) {
    case GPUREDUCE_U8: return ((const uint8_t *)x)[i];
    case GPUREDUCE_U32: return ((const uint32_t *)x)[i];
    default: return ((const uint64_t *)x)[i];
  }
}

/* A result (bits of type rt) as a double, for bounds and messages. */
static double result_as_double(gpureduce_type_t rt, const void *bits) {
  if (type_is_float(rt)) return load_float(rt, bits, 0);
  if (type_is_signed(rt)) return (double)load_signed(rt, bits, 0);
  return (double)load_unsigned(rt, bits, 0);
}

static void format_result(gpureduce_type_t rt, const void *bits, char *buf, size_t size) {
  if (rt == GPUREDUCE_F16 || rt == GPUREDUCE_BF16) {
    uint16_t h;
    memcpy(&h, bits, 2);
    snprintf(buf, size, "0x%04x (%.9g)", h, load_float(rt, bits, 0));
  } else if (type_is_float(rt)) {
    snprintf(buf, size, "%.17g", load_float(rt, bits, 0));
  } else if (type_is_signed(rt)) {
    snprintf(buf, size, "%lld", (long long)load_signed(rt, bits, 0));
  } else {
    snprintf(buf, size, "%llu", (unsigned long long)load_unsigned(rt, bits, 0));
  }
}

/* Store v (an integer or an exactly representable value) as type rt. */
static void store_value(gpureduce_type_t rt, double v, uint64_t u, void *bits) {
  if (rt == GPUREDUCE_F32) {
    const float f = (float)v;
    memcpy(bits, &f, sizeof f);
  } else if (rt == GPUREDUCE_F64) {
    memcpy(bits, &v, sizeof v);
  } else {
    memcpy(bits, &u, sizeof u); /* I64, U64: little-endian 8 bytes */
  }
}

static unsigned ceil_log2(uint64_t v) {
  unsigned k = 0;
  while (k < 64 && ((uint64_t)1 << k) < v) ++k;
  return k;
}

/* ---- checks --------------------------------------------------------------- */

/* What a check found: the verdict and, when wrong, a line for stderr. */
struct verdict {
  int wrong;
  int exact; /* compared bit for bit */
  char detail[240];
};

static void verdict_wrong(struct verdict *v, gpureduce_type_t rt, const void *got, const char *fmt,
                          ...) PRINTF_LIKE(4, 5);
static void verdict_wrong(struct verdict *v, gpureduce_type_t rt, const void *got, const char *fmt,
                          ...) {
  char value[64], why[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  format_result(rt, got, value, sizeof value);
  v->wrong = 1;
  snprintf(v->detail, sizeof v->detail, "result %s, %s", value, why);
}

static void compare_bits(struct verdict *v, gpureduce_type_t rt, const void *got, const void *want,
                         const char *what) {
  const size_t bytes = gpureduce_type_size(rt);
  char value[64];
  v->exact = 1;
  if (memcmp(got, want, bytes) == 0) return;
  format_result(rt, want, value, sizeof value);
  verdict_wrong(v, rt, got, "expected %s (%s)", value, what);
}

static void compare_bound(struct verdict *v, gpureduce_type_t rt, const void *got, double want,
                          double bound, const char *what) {
  const double r = result_as_double(rt, got);
  if (fabs(r - want) <= bound) return;
  verdict_wrong(v, rt, got, "expected %.17g within %.3g (%s)", want, bound, what);
}

/*
 * The result of (type, op, flags) over n ones: n for the sums, 1 for prod,
 * min and max, index 0 for argmin and argmax.  Exact, except sums with a
 * float accumulator when n > 2^24: some partial sums of ones are then not
 * representable, and the check allows (log2 n + 8) roundings of n.
 */
static struct verdict check_ones(gpureduce_type_t t, gpureduce_op_t op, unsigned flags, size_t n,
                                 const void *got) {
  struct verdict v = {0, 0, ""};
  const gpureduce_type_t rt = result_type(t, op, flags);
  unsigned char want[8] = {0};
  if (op_is_arg(op)) {
    store_value(rt, 0, 0, want);
  } else if (op_is_extremum(op)) {
    bench_fill_ones_host(want, 1, t);
  } else {
    const uint64_t count = op == GPUREDUCE_PROD ? 1 : n;
    if (rt == GPUREDUCE_F32 && count > ((uint64_t)1 << 24)) {
      compare_bound(&v, rt, got, (double)count, (ceil_log2(count) + 8) * ldexp((double)count, -24),
                    "the sum of n ones, not exact in float past 2^24");
      return v;
    }
    store_value(rt, (double)count, count, want);
  }
  compare_bits(&v, rt, got, want, "all-ones input");
  return v;
}

/* Index of the extremum of a float array: the first NaN if any, else the
 * first smallest (largest); with signed_zero, -0 counts below +0. */
static size_t float_extremum(gpureduce_type_t t, const void *x, size_t n, int want_max,
                             int signed_zero, int *nan) {
  size_t best = 0;
  double b = load_float(t, x, 0);
  *nan = isnan(b);
  for (size_t i = 1; i < n && !*nan; ++i) {
    const double v = load_float(t, x, i);
    if (isnan(v)) {
      *nan = 1;
      best = i;
    } else if (want_max ? v > b : v < b) {
      best = i, b = v;
    } else if (signed_zero && v == b && v == 0 && signbit(v) != signbit(b) &&
               (want_max ? !signbit(v) : signbit(v) != 0)) {
      best = i, b = v;
    }
  }
  return best;
}

static size_t int_extremum(gpureduce_type_t t, const void *x, size_t n, int want_max) {
  size_t best = 0;
  for (size_t i = 1; i < n; ++i) {
    int better;
    if (type_is_signed(t)) {
      const int64_t a = load_signed(t, x, i), b = load_signed(t, x, best);
      better = want_max ? a > b : a < b;
    } else {
      const uint64_t a = load_unsigned(t, x, i), b = load_unsigned(t, x, best);
      better = want_max ? a > b : a < b;
    }
    if (better) best = i;
  }
  return best;
}

static void canonical_nan(gpureduce_type_t rt, void *bits) {
  static const uint64_t nan64 = 0x7fffffffffffffffull;
  static const uint32_t nan32 = 0x7fffffffu;
  static const uint16_t nan16 = 0x7fffu;
  memcpy(bits,
         rt == GPUREDUCE_F64   ? (const void *)&nan64
         : rt == GPUREDUCE_F32 ? (const void *)&nan32
                               : (const void *)&nan16,
         gpureduce_type_size(rt));
}

/* Min, max, argmin, argmax: the exact expected bits. */
static void oracle_extremum(gpureduce_type_t t, gpureduce_op_t op, const void *x, size_t n,
                            void *want) {
  const int want_max = op == GPUREDUCE_MAX || op == GPUREDUCE_ARGMAX;
  int nan = 0;
  const size_t i = type_is_float(t) ? float_extremum(t, x, n, want_max, !op_is_arg(op), &nan)
                                    : int_extremum(t, x, n, want_max);
  if (op_is_arg(op)) {
    const uint64_t idx = i;
    memcpy(want, &idx, sizeof idx);
  } else if (nan) {
    canonical_nan(t, want);
  } else {
    const size_t es = gpureduce_type_size(t);
    memcpy(want, (const unsigned char *)x + i * es, es);
  }
}

/* Integer sums, prod, sum_abs, sum_squares modulo 2^64: exact bits. */
static void oracle_int_sum(gpureduce_type_t t, gpureduce_op_t op, const void *x, size_t n,
                           void *want) {
  uint64_t acc = op == GPUREDUCE_PROD ? 1 : 0;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t v = load_unsigned(t, x, i);
    if (op == GPUREDUCE_PROD)
      acc *= v;
    else if (op == GPUREDUCE_SUM_SQUARES)
      acc += v * v;
    else if (op == GPUREDUCE_SUM_ABS && type_is_signed(t) && load_signed(t, x, i) < 0)
      acc -= v;
    else
      acc += v;
  }
  memcpy(want, &acc, sizeof acc);
}

/* Float sums: Neumaier-compensated double sum of the lifted elements and
 * the sum of their magnitudes; prod: a double product. */
static void oracle_float_sum(gpureduce_type_t t, gpureduce_op_t op, const void *x, size_t n,
                             double *value, double *magnitude) {
  double s = op == GPUREDUCE_PROD ? 1.0 : 0.0, c = 0.0, m = 0.0;
  for (size_t i = 0; i < n; ++i) {
    double v = load_float(t, x, i);
    if (op == GPUREDUCE_PROD) {
      s *= v;
      continue;
    }
    v = op == GPUREDUCE_SUM_ABS ? fabs(v) : op == GPUREDUCE_SUM_SQUARES ? v * v : v;
    const double u = s + v;
    c += fabs(s) >= fabs(v) ? (s - u) + v : (v - u) + s;
    s = u;
    m += fabs(v);
  }
  *value = s + c;
  *magnitude = m;
}

/*
 * Check got, the library's result over x[0 .. n-1], against an independent
 * oracle: exact for integers and for min, max, argmin, argmax; for float
 * sums |got - sum| <= (8V + 8 + ceil(log2 tiles) + 2) eps sum|x| (V elements
 * per 16-byte chunk, eps of the accumulator: the order's depth plus
 * margin); for float prod (n + 2) eps |prod| plus n underflow steps.
 */
static struct verdict check_oracle(gpureduce_type_t t, gpureduce_op_t op, unsigned flags,
                                   const void *x, size_t n, const void *got) {
  struct verdict v = {0, 0, ""};
  const gpureduce_type_t rt = result_type(t, op, flags);
  unsigned char want[8] = {0};
  if (op_is_arg(op) || op_is_extremum(op)) {
    oracle_extremum(t, op, x, n, want);
    compare_bits(&v, rt, got, want, "oracle");
    return v;
  }
  if (!type_is_float(t)) {
    oracle_int_sum(t, op, x, n, want);
    compare_bits(&v, rt, got, want, "oracle, modulo 2^64");
    return v;
  }
  double value, magnitude;
  oracle_float_sum(t, op, x, n, &value, &magnitude);
  const int f64 = rt == GPUREDUCE_F64;
  const double eps = f64 ? DBL_EPSILON : FLT_EPSILON, tiny = f64 ? 0x1p-1074 : 0x1p-149;
  double bound;
  if (op == GPUREDUCE_PROD) {
    bound = (double)(n + 2) * eps * fabs(value) + (double)n * tiny;
  } else {
    const size_t chunk = 16 / gpureduce_type_size(t);
    const uint64_t tiles =
        (n + GPUREDUCE_ORDER_TILE_CHUNKS * chunk - 1) / (GPUREDUCE_ORDER_TILE_CHUNKS * chunk);
    bound = (8.0 * chunk + 8 + ceil_log2(tiles) + 2) * eps * magnitude;
  }
  compare_bound(&v, rt, got, value, bound, "oracle bound");
  return v;
}

/* ---- timing ----------------------------------------------------------------- */

/* Events on the device (CUDA) or the monotonic clock (host). */
struct clock_src {
  struct bench_timer *events; /* NULL: host clock */
};

struct timing {
  int warmup; /* untimed calls first */
  int repeat; /* timed batches; the median is reported */
  int batch;  /* calls per timed batch */
};

typedef void (*call_fn)(void *arg);

static double host_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Milliseconds per call of one batch of `calls` back-to-back calls. */
static double time_batch_ms(const struct clock_src *ck, call_fn fn, void *arg, int calls) {
  double t0 = 0.0;
  if (ck->events)
    bench_timer_start(ck->events);
  else
    t0 = host_now_ms();
  for (int i = 0; i < calls; ++i) fn(arg);
  const double ms = ck->events ? bench_timer_stop_ms(ck->events) : host_now_ms() - t0;
  return ms / calls;
}

static int compare_doubles(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int count) {
  qsort(v, (size_t)count, sizeof *v, compare_doubles);
  return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

/* Median milliseconds per call, after tm->warmup untimed calls. */
static double median_ms(const struct clock_src *ck, const struct timing *tm, call_fn fn,
                        void *arg) {
  for (int i = 0; i < tm->warmup; ++i) fn(arg);
  if (ck->events) bench_cuda_sync("warm-up calls");
  double *t = xmalloc((size_t)tm->repeat * sizeof *t);
  for (int r = 0; r < tm->repeat; ++r) t[r] = time_batch_ms(ck, fn, arg, tm->batch);
  const double m = median(t, tm->repeat);
  free(t);
  return m;
}

static double gbps(uint64_t bytes, double ms) { return ms > 0 ? (double)bytes / (ms * 1e6) : 0.0; }

/* ---- the timed calls ------------------------------------------------------- */

static _Noreturn void library_failed(gpureduce_handle_t h, gpureduce_status_t s, const char *what) {
  fatal(s == GPUREDUCE_ERROR_NO_DEVICE ? EXIT_NO_DEVICE : EXIT_WRONG, "%s failed: %s%s%s", what,
        gpureduce_status_string(s), h && *gpureduce_last_message(h) ? ": " : "",
        h ? gpureduce_last_message(h) : "");
}

struct reduce_call {
  const void *in;
  void *out;
  size_t n;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  gpureduce_handle_t h;
};

/* The library's production path: gpureduce_sum_f32 for the f32 sum,
 * gpureduce_reduce otherwise. */
static void run_reduce(void *arg) {
  const struct reduce_call *c = arg;
  gpureduce_status_t s;
  if (c->type == GPUREDUCE_F32 && c->op == GPUREDUCE_SUM && !c->flags)
    s = gpureduce_sum_f32(c->in, c->out, c->n, c->h);
  else
    s = gpureduce_reduce(c->in, c->out, c->n, c->type, c->op, c->flags, c->h);
  if (s != GPUREDUCE_SUCCESS) library_failed(c->h, s, "gpureduce_reduce");
}

struct ladder_call {
  gpureduce_ladder_rung_t rung;
  const float *in;
  float *out;
  size_t n;
  void *ws;
  size_t ws_bytes;
  unsigned launches;
  gpureduce_handle_t h;
};

static void run_ladder(void *arg) {
  struct ladder_call *c = arg;
  const gpureduce_status_t s = gpureduce_ladder_sum_f32(c->rung, c->in, c->out, c->n, c->ws,
                                                        c->ws_bytes, &c->launches, c->h);
  if (s != GPUREDUCE_SUCCESS) library_failed(c->h, s, "gpureduce_ladder_sum_f32");
}

struct cub_call {
  struct bench_cub *cub;
  const void *in;
  size_t n;
};

static void run_cub(void *arg) {
  const struct cub_call *c = arg;
  bench_cub_run(c->cub, c->in, c->n);
}

struct probe_call {
  struct bench_probe *probe;
  const void *in;
  size_t bytes;
  unsigned grid;
};

static void run_probe(void *arg) {
  const struct probe_call *c = arg;
  bench_probe_run(c->probe, c->in, c->bytes, c->grid);
}

struct atomic_call {
  const float *in;
  size_t n;
  float *out;
  unsigned grid;
};

static void run_atomic(void *arg) {
  const struct atomic_call *c = arg;
  bench_atomic_sum_f32(c->in, c->n, c->out, c->grid);
}

/* The reference row of the host backend: a plain serial loop, in double. */
struct serial_call {
  const float *x;
  size_t n;
  double sum;
};

static void run_serial(void *arg) {
  struct serial_call *c = arg;
  double s = 0.0;
  for (size_t i = 0; i < c->n; ++i) s += c->x[i];
  c->sum = s;
}

/* The probe's fastest grid among SMs x {1, 2, 4, 8, 16} blocks. */
struct probe_best {
  double ms;
  unsigned grid;
};

static struct probe_best time_probe(const struct clock_src *ck, const struct timing *tm,
                                    struct bench_probe *probe, const void *in, size_t bytes,
                                    int sm_count) {
  static const unsigned per_sm[] = {1, 2, 4, 8, 16};
  struct probe_best best = {0.0, 0};
  for (size_t k = 0; k < sizeof per_sm / sizeof per_sm[0]; ++k) {
    struct probe_call call = {probe, in, bytes, (unsigned)sm_count * per_sm[k]};
    const double ms = median_ms(ck, tm, run_probe, &call);
    if (!best.grid || ms < best.ms) best.ms = ms, best.grid = call.grid;
  }
  return best;
}

/* Run the library once into a poisoned output and copy the result. */
static void library_result(const struct reduce_call *c, int cuda, void *bits) {
  const size_t bytes = gpureduce_result_size(c->type, c->op, c->flags);
  if (cuda)
    bench_cuda_poison(c->out, 16);
  else
    memset(c->out, 0xff, 16);
  run_reduce((void *)c);
  if (cuda)
    bench_cuda_copy_to_host(bits, c->out, bytes);
  else
    memcpy(bits, c->out, bytes);
}

/* ---- tables ------------------------------------------------------------------ */

enum cell_kind { CELL_NONE, CELL_NUM, CELL_TEXT };

struct cell {
  enum cell_kind kind;
  double num;
  char text[80];
};

enum { SHOW_TEXT = 1, SHOW_DATA = 2, SHOW_ALL = 3 }; /* table; CSV and JSON */

struct column {
  const char *key;   /* CSV header and JSON key */
  const char *title; /* table header */
  int prec;          /* digits after the point in the table */
  int show;
  int left; /* left-aligned in the table */
};

#define MAX_COLUMNS 18

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

static void table_init(struct table *t, const struct column *col, int ncol) {
  memset(t, 0, sizeof *t);
  t->col = col;
  t->ncol = ncol;
  for (int c = 0; c < ncol; ++c) {
    t->enabled[c] = 1;
    t->title[c] = col[c].title;
    t->key[c] = col[c].key;
  }
}

static struct row *table_add(struct table *t) {
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

static void set_num(struct row *r, int c, double v) {
  r->cell[c].kind = CELL_NUM;
  r->cell[c].num = v;
}

static void set_text(struct row *r, int c, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void set_text(struct row *r, int c, const char *fmt, ...) {
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

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; ++s) {
    const unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

static void print_rows_json(FILE *f, const struct table *t) {
  char buf[96];
  fputs("  \"rows\": [", f);
  for (int r = 0; r < t->nrow; ++r) {
    const char *sep = "";
    fprintf(f, "%s\n    {", r ? "," : "");
    for (int c = 0; c < t->ncol; ++c) {
      const struct cell *x = &t->row[r].cell[c];
      if (!column_shown(t, c, SHOW_DATA)) continue;
      fprintf(f, "%s\"%s\": ", sep, t->key[c]);
      if (x->kind == CELL_TEXT)
        json_string(f, x->text);
      else if (x->kind == CELL_NONE || !isfinite(x->num))
        fputs("null", f);
      else
        format_cell(&t->col[c], x, 1, buf, sizeof buf), fputs(buf, f);
      sep = ", ";
    }
    fputc('}', f);
  }
  fputs("\n  ]", f);
}

static void table_free(struct table *t) {
  free(t->row);
  t->row = NULL;
}

/* ---- the run: what is measured, where, and the lines around the table ------- */

#define MAX_NOTES 12

struct run {
  const struct options *opt;
  int cuda;
  struct bench_device_info dev; /* cuda only */
  gpureduce_handle_t h;
  struct clock_src ck;
  const char *mode; /* "ladder", "single" or "sweep" */
  double limit_gbs; /* 0: not measured */
  unsigned limit_grid;
  char head[6][200]; /* lines under the device line */
  int nhead;
  char notes[MAX_NOTES][200];
  int nnotes;
  char summary[2][200]; /* largest step, check verdict */
  int nsummary;
  int wrong;
};

static void add_note(struct run *run, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void add_note(struct run *run, const char *fmt, ...) {
  if (run->nnotes == MAX_NOTES) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(run->notes[run->nnotes++], sizeof run->notes[0], fmt, ap);
  va_end(ap);
}

static void add_head(struct run *run, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void add_head(struct run *run, const char *fmt, ...) {
  if (run->nhead == (int)(sizeof run->head / sizeof run->head[0])) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(run->head[run->nhead++], sizeof run->head[0], fmt, ap);
  va_end(ap);
}

static void add_summary(struct run *run, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void add_summary(struct run *run, const char *fmt, ...) {
  if (run->nsummary == 2) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(run->summary[run->nsummary++], sizeof run->summary[0], fmt, ap);
  va_end(ap);
}

/* A wrong result: counted, and its detail on stderr. */
static void report_wrong(struct run *run, const char *who, size_t n, const struct verdict *v) {
  ++run->wrong;
  fprintf(stderr, PROGRAM ": WRONG: %s, n = %zu: %s\n", who, n, v->detail);
}

static const char *label_n(size_t n, char *buf, size_t size) {
  if (n == LADDER_N)
    snprintf(buf, size, "2^24-611");
  else if (n && !(n & (n - 1)))
    snprintf(buf, size, "2^%u", ceil_log2(n));
  else
    snprintf(buf, size, "%zu", n);
  return buf;
}

/* "n = 16776605 (2^24-611)", or "n = 1000" when n has no shorter name. */
static const char *describe_n(size_t n, char *buf, size_t size) {
  char nl[32];
  label_n(n, nl, sizeof nl);
  if (strchr(nl, '^'))
    snprintf(buf, size, "n = %zu (%s)", n, nl);
  else
    snprintf(buf, size, "n = %zu", n);
  return buf;
}

/* Bytes in B, kB, MB or GB (powers of 1000), one decimal. */
static const char *describe_bytes(double bytes, char *buf, size_t size) {
  static const char *const units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000 && u < 4) bytes /= 1000, ++u;
  snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
  return buf;
}

static void version_text(int v, char *buf, size_t size) {
  snprintf(buf, size, "%d.%d", v / 1000, v % 1000 / 10);
}

static const char *what_text(const struct options *o, char *buf, size_t size) {
  snprintf(buf, size, "%s %s%s", gpureduce_type_name(o->type), gpureduce_op_name(o->op),
           o->flags ? " (f64 accumulation)" : "");
  return buf;
}

static void print_header_text(FILE *f, const struct run *run) {
  char rt[16], drv[16], what[64], l2[32];
  const struct options *o = run->opt;
  if (run->cuda) {
    version_text(run->dev.runtime_version, rt, sizeof rt);
    version_text(run->dev.driver_version, drv, sizeof drv);
    fprintf(f,
            PROGRAM
            " %s: %s (device %d), %d SMs, compute capability %d.%d, CUDA runtime %s, "
            "driver %s, L2 %s\n",
            gpureduce_version_string(), run->dev.name, run->dev.ordinal, run->dev.sm_count,
            run->dev.cc_major, run->dev.cc_minor, rt, drv,
            describe_bytes((double)run->dev.l2_bytes, l2, sizeof l2));
  } else {
    fprintf(f, PROGRAM " %s: host backend, %ld CPUs online\n", gpureduce_version_string(),
            sysconf(_SC_NPROCESSORS_ONLN));
  }
  fprintf(f, "operation: %s, offset %zu element(s)\n", what_text(o, what, sizeof what), o->offset);
  for (int i = 0; i < run->nhead; ++i) fprintf(f, "%s\n", run->head[i]);
  if (run->limit_gbs > 0)
    fprintf(f,
            "bandwidth limit: %.0f GB/s (read-only probe over 1 GiB, best grid %u blocks of %d)\n",
            run->limit_gbs, run->limit_grid, BENCH_BLOCK);
}

static void print_footer_text(FILE *f, const struct run *run) {
  for (int i = 0; i < run->nsummary; ++i) fprintf(f, "%s\n", run->summary[i]);
  for (int i = 0; i < run->nnotes; ++i) fprintf(f, "note: %s\n", run->notes[i]);
}

static void print_device_json(FILE *f, const struct run *run) {
  char rt[16], drv[16];
  if (!run->cuda) {
    fprintf(f, "  \"device\": {\"backend\": \"host\", \"cpus\": %ld},\n",
            sysconf(_SC_NPROCESSORS_ONLN));
    return;
  }
  version_text(run->dev.runtime_version, rt, sizeof rt);
  version_text(run->dev.driver_version, drv, sizeof drv);
  fputs("  \"device\": {\"backend\": \"cuda\", \"name\": ", f);
  json_string(f, run->dev.name);
  fprintf(f,
          ", \"ordinal\": %d, \"sm_count\": %d, \"compute_capability\": \"%d.%d\", "
          "\"cuda_runtime\": \"%s\", \"cuda_driver\": \"%s\", \"l2_bytes\": %zu, "
          "\"memory_bytes\": %zu},\n",
          run->dev.ordinal, run->dev.sm_count, run->dev.cc_major, run->dev.cc_minor, rt, drv,
          run->dev.l2_bytes, run->dev.total_bytes);
}

static void print_json(FILE *f, const struct run *run, const struct table *t) {
  const struct options *o = run->opt;
  char cub[32];
  fputs("{\n  \"program\": \"" PROGRAM "\", \"version\": ", f);
  json_string(f, gpureduce_version_string());
  fprintf(f, ", \"order_version\": %d,\n", GPUREDUCE_ORDER_VERSION);
  print_device_json(f, run);
  fprintf(f,
          "  \"mode\": \"%s\", \"op\": \"%s\", \"type\": \"%s\", \"f64_accumulate\": %s, "
          "\"offset\": %zu, \"checked\": %s, \"cub\": ",
          run->mode, gpureduce_op_name(o->op), gpureduce_type_name(o->type),
          o->flags ? "true" : "false", o->offset, o->check ? "true" : "false");
  json_string(f, cub_text(cub, sizeof cub));
  fprintf(f, ",\n  \"backend\": \"%s\", \"repeat\": %d, \"n\": ", run->cuda ? "cuda" : "host",
          o->repeat);
  if (o->sweep || o->tune)
    fputs("null", f); /* one n per row */
  else
    fprintf(f, "%zu", o->n);
  if (run->limit_gbs > 0)
    fprintf(f, ",\n  \"limit_gbs\": %.1f, \"limit_grid\": %u", run->limit_gbs, run->limit_grid);
  fprintf(f, ",\n  \"wrong\": %d,\n  \"header\": [", run->wrong);
  for (int i = 0; i < run->nhead; ++i) fputs(i ? ", " : "", f), json_string(f, run->head[i]);
  fputs("],\n  \"summary\": [", f);
  for (int i = 0; i < run->nsummary; ++i) fputs(i ? ", " : "", f), json_string(f, run->summary[i]);
  fputs("],\n  \"notes\": [", f);
  for (int i = 0; i < run->nnotes; ++i) fputs(i ? ", " : "", f), json_string(f, run->notes[i]);
  fputs("],\n", f);
  print_rows_json(f, t);
  fputs("\n}\n", f);
}

static void print_report(const struct run *run, const struct table *t) {
  switch (run->opt->format) {
    case FORMAT_CSV:
      print_table_csv(stdout, t);
      for (int i = 0; i < run->nsummary; ++i) fprintf(stderr, PROGRAM ": %s\n", run->summary[i]);
      break;
    case FORMAT_JSON: print_json(stdout, run, t); break;
    case FORMAT_TABLE:
      print_header_text(stdout, run);
      putchar('\n');
      print_table_text(stdout, t);
      putchar('\n');
      print_footer_text(stdout, run);
      break;
  }
  fflush(stdout);
}

/* Progress on stderr, only when it is a terminal. */
static void progress(const char *fmt, ...) PRINTF_LIKE(1, 2);
static void progress(const char *fmt, ...) {
  if (!isatty(STDERR_FILENO)) return;
  char line[80];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\r%-60s\r", line);
  fflush(stderr);
}

/* ---- buffers ------------------------------------------------------------------ */

/* An input of n elements, offset elements into its allocation. */
struct input {
  void *base;
  void *x; /* base + offset elements */
  size_t n;
  int cuda;
};

static struct input input_alloc(int cuda, gpureduce_type_t t, size_t n, size_t offset,
                                const char *what) {
  const size_t es = gpureduce_type_size(t);
  struct input in = {NULL, NULL, n, cuda};
  in.base = cuda ? bench_cuda_alloc((n + offset) * es, what) : xmalloc_aligned((n + offset) * es);
  in.x = (char *)in.base + offset * es;
  return in;
}

static void input_free(struct input *in) {
  if (in->cuda)
    bench_cuda_free(in->base);
  else
    free(in->base);
  in->base = in->x = NULL;
}

static void fill_ones(struct input *in, gpureduce_type_t t) {
  if (in->cuda)
    bench_fill_ones(in->x, in->n, t);
  else
    bench_fill_ones_host(in->x, in->n, t);
}

static void fill_random(struct input *in, gpureduce_type_t t) {
  if (in->cuda)
    bench_fill_random(in->x, in->n, t, RANDOM_SEED);
  else
    bench_fill_random_host(in->x, in->n, t, RANDOM_SEED);
}

/* 16 bytes of output (any result fits) in the backend's memory space. */
static void *output_alloc(int cuda) {
  return cuda ? bench_cuda_alloc(16, "output") : xmalloc_aligned(16);
}

static void output_free(int cuda, void *p) {
  if (cuda)
    bench_cuda_free(p);
  else
    free(p);
}

/* ---- the ladder (default run) --------------------------------------------------- */

/* One row of the ladder as measured, before it becomes a table row. */
struct ladder_row {
  const char *id;
  char kernel[80];
  char launches[8];
  uint64_t bytes;
  double ms;
  int rung; /* part of the step chain: v1..v6, gpureduce */
  int checked;
  int exact; /* checked bit for bit */
  int wrong;
};

enum {
  LC_ROW,
  LC_KERNEL,
  LC_LAUNCHES,
  LC_MB,
  LC_BYTES,
  LC_MS,
  LC_GBS,
  LC_LIMIT,
  LC_VS_FIRST,
  LC_STEP,
  LC_CHECK,
  LC_COUNT
};

static const struct column ladder_columns[LC_COUNT] = {
    [LC_ROW] = {"row", "row", 0, SHOW_ALL, 1},
    [LC_KERNEL] = {"kernel", "kernel", 0, SHOW_ALL, 1},
    [LC_LAUNCHES] = {"launches", "launches", 0, SHOW_ALL, 0},
    [LC_MB] = {"read_mb", "read MB", 1, SHOW_TEXT, 0},
    [LC_BYTES] = {"bytes_read", "bytes", 0, SHOW_DATA, 0},
    [LC_MS] = {"ms", "ms", 4, SHOW_ALL, 0},
    [LC_GBS] = {"gbs", "GB/s", 1, SHOW_ALL, 0},
    [LC_LIMIT] = {"pct_limit", "% limit", 1, SHOW_ALL, 0},
    [LC_VS_FIRST] = {"speedup_vs_v1", "x v1", 2, SHOW_ALL, 0},
    [LC_STEP] = {"step", "step", 2, SHOW_ALL, 0},
    [LC_CHECK] = {"check", "check", 0, SHOW_ALL, 1},
};

/*
 * Bytes v1..v4 read: every pass reads its m elements (n, then one partial
 * per block of the previous pass) until a pass has one block; passes is
 * the launch count this model expects.
 */
static uint64_t multipass_bytes(size_t n, unsigned per_block, unsigned *passes) {
  uint64_t m = n, bytes = 0;
  *passes = 0;
  for (;;) {
    const uint64_t blocks = m ? (m + per_block - 1) / per_block : 1;
    bytes += 4 * m;
    ++*passes;
    if (blocks == 1) return bytes;
    m = blocks;
  }
}

/* v5 and v6: n floats plus one partial per block of the first phase, whose
 * grid is min(ceil(n/256), 8 blocks per SM, 2048) (src/ladder.cu). */
static uint64_t two_phase_bytes(size_t n, int sm_count) {
  uint64_t grid = (n + 255) / 256;
  if (grid > (uint64_t)sm_count * 8) grid = (uint64_t)sm_count * 8;
  if (grid > 2048) grid = 2048;
  return 4 * (uint64_t)n + 4 * (grid ? grid : 1);
}

static uint64_t rung_bytes(gpureduce_ladder_rung_t rung, size_t n, int sm_count, unsigned *passes) {
  if (rung == GPUREDUCE_LADDER_TWO_PHASE || rung == GPUREDUCE_LADDER_WARP_SHUFFLE) {
    *passes = rung == GPUREDUCE_LADDER_TWO_PHASE ? 2 : 1;
    return two_phase_bytes(n, sm_count);
  }
  return multipass_bytes(n, rung == GPUREDUCE_LADDER_FIRST_ADD ? 512 : 256, passes);
}

struct ladder_ctx {
  struct run *run;
  struct input in;
  void *out;
  const struct timing *tm;
};

static void check_row(struct ladder_ctx *lc, struct ladder_row *row, const void *bits) {
  const struct options *o = lc->run->opt;
  const struct verdict v = check_ones(o->type, o->op, o->flags, o->n, bits);
  row->checked = 1;
  row->exact = v.exact;
  row->wrong = v.wrong;
  if (v.wrong) report_wrong(lc->run, row->id, o->n, &v);
}

static void ladder_rung(struct ladder_ctx *lc, gpureduce_ladder_rung_t rung, void *ws,
                        size_t ws_bytes, struct ladder_row *row) {
  static const char *const ids[] = {"", "v1", "v2", "v3", "v4", "v5", "v6"};
  struct run *run = lc->run;
  struct ladder_call call = {rung, lc->in.x, lc->out, lc->in.n, ws, ws_bytes, 0, run->h};
  unsigned passes;
  row->id = ids[rung];
  row->rung = 1;
  snprintf(row->kernel, sizeof row->kernel, "%s", gpureduce_ladder_name(rung));
  row->bytes = rung_bytes(rung, lc->in.n, run->dev.sm_count, &passes);
  row->ms = median_ms(&run->ck, lc->tm, run_ladder, &call);
  snprintf(row->launches, sizeof row->launches, "%u", call.launches);
  if (call.launches != passes)
    add_note(run, "%s launched %u kernels; its byte count assumed %u passes", row->id,
             call.launches, passes);
  if (!run->opt->check) return;
  float sum;
  bench_cuda_poison(lc->out, 16);
  run_ladder(&call);
  bench_cuda_copy_to_host(&sum, lc->out, sizeof sum);
  check_row(lc, row, &sum);
}

/* Workspace for every rung: the largest size, allocated once. */
static size_t ladder_workspace(const struct options *o, gpureduce_handle_t h) {
  size_t most = 0;
  for (int r = GPUREDUCE_LADDER_FIRST; r <= GPUREDUCE_LADDER_LAST; ++r) {
    size_t bytes = 0;
    const gpureduce_status_t s =
        gpureduce_ladder_workspace_size((gpureduce_ladder_rung_t)r, o->n, &bytes);
    if (s != GPUREDUCE_SUCCESS) library_failed(h, s, "gpureduce_ladder_workspace_size");
    if (bytes > most) most = bytes;
  }
  return most;
}

static void ladder_rungs(struct ladder_ctx *lc, struct ladder_row *rows, int *nrows) {
  const struct options *o = lc->run->opt;
  const size_t ws_bytes = ladder_workspace(o, lc->run->h);
  void *ws = ws_bytes ? bench_cuda_alloc(ws_bytes, "ladder workspace") : NULL;
  for (int r = GPUREDUCE_LADDER_FIRST; r <= GPUREDUCE_LADDER_LAST; ++r) {
    if (!(o->only & (1u << (r - 1)))) continue;
    progress(" ladder v%d ...", r);
    ladder_rung(lc, (gpureduce_ladder_rung_t)r, ws, ws_bytes, &rows[(*nrows)++]);
  }
  bench_cuda_free(ws);
}

static void ladder_library(struct ladder_ctx *lc, struct ladder_row *row) {
  const struct options *o = lc->run->opt;
  struct reduce_call call = {lc->in.x, lc->out, lc->in.n, o->type, o->op, o->flags, lc->run->h};
  char what[64];
  row->id = "gpureduce";
  row->rung = 1;
  if (is_plain_f32_sum(o))
    snprintf(row->kernel, sizeof row->kernel, "gpureduce_sum_f32");
  else
    snprintf(row->kernel, sizeof row->kernel, "gpureduce_reduce %s",
             what_text(o, what, sizeof what));
  snprintf(row->launches, sizeof row->launches, "%s", lc->run->cuda ? "1" : "-");
  row->bytes = (uint64_t)lc->in.n * gpureduce_type_size(o->type);
  progress(" ladder gpureduce ...");
  row->ms = median_ms(&lc->run->ck, lc->tm, run_reduce, &call);
  if (!o->check) return;
  unsigned char bits[8];
  library_result(&call, lc->run->cuda, bits);
  check_row(lc, row, bits);
}

static void ladder_cub(struct ladder_ctx *lc, struct ladder_row *row) {
  const struct options *o = lc->run->opt;
  struct cub_call call = {bench_cub_create(o->type, o->op, o->flags, &o->n, 1), lc->in.x, lc->in.n};
  row->id = "cub";
  snprintf(row->kernel, sizeof row->kernel, "%s", bench_cub_name(call.cub));
  snprintf(row->launches, sizeof row->launches, "%s", o->n >= 65536 ? "2" : "1-2");
  row->bytes = (uint64_t)o->n * gpureduce_type_size(o->type);
  progress(" ladder cub ...");
  row->ms = median_ms(&lc->run->ck, lc->tm, run_cub, &call);
  if (o->check) {
    unsigned char bits[8];
    bench_cub_run_once(call.cub, lc->in.x, o->n, bits,
                       gpureduce_type_size(result_type(o->type, o->op, o->flags)));
    check_row(lc, row, bits);
  }
  bench_cub_destroy(call.cub);
}

static void ladder_probe(struct ladder_ctx *lc, struct bench_probe *probe, struct ladder_row *row) {
  const struct options *o = lc->run->opt;
  const uint64_t bytes = (uint64_t)o->n * gpureduce_type_size(o->type);
  progress(" ladder probe ...");
  const struct probe_best best =
      time_probe(&lc->run->ck, lc->tm, probe, lc->in.x, bytes, lc->run->dev.sm_count);
  row->id = "probe";
  snprintf(row->kernel, sizeof row->kernel, "read-only probe, %u blocks", best.grid);
  snprintf(row->launches, sizeof row->launches, "1");
  row->bytes = bytes;
  row->ms = best.ms;
}

/* The probe's GB/s over a 1 GiB buffer of random words: the limit. */
static void measure_limit(struct run *run, const struct timing *tm, struct bench_probe *probe) {
  struct input big = input_alloc(1, GPUREDUCE_U32, LIMIT_BYTES / 4, 0, "1 GiB probe buffer");
  fill_random(&big, GPUREDUCE_U32);
  progress(" bandwidth limit ...");
  const struct probe_best best =
      time_probe(&run->ck, tm, probe, big.x, LIMIT_BYTES, run->dev.sm_count);
  run->limit_gbs = gbps(LIMIT_BYTES, best.ms);
  run->limit_grid = best.grid;
  input_free(&big);
}

/* Speedups, the largest step and the check verdict; then the table. */
static void ladder_table(struct run *run, const struct ladder_row *rows, int nrows,
                         struct table *t) {
  const struct ladder_row *first = NULL, *prev = NULL, *step_from = NULL, *step_to = NULL;
  double step_best = 0.0;
  table_init(t, ladder_columns, LC_COUNT);
  t->enabled[LC_LIMIT] = run->limit_gbs > 0;
  t->enabled[LC_LAUNCHES] = run->cuda;
  if (!run->cuda) t->title[LC_VS_FIRST] = "x serial", t->key[LC_VS_FIRST] = "speedup_vs_serial";
  for (int i = 0; i < nrows; ++i) {
    const struct ladder_row *lr = &rows[i];
    struct row *r = table_add(t);
    if (!first && (strcmp(lr->id, "v1") == 0 || strcmp(lr->id, "serial") == 0)) first = lr;
    set_text(r, LC_ROW, "%s", lr->id);
    set_text(r, LC_KERNEL, "%s", lr->kernel);
    set_text(r, LC_LAUNCHES, "%s", lr->launches);
    set_num(r, LC_MB, (double)lr->bytes / 1e6);
    set_num(r, LC_BYTES, (double)lr->bytes);
    set_num(r, LC_MS, lr->ms);
    set_num(r, LC_GBS, gbps(lr->bytes, lr->ms));
    if (run->limit_gbs > 0) set_num(r, LC_LIMIT, 100.0 * gbps(lr->bytes, lr->ms) / run->limit_gbs);
    if (first) set_num(r, LC_VS_FIRST, first->ms / lr->ms);
    if (lr->rung && prev) {
      set_num(r, LC_STEP, prev->ms / lr->ms);
      if (prev->ms / lr->ms > step_best)
        step_best = prev->ms / lr->ms, step_from = prev, step_to = lr;
    }
    if (lr->rung) prev = lr;
    set_text(r, LC_CHECK, "%s", !lr->checked ? "-" : lr->wrong ? "WRONG" : "ok");
  }
  if (step_to)
    add_summary(run, "largest step: %s -> %s, %.2fx", step_from->id, step_to->id, step_best);
}

static void ladder_verdict(struct run *run, const struct ladder_row *rows, int nrows) {
  const struct options *o = run->opt;
  int checked = 0, inexact = 0;
  char wrong[128] = "";
  for (int i = 0; i < nrows; ++i) {
    checked += rows[i].checked;
    inexact |= rows[i].checked && !rows[i].exact;
    if (rows[i].wrong && strlen(wrong) + strlen(rows[i].id) + 2 < sizeof wrong)
      strcat(strcat(wrong, " "), rows[i].id);
  }
  if (!o->check)
    add_summary(run, "check: not done (--no-check)");
  else if (run->wrong)
    add_summary(run, "check: WRONG:%s (%d of %d results right; details on stderr)", wrong,
                checked - run->wrong, checked);
  else if (op_is_arg(o->op))
    add_summary(run, "check: all %d results right (index 0 of %zu ones, exact)", checked, o->n);
  else if (o->op == GPUREDUCE_PROD || op_is_extremum(o->op))
    add_summary(run, "check: all %d results right (1 from %zu ones, exact)", checked, o->n);
  else
    add_summary(run, "check: all %d results right (%zu ones sum to n = %zu, %s)", checked, o->n,
                o->n, inexact ? "within float rounding past 2^24" : "exact");
}

static void ladder_notes(struct run *run, const struct input *in) {
  const struct options *o = run->opt;
  const double bytes = (double)in->n * gpureduce_type_size(o->type);
  char nd[64], bd[32], ld[32];
  describe_n(in->n, nd, sizeof nd);
  describe_bytes(bytes, bd, sizeof bd);
  if (run->cuda) {
    const double l2 = (double)run->dev.l2_bytes;
    add_head(run, "input: %s ones, %s: %sL2-resident (L2 %s)%s", nd, bd, bytes <= l2 ? "" : "not ",
             describe_bytes(l2, ld, sizeof ld),
             bytes > l2 && bytes < 4 * l2 ? "; under 4x L2, part may stay in L2 between runs" : "");
    add_note(run, "time: median of %d runs of one whole reduction after %d warm-ups, CUDA events",
             o->repeat, WARMUP_CALLS);
    add_note(run,
             "bytes: v1-v4 every pass (n, then the partials), v5/v6 n plus the partials, "
             "gpureduce n x element size (its roots not counted), cub and probe n x element size");
    add_note(run, "probe: fastest grid of SMs x {1,2,4,8,16} blocks of %d", BENCH_BLOCK);
  } else {
    add_head(run, "input: %s ones, %s", nd, bd);
    add_note(run, "time: median of %d runs after %d warm-ups, clock_gettime(CLOCK_MONOTONIC)",
             o->repeat, WARMUP_CALLS);
  }
  if (!is_plain_f32_sum(o) && run->cuda)
    add_note(run, "the ladder rungs v1..v6 are f32 sum only: rows gpureduce, cub, probe");
}

/* --blocks: the block count for n's size bucket (nothing else changes). */
static void apply_blocks(struct run *run, size_t n) {
  const struct options *o = run->opt;
  if (!run->cuda || !o->blocks) return;
  const gpureduce_status_t s = gpureduce_set_blocks(run->h, o->type, o->op, o->flags, n, o->blocks);
  if (s != GPUREDUCE_SUCCESS) library_failed(run->h, s, "gpureduce_set_blocks");
}

/* A header line: the blocks gpureduce launches at n and where they come from. */
static void describe_blocks(struct run *run, size_t n) {
  const struct options *o = run->opt;
  unsigned blocks = 0;
  int tuned = 0;
  if (!run->cuda || gpureduce_get_blocks(run->h, o->type, o->op, o->flags, n, &blocks, &tuned) !=
                        GPUREDUCE_SUCCESS)
    return;
  add_head(run, "gpureduce: %u blocks of %d threads at this n (%s)", blocks,
           GPUREDUCE_ORDER_LANES,
           o->blocks ? "--blocks" : tuned ? "tuned, from the tuning cache" : "the model's default");
}

static int run_ladder_cuda(struct run *run) {
  const struct options *o = run->opt;
  apply_blocks(run, o->n);
  describe_blocks(run, o->n);
  const struct timing tm = {WARMUP_CALLS, o->repeat, 1};
  struct ladder_row rows[ROW_COUNT];
  int nrows = 0;
  struct bench_probe *probe = bench_probe_create();
  struct table t;
  memset(rows, 0, sizeof rows);
  run->mode = is_plain_f32_sum(o) ? "ladder" : "single";
  measure_limit(run, &tm, probe);
  struct ladder_ctx lc = {run, input_alloc(1, o->type, o->n, o->offset, "input"), output_alloc(1),
                          &tm};
  fill_ones(&lc.in, o->type);
  if (is_plain_f32_sum(o)) ladder_rungs(&lc, rows, &nrows);
  if (o->only & (1u << ROW_LIB)) ladder_library(&lc, &rows[nrows++]);
  if ((o->only & (1u << ROW_CUB)) && bench_cub_built()) ladder_cub(&lc, &rows[nrows++]);
  if (o->only & (1u << ROW_PROBE)) ladder_probe(&lc, probe, &rows[nrows++]);
  progress(" ");
  if ((o->only & (1u << ROW_CUB)) && !bench_cub_built())
    add_note(run, "cub: not built (configure found no CUB)");
  ladder_table(run, rows, nrows, &t);
  ladder_verdict(run, rows, nrows);
  ladder_notes(run, &lc.in);
  print_report(run, &t);
  table_free(&t);
  output_free(1, lc.out);
  input_free(&lc.in);
  bench_probe_destroy(probe);
  return run->wrong ? EXIT_WRONG : EXIT_OK;
}

static void ladder_serial(struct ladder_ctx *lc, struct ladder_row *row) {
  struct serial_call call = {lc->in.x, lc->in.n, 0.0};
  row->id = "serial";
  snprintf(row->kernel, sizeof row->kernel, "for (i...) s += x[i], in double");
  snprintf(row->launches, sizeof row->launches, "-");
  row->bytes = (uint64_t)lc->in.n * sizeof(float);
  row->ms = median_ms(&lc->run->ck, lc->tm, run_serial, &call);
  if (!lc->run->opt->check) return;
  const double want = (double)lc->in.n;
  row->checked = row->exact = 1;
  if (call.sum != want) {
    struct verdict v = {1, 1, ""};
    snprintf(v.detail, sizeof v.detail, "result %.17g, expected %.17g", call.sum, want);
    row->wrong = 1;
    report_wrong(lc->run, row->id, lc->in.n, &v);
  }
}

static int run_ladder_host(struct run *run) {
  const struct options *o = run->opt;
  const struct timing tm = {WARMUP_CALLS, o->repeat, 1};
  struct ladder_row rows[2];
  int nrows = 0;
  struct table t;
  memset(rows, 0, sizeof rows);
  run->mode = is_plain_f32_sum(o) ? "ladder" : "single";
  struct ladder_ctx lc = {run, input_alloc(0, o->type, o->n, o->offset, "input"), output_alloc(0),
                          &tm};
  fill_ones(&lc.in, o->type);
  if (is_plain_f32_sum(o)) ladder_serial(&lc, &rows[nrows++]);
  if (o->only & (1u << ROW_LIB)) ladder_library(&lc, &rows[nrows++]);
  progress(" ");
  add_note(run, "rows v1..v6, cub and probe need CUDA; the host backend runs gpureduce%s",
           is_plain_f32_sum(o) ? " and a serial loop for comparison" : "");
  ladder_table(run, rows, nrows, &t);
  ladder_verdict(run, rows, nrows);
  ladder_notes(run, &lc.in);
  print_report(run, &t);
  table_free(&t);
  output_free(0, lc.out);
  input_free(&lc.in);
  return run->wrong ? EXIT_WRONG : EXIT_OK;
}

/* ---- the sweep ----------------------------------------------------------------- */

enum {
  SC_N_LABEL,
  SC_N,
  SC_MB,
  SC_BYTES,
  SC_L2_TEXT,
  SC_L2,
  SC_GR_US,
  SC_GR_GBS,
  SC_CUB_US,
  SC_CUB_GBS,
  SC_PROBE_US,
  SC_PROBE_GBS,
  SC_PROBE_GRID,
  SC_ATOMIC_US,
  SC_GR_VS_CUB,
  SC_GR_VS_PROBE,
  SC_CHECK,
  SC_RESULT,
  SC_COUNT
};

static const struct column sweep_columns[SC_COUNT] = {
    [SC_N_LABEL] = {"n_label", "n", 0, SHOW_TEXT, 1},
    [SC_N] = {"n", "n", 0, SHOW_DATA, 0},
    [SC_MB] = {"mb", "MB", 1, SHOW_TEXT, 0},
    [SC_BYTES] = {"bytes", "bytes", 0, SHOW_DATA, 0},
    [SC_L2_TEXT] = {"in_l2", "in L2", 0, SHOW_TEXT, 1},
    [SC_L2] = {"l2_resident", "in L2", 0, SHOW_DATA, 0},
    [SC_GR_US] = {"gpureduce_us", "gr us", 2, SHOW_ALL, 0},
    [SC_GR_GBS] = {"gpureduce_gbs", "gr GB/s", 1, SHOW_ALL, 0},
    [SC_CUB_US] = {"cub_us", "cub us", 2, SHOW_ALL, 0},
    [SC_CUB_GBS] = {"cub_gbs", "cub GB/s", 1, SHOW_ALL, 0},
    [SC_PROBE_US] = {"probe_us", "probe us", 2, SHOW_ALL, 0},
    [SC_PROBE_GBS] = {"probe_gbs", "probe GB/s", 1, SHOW_ALL, 0},
    [SC_PROBE_GRID] = {"probe_blocks", "probe grid", 0, SHOW_ALL, 0},
    [SC_ATOMIC_US] = {"atomic_nondeterministic_us", "atomic* us", 2, SHOW_ALL, 0},
    [SC_GR_VS_CUB] = {"gpureduce_vs_cub", "gr/cub", 2, SHOW_ALL, 0},
    [SC_GR_VS_PROBE] = {"gpureduce_vs_probe", "gr/probe", 2, SHOW_ALL, 0},
    [SC_CHECK] = {"check", "check", 0, SHOW_ALL, 1},
    [SC_RESULT] = {"result_bits", "result", 0, SHOW_DATA, 0},
};

/* n = 2^10 .. 2^max_log2 and 2^24-611, ascending; returns the count. */
static int sweep_sizes(unsigned max_log2, size_t *sizes) {
  int count = 0;
  for (unsigned k = SWEEP_MIN_LOG2; k <= max_log2; ++k) {
    if (k == 25) sizes[count++] = LADDER_N; /* between 2^24 and 2^25 */
    sizes[count++] = (size_t)1 << k;
  }
  return count;
}

/* Everything one sweep keeps for all sizes. */
struct sweep_ctx {
  struct run *run;
  struct timing tm;
  struct input in; /* the largest n, random */
  void *out;
  struct bench_cub *cub; /* NULL: not built, or host */
  struct bench_probe *probe;
  int atomic;              /* the f32 sum's atomic variant runs */
  void *host_copy;         /* CUDA: the input copied back for the checks */
  gpureduce_handle_t host; /* CUDA: the host backend for the checks */
};

/* What one size measured. */
struct sweep_point {
  size_t n;
  double gr_ms, cub_ms, probe_ms, atomic_ms; /* 0: not run */
  unsigned probe_grid;
  char check[64];
  char result[24]; /* gpureduce's result bits, hex (tools/compare-bits) */
};

static void check_part(struct sweep_ctx *sc, struct sweep_point *p, const char *who,
                       const struct verdict *v) {
  if (!v->wrong) return;
  report_wrong(sc->run, who, p->n, v);
  const size_t len = strlen(p->check);
  snprintf(p->check + len, sizeof p->check - len, "%s%s", len ? "," : "WRONG:", who);
}

/* f32 sums of CUB and of the atomic kernel: within 1e-3 max(|sum|, sqrt n)
 * of gpureduce's, a sanity bound only (their orders differ). */
static void check_loose(struct sweep_ctx *sc, struct sweep_point *p, const char *who, float got,
                        float ref) {
  const double scale = fmax(fabs((double)ref), sqrt((double)p->n));
  struct verdict v = {0, 0, ""};
  compare_bound(&v, GPUREDUCE_F32, &got, ref, 1e-3 * scale, "gpureduce's sum, loose bound");
  check_part(sc, p, who, &v);
}

/* The f32 sum of 2^24-611 ones: exact, for gpureduce and the atomic kernel. */
static void check_sweep_ones(struct sweep_ctx *sc, struct sweep_point *p) {
  const struct options *o = sc->run->opt;
  const int cuda = sc->run->cuda;
  struct input ones = input_alloc(cuda, GPUREDUCE_F32, p->n, o->offset, "all-ones input");
  struct reduce_call call = {ones.x, sc->out, p->n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, sc->run->h};
  float got;
  fill_ones(&ones, GPUREDUCE_F32);
  library_result(&call, cuda, &got);
  struct verdict v = check_ones(GPUREDUCE_F32, GPUREDUCE_SUM, 0, p->n, &got);
  check_part(sc, p, "gpureduce(ones)", &v);
  if (sc->atomic) {
    struct atomic_call ac = {ones.x, p->n, sc->out, p->probe_grid};
    run_atomic(&ac);
    bench_cuda_copy_to_host(&got, sc->out, sizeof got);
    v = check_ones(GPUREDUCE_F32, GPUREDUCE_SUM, 0, p->n, &got);
    check_part(sc, p, "atomic(ones)", &v);
  }
  input_free(&ones);
}

/* n <= 2^26: the same bits as the host backend on a copy of the data, and
 * the oracle; larger n: the same bits on a second run. */
static void check_library(struct sweep_ctx *sc, struct sweep_point *p, const void *got) {
  const struct options *o = sc->run->opt;
  const gpureduce_type_t rt = result_type(o->type, o->op, o->flags);
  struct verdict v = {0, 0, ""};
  unsigned char want[8];
  if (!sc->run->cuda || p->n <= HOST_CHECK_MAX_N) {
    const void *x = sc->in.x;
    if (sc->run->cuda) {
      struct reduce_call hc = {sc->host_copy, want, p->n, o->type, o->op, o->flags, sc->host};
      bench_cuda_copy_to_host(sc->host_copy, sc->in.x, p->n * gpureduce_type_size(o->type));
      run_reduce(&hc);
      compare_bits(&v, rt, got, want, "the host backend on the same data");
      check_part(sc, p, "gpureduce!=host", &v);
      x = sc->host_copy;
    }
    v = check_oracle(o->type, o->op, o->flags, x, p->n, got);
    check_part(sc, p, "gpureduce", &v);
    return;
  }
  struct reduce_call again = {sc->in.x, sc->out, p->n, o->type, o->op, o->flags, sc->run->h};
  library_result(&again, 1, want);
  compare_bits(&v, rt, got, want, "a second run");
  check_part(sc, p, "gpureduce(rerun)", &v);
}

static void sweep_check(struct sweep_ctx *sc, struct sweep_point *p) {
  const struct options *o = sc->run->opt;
  struct reduce_call call = {sc->in.x, sc->out, p->n, o->type, o->op, o->flags, sc->run->h};
  unsigned char got[8];
  library_result(&call, sc->run->cuda, got);
  check_library(sc, p, got);
  if (is_plain_f32_sum(o)) {
    float ref, other;
    memcpy(&ref, got, sizeof ref);
    if (sc->cub) {
      bench_cub_run_once(sc->cub, sc->in.x, p->n, &other, sizeof other);
      check_loose(sc, p, "cub", other, ref);
    }
    if (sc->atomic) {
      struct atomic_call ac = {sc->in.x, p->n, sc->out, p->probe_grid};
      run_atomic(&ac);
      bench_cuda_copy_to_host(&other, sc->out, sizeof other);
      check_loose(sc, p, "atomic", other, ref);
    }
    if (p->n == LADDER_N) check_sweep_ones(sc, p);
  }
  if (!p->check[0]) snprintf(p->check, sizeof p->check, "ok");
}

static void sweep_point(struct sweep_ctx *sc, size_t n, struct sweep_point *p) {
  const struct options *o = sc->run->opt;
  const struct clock_src *ck = &sc->run->ck;
  const size_t bytes = n * gpureduce_type_size(o->type);
  struct reduce_call call = {sc->in.x, sc->out, n, o->type, o->op, o->flags, sc->run->h};
  char nl[32];
  memset(p, 0, sizeof *p);
  p->n = n;
  progress(" n=%s ...", label_n(n, nl, sizeof nl));
  apply_blocks(sc->run, n);
  p->gr_ms = median_ms(ck, &sc->tm, run_reduce, &call);
  if (sc->cub) {
    struct cub_call cc = {sc->cub, sc->in.x, n};
    p->cub_ms = median_ms(ck, &sc->tm, run_cub, &cc);
  }
  if (sc->probe) {
    const struct probe_best best =
        time_probe(ck, &sc->tm, sc->probe, sc->in.x, bytes, sc->run->dev.sm_count);
    p->probe_ms = best.ms;
    p->probe_grid = best.grid;
  }
  if (sc->atomic) {
    struct atomic_call ac = {sc->in.x, n, sc->out, p->probe_grid};
    p->atomic_ms = median_ms(ck, &sc->tm, run_atomic, &ac);
  }
  if (o->check)
    sweep_check(sc, p);
  else
    snprintf(p->check, sizeof p->check, "-");
  /* The result's bits, so that two builds' sweeps can be compared bit for
   * bit (tools/compare-bits). */
  unsigned char got[8] = {0};
  uint64_t bits = 0;
  library_result(&call, sc->run->cuda, got);
  memcpy(&bits, got, gpureduce_result_size(o->type, o->op, o->flags));
  snprintf(p->result, sizeof p->result, "0x%0*llx",
           (int)(2 * gpureduce_result_size(o->type, o->op, o->flags)),
           (unsigned long long)bits);
}

static void sweep_row(const struct sweep_ctx *sc, const struct sweep_point *p, struct table *t) {
  const size_t bytes = p->n * gpureduce_type_size(sc->run->opt->type);
  struct row *r = table_add(t);
  char nl[32];
  set_text(r, SC_N_LABEL, "%s", label_n(p->n, nl, sizeof nl));
  set_num(r, SC_N, (double)p->n);
  set_num(r, SC_MB, (double)bytes / 1e6);
  set_num(r, SC_BYTES, (double)bytes);
  if (sc->run->cuda) {
    set_text(r, SC_L2_TEXT, "%s", bytes <= sc->run->dev.l2_bytes ? "yes" : "no");
    set_num(r, SC_L2, bytes <= sc->run->dev.l2_bytes);
  }
  set_num(r, SC_GR_US, 1e3 * p->gr_ms);
  set_num(r, SC_GR_GBS, gbps(bytes, p->gr_ms));
  if (p->cub_ms > 0) {
    set_num(r, SC_CUB_US, 1e3 * p->cub_ms);
    set_num(r, SC_CUB_GBS, gbps(bytes, p->cub_ms));
    set_num(r, SC_GR_VS_CUB, p->cub_ms / p->gr_ms);
  }
  if (p->probe_ms > 0) {
    set_num(r, SC_PROBE_US, 1e3 * p->probe_ms);
    set_num(r, SC_PROBE_GBS, gbps(bytes, p->probe_ms));
    set_num(r, SC_PROBE_GRID, p->probe_grid);
    set_num(r, SC_GR_VS_PROBE, p->probe_ms / p->gr_ms);
  }
  if (p->atomic_ms > 0) set_num(r, SC_ATOMIC_US, 1e3 * p->atomic_ms);
  set_text(r, SC_CHECK, "%s", p->check);
  set_text(r, SC_RESULT, "%s", p->result);
}

static void sweep_notes(struct run *run, const struct sweep_ctx *sc) {
  const struct options *o = run->opt;
  if (o->blocks) add_note(run, "gpureduce: %u blocks at every n (--blocks)", o->blocks);
  add_note(run, "input: random values made %s by a hash of (seed, index), one buffer reused",
           run->cuda ? "on the device" : "on the host");
  add_note(run,
           "time: median of %d batches of %d back-to-back calls after %d warm-ups (%s); "
           "per call = batch / %d; GB/s = n x %zu bytes / time",
           o->repeat, SWEEP_BATCH, WARMUP_CALLS, run->cuda ? "CUDA events" : "CLOCK_MONOTONIC",
           SWEEP_BATCH, gpureduce_type_size(o->type));
  if (!run->cuda) {
    add_note(run, "host backend: n up to 2^%d; results checked against an independent oracle",
             HOST_MAX_LOG2);
    return;
  }
  add_note(run,
           "gr/cub = cub time / gpureduce time, gr/probe = probe time / gpureduce time "
           "(> 1: gpureduce faster)");
  add_note(run, "probe: read-only, fastest grid of SMs x {1,2,4,8,16} blocks of %d per n",
           BENCH_BLOCK);
  if (sc->atomic)
    add_note(run,
             "atomic*: NONDETERMINISTIC f32 sum (blocks atomicAdd into one float, bits vary "
             "between runs), memset in the timed region, the probe's grid");
  if (!sc->cub) add_note(run, "cub: not built (configure found no CUB)");
  if (o->check)
    add_note(run,
             "check: n <= 2^26 bitwise = host backend on the data copied back, and the "
             "oracle; larger n: same bits twice%s",
             is_plain_f32_sum(o) ? "; 2^24-611 ones exact; cub, atomic within 1e-3" : "");
}

/* Drop the sizes whose buffer would not fit in 80% of free device memory. */
static int sweep_fit(struct run *run, size_t *sizes, int count) {
  const size_t es = gpureduce_type_size(run->opt->type);
  const double room = 0.8 * (double)run->dev.free_bytes;
  int kept = count;
  while (kept > 1 && (double)(sizes[kept - 1] + run->opt->offset) * es > room) --kept;
  if (kept < count) {
    char nl[32];
    add_note(run, "sizes above %s left out: they do not fit in device memory",
             label_n(sizes[kept - 1], nl, sizeof nl));
  }
  return kept;
}

static void sweep_open(struct sweep_ctx *sc, const size_t *sizes, int count) {
  const struct options *o = sc->run->opt;
  const int cuda = sc->run->cuda;
  const size_t n_max = sizes[count - 1];
  sc->tm = (struct timing){WARMUP_CALLS, o->repeat, SWEEP_BATCH};
  sc->in = input_alloc(cuda, o->type, n_max, o->offset, "sweep input");
  fill_random(&sc->in, o->type);
  sc->out = output_alloc(cuda);
  if (!cuda) return;
  sc->cub = bench_cub_create(o->type, o->op, o->flags, sizes, (size_t)count);
  sc->probe = bench_probe_create();
  sc->atomic = is_plain_f32_sum(o);
  if (!o->check) return;
  const size_t copy_n = n_max < HOST_CHECK_MAX_N ? n_max : HOST_CHECK_MAX_N;
  sc->host_copy = xmalloc_aligned(copy_n * gpureduce_type_size(o->type));
  const gpureduce_status_t s = gpureduce_create(&sc->host, GPUREDUCE_DEVICE_HOST);
  if (s != GPUREDUCE_SUCCESS) library_failed(NULL, s, "gpureduce_create (host backend, checks)");
}

static void sweep_close(struct sweep_ctx *sc) {
  const int cuda = sc->run->cuda;
  input_free(&sc->in);
  output_free(cuda, sc->out);
  bench_cub_destroy(sc->cub);
  bench_probe_destroy(sc->probe);
  free(sc->host_copy);
  if (sc->host) gpureduce_destroy(sc->host);
}

static int run_sweep(struct run *run) {
  size_t sizes[SWEEP_MAX_LOG2 - SWEEP_MIN_LOG2 + 2];
  int count = sweep_sizes(run->cuda ? SWEEP_MAX_LOG2 : HOST_MAX_LOG2, sizes);
  struct sweep_ctx sc;
  struct table t;
  memset(&sc, 0, sizeof sc);
  sc.run = run;
  run->mode = "sweep";
  if (run->cuda) count = sweep_fit(run, sizes, count);
  sweep_open(&sc, sizes, count);
  table_init(&t, sweep_columns, SC_COUNT);
  t.enabled[SC_L2_TEXT] = t.enabled[SC_L2] = t.enabled[SC_PROBE_US] = t.enabled[SC_PROBE_GBS] =
      run->cuda;
  t.enabled[SC_PROBE_GRID] = t.enabled[SC_GR_VS_PROBE] = run->cuda;
  t.enabled[SC_CUB_US] = t.enabled[SC_CUB_GBS] = t.enabled[SC_GR_VS_CUB] = sc.cub != NULL;
  t.enabled[SC_ATOMIC_US] = sc.atomic;
  for (int i = 0; i < count; ++i) {
    struct sweep_point p;
    sweep_point(&sc, sizes[i], &p);
    sweep_row(&sc, &p, &t);
  }
  progress(" ");
  if (run->opt->check)
    add_summary(run, "check: %s", run->wrong ? "WRONG results (details on stderr)" : "all right");
  else
    add_summary(run, "check: not done (--no-check)");
  sweep_notes(run, &sc);
  print_report(run, &t);
  table_free(&t);
  sweep_close(&sc);
  return run->wrong ? EXIT_WRONG : EXIT_OK;
}

/* ---- --tune ---------------------------------------------------------------------- */

enum { TC_N_LABEL, TC_N, TC_DEF_BLOCKS, TC_DEF_US, TC_TUNED_BLOCKS, TC_TUNED_US, TC_NOISE,
       TC_GAIN, TC_COUNT };

static const struct column tune_columns[TC_COUNT] = {
    [TC_N_LABEL] = {"n_label", "n", 0, SHOW_TEXT, 1},
    [TC_N] = {"n", "elements", 0, SHOW_ALL, 0},
    [TC_DEF_BLOCKS] = {"default_blocks", "default blocks", 0, SHOW_ALL, 0},
    [TC_DEF_US] = {"default_us", "default us", 2, SHOW_ALL, 0},
    [TC_TUNED_BLOCKS] = {"tuned_blocks", "tuned blocks", 0, SHOW_ALL, 0},
    [TC_TUNED_US] = {"tuned_us", "tuned us", 2, SHOW_ALL, 0},
    [TC_NOISE] = {"noise_us", "noise us", 2, SHOW_ALL, 0},
    [TC_GAIN] = {"speedup", "speedup", 3, SHOW_ALL, 0},
};

static const char *cache_state_text(gpureduce_tune_cache_t s) {
  switch (s) {
    case GPUREDUCE_TUNE_CACHE_ABSENT: return "no cache file";
    case GPUREDUCE_TUNE_CACHE_LOADED: return "loaded";
    case GPUREDUCE_TUNE_CACHE_DISABLED: return "disabled (GPUREDUCE_TUNE=off)";
    case GPUREDUCE_TUNE_CACHE_FOREIGN: return "ignored: made for another device, driver or version";
    case GPUREDUCE_TUNE_CACHE_CORRUPT: return "ignored: corrupt";
    case GPUREDUCE_TUNE_CACHE_UNREADABLE: return "ignored: unreadable";
  }
  return "unknown";
}

/* A header line: what the handle found in the tuning cache. */
static void describe_cache(struct run *run) {
  gpureduce_tune_cache_t state;
  const char *path = NULL;
  if (!run->cuda || gpureduce_tune_cache_state(run->h, &state, &path) != GPUREDUCE_SUCCESS) return;
  add_head(run, "tuning cache: %s%s%s", cache_state_text(state), path ? ", " : "",
           path ? path : "");
}

static int run_tune(struct run *run) {
  const struct options *o = run->opt;
  gpureduce_tune_row_t rows[64];
  size_t count = 0;
  struct table t;
  run->mode = "tune";
  progress(" tuning %s %s ...", gpureduce_type_name(o->type), gpureduce_op_name(o->op));
  const double t0 = host_now_ms();
  const gpureduce_status_t s = gpureduce_autotune(run->h, o->type, o->op, o->flags,
                                                  o->n_given ? o->n : 0, rows, 64, &count);
  const double seconds = (host_now_ms() - t0) / 1e3;
  progress(" ");
  if (s != GPUREDUCE_SUCCESS && s != GPUREDUCE_ERROR_TUNE_CACHE)
    library_failed(run->h, s, "gpureduce_autotune");
  table_init(&t, tune_columns, TC_COUNT);
  for (size_t i = 0; i < count && i < 64; ++i) {
    struct row *r = table_add(&t);
    char nl[32];
    set_text(r, TC_N_LABEL, "%s", label_n(rows[i].n, nl, sizeof nl));
    set_num(r, TC_N, (double)rows[i].n);
    set_num(r, TC_DEF_BLOCKS, rows[i].default_blocks);
    set_num(r, TC_DEF_US, rows[i].default_us);
    set_num(r, TC_TUNED_BLOCKS, rows[i].tuned_blocks);
    set_num(r, TC_TUNED_US, rows[i].tuned_us);
    set_num(r, TC_NOISE, rows[i].noise_us);
    set_num(r, TC_GAIN, rows[i].tuned_us > 0 ? rows[i].default_us / rows[i].tuned_us : 0.0);
  }
  gpureduce_tune_cache_t state;
  const char *path = NULL;
  if (gpureduce_tune_cache_state(run->h, &state, &path) != GPUREDUCE_SUCCESS) path = NULL;
  add_summary(run, "tuned %zu size buckets in %.1f s; %s", count, seconds,
              s == GPUREDUCE_SUCCESS
                  ? (getenv("GPUREDUCE_TUNE") && !strcmp(getenv("GPUREDUCE_TUNE"), "off")
                         ? "not saved (GPUREDUCE_TUNE=off)"
                         : "saved in the tuning cache")
                  : gpureduce_last_message(run->h));
  if (path) add_note(run, "cache file: %s", path);
  add_note(run, "time: median per call of 10 timed batches (CUDA events); a tuned count "
                "replaces the default only when faster by more than the noise (half the "
                "interquartile range of the default's batches)");
  print_report(run, &t);
  table_free(&t);
  return s == GPUREDUCE_SUCCESS ? EXIT_OK : EXIT_WRONG;
}

/* ---- main ----------------------------------------------------------------------- */

/* CUDA or host, by --backend and what the machine has. */
static int choose_cuda(const struct options *o) {
  char why[200] = "";
  if (o->backend == BACKEND_HOST) return 0;
  const int count = bench_cuda_device_count(why, sizeof why);
  if (count == 0 && o->tune) fatal(EXIT_NO_DEVICE, "--tune: no CUDA device (%s)", why);
  if (count == 0 && o->device_given)
    fatal(EXIT_NO_DEVICE, "--device %d: no CUDA device (%s)", o->device, why);
  if (count == 0 && o->backend == BACKEND_AUTO) {
    fprintf(stderr, PROGRAM ": no CUDA device (%s); running the host backend\n", why);
    return 0;
  }
  if (count == 0) fatal(EXIT_NO_DEVICE, "--backend cuda: no CUDA device (%s)", why);
  if (o->device >= count)
    fatal(EXIT_NO_DEVICE, "--device %d: this machine has %d CUDA device(s)", o->device, count);
  return 1;
}

static void open_run(struct run *run, const struct options *o) {
  memset(run, 0, sizeof *run);
  run->opt = o;
  run->cuda = choose_cuda(o);
  if (run->cuda) {
    bench_cuda_open(o->device, &run->dev);
    run->ck.events = bench_timer_create();
  }
  const gpureduce_status_t s =
      gpureduce_create(&run->h, run->cuda ? o->device : GPUREDUCE_DEVICE_HOST);
  if (s != GPUREDUCE_SUCCESS) library_failed(NULL, s, "gpureduce_create");
  describe_cache(run);
}

static void close_run(struct run *run) {
  if (run->cuda) bench_cuda_sync("the last calls");
  const gpureduce_status_t s = gpureduce_destroy(run->h);
  if (s != GPUREDUCE_SUCCESS) library_failed(NULL, s, "gpureduce_destroy");
  if (run->ck.events) bench_timer_destroy(run->ck.events);
}

int main(int argc, char **argv) {
  struct options o;
  struct run run;
  parse_options(argc, argv, &o);
  if (!o.repeat_given) o.repeat = o.sweep ? SWEEP_REPEAT : LADDER_MIN_REPEAT;
  if (!o.sweep && o.repeat < LADDER_MIN_REPEAT) {
    fprintf(stderr, PROGRAM ": --repeat %d raised to %d, the ladder's minimum\n", o.repeat,
            LADDER_MIN_REPEAT);
    o.repeat = LADDER_MIN_REPEAT;
  }
  open_run(&run, &o);
  int status;
  if (o.tune)
    status = run_tune(&run);
  else if (o.sweep)
    status = run_sweep(&run);
  else if (run.cuda)
    status = run_ladder_cuda(&run);
  else
    status = run_ladder_host(&run);
  close_run(&run);
  return status;
}
