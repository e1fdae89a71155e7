/*
 * elements.h - the element types of gpureduce.h, written out independently
 * of src/: what each type is (size, floating or not, signed or not), the
 * result size of (type, op, flags), doc/ORDER.md's chunk and tile sizes,
 * and bit helpers from IEEE 754 (binary16, bfloat16, binary32, binary64
 * patterns, their values, NaNs, infinities, extremes).
 *
 * No cmocka and no CUDA: the reference (reference.h), the case generators
 * (cases.h) and reduce-bench use it as well as the tests.  Nothing here
 * prints, exits or fails a test; a helper that can meet a value it cannot
 * handle says so in its return value.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_TESTS_ELEMENTS_H
#define GPUREDUCE_TESTS_ELEMENTS_H

#include <stddef.h>
#include <stdint.h>

#include "gpureduce.h"

/* Elements of an array. */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* What gpureduce.h says about a type, written out independently. */
typedef struct tu_type {
  gpureduce_type_t type;
  const char *name; /* as gpureduce_type_name() must give it */
  unsigned size;    /* bytes of one element */
  int is_float;
  int is_signed;    /* integers only */
} tu_type;

extern const tu_type tu_types[GPUREDUCE_TYPE_COUNT];
/* The operations' names, as gpureduce_op_name() must give them. */
extern const char *const tu_op_names[GPUREDUCE_OP_COUNT];
#define TU_TYPE(t) (&tu_types[(int)(t)])

/* Elements per 16-byte chunk (doc/ORDER.md rule 1) and per tile (rule 2). */
unsigned tu_chunk_elems(gpureduce_type_t type);
size_t tu_tile_elems(gpureduce_type_t type);
/* Tiles covering n elements. */
size_t tu_tiles(gpureduce_type_t type, size_t n);

/* Bytes of the result of (type, op, flags) by the table in gpureduce.h;
 * 0 when the combination has no meaning. */
size_t tu_result_size(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);
int tu_is_sum_like(gpureduce_op_t op);
/* The flags values of gpureduce_reduce() whose results the random-data
 * tests walk: none, GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_SOFTMAX_STATS
 * (GPUREDUCE_WITH_VALUE has tests of its own: withvalue.h). */
#define TU_FLAG_VALUES 3
extern const unsigned tu_flag_values[TU_FLAG_VALUES];
/* Accumulator of a floating sum-like operation is double (f64, or f32
 * with GPUREDUCE_ACCUMULATE_F64). */
int tu_acc_is_double(gpureduce_type_t type, unsigned flags);
/* NRM2 or MEAN_VAR (their accumulators are float or double for every
 * type); is that accumulator double (f64, f32 with
 * GPUREDUCE_ACCUMULATE_F64, and every integer type)? */
int tu_is_moment(gpureduce_op_t op);
int tu_moment_is_double(gpureduce_type_t type, unsigned flags);

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
/* Value of an element pattern of a floating type, as a double (exact:
 * every f16, bf16 and f32 value is a double); NaN for an integer type. */
double tu_value(gpureduce_type_t type, uint64_t bits);
/* Pattern of v in a floating type, into *bits: 0 when v is exactly
 * representable (NaN gives the type's canonical quiet NaN), -1 when it is
 * not (it would round or overflow) or the type is not floating. */
int tu_pattern_of(gpureduce_type_t type, double v, uint64_t *bits);
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
/* All ones in the low `size` bytes. */
uint64_t tu_size_mask(unsigned size);
/* Integer pattern read as the signed (sign-extended) or unsigned value,
 * then as uint64_t: what the accumulator of gpureduce.h starts from. */
uint64_t tu_int_widen(gpureduce_type_t type, uint64_t bits);
/* Is the pattern a NaN of its floating type? */
int tu_is_nan(gpureduce_type_t type, uint64_t bits);

/* ceil(log2(x)) for x >= 1. */
unsigned tu_ceil_log2(uint64_t x);

#endif /* GPUREDUCE_TESTS_ELEMENTS_H */
