/*
 * partial-errors.c - the partial-result calls that must fail (partial.h):
 * bad arguments of gpureduce_partial_reduce() and
 * gpureduce_partial_combine(), partials that do not fit together, and
 * damaged headers.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partial-internal.h"

/* ---- tests: bad arguments -------------------------------------------------------------- */

/* n random values (G_WIDE) of `type` in host memory (the data room),
 * drawn from a stream named label, and their copy in backend memory at
 * *in (pt_in_mem). */
static const void *random_input(gpureduce_type_t type, size_t n, const char *label,
                                unsigned char **in) {
  const struct tu_backend *const B = battery_backend();
  const size_t bytes = n * TU_TYPE(type)->size;
  tu_rng r;
  tu_rng_init(&r, label);
  void *x = bt_room_for(&pt_data, bytes);
  tc_fill(&r, type, G_WIDE, x, n);
  *in = bt_room_for(&pt_in_mem, bytes);
  B->put(*in, x, bytes);
  return x;
}

void pt_reduce_errors(void **state) {
  (void)state;
  const struct tu_backend *const B = battery_backend();
  const gpureduce_handle_t h = battery_handle();
  const size_t te = tu_tile_elems(GPUREDUCE_F32), N = 2 * te + 100;
  unsigned char *in;
  const float *x = random_input(GPUREDUCE_F32, N, "partial reduce errors", &in);
  unsigned char *p = bt_room_for(&pt_made, ROOM + 8);
  const struct {
    const char *what;
    gpureduce_status_t wanted;
    int null_handle;
    const void *input;
    size_t n_local;
    uint64_t offset, n_global;
    gpureduce_type_t type;
    gpureduce_op_t op;
    unsigned flags;
    void *partial;
  } cases[] = {
      {"a NULL handle", GPUREDUCE_ERROR_INVALID_HANDLE, 1, in, 10, 0, N, GPUREDUCE_F32,
       GPUREDUCE_SUM, 0, p},
      {"a NULL partial", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, in, 10, 0, N, GPUREDUCE_F32,
       GPUREDUCE_SUM, 0, NULL},
      {"a partial 4 bytes past an 8-byte boundary", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, in, 10,
       0, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, p + 4},
      {"a partial 1 byte past an 8-byte boundary", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, in, 10, 0,
       N, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0, p + 1},
      {"a NULL input with n_local 10", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, NULL, 10, 0, N,
       GPUREDUCE_F32, GPUREDUCE_SUM, 0, p},
      {"f32 input at an odd address", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, in + 1, 10, 0, N,
       GPUREDUCE_F32, GPUREDUCE_SUM, 0, p},
      {"f64 input 4 bytes past an 8-byte boundary", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, in + 4,
       10, 0, N, GPUREDUCE_F64, GPUREDUCE_SUM, 0, p},
      {"unknown flag 0x8", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, in, 10, 0, N, GPUREDUCE_F32,
       GPUREDUCE_SUM, 0x8, p},
      {"unknown flag 0x80 with GPUREDUCE_ACCUMULATE_F64", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, in,
       10, 0, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0x81, p},
      {"GPUREDUCE_ACCUMULATE_F64 on f64 sum", GPUREDUCE_ERROR_UNSUPPORTED, 0, in, 10, 0, N,
       GPUREDUCE_F64, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64, p},
      {"GPUREDUCE_ACCUMULATE_F64 on f32 min", GPUREDUCE_ERROR_UNSUPPORTED, 0, in, 10, 0, N,
       GPUREDUCE_F32, GPUREDUCE_MIN, GPUREDUCE_ACCUMULATE_F64, p},
      {"GPUREDUCE_WITH_VALUE on f32 sum", GPUREDUCE_ERROR_UNSUPPORTED, 0, in, 10, 0, N,
       GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_WITH_VALUE, p},
      {"GPUREDUCE_WITH_VALUE with GPUREDUCE_ACCUMULATE_F64 on f32 argmin",
       GPUREDUCE_ERROR_UNSUPPORTED, 0, in, 10, 0, N, GPUREDUCE_F32, GPUREDUCE_ARGMIN,
       GPUREDUCE_WITH_VALUE | GPUREDUCE_ACCUMULATE_F64, p},
      {"unknown type 10", GPUREDUCE_ERROR_UNSUPPORTED, 0, in, 10, 0, N, (gpureduce_type_t)10,
       GPUREDUCE_SUM, 0, p},
      {"unknown op 12", GPUREDUCE_ERROR_UNSUPPORTED, 0, in, 10, 0, N, GPUREDUCE_F32,
       (gpureduce_op_t)12, 0, p},
      {"10 elements from N - 5 of N", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, in, 10, N - 5, N,
       GPUREDUCE_F32, GPUREDUCE_SUM, 0, p},
      {"an empty part at N + 1 of N", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, NULL, 0, N + 1, N,
       GPUREDUCE_F32, GPUREDUCE_SUM, 0, p},
      {"2 elements from 2^64 - 1 (the end overflows)", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, in, 2,
       UINT64_MAX, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, p},
      {"argmax of n_global 0", GPUREDUCE_ERROR_EMPTY_INPUT, 0, NULL, 0, 0, 0, GPUREDUCE_F32,
       GPUREDUCE_ARGMAX, 0, p},
      {"mean_var of n_global 0", GPUREDUCE_ERROR_EMPTY_INPUT, 0, in, 0, 0, 0, GPUREDUCE_F64,
       GPUREDUCE_MEAN_VAR, 0, p},
  };
  for (size_t c = 0; c < COUNT(cases); ++c) {
    memset(p, PFILL, ROOM + 8);
    const gpureduce_status_t s = gpureduce_partial_reduce(
        cases[c].input, cases[c].partial, cases[c].n_local, cases[c].offset, cases[c].n_global,
        cases[c].type, cases[c].op, cases[c].flags, cases[c].null_handle ? NULL : h);
    expect_failure(cases[c].null_handle ? NULL : h, cases[c].wanted, s, p, PFILL, ROOM + 8,
                   "gpureduce_partial_reduce() with %s on the %s backend", cases[c].what,
                   B->name);
  }
  /* the handle still works, and its message is cleared */
  const size_t bytes = gpureduce_partial_bytes(N, 0, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0);
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_partial_reduce(in, p, N, 0, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, h),
               "after the errors, a partial of the whole array");
  check_string("", gpureduce_last_message(h), "after a call that succeeded the message is empty");
  _Alignas(16) unsigned char ob[16 + CANARY];
  memset(ob, OUT_FILL, sizeof ob);
  void *out = bt_room_for(&pt_out_mem, sizeof ob);
  B->put(out, ob, sizeof ob);
  check_status(GPUREDUCE_SUCCESS, gpureduce_partial_combine(p, bytes, out, h),
               "after the errors, the combine of that one partial");
  B->get(ob, out, sizeof ob);
  struct pt_array a = {x, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, "random floats", 0, {{0, 0}}};
  pt_prepare(&a);
  check_result(a.want, bt_result_at(ob, 0, 4), 4,
               "after the errors, one partial of the whole array gives gpureduce_reduce()'s "
               "bits");
}

/* A partial of x[offset .. offset+n_local-1] (backend memory at in) into
 * dst; returns its bytes. */
static size_t make(const unsigned char *in, uint64_t n_local, uint64_t offset, uint64_t n_global,
                   gpureduce_type_t type, gpureduce_op_t op, unsigned flags, unsigned char *dst,
                   const char *what) {
  const gpureduce_handle_t h = battery_handle();
  const size_t bytes = gpureduce_partial_bytes(n_local, offset, n_global, type, op, flags);
  check_true(bytes > 0, "%s: a partial has bytes", what);
  const gpureduce_status_t s = gpureduce_partial_reduce(
      n_local ? in + offset * TU_TYPE(type)->size : NULL, dst, (size_t)n_local, offset, n_global,
      type, op, flags, h);
  check_status(GPUREDUCE_SUCCESS, s, "%s: the partial (%s)", what,
               s ? gpureduce_last_message(h) : "");
  return bytes;
}

void pt_combine_errors(void **state) {
  (void)state;
  const struct tu_backend *const B = battery_backend();
  const gpureduce_handle_t h = battery_handle();
  const size_t te = tu_tile_elems(GPUREDUCE_F32), N = 2 * te + 100, m = te + 7;
  unsigned char *in;
  const float *x = random_input(GPUREDUCE_F32, N, "partial combine errors", &in);
  struct pt_array a = {x, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, "random floats", 0, {{0, 0}}};
  pt_prepare(&a);

  /* the partials: [0, m) and [m, N) of f32 sum, and the misfits */
  enum { P0, P1, P1_NGLOBAL, P1_OP, P1_TYPE, P1_FLAGS, P1_OVERLAP, P1_GAP, E_MID, NP };
  unsigned char *buf = bt_room_for(&pt_made, NP * ROOM);
  memset(buf, 0, NP * ROOM);
  size_t b[NP];
#define AT(i) (buf + (size_t)(i) * ROOM)
  b[P0] = make(in, m, 0, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, AT(P0), "[0, m)");
  b[P1] = make(in, N - m, m, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, AT(P1), "[m, N)");
  b[P1_NGLOBAL] =
      make(in, N - m, m, N + 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0, AT(P1_NGLOBAL), "[m, N) of N+1");
  b[P1_OP] = make(in, N - m, m, N, GPUREDUCE_F32, GPUREDUCE_SUM_ABS, 0, AT(P1_OP), "[m, N) sum_abs");
  b[P1_TYPE] = make(in, N - m, m, N, GPUREDUCE_I32, GPUREDUCE_SUM, 0, AT(P1_TYPE), "[m, N) i32");
  b[P1_FLAGS] = make(in, N - m, m, N, GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64,
                     AT(P1_FLAGS), "[m, N) accumulate-f64");
  b[P1_OVERLAP] =
      make(in, N - m + 1, m - 1, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, AT(P1_OVERLAP), "[m-1, N)");
  b[P1_GAP] = make(in, N - m - 1, m + 1, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, AT(P1_GAP), "[m+1, N)");
  b[E_MID] = make(in, 0, m, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, AT(E_MID), "the empty [m, m)");

  /* concatenations: up to four partials, then a corruption */
  static const struct {
    const char *what;
    int parts[4]; /* -1 ends */
    long dbytes;  /* added to the total */
    int corrupt;  /* XOR 0xff into byte 0 of this partial of the list; -1 none */
    int zero;     /* the first partial replaced by zeros of its size */
    gpureduce_status_t wanted;
  } cases[] = {
      {"the parts [0, m) and [m, N): valid", {P0, P1, -1}, 0, -1, 0, GPUREDUCE_SUCCESS},
      {"[m, N) before [0, m): valid", {P1, P0, -1}, 0, -1, 0, GPUREDUCE_SUCCESS},
      {"an empty part between: valid", {P0, E_MID, P1, -1}, 0, -1, 0, GPUREDUCE_SUCCESS},
      {"the empty part [m, m) twice: valid (no element in two parts)", {E_MID, P0, E_MID, P1}, 0,
       -1, 0, GPUREDUCE_SUCCESS},
      {"bytes 8 short of the concatenation", {P0, P1, -1}, -8, -1, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"bytes 1 short of the concatenation", {P0, P1, -1}, -1, -1, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"8 zero bytes after the concatenation", {P0, P1, -1}, 8, -1, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"96 zero bytes after the concatenation", {P0, P1, -1}, 96, -1, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"the first partial's byte 0 (its magic number) corrupted", {P0, P1, -1}, 0, 0, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"the second partial's byte 0 (its magic number) corrupted", {P1, P0, -1}, 0, 1, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"the first partial all zeros", {P0, P1, -1}, 0, -1, 1, GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"partials of n_global N and N + 1", {P0, P1_NGLOBAL, -1}, 0, -1, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"partials of sum and sum_abs", {P0, P1_OP, -1}, 0, -1, 0, GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"partials of f32 and i32", {P1_TYPE, P0, -1}, 0, -1, 0, GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"partials of flags 0 and GPUREDUCE_ACCUMULATE_F64", {P0, P1_FLAGS, -1}, 0, -1, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"overlapping parts [0, m) and [m-1, N)", {P0, P1_OVERLAP, -1}, 0, -1, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"a gap: [0, m) and [m+1, N)", {P0, P1_GAP, -1}, 0, -1, 0, GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"the part [m, N) twice", {P0, P1, P1, -1}, 0, -1, 0, GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"the part [0, m) twice", {P0, P0, P1, -1}, 0, -1, 0, GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"only [0, m): the part [m, N) missing", {P0, -1}, 0, -1, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"only [m, N): the part [0, m) missing", {P1, -1}, 0, -1, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"only the empty part [m, m)", {E_MID, -1}, 0, -1, 0, GPUREDUCE_ERROR_INVALID_ARGUMENT},
  };
  unsigned char *C = bt_room_for(&pt_cat, 4 * ROOM + 128), *keep = bt_room_for(&pt_mixed, 4 * ROOM + 128);
  _Alignas(16) unsigned char ob[16 + CANARY];
  void *out = bt_room_for(&pt_out_mem, sizeof ob);
  for (size_t c = 0; c < COUNT(cases); ++c) {
    size_t total = 0;
    for (int j = 0; j < 4 && cases[c].parts[j] >= 0; ++j) {
      const int i = cases[c].parts[j];
      memcpy(C + total, AT(i), b[i]);
      if (j == 0 && cases[c].zero) memset(C, 0, b[i]);
      if (j == cases[c].corrupt) C[total] ^= 0xff;
      total += b[i];
    }
    memset(C + total, 0, 128);
    const size_t bytes = (size_t)((long)total + cases[c].dbytes);
    memcpy(keep, C, total + 128);
    memset(ob, OUT_FILL, sizeof ob);
    B->put(out, ob, sizeof ob);
    const gpureduce_status_t s = gpureduce_partial_combine(C, bytes, out, h);
    B->get(ob, out, sizeof ob);
    if (cases[c].wanted == GPUREDUCE_SUCCESS) {
      check_status(GPUREDUCE_SUCCESS, s, "combine of %s (%s)", cases[c].what,
                   s ? gpureduce_last_message(h) : "");
      check_result(a.want, bt_result_at(ob, 0, 4), 4,
                   "combine of %s: the bits of gpureduce_reduce() of the whole array",
                   cases[c].what);
      check_bytes(ob + 4, OUT_FILL, sizeof ob - 4, "combine of %s: only the result written",
                  cases[c].what);
    } else {
      expect_failure(h, cases[c].wanted, s, ob, OUT_FILL, sizeof ob,
                     "gpureduce_partial_combine() of %s on the %s backend", cases[c].what,
                     B->name);
    }
    check_same_bytes(keep, C, total + 128, "combine of %s: the partials are read only",
                     cases[c].what);
  }

  /* another layout, another order version: the numbers at bytes 4 .. 7
   * and 8 .. 11 of a layout-1 header (after the magic number), set to 2 */
  for (int field = 0; field < 2; ++field) {
    memcpy(C, AT(P0), b[P0]);
    memcpy(C + b[P0], AT(P1), b[P1]);
    const uint32_t two = 2;
    memcpy(C + b[P0] + 4 + 4 * field, &two, sizeof two);
    memset(ob, OUT_FILL, sizeof ob);
    B->put(out, ob, sizeof ob);
    const gpureduce_status_t s = gpureduce_partial_combine(C, b[P0] + b[P1], out, h);
    B->get(ob, out, sizeof ob);
    expect_failure(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, s, ob, OUT_FILL, sizeof ob,
                   "gpureduce_partial_combine() of [0, m) and a partial of %s 2 for [m, N)",
                   field ? "order version" : "layout");
  }

  /* arguments: the handle, the pointers, their alignment */
  const size_t total = b[P0] + b[P1];
  memcpy(C, AT(P0), b[P0]);
  memcpy(C + b[P0], AT(P1), b[P1]);
  unsigned char *shifted = keep; /* the concatenation 4 bytes past an 8-byte boundary */
  memcpy(shifted + 4, C, total);
  struct {
    const char *what;
    gpureduce_status_t wanted;
    int null_handle;
    const void *partials;
    size_t bytes;
    size_t out_shift; /* bytes past the output's aligned start */
    int null_out;
  } args[] = {
      {"a NULL handle", GPUREDUCE_ERROR_INVALID_HANDLE, 1, C, total, 0, 0},
      {"NULL partials", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, NULL, total, 0, 0},
      {"partials 4 bytes past an 8-byte boundary", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0,
       shifted + 4, total, 0, 0},
      {"0 bytes of partials", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, C, 0, 0, 0},
      {"a NULL output", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, C, total, 0, 1},
      {"the 4-byte result 2 bytes past an aligned address", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0,
       C, total, 2, 0},
  };
  for (size_t c = 0; c < COUNT(args); ++c) {
    memset(ob, OUT_FILL, sizeof ob);
    B->put(out, ob, sizeof ob);
    const gpureduce_status_t s = gpureduce_partial_combine(
        args[c].partials, args[c].bytes,
        args[c].null_out ? NULL : (unsigned char *)out + args[c].out_shift,
        args[c].null_handle ? NULL : h);
    B->get(ob, out, sizeof ob);
    expect_failure(args[c].null_handle ? NULL : h, args[c].wanted, s, ob, OUT_FILL, sizeof ob,
                   "gpureduce_partial_combine() with %s on the %s backend", args[c].what,
                   B->name);
  }
  /* a 16-byte result (f32 mean_var in double) at an 8-byte aligned address */
  const size_t q0 = make(in, m, 0, N, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, GPUREDUCE_ACCUMULATE_F64,
                         C, "mean_var [0, m)");
  const size_t q1 = make(in, N - m, m, N, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR,
                         GPUREDUCE_ACCUMULATE_F64, C + q0, "mean_var [m, N)");
  memset(ob, OUT_FILL, sizeof ob);
  B->put(out, ob, sizeof ob);
  gpureduce_status_t s = gpureduce_partial_combine(C, q0 + q1, (unsigned char *)out + 8, h);
  B->get(ob, out, sizeof ob);
  expect_failure(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, s, ob, OUT_FILL, sizeof ob,
                 "gpureduce_partial_combine() of a 16-byte mean_var result 8 bytes past a "
                 "16-byte boundary");
  s = gpureduce_partial_combine(C, q0 + q1, out, h);
  B->get(ob, out, sizeof ob);
  check_status(GPUREDUCE_SUCCESS, s, "the same mean_var partials into an aligned output (%s)",
               s ? gpureduce_last_message(h) : "");
  struct pt_array mv = {x, N, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, GPUREDUCE_ACCUMULATE_F64,
                        "random floats", 0, {{0, 0}}};
  pt_prepare(&mv);
  check_result(mv.want, bt_result_at(ob, 0, 16), 16,
               "f32 mean_var in double of [0, m) and [m, N): the bits of gpureduce_reduce()");
#undef AT
}

/* ---- tests: damaged partials ------------------------------------------------------- */

/* Every byte of a partial's 96-byte header damaged in turn (XOR 0x01,
 * 0x80, 0xff), the partial first or second of two: the combine refuses it
 * (GPUREDUCE_ERROR_INVALID_ARGUMENT, the output untouched), or, for a
 * byte it does not read, gives the whole array's bits; nothing else, and
 * never a byte written past the result.  Partials come from other
 * processes: a damaged one must not make the combine read or write out
 * of bounds.  f32 sum (4-byte accumulators) and f64 mean_var (24-byte
 * ones), parts [0, te+7) and [te+7, 3te+100): nodes, a head and a tail. */
void pt_damaged_headers(void **state) {
  (void)state;
  const struct tu_backend *const B = battery_backend();
  const gpureduce_handle_t h = battery_handle();
  static const struct {
    gpureduce_type_t type;
    gpureduce_op_t op;
  } kinds[] = {{GPUREDUCE_F32, GPUREDUCE_SUM}, {GPUREDUCE_F64, GPUREDUCE_MEAN_VAR}};
  static const unsigned char masks[] = {0x01, 0x80, 0xff};
  for (size_t ki = 0; ki < COUNT(kinds); ++ki) {
    const gpureduce_type_t type = kinds[ki].type;
    const gpureduce_op_t op = kinds[ki].op;
    const size_t te = tu_tile_elems(type), N = 3 * te + 100, m = te + 7;
    const size_t rs = gpureduce_result_size(type, op, 0);
    unsigned char *in;
    const void *x = random_input(type, N, "partial damaged headers", &in);
    struct pt_array a = {x, N, type, op, 0, "random values", 0, {{0, 0}}};
    pt_prepare(&a);
    unsigned char *good = bt_room_for(&pt_made, 2 * ROOM);
    const size_t b0 = make(in, m, 0, N, type, op, 0, good, "[0, m)");
    const size_t b1 = make(in, N - m, m, N, type, op, 0, good + b0, "[m, N)");
    unsigned char *C = bt_room_for(&pt_cat, b0 + b1);
    _Alignas(16) unsigned char ob[16 + CANARY];
    void *out = bt_room_for(&pt_out_mem, sizeof ob);
    for (int which = 0; which < 2; ++which)
      for (size_t byte = 0; byte < PT_HEADER_BYTES; ++byte)
        for (size_t mi = 0; mi < COUNT(masks); ++mi) {
          memcpy(C, good, b0 + b1);
          C[(which ? b0 : 0) + byte] ^= masks[mi];
          memset(ob, OUT_FILL, sizeof ob);
          B->put(out, ob, sizeof ob);
          const gpureduce_status_t s = gpureduce_partial_combine(C, b0 + b1, out, h);
          B->get(ob, out, sizeof ob);
          char what[200];
          snprintf(what, sizeof what, "%s, partial %d of 2 (%s) with header byte %zu ^ 0x%02x",
                   bt_kind_name(type, op, 0), which, which ? "[m, N)" : "[0, m)", byte, masks[mi]);
          if (s == GPUREDUCE_SUCCESS) {
            check_result(a.want, bt_result_at(ob, 0, rs), rs,
                         "%s: the combine took it, so the byte is one it does not read: the "
                         "whole array's bits", what);
            check_bytes(ob + rs, OUT_FILL, sizeof ob - rs, "%s: only the result written", what);
          } else {
            expect_failure(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, s, ob, OUT_FILL, sizeof ob,
                           "%s: refused", what);
          }
        }
  }
}
