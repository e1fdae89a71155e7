/*
 * test-args.c - argument errors of gpureduce_reduce() and the ladder on a
 * host handle: each returns its documented status, leaves the output (and
 * a canary after it) untouched and sets a last message naming the
 * argument: counts whose byte range wraps, an output inside the input.
 * Also the documented results of empty inputs.  Runs everywhere.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define FILL 0xA7        /* output and canary before each call */
#define OUT_BYTES 48     /* 16 bytes of room for the result and misalignment, 32 of canary */

static gpureduce_handle_t H;
/* 256-byte aligned buffers */
static unsigned char *in_buf;   /* 4096 bytes of valid input: floats 1, 2, 3, ... */
static unsigned char *out_buf;  /* OUT_BYTES */

static int group_setup(void **state) {
  (void)state;
  tu_announce_seed();
  return tu_args_open(&H, &in_buf, &out_buf, OUT_BYTES);
}

static int group_teardown(void **state) {
  (void)state;
  return tu_args_close(H, in_buf, out_buf);
}

/* One call that must fail: status, untouched output and canary, a message
 * that mentions `word`. */
static void expect_error(const char *what, gpureduce_status_t wanted, const void *input,
                         size_t out_offset, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                         unsigned flags, const char *word) {
  memset(out_buf, FILL, OUT_BYTES);
  const gpureduce_status_t s =
      gpureduce_reduce(input, out_buf + out_offset, n, type, op, flags, H);
  check_failed(H, wanted, s, out_buf, FILL, OUT_BYTES, word, what);
}

static void null_pointers(void **state) {
  (void)state;
  memset(out_buf, FILL, OUT_BYTES);
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT,
               gpureduce_reduce(in_buf, NULL, 10, GPUREDUCE_F32, GPUREDUCE_SUM, 0, H),
               "NULL output");
  check_true(tu_mentions(gpureduce_last_message(H), "output"),
             "NULL output: the message \"%s\" mentions \"output\"", gpureduce_last_message(H));
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT,
               gpureduce_reduce(NULL, NULL, 0, GPUREDUCE_F32, GPUREDUCE_SUM, 0, H),
               "NULL output with n = 0");
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t)
    expect_error("NULL input with n = 10", GPUREDUCE_ERROR_INVALID_ARGUMENT, NULL, 0, 10,
                 (gpureduce_type_t)t, GPUREDUCE_MAX, 0, "input");
  expect_error("NULL input with n = 1", GPUREDUCE_ERROR_INVALID_ARGUMENT, NULL, 0, 1,
               GPUREDUCE_F32, GPUREDUCE_SUM, 0, "input");
  /* gpureduce_sum_f32 has the same statuses */
  memset(out_buf, FILL, OUT_BYTES);
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, gpureduce_sum_f32(NULL, (float *)out_buf, 5, H),
               "gpureduce_sum_f32 with a NULL input and n = 5");
  check_bytes(out_buf, FILL, OUT_BYTES, "gpureduce_sum_f32 with a NULL input writes nothing");
}

static void unknown_ops_types_flags(void **state) {
  (void)state;
  const int bad_ops[] = {GPUREDUCE_OP_COUNT, -1, 100};
  for (size_t k = 0; k < COUNT(bad_ops); ++k) {
    char what[64];
    snprintf(what, sizeof what, "op %d", bad_ops[k]);
    expect_error(what, GPUREDUCE_ERROR_UNSUPPORTED, in_buf, 0, 10, GPUREDUCE_F32,
                 (gpureduce_op_t)bad_ops[k], 0, "op");
  }
  const int bad_types[] = {10, -1, 1000};
  for (size_t k = 0; k < COUNT(bad_types); ++k) {
    char what[64];
    snprintf(what, sizeof what, "type %d", bad_types[k]);
    expect_error(what, GPUREDUCE_ERROR_UNSUPPORTED, in_buf, 0, 10,
                 (gpureduce_type_t)bad_types[k], GPUREDUCE_SUM, 0, "type");
  }
  const unsigned bad_flags[] = {8, 9, 12, 15, 0x100, 0x80000000u, ~0u};
  for (size_t k = 0; k < COUNT(bad_flags); ++k) {
    char what[64];
    snprintf(what, sizeof what, "flags 0x%x (unknown bits)", bad_flags[k]);
    expect_error(what, GPUREDUCE_ERROR_INVALID_ARGUMENT, in_buf, 0, 10, GPUREDUCE_F32,
                 GPUREDUCE_SUM, bad_flags[k], "flag");
  }
  /* GPUREDUCE_ACCUMULATE_F64 means something for the f32 sum-likes, nrm2
   * and mean_var only */
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t)
    for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op) {
      const gpureduce_type_t type = (gpureduce_type_t)t;
      const gpureduce_op_t o = (gpureduce_op_t)op;
      if (type == GPUREDUCE_F32 && (tu_is_sum_like(o) || tu_is_moment(o))) continue;
      char what[96];
      snprintf(what, sizeof what, "GPUREDUCE_ACCUMULATE_F64 on %s %s", tu_types[t].name,
               tu_op_names[op]);
      expect_error(what, GPUREDUCE_ERROR_UNSUPPORTED, in_buf, 0, 8, type, o,
                   GPUREDUCE_ACCUMULATE_F64, "f64");
    }
}

/* GPUREDUCE_SOFTMAX_STATS means something for LOGSUMEXP of the floating
 * types only, with no other flag; LOGSUMEXP of an integer type is
 * UNSUPPORTED with or without it; the pair is aligned to its size. */
static void softmax_stats_flags(void **state) {
  (void)state;
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t)
    for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op) {
      const gpureduce_type_t type = (gpureduce_type_t)t;
      const gpureduce_op_t o = (gpureduce_op_t)op;
      char what[112];
      if (o == GPUREDUCE_LOGSUMEXP && !tu_types[t].is_float) {
        snprintf(what, sizeof what, "logsumexp of %s", tu_types[t].name);
        expect_error(what, GPUREDUCE_ERROR_UNSUPPORTED, in_buf, 0, 8, type, o, 0, "logsumexp");
        snprintf(what, sizeof what, "GPUREDUCE_SOFTMAX_STATS on logsumexp of %s",
                 tu_types[t].name);
        expect_error(what, GPUREDUCE_ERROR_UNSUPPORTED, in_buf, 0, 8, type, o,
                     GPUREDUCE_SOFTMAX_STATS, "logsumexp");
        continue;
      }
      if (o == GPUREDUCE_LOGSUMEXP) {
        const unsigned others[] = {GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_WITH_VALUE};
        for (size_t k = 0; k < COUNT(others); ++k) {
          snprintf(what, sizeof what, "GPUREDUCE_SOFTMAX_STATS | 0x%x on %s logsumexp",
                   others[k], tu_types[t].name);
          expect_error(what, GPUREDUCE_ERROR_UNSUPPORTED, in_buf, 0, 8, type, o,
                       GPUREDUCE_SOFTMAX_STATS | others[k], "softmax_stats");
        }
        const size_t rs = gpureduce_result_size(type, o, GPUREDUCE_SOFTMAX_STATS);
        snprintf(what, sizeof what, "GPUREDUCE_SOFTMAX_STATS on %s logsumexp, output %zu bytes "
                 "off %zu", tu_types[t].name, rs / 2, rs);
        expect_error(what, GPUREDUCE_ERROR_INVALID_ARGUMENT, in_buf, rs / 2, 8, type, o,
                     GPUREDUCE_SOFTMAX_STATS, "output");
        continue;
      }
      snprintf(what, sizeof what, "GPUREDUCE_SOFTMAX_STATS on %s %s", tu_types[t].name,
               tu_op_names[op]);
      expect_error(what, GPUREDUCE_ERROR_UNSUPPORTED, in_buf, 0, 8, type, o,
                   GPUREDUCE_SOFTMAX_STATS, "softmax_stats");
    }
}

/* GPUREDUCE_WITH_VALUE means something for ARGMIN and ARGMAX only, never
 * with GPUREDUCE_ACCUMULATE_F64; its 16-byte result is aligned to 16
 * bytes; n == 0 still has no index.  (The host backend's answers are
 * tests/host/test-with-value's.) */
static void with_value_flags(void **state) {
  (void)state;
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t)
    for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op) {
      const gpureduce_type_t type = (gpureduce_type_t)t;
      const gpureduce_op_t o = (gpureduce_op_t)op;
      char what[96];
      if (o == GPUREDUCE_ARGMIN || o == GPUREDUCE_ARGMAX) {
        snprintf(what, sizeof what, "GPUREDUCE_WITH_VALUE | GPUREDUCE_ACCUMULATE_F64 on %s %s",
                 tu_types[t].name, tu_op_names[op]);
        expect_error(what, GPUREDUCE_ERROR_UNSUPPORTED, in_buf, 0, 8, type, o,
                     GPUREDUCE_WITH_VALUE | GPUREDUCE_ACCUMULATE_F64, "f64");
        snprintf(what, sizeof what, "GPUREDUCE_WITH_VALUE on %s %s of n = 0", tu_types[t].name,
                 tu_op_names[op]);
        expect_error(what, GPUREDUCE_ERROR_EMPTY_INPUT, in_buf, 0, 0, type, o,
                     GPUREDUCE_WITH_VALUE, tu_op_names[op]);
        snprintf(what, sizeof what, "GPUREDUCE_WITH_VALUE on %s %s, output 8 bytes off 16",
                 tu_types[t].name, tu_op_names[op]);
        expect_error(what, GPUREDUCE_ERROR_INVALID_ARGUMENT, in_buf, 8, 8, type, o,
                     GPUREDUCE_WITH_VALUE, "output");
        continue;
      }
      snprintf(what, sizeof what, "GPUREDUCE_WITH_VALUE on %s %s", tu_types[t].name,
               tu_op_names[op]);
      expect_error(what, GPUREDUCE_ERROR_UNSUPPORTED, in_buf, 0, 8, type, o,
                   GPUREDUCE_WITH_VALUE, "with_value");
      snprintf(what, sizeof what, "GPUREDUCE_WITH_VALUE | GPUREDUCE_ACCUMULATE_F64 on %s %s",
               tu_types[t].name, tu_op_names[op]);
      expect_error(what, GPUREDUCE_ERROR_UNSUPPORTED, in_buf, 0, 8, type, o,
                   GPUREDUCE_WITH_VALUE | GPUREDUCE_ACCUMULATE_F64, "with_value");
    }
  /* the other side of the edges: 16 bytes at a 16-byte boundary */
  memset(out_buf, FILL, OUT_BYTES);
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce(in_buf, out_buf + 16, 8, GPUREDUCE_F32, GPUREDUCE_ARGMAX,
                                GPUREDUCE_WITH_VALUE, H),
               "f32 argmax with value of 1..8 at a 16-byte boundary (%s)",
               gpureduce_last_message(H));
  check_bits(7, tu_load(out_buf + 16, 0, 8), "f32 argmax with value of 1..8: index 7");
  check_bits(tu_f32_bits(8.0f), tu_load(out_buf + 24, 0, 4),
             "f32 argmax with value of 1..8: value 8");
  check_bits(0, tu_load(out_buf + 28, 0, 4), "f32 argmax with value: bytes 12..15 are zero");
  check_bytes(out_buf, FILL, 16, "f32 argmax with value: nothing before the result written");
  check_bytes(out_buf + 32, FILL, OUT_BYTES - 32,
              "f32 argmax with value: nothing after its 16 bytes written");
}

static void misaligned(void **state) {
  (void)state;
  /* input: every type wider than a byte, at odd addresses and at half its
   * alignment */
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
    const unsigned size = tu_types[t].size;
    if (size == 1) continue;
    const size_t offs[] = {1, size / 2, size + 1};
    for (size_t k = 0; k < COUNT(offs); ++k) {
      char what[96];
      snprintf(what, sizeof what, "%s input at %zu bytes past an aligned address",
               tu_types[t].name, offs[k]);
      expect_error(what, GPUREDUCE_ERROR_INVALID_ARGUMENT, in_buf + offs[k], 0, 16,
                   (gpureduce_type_t)t, GPUREDUCE_SUM, 0, "input");
    }
  }
  /* output: every result size but 1 */
  struct {
    gpureduce_type_t type;
    gpureduce_op_t op;
    unsigned flags;
  } outs[] = {{GPUREDUCE_F32, GPUREDUCE_ARGMIN, 0},
              {GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
              {GPUREDUCE_I8, GPUREDUCE_SUM, 0},
              {GPUREDUCE_F64, GPUREDUCE_MAX, 0},
              {GPUREDUCE_F32, GPUREDUCE_SUM, 0},
              {GPUREDUCE_U32, GPUREDUCE_MIN, 0},
              {GPUREDUCE_F16, GPUREDUCE_MIN, 0},
              {GPUREDUCE_BF16, GPUREDUCE_MAX, 0}};
  for (size_t k = 0; k < COUNT(outs); ++k) {
    const size_t rs = tu_result_size(outs[k].type, outs[k].op, outs[k].flags);
    for (size_t off = 1; off < rs; off *= 2) {
      char what[128];
      snprintf(what, sizeof what, "%s %s flags %u: output %zu bytes past an aligned address",
               tu_types[outs[k].type].name, tu_op_names[outs[k].op], outs[k].flags, off);
      expect_error(what, GPUREDUCE_ERROR_INVALID_ARGUMENT, in_buf, off, 16, outs[k].type,
                   outs[k].op, outs[k].flags, "output");
    }
  }
  /* byte results need no alignment: i8 min written at an odd address,
   * exactly one byte */
  const int8_t v[5] = {4, -7, 100, -7, 3};
  memset(out_buf, FILL, OUT_BYTES);
  check_status(GPUREDUCE_SUCCESS, gpureduce_reduce(v, out_buf + 3, 5, GPUREDUCE_I8, GPUREDUCE_MIN, 0, H),
               "i8 min into an odd output address");
  check_bits((uint8_t)-7, out_buf[3], "i8 min of {4, -7, 100, -7, 3} is -7");
  check_bytes(out_buf, FILL, 3, "i8 min writes nothing before its byte");
  check_bytes(out_buf + 4, FILL, OUT_BYTES - 4, "i8 min writes nothing after its byte");
  /* u8 input at any address */
  const uint8_t *bytes = (const uint8_t *)in_buf; /* bytes of 1.0f, 2.0f, ... */
  memset(out_buf, FILL, OUT_BYTES);
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce(bytes + 3, out_buf, 7, GPUREDUCE_U8, GPUREDUCE_SUM, 0, H),
               "u8 input at an odd address");
  uint64_t want = 0;
  for (int i = 3; i < 10; ++i) want += bytes[i];
  check_bits(want, tu_load(out_buf, 0, 8), "u8 sum of 7 bytes at an odd address");
}

static void empty_inputs(void **state) {
  (void)state;
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
    const gpureduce_type_t type = (gpureduce_type_t)t;
    const tu_type *ti = &tu_types[t];
    for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op) {
      const gpureduce_op_t o = (gpureduce_op_t)op;
      for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
        const size_t rs = tu_result_size(type, o, flags);
        if (!rs) continue;
        for (int with_ptr = 0; with_ptr < 2; ++with_ptr) {
          const char *in = with_ptr ? "a valid input pointer" : "a NULL input";
          char what[128];
          snprintf(what, sizeof what, "%s %s flags %u, n = 0 with %s", ti->name,
                   tu_op_names[op], flags, in);
          if (o == GPUREDUCE_ARGMIN || o == GPUREDUCE_ARGMAX || o == GPUREDUCE_MEAN_VAR) {
            expect_error(what, GPUREDUCE_ERROR_EMPTY_INPUT, with_ptr ? in_buf : NULL, 0, 0, type,
                         o, flags, tu_op_names[op]);
            continue;
          }
          memset(out_buf, FILL, OUT_BYTES);
          check_status(GPUREDUCE_SUCCESS,
                       gpureduce_reduce(with_ptr ? in_buf : NULL, out_buf, 0, type, o, flags, H),
                       "%s", what);
          uint64_t wanted;
          const char *doc;
          switch (o) {
            case GPUREDUCE_PROD:
              doc = "1";
              wanted = !ti->is_float ? 1 : rs == 4 ? 0x3f800000u : UINT64_C(0x3ff0000000000000);
              break;
            case GPUREDUCE_MIN:
              doc = "+inf (integers: the type's largest value)";
              wanted = type == GPUREDUCE_F16    ? 0x7c00u
                       : type == GPUREDUCE_BF16 ? 0x7f80u
                       : type == GPUREDUCE_F32  ? 0x7f800000u
                       : type == GPUREDUCE_F64  ? UINT64_C(0x7ff0000000000000)
                       : type == GPUREDUCE_I8   ? 0x7fu
                       : type == GPUREDUCE_U8   ? 0xffu
                       : type == GPUREDUCE_I32  ? 0x7fffffffu
                       : type == GPUREDUCE_U32  ? 0xffffffffu
                       : type == GPUREDUCE_I64  ? UINT64_C(0x7fffffffffffffff)
                                                : UINT64_MAX;
              break;
            case GPUREDUCE_MAX:
              doc = "-inf (integers: the type's lowest value)";
              wanted = type == GPUREDUCE_F16    ? 0xfc00u
                       : type == GPUREDUCE_BF16 ? 0xff80u
                       : type == GPUREDUCE_F32  ? 0xff800000u
                       : type == GPUREDUCE_F64  ? UINT64_C(0xfff0000000000000)
                       : type == GPUREDUCE_I8   ? 0x80u
                       : type == GPUREDUCE_I32  ? 0x80000000u
                       : type == GPUREDUCE_I64  ? UINT64_C(0x8000000000000000)
                                                : 0; /* unsigned: 0 */
              break;
            case GPUREDUCE_LOGSUMEXP:
              doc = "-inf";
              wanted = rs == 4 ? 0xff800000u : UINT64_C(0xfff0000000000000);
              break;
            default: /* the sums, NRM2 and AMAX */
              doc = "+0, sign bit clear";
              wanted = 0;
              break;
          }
          check_bits(wanted, tu_load(out_buf, 0, (unsigned)rs), "%s: the result is %s", what, doc);
          check_bytes(out_buf + rs, FILL, OUT_BYTES - rs, "%s: the canary after the %zu-byte result",
                      what, rs);
        }
      }
    }
  }
}

/* The byte range of the n elements: counts whose byte offsets overflow
 * int64_t or whose bytes wrap around the address space are
 * INVALID_ARGUMENT before anything is read (the 16 floats of in_buf are
 * all there is); an output inside the input's elements is
 * INVALID_ARGUMENT, one just outside them is fine.  The batched call has
 * the same checks (test-batched-args). */
static void byte_ranges_and_overlap(void **state) {
  (void)state;
  const struct {
    size_t n;
    const char *word;
  } huge[] = {{(size_t)1 << 62, "overflow"}, {((size_t)1 << 62) + 1, "overflow"},
              {SIZE_MAX, "overflow"}, {SIZE_MAX / 2 + 2, "overflow"}};
  for (size_t k = 0; k < COUNT(huge); ++k)
    for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op) {
      char what[96];
      snprintf(what, sizeof what, "f32 %s of n = %zu from a 16-float array", tu_op_names[op],
               huge[k].n);
      expect_error(what, GPUREDUCE_ERROR_INVALID_ARGUMENT, in_buf, 0, huge[k].n, GPUREDUCE_F32,
                   (gpureduce_op_t)op, 0, huge[k].word);
    }
  /* u8: 2^63 + 1 elements; f64: 2^61 elements are 2^64 bytes */
  expect_error("u8 sum of n = 2^63 + 1", GPUREDUCE_ERROR_INVALID_ARGUMENT, in_buf, 0,
               ((size_t)1 << 63) + 1, GPUREDUCE_U8, GPUREDUCE_SUM, 0, "overflow");
  expect_error("f64 max of n = 2^61", GPUREDUCE_ERROR_INVALID_ARGUMENT, in_buf, 0,
               (size_t)1 << 61, GPUREDUCE_F64, GPUREDUCE_MAX, 0, "overflow");
  /* the input near the top of the address space: its bytes wrap */
  memset(out_buf, FILL, OUT_BYTES);
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT,
               gpureduce_reduce((const void *)(UINTPTR_MAX - 63), out_buf, 32, GPUREDUCE_F32,
                                GPUREDUCE_SUM, 0, H),
               "f32 sum of 32 elements from 64 bytes below the top of the address space");
  check_bytes(out_buf, FILL, OUT_BYTES, "the wrapping input: the output is untouched");
  check_true(tu_mentions(gpureduce_last_message(H), "wrap"),
             "the wrapping input: the message \"%s\" mentions \"wrap\"",
             gpureduce_last_message(H));

  /* an output inside the input: a copy of 16 floats 1..16, the output at
   * each float of it and at each end */
  unsigned char *x = tu_alloc(256);
  for (size_t at = 0; at <= 64; at += 4) {
    for (int i = 0; i < 64; ++i) memcpy(x + 4 * i, &(float){(float)(i + 1)}, 4);
    const gpureduce_status_t s =
        gpureduce_reduce(x, x + at, 16, GPUREDUCE_F32, GPUREDUCE_SUM, 0, H);
    if (at < 64) {
      check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, s,
                   "f32 sum of 16 floats into its own byte %zu", at);
      check_true(tu_mentions(gpureduce_last_message(H), "overlap"),
                 "output at byte %zu of the input: the message \"%s\" mentions \"overlap\"",
                 at, gpureduce_last_message(H));
      int same = 1;
      for (int i = 0; i < 64; ++i) same &= tu_load(x + 4 * i, 0, 4) == tu_f32_bits((float)(i + 1));
      check_true(same, "output at byte %zu of the input: nothing written", at);
    } else {
      check_status(GPUREDUCE_SUCCESS, s, "f32 sum of 16 floats into the float after them (%s)",
                   gpureduce_last_message(H));
      check_bits(tu_f32_bits(136.0f), tu_load(x + 64, 0, 4),
                 "the sum of 1..16 written just after them is 136");
    }
  }
  /* just before the input: an 8-byte sum ending where the input starts */
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce(x + 8, x, 16, GPUREDUCE_I32, GPUREDUCE_SUM, 0, H),
               "i32 sum into the 8 bytes just before the input (%s)", gpureduce_last_message(H));
  uint64_t want = 0;
  for (int i = 0; i < 16; ++i) want += (uint64_t)(int64_t)(int32_t)tu_load(x + 8 + 4 * i, 0, 4);
  check_bits(want, tu_load(x, 0, 8), "the i32 sum written just before its input");
  /* an 8-byte result whose last byte is the input's first */
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT,
               gpureduce_reduce(x + 15, x + 8, 16, GPUREDUCE_U8, GPUREDUCE_SUM, 0, H),
               "u8 sum into 8 bytes whose last is the input's first");
  check_true(tu_mentions(gpureduce_last_message(H), "overlap"),
             "one byte in common: the message \"%s\" mentions \"overlap\"",
             gpureduce_last_message(H));
  free(x);
}

static void ladder_on_host(void **state) {
  (void)state;
  float ws[64];
  unsigned launches = 42;
  for (int r = GPUREDUCE_LADDER_FIRST; r <= GPUREDUCE_LADDER_LAST; ++r) {
    memset(out_buf, FILL, OUT_BYTES);
    check_status(GPUREDUCE_ERROR_UNSUPPORTED,
                 gpureduce_ladder_sum_f32((gpureduce_ladder_rung_t)r, (const float *)in_buf,
                                          (float *)out_buf, 100, ws, sizeof ws, &launches, H),
                 "ladder rung %d on the host handle", r);
    check_bytes(out_buf, FILL, OUT_BYTES, "ladder rung %d on the host handle writes nothing", r);
    check_bits(42, launches, "ladder rung %d on the host handle leaves *launches alone", r);
    check_true(*gpureduce_last_message(H) != '\0',
               "ladder rung %d on the host handle: the message says why", r);
  }
  const int bad[] = {0, 7, -1};
  for (size_t k = 0; k < COUNT(bad); ++k) {
    memset(out_buf, FILL, OUT_BYTES);
    check_status(GPUREDUCE_ERROR_UNSUPPORTED,
                 gpureduce_ladder_sum_f32((gpureduce_ladder_rung_t)bad[k], (const float *)in_buf,
                                          (float *)out_buf, 100, ws, sizeof ws, NULL, H),
                 "ladder rung %d (unknown)", bad[k]);
    check_bytes(out_buf, FILL, OUT_BYTES, "ladder rung %d (unknown) writes nothing", bad[k]);
  }
  size_t bytes = 12345;
  for (size_t k = 0; k < COUNT(bad); ++k) {
    check_status(GPUREDUCE_ERROR_UNSUPPORTED,
                 gpureduce_ladder_workspace_size((gpureduce_ladder_rung_t)bad[k], 1000, &bytes),
                 "gpureduce_ladder_workspace_size of rung %d (unknown)", bad[k]);
    check_bits(12345, bytes, "gpureduce_ladder_workspace_size of rung %d leaves *bytes alone",
               bad[k]);
  }
  for (int r = GPUREDUCE_LADDER_FIRST; r <= GPUREDUCE_LADDER_LAST; ++r) {
    check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 gpureduce_ladder_workspace_size((gpureduce_ladder_rung_t)r, 1000, NULL),
                 "gpureduce_ladder_workspace_size of rung %d with NULL bytes", r);
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_ladder_workspace_size((gpureduce_ladder_rung_t)r, 1000, &bytes),
                 "gpureduce_ladder_workspace_size of rung %d needs no device", r);
  }
}

/* The tuning calls are for CUDA handles (gpureduce.h, "Tuning"). */
static void tuning_on_host(void **state) {
  (void)state;
  unsigned blocks = 5;
  int tuned = 9;
  check_status(GPUREDUCE_ERROR_UNSUPPORTED,
               gpureduce_get_blocks(H, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 1000, &blocks, &tuned),
               "gpureduce_get_blocks on the host handle");
  check_bits(5, blocks, "gpureduce_get_blocks on the host handle leaves *blocks alone");
  check_status(GPUREDUCE_ERROR_UNSUPPORTED,
               gpureduce_set_blocks(H, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 1000, 8),
               "gpureduce_set_blocks on the host handle");
  check_status(GPUREDUCE_ERROR_UNSUPPORTED,
               gpureduce_autotune(H, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 0, NULL, 0, NULL),
               "gpureduce_autotune on the host handle");
  gpureduce_tune_cache_t cache = GPUREDUCE_TUNE_CACHE_CORRUPT;
  const char *path = "unset";
  check_status(GPUREDUCE_SUCCESS, gpureduce_tune_cache_state(H, &cache, &path),
               "gpureduce_tune_cache_state on the host handle");
  check_bits(GPUREDUCE_TUNE_CACHE_ABSENT, cache, "the host handle has no tuning cache (ABSENT)");
  check_true(path == NULL, "the host handle's tuning cache path is NULL");
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, gpureduce_tune_cache_state(H, NULL, &path),
               "gpureduce_tune_cache_state with a NULL state pointer");
}

static void handle_survives_errors(void **state) {
  (void)state;
  /* after all the failures above, the handle still reduces */
  memset(out_buf, FILL, OUT_BYTES);
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce(in_buf, out_buf, 1024, GPUREDUCE_F32, GPUREDUCE_SUM, 0, H),
               "the sum of 1..1024 after argument errors");
  check_bits(tu_f32_bits(524800.0f), tu_load(out_buf, 0, 4), "the sum of 1..1024 is 524800");
  memset(out_buf, FILL, OUT_BYTES);
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce(in_buf, out_buf, 1024, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0, H),
               "argmax of 1..1024 after argument errors");
  check_bits(1023, tu_load(out_buf, 0, 8), "argmax of 1..1024 is index 1023");
}

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(null_pointers), cmocka_unit_test(unknown_ops_types_flags),
      cmocka_unit_test(with_value_flags), cmocka_unit_test(softmax_stats_flags),
      cmocka_unit_test(misaligned),    cmocka_unit_test(empty_inputs),
      cmocka_unit_test(byte_ranges_and_overlap),
      cmocka_unit_test(ladder_on_host), cmocka_unit_test(tuning_on_host),
      cmocka_unit_test(handle_survives_errors),
  };
  return cmocka_run_group_tests_name("test-args", tests, group_setup, group_teardown);
}
