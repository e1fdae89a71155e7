/*
 * test-batched-args.c - argument errors of gpureduce_reduce_batched() on a
 * host handle: each class returns its documented status, leaves the
 * output (a canary-filled buffer) untouched and sets a last message that
 * names what is wrong; and the calls right at the edge of each check
 * succeed.  Runs everywhere.
 *
 * Some cases pass addresses no buffer has (near 0 or near UINTPTR_MAX):
 * the checks refuse them before anything is read or written.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define FILL 0xA7
#define OUT_BYTES 4096 /* room for 500 8-byte results, and a canary */

static gpureduce_handle_t H;
static unsigned char *in_buf;  /* 4096 bytes: floats 1, 2, 3, ... */
static unsigned char *out_buf; /* OUT_BYTES */

static int group_setup(void **state) {
  (void)state;
  tu_announce_seed();
  return tu_args_open(&H, &in_buf, &out_buf, OUT_BYTES);
}

static int group_teardown(void **state) {
  (void)state;
  return tu_args_close(H, in_buf, out_buf);
}

struct call {
  const void *input;
  void *output; /* NULL: out_buf + out_offset */
  size_t out_offset, batch, n;
  int64_t batch_stride, element_stride;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
};

static gpureduce_status_t run(const struct call *c) {
  memset(out_buf, FILL, OUT_BYTES);
  return gpureduce_reduce_batched(c->input, c->output ? c->output : out_buf + c->out_offset,
                                  c->batch, c->n, c->batch_stride, c->element_stride, c->type,
                                  c->op, c->flags, H);
}

/* One call that must fail: its status, the output buffer untouched, a
 * message that mentions `word`. */
static void expect_error(const char *what, gpureduce_status_t wanted, struct call c,
                         const char *word) {
  check_failed(H, wanted, run(&c), out_buf, FILL, OUT_BYTES, word, what);
}

/* One call that must succeed (the other side of a check's edge). */
static void expect_success(const char *what, struct call c) {
  check_status(GPUREDUCE_SUCCESS, run(&c), "%s (%s)", what, gpureduce_last_message(H));
  check_true(*gpureduce_last_message(H) == '\0', "%s: the message is empty", what);
}

#define CALL(...) ((struct call){__VA_ARGS__})

static void null_handle_and_kinds(void **state) {
  (void)state;
  memset(out_buf, FILL, OUT_BYTES);
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_reduce_batched(in_buf, out_buf, 3, 4, 4, 1, GPUREDUCE_F32,
                                        GPUREDUCE_SUM, 0, NULL),
               "a NULL handle");
  check_bytes(out_buf, FILL, OUT_BYTES, "a NULL handle: the output is untouched");
  /* the checks of gpureduce_reduce(), in its order, before batch == 0 */
  expect_error("unknown type 10", GPUREDUCE_ERROR_UNSUPPORTED,
               CALL(in_buf, NULL, 0, 3, 4, 4, 1, (gpureduce_type_t)10, GPUREDUCE_SUM, 0), "type");
  expect_error("unknown op 12", GPUREDUCE_ERROR_UNSUPPORTED,
               CALL(in_buf, NULL, 0, 3, 4, 4, 1, GPUREDUCE_F32, (gpureduce_op_t)12, 0), "op");
  expect_error("unknown type with batch 0", GPUREDUCE_ERROR_UNSUPPORTED,
               CALL(NULL, NULL, 0, 0, 4, 4, 1, (gpureduce_type_t)-1, GPUREDUCE_SUM, 0), "type");
  expect_error("flags 0x8", GPUREDUCE_ERROR_INVALID_ARGUMENT,
               CALL(in_buf, NULL, 0, 3, 4, 4, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 8), "flag");
  expect_error("GPUREDUCE_WITH_VALUE on f32 sum", GPUREDUCE_ERROR_UNSUPPORTED,
               CALL(in_buf, NULL, 0, 3, 4, 4, 1, GPUREDUCE_F32, GPUREDUCE_SUM,
                    GPUREDUCE_WITH_VALUE),
               "with_value");
  expect_error("GPUREDUCE_WITH_VALUE on i32 max", GPUREDUCE_ERROR_UNSUPPORTED,
               CALL(in_buf, NULL, 0, 3, 4, 4, 1, GPUREDUCE_I32, GPUREDUCE_MAX,
                    GPUREDUCE_WITH_VALUE),
               "with_value");
  expect_error("GPUREDUCE_WITH_VALUE on f32 sum with batch 0", GPUREDUCE_ERROR_UNSUPPORTED,
               CALL(NULL, NULL, 0, 0, 4, 4, 1, GPUREDUCE_F32, GPUREDUCE_SUM,
                    GPUREDUCE_WITH_VALUE),
               "with_value");
  expect_error("GPUREDUCE_WITH_VALUE | GPUREDUCE_ACCUMULATE_F64 on f32 argmin",
               GPUREDUCE_ERROR_UNSUPPORTED,
               CALL(in_buf, NULL, 0, 3, 4, 4, 1, GPUREDUCE_F32, GPUREDUCE_ARGMIN,
                    GPUREDUCE_WITH_VALUE | GPUREDUCE_ACCUMULATE_F64),
               "f64");
  expect_error("GPUREDUCE_WITH_VALUE argmin of empty vectors", GPUREDUCE_ERROR_EMPTY_INPUT,
               CALL(in_buf, NULL, 0, 3, 0, 4, 1, GPUREDUCE_F32, GPUREDUCE_ARGMIN,
                    GPUREDUCE_WITH_VALUE),
               "argmin");
  expect_error("GPUREDUCE_WITH_VALUE output aligned to 8 bytes, not 16",
               GPUREDUCE_ERROR_INVALID_ARGUMENT,
               CALL(in_buf, NULL, 8, 3, 4, 4, 1, GPUREDUCE_F32, GPUREDUCE_ARGMAX,
                    GPUREDUCE_WITH_VALUE),
               "output");
  expect_error("GPUREDUCE_ACCUMULATE_F64 on f32 argmax", GPUREDUCE_ERROR_UNSUPPORTED,
               CALL(in_buf, NULL, 0, 3, 4, 4, 1, GPUREDUCE_F32, GPUREDUCE_ARGMAX,
                    GPUREDUCE_ACCUMULATE_F64),
               "f64");
  expect_error("GPUREDUCE_ACCUMULATE_F64 on f64 sum", GPUREDUCE_ERROR_UNSUPPORTED,
               CALL(in_buf, NULL, 0, 3, 4, 4, 1, GPUREDUCE_F64, GPUREDUCE_SUM,
                    GPUREDUCE_ACCUMULATE_F64),
               "f64");
}

static void empty_batch(void **state) {
  (void)state;
  /* batch 0 succeeds and writes nothing, whatever the pointers, n and
   * strides */
  const struct call calls[] = {
      CALL(NULL, NULL, 0, 0, 5, 5, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0),
      CALL(NULL, NULL, 0, 0, 0, 0, 0, GPUREDUCE_F32, GPUREDUCE_ARGMIN, 0),
      CALL(in_buf + 1, NULL, 3, 0, SIZE_MAX, INT64_MIN, INT64_MAX, GPUREDUCE_F64,
           GPUREDUCE_ARGMAX, 0),
  };
  for (size_t k = 0; k < COUNT(calls); ++k) {
    check_status(GPUREDUCE_SUCCESS, run(&calls[k]), "batch 0, case %zu", k);
    check_bytes(out_buf, FILL, OUT_BYTES, "batch 0, case %zu: nothing written", k);
  }
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_batched(NULL, NULL, 0, 7, 7, 1, GPUREDUCE_U8, GPUREDUCE_MAX, 0,
                                        H),
               "batch 0 with NULL input and output");
}

static void pointers(void **state) {
  (void)state;
  memset(out_buf, FILL, OUT_BYTES);
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT,
               gpureduce_reduce_batched(in_buf, NULL, 3, 4, 4, 1, GPUREDUCE_F32, GPUREDUCE_SUM,
                                        0, H),
               "NULL output");
  check_true(tu_mentions(gpureduce_last_message(H), "output"),
             "NULL output: the message \"%s\" mentions \"output\"", gpureduce_last_message(H));
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT,
               gpureduce_reduce_batched(NULL, NULL, 3, 0, 4, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
                                        H),
               "NULL output with n = 0");
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t)
    expect_error("NULL input with n = 4", GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(NULL, NULL, 0, 3, 4, 4, 1, (gpureduce_type_t)t, GPUREDUCE_MAX, 0),
                 "input");
  /* NULL input with n == 0 reads nothing */
  expect_success("NULL input with n = 0",
                 CALL(NULL, NULL, 0, 3, 0, 4, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0));
}

static void misaligned(void **state) {
  (void)state;
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
    const unsigned size = tu_types[t].size;
    if (size == 1) continue;
    const size_t offs[] = {1, size / 2, size + 1};
    for (size_t k = 0; k < COUNT(offs); ++k) {
      char what[96];
      snprintf(what, sizeof what, "%s input at %zu bytes past an aligned address",
               tu_types[t].name, offs[k]);
      expect_error(what, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   CALL(in_buf + offs[k], NULL, 0, 3, 4, 4, 1, (gpureduce_type_t)t,
                        GPUREDUCE_SUM, 0),
                   "input");
    }
  }
  const struct {
    gpureduce_type_t type;
    gpureduce_op_t op;
    unsigned flags;
  } outs[] = {{GPUREDUCE_F32, GPUREDUCE_ARGMIN, 0},
              {GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
              {GPUREDUCE_I8, GPUREDUCE_SUM, 0},
              {GPUREDUCE_F64, GPUREDUCE_MAX, 0},
              {GPUREDUCE_F32, GPUREDUCE_SUM, 0},
              {GPUREDUCE_F16, GPUREDUCE_MIN, 0}};
  for (size_t k = 0; k < COUNT(outs); ++k) {
    const size_t rs = tu_result_size(outs[k].type, outs[k].op, outs[k].flags);
    for (size_t off = 1; off < rs; off *= 2) {
      char what[128];
      snprintf(what, sizeof what, "%s %s: output %zu bytes past an aligned address",
               tu_types[outs[k].type].name, tu_op_names[outs[k].op], off);
      expect_error(what, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   CALL(in_buf, NULL, off, 3, 4, 4, 1, outs[k].type, outs[k].op, outs[k].flags),
                   "output");
    }
  }
  /* byte results at odd addresses, byte inputs at any address */
  expect_success("u8 max into an odd output address, from an odd input address",
                 CALL(in_buf + 3, NULL, 1, 3, 4, 5, 1, GPUREDUCE_U8, GPUREDUCE_MAX, 0));
}

static void empty_vectors(void **state) {
  (void)state;
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
    expect_error("argmin of batch 3 of n = 0", GPUREDUCE_ERROR_EMPTY_INPUT,
                 CALL(in_buf, NULL, 0, 3, 0, 4, 1, (gpureduce_type_t)t, GPUREDUCE_ARGMIN, 0),
                 "argmin");
    expect_error("argmax of batch 1 of n = 0, NULL input", GPUREDUCE_ERROR_EMPTY_INPUT,
                 CALL(NULL, NULL, 0, 1, 0, 0, 0, (gpureduce_type_t)t, GPUREDUCE_ARGMAX, 0),
                 "argmax");
    expect_error("mean_var of batch 2 of n = 0", GPUREDUCE_ERROR_EMPTY_INPUT,
                 CALL(in_buf, NULL, 0, 2, 0, 4, 1, (gpureduce_type_t)t, GPUREDUCE_MEAN_VAR, 0),
                 "mean_var");
  }
  /* n == 0 reads nothing: no stride can overflow, no span can overlap */
  expect_success("sum of batch 3 of n = 0, strides INT64_MAX and INT64_MIN",
                 CALL(in_buf, NULL, 0, 3, 0, INT64_MAX, INT64_MIN, GPUREDUCE_F32, GPUREDUCE_SUM,
                      0));
  expect_success("sum of batch 3 of n = 0 into the input's own buffer",
                 CALL(out_buf, NULL, 0, 3, 0, 1, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0));
  check_bits(0, tu_load(out_buf, 2, 4), "the third empty sum is +0");
  check_bytes(out_buf + 12, FILL, OUT_BYTES - 12, "three empty sums write 12 bytes");
}

/* Element offsets b*batch_stride + i*element_stride over the box, their
 * byte offsets, and the input's address range. */
static void offset_overflow(void **state) {
  (void)state;
  const int64_t big = INT64_MAX / 2 + 1; /* 2^62 */
  struct {
    const char *what;
    struct call c;
    const char *word;
  } cases[] = {
      {"(batch - 1) * batch_stride overflows",
       CALL(in_buf, NULL, 0, 3, 4, INT64_MAX, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0), "offset"},
      {"(batch - 1) * batch_stride overflows downwards",
       CALL(in_buf, NULL, 0, 3, 4, INT64_MIN / 2 - 1, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0),
       "offset"},
      {"(n - 1) * element_stride overflows",
       CALL(in_buf, NULL, 0, 1, 3, 0, INT64_MAX, GPUREDUCE_F32, GPUREDUCE_SUM, 0), "offset"},
      {"(n - 1) * element_stride overflows downwards",
       CALL(in_buf, NULL, 0, 1, 3, 0, INT64_MIN / 2 - 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0),
       "offset"},
      {"batch - 1 above INT64_MAX with a nonzero batch_stride",
       CALL(in_buf, NULL, 0, (size_t)INT64_MAX + 2, 1, 1, 1, GPUREDUCE_U8, GPUREDUCE_MAX, 0),
       "offset"},
      {"n - 1 above INT64_MAX with a nonzero element_stride",
       CALL(in_buf, NULL, 0, 1, (size_t)INT64_MAX + 2, 0, -1, GPUREDUCE_U8, GPUREDUCE_MAX, 0),
       "offset"},
      {"the two highest offsets add up past INT64_MAX",
       CALL(in_buf, NULL, 0, 2, 2, big, big, GPUREDUCE_U8, GPUREDUCE_MAX, 0), "offset"},
      {"the two lowest offsets add up past INT64_MIN",
       CALL(in_buf, NULL, 0, 2, 3, INT64_MIN / 2 + 1, -big / 2 - 1, GPUREDUCE_U8,
            GPUREDUCE_MAX, 0),
       "offset"},
      {"element offsets fit but their f64 byte offsets do not",
       CALL(in_buf, NULL, 0, 2, 1, INT64_MAX / 4, 1, GPUREDUCE_F64, GPUREDUCE_MAX, 0),
       "byte"},
      {"f32 byte offsets below INT64_MIN",
       CALL(in_buf, NULL, 0, 2, 1, INT64_MIN / 4 - 1, 1, GPUREDUCE_F32, GPUREDUCE_MAX, 0),
       "byte"},
      /* addresses: the lowest element below address 0 */
      {"rows from address 16 down past 0",
       CALL((const void *)(uintptr_t)16, NULL, 0, 2, 1, -8, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0),
       "wrap"},
      {"a column reversed from the input down past 0",
       CALL(in_buf, NULL, 0, 1, 2, 0, -(int64_t)((uintptr_t)in_buf / 4) - 1, GPUREDUCE_F32,
            GPUREDUCE_SUM, 0),
       "wrap"},
      /* the highest element's last byte past UINTPTR_MAX */
      {"5 floats from 16 bytes below the top of the address space",
       CALL((const void *)(UINTPTR_MAX - 15), NULL, 0, 1, 5, 0, 1, GPUREDUCE_F32, GPUREDUCE_SUM,
            0),
       "wrap"},
  };
  for (size_t k = 0; k < COUNT(cases); ++k)
    expect_error(cases[k].what, GPUREDUCE_ERROR_INVALID_ARGUMENT, cases[k].c, cases[k].word);
}

/* batch * result size, the output's address range. */
static void output_size(void **state) {
  (void)state;
  expect_error("batch * 4-byte results overflows size_t", GPUREDUCE_ERROR_INVALID_ARGUMENT,
               CALL(in_buf, NULL, 0, SIZE_MAX / 4 + 1, 1, 0, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0),
               "overflow");
  expect_error("batch * 8-byte results overflows size_t, n = 0",
               GPUREDUCE_ERROR_INVALID_ARGUMENT,
               CALL(in_buf, NULL, 0, SIZE_MAX / 8 + 1, 0, 1, 1, GPUREDUCE_F64, GPUREDUCE_SUM, 0),
               "overflow");
  expect_error("2 results from 4 bytes below the top of the address space",
               GPUREDUCE_ERROR_INVALID_ARGUMENT,
               CALL(in_buf, (void *)(UINTPTR_MAX - 3), 0, 2, 4, 0, 1, GPUREDUCE_F32,
                    GPUREDUCE_SUM, 0),
               "wrap");
}

/* The output against the input's span, [lowest element, highest element
 * + its size): 3 rows of 4 elements 8 apart from in_buf + 400, whose span
 * is 80 bytes of floats, 20 of bytes. */
static void overlap(void **state) {
  (void)state;
  unsigned char *const base = in_buf + 400;
  const struct {
    const char *what;
    struct call c;
  } bad[] = {
      {"the results on row 0's first element", CALL(base, base, 0, 3, 4, 8, 1, GPUREDUCE_F32,
                                                    GPUREDUCE_SUM, 0)},
      {"the results on row 0's last element", CALL(base, base + 12, 0, 3, 4, 8, 1,
                                                   GPUREDUCE_F32, GPUREDUCE_SUM, 0)},
      {"the results in the gap after row 0 (the span is checked, conservatively)",
       CALL(base, base + 16, 0, 3, 4, 8, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0)},
      {"the results ending on the span's first byte",
       CALL(base, base - 2, 0, 3, 4, 8, 1, GPUREDUCE_U8, GPUREDUCE_MAX, 0)},
      {"the results starting on the span's last byte",
       CALL(base, base + 19, 0, 3, 4, 8, 1, GPUREDUCE_U8, GPUREDUCE_MAX, 0)},
      {"the results covering the whole span", CALL(base, base - 400, 0, 100, 4, 8, 1,
                                                   GPUREDUCE_F64, GPUREDUCE_SUM, 0)},
      {"rows from the last one up (negative batch_stride), the results on row 0",
       CALL(base + 64, base + 64, 0, 3, 4, -8, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0)},
      {"reversed rows (negative element_stride), the results on the lowest element",
       CALL(base + 12, base, 0, 3, 4, 8, -1, GPUREDUCE_F32, GPUREDUCE_SUM, 0)},
      {"columns (element_stride 8), the results between two columns' elements",
       CALL(base, base + 20, 0, 3, 4, 1, 8, GPUREDUCE_F32, GPUREDUCE_SUM, 0)},
  };
  for (size_t k = 0; k < COUNT(bad); ++k) {
    memcpy(in_buf + 400, in_buf, 80);
    expect_error(bad[k].what, GPUREDUCE_ERROR_INVALID_ARGUMENT, bad[k].c, "overlap");
    check_true(memcmp(in_buf + 400, in_buf, 80) == 0, "%s: the input is untouched",
               bad[k].what);
  }
  /* right next to the span is fine */
  const struct {
    const char *what;
    struct call c;
  } good[] = {
      {"the results right after the span", CALL(base, base + 80, 0, 3, 4, 8, 1, GPUREDUCE_F32,
                                                GPUREDUCE_SUM, 0)},
      {"the results ending right before the span",
       CALL(base, base - 12, 0, 3, 4, 8, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0)},
      {"byte results ending right before the span",
       CALL(base, base - 3, 0, 3, 4, 8, 1, GPUREDUCE_U8, GPUREDUCE_MAX, 0)},
  };
  for (size_t k = 0; k < COUNT(good); ++k) expect_success(good[k].what, good[k].c);
}

/* What the edge cases computed, and the handle afterwards. */
static void results_after_errors(void **state) {
  (void)state;
  /* rows of 4 floats 1..1024 at ld 8, from the last row up, reversed */
  struct call c = CALL(in_buf + 4 * (8 * 2 + 3), NULL, 0, 3, 4, -8, -1, GPUREDUCE_F32,
                       GPUREDUCE_SUM, 0);
  check_status(GPUREDUCE_SUCCESS, run(&c), "3 reversed rows from the last one up");
  for (size_t b = 0; b < 3; ++b) {
    /* row 2 - b holds floats 8(2 - b) + 1 .. 8(2 - b) + 4 */
    const float first = (float)(8 * (2 - b) + 1);
    check_bits(tu_f32_bits(4 * first + 6), tu_load(out_buf, b, 4),
               "result %zu is the sum of row %zu", b, 2 - b);
  }
  check_bytes(out_buf + 12, FILL, OUT_BYTES - 12, "3 results write 12 bytes");
  c = CALL(in_buf, NULL, 0, 5, 3, 0, 2, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0);
  check_status(GPUREDUCE_SUCCESS, run(&c), "argmax of 5 copies of {1, 3, 5}");
  for (size_t b = 0; b < 5; ++b)
    check_bits(2, tu_load(out_buf, b, 8), "argmax %zu is the index within the vector, 2", b);
}

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(null_handle_and_kinds), cmocka_unit_test(empty_batch),
      cmocka_unit_test(pointers),              cmocka_unit_test(misaligned),
      cmocka_unit_test(empty_vectors),         cmocka_unit_test(offset_overflow),
      cmocka_unit_test(output_size),           cmocka_unit_test(overlap),
      cmocka_unit_test(results_after_errors),
  };
  return cmocka_run_group_tests_name("test-batched-args", tests, group_setup, group_teardown);
}
