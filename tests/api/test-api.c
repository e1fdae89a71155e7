/*
 * test-api.c - the parts of the API that reduce nothing: the status list
 * (GPUREDUCE_STATUS_LIST, GPUREDUCE_STATUS_COUNT), status names and
 * strings, names, sizes, versions, the fixed enum values, handle creation
 * and the NULL-handle answers.  Host only: runs everywhere.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

/* The values gpureduce.h fixes as ABI. */
static void abi_values(void **state) {
  (void)state;
  check_bits(0, GPUREDUCE_SUCCESS, "GPUREDUCE_SUCCESS");
  check_bits(1, GPUREDUCE_ERROR_INVALID_ARGUMENT, "GPUREDUCE_ERROR_INVALID_ARGUMENT");
  check_bits(2, GPUREDUCE_ERROR_INVALID_HANDLE, "GPUREDUCE_ERROR_INVALID_HANDLE");
  check_bits(3, GPUREDUCE_ERROR_UNSUPPORTED, "GPUREDUCE_ERROR_UNSUPPORTED");
  check_bits(4, GPUREDUCE_ERROR_WRONG_MEMORY_SPACE, "GPUREDUCE_ERROR_WRONG_MEMORY_SPACE");
  check_bits(5, GPUREDUCE_ERROR_EMPTY_INPUT, "GPUREDUCE_ERROR_EMPTY_INPUT");
  check_bits(6, GPUREDUCE_ERROR_NO_DEVICE, "GPUREDUCE_ERROR_NO_DEVICE");
  check_bits(7, GPUREDUCE_ERROR_OUT_OF_MEMORY, "GPUREDUCE_ERROR_OUT_OF_MEMORY");
  check_bits(8, GPUREDUCE_ERROR_CUDA, "GPUREDUCE_ERROR_CUDA");
  check_bits(9, GPUREDUCE_ERROR_TUNE_CACHE, "GPUREDUCE_ERROR_TUNE_CACHE");
  check_bits(10, GPUREDUCE_ERROR_INVALID_OFFSETS, "GPUREDUCE_ERROR_INVALID_OFFSETS");
  check_bits(UINT64_MAX, GPUREDUCE_NO_INDEX, "GPUREDUCE_NO_INDEX is UINT64_MAX");
  check_bits(12, GPUREDUCE_OP_COUNT, "GPUREDUCE_OP_COUNT");
  check_bits(10, GPUREDUCE_TYPE_COUNT, "GPUREDUCE_TYPE_COUNT");
  check_bits(0, GPUREDUCE_SUM, "GPUREDUCE_SUM");
  check_bits(1, GPUREDUCE_PROD, "GPUREDUCE_PROD");
  check_bits(4, GPUREDUCE_ARGMIN, "GPUREDUCE_ARGMIN");
  check_bits(7, GPUREDUCE_SUM_SQUARES, "GPUREDUCE_SUM_SQUARES");
  check_bits(8, GPUREDUCE_NRM2, "GPUREDUCE_NRM2");
  check_bits(9, GPUREDUCE_MEAN_VAR, "GPUREDUCE_MEAN_VAR");
  check_bits(10, GPUREDUCE_LOGSUMEXP, "GPUREDUCE_LOGSUMEXP");
  check_bits(11, GPUREDUCE_AMAX, "GPUREDUCE_AMAX");
  check_bits(0, GPUREDUCE_F16, "GPUREDUCE_F16");
  check_bits(3, GPUREDUCE_F64, "GPUREDUCE_F64");
  check_bits(9, GPUREDUCE_U64, "GPUREDUCE_U64");
  check_bits(1, GPUREDUCE_ACCUMULATE_F64, "GPUREDUCE_ACCUMULATE_F64");
  check_bits(4, GPUREDUCE_SOFTMAX_STATS, "GPUREDUCE_SOFTMAX_STATS is bit 2 (the ABI)");
  check_bits((uint64_t)-1, (uint64_t)GPUREDUCE_DEVICE_HOST, "GPUREDUCE_DEVICE_HOST is -1");
  check_bits(1, GPUREDUCE_ORDER_VERSION, "GPUREDUCE_ORDER_VERSION matches doc/ORDER.md");
  check_bits(256, GPUREDUCE_ORDER_LANES, "GPUREDUCE_ORDER_LANES matches doc/ORDER.md");
  check_bits(2048, GPUREDUCE_ORDER_TILE_CHUNKS, "GPUREDUCE_ORDER_TILE_CHUNKS matches doc/ORDER.md");
  check_bits(1, GPUREDUCE_LADDER_FIRST, "GPUREDUCE_LADDER_FIRST");
  check_bits(6, GPUREDUCE_LADDER_LAST, "GPUREDUCE_LADDER_LAST");
}

/* The statuses as gpureduce.h documents them, written out here: the
 * enumerator's name and its value. */
static const struct {
  const char *name;
  int value;
} statuses[] = {
    {"GPUREDUCE_SUCCESS", 0},
    {"GPUREDUCE_ERROR_INVALID_ARGUMENT", 1},
    {"GPUREDUCE_ERROR_INVALID_HANDLE", 2},
    {"GPUREDUCE_ERROR_UNSUPPORTED", 3},
    {"GPUREDUCE_ERROR_WRONG_MEMORY_SPACE", 4},
    {"GPUREDUCE_ERROR_EMPTY_INPUT", 5},
    {"GPUREDUCE_ERROR_NO_DEVICE", 6},
    {"GPUREDUCE_ERROR_OUT_OF_MEMORY", 7},
    {"GPUREDUCE_ERROR_CUDA", 8},
    {"GPUREDUCE_ERROR_TUNE_CACHE", 9},
    {"GPUREDUCE_ERROR_INVALID_OFFSETS", 10},
    {"GPUREDUCE_ERROR_TRANSPORT", 11},
};
/* Values that are no status. */
static const int not_statuses[] = {GPUREDUCE_STATUS_COUNT, GPUREDUCE_STATUS_COUNT + 1, 100,
                                   1000, -1, 0x7fffffff};

/* GPUREDUCE_STATUS_LIST(X) lists exactly the documented statuses, in
 * order, and GPUREDUCE_STATUS_COUNT counts them. */
static void status_list(void **state) {
  (void)state;
#define STATUS_ENTRY(name, value, text) {name, value, #name, text},
  static const struct {
    gpureduce_status_t status;
    int value;
    const char *name, *text;
  } listed[] = {GPUREDUCE_STATUS_LIST(STATUS_ENTRY)};
#undef STATUS_ENTRY
  check_bits(12, GPUREDUCE_STATUS_COUNT, "GPUREDUCE_STATUS_COUNT is 12, the statuses documented");
  check_bits(COUNT(statuses), COUNT(listed), "GPUREDUCE_STATUS_LIST has twelve entries");
  for (size_t k = 0; k < COUNT(listed) && k < COUNT(statuses); ++k) {
    check_string(statuses[k].name, listed[k].name, "entry %zu of GPUREDUCE_STATUS_LIST", k);
    check_bits((uint64_t)statuses[k].value, (uint64_t)listed[k].value,
               "the value GPUREDUCE_STATUS_LIST gives %s", statuses[k].name);
    check_bits((uint64_t)statuses[k].value, (uint64_t)listed[k].status,
               "the enumerator %s has the value documented", statuses[k].name);
    check_string(listed[k].text, gpureduce_status_string(listed[k].status),
                 "gpureduce_status_string(%s) is the TEXT of its GPUREDUCE_STATUS_LIST entry",
                 statuses[k].name);
  }
}

static void status_names(void **state) {
  (void)state;
  for (size_t k = 0; k < COUNT(statuses); ++k)
    check_string(statuses[k].name, gpureduce_status_name((gpureduce_status_t)statuses[k].value),
                 "gpureduce_status_name(%d)", statuses[k].value);
  for (size_t k = 0; k < COUNT(not_statuses); ++k)
    check_string(NULL, gpureduce_status_name((gpureduce_status_t)not_statuses[k]),
                 "gpureduce_status_name(%d): NULL, no status has that value", not_statuses[k]);
}

static void status_strings(void **state) {
  (void)state;
  const char *seen[COUNT(statuses)];
  for (size_t s = 0; s < COUNT(statuses); ++s) {
    const char *name = statuses[s].name;
    const char *str = gpureduce_status_string((gpureduce_status_t)statuses[s].value);
    check_true(str && *str, "the string of %s is not NULL or empty", name);
    check_true(strcmp(str, "unknown status") != 0, "%s has its own string, not \"unknown status\"",
               name);
    for (size_t k = 0; k < s; ++k)
      check_true(strcmp(seen[k], str) != 0, "%s and %s have different strings", statuses[k].name,
                 name);
    seen[s] = str;
  }
  for (size_t k = 0; k < COUNT(not_statuses); ++k)
    check_string("unknown status", gpureduce_status_string((gpureduce_status_t)not_statuses[k]),
                 "the string of status value %d", not_statuses[k]);
  /* the caller-misuse status says what the misuse can be (gpureduce.h) */
  const char *inval = gpureduce_status_string(GPUREDUCE_ERROR_INVALID_ARGUMENT);
  static const char *const causes[] = {"NULL", "misaligned", "flags", "device ordinal"};
  for (size_t k = 0; k < COUNT(causes); ++k)
    check_true(tu_mentions(inval, causes[k]),
               "the string of GPUREDUCE_ERROR_INVALID_ARGUMENT, \"%s\", names the cause \"%s\"",
               inval, causes[k]);
}

static void names_and_sizes(void **state) {
  (void)state;
  for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op)
    check_string(tu_op_names[op], gpureduce_op_name((gpureduce_op_t)op), "name of op %d", op);
  check_string("nrm2", gpureduce_op_name(GPUREDUCE_NRM2), "name of GPUREDUCE_NRM2");
  check_string("mean_var", gpureduce_op_name(GPUREDUCE_MEAN_VAR), "name of GPUREDUCE_MEAN_VAR");
  check_string("logsumexp", gpureduce_op_name(GPUREDUCE_LOGSUMEXP), "name of GPUREDUCE_LOGSUMEXP");
  check_string("amax", gpureduce_op_name(GPUREDUCE_AMAX), "name of GPUREDUCE_AMAX");
  check_string(NULL, gpureduce_op_name((gpureduce_op_t)12), "name of op 12 (unknown)");
  check_string(NULL, gpureduce_op_name((gpureduce_op_t)-1), "name of op -1 (unknown)");
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
    check_string(tu_types[t].name, gpureduce_type_name((gpureduce_type_t)t), "name of type %d", t);
    check_bits(tu_types[t].size, gpureduce_type_size((gpureduce_type_t)t), "bytes of a %s",
               tu_types[t].name);
  }
  check_string(NULL, gpureduce_type_name((gpureduce_type_t)10), "name of type 10 (unknown)");
  check_string(NULL, gpureduce_type_name((gpureduce_type_t)-1), "name of type -1 (unknown)");
  check_bits(0, gpureduce_type_size((gpureduce_type_t)10), "size of type 10 (unknown)");
  check_bits(0, gpureduce_type_size((gpureduce_type_t)-1), "size of type -1 (unknown)");

  check_string("interleaved-divergent",
               gpureduce_ladder_name(GPUREDUCE_LADDER_INTERLEAVED_DIVERGENT),
               "the name gpureduce.h gives rung 1");
  const char *rungs[7] = {0};
  for (int r = GPUREDUCE_LADDER_FIRST; r <= GPUREDUCE_LADDER_LAST; ++r) {
    rungs[r] = gpureduce_ladder_name((gpureduce_ladder_rung_t)r);
    check_true(rungs[r] && *rungs[r], "rung %d has a name", r);
    for (int k = GPUREDUCE_LADDER_FIRST; k < r; ++k)
      check_true(strcmp(rungs[k], rungs[r]) != 0, "rungs %d and %d have different names", k, r);
  }
  check_string(NULL, gpureduce_ladder_name((gpureduce_ladder_rung_t)0), "name of rung 0");
  check_string(NULL, gpureduce_ladder_name((gpureduce_ladder_rung_t)7), "name of rung 7");
}

/* gpureduce_result_size() against the table of gpureduce.h, for every
 * type, op and flag value, plus unknown ones. */
static void result_sizes(void **state) {
  (void)state;
  const unsigned flag_values[] = {0, GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_WITH_VALUE, 3,
                                  GPUREDUCE_SOFTMAX_STATS, 5, 6, 8, 0x80000000u};
  for (int t = -1; t <= GPUREDUCE_TYPE_COUNT; ++t)
    for (int op = -1; op <= GPUREDUCE_OP_COUNT; ++op)
      for (size_t f = 0; f < COUNT(flag_values); ++f) {
        const gpureduce_type_t type = (gpureduce_type_t)t;
        const gpureduce_op_t o = (gpureduce_op_t)op;
        check_bits(tu_result_size(type, o, flag_values[f]),
                   gpureduce_result_size(type, o, flag_values[f]),
                   "result bytes of type %d op %d flags 0x%x", t, op, flag_values[f]);
      }
  /* a few entries spelled out, in case the table above were wrong too */
  check_bits(2, gpureduce_result_size(GPUREDUCE_F16, GPUREDUCE_MIN, 0), "f16 min: 16-bit pattern");
  check_bits(2, gpureduce_result_size(GPUREDUCE_BF16, GPUREDUCE_MAX, 0), "bf16 max: 16-bit pattern");
  check_bits(4, gpureduce_result_size(GPUREDUCE_F16, GPUREDUCE_SUM, 0), "f16 sum: float");
  check_bits(4, gpureduce_result_size(GPUREDUCE_BF16, GPUREDUCE_SUM_SQUARES, 0), "bf16 sum_squares: float");
  check_bits(4, gpureduce_result_size(GPUREDUCE_F32, GPUREDUCE_PROD, 0), "f32 prod: float");
  check_bits(8, gpureduce_result_size(GPUREDUCE_F32, GPUREDUCE_PROD, GPUREDUCE_ACCUMULATE_F64),
             "f32 prod accumulate-f64: double");
  check_bits(8, gpureduce_result_size(GPUREDUCE_F32, GPUREDUCE_SUM_ABS, GPUREDUCE_ACCUMULATE_F64),
             "f32 sum_abs accumulate-f64: double");
  check_bits(0, gpureduce_result_size(GPUREDUCE_F32, GPUREDUCE_MIN, GPUREDUCE_ACCUMULATE_F64),
             "f32 min accumulate-f64: unsupported");
  check_bits(0, gpureduce_result_size(GPUREDUCE_F64, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64),
             "f64 sum accumulate-f64: unsupported");
  check_bits(0, gpureduce_result_size(GPUREDUCE_F16, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64),
             "f16 sum accumulate-f64: unsupported");
  check_bits(1, gpureduce_result_size(GPUREDUCE_I8, GPUREDUCE_MIN, 0), "i8 min: int8_t");
  check_bits(8, gpureduce_result_size(GPUREDUCE_U8, GPUREDUCE_SUM, 0), "u8 sum: uint64_t");
  check_bits(8, gpureduce_result_size(GPUREDUCE_I8, GPUREDUCE_ARGMAX, 0), "i8 argmax: uint64_t");
  check_bits(4, gpureduce_result_size(GPUREDUCE_U32, GPUREDUCE_MAX, 0), "u32 max: uint32_t");
  check_bits(8, gpureduce_result_size(GPUREDUCE_F64, GPUREDUCE_SUM_SQUARES, 0), "f64 sum_squares: double");
  check_bits(2, GPUREDUCE_WITH_VALUE, "GPUREDUCE_WITH_VALUE is bit 1 (the ABI)");
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
    const gpureduce_type_t type = (gpureduce_type_t)t;
    check_bits(16, gpureduce_result_size(type, GPUREDUCE_ARGMIN, GPUREDUCE_WITH_VALUE),
               "%s argmin with value: 16 bytes", tu_types[t].name);
    check_bits(16, gpureduce_result_size(type, GPUREDUCE_ARGMAX, GPUREDUCE_WITH_VALUE),
               "%s argmax with value: 16 bytes", tu_types[t].name);
    check_bits(0, gpureduce_result_size(type, GPUREDUCE_MAX, GPUREDUCE_WITH_VALUE),
               "%s max with value: unsupported", tu_types[t].name);
    check_bits(0, gpureduce_result_size(type, GPUREDUCE_SUM, GPUREDUCE_WITH_VALUE),
               "%s sum with value: unsupported", tu_types[t].name);
    check_bits(0, gpureduce_result_size(type, GPUREDUCE_ARGMIN,
                                        GPUREDUCE_WITH_VALUE | GPUREDUCE_ACCUMULATE_F64),
               "%s argmin with value and accumulate-f64: unsupported", tu_types[t].name);
  }
  check_bits(4, gpureduce_result_size(GPUREDUCE_F16, GPUREDUCE_NRM2, 0), "f16 nrm2: float");
  check_bits(8, gpureduce_result_size(GPUREDUCE_F32, GPUREDUCE_NRM2, GPUREDUCE_ACCUMULATE_F64),
             "f32 nrm2 accumulate-f64: double");
  check_bits(8, gpureduce_result_size(GPUREDUCE_I8, GPUREDUCE_NRM2, 0), "i8 nrm2: double");
  check_bits(8, gpureduce_result_size(GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, 0),
             "f32 mean_var: two floats");
  check_bits(16, gpureduce_result_size(GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, GPUREDUCE_ACCUMULATE_F64),
             "f32 mean_var accumulate-f64: two doubles");
  check_bits(16, gpureduce_result_size(GPUREDUCE_U64, GPUREDUCE_MEAN_VAR, 0),
             "u64 mean_var: two doubles");
  check_bits(0, gpureduce_result_size(GPUREDUCE_F64, GPUREDUCE_NRM2, GPUREDUCE_ACCUMULATE_F64),
             "f64 nrm2 accumulate-f64: unsupported");
  check_bits(0, gpureduce_result_size(GPUREDUCE_I32, GPUREDUCE_MEAN_VAR, GPUREDUCE_ACCUMULATE_F64),
             "i32 mean_var accumulate-f64: unsupported");
  check_bits(2, gpureduce_result_size(GPUREDUCE_F16, GPUREDUCE_AMAX, 0), "f16 amax: 16-bit pattern");
  check_bits(1, gpureduce_result_size(GPUREDUCE_I8, GPUREDUCE_AMAX, 0), "i8 amax: uint8_t");
  check_bits(8, gpureduce_result_size(GPUREDUCE_I64, GPUREDUCE_AMAX, 0), "i64 amax: uint64_t");
  check_bits(0, gpureduce_result_size(GPUREDUCE_F32, GPUREDUCE_AMAX, GPUREDUCE_ACCUMULATE_F64),
             "f32 amax accumulate-f64: unsupported");
  check_bits(0, gpureduce_result_size(GPUREDUCE_F32, GPUREDUCE_AMAX, GPUREDUCE_WITH_VALUE),
             "f32 amax with value: unsupported");
  check_bits(4, gpureduce_result_size(GPUREDUCE_BF16, GPUREDUCE_LOGSUMEXP, 0), "bf16 logsumexp: float");
  check_bits(8, gpureduce_result_size(GPUREDUCE_F64, GPUREDUCE_LOGSUMEXP, 0), "f64 logsumexp: double");
  check_bits(8, gpureduce_result_size(GPUREDUCE_F32, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS),
             "f32 logsumexp softmax stats: two floats");
  check_bits(16, gpureduce_result_size(GPUREDUCE_F64, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS),
             "f64 logsumexp softmax stats: two doubles");
  check_bits(0, gpureduce_result_size(GPUREDUCE_F32, GPUREDUCE_LOGSUMEXP, GPUREDUCE_ACCUMULATE_F64),
             "f32 logsumexp accumulate-f64: not offered");
  check_bits(0, gpureduce_result_size(GPUREDUCE_I32, GPUREDUCE_LOGSUMEXP, 0),
             "i32 logsumexp: unsupported");
  check_bits(0, gpureduce_result_size(GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_SOFTMAX_STATS),
             "f32 sum softmax stats: unsupported");
}

static void versions(void **state) {
  (void)state;
  check_string(GPUREDUCE_VERSION_STRING, gpureduce_version_string(),
               "the run-time version string equals the header's");
  check_bits(GPUREDUCE_VERSION_NUMBER, gpureduce_version_number(),
             "the run-time version number equals the header's");
  check_bits((uint64_t)GPUREDUCE_VERSION_MAJOR * 10000 + GPUREDUCE_VERSION_MINOR * 100 +
                 GPUREDUCE_VERSION_PATCH,
             GPUREDUCE_VERSION_NUMBER, "the version number is major * 10000 + minor * 100 + patch");
  char s[64];
  snprintf(s, sizeof s, "%d.%d.%d", GPUREDUCE_VERSION_MAJOR, GPUREDUCE_VERSION_MINOR,
           GPUREDUCE_VERSION_PATCH);
  check_string(s, GPUREDUCE_VERSION_STRING, "the version string is major.minor.patch");
}

static void create_and_destroy(void **state) {
  (void)state;
  gpureduce_handle_t sentinel = (gpureduce_handle_t)(uintptr_t)0x5a5a5a5a, h = sentinel;
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, gpureduce_create(NULL, GPUREDUCE_DEVICE_HOST),
               "gpureduce_create with a NULL handle pointer");
  const int bad_devices[] = {-5, -2, -1000};
  for (size_t k = 0; k < COUNT(bad_devices); ++k) {
    check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, gpureduce_create(&h, bad_devices[k]),
                 "gpureduce_create with device %d", bad_devices[k]);
    check_true(h == sentinel, "gpureduce_create(device %d) leaves the handle untouched",
               bad_devices[k]);
  }
  check_status(GPUREDUCE_ERROR_NO_DEVICE, gpureduce_create(&h, 100000),
               "gpureduce_create for CUDA device 100000");
  check_true(h == sentinel, "a failed gpureduce_create leaves the handle untouched");
  if (!tu_have_cuda()) {
    check_status(GPUREDUCE_ERROR_NO_DEVICE, gpureduce_create(&h, 0),
                 "gpureduce_create for CUDA device 0 on a machine without a usable GPU");
    check_true(h == sentinel, "gpureduce_create(0) without a GPU leaves the handle untouched");
  }
  check_status(GPUREDUCE_SUCCESS, gpureduce_destroy(NULL), "gpureduce_destroy(NULL) is a no-op");

  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&h, GPUREDUCE_DEVICE_HOST),
               "gpureduce_create for the host backend");
  check_true(h != sentinel && h != NULL, "gpureduce_create returned a handle");
  const char *m = gpureduce_last_message(h);
  check_true(m != NULL && *m == '\0', "a new handle's last message is empty");
  check_status(GPUREDUCE_SUCCESS, gpureduce_get_async_error(h),
               "a new handle has no asynchronous error");
  int dev = 12345;
  check_status(GPUREDUCE_SUCCESS, gpureduce_get_device(h, &dev), "gpureduce_get_device");
  check_bits((uint64_t)(int64_t)GPUREDUCE_DEVICE_HOST, (uint64_t)(int64_t)dev,
             "the host handle's device is GPUREDUCE_DEVICE_HOST");
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, gpureduce_get_device(h, NULL),
               "gpureduce_get_device with a NULL device pointer");
  check_status(GPUREDUCE_SUCCESS, gpureduce_set_stream(h, (void *)(uintptr_t)0x1234),
               "the host backend accepts (and ignores) a stream");
  /* the quick example of gpureduce.h, and gpureduce_sum_f32's */
  float x[3] = {1.5f, -2.0f, 4.0f}, sum = 0;
  check_status(GPUREDUCE_SUCCESS, gpureduce_reduce(x, &sum, 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0, h),
               "the quick example of gpureduce.h");
  check_bits(tu_f32_bits(3.5f), tu_f32_bits(sum), "the quick example's sum is 3.5");
  float y[3] = {1, 2, 3.5f};
  check_status(GPUREDUCE_SUCCESS, gpureduce_sum_f32(y, &sum, 3, h), "gpureduce_sum_f32 {1, 2, 3.5}");
  check_bits(tu_f32_bits(6.5f), tu_f32_bits(sum), "gpureduce_sum_f32's example gives 6.5");
  check_status(GPUREDUCE_SUCCESS, gpureduce_destroy(h), "gpureduce_destroy of the host handle");

  /* two handles are independent */
  gpureduce_handle_t a = NULL, b = NULL;
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&a, GPUREDUCE_DEVICE_HOST), "first handle");
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&b, GPUREDUCE_DEVICE_HOST), "second handle");
  check_true(a != b, "two handles are different objects");
  check_status(GPUREDUCE_ERROR_UNSUPPORTED,
               gpureduce_reduce(x, &sum, 3, GPUREDUCE_F32, (gpureduce_op_t)99, 0, a),
               "a failing call on the first handle");
  check_true(*gpureduce_last_message(a) != '\0', "the first handle has a message");
  check_true(*gpureduce_last_message(b) == '\0', "the second handle's message stays empty");
  gpureduce_destroy(a);
  gpureduce_destroy(b);
}

static void null_handle(void **state) {
  (void)state;
  float x[4] = {1, 2, 3, 4}, out = 7.0f, ws[4];
  int dev = 77;
  unsigned launches = 99;
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE, gpureduce_set_stream(NULL, NULL),
               "gpureduce_set_stream(NULL handle)");
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE, gpureduce_get_device(NULL, &dev),
               "gpureduce_get_device(NULL handle)");
  check_bits(77, (uint64_t)dev, "gpureduce_get_device(NULL handle) leaves *device untouched");
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_reduce(x, &out, 4, GPUREDUCE_F32, GPUREDUCE_SUM, 0, NULL),
               "gpureduce_reduce(NULL handle)");
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE, gpureduce_sum_f32(x, &out, 4, NULL),
               "gpureduce_sum_f32(NULL handle)");
  const uint64_t offsets[2] = {0, 4};
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_reduce_segments(x, &out, offsets, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
                                         NULL),
               "gpureduce_reduce_segments(NULL handle)");
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE, gpureduce_get_async_error(NULL),
               "gpureduce_get_async_error(NULL handle)");
  check_bits(tu_f32_bits(7.0f), tu_f32_bits(out), "a NULL handle leaves the output untouched");
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_ladder_sum_f32(GPUREDUCE_LADDER_SEQUENTIAL, x, &out, 4, ws, sizeof ws,
                                        &launches, NULL),
               "gpureduce_ladder_sum_f32(NULL handle)");
  check_bits(tu_f32_bits(7.0f), tu_f32_bits(out), "the ladder with a NULL handle writes nothing");
  check_bits(99, launches, "the ladder with a NULL handle leaves *launches untouched");
  unsigned blocks = 5;
  gpureduce_tune_cache_t cache = GPUREDUCE_TUNE_CACHE_CORRUPT;
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_autotune(NULL, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 0, NULL, 0, NULL),
               "gpureduce_autotune(NULL handle)");
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_get_blocks(NULL, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 100, &blocks, NULL),
               "gpureduce_get_blocks(NULL handle)");
  check_bits(5, blocks, "gpureduce_get_blocks(NULL handle) leaves *blocks untouched");
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_set_blocks(NULL, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 100, 4),
               "gpureduce_set_blocks(NULL handle)");
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE, gpureduce_tune_cache_state(NULL, &cache, NULL),
               "gpureduce_tune_cache_state(NULL handle)");
  const char *m = gpureduce_last_message(NULL);
  check_true(m != NULL, "gpureduce_last_message(NULL) is not NULL");
  check_string(gpureduce_status_string(GPUREDUCE_ERROR_INVALID_HANDLE), m,
               "gpureduce_last_message(NULL) is the invalid-handle status string");
}

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(abi_values),   cmocka_unit_test(status_list),
      cmocka_unit_test(status_names), cmocka_unit_test(status_strings),
      cmocka_unit_test(names_and_sizes), cmocka_unit_test(result_sizes),
      cmocka_unit_test(versions),     cmocka_unit_test(create_and_destroy),
      cmocka_unit_test(null_handle),
  };
  return cmocka_run_group_tests_name("test-api", tests, tu_seed_setup, NULL);
}
