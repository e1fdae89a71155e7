/*
 * elements.c - see elements.h.  Nothing here comes from src/: the element
 * formats follow IEEE 754 and the table of gpureduce.h.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "elements.h"

#include <math.h>
#include <string.h>

const tu_type tu_types[GPUREDUCE_TYPE_COUNT] = {
    {GPUREDUCE_F16, "f16", 2, 1, 1},  {GPUREDUCE_BF16, "bf16", 2, 1, 1},
    {GPUREDUCE_F32, "f32", 4, 1, 1},  {GPUREDUCE_F64, "f64", 8, 1, 1},
    {GPUREDUCE_I8, "i8", 1, 0, 1},    {GPUREDUCE_U8, "u8", 1, 0, 0},
    {GPUREDUCE_I32, "i32", 4, 0, 1},  {GPUREDUCE_U32, "u32", 4, 0, 0},
    {GPUREDUCE_I64, "i64", 8, 0, 1},  {GPUREDUCE_U64, "u64", 8, 0, 0},
};

const char *const tu_op_names[GPUREDUCE_OP_COUNT] = {
    "sum",    "prod",    "min",         "max",  "argmin",
    "argmax", "sum_abs", "sum_squares", "nrm2", "mean_var", "logsumexp", "amax"};

const unsigned tu_flag_values[TU_FLAG_VALUES] = {0, GPUREDUCE_ACCUMULATE_F64,
                                                GPUREDUCE_SOFTMAX_STATS};

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
  if (flags != 0 && flags != GPUREDUCE_ACCUMULATE_F64 && flags != GPUREDUCE_WITH_VALUE &&
      flags != GPUREDUCE_SOFTMAX_STATS)
    return 0;
  const tu_type *t = TU_TYPE(type);
  if (op == GPUREDUCE_LOGSUMEXP) /* floats: float, double for f64; stats two of them */
    return !t->is_float || (flags && flags != GPUREDUCE_SOFTMAX_STATS) ? 0
           : (type == GPUREDUCE_F64 ? 8u : 4u) * (flags ? 2u : 1u);
  if (flags == GPUREDUCE_SOFTMAX_STATS) return 0; /* logsumexp's alone */
  if (flags == GPUREDUCE_ACCUMULATE_F64) /* f32 sum-likes, nrm2, mean_var: double */
    return type != GPUREDUCE_F32 ? 0
           : tu_is_sum_like(op) || op == GPUREDUCE_NRM2 ? 8
           : op == GPUREDUCE_MEAN_VAR ? 16 : 0;
  if (flags == GPUREDUCE_WITH_VALUE) /* the index and the element, 16 bytes */
    return (op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX) ? 16 : 0;
  switch (op) {
    case GPUREDUCE_NRM2: return tu_moment_is_double(type, flags) ? 8 : 4;
    case GPUREDUCE_MEAN_VAR: return tu_moment_is_double(type, flags) ? 16 : 8; /* two values */
    case GPUREDUCE_ARGMIN:
    case GPUREDUCE_ARGMAX: return 8; /* uint64_t index */
    case GPUREDUCE_MIN:
    case GPUREDUCE_MAX:
    case GPUREDUCE_AMAX: return t->size; /* the input type (amax: unsigned for integers) */
    default:
      if (!t->is_float) return 8;                /* int64_t / uint64_t */
      return type == GPUREDUCE_F64 ? 8 : 4;      /* double / float */
  }
}

int tu_is_moment(gpureduce_op_t op) { return op == GPUREDUCE_NRM2 || op == GPUREDUCE_MEAN_VAR; }

int tu_moment_is_double(gpureduce_type_t type, unsigned flags) {
  return !TU_TYPE(type)->is_float || tu_acc_is_double(type, flags);
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
    default: return NAN; /* not a floating type */
  }
}

int tu_is_nan(gpureduce_type_t type, uint64_t bits) {
  const double v = tu_value(type, bits);
  return v != v;
}

/* A 16-bit format with `exp_bits` exponent and `frac_bits` fraction bits. */
static int pattern_16(double v, int exp_bits, int frac_bits, uint64_t *bits) {
  const int bias = (1 << (exp_bits - 1)) - 1, emax_field = (1 << exp_bits) - 1;
  const uint64_t sign = signbit(v) ? (uint64_t)1 << 15 : 0;
  if (isnan(v)) {
    *bits = ((uint64_t)emax_field << frac_bits) | ((uint64_t)1 << (frac_bits - 1));
    return 0;
  }
  if (isinf(v)) {
    *bits = sign | ((uint64_t)emax_field << frac_bits);
    return 0;
  }
  const double a = fabs(v);
  if (a == 0) {
    *bits = sign;
    return 0;
  }
  const int emin = 1 - bias; /* smallest normal exponent */
  int e;
  frexp(a, &e);
  e -= 1; /* a = 1.f * 2^e */
  if (e < emin) {
    const double m = ldexp(a, -(emin - frac_bits)); /* units of the subnormal step */
    if (m != floor(m)) return -1;
    *bits = sign | (uint64_t)m;
    return 0;
  }
  if (e > bias) return -1; /* overflows */
  const double m = ldexp(a, frac_bits - e) - ldexp(1.0, frac_bits);
  if (m != floor(m)) return -1;
  *bits = sign | ((uint64_t)(e + bias) << frac_bits) | (uint64_t)m;
  return 0;
}

int tu_pattern_of(gpureduce_type_t type, double v, uint64_t *bits) {
  switch (type) {
    case GPUREDUCE_F16: return pattern_16(v, 5, 10, bits);
    case GPUREDUCE_BF16: return pattern_16(v, 8, 7, bits);
    case GPUREDUCE_F32:
      if (isnan(v)) {
        *bits = 0x7fffffffu;
        return 0;
      }
      if ((double)(float)v != v) return -1;
      *bits = tu_f32_bits((float)v);
      return 0;
    case GPUREDUCE_F64:
      *bits = isnan(v) ? UINT64_C(0x7fffffffffffffff) : tu_f64_bits(v);
      return 0;
    default: return -1;
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

uint64_t tu_size_mask(unsigned size) {
  return size >= 8 ? UINT64_MAX : ((uint64_t)1 << (size * 8)) - 1;
}

uint64_t tu_type_max(gpureduce_type_t type) {
  const tu_type *t = TU_TYPE(type);
  if (t->is_float) return tu_pos_inf(type);
  const uint64_t all = tu_size_mask(t->size);
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

unsigned tu_ceil_log2(uint64_t x) {
  unsigned k = 0;
  while (k < 64 && ((uint64_t)1 << k) < x) ++k;
  return k;
}
