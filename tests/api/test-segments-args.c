/*
 * test-segments-args.c - the arguments of gpureduce_reduce_segments() and
 * its asynchronous error, gpureduce_get_async_error(), on the host handle
 * and, where there is a GPU, on a handle of CUDA device 0 (the same cases
 * on both: the checks are the API layer's, before any backend).
 *
 *   - each class of argument error returns its documented status, leaves
 *     the output (a canary-filled buffer) untouched and sets a last
 *     message that names what is wrong; the calls right at the edge of
 *     each check succeed; segments == 0 touches nothing;
 *   - invalid offsets (decreasing, offsets[0] > offsets[segments], an
 *     offset past offsets[segments]) give the empty-segment value for the
 *     invalid segments, GPUREDUCE_SUCCESS from the call, and
 *     GPUREDUCE_ERROR_INVALID_OFFSETS from gpureduce_get_async_error()
 *     with the lowest invalid segment in the message, which the next
 *     gpureduce_get_async_error() no longer reports.
 *
 * The bits of valid segments against gpureduce_reduce() are the
 * segmented battery's (tests/lib/segments.c); here only a few results
 * written out from gpureduce.h and doc/ORDER.md are checked.
 *
 * Some cases pass addresses no buffer has (near 0 or near UINTPTR_MAX):
 * the checks refuse them before anything is read or written.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battery.h"

#define FILL 0xA7
#define IN_BYTES 4096   /* floats 1, 2, ..., 1024 */
#define OUT_BYTES 4096  /* room for 500 8-byte results, and a canary */
#define OFFS_BYTES 4096 /* 512 offsets: 0, 4, 8, ..., 1020, twice */

/* One backend: its handle and buffers in the memory its handle reduces. */
struct ctx {
  const char *name;
  const struct tu_backend *be;
  gpureduce_handle_t h;
  unsigned char *in, *out, *offs;
};

static struct ctx ctxs[2];
static int nctx; /* 1 (host) or 2 (host and CUDA) */
static uint64_t offs_img[OFFS_BYTES / 8];
static unsigned char seen[OUT_BYTES]; /* host copy of an output buffer */

static int open_ctx(struct ctx *c, const char *name, const struct tu_backend *be) {
  c->name = name;
  c->be = be;
  if (gpureduce_create(&c->h, be->device) != GPUREDUCE_SUCCESS) {
    print_error("cannot create the %s handle\n", name);
    return -1;
  }
  c->in = be->alloc(IN_BYTES);
  c->out = be->alloc(OUT_BYTES);
  c->offs = be->alloc(OFFS_BYTES);
  if (!c->in || !c->out || !c->offs) {
    print_error("cannot allocate the %s buffers\n", name);
    return -1;
  }
  float x[IN_BYTES / 4];
  for (int i = 0; i < IN_BYTES / 4; ++i) x[i] = (float)(i + 1);
  be->put(c->in, x, IN_BYTES);
  be->put(c->offs, offs_img, OFFS_BYTES);
  return 0;
}

static int group_setup(void **state) {
  (void)state;
  tu_announce_seed();
  for (size_t k = 0; k < COUNT(offs_img); ++k) offs_img[k] = 4 * (k % 256);
  if (open_ctx(&ctxs[0], "host", &bt_host_backend) != 0) return -1;
  nctx = 1;
  if (tu_have_cuda()) {
    if (open_ctx(&ctxs[1], "CUDA", &bt_cuda_backend) != 0) return -1;
    nctx = 2;
  } else {
    printf("# no CUDA device: the host handle only\n");
  }
  return 0;
}

static int group_teardown(void **state) {
  (void)state;
  int failed = 0;
  for (int k = 0; k < nctx; ++k) {
    const struct ctx *c = &ctxs[k];
    c->be->release(c->in);
    c->be->release(c->out);
    c->be->release(c->offs);
    failed |= gpureduce_destroy(c->h) != GPUREDUCE_SUCCESS;
  }
  return failed ? -1 : 0;
}

struct call {
  const void *input;
  void *output;
  const uint64_t *offsets;
  size_t segments;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
};

#define CALL(...) ((struct call){__VA_ARGS__})
#define OFFS(c, k) ((const uint64_t *)(c)->offs + (k))

/* Fill every backend's output buffer, make the call on handle h, copy
 * c's output buffer into `seen`. */
static gpureduce_status_t run_on(const struct ctx *c, gpureduce_handle_t h,
                                 const struct call *k) {
  static unsigned char fill[OUT_BYTES];
  memset(fill, FILL, OUT_BYTES);
  for (int i = 0; i < nctx; ++i) ctxs[i].be->put(ctxs[i].out, fill, OUT_BYTES);
  const gpureduce_status_t s = gpureduce_reduce_segments(
      k->input, k->output, k->offsets, k->segments, k->type, k->op, k->flags, h);
  c->be->get(seen, c->out, OUT_BYTES);
  return s;
}

/* Every backend's output buffer still holds FILL. */
static void outputs_untouched(const char *what) {
  for (int i = 0; i < nctx; ++i) {
    ctxs[i].be->get(seen, ctxs[i].out, OUT_BYTES);
    check_bytes(seen, FILL, OUT_BYTES, "%s: the %s output buffer is untouched", what,
                ctxs[i].name);
  }
}

/* One call on c's handle that must fail: its status, the output untouched,
 * a message that mentions `word`. */
static void expect_error(const struct ctx *c, const char *what, gpureduce_status_t wanted,
                         struct call k, const char *word) {
  char label[160];
  snprintf(label, sizeof label, "%s: %s", c->name, what);
  const gpureduce_status_t s = run_on(c, c->h, &k);
  check_failed(c->h, wanted, s, seen, FILL, OUT_BYTES, word, label);
  outputs_untouched(label);
}

/* One call that must succeed (the other side of a check's edge). */
static void expect_success(const struct ctx *c, const char *what, struct call k) {
  check_status(GPUREDUCE_SUCCESS, run_on(c, c->h, &k), "%s: %s (%s)", c->name, what,
               gpureduce_last_message(c->h));
  check_true(*gpureduce_last_message(c->h) == '\0', "%s: %s: the message is empty", c->name,
             what);
}

/* The handle's asynchronous error is clear (and stays so). */
static void expect_no_async_error(const struct ctx *c, const char *what) {
  check_status(GPUREDUCE_SUCCESS, gpureduce_get_async_error(c->h),
               "%s: %s: gpureduce_get_async_error (%s)", c->name, what,
               gpureduce_last_message(c->h));
  check_true(*gpureduce_last_message(c->h) == '\0', "%s: %s: no message", c->name, what);
}

static void null_handle_and_kinds(void **state) {
  (void)state;
  const struct ctx *c0 = &ctxs[0];
  const struct call ok = CALL(c0->in, c0->out, OFFS(c0, 0), 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0);
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE, run_on(c0, NULL, &ok), "a NULL handle");
  outputs_untouched("a NULL handle");
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE, gpureduce_get_async_error(NULL),
               "gpureduce_get_async_error of a NULL handle");
  for (int i = 0; i < nctx; ++i) {
    const struct ctx *c = &ctxs[i];
    const uint64_t *o = OFFS(c, 0);
    /* gpureduce_reduce()'s checks, in its order, before segments == 0 */
    expect_error(c, "unknown type 10", GPUREDUCE_ERROR_UNSUPPORTED,
                 CALL(c->in, c->out, o, 3, (gpureduce_type_t)10, GPUREDUCE_SUM, 0), "type");
    expect_error(c, "unknown op 12", GPUREDUCE_ERROR_UNSUPPORTED,
                 CALL(c->in, c->out, o, 3, GPUREDUCE_F32, (gpureduce_op_t)12, 0), "op");
    expect_error(c, "unknown type with 0 segments", GPUREDUCE_ERROR_UNSUPPORTED,
                 CALL(NULL, NULL, NULL, 0, (gpureduce_type_t)-1, GPUREDUCE_SUM, 0), "type");
    expect_error(c, "flags 0x8", GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(c->in, c->out, o, 3, GPUREDUCE_F32, GPUREDUCE_SUM, 8), "flag");
    expect_error(c, "GPUREDUCE_WITH_VALUE on f32 sum", GPUREDUCE_ERROR_UNSUPPORTED,
                 CALL(c->in, c->out, o, 3, GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_WITH_VALUE),
                 "with_value");
    expect_error(c, "GPUREDUCE_WITH_VALUE on u8 min", GPUREDUCE_ERROR_UNSUPPORTED,
                 CALL(c->in, c->out, o, 3, GPUREDUCE_U8, GPUREDUCE_MIN, GPUREDUCE_WITH_VALUE),
                 "with_value");
    expect_error(c, "GPUREDUCE_WITH_VALUE on f32 sum with 0 segments",
                 GPUREDUCE_ERROR_UNSUPPORTED,
                 CALL(NULL, NULL, NULL, 0, GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_WITH_VALUE),
                 "with_value");
    expect_error(c, "GPUREDUCE_WITH_VALUE | GPUREDUCE_ACCUMULATE_F64 on f32 argmax",
                 GPUREDUCE_ERROR_UNSUPPORTED,
                 CALL(c->in, c->out, o, 3, GPUREDUCE_F32, GPUREDUCE_ARGMAX,
                      GPUREDUCE_WITH_VALUE | GPUREDUCE_ACCUMULATE_F64),
                 "f64");
    expect_error(c, "GPUREDUCE_ACCUMULATE_F64 on f32 argmax", GPUREDUCE_ERROR_UNSUPPORTED,
                 CALL(c->in, c->out, o, 3, GPUREDUCE_F32, GPUREDUCE_ARGMAX,
                      GPUREDUCE_ACCUMULATE_F64),
                 "f64");
    expect_error(c, "GPUREDUCE_ACCUMULATE_F64 on f64 sum", GPUREDUCE_ERROR_UNSUPPORTED,
                 CALL(c->in, c->out, o, 3, GPUREDUCE_F64, GPUREDUCE_SUM,
                      GPUREDUCE_ACCUMULATE_F64),
                 "f64");
    expect_no_async_error(c, "after rejected calls");
  }
}

static void no_segments(void **state) {
  (void)state;
  for (int i = 0; i < nctx; ++i) {
    const struct ctx *c = &ctxs[i];
    const struct ctx *other = &ctxs[nctx - 1 - i]; /* the other memory space, if any */
    /* 0 segments succeeds and touches nothing, the offsets included,
     * whatever the pointers */
    const struct call calls[] = {
        CALL(NULL, NULL, NULL, 0, GPUREDUCE_F32, GPUREDUCE_SUM, 0),
        CALL(NULL, NULL, NULL, 0, GPUREDUCE_F32, GPUREDUCE_ARGMIN, 0),
        CALL(c->in + 1, c->out + 3, (const uint64_t *)(uintptr_t)1, 0, GPUREDUCE_F64,
             GPUREDUCE_ARGMAX, 0),
        CALL(c->in, c->out, (const uint64_t *)(uintptr_t)(UINTPTR_MAX - 7), 0, GPUREDUCE_U8,
             GPUREDUCE_MAX, 0),
        CALL(other->in, other->out, OFFS(other, 0), 0, GPUREDUCE_F32, GPUREDUCE_SUM, 0),
    };
    for (size_t k = 0; k < COUNT(calls); ++k) {
      char what[64];
      snprintf(what, sizeof what, "0 segments, case %zu", k);
      expect_success(c, what, calls[k]);
      outputs_untouched(what);
    }
    expect_no_async_error(c, "after 0 segments");
  }
}

static void pointers(void **state) {
  (void)state;
  for (int i = 0; i < nctx; ++i) {
    const struct ctx *c = &ctxs[i];
    const uint64_t *o = OFFS(c, 0);
    expect_error(c, "NULL output", GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(c->in, NULL, o, 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0), "output");
    expect_error(c, "NULL output, input and offsets (output first)",
                 GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(NULL, NULL, NULL, 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0), "output");
    for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t)
      expect_error(c, "NULL input", GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   CALL(NULL, c->out, o, 3, (gpureduce_type_t)t, GPUREDUCE_MAX, 0), "input");
    /* offsets {7, 7}: one empty segment; the input is still required */
    const uint64_t empty[] = {7, 7};
    c->be->put(c->offs + 3072, empty, sizeof empty);
    expect_error(c, "NULL input with every segment empty", GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(NULL, c->out, OFFS(c, 384), 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0), "input");
    c->be->put(c->offs, offs_img, OFFS_BYTES);
    expect_error(c, "NULL input and offsets (input first)", GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(NULL, c->out, NULL, 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0), "input");
    expect_error(c, "NULL offsets", GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(c->in, c->out, NULL, 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0), "offsets");
    expect_error(c, "NULL offsets for argmin", GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(c->in, c->out, NULL, 1, GPUREDUCE_I8, GPUREDUCE_ARGMIN, 0), "offsets");
  }
}

static void misaligned(void **state) {
  (void)state;
  for (int i = 0; i < nctx; ++i) {
    const struct ctx *c = &ctxs[i];
    const uint64_t *o = OFFS(c, 0);
    for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
      const unsigned size = tu_types[t].size;
      if (size == 1) continue;
      const size_t offs[] = {1, size / 2, size + 1};
      for (size_t k = 0; k < COUNT(offs); ++k) {
        char what[96];
        snprintf(what, sizeof what, "%s input at %zu bytes past an aligned address",
                 tu_types[t].name, offs[k]);
        expect_error(c, what, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                     CALL(c->in + offs[k], c->out, o, 3, (gpureduce_type_t)t, GPUREDUCE_SUM,
                          0),
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
        expect_error(c, what, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                     CALL(c->in, c->out + off, o, 3, outs[k].type, outs[k].op, outs[k].flags),
                     "output");
      }
    }
    for (size_t off = 1; off < 8; off *= 2) {
      char what[64];
      snprintf(what, sizeof what, "offsets %zu bytes past an aligned address", off);
      expect_error(c, what, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   CALL(c->in, c->out, (const uint64_t *)(c->offs + off), 3, GPUREDUCE_U8,
                        GPUREDUCE_MAX, 0),
                   "offsets");
    }
    /* the order: input, then output, then offsets */
    expect_error(c, "misaligned input, output and offsets (input first)",
                 GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(c->in + 2, c->out + 2, (const uint64_t *)(c->offs + 4), 3, GPUREDUCE_F32,
                      GPUREDUCE_SUM, 0),
                 "input");
    /* byte results at odd addresses, byte inputs at any address: u8 max
     * of the segments {0, 4, 8, 12} of the bytes from in + 3 */
    expect_success(c, "u8 max into an odd output address, from an odd input address",
                   CALL(c->in + 3, c->out + 1, o, 3, GPUREDUCE_U8, GPUREDUCE_MAX, 0));
    /* the bytes 3..6, 7..10, 11..14 of the floats 1, 2, 3, 4 (little
     * endian: 1.0f is 00 00 80 3f) */
    const float f[4] = {1, 2, 3, 4};
    unsigned char b[16];
    memcpy(b, f, 16);
    for (int s = 0; s < 3; ++s) {
      unsigned char m = 0;
      for (int j = 0; j < 4; ++j) m = b[3 + 4 * s + j] > m ? b[3 + 4 * s + j] : m;
      check_bits(m, seen[1 + s], "%s: u8 max of segment %d from an odd address", c->name, s);
    }
    check_bits(FILL, seen[4], "%s: 3 byte results write 3 bytes", c->name);
  }
}

/* segments + 1, segments * result size, the output's and the offsets'
 * address ranges. */
static void sizes(void **state) {
  (void)state;
  for (int i = 0; i < nctx; ++i) {
    const struct ctx *c = &ctxs[i];
    const uint64_t *o = OFFS(c, 0);
    expect_error(c, "SIZE_MAX segments: segments + 1 overflows", GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(c->in, c->out, o, SIZE_MAX, GPUREDUCE_U8, GPUREDUCE_MAX, 0), "overflow");
    expect_error(c, "segments * 4-byte results overflows size_t",
                 GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(c->in, c->out, o, SIZE_MAX / 4 + 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0),
                 "overflow");
    expect_error(c, "segments * 8-byte results overflows size_t",
                 GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(c->in, c->out, o, SIZE_MAX / 8 + 1, GPUREDUCE_F64, GPUREDUCE_ARGMIN, 0),
                 "overflow");
    expect_error(c, "2 results from 4 bytes below the top of the address space",
                 GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(c->in, (void *)(UINTPTR_MAX - 3), o, 2, GPUREDUCE_F32, GPUREDUCE_SUM, 0),
                 "wrap");
    expect_error(c, "3 offsets from 16 bytes below the top of the address space",
                 GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(c->in, c->out, (const uint64_t *)(UINTPTR_MAX - 15), 2, GPUREDUCE_F32,
                      GPUREDUCE_SUM, 0),
                 "wrap");
    /* 2^61 offsets are 2^64 bytes: more than any address space, though
     * the 2^61 - 1 byte results fit */
    expect_error(c, "(segments + 1) * 8 bytes of offsets overflows",
                 GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(c->in, c->out, o, (size_t)(UINT64_MAX / 8), GPUREDUCE_U8, GPUREDUCE_MAX,
                      0),
                 "wrap");
    /* the order: segments + 1 before the results' size */
    expect_error(c, "SIZE_MAX segments of 8-byte results (segments + 1 first)",
                 GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 CALL(c->in, c->out, o, SIZE_MAX, GPUREDUCE_F64, GPUREDUCE_SUM, 0), "+ 1");
  }
}

/* The output against the offsets array: 3 segments' offsets at offs +
 * 2048, 32 bytes, {0, 4, 8, 12}. */
static void overlap(void **state) {
  (void)state;
  for (int i = 0; i < nctx; ++i) {
    const struct ctx *c = &ctxs[i];
    unsigned char *const base = c->offs + 2048;
    const uint64_t *o = (const uint64_t *)base;
    const struct {
      const char *what;
      struct call k;
    } bad[] = {
        {"the results on the offsets' first byte",
         CALL(c->in, base, o, 3, GPUREDUCE_F64, GPUREDUCE_SUM, 0)},
        {"f32 results ending inside the offsets' first element",
         CALL(c->in, base - 8, o, 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0)},
        {"byte results ending on the offsets' first byte",
         CALL(c->in, base - 2, o, 3, GPUREDUCE_U8, GPUREDUCE_MAX, 0)},
        {"byte results starting on the offsets' last byte",
         CALL(c->in, base + 31, o, 3, GPUREDUCE_U8, GPUREDUCE_MAX, 0)},
        {"byte results inside the offsets", CALL(c->in, base + 9, o, 3, GPUREDUCE_U8,
                                                 GPUREDUCE_MAX, 0)},
        {"argmax results covering the offsets",
         CALL(c->in, base - 800, o, 200, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0)},
    };
    static uint64_t now[OFFS_BYTES / 8];
    for (size_t k = 0; k < COUNT(bad); ++k) {
      char label[160];
      snprintf(label, sizeof label, "%s: %s", c->name, bad[k].what);
      const gpureduce_status_t s = run_on(c, c->h, &bad[k].k);
      check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, s, "%s", label);
      check_true(tu_mentions(gpureduce_last_message(c->h), "overlap"),
                 "%s: the message \"%s\" mentions \"overlap\"", label,
                 gpureduce_last_message(c->h));
      c->be->get(now, c->offs, OFFS_BYTES);
      check_true(memcmp(now, offs_img, OFFS_BYTES) == 0,
                 "%s: the offsets buffer is untouched", label);
      outputs_untouched(label);
    }
    /* right next to the offsets is fine */
    expect_success(c, "byte results ending right before the offsets",
                   CALL(c->in, base - 3, o, 3, GPUREDUCE_U8, GPUREDUCE_MAX, 0));
    expect_success(c, "f32 results right after the offsets",
                   CALL(c->in, base + 32, o, 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0));
    c->be->get(now, c->offs, OFFS_BYTES);
    check_true(memcmp(now, offs_img, 2048 - 3) == 0 &&
                   memcmp((const unsigned char *)now + 2048,
                          (const unsigned char *)offs_img + 2048, 32) == 0,
               "%s: results next to the offsets leave the offsets, and the bytes before "
               "the results, as they were",
               c->name);
    float sums[3];
    memcpy(sums, (const unsigned char *)now + 2048 + 32, sizeof sums);
    for (int s = 0; s < 3; ++s)
      check_bits(tu_f32_bits((float)(16 * s + 10)), tu_f32_bits(sums[s]),
                 "%s: the sum of segment %d is %d", c->name, s, 16 * s + 10);
    c->be->put(c->offs, offs_img, OFFS_BYTES);
    expect_no_async_error(c, "after overlap checks");
  }
}

/* Input, output and offsets in the other backend's memory. */
static void memory_spaces(void **state) {
  (void)state;
  if (nctx < 2) {
    printf("# no CUDA device: no memory of another space to pass\n");
    return;
  }
  for (int i = 0; i < 2; ++i) {
    const struct ctx *c = &ctxs[i], *x = &ctxs[1 - i];
    expect_error(c, "input in the other memory space", GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
                 CALL(x->in, c->out, OFFS(c, 0), 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0), "input");
    expect_error(c, "output in the other memory space", GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
                 CALL(c->in, x->out, OFFS(c, 0), 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0), "output");
    expect_error(c, "offsets in the other memory space", GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
                 CALL(c->in, c->out, OFFS(x, 0), 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0), "offsets");
    expect_error(c, "everything in the other memory space (input first)",
                 GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
                 CALL(x->in, x->out, OFFS(x, 0), 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0), "input");
    expect_no_async_error(c, "after memory-space errors");
  }
}

/* The examples of the header and of doc/ORDER.md. */
static void documented_results(void **state) {
  (void)state;
  for (int i = 0; i < nctx; ++i) {
    const struct ctx *c = &ctxs[i];
    /* reduce.h: {1, 2, 3, 4, 5, 6}, offsets {0, 2, 2, 6}; the floats
     * 1..6 are the first six of c->in */
    const uint64_t o1[] = {0, 2, 2, 6};
    c->be->put(c->offs + 3072, o1, sizeof o1);
    const uint64_t *o = (const uint64_t *)(c->offs + 3072);
    expect_success(c, "reduce.h's example, sum", CALL(c->in, c->out, o, 3, GPUREDUCE_F32,
                                                      GPUREDUCE_SUM, 0));
    check_bits(tu_f32_bits(3), tu_load(seen, 0, 4), "%s: sum of {1, 2} is 3", c->name);
    check_bits(0, tu_load(seen, 1, 4), "%s: sum of the empty segment is +0", c->name);
    check_bits(tu_f32_bits(18), tu_load(seen, 2, 4), "%s: sum of {3, 4, 5, 6} is 18", c->name);
    check_bytes(seen + 12, FILL, OUT_BYTES - 12, "%s: 3 sums write 12 bytes", c->name);
    expect_success(c, "reduce.h's example, argmax", CALL(c->in, c->out, o, 3, GPUREDUCE_F32,
                                                         GPUREDUCE_ARGMAX, 0));
    check_bits(1, tu_load(seen, 0, 8), "%s: argmax of {1, 2} is 1", c->name);
    check_bits(GPUREDUCE_NO_INDEX, tu_load(seen, 1, 8),
               "%s: argmax of the empty segment is GPUREDUCE_NO_INDEX", c->name);
    check_bits(3, tu_load(seen, 2, 8), "%s: argmax of {3, 4, 5, 6} is 3, within the segment",
               c->name);
    /* doc/ORDER.md: the array 1e8, 1, -1e8, 1, 0.5, 0.25, 1e8, 1, -1e8,
     * 1, 0.5 with offsets {0, 6, 6, 11}: 1.75, +0, 1.5 */
    const float a[] = {1e8f, 1, -1e8f, 1, .5f, .25f, 1e8f, 1, -1e8f, 1, .5f};
    const uint64_t o2[] = {0, 6, 6, 11};
    c->be->put(c->in + 2048, a, sizeof a);
    c->be->put(c->offs + 3072, o2, sizeof o2);
    expect_success(c, "doc/ORDER.md's segmented example",
                   CALL(c->in + 2048, c->out, o, 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0));
    check_bits(tu_f32_bits(1.75f), tu_load(seen, 0, 4), "%s: ORDER.md's segment 0 is 1.75",
               c->name);
    check_bits(0, tu_load(seen, 1, 4), "%s: ORDER.md's segment 1 is +0", c->name);
    check_bits(tu_f32_bits(1.5f), tu_load(seen, 2, 4),
               "%s: ORDER.md's segment 2 is 1.5, indexed from its own first element",
               c->name);
    /* restore the buffers */
    float x[IN_BYTES / 4];
    for (int j = 0; j < IN_BYTES / 4; ++j) x[j] = (float)(j + 1);
    c->be->put(c->in, x, IN_BYTES);
    c->be->put(c->offs, offs_img, OFFS_BYTES);
    expect_no_async_error(c, "after valid offsets");
  }
}

/* ---- invalid offsets ------------------------------------------------------ */

/* The empty-segment result of (type, op) as bits (its first 8 bytes),
 * from gpureduce.h: +0 for the sums, NRM2 and AMAX, 1 for the product,
 * +inf or the largest value for MIN, -inf or the lowest for MAX, -inf for
 * LOGSUMEXP,
 * GPUREDUCE_NO_INDEX for ARGMIN and ARGMAX, {NaN, NaN} for MEAN_VAR (two
 * canonical NaNs of 4 bytes, or the first of two of 8). */
static uint64_t empty_bits(gpureduce_type_t type, gpureduce_op_t op) {
  switch (op) {
    case GPUREDUCE_ARGMIN:
    case GPUREDUCE_ARGMAX:
      return GPUREDUCE_NO_INDEX;
    case GPUREDUCE_MEAN_VAR:
      return tu_result_size(type, op, 0) == 8 ? UINT64_C(0x7fffffff7fffffff)
                                              : UINT64_C(0x7fffffffffffffff);
    case GPUREDUCE_LOGSUMEXP:
      return type == GPUREDUCE_F64 ? 0xfff0000000000000u : 0xff800000u;
    case GPUREDUCE_PROD:
      if (type == GPUREDUCE_F64) return tu_f64_bits(1);
      return tu_types[type].is_float ? tu_f32_bits(1) : 1;
    case GPUREDUCE_MIN:
    case GPUREDUCE_MAX: {
      const int min = op == GPUREDUCE_MIN;
      switch (type) {
        case GPUREDUCE_F16: return min ? 0x7c00u : 0xfc00u;
        case GPUREDUCE_BF16: return min ? 0x7f80u : 0xff80u;
        case GPUREDUCE_F32: return min ? 0x7f800000u : 0xff800000u;
        case GPUREDUCE_F64: return min ? 0x7ff0000000000000u : 0xfff0000000000000u;
        case GPUREDUCE_I8: return min ? 0x7fu : 0x80u;
        case GPUREDUCE_U8: return min ? 0xffu : 0;
        case GPUREDUCE_I32: return min ? 0x7fffffffu : 0x80000000u;
        case GPUREDUCE_U32: return min ? 0xffffffffu : 0;
        case GPUREDUCE_I64: return min ? 0x7fffffffffffffffu : 0x8000000000000000u;
        case GPUREDUCE_U64: return min ? UINT64_MAX : 0;
      }
      return 0;
    }
    default:
      return 0; /* +0 and integer 0 */
  }
}

/* One call with bad offsets on c: SUCCESS, the results of the segments in
 * `invalid` (flags, one per segment) the empty value, nothing past the
 * results written; then gpureduce_get_async_error() reports `lowest`
 * once.  The valid segments' results are not checked: unspecified. */
static void expect_bad_offsets(const struct ctx *c, const char *what, const void *input,
                               const uint64_t *host_offsets, size_t segments,
                               const unsigned char *invalid, uint64_t lowest) {
  c->be->put(c->offs + 2048, host_offsets, (segments + 1) * 8);
  const uint64_t *o = (const uint64_t *)(c->offs + 2048);
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
    for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op) {
      const gpureduce_type_t type = (gpureduce_type_t)t;
      const size_t rs = tu_result_size(type, (gpureduce_op_t)op, 0);
      if (!rs) continue; /* LOGSUMEXP of integers */
      char label[160];
      snprintf(label, sizeof label, "%s: %s, %s %s", c->name, what, tu_types[t].name,
               tu_op_names[op]);
      const struct call k = CALL(input, c->out, o, segments, type, (gpureduce_op_t)op, 0);
      check_status(GPUREDUCE_SUCCESS, run_on(c, c->h, &k), "%s: the call succeeds (%s)",
                   label, gpureduce_last_message(c->h));
      check_true(*gpureduce_last_message(c->h) == '\0', "%s: no message from the call", label);
      for (size_t s = 0; s < segments; ++s)
        if (invalid[s]) {
          check_bits(empty_bits(type, (gpureduce_op_t)op),
                     tu_load(seen + s * rs, 0, rs > 8 ? 8 : (unsigned)rs),
                     "%s: invalid segment %zu holds the empty-segment value", label, s);
          if (rs > 8) /* MEAN_VAR's variance, a NaN too */
            check_bits(UINT64_C(0x7fffffffffffffff), tu_load(seen + s * rs + 8, 0, 8),
                       "%s: invalid segment %zu holds the empty-segment variance", label, s);
        }
      check_bytes(seen + segments * rs, FILL, OUT_BYTES - segments * rs,
                  "%s: nothing written past the %zu results", label, segments);
      check_status(GPUREDUCE_ERROR_INVALID_OFFSETS, gpureduce_get_async_error(c->h),
                   "%s: gpureduce_get_async_error reports the offsets", label);
      char word[48];
      snprintf(word, sizeof word, "segment %llu ", (unsigned long long)lowest);
      check_true(tu_mentions(gpureduce_last_message(c->h), word),
                 "%s: the message \"%s\" names the lowest invalid segment (\"%s\")", label,
                 gpureduce_last_message(c->h), word);
      expect_no_async_error(c, label); /* cleared */
    }
  }
  c->be->put(c->offs, offs_img, OFFS_BYTES);
}

static void invalid_offsets(void **state) {
  (void)state;
  for (int i = 0; i < nctx; ++i) {
    const struct ctx *c = &ctxs[i];
    {
      /* segment 1 decreases (4 -> 2); segment 2, 2 -> 8, is valid */
      const uint64_t o[] = {0, 4, 2, 8};
      const unsigned char bad[] = {0, 1, 0};
      expect_bad_offsets(c, "offsets {0, 4, 2, 8}", c->in, o, 3, bad, 1);
    }
    {
      /* decreasing twice: the lowest, 1, is reported */
      const uint64_t o[] = {0, 4, 2, 8, 6, 10};
      const unsigned char bad[] = {0, 1, 0, 1, 0};
      expect_bad_offsets(c, "offsets {0, 4, 2, 8, 6, 10}", c->in, o, 5, bad, 1);
    }
    {
      /* offsets[0] > offsets[segments]: every segment is invalid and
       * nothing is read (an input of one float would do; the offsets
       * point far past any buffer) */
      const uint64_t big = UINT64_MAX / 16;
      const uint64_t o[] = {big, big + 4, big + 8, 3};
      const unsigned char bad[] = {1, 1, 1};
      expect_bad_offsets(c, "offsets[0] > offsets[segments], far out", c->in, o, 3, bad, 0);
      /* {9, 9, 3}: segment 0, though it looks empty, ends past 3 */
      const uint64_t o2[] = {9, 9, 3};
      const unsigned char bad2[] = {1, 1};
      expect_bad_offsets(c, "offsets {9, 9, 3}", c->in, o2, 2, bad2, 0);
    }
    {
      /* an offset past offsets[segments]: segments 1 (4 -> 100) and 2
       * (100 -> 8) leave [0, 8] */
      const uint64_t o[] = {0, 4, 100, 8};
      const unsigned char bad[] = {0, 1, 1};
      expect_bad_offsets(c, "offsets {0, 4, 100, 8}", c->in, o, 3, bad, 1);
      /* an offset before offsets[0]: segment 0 (4 -> 2) and 1 (2 -> 6) */
      const uint64_t o2[] = {4, 2, 6};
      const unsigned char bad2[] = {1, 1};
      expect_bad_offsets(c, "offsets {4, 2, 6}", c->in, o2, 2, bad2, 0);
      /* an interior offset far past offsets[segments] makes the segments
       * on both sides of it invalid, and only those */
      const uint64_t o3[] = {0, 2, 4, (uint64_t)1 << 60, 8};
      const unsigned char bad3[] = {0, 0, 1, 1};
      expect_bad_offsets(c, "offsets {0, 2, 4, 2^60, 8}", c->in, o3, 4, bad3, 2);
    }
  }
}

/* Offsets of equal neighbours are empty, not invalid. */
static void empty_segments_are_valid(void **state) {
  (void)state;
  for (int i = 0; i < nctx; ++i) {
    const struct ctx *c = &ctxs[i];
    const uint64_t o[] = {5, 5, 5, 9, 9};
    c->be->put(c->offs + 2048, o, sizeof o);
    expect_success(c, "argmin of offsets {5, 5, 5, 9, 9}",
                   CALL(c->in, c->out, (const uint64_t *)(c->offs + 2048), 4, GPUREDUCE_F32,
                        GPUREDUCE_ARGMIN, 0));
    check_bits(GPUREDUCE_NO_INDEX, tu_load(seen, 0, 8), "%s: segment 0 is empty", c->name);
    check_bits(GPUREDUCE_NO_INDEX, tu_load(seen, 1, 8), "%s: segment 1 is empty", c->name);
    check_bits(0, tu_load(seen, 2, 8), "%s: argmin of the floats 6..9 is 0", c->name);
    check_bits(GPUREDUCE_NO_INDEX, tu_load(seen, 3, 8), "%s: segment 3 is empty", c->name);
    expect_no_async_error(c, "after empty segments");
    c->be->put(c->offs, offs_img, OFFS_BYTES);
  }
}

/* The error is sticky: valid calls and rejected calls after an invalid one
 * leave it, the lowest index over several calls is the one named, and
 * many segments (a parallel loop on the host) give the lowest too. */
static void sticky(void **state) {
  (void)state;
  for (int i = 0; i < nctx; ++i) {
    const struct ctx *c = &ctxs[i];
    uint64_t *o = (uint64_t *)(c->offs + 2048);
    const uint64_t bad_at_2[] = {0, 1, 2, 1, 4}, bad_at_1[] = {0, 3, 2, 4};
    c->be->put(o, bad_at_2, sizeof bad_at_2);
    struct call k = CALL(c->in, c->out, o, 4, GPUREDUCE_F32, GPUREDUCE_SUM, 0);
    check_status(GPUREDUCE_SUCCESS, run_on(c, c->h, &k), "%s: a call with segment 2 invalid",
                 c->name);
    c->be->put(o, offs_img, 64);
    check_status(GPUREDUCE_SUCCESS, run_on(c, c->h, &k), "%s: then a valid call", c->name);
    k.output = NULL;
    check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, run_on(c, c->h, &k),
                 "%s: then a rejected call", c->name);
    k.output = c->out;
    check_status(GPUREDUCE_ERROR_INVALID_OFFSETS, gpureduce_get_async_error(c->h),
                 "%s: the error survives valid and rejected calls", c->name);
    check_true(tu_mentions(gpureduce_last_message(c->h), "segment 2 "),
               "%s: the message \"%s\" names segment 2", c->name, gpureduce_last_message(c->h));
    expect_no_async_error(c, "cleared after one report");

    c->be->put(o, bad_at_2, sizeof bad_at_2);
    check_status(GPUREDUCE_SUCCESS, run_on(c, c->h, &k), "%s: segment 2 invalid", c->name);
    c->be->put(o, bad_at_1, sizeof bad_at_1);
    k.segments = 3;
    check_status(GPUREDUCE_SUCCESS, run_on(c, c->h, &k), "%s: then segment 1 invalid",
                 c->name);
    check_status(GPUREDUCE_ERROR_INVALID_OFFSETS, gpureduce_get_async_error(c->h),
                 "%s: two calls with invalid segments", c->name);
    check_true(tu_mentions(gpureduce_last_message(c->h), "segment 1 "),
               "%s: the message \"%s\" names the lower, segment 1", c->name,
               gpureduce_last_message(c->h));
    expect_no_async_error(c, "cleared after two calls");

    /* 100000 segments over the 1024 floats, invalid at 70000 and 99998 */
    const size_t n = 100000;
    uint64_t *big = malloc((n + 1) * sizeof *big);
    check_true(big != NULL, "memory for %zu offsets", n + 1);
    if (!big) return;
    for (size_t s = 0; s <= n; ++s) big[s] = (uint64_t)(s * 1024 / n);
    big[70001] = 0;    /* segment 70000 decreases; 70001, 0 -> ..., is valid */
    big[99999] = 2000; /* segments 99998 and 99999 leave [0, 1024] */
    unsigned char *big_out = c->be->alloc(n * 8 + 64), *big_offs = c->be->alloc((n + 1) * 8);
    c->be->put(big_offs, big, (n + 1) * 8);
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_reduce_segments(c->in, big_out, (const uint64_t *)big_offs, n,
                                           GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0, c->h),
                 "%s: argmax of %zu segments, 3 invalid", c->name, n);
    check_status(GPUREDUCE_ERROR_INVALID_OFFSETS, gpureduce_get_async_error(c->h),
                 "%s: %zu segments, 3 invalid", c->name, n);
    check_true(tu_mentions(gpureduce_last_message(c->h), "segment 70000 "),
               "%s: the message \"%s\" names segment 70000", c->name,
               gpureduce_last_message(c->h));
    uint64_t *res = malloc(n * 8);
    check_true(res != NULL, "memory for %zu results", n);
    if (res) {
      c->be->get(res, big_out, n * 8);
      const size_t invalid[] = {70000, 99998, 99999};
      for (size_t k2 = 0; k2 < COUNT(invalid); ++k2)
        check_bits(GPUREDUCE_NO_INDEX, res[invalid[k2]], "%s: invalid segment %zu has no index",
                   c->name, invalid[k2]);
      free(res);
    }
    c->be->release(big_out);
    c->be->release(big_offs);
    free(big);
    c->be->put(c->offs, offs_img, OFFS_BYTES);
    expect_no_async_error(c, "after the many segments");
  }
}

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(null_handle_and_kinds), cmocka_unit_test(no_segments),
      cmocka_unit_test(pointers),              cmocka_unit_test(misaligned),
      cmocka_unit_test(sizes),                 cmocka_unit_test(overlap),
      cmocka_unit_test(memory_spaces),         cmocka_unit_test(documented_results),
      cmocka_unit_test(invalid_offsets),       cmocka_unit_test(empty_segments_are_valid),
      cmocka_unit_test(sticky),
  };
  return cmocka_run_group_tests_name("test-segments-args", tests, group_setup, group_teardown);
}
