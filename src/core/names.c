/*
 * core/names.c - names, sizes and status strings: the pure tables of the
 * API, with no CUDA and no state (the tuning-cache test and fuzz target
 * link this file and tune/cache.c alone).  The statuses' names and strings
 * come from the header's one list, GPUREDUCE_STATUS_LIST.
 */
#include <stddef.h>

#include "gpureduce.h"

static const char *const status_strings[GPUREDUCE_STATUS_COUNT] = {
#define GR_STATUS_STRING(name, value, text) [name] = text,
    GPUREDUCE_STATUS_LIST(GR_STATUS_STRING)
#undef GR_STATUS_STRING
};

static const char *const status_names[GPUREDUCE_STATUS_COUNT] = {
#define GR_STATUS_NAME(name, value, text) [name] = #name,
    GPUREDUCE_STATUS_LIST(GR_STATUS_NAME)
#undef GR_STATUS_NAME
};

const char *gpureduce_status_string(gpureduce_status_t status) {
  return (unsigned)status < GPUREDUCE_STATUS_COUNT ? status_strings[status] : "unknown status";
}

const char *gpureduce_status_name(gpureduce_status_t status) {
  return (unsigned)status < GPUREDUCE_STATUS_COUNT ? status_names[status] : NULL;
}

static const char *const op_names[GPUREDUCE_OP_COUNT] = {
    "sum",    "prod",    "min",         "max",  "argmin",
    "argmax", "sum_abs", "sum_squares", "nrm2", "mean_var", "logsumexp", "amax"};
static const char *const type_names[GPUREDUCE_TYPE_COUNT] = {
    "f16", "bf16", "f32", "f64", "i8", "u8", "i32", "u32", "i64", "u64"};
static const unsigned char type_sizes[GPUREDUCE_TYPE_COUNT] = {2, 2, 4, 8, 1, 1, 4, 4, 8, 8};

const char *gpureduce_op_name(gpureduce_op_t op) {
  return (unsigned)op < GPUREDUCE_OP_COUNT ? op_names[op] : NULL;
}

const char *gpureduce_type_name(gpureduce_type_t type) {
  return (unsigned)type < GPUREDUCE_TYPE_COUNT ? type_names[type] : NULL;
}

size_t gpureduce_type_size(gpureduce_type_t type) {
  return (unsigned)type < GPUREDUCE_TYPE_COUNT ? type_sizes[type] : 0;
}

/* The operations with a floating accumulator that GPUREDUCE_ACCUMULATE_F64
 * widens for F32. */
static int takes_f64(gpureduce_op_t op) {
  return op == GPUREDUCE_SUM || op == GPUREDUCE_PROD || op == GPUREDUCE_SUM_ABS ||
         op == GPUREDUCE_SUM_SQUARES || op == GPUREDUCE_NRM2 || op == GPUREDUCE_MEAN_VAR;
}

size_t gpureduce_result_size(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  if ((unsigned)type >= GPUREDUCE_TYPE_COUNT || (unsigned)op >= GPUREDUCE_OP_COUNT) return 0;
  if (flags & ~(GPUREDUCE_ACCUMULATE_F64 | GPUREDUCE_WITH_VALUE | GPUREDUCE_SOFTMAX_STATS))
    return 0;
  if (op == GPUREDUCE_LOGSUMEXP) {
    /* floating types only: a float, a double for F64; two of them with
     * GPUREDUCE_SOFTMAX_STATS ({max, sum}), the one flag it takes */
    if (type > GPUREDUCE_F64 || (flags & ~GPUREDUCE_SOFTMAX_STATS)) return 0;
    const size_t w = type == GPUREDUCE_F64 ? 8 : 4;
    return flags ? 2 * w : w;
  }
  if (flags & GPUREDUCE_SOFTMAX_STATS) return 0;
  const int is_arg = op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX;
  if (flags == (GPUREDUCE_ACCUMULATE_F64 | GPUREDUCE_WITH_VALUE)) return 0;
  if (flags & GPUREDUCE_ACCUMULATE_F64) {
    if (type != GPUREDUCE_F32 || !takes_f64(op)) return 0;
    return op == GPUREDUCE_MEAN_VAR ? 16 : 8;
  }
  /* the uint64_t index, then the element in its own type, zeros to 16 */
  if (flags & GPUREDUCE_WITH_VALUE) return is_arg ? 16 : 0;
  if (is_arg) return 8;
  /* AMAX: the magnitude in the input type, or the unsigned integer of its
   * width */
  if (op == GPUREDUCE_MIN || op == GPUREDUCE_MAX || op == GPUREDUCE_AMAX)
    return type_sizes[type];
  /* the accumulator: float for f16/bf16/f32, double for f64 (and for the
   * integers' NRM2 and MEAN_VAR), 64-bit for the integers' sums; MEAN_VAR
   * two of them */
  const size_t acc =
      type == GPUREDUCE_F16 || type == GPUREDUCE_BF16 || type == GPUREDUCE_F32 ? 4 : 8;
  return op == GPUREDUCE_MEAN_VAR ? 2 * acc : acc;
}

const char *gpureduce_version_string(void) { return GPUREDUCE_VERSION_STRING; }

unsigned gpureduce_version_number(void) { return GPUREDUCE_VERSION_NUMBER; }

