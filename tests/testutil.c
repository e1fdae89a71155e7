/*
 * testutil.c - see testutil.h.  Nothing here comes from src/: the element
 * formats follow IEEE 754 and the order follows doc/ORDER.md, so the tests
 * check the library against the documents.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "testutil.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "the order reference needs float arithmetic evaluated in float (FLT_EVAL_METHOD 0)"
#endif

/* ---- random numbers ------------------------------------------------------- */

#define TU_DEFAULT_SEED UINT64_C(20260417)

uint64_t tu_seed(void) {
  static int have = 0;
  static uint64_t seed;
  if (!have) {
    const char *s = getenv("GPUREDUCE_TEST_SEED");
    seed = TU_DEFAULT_SEED;
    if (s && *s) {
      char *end = NULL;
      unsigned long long v = strtoull(s, &end, 0);
      if (end && *end == '\0') seed = (uint64_t)v;
    }
    have = 1;
  }
  return seed;
}

void tu_announce_seed(void) {
  static int done = 0;
  if (!done) {
    print_message("# seed %" PRIu64 " (set GPUREDUCE_TEST_SEED to change it)\n", tu_seed());
    done = 1;
  }
}

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

void tu_rng_init(tu_rng *r, const char *label) {
  uint64_t h = UINT64_C(1469598103934665603); /* FNV-1a of the label */
  for (const char *p = label; *p; ++p) h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
  uint64_t x = tu_seed() ^ h;
  for (int i = 0; i < 4; ++i) r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t tu_next(tu_rng *r) {
  uint64_t *s = r->s;
  const uint64_t result = rotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint64_t tu_below(tu_rng *r, uint64_t bound) {
  /* Lemire's multiply-shift is not needed: rejection keeps it exact. */
  const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  uint64_t x;
  do x = tu_next(r);
  while (x >= limit);
  return x % bound;
}

double tu_unit(tu_rng *r) { return (double)(tu_next(r) >> 11) * 0x1p-53; }

/* ---- element types ------------------------------------------------------- */

const tu_type tu_types[GPUREDUCE_TYPE_COUNT] = {
    {GPUREDUCE_F16, "f16", 2, 1, 1},  {GPUREDUCE_BF16, "bf16", 2, 1, 1},
    {GPUREDUCE_F32, "f32", 4, 1, 1},  {GPUREDUCE_F64, "f64", 8, 1, 1},
    {GPUREDUCE_I8, "i8", 1, 0, 1},    {GPUREDUCE_U8, "u8", 1, 0, 0},
    {GPUREDUCE_I32, "i32", 4, 0, 1},  {GPUREDUCE_U32, "u32", 4, 0, 0},
    {GPUREDUCE_I64, "i64", 8, 0, 1},  {GPUREDUCE_U64, "u64", 8, 0, 0},
};

const char *const tu_op_names[GPUREDUCE_OP_COUNT] = {
    "sum", "prod", "min", "max", "argmin", "argmax", "sum_abs", "sum_squares"};

unsigned tu_chunk_elems(gpureduce_type_t type) { return 16u / TU_TYPE(type)->size; }

size_t tu_tile_elems(gpureduce_type_t type) { return (size_t)2048 * tu_chunk_elems(type); }

size_t tu_tiles(gpureduce_type_t type, size_t n) {
  const size_t t = tu_tile_elems(type);
  return n / t + (n % t != 0);
}

int tu_is_sum_like(gpureduce_op_t op) {
  return op == GPUREDUCE_SUM || op == GPUREDUCE_PROD || op == GPUREDUCE_SUM_ABS ||
         op == GPUREDUCE_SUM_SQUARES;
}

size_t tu_result_size(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  if ((unsigned)type >= GPUREDUCE_TYPE_COUNT || (unsigned)op >= GPUREDUCE_OP_COUNT) return 0;
  if (flags != 0 && flags != GPUREDUCE_ACCUMULATE_F64) return 0;
  const tu_type *t = TU_TYPE(type);
  if (flags == GPUREDUCE_ACCUMULATE_F64) /* f32 sum-like only, result double */
    return (type == GPUREDUCE_F32 && tu_is_sum_like(op)) ? 8 : 0;
  switch (op) {
    case GPUREDUCE_ARGMIN:
    case GPUREDUCE_ARGMAX: return 8; /* uint64_t index */
    case GPUREDUCE_MIN:
    case GPUREDUCE_MAX: return t->size; /* the input type */
    default:
      if (!t->is_float) return 8;                /* int64_t / uint64_t */
      return type == GPUREDUCE_F64 ? 8 : 4;      /* double / float */
  }
}

int tu_acc_is_double(gpureduce_type_t type, unsigned flags) {
  return type == GPUREDUCE_F64 || (type == GPUREDUCE_F32 && (flags & GPUREDUCE_ACCUMULATE_F64));
}

uint64_t tu_load(const void *buf, size_t i, unsigned size) {
  const unsigned char *p = (const unsigned char *)buf + i * size;
  switch (size) {
    case 1: return p[0];
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
  }
}

void tu_store(void *buf, size_t i, unsigned size, uint64_t bits) {
  unsigned char *p = (unsigned char *)buf + i * size;
  switch (size) {
    case 1: p[0] = (unsigned char)bits; break;
    case 2: { uint16_t v = (uint16_t)bits; memcpy(p, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)bits; memcpy(p, &v, 4); break; }
    default: memcpy(p, &bits, 8); break;
  }
}

uint32_t tu_f32_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
float tu_f32_of(uint32_t bits) { float f; memcpy(&f, &bits, 4); return f; }
uint64_t tu_f64_bits(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
double tu_f64_of(uint64_t bits) { double d; memcpy(&d, &bits, 8); return d; }

/* binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits. */
double tu_f16_value(uint16_t h) {
  const int neg = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 31) v = m ? NAN : INFINITY;
  else if (e == 0) v = ldexp((double)m, -24); /* subnormal: m * 2^-14 * 2^-10 */
  else v = ldexp((double)(1024 + m), e - 25);
  return neg ? -v : v;
}

/* bfloat16: 1 sign, 8 exponent (bias 127), 7 fraction bits. */
double tu_bf16_value(uint16_t b) {
  const int neg = b >> 15, e = (b >> 7) & 255, m = b & 127;
  double v;
  if (e == 255) v = m ? NAN : INFINITY;
  else if (e == 0) v = ldexp((double)m, -133); /* m * 2^-126 * 2^-7 */
  else v = ldexp((double)(128 + m), e - 134);
  return neg ? -v : v;
}

double tu_value(gpureduce_type_t type, uint64_t bits) {
  switch (type) {
    case GPUREDUCE_F16: return tu_f16_value((uint16_t)bits);
    case GPUREDUCE_BF16: return tu_bf16_value((uint16_t)bits);
    case GPUREDUCE_F32: return (double)tu_f32_of((uint32_t)bits);
    case GPUREDUCE_F64: return tu_f64_of(bits);
    default: fail_msg("tu_value: %s is not a floating type", TU_TYPE(type)->name); return 0;
  }
}

int tu_is_nan(gpureduce_type_t type, uint64_t bits) {
  const double v = tu_value(type, bits);
  return v != v;
}

static uint64_t pattern_16(double v, int exp_bits, int frac_bits, const char *what) {
  const int bias = (1 << (exp_bits - 1)) - 1, emax_field = (1 << exp_bits) - 1;
  const uint64_t sign = signbit(v) ? (uint64_t)1 << 15 : 0;
  if (isnan(v)) return ((uint64_t)emax_field << frac_bits) | ((uint64_t)1 << (frac_bits - 1));
  if (isinf(v)) return sign | ((uint64_t)emax_field << frac_bits);
  const double a = fabs(v);
  if (a == 0) return sign;
  const int emin = 1 - bias; /* smallest normal exponent */
  int e;
  frexp(a, &e);
  e -= 1; /* a = 1.f * 2^e */
  if (e < emin) {
    const double m = ldexp(a, -(emin - frac_bits)); /* units of the subnormal step */
    if (m != floor(m)) fail_msg("%s: %.17g is not representable", what, v);
    return sign | (uint64_t)m;
  }
  if (e > bias) fail_msg("%s: %.17g overflows", what, v);
  const double m = ldexp(a, frac_bits - e) - ldexp(1.0, frac_bits);
  if (m != floor(m)) fail_msg("%s: %.17g is not representable", what, v);
  return sign | ((uint64_t)(e + bias) << frac_bits) | (uint64_t)m;
}

uint64_t tu_pattern(gpureduce_type_t type, double v) {
  switch (type) {
    case GPUREDUCE_F16: return pattern_16(v, 5, 10, "f16");
    case GPUREDUCE_BF16: return pattern_16(v, 8, 7, "bf16");
    case GPUREDUCE_F32:
      if (isnan(v)) return 0x7fffffffu;
      if ((double)(float)v != v) fail_msg("f32: %.17g is not representable", v);
      return tu_f32_bits((float)v);
    case GPUREDUCE_F64:
      if (isnan(v)) return UINT64_C(0x7fffffffffffffff);
      return tu_f64_bits(v);
    default: fail_msg("tu_pattern: %s is not a floating type", TU_TYPE(type)->name); return 0;
  }
}

uint64_t tu_canonical_nan(unsigned bytes) {
  return bytes == 2 ? 0x7fffu : bytes == 4 ? 0x7fffffffu : UINT64_C(0x7fffffffffffffff);
}

static void float_layout(gpureduce_type_t type, int *bits, int *frac) {
  switch (type) {
    case GPUREDUCE_F16: *bits = 16; *frac = 10; break;
    case GPUREDUCE_BF16: *bits = 16; *frac = 7; break;
    case GPUREDUCE_F32: *bits = 32; *frac = 23; break;
    default: *bits = 64; *frac = 52; break;
  }
}

uint64_t tu_nan(gpureduce_type_t type, int negative, int quiet, uint64_t payload) {
  int bits, frac;
  float_layout(type, &bits, &frac);
  const uint64_t top = (uint64_t)1 << (frac - 1);
  uint64_t f = payload & (top - 1);
  if (quiet) f |= top;
  else if (!f) f = 1;
  const uint64_t exp_all = (((uint64_t)1 << (bits - 1 - frac)) - 1) << frac;
  return (negative ? (uint64_t)1 << (bits - 1) : 0) | exp_all | f;
}

uint64_t tu_pos_inf(gpureduce_type_t type) {
  int bits, frac;
  float_layout(type, &bits, &frac);
  return (((uint64_t)1 << (bits - 1 - frac)) - 1) << frac;
}

uint64_t tu_neg_inf(gpureduce_type_t type) {
  int bits, frac;
  float_layout(type, &bits, &frac);
  return tu_pos_inf(type) | (uint64_t)1 << (bits - 1);
}

uint64_t tu_type_max(gpureduce_type_t type) {
  const tu_type *t = TU_TYPE(type);
  if (t->is_float) return tu_pos_inf(type);
  const unsigned b = t->size * 8;
  const uint64_t all = b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1;
  return t->is_signed ? all >> 1 : all;
}

uint64_t tu_type_lowest(gpureduce_type_t type) {
  const tu_type *t = TU_TYPE(type);
  if (t->is_float) return tu_neg_inf(type);
  return t->is_signed ? (uint64_t)1 << (t->size * 8 - 1) : 0;
}

uint64_t tu_int_widen(gpureduce_type_t type, uint64_t bits) {
  const tu_type *t = TU_TYPE(type);
  switch (t->size) {
    case 1: return t->is_signed ? (uint64_t)(int64_t)(int8_t)(uint8_t)bits : (uint8_t)bits;
    case 4: return t->is_signed ? (uint64_t)(int64_t)(int32_t)(uint32_t)bits : (uint32_t)bits;
    default: return bits;
  }
}

/* ---- doc/ORDER.md ---------------------------------------------------------- */

#define ORDER_LANES 256u       /* rule 3: L = 256 */
#define ORDER_TILE_CHUNKS 2048u /* rule 2 */

__attribute__((noinline)) float tu_mul_f(float a, float b) { return a * b; }
__attribute__((noinline)) double tu_mul_d(double a, double b) { return a * b; }
__attribute__((noinline)) static float add_f(float a, float b) { return a + b; }
__attribute__((noinline)) static double add_d(double a, double b) { return a + b; }

/* Rules 3-5 for one accumulator type; the identity is -0 for sums (exact:
 * -0 + x == x for every x) and 1 for the product. */
#define TU_ORDER(SUF, A)                                                             \
  static A op_##SUF(A a, A b, int prod) { return prod ? tu_mul_##SUF(a, b) : add_##SUF(a, b); } \
  /* Rules 3 and 4: one tile. */                                                     \
  static A tile_##SUF(const A *x, size_t count, unsigned v, int prod) {              \
    A lane[ORDER_LANES];                                                             \
    for (unsigned l = 0; l < ORDER_LANES; ++l) {                                     \
      lane[l] = prod ? (A)1 : (A)-0.0;                                               \
      /* chunks l, l+256, ..., l+1792, each chunk's elements in index order */       \
      for (unsigned c = l; c < ORDER_TILE_CHUNKS; c += ORDER_LANES)                  \
        for (unsigned j = 0; j < v; ++j) {                                           \
          const size_t i = (size_t)c * v + j;                                        \
          if (i < count) lane[l] = op_##SUF(lane[l], x[i], prod);                    \
        }                                                                            \
    }                                                                                \
    for (unsigned s = ORDER_LANES / 2; s >= 1; s /= 2)                               \
      for (unsigned l = 0; l < s; ++l) lane[l] = op_##SUF(lane[l], lane[l + s], prod); \
    return lane[0];                                                                  \
  }                                                                                  \
  /* Rule 5: tree(0..T-1) = tree(0..P-1) op tree(P..T-1), P the largest power of   \
   * two below T. */                                                                 \
  static A tree_##SUF(const A *t, size_t count, int prod) {                          \
    if (count == 1) return t[0];                                                     \
    size_t p = 1;                                                                    \
    while (p * 2 < count) p *= 2;                                                    \
    return op_##SUF(tree_##SUF(t, p, prod), tree_##SUF(t + p, count - p, prod), prod); \
  }                                                                                  \
  static A order_##SUF(const A *x, size_t n, unsigned v, int prod) {                 \
    const size_t te = (size_t)ORDER_TILE_CHUNKS * v;                                 \
    const size_t tiles = n / te + (n % te != 0);                                     \
    A *vals = tu_alloc(tiles * sizeof *vals);                                        \
    for (size_t t = 0; t < tiles; ++t) {                                             \
      const size_t left = n - t * te;                                                \
      vals[t] = tile_##SUF(x + t * te, left < te ? left : te, v, prod);              \
    }                                                                                \
    A r = tree_##SUF(vals, tiles, prod);                                             \
    free(vals);                                                                      \
    return r;                                                                        \
  }
TU_ORDER(f, float)
TU_ORDER(d, double)

float tu_order_f(const float *lifted, size_t n, unsigned v, int prod) {
  if (n == 0) return prod ? 1.0f : 0.0f; /* rule 6: +0, not the identity -0 */
  const float r = order_f(lifted, n, v, prod);
  return r != r ? tu_f32_of(0x7fffffffu) : r;
}

double tu_order_d(const double *lifted, size_t n, unsigned v, int prod) {
  if (n == 0) return prod ? 1.0 : 0.0;
  const double r = order_d(lifted, n, v, prod);
  return r != r ? tu_f64_of(UINT64_C(0x7fffffffffffffff)) : r;
}

float tu_order_tile_f(const float *lifted, size_t count, unsigned v, int prod) {
  return tile_f(lifted, count, v, prod);
}

float tu_order_tree_f(const float *tile_values, size_t t, int prod) {
  return tree_f(tile_values, t, prod);
}

void tu_lift_f(gpureduce_type_t type, gpureduce_op_t op, const void *x, size_t n, float *out) {
  const unsigned size = TU_TYPE(type)->size;
  for (size_t i = 0; i < n; ++i) {
    const float e = (float)tu_value(type, tu_load(x, i, size)); /* exact */
    out[i] = op == GPUREDUCE_SUM_ABS ? fabsf(e) : op == GPUREDUCE_SUM_SQUARES ? tu_mul_f(e, e) : e;
  }
}

void tu_lift_d(gpureduce_type_t type, gpureduce_op_t op, const void *x, size_t n, double *out) {
  const unsigned size = TU_TYPE(type)->size;
  for (size_t i = 0; i < n; ++i) {
    const double e = tu_value(type, tu_load(x, i, size));
    out[i] = op == GPUREDUCE_SUM_ABS ? fabs(e) : op == GPUREDUCE_SUM_SQUARES ? tu_mul_d(e, e) : e;
  }
}

/* ---- checks ---------------------------------------------------------------- */

const char *tu_status_name(gpureduce_status_t s) {
  static const char *const names[] = {
      "GPUREDUCE_SUCCESS",          "GPUREDUCE_ERROR_INVALID_ARGUMENT",
      "GPUREDUCE_ERROR_INVALID_HANDLE", "GPUREDUCE_ERROR_UNSUPPORTED",
      "GPUREDUCE_ERROR_WRONG_MEMORY_SPACE", "GPUREDUCE_ERROR_EMPTY_INPUT",
      "GPUREDUCE_ERROR_NO_DEVICE",  "GPUREDUCE_ERROR_OUT_OF_MEMORY",
      "GPUREDUCE_ERROR_CUDA",       "GPUREDUCE_ERROR_TUNE_CACHE"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "(not a status)";
}

static void what_failed(const char *file, int line, const char *fmt, va_list ap) {
  char what[512];
  vsnprintf(what, sizeof what, fmt, ap);
  print_error("%s:%d: check failed: %s\n", file, line, what);
}

void tu_check_bits(const char *file, int line, uint64_t wanted, uint64_t seen,
                   const char *fmt, ...) {
  if (wanted == seen) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    wanted 0x%016" PRIx64 " (%" PRIu64 ", as int64 %" PRId64 ")\n", wanted,
              wanted, (int64_t)wanted);
  print_error("    seen   0x%016" PRIx64 " (%" PRIu64 ", as int64 %" PRId64 ")\n", seen, seen,
              (int64_t)seen);
  _fail(file, line);
}

void tu_check_status(const char *file, int line, gpureduce_status_t wanted,
                     gpureduce_status_t seen, const char *fmt, ...) {
  if (wanted == seen) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    wanted %s (%d)\n    seen   %s (%d)\n", tu_status_name(wanted), (int)wanted,
              tu_status_name(seen), (int)seen);
  _fail(file, line);
}

void tu_check_true(const char *file, int line, int cond, const char *fmt, ...) {
  if (cond) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  _fail(file, line);
}

void tu_check_string(const char *file, int line, const char *wanted, const char *seen,
                     const char *fmt, ...) {
  if ((!wanted && !seen) || (wanted && seen && strcmp(wanted, seen) == 0)) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    wanted \"%s\"\n    seen   \"%s\"\n", wanted ? wanted : "(NULL)",
              seen ? seen : "(NULL)");
  _fail(file, line);
}

void tu_check_near(const char *file, int line, long double ref, double seen, double bound,
                   const char *fmt, ...) {
  const long double err = fabsl((long double)seen - ref);
  if (seen == seen && err <= (long double)bound) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    reference %.21Lg\n    seen      %.17g (bits 0x%016" PRIx64 ")\n"
              "    error     %.6Lg > bound %.6g\n",
              ref, seen, tu_f64_bits(seen), err, bound);
  _fail(file, line);
}

void tu_check_bytes(const char *file, int line, const void *buf, unsigned char byte,
                    size_t len, const char *fmt, ...) {
  const unsigned char *p = buf;
  size_t i = 0;
  while (i < len && p[i] == byte) ++i;
  if (i == len) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    byte %zu of %zu is 0x%02x, wanted 0x%02x\n", i, len, p[i], byte);
  _fail(file, line);
}

/* ---- small things ---------------------------------------------------------- */

void *tu_alloc(size_t bytes) {
  void *p = NULL;
  size_t rounded = (bytes + 255) & ~(size_t)255;
  if (rounded == 0) rounded = 256;
  if (posix_memalign(&p, 256, rounded) != 0 || !p)
    fail_msg("cannot allocate %zu bytes of host memory", bytes);
  return p;
}

unsigned tu_ceil_log2(uint64_t x) {
  unsigned k = 0;
  while (((uint64_t)1 << k) < x) ++k;
  return k;
}

int tu_have_cuda(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return 0;
  return count > 0;
}
