/*
 * testutil.h - helpers shared by gpureduce's tests: a seeded PRNG, element
 * bit helpers written from IEEE 754 and gpureduce.h (not from src/), an
 * independent implementation of doc/ORDER.md, and checks that read as
 * sentences: check_bits(wanted, seen, "what this checks", ...).
 *
 * Every test program is one cmocka group in TAP mode; a check that fails
 * prints what it checked and both values (hex and decimal) with
 * print_error and fails the current test.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_TESTUTIL_H
#define GPUREDUCE_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gpureduce.h"

#if defined(__GNUC__)
#define TU_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TU_PRINTF(f, a)
#endif

/* Elements of an array. */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* In a test that includes <cuda_runtime_api.h> before this header: fail
 * the current test, with the CUDA error's text, when a CUDA runtime call
 * does not return cudaSuccess. */
#ifdef CUDART_VERSION
#define CK(call)                                                                 \
  do {                                                                           \
    const cudaError_t e_ = (call);                                               \
    if (e_ != cudaSuccess) fail_msg("%s: %s", #call, cudaGetErrorString(e_));    \
  } while (0)
#endif

/* ---- random numbers ------------------------------------------------------- */

/* xoshiro256** seeded through splitmix64. */
typedef struct tu_rng {
  uint64_t s[4];
} tu_rng;

/* The run's seed: $GPUREDUCE_TEST_SEED (decimal or 0x hex), else a fixed
 * default, so every run is reproducible. */
uint64_t tu_seed(void);
/* Print "# seed N" (a TAP comment) once; call it from a group setup, after
 * cmocka printed the plan. */
void tu_announce_seed(void);
/* A generator for one purpose: the run's seed mixed with a label, so tests
 * draw independent streams whatever order they run in. */
void tu_rng_init(tu_rng *r, const char *label);
uint64_t tu_next(tu_rng *r);
/* Uniform in [0, bound) (bound > 0). */
uint64_t tu_below(tu_rng *r, uint64_t bound);
/* Uniform in [0, 1). */
double tu_unit(tu_rng *r);

/* ---- element types ------------------------------------------------------- */

/* What gpureduce.h says about a type, written out independently. */
typedef struct tu_type {
  gpureduce_type_t type;
  const char *name; /* as gpureduce_type_name() must give it */
  unsigned size;    /* bytes of one element */
  int is_float;
  int is_signed;    /* integers only */
} tu_type;

extern const tu_type tu_types[GPUREDUCE_TYPE_COUNT];
extern const char *const tu_op_names[GPUREDUCE_OP_COUNT];
#define TU_TYPE(t) (&tu_types[(int)(t)])

/* Elements per 16-byte chunk (doc/ORDER.md rule 1) and per tile. */
unsigned tu_chunk_elems(gpureduce_type_t type);
size_t tu_tile_elems(gpureduce_type_t type);
/* Tiles covering n elements. */
size_t tu_tiles(gpureduce_type_t type, size_t n);

/* Bytes of the result of (type, op, flags) by the table in gpureduce.h;
 * 0 when the combination has no meaning. */
size_t tu_result_size(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);
int tu_is_sum_like(gpureduce_op_t op);
/* Accumulator of a floating sum-like operation is double (f64, or f32
 * with GPUREDUCE_ACCUMULATE_F64). */
int tu_acc_is_double(gpureduce_type_t type, unsigned flags);

/* Raw element access: `size`-byte little-endian bit patterns. */
uint64_t tu_load(const void *buf, size_t i, unsigned size);
void tu_store(void *buf, size_t i, unsigned size, uint64_t bits);

/* Floating-point bits. */
uint32_t tu_f32_bits(float f);
float tu_f32_of(uint32_t bits);
uint64_t tu_f64_bits(double d);
double tu_f64_of(uint64_t bits);
/* Value of a binary16 / bfloat16 pattern, from the IEEE formula. */
double tu_f16_value(uint16_t h);
double tu_bf16_value(uint16_t b);
/* Value of a floating element pattern of a floating type, as a double
 * (exact: every f16, bf16 and f32 value is a double). */
double tu_value(gpureduce_type_t type, uint64_t bits);
/* Pattern of v in a floating type; v must be representable exactly (the
 * test fails otherwise).  NaN gives the type's canonical quiet NaN. */
uint64_t tu_pattern(gpureduce_type_t type, double v);
/* A NaN of a floating type: sign, quiet (top fraction bit set) or
 * signalling, and `payload` in the other fraction bits (a signalling NaN
 * with a zero payload gets payload 1). */
uint64_t tu_nan(gpureduce_type_t type, int negative, int quiet, uint64_t payload);
/* The canonical quiet NaN gpureduce.h documents for a result of `bytes`
 * bytes: 0x7fff, 0x7fffffff or 0x7fffffffffffffff. */
uint64_t tu_canonical_nan(unsigned bytes);
/* Patterns of +inf, -inf, the largest and lowest values of a type
 * (integers: INT*_MAX / INT*_MIN / UINT*_MAX / 0 as raw patterns). */
uint64_t tu_pos_inf(gpureduce_type_t type);
uint64_t tu_neg_inf(gpureduce_type_t type);
uint64_t tu_type_max(gpureduce_type_t type);
uint64_t tu_type_lowest(gpureduce_type_t type);
/* Integer pattern read as the signed (sign-extended) or unsigned value,
 * then as uint64_t: what the accumulator of gpureduce.h starts from. */
uint64_t tu_int_widen(gpureduce_type_t type, uint64_t bits);
/* Is the float pattern a NaN? */
int tu_is_nan(gpureduce_type_t type, uint64_t bits);

/* ---- doc/ORDER.md, written from the document ------------------------------ */

/*
 * The value of a floating SUM, PROD, SUM_ABS or SUM_SQUARES by the order of
 * doc/ORDER.md, from the lifted elements (already converted to the
 * accumulator type, |x| or x*x rounded as the operation says).  `v` is the
 * chunk width V of the *input* type.  The result is converted as rule 6
 * says: canonical NaN, n == 0 gives +0 (sums) or 1 (product).
 */
float tu_order_f(const float *lifted, size_t n, unsigned v, int prod);
double tu_order_d(const double *lifted, size_t n, unsigned v, int prod);
/* The pieces, for tests that know most tile values without the data:
 * one tile's value from its `count` (<= 2048 v) lifted elements (rules
 * 3 and 4), and the tile tree over `t` tile values (rule 5). */
float tu_order_tile_f(const float *lifted, size_t count, unsigned v, int prod);
float tu_order_tree_f(const float *tile_values, size_t t, int prod);
/* Lifting for the accumulator (float or double) of (type, op). */
void tu_lift_f(gpureduce_type_t type, gpureduce_op_t op, const void *x, size_t n,
               float *out);
void tu_lift_d(gpureduce_type_t type, gpureduce_op_t op, const void *x, size_t n,
               double *out);
/* Rounded products, out of line so that no compiler fuses them with an
 * addition. */
float tu_mul_f(float a, float b);
double tu_mul_d(double a, double b);

/* ---- checks ---------------------------------------------------------------- */

/* Names for messages. */
const char *tu_status_name(gpureduce_status_t s);

void tu_check_bits(const char *file, int line, uint64_t wanted, uint64_t seen,
                   const char *fmt, ...) TU_PRINTF(5, 6);
void tu_check_status(const char *file, int line, gpureduce_status_t wanted,
                     gpureduce_status_t seen, const char *fmt, ...) TU_PRINTF(5, 6);
void tu_check_true(const char *file, int line, int cond, const char *fmt, ...)
    TU_PRINTF(4, 5);
void tu_check_string(const char *file, int line, const char *wanted, const char *seen,
                     const char *fmt, ...) TU_PRINTF(5, 6);
void tu_check_near(const char *file, int line, long double ref, double seen, double bound,
                   const char *fmt, ...) TU_PRINTF(6, 7);
void tu_check_bytes(const char *file, int line, const void *buf, unsigned char byte,
                    size_t len, const char *fmt, ...) TU_PRINTF(6, 7);

/* check_bits(wanted, seen, "what", ...): the same bit pattern (also for
 * integers and indices). */
#define check_bits(w, s, ...) tu_check_bits(__FILE__, __LINE__, (w), (s), __VA_ARGS__)
/* check_status(wanted, seen, "what", ...) */
#define check_status(w, s, ...) tu_check_status(__FILE__, __LINE__, (w), (s), __VA_ARGS__)
/* check_true(condition, "what", ...) */
#define check_true(c, ...) tu_check_true(__FILE__, __LINE__, !!(c), __VA_ARGS__)
/* check_string(wanted, seen, "what", ...): equal strings (NULL only
 * equals NULL). */
#define check_string(w, s, ...) tu_check_string(__FILE__, __LINE__, (w), (s), __VA_ARGS__)
/* check_near(reference, seen, bound, "what", ...): |seen - reference| <=
 * bound and seen is not NaN. */
#define check_near(r, s, b, ...) tu_check_near(__FILE__, __LINE__, (r), (s), (b), __VA_ARGS__)
/* check_bytes(buf, byte, len, "what", ...): every byte equals `byte`
 * (canaries, untouched outputs). */
#define check_bytes(p, c, l, ...) tu_check_bytes(__FILE__, __LINE__, (p), (c), (l), __VA_ARGS__)

/* ---- small things ---------------------------------------------------------- */

/* malloc that fails the test on failure; aligned to 256 bytes. */
void *tu_alloc(size_t bytes);
/* ceil(log2(x)) for x >= 1. */
unsigned tu_ceil_log2(uint64_t x);
/* Is there a usable CUDA device?  (cudaGetDeviceCount: error or 0 = no.) */
int tu_have_cuda(void);

#endif /* GPUREDUCE_TESTUTIL_H */
