/*
 * reduce-bench-mpi - gpureduce_mpi_reduce() against the usual way, a local
 * gpureduce_reduce() and MPI_Allreduce() of the one value, under mpirun:
 * the time per call, and the result bits of both with 1, 2, ..., P ranks
 * over the same global array.  doc/reduce-bench-mpi.1 is its manual
 * (tests/mpi/test-mpi.sh checks that it lists the options of --help).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "config.h"

#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "gpureduce_mpi.h"

#include "args.h"

static const char *const usage_text[] = {
    "Usage: mpirun -n P reduce-bench-mpi [OPTION]...",
    "Time gpureduce_mpi_reduce() on P ranks against a local gpureduce_reduce()",
    "followed by MPI_Allreduce() of its one value (MPI_SUM, MPI_PROD, MPI_MIN or",
    "MPI_MAX by the operation; for a CUDA handle with the copies of that value",
    "to the host and back, as gpureduce_mpi_reduce() makes them), and show the",
    "result bits of both with 1, 2, ..., P ranks (MPI_Comm_split of the first p",
    "ranks) over the same global array of P x n random elements: those of",
    "gpureduce_mpi_reduce() must be the same for every p, the baseline's may",
    "differ.",
    "",
    "One row a case (n, type, op): the median over --repeat calls of the",
    "slowest rank's time of one call (each call after an MPI_Barrier), for",
    "gpureduce_mpi_reduce and for the baseline, their ratio, the result, the",
    "baseline's results for p = 1 .. P as letters (the same letter, the same",
    "bits; the values below the row), and 'same' or 'DIFFER' for",
    "gpureduce_mpi_reduce's bits over p = 1 .. P.",
    "",
    "Options:",
    "  --n LIST          elements per rank, comma-separated (default",
    "                    2^10,2^16,2^20,2^24): decimal numbers, 2^K, 2^K+M,",
    "                    2^K-M, or with the suffix K, M or G",
    "  --type LIST       element types (default f32): f16, bf16, f32, f64, i8,",
    "                    u8, i32, u32, i64, u64",
    "  --op LIST         operations (default sum): sum, prod, min, max, argmin,",
    "                    argmax, sum_abs, sum_squares, nrm2, mean_var; the",
    "                    baseline exists for sum, prod, sum_abs, sum_squares,",
    "                    min and max (not of f16 and bf16) and nrm2 (the local",
    "                    norms squared, summed, square-rooted); '-' for the rest",
    "  --device D        host (default), a CUDA device ordinal for every rank,",
    "                    or local: the node-local rank modulo the device count",
    "  --repeat R        timed calls a case (default 20), after 3 warm-up calls",
    "  --seed S          the random data's seed (default 1)",
    "  --help            this text",
    "  --version         the versions of gpureduce and of the MPI library",
    "",
    "Exit status:",
    "  0  every case ran and gpureduce_mpi_reduce gave the same bits on 1 .. P",
    "     ranks",
    "  1  a call failed, or gpureduce_mpi_reduce's bits differ between rank",
    "     counts",
    "  2  a bad option or value",
    "  3  no CUDA device for --device",
};

static int g_rank, g_size;

static void print_usage(FILE *f) {
  for (size_t i = 0; i < sizeof usage_text / sizeof usage_text[0]; ++i)
    fprintf(f, "%s\n", usage_text[i]);
}

/* A usage error: rank 0 says it, every rank exits 2. */
static void usage_error(const char *fmt, ...) {
  if (g_rank == 0) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "reduce-bench-mpi: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see --help)\n");
    va_end(ap);
  }
  MPI_Finalize();
  exit(2);
}

#define MAX_LIST 32

/* Split a comma-separated list in place. */
static int split(char *s, char **items) {
  int k = 0;
  for (char *p = strtok(s, ","); p && k < MAX_LIST; p = strtok(NULL, ",")) items[k++] = p;
  return k;
}

typedef struct options {
  uint64_t n[MAX_LIST];
  int nn;
  gpureduce_type_t type[MAX_LIST];
  int nt;
  gpureduce_op_t op[MAX_LIST];
  int no;
  int device; /* GPUREDUCE_DEVICE_HOST, an ordinal, or -2 for local */
  int repeat;
  uint64_t seed;
} options;

static void parse_options(int argc, char **argv, options *o) {
  static const struct option longs[] = {
      {"n", required_argument, 0, 'n'},      {"type", required_argument, 0, 't'},
      {"op", required_argument, 0, 'o'},     {"device", required_argument, 0, 'd'},
      {"repeat", required_argument, 0, 'r'}, {"seed", required_argument, 0, 's'},
      {"help", no_argument, 0, 'h'},         {"version", no_argument, 0, 'V'},
      {0, 0, 0, 0}};
  char *items[MAX_LIST];
  char nlist[] = "2^10,2^16,2^20,2^24";
  o->nn = 0;
  for (int i = 0, k = split(nlist, items); i < k; ++i) args_count(items[i], &o->n[o->nn++]);
  o->type[0] = GPUREDUCE_F32;
  o->nt = 1;
  o->op[0] = GPUREDUCE_SUM;
  o->no = 1;
  o->device = GPUREDUCE_DEVICE_HOST;
  o->repeat = 20;
  o->seed = 1;
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
    switch (c) {
      case 'n':
        o->nn = split(optarg, items);
        for (int i = 0; i < o->nn; ++i)
          if (args_count(items[i], &o->n[i]) || o->n[i] > ((uint64_t)1 << 40))
            usage_error("--n: '%s' is not a count up to 2^40", items[i]);
        if (!o->nn) usage_error("--n: no count");
        break;
      case 't':
        o->nt = split(optarg, items);
        for (int i = 0; i < o->nt; ++i) {
          const int t = args_type(items[i]);
          if (t < 0) usage_error("--type: unknown type '%s'", items[i]);
          o->type[i] = (gpureduce_type_t)t;
        }
        if (!o->nt) usage_error("--type: no type");
        break;
      case 'o':
        o->no = split(optarg, items);
        for (int i = 0; i < o->no; ++i) {
          const int op = args_op(items[i]);
          if (op < 0) usage_error("--op: unknown operation '%s'", items[i]);
          o->op[i] = (gpureduce_op_t)op;
        }
        if (!o->no) usage_error("--op: no operation");
        break;
      case 'd': {
        char *end;
        if (strcmp(optarg, "host") == 0)
          o->device = GPUREDUCE_DEVICE_HOST;
        else if (strcmp(optarg, "local") == 0)
          o->device = -2;
        else {
          const long d = strtol(optarg, &end, 10);
          if (!isdigit((unsigned char)*optarg) || *end || d > 1023)
            usage_error("--device: '%s' is not host, local or a device ordinal", optarg);
          o->device = (int)d;
        }
        break;
      }
      case 'r': {
        uint64_t v;
        if (args_count(optarg, &v) || v < 1 || v > 100000)
          usage_error("--repeat: '%s' is not a count from 1 to 100000", optarg);
        o->repeat = (int)v;
        break;
      }
      case 's': {
        char *end;
        if (!isdigit((unsigned char)*optarg)) usage_error("--seed: '%s' is not a number", optarg);
        o->seed = strtoull(optarg, &end, 0);
        if (*end) usage_error("--seed: '%s' is not a number", optarg);
        break;
      }
      case 'h':
        if (g_rank == 0) print_usage(stdout);
        MPI_Finalize();
        exit(0);
      case 'V':
        if (g_rank == 0) {
          char lib[MPI_MAX_LIBRARY_VERSION_STRING];
          int len = 0;
          MPI_Get_library_version(lib, &len);
          char *nl = strchr(lib, '\n');
          if (nl) *nl = '\0';
          printf("reduce-bench-mpi %s (libgpureduce %s, %s)\n", GPUREDUCE_VERSION_STRING,
                 gpureduce_version_string(), lib);
        }
        MPI_Finalize();
        exit(0);
      default:
        usage_error("unknown option or missing value '%s'", argv[optind - 1]);
    }
  }
  if (optind < argc) usage_error("unexpected argument '%s'", argv[optind]);
}

/* ---- data: element i of the global array, the same on every rank --------- */

static uint64_t mix(uint64_t x) {
  x += UINT64_C(0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

/* Random finite values of mixed magnitude and sign (+-m 2^e, e in [-8, 8],
 * near 1 for the product); random integers. */
static void fill(void *buf, gpureduce_type_t type, gpureduce_op_t op, uint64_t seed,
                 uint64_t first, size_t n) {
  for (size_t k = 0; k < n; ++k) {
    const uint64_t h = mix(seed ^ mix(first + k)), h2 = mix(h);
    unsigned frac = 0, bias = 0, bytes = (unsigned)gpureduce_type_size(type);
    switch (type) {
      case GPUREDUCE_F16: frac = 10, bias = 15; break;
      case GPUREDUCE_BF16: frac = 7, bias = 127; break;
      case GPUREDUCE_F32: frac = 23, bias = 127; break;
      case GPUREDUCE_F64: frac = 52, bias = 1023; break;
      default: break;
    }
    uint64_t bits;
    if (frac) {
      const uint64_t fmask = (UINT64_C(1) << frac) - 1, sign = UINT64_C(1) << (8 * bytes - 1);
      if (op == GPUREDUCE_PROD)
        bits = (h & 2) ? (uint64_t)bias << frac | ((h2 >> 12) & (fmask >> 6))
                       : (uint64_t)(bias - 1) << frac | (fmask - ((h2 >> 12) & (fmask >> 6)));
      else
        bits = ((h & 1) ? sign : 0) | (uint64_t)(bias - 8 + (unsigned)((h >> 1) % 17)) << frac |
               (h2 & fmask);
    } else {
      bits = op == GPUREDUCE_PROD ? (h2 | 1) : h2;
    }
    memcpy((char *)buf + k * bytes, &bits, bytes); /* little-endian */
  }
}

/* ---- the baseline --------------------------------------------------------- */

/* The MPI datatype and op of the baseline for a result of (type, op), or 0
 * when it has none.  *squares: nrm2 (square the local norm, sum, sqrt). */
static int baseline_of(gpureduce_type_t type, gpureduce_op_t op, MPI_Datatype *dt, MPI_Op *mop,
                       int *squares) {
  const int is_float = type <= GPUREDUCE_F64;
  const int is_signed = type == GPUREDUCE_I8 || type == GPUREDUCE_I32 || type == GPUREDUCE_I64;
  *squares = 0;
  switch (op) {
    case GPUREDUCE_SUM:
    case GPUREDUCE_SUM_ABS:
    case GPUREDUCE_SUM_SQUARES:
    case GPUREDUCE_PROD:
      *mop = op == GPUREDUCE_PROD ? MPI_PROD : MPI_SUM;
      *dt = is_float ? (type == GPUREDUCE_F64 ? MPI_DOUBLE : MPI_FLOAT)
                     : (is_signed ? MPI_INT64_T : MPI_UINT64_T);
      return 1;
    case GPUREDUCE_MIN:
    case GPUREDUCE_MAX: {
      *mop = op == GPUREDUCE_MIN ? MPI_MIN : MPI_MAX;
      switch (type) {
        case GPUREDUCE_F32: *dt = MPI_FLOAT; return 1;
        case GPUREDUCE_F64: *dt = MPI_DOUBLE; return 1;
        case GPUREDUCE_I8: *dt = MPI_INT8_T; return 1;
        case GPUREDUCE_U8: *dt = MPI_UINT8_T; return 1;
        case GPUREDUCE_I32: *dt = MPI_INT32_T; return 1;
        case GPUREDUCE_U32: *dt = MPI_UINT32_T; return 1;
        case GPUREDUCE_I64: *dt = MPI_INT64_T; return 1;
        case GPUREDUCE_U64: *dt = MPI_UINT64_T; return 1;
        default: return 0;
      }
    }
    case GPUREDUCE_NRM2:
      *mop = MPI_SUM;
      *dt = gpureduce_result_size(type, op, 0) == 8 ? MPI_DOUBLE : MPI_FLOAT;
      *squares = 1;
      return 1;
    default: return 0;
  }
}

/* Where a rank's data lives. */
typedef struct place {
  gpureduce_handle_t h;
  int cuda;
  void *dev;      /* device input (CUDA) */
  size_t dev_bytes;
  void *dev_out;  /* device result (CUDA) */
} place;

/* One baseline call: local gpureduce_reduce, the value to the host, MPI,
 * back to the place's output (and to out, host memory).  0 on success. */
static int baseline(place *pl, const void *in, void *out, size_t n, gpureduce_type_t type,
                    gpureduce_op_t op, MPI_Comm comm, MPI_Datatype dt, MPI_Op mop, int squares) {
  _Alignas(16) unsigned char local[16], global[16];
  const size_t rs = gpureduce_result_size(type, op, 0);
  if (gpureduce_reduce(in, pl->cuda ? pl->dev_out : local, n, type, op, 0, pl->h)) return -1;
  if (pl->cuda && cudaMemcpy(local, pl->dev_out, rs, cudaMemcpyDeviceToHost) != cudaSuccess)
    return -1;
  if (squares) {
    if (rs == 8) { double v; memcpy(&v, local, 8); v *= v; memcpy(local, &v, 8); }
    else { float v; memcpy(&v, local, 4); v *= v; memcpy(local, &v, 4); }
  }
  if (MPI_Allreduce(local, global, 1, dt, mop, comm) != MPI_SUCCESS) return -1;
  if (squares) {
    if (rs == 8) { double v; memcpy(&v, global, 8); v = sqrt(v); memcpy(global, &v, 8); }
    else { float v; memcpy(&v, global, 4); v = sqrtf(v); memcpy(global, &v, 4); }
  }
  if (pl->cuda) {
    if (cudaMemcpy(pl->dev_out, global, rs, cudaMemcpyHostToDevice) != cudaSuccess) return -1;
  }
  memcpy(out, global, rs);
  return 0;
}

/* One gpureduce_mpi_reduce call; with `fetch', the result in out (host),
 * else left in the place's output (host out, or device memory). */
static int mpi_call(place *pl, const void *in, void *out, size_t n, gpureduce_type_t type,
                    gpureduce_op_t op, MPI_Comm comm, int fetch, char *err, size_t err_size) {
  const size_t rs = gpureduce_result_size(type, op, 0);
  const gpureduce_status_t s =
      gpureduce_mpi_reduce(in, pl->cuda ? pl->dev_out : out, n, type, op, 0, comm, pl->h);
  if (s != GPUREDUCE_SUCCESS) {
    snprintf(err, err_size, "gpureduce_mpi_reduce: %s: %s", gpureduce_status_name(s),
             gpureduce_last_message(pl->h));
    return -1;
  }
  if (fetch && pl->cuda && cudaMemcpy(out, pl->dev_out, rs, cudaMemcpyDeviceToHost) != cudaSuccess) {
    snprintf(err, err_size, "cudaMemcpy of the result failed");
    return -1;
  }
  return 0;
}

/* The input of n elements of this rank, from global element `first', in
 * the place's memory (host buffer *host regrown as needed). */
static const void *stage(place *pl, void **host, size_t *host_bytes, gpureduce_type_t type,
                         gpureduce_op_t op, uint64_t seed, uint64_t first, size_t n) {
  const size_t bytes = n * gpureduce_type_size(type);
  if (bytes > *host_bytes) {
    free(*host);
    *host = malloc(bytes);
    *host_bytes = *host ? bytes : 0;
    if (!*host) return NULL;
  }
  fill(*host, type, op, seed, first, n);
  if (!pl->cuda) return *host;
  if (bytes > pl->dev_bytes) {
    if (pl->dev) cudaFree(pl->dev);
    pl->dev = NULL;
    pl->dev_bytes = 0;
    if (cudaMalloc(&pl->dev, bytes ? bytes : 1) != cudaSuccess) return NULL;
    pl->dev_bytes = bytes;
  }
  if (bytes && cudaMemcpy(pl->dev, *host, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
    return NULL;
  return pl->dev;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The result's bytes as hexadecimal little-endian values of `width' bytes
 * each (MEAN_VAR: the mean, then the variance), joined by ':'. */
static void hex(char *out, size_t size, const unsigned char *b, size_t n, size_t width) {
  size_t at = 0;
  for (size_t v = 0; v < n && at + 4 < size; v += width) {
    at += (size_t)snprintf(out + at, size - at, "%s0x", v ? ":" : "");
    for (size_t i = v + width; i-- > v && at + 3 < size;)
      at += (size_t)snprintf(out + at, size - at, "%02x", b[i]);
  }
}

/* Time `repeat' calls: the median of the slowest rank's time, in us. */
static double median_us(double *t, int repeat) {
  qsort(t, (size_t)repeat, sizeof *t, cmp_double);
  return 1e6 * (repeat % 2 ? t[repeat / 2] : 0.5 * (t[repeat / 2 - 1] + t[repeat / 2]));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  options o;
  parse_options(argc, argv, &o);

  place pl = {NULL, 0, NULL, 0, NULL};
  int device = o.device;
  if (device == -2) {
    MPI_Comm node;
    int local = 0, count = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
    device = count ? local % count : 0;
  }
  gpureduce_status_t s = gpureduce_create(&pl.h, device);
  int ok = s == GPUREDUCE_SUCCESS;
  if (ok && device != GPUREDUCE_DEVICE_HOST) {
    pl.cuda = 1;
    ok = cudaSetDevice(device) == cudaSuccess && cudaMalloc(&pl.dev_out, 16) == cudaSuccess;
  }
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!ok) {
    if (g_rank == 0)
      fprintf(stderr, "reduce-bench-mpi: a rank cannot create its handle for device %d: %s\n",
              device, gpureduce_status_string(s));
    MPI_Finalize();
    return s == GPUREDUCE_ERROR_NO_DEVICE ? 3 : 1;
  }

  if (g_rank == 0) {
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    char *nl = strchr(lib, '\n');
    if (nl) *nl = '\0';
    printf("reduce-bench-mpi %s: %d ranks, %s handles, %s\n", gpureduce_version_string(), g_size,
           pl.cuda ? "CUDA" : "host", lib);
    printf("time: median of %d calls (3 warm-up), each after MPI_Barrier, the slowest rank's\n",
           o.repeat);
    printf("baseline: local gpureduce_reduce + MPI_Allreduce of its value%s\n",
           pl.cuda ? " (copied to the host and back)" : "");
    printf("%-12s %-5s %-12s %5s %10s %10s %8s  %-37s %-*s %s\n", "n/rank", "type", "op", "ranks",
           "mpi_us", "base_us", "mpi/base", "result", g_size > 9 ? g_size : 9, "baseline", "mpi");
    fflush(stdout);
  }

  int status = 0;
  void *host = NULL;
  size_t host_bytes = 0;
  double *times = malloc((size_t)o.repeat * sizeof *times);
  unsigned char *mpi_bits = malloc((size_t)g_size * 16), *base_bits = malloc((size_t)g_size * 16);
  for (int ti = 0; ti < o.nt; ++ti)
    for (int oi = 0; oi < o.no; ++oi)
      for (int ni = 0; ni < o.nn; ++ni) {
        const gpureduce_type_t type = o.type[ti];
        const gpureduce_op_t op = o.op[oi];
        const uint64_t n = o.n[ni], N = n * (uint64_t)g_size;
        const size_t rs = gpureduce_result_size(type, op, 0);
        const size_t width = op == GPUREDUCE_MEAN_VAR ? rs / 2 : rs;
        MPI_Datatype dt = MPI_BYTE;
        MPI_Op mop = MPI_SUM;
        int squares = 0;
        const int has_base = baseline_of(type, op, &dt, &mop, &squares);
        const uint64_t seed = mix(o.seed ^ ((uint64_t)type << 8) ^ (uint64_t)op);
        char err[300] = "";
        int bad = 0;
        _Alignas(16) unsigned char out[16], base_out[16];

        /* Timing on all P ranks, n each. */
        const void *in = stage(&pl, &host, &host_bytes, type, op, seed, n * (uint64_t)g_rank, n);
        if (!in) { bad = 1; snprintf(err, sizeof err, "no memory for %llu elements", (unsigned long long)n); }
        MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        double mpi_us = 0, base_us = 0;
        for (int pass = 0; pass < 2 && !bad; ++pass) {
          if (pass == 1 && !has_base) break;
          for (int r = -3; r < o.repeat && !bad; ++r) {
            MPI_Barrier(MPI_COMM_WORLD);
            const double t0 = MPI_Wtime();
            int e = pass == 0 ? mpi_call(&pl, in, out, n, type, op, MPI_COMM_WORLD, 0, err, sizeof err)
                              : baseline(&pl, in, base_out, n, type, op, MPI_COMM_WORLD, dt, mop,
                                         squares);
            double t = MPI_Wtime() - t0;
            MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            MPI_Allreduce(MPI_IN_PLACE, &e, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            if (e) bad = 1;
            if (r >= 0) times[r] = t;
          }
          if (!bad) *(pass == 0 ? &mpi_us : &base_us) = median_us(times, o.repeat);
        }

        /* The bits on p = 1 .. P ranks: the same N elements, N/p a rank. */
        for (int p = 1; p <= g_size && !bad; ++p) {
          MPI_Comm sub;
          MPI_Comm_split(MPI_COMM_WORLD, g_rank < p ? 0 : MPI_UNDEFINED, g_rank, &sub);
          int e = 0;
          if (sub != MPI_COMM_NULL) {
            const uint64_t first = N * (uint64_t)g_rank / (uint64_t)p;
            const uint64_t last = N * ((uint64_t)g_rank + 1) / (uint64_t)p;
            const void *pin = stage(&pl, &host, &host_bytes, type, op, seed, first, last - first);
            memset(out, 0, sizeof out);
            memset(base_out, 0, sizeof base_out);
            e = !pin || mpi_call(&pl, pin, out, last - first, type, op, sub, 1, err, sizeof err);
            if (!e && has_base)
              e = baseline(&pl, pin, base_out, last - first, type, op, sub, dt, mop, squares);
            MPI_Comm_free(&sub);
          }
          MPI_Allreduce(MPI_IN_PLACE, &e, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
          if (e) { bad = 1; break; }
          if (g_rank == 0) {
            memcpy(mpi_bits + 16 * (size_t)(p - 1), out, 16);
            memcpy(base_bits + 16 * (size_t)(p - 1), base_out, 16);
          }
        }
        if (bad) {
          if (g_rank == 0)
            printf("%-12llu %-5s %-12s %5d  failed: %s\n", (unsigned long long)n,
                   gpureduce_type_name(type), gpureduce_op_name(op), g_size,
                   err[0] ? err : "a call failed on some rank");
          status = 1;
          continue;
        }
        if (g_rank != 0) continue;
        int same = 1;
        for (int p = 2; p <= g_size; ++p)
          if (memcmp(mpi_bits, mpi_bits + 16 * (size_t)(p - 1), rs)) same = 0;
        if (!same) status = 1;
        /* The baseline's values as letters, first seen first lettered. */
        char letters[4096] = "-", legend[4096] = "";
        int distinct = 0;
        if (has_base) {
          int lab[4096];
          size_t at = 0, lat = 0;
          for (int p = 1; p <= g_size && p < 4096; ++p) {
            lab[p] = -1;
            for (int q = 1; q < p; ++q)
              if (!memcmp(base_bits + 16 * (size_t)(q - 1), base_bits + 16 * (size_t)(p - 1), rs)) {
                lab[p] = lab[q];
                break;
              }
            if (lab[p] < 0) {
              lab[p] = distinct++;
              char h[48];
              hex(h, sizeof h, base_bits + 16 * (size_t)(p - 1), rs, width);
              if (lat + 60 < sizeof legend)
                lat += (size_t)snprintf(legend + lat, sizeof legend - lat, "%s%c = %s",
                                        lat ? ", " : "", lab[p] < 26 ? 'A' + lab[p] : '*', h);
            }
            if (at + 2 < sizeof letters) letters[at++] = (char)(lab[p] < 26 ? 'A' + lab[p] : '*');
          }
          letters[at] = '\0';
        }
        char h[48];
        hex(h, sizeof h, mpi_bits, rs, width);
        char base_col[16] = "-", ratio[16] = "-";
        if (has_base) {
          snprintf(base_col, sizeof base_col, "%.2f", base_us);
          snprintf(ratio, sizeof ratio, "%.2f", mpi_us / base_us);
        }
        printf("%-12llu %-5s %-12s %5d %10.2f %10s %8s  %-37s %-*s %s\n", (unsigned long long)n,
               gpureduce_type_name(type), gpureduce_op_name(op), g_size, mpi_us, base_col, ratio,
               h, g_size > 9 ? g_size : 9, letters, same ? "same" : "DIFFER");
        if (has_base)
          printf("    baseline by ranks 1..%d: %s%s\n", g_size, legend,
                 distinct > 1 ? "  (changes with the rank count)" : "");
        fflush(stdout);
      }
  free(base_bits);
  free(mpi_bits);
  free(times);
  free(host);
  if (pl.dev) cudaFree(pl.dev);
  if (pl.dev_out) cudaFree(pl.dev_out);
  (void)gpureduce_destroy(pl.h);
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
