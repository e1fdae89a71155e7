/*
 * test-dot-args.c - argument errors of gpureduce_dot() and
 * gpureduce_dot_batched() on a host handle: each class returns its
 * documented status, leaves the output (a canary-filled buffer) untouched
 * and sets a last message that names what is wrong; and the calls right at
 * the edge of each check succeed.  Runs everywhere.
 *
 * Some cases pass addresses no buffer has (near UINTPTR_MAX): the checks
 * refuse them before anything is read or written.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define FILL 0xA7
#define OUT_BYTES 4096

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
  const void *x, *y;
  void *output; /* NULL: out_buf */
  size_t batch, n;
  int64_t x_stride, y_stride;
  gpureduce_type_t type;
  unsigned flags;
  int one; /* gpureduce_dot (batch and strides unused) */
};

static gpureduce_status_t run(const struct call *c) {
  memset(out_buf, FILL, OUT_BYTES);
  void *out = c->output ? c->output : out_buf;
  if (c->one) return gpureduce_dot(c->x, c->y, out, c->n, c->type, c->flags, H);
  return gpureduce_dot_batched(c->x, c->y, out, c->batch, c->n, c->x_stride, c->y_stride,
                               c->type, c->flags, H);
}

static void expect_error(const char *what, gpureduce_status_t wanted, struct call c,
                         const char *word) {
  check_failed(H, wanted, run(&c), out_buf, FILL, OUT_BYTES, word, what);
}

static void expect_success(const char *what, struct call c) {
  check_status(GPUREDUCE_SUCCESS, run(&c), "%s (%s)", what, gpureduce_last_message(H));
  check_true(*gpureduce_last_message(H) == '\0', "%s: the message is empty", what);
}

#define ONE(x, y, out, n, type, flags) ((struct call){(x), (y), (out), 1, (n), 0, 0, (type), (flags), 1})
#define ROWS(x, y, out, batch, n, xs, ys, type, flags) \
  ((struct call){(x), (y), (out), (batch), (n), (xs), (ys), (type), (flags), 0})

static float *X(void) { return (float *)in_buf; }
static float *Y(void) { return (float *)in_buf + 512; }

static void handle_type_flags(void **state) {
  (void)state;
  memset(out_buf, FILL, OUT_BYTES);
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_dot(X(), Y(), out_buf, 4, GPUREDUCE_F32, 0, NULL), "a NULL handle");
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_dot_batched(X(), Y(), out_buf, 2, 4, 4, 4, GPUREDUCE_F32, 0, NULL),
               "a NULL handle, batched");
  check_bytes(out_buf, FILL, OUT_BYTES, "a NULL handle: the output is untouched");
  for (int one = 0; one < 2; ++one) {
    struct call c = ROWS(X(), Y(), NULL, 2, 4, 4, 4, GPUREDUCE_F32, 0);
    c.one = one;
    c.type = (gpureduce_type_t)10;
    expect_error("unknown type 10", GPUREDUCE_ERROR_UNSUPPORTED, c, "type");
    c.type = (gpureduce_type_t)-1;
    expect_error("unknown type -1", GPUREDUCE_ERROR_UNSUPPORTED, c, "type");
    c.type = GPUREDUCE_F32;
    c.flags = 0x8;
    expect_error("flags 0x8", GPUREDUCE_ERROR_INVALID_ARGUMENT, c, "flag");
    c.flags = GPUREDUCE_WITH_VALUE;
    expect_error("GPUREDUCE_WITH_VALUE", GPUREDUCE_ERROR_UNSUPPORTED, c, "WITH_VALUE");
    c.flags = GPUREDUCE_ACCUMULATE_F64 | 0x100;
    expect_error("flags 0x101", GPUREDUCE_ERROR_INVALID_ARGUMENT, c, "flag");
    for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
      if (t == GPUREDUCE_F32) continue;
      c.type = (gpureduce_type_t)t;
      c.flags = GPUREDUCE_ACCUMULATE_F64;
      char what[64];
      snprintf(what, sizeof what, "GPUREDUCE_ACCUMULATE_F64 on %s", gpureduce_type_name(c.type));
      expect_error(what, GPUREDUCE_ERROR_UNSUPPORTED, c, "f32");
    }
  }
  expect_success("f32 with GPUREDUCE_ACCUMULATE_F64",
                 ONE(X(), Y(), NULL, 8, GPUREDUCE_F32, GPUREDUCE_ACCUMULATE_F64));
  double r;
  memcpy(&r, out_buf, 8);
  double want = 0;
  for (int i = 0; i < 8; ++i) want += (double)(i + 1) * (double)(i + 513);
  check_true(r == want, "f32 with GPUREDUCE_ACCUMULATE_F64 gives %.17g, wanted %.17g", r, want);
}

static void pointers(void **state) {
  (void)state;
  /* (a NULL output in struct call means out_buf: these call directly) */
  memset(out_buf, FILL, OUT_BYTES);
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT,
               gpureduce_dot(X(), Y(), NULL, 4, GPUREDUCE_F32, 0, H), "NULL output");
  check_true(tu_mentions(gpureduce_last_message(H), "output"), "NULL output: the message (%s)",
             gpureduce_last_message(H));
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT,
               gpureduce_dot(NULL, NULL, NULL, 0, GPUREDUCE_F32, 0, H), "NULL output with n = 0");
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT,
               gpureduce_dot_batched(X(), Y(), NULL, 3, 4, 4, 4, GPUREDUCE_F32, 0, H),
               "NULL output, batched");
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
    expect_error("NULL x with n = 4", GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 ONE(NULL, Y(), NULL, 4, (gpureduce_type_t)t, 0), "x is NULL");
    expect_error("NULL y with n = 4", GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 ONE(X(), NULL, NULL, 4, (gpureduce_type_t)t, 0), "y is NULL");
    expect_error("NULL x, batched", GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 ROWS(NULL, Y(), NULL, 2, 4, 4, 4, (gpureduce_type_t)t, 0), "x is NULL");
  }
  expect_success("NULL x and y with n = 0", ONE(NULL, NULL, NULL, 0, GPUREDUCE_F32, 0));
  check_bits(0, tu_load(out_buf, 0, 4), "n = 0 writes +0");
  expect_success("NULL x and y with n = 0, batched",
                 ROWS(NULL, NULL, NULL, 3, 0, 5, 5, GPUREDUCE_F64, 0));
  /* batch 0: nothing read or written, whatever the pointers */
  const struct call empty[] = {
      ROWS(NULL, NULL, NULL, 0, 5, 5, 5, GPUREDUCE_F32, 0),
      ROWS(in_buf + 1, in_buf + 3, NULL, 0, SIZE_MAX, INT64_MIN, INT64_MAX, GPUREDUCE_F64, 0),
  };
  for (size_t k = 0; k < COUNT(empty); ++k) {
    check_status(GPUREDUCE_SUCCESS, run(&empty[k]), "batch 0, case %zu", k);
    check_bytes(out_buf, FILL, OUT_BYTES, "batch 0, case %zu: nothing written", k);
  }
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_dot_batched(NULL, NULL, NULL, 0, 7, 7, 7, GPUREDUCE_U8, 0, H),
               "batch 0 with NULL pointers");
}

static void misaligned(void **state) {
  (void)state;
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
    const gpureduce_type_t type = (gpureduce_type_t)t;
    const size_t es = gpureduce_type_size(type), rs = gpureduce_result_size(type, GPUREDUCE_SUM, 0);
    char what[96];
    if (es > 1) {
      snprintf(what, sizeof what, "%s x at an odd address", gpureduce_type_name(type));
      expect_error(what, GPUREDUCE_ERROR_INVALID_ARGUMENT, ONE(in_buf + 1, Y(), NULL, 4, type, 0),
                   "aligned");
      snprintf(what, sizeof what, "%s y at an odd address", gpureduce_type_name(type));
      expect_error(what, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   ROWS(X(), in_buf + 2049, NULL, 2, 4, 4, 4, type, 0), "aligned");
    }
    snprintf(what, sizeof what, "%s output at an odd address", gpureduce_type_name(type));
    expect_error(what, GPUREDUCE_ERROR_INVALID_ARGUMENT, ONE(X(), Y(), out_buf + rs / 2, 4, type, 0),
                 "aligned");
    /* the other side: any element-aligned x and y, independently */
    snprintf(what, sizeof what, "%s x and y at element offsets 1 and 3", gpureduce_type_name(type));
    expect_success(what, ONE(in_buf + es, in_buf + 2048 + 3 * es, NULL, 4, type, 0));
  }
}

static void overlap_and_ranges(void **state) {
  (void)state;
  /* the output inside x's or y's elements */
  expect_error("output inside x", GPUREDUCE_ERROR_INVALID_ARGUMENT,
               ONE(X(), Y(), X() + 3, 8, GPUREDUCE_F32, 0), "overlap x");
  expect_error("output inside y", GPUREDUCE_ERROR_INVALID_ARGUMENT,
               ONE(X(), Y(), Y() + 7, 8, GPUREDUCE_F32, 0), "overlap y");
  expect_success("output right after y", ONE(X(), Y(), Y() + 8, 8, GPUREDUCE_F32, 0));
  expect_success("output right before x", ONE(X() + 1, Y(), X(), 8, GPUREDUCE_F32, 0));
  /* batched: the span, gaps included; negative strides reach below row 0 */
  expect_error("batched output in a gap of x's span", GPUREDUCE_ERROR_INVALID_ARGUMENT,
               ROWS(X(), Y(), X() + 6, 2, 4, 8, 4, GPUREDUCE_F32, 0), "overlap x");
  expect_error("batched output below y's row 0 (stride -8)", GPUREDUCE_ERROR_INVALID_ARGUMENT,
               ROWS(X(), Y() + 64, Y() + 60, 3, 4, 4, -8, GPUREDUCE_F32, 0), "overlap y");
  expect_success("batched output right past x's span",
                 ROWS(X(), Y(), X() + 12, 2, 4, 8, 4, GPUREDUCE_F32, 0));
  /* offsets that overflow, elements beyond the address space */
  expect_error("x stride whose offsets overflow int64_t", GPUREDUCE_ERROR_INVALID_ARGUMENT,
               ROWS(X(), Y(), NULL, 3, 4, INT64_MAX, 4, GPUREDUCE_F32, 0), "overflow");
  expect_error("y stride whose byte offsets overflow", GPUREDUCE_ERROR_INVALID_ARGUMENT,
               ROWS(X(), Y(), NULL, 3, 4, 4, INT64_MAX / 4, GPUREDUCE_F32, 0), "overflow");
  expect_error("y beyond the end of the address space", GPUREDUCE_ERROR_INVALID_ARGUMENT,
               ONE(X(), (const void *)(UINTPTR_MAX - 63), NULL, 64, GPUREDUCE_F32, 0), "wrap");
  expect_error("x below address 0 (negative stride)", GPUREDUCE_ERROR_INVALID_ARGUMENT,
               ROWS((const void *)(uintptr_t)64, Y(), NULL, 3, 4, -64, 4, GPUREDUCE_F32, 0),
               "wrap");
  expect_error("results beyond the address space", GPUREDUCE_ERROR_INVALID_ARGUMENT,
               ROWS(X(), Y(), (void *)(UINTPTR_MAX - 15), 8, 4, 4, 4, GPUREDUCE_F32, 0), "wrap");
  expect_error("batch times the result size overflows", GPUREDUCE_ERROR_INVALID_ARGUMENT,
               ROWS(X(), Y(), NULL, SIZE_MAX / 2, 1, 0, 0, GPUREDUCE_F64, 0), "overflow");
  /* the successes above wrote into the fixture's input: 1, 2, 3, ... again */
  for (int i = 0; i < 1024; ++i) X()[i] = (float)(i + 1);
}

static void values_at_the_edges(void **state) {
  (void)state;
  /* x = 1..8, y = 513..520: a real value on the success side */
  expect_success("f32 dot of 8", ONE(X(), Y(), NULL, 8, GPUREDUCE_F32, 0));
  float r;
  memcpy(&r, out_buf, 4);
  float want = 0;
  for (int i = 0; i < 8; ++i) want += (float)(i + 1) * (float)(i + 513);
  check_bits(tu_f32_bits(want), tu_f32_bits(r), "f32 dot of 1..8 and 513..520");
  /* a matrix-vector product: rows of x (stride 4) against y (stride 0) */
  expect_success("2 rows against one vector", ROWS(X(), Y(), NULL, 2, 4, 4, 0, GPUREDUCE_F32, 0));
  for (int b = 0; b < 2; ++b) {
    float w = 0;
    for (int i = 0; i < 4; ++i) w += (float)(4 * b + i + 1) * (float)(i + 513);
    memcpy(&r, out_buf + 4 * b, 4);
    check_bits(tu_f32_bits(w), tu_f32_bits(r), "row %d against y", b);
  }
  check_bytes(out_buf + 8, FILL, OUT_BYTES - 8, "nothing written after the two results");
}

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(handle_type_flags), cmocka_unit_test(pointers),
      cmocka_unit_test(misaligned), cmocka_unit_test(overlap_and_ranges),
      cmocka_unit_test(values_at_the_edges),
  };
  return cmocka_run_group_tests_name("test-dot-args", tests, group_setup, group_teardown);
}
