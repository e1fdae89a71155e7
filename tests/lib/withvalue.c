/*
 * withvalue.c - the tests of GPUREDUCE_WITH_VALUE (withvalue.h).
 *
 * Every result is checked three ways: its 16 bytes against reference.h's
 * ref_with_value (the reference's own ARGMIN/ARGMAX loop for the index,
 * its MIN of that one element for the value, zeros after it), its index
 * against the same call without the flag (bit for bit), and where the
 * answer is short enough, against values spelled out from gpureduce.h.
 * Outputs sit 16 bytes into a buffer filled with a canary, which must
 * survive before and after them.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "withvalue.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

static const struct tu_backend *B;
#define H battery_handle()

#define WV_BYTES 16      /* the result */
#define LEAD 64          /* poison before the input, canary before the output */
#define FILL 0xC3        /* the output buffers before a call */

void wv_use(const struct tu_backend *backend) {
  B = backend;
  battery_use(backend);
}

static const gpureduce_op_t arg_ops[2] = {GPUREDUCE_ARGMIN, GPUREDUCE_ARGMAX};

static const char *tname(gpureduce_type_t t) { return TU_TYPE(t)->name; }
static const char *oname(gpureduce_op_t op) { return tu_op_names[op]; }

/* ---- backend memory ------------------------------------------------------- */

/* Backend memory holding `bytes` of host data at `lead` bytes (the rest
 * `poison` elements of es bytes); fails the test if it cannot. */
static unsigned char *put_input(const void *x, size_t bytes, size_t lead, unsigned es,
                                uint64_t poison, size_t *total) {
  *total = lead + bytes + LEAD;
  unsigned char *img = tu_alloc(*total);
  for (size_t i = 0; i < *total / es; ++i) tu_store(img, i, es, poison);
  if (bytes) memcpy(img + lead, x, bytes);
  unsigned char *mem = B->alloc(*total);
  if (!mem) fail_msg("cannot allocate %zu bytes of %s memory", *total, B->name);
  B->put(mem, img, *total);
  free(img);
  return mem;
}

/* Backend memory for `bytes` of results after LEAD canary bytes, and LEAD
 * after them, all FILL. */
static unsigned char *put_output(size_t bytes) {
  const size_t total = LEAD + bytes + LEAD;
  unsigned char *img = tu_alloc(total);
  memset(img, FILL, total);
  unsigned char *mem = B->alloc(total);
  if (!mem) fail_msg("cannot allocate %zu bytes of %s memory", total, B->name);
  B->put(mem, img, total);
  free(img);
  return mem;
}

/* The results of put_output's buffer into host memory (bytes of them),
 * checking the canaries on both sides. */
static unsigned char *get_output(const unsigned char *mem, size_t bytes, const char *what) {
  const size_t total = LEAD + bytes + LEAD;
  unsigned char *img = tu_alloc(total);
  B->get(img, mem, total);
  check_bytes(img, FILL, LEAD, "%s: nothing written before the results", what);
  check_bytes(img + LEAD + bytes, FILL, LEAD, "%s: nothing written after the results", what);
  return img; /* the results at img + LEAD */
}

/* ---- checks -------------------------------------------------------------- */

/* One 16-byte result `got` of ARGMIN/ARGMAX with the value over x[0 ..
 * n-1], against the reference; `plain` is the index the call without the
 * flag gave. */
static void check_value_result(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                         const unsigned char *got, uint64_t plain, const char *what) {
  unsigned char want[WV_BYTES];
  if (ref_with_value(x, n, type, op, want) != 0)
    fail_msg("the reference has no answer for %s %s with value", tname(type), oname(op));
  check_bits(tu_load(want, 0, 8), tu_load(got, 0, 8), "%s: the index equals the reference",
             what);
  check_bits(tu_load(want, 1, 8), tu_load(got, 1, 8),
             "%s: bytes 8..15 (the %u-byte value, then zeros) equal the reference", what,
             TU_TYPE(type)->size);
  check_bits(plain, tu_load(got, 0, 8), "%s: the index has the bits of the call without the flag",
             what);
}

/* gpureduce_reduce() of x[0 .. n-1] at `offset` elements past an aligned
 * address, with the flag into *got (16 bytes) and without it into *plain;
 * both must succeed. */
static void reduce_1d(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                      size_t offset, unsigned char got[WV_BYTES], uint64_t *plain,
                      const char *what) {
  const unsigned es = TU_TYPE(type)->size;
  size_t total;
  unsigned char *in = put_input(x, n * es, LEAD + offset * es, es, bt_poison(type, op), &total);
  unsigned char *out = put_output(WV_BYTES);
  gpureduce_status_t s =
      gpureduce_reduce(in + LEAD + offset * es, out + LEAD, n, type, op, GPUREDUCE_WITH_VALUE, H);
  check_status(GPUREDUCE_SUCCESS, s, "%s: status with the flag (%s)", what,
               gpureduce_last_message(H));
  unsigned char *img = get_output(out, WV_BYTES, what);
  memcpy(got, img + LEAD, WV_BYTES);
  free(img);
  B->release(out);
  out = put_output(8);
  s = gpureduce_reduce(in + LEAD + offset * es, out + LEAD, n, type, op, 0, H);
  check_status(GPUREDUCE_SUCCESS, s, "%s: status without the flag", what);
  img = get_output(out, 8, what);
  *plain = tu_load(img + LEAD, 0, 8);
  free(img);
  B->release(out);
  B->release(in);
}

static void check_1d(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                     size_t offset, const char *label) {
  char what[200];
  snprintf(what, sizeof what, "%s %s with value n=%zu offset %zu (%s)", tname(type), oname(op),
           n, offset, label);
  unsigned char got[WV_BYTES];
  uint64_t plain;
  reduce_1d(x, n, type, op, offset, got, &plain, what);
  check_value_result(x, n, type, op, got, plain, what);
}

/* ---- 1-D, random data ------------------------------------------------------ */

/* Sizes across chunks, warps, lane wraps and tiles, kept few. */
static size_t wv_sizes(gpureduce_type_t type, tu_rng *r, size_t *n) {
  (void)r;
  const size_t v = tu_chunk_elems(type), te = tu_tile_elems(type);
  const size_t s[] = {1, 2, 31, 33, 257, 256 * v + 1, te - 1, te + 1, 2 * te + 3};
  memcpy(n, s, sizeof s);
  return COUNT(s);
}

void wv_random(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      {G_WIDE, TC_OP(GPUREDUCE_ARGMIN) | TC_OP(GPUREDUCE_ARGMAX), "wide"},
      {G_INF, TC_OP(GPUREDUCE_ARGMIN) | TC_OP(GPUREDUCE_ARGMAX), "with infinities"},
      {G_POOL, TC_OP(GPUREDUCE_ARGMIN) | TC_OP(GPUREDUCE_ARGMAX), "a few values, many ties"},
  };
  const struct tc_plan plan = {.stream = "with value",
                               .sizes = wv_sizes,
                               .data = data,
                               .ndata = COUNT(data),
                               .offsets = 3};
  struct tc_walk w;
  struct tc_case c;
  tc_begin(&w, &plan);
  while (tu_next_case(&w, &c)) check_1d(c.x, c.n, c.type, c.op, c.offset, c.data->what);
}

/* ---- special values ---------------------------------------------------------- */

struct spelled {
  gpureduce_type_t type;
  gpureduce_op_t op;
  size_t n;
  uint64_t x[4];
  uint64_t index, value; /* the answer, from gpureduce.h */
  const char *what;
};

static const struct spelled spelled[] = {
    {GPUREDUCE_F32, GPUREDUCE_ARGMIN, 2, {0x00000000, 0x80000000}, 0, 0x00000000,
     "{+0, -0}: a tie, index 0, its +0"},
    {GPUREDUCE_F32, GPUREDUCE_ARGMAX, 2, {0x00000000, 0x80000000}, 0, 0x00000000,
     "{+0, -0}: a tie, index 0, its +0"},
    {GPUREDUCE_F32, GPUREDUCE_ARGMIN, 2, {0x80000000, 0x00000000}, 0, 0x80000000,
     "{-0, +0}: a tie, index 0, its -0"},
    {GPUREDUCE_F32, GPUREDUCE_ARGMAX, 2, {0x80000000, 0x00000000}, 0, 0x80000000,
     "{-0, +0}: a tie, index 0, its -0"},
    {GPUREDUCE_F64, GPUREDUCE_ARGMIN, 3, {0x3ff0000000000000, 0x8000000000000000, 0}, 1,
     0x8000000000000000, "{1, -0, +0}: index 1, -0"},
    {GPUREDUCE_F32, GPUREDUCE_ARGMIN, 4, {0x3f800000, 0xffc00001, 0x40000000, 0x7fc00000}, 1,
     0x7fffffff, "{1, -NaN(payload), 2, NaN}: the first NaN, written canonical"},
    {GPUREDUCE_F64, GPUREDUCE_ARGMAX, 2, {0x7ff0000000000001, 0x7ff0000000000000}, 0,
     0x7fffffffffffffff, "{sNaN, +inf}: the NaN, written canonical"},
    {GPUREDUCE_F16, GPUREDUCE_ARGMIN, 2, {0x7c00, 0x7c00}, 0, 0x7c00,
     "{+inf, +inf}: index 0, +inf (equal to the identity's value)"},
    {GPUREDUCE_F16, GPUREDUCE_ARGMAX, 2, {0xfc00, 0x3c00}, 1, 0x3c00, "{-inf, 1}: index 1, 1"},
    {GPUREDUCE_F16, GPUREDUCE_ARGMAX, 3, {0x3c00, 0xfe01, 0x7c00}, 1, 0x7fff,
     "{1, -NaN, +inf}: the NaN, 0x7fff"},
    {GPUREDUCE_BF16, GPUREDUCE_ARGMAX, 2, {0x3f80, 0xffc1}, 1, 0x7fff,
     "{1, -NaN}: the NaN, 0x7fff"},
    {GPUREDUCE_BF16, GPUREDUCE_ARGMIN, 2, {0x0001, 0x8000}, 1, 0x8000,
     "{smallest subnormal, -0}: index 1, -0"},
    {GPUREDUCE_F32, GPUREDUCE_ARGMIN, 3, {0xff800000, 0xff800000, 0x3f800000}, 0, 0xff800000,
     "{-inf, -inf, 1}: index 0, -inf"},
    {GPUREDUCE_F64, GPUREDUCE_ARGMAX, 3, {0xfff0000000000000, 0x3ff0000000000000,
     0x7ff0000000000000}, 2, 0x7ff0000000000000, "{-inf, 1, +inf}: index 2, +inf"},
    {GPUREDUCE_I8, GPUREDUCE_ARGMIN, 3, {0x80, 0x05, 0x80}, 0, 0x80, "{-128, 5, -128}: index 0"},
    {GPUREDUCE_I8, GPUREDUCE_ARGMAX, 3, {0x80, 0x05, 0x80}, 1, 0x05, "{-128, 5, -128}: index 1"},
    {GPUREDUCE_U8, GPUREDUCE_ARGMAX, 2, {0xff, 0xff}, 0, 0xff, "{255, 255}: index 0"},
    {GPUREDUCE_I32, GPUREDUCE_ARGMIN, 2, {0xffffffff, 0xffffffff}, 0, 0xffffffff,
     "{-1, -1}: index 0, -1"},
    {GPUREDUCE_U32, GPUREDUCE_ARGMIN, 1, {7}, 0, 7, "{7}: index 0, 7"},
    {GPUREDUCE_I64, GPUREDUCE_ARGMAX, 3, {0x8000000000000000, 0x7fffffffffffffff,
     0x7fffffffffffffff}, 1, 0x7fffffffffffffff, "{INT64_MIN, INT64_MAX, INT64_MAX}: index 1"},
    {GPUREDUCE_U64, GPUREDUCE_ARGMIN, 3, {0, UINT64_MAX, 0}, 0, 0, "{0, max, 0}: index 0"},
    {GPUREDUCE_U64, GPUREDUCE_ARGMAX, 3, {0, UINT64_MAX, 0}, 1, UINT64_MAX,
     "{0, max, 0}: index 1"},
};

void wv_specials(void **state) {
  (void)state;
  for (size_t k = 0; k < COUNT(spelled); ++k) {
    const struct spelled *c = &spelled[k];
    const unsigned es = TU_TYPE(c->type)->size;
    unsigned char x[32];
    for (size_t i = 0; i < c->n; ++i) tu_store(x, i, es, c->x[i]);
    char what[200];
    snprintf(what, sizeof what, "%s %s with value of %s", tname(c->type), oname(c->op),
             c->what);
    unsigned char got[WV_BYTES];
    uint64_t plain;
    reduce_1d(x, c->n, c->type, c->op, 1, got, &plain, what);
    check_bits(c->index, tu_load(got, 0, 8), "%s: the index", what);
    check_bits(c->value, tu_load(got + 8, 0, es), "%s: the value", what);
    check_value_result(x, c->n, c->type, c->op, got, plain, what);
  }
  /* NaNs at chunk, warp, lane-wrap and tile boundaries, a second NaN after
   * the first, payloads and signs varied: the first NaN's index, the
   * canonical NaN */
  for (size_t ti = 0; ti < COUNT(tc_float_types); ++ti) {
    const gpureduce_type_t type = tc_float_types[ti];
    const unsigned es = TU_TYPE(type)->size, v = tu_chunk_elems(type);
    const size_t te = tu_tile_elems(type), n = 2 * te + 5;
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "with value nan %s", tname(type));
    tu_rng_init(&r, label);
    unsigned char *base = tu_alloc(n * es), *y = tu_alloc(n * es);
    tc_fill(&r, type, G_INF, base, n);
    const size_t pos[] = {0, 1, v - 1, v, 32 * v, 256 * v - 1, 256 * v + 1, te - 1, te,
                          te + 1, 2 * te, n - 1};
    for (size_t pi = 0; pi < COUNT(pos); ++pi) {
      const size_t p = pos[pi];
      memcpy(y, base, n * es);
      const int neg = (int)(pi & 1), quiet = (int)((pi >> 1) & 1);
      tu_store(y, p, es, tu_nan(type, neg, quiet, tu_next(&r)));
      if (p + 1 < n)
        tu_store(y, p + 1 + tu_below(&r, n - p - 1), es, tu_nan(type, !neg, 1, tu_next(&r)));
      for (int o = 0; o < 2; ++o) {
        char what[200];
        snprintf(what, sizeof what, "%s %s with value, first NaN at %zu of %zu", tname(type),
                 oname(arg_ops[o]), p, n);
        unsigned char got[WV_BYTES];
        uint64_t plain;
        reduce_1d(y, n, type, arg_ops[o], 0, got, &plain, what);
        check_bits(p, tu_load(got, 0, 8), "%s: the first NaN's index", what);
        check_bits(tu_canonical_nan(es), tu_load(got + 8, 0, es), "%s: the canonical NaN", what);
        check_value_result(y, n, type, arg_ops[o], got, plain, what);
      }
    }
    free(base);
    free(y);
  }
}

/* ---- batched ------------------------------------------------------------- */

/* Data for type: ties, signed zeros and infinities (G_INF for floats,
 * G_POOL for integers), and for floats, NaNs at a few places. */
static void fill_special(tu_rng *r, gpureduce_type_t type, void *x, size_t n) {
  const tu_type *t = TU_TYPE(type);
  tc_fill(r, type, t->is_float ? G_INF : G_POOL, x, n);
  if (!t->is_float || n < 8) return;
  for (int k = 0; k < 3; ++k)
    tu_store(x, tu_below(r, n), t->size, tu_nan(type, k & 1, 1, tu_next(r)));
}

struct layout {
  const char *name;
  size_t batch, n;
  int64_t batch_stride, element_stride;
  size_t first;     /* element index of vector 0's element 0 in the data */
  size_t elements;  /* elements of data */
};

/* One batched call with and without the flag over `data` (host), each
 * result against the reference over its vector gathered. */
static void check_batched(const void *data, gpureduce_type_t type, gpureduce_op_t op,
                          const struct layout *l) {
  const unsigned es = TU_TYPE(type)->size;
  char what[200];
  snprintf(what, sizeof what, "%s %s with value, batched %s (batch %zu, n %zu, strides %" PRId64
           ", %" PRId64 ")", tname(type), oname(op), l->name, l->batch, l->n, l->batch_stride,
           l->element_stride);
  size_t total;
  unsigned char *in = put_input(data, l->elements * es, LEAD, es, bt_poison(type, op), &total);
  const void *x0 = in + LEAD + l->first * es;
  unsigned char *out = put_output(l->batch * WV_BYTES);
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_batched(x0, out + LEAD, l->batch, l->n, l->batch_stride,
                                        l->element_stride, type, op, GPUREDUCE_WITH_VALUE, H),
               "%s: status with the flag (%s)", what, gpureduce_last_message(H));
  unsigned char *got = get_output(out, l->batch * WV_BYTES, what);
  B->release(out);
  out = put_output(l->batch * 8);
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_batched(x0, out + LEAD, l->batch, l->n, l->batch_stride,
                                        l->element_stride, type, op, 0, H),
               "%s: status without the flag", what);
  unsigned char *plain = get_output(out, l->batch * 8, what);
  B->release(out);
  B->release(in);
  unsigned char *vec = tu_alloc(l->n * es);
  for (size_t b = 0; b < l->batch; ++b) {
    for (size_t i = 0; i < l->n; ++i) {
      const int64_t at = (int64_t)l->first + (int64_t)b * l->batch_stride +
                         (int64_t)i * l->element_stride;
      tu_store(vec, i, es, tu_load(data, (size_t)at, es));
    }
    char row[240];
    snprintf(row, sizeof row, "%s vector %zu", what, b);
    check_value_result(vec, l->n, type, op, got + LEAD + b * WV_BYTES, tu_load(plain + LEAD, b, 8),
                 row);
  }
  free(vec);
  free(got);
  free(plain);
}

void wv_batched(void **state) {
  (void)state;
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
    const gpureduce_type_t type = (gpureduce_type_t)t;
    const unsigned es = TU_TYPE(type)->size;
    const size_t R = 5, C = 37, te = tu_tile_elems(type);
    const size_t longn = 33 * te + 7; /* 33 tiles: the host runs it over groups */
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "with value batched %s", tname(type));
    tu_rng_init(&r, label);
    unsigned char *m = tu_alloc(R * C * es), *lv = tu_alloc(2 * longn * es);
    fill_special(&r, type, m, R * C);
    fill_special(&r, type, lv, 2 * longn);
    const struct layout small[] = {
        {"rows", R, C, (int64_t)C, 1, 0, R * C},
        {"columns", C, R, 1, (int64_t)C, 0, R * C},
        {"rows reversed", R, C, -(int64_t)C, -1, R * C - 1, R * C},
        {"one element each", R * C, 1, 1, 1, 0, R * C},
    };
    const struct layout big[] = {
        {"one long vector", 1, longn, 0, 1, 0, longn},
        {"two interleaved long vectors", 2, longn, 1, 2, 0, 2 * longn},
    };
    /* columns of 2 rows, V 2^17 + 3 of them, each row starting on a
     * 16-byte boundary: enough columns on a GPU of up to 256
     * multiprocessors for the CUDA backend's short columns kernel
     * (dispatch/batched.cu; 2- to 8-byte types), which stages its 16-byte
     * results through shared memory, the last group of V columns short */
    const size_t v = tu_chunk_elems(type), sc = (v << 17) + 3, ld = (sc + v - 1) / v * v;
    unsigned char *sm = es >= 2 ? tu_alloc(2 * ld * es) : NULL;
    if (sm) fill_special(&r, type, sm, 2 * ld);
    const struct layout short_columns = {"short columns", sc, 2, 1, (int64_t)ld, 0, 2 * ld};
    for (int o = 0; o < 2; ++o) {
      for (size_t k = 0; k < COUNT(small); ++k) check_batched(m, type, arg_ops[o], &small[k]);
      for (size_t k = 0; k < COUNT(big); ++k) check_batched(lv, type, arg_ops[o], &big[k]);
      if (sm) check_batched(sm, type, arg_ops[o], &short_columns);
    }
    free(m);
    free(lv);
    free(sm);
  }
}

/* ---- segmented --------------------------------------------------------------- */

/* The empty segment's value of gpureduce.h, spelled out: MIN's n == 0
 * value for ARGMIN, MAX's for ARGMAX. */
static uint64_t empty_value(gpureduce_type_t type, gpureduce_op_t op) {
  const int fl = TU_TYPE(type)->is_float;
  if (op == GPUREDUCE_ARGMIN) return fl ? tu_pos_inf(type) : tu_type_max(type);
  return fl ? tu_neg_inf(type) : tu_type_lowest(type);
}

void wv_segments(void **state) {
  (void)state;
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
    const gpureduce_type_t type = (gpureduce_type_t)t;
    const unsigned es = TU_TYPE(type)->size;
    const size_t v = tu_chunk_elems(type), te = tu_tile_elems(type);
    /* empty segments first, last and between; one 33-tile segment, which
     * the host reduces alone over its groups */
    const size_t lengths[] = {0,  1, 2, 0, 0, 33, 256 * v + 1, te + 1, 0, 3, 2 * te + 5,
                              33 * te + 1, 1, 0};
    const size_t S = COUNT(lengths), lo = 5;
    uint64_t off[COUNT(lengths) + 1];
    off[0] = lo;
    for (size_t s = 0; s < S; ++s) off[s + 1] = off[s] + lengths[s];
    const size_t elements = (size_t)off[S] + 3;
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "with value segments %s", tname(type));
    tu_rng_init(&r, label);
    unsigned char *x = tu_alloc(elements * es);
    fill_special(&r, type, x, elements);
    size_t total;
    unsigned char *offs = B->alloc(sizeof off);
    if (!offs) fail_msg("cannot allocate the offsets in %s memory", B->name);
    B->put(offs, off, sizeof off);
    for (int o = 0; o < 2; ++o) {
      const gpureduce_op_t op = arg_ops[o];
      char what[200];
      snprintf(what, sizeof what, "%s %s with value, %zu segments", tname(type), oname(op), S);
      unsigned char *in = put_input(x, elements * es, LEAD, es, bt_poison(type, op), &total);
      unsigned char *out = put_output(S * WV_BYTES);
      check_status(GPUREDUCE_SUCCESS,
                   gpureduce_reduce_segments(in + LEAD, out + LEAD, (const uint64_t *)offs, S,
                                             type, op, GPUREDUCE_WITH_VALUE, H),
                   "%s: status with the flag (%s)", what, gpureduce_last_message(H));
      unsigned char *got = get_output(out, S * WV_BYTES, what);
      B->release(out);
      out = put_output(S * 8);
      check_status(GPUREDUCE_SUCCESS,
                   gpureduce_reduce_segments(in + LEAD, out + LEAD, (const uint64_t *)offs, S,
                                             type, op, 0, H),
                   "%s: status without the flag", what);
      unsigned char *plain = get_output(out, S * 8, what);
      B->release(out);
      B->release(in);
      check_status(GPUREDUCE_SUCCESS, gpureduce_get_async_error(H),
                   "%s: valid offsets leave no async error", what);
      for (size_t s = 0; s < S; ++s) {
        char seg[240];
        snprintf(seg, sizeof seg, "%s, segment %zu of %zu elements", what, s, lengths[s]);
        const unsigned char *g = got + LEAD + s * WV_BYTES;
        check_value_result(x + off[s] * es, lengths[s], type, op, g, tu_load(plain + LEAD, s, 8), seg);
        if (lengths[s] == 0) {
          check_bits(GPUREDUCE_NO_INDEX, tu_load(g, 0, 8), "%s: GPUREDUCE_NO_INDEX", seg);
          check_bits(empty_value(type, op), tu_load(g + 8, 0, es),
                     "%s: the empty value of %s", seg, op == GPUREDUCE_ARGMIN ? "min" : "max");
        }
      }
      free(got);
      free(plain);
    }
    B->release(offs);
    free(x);

    /* invalid offsets: segment 1 decreases; its result is the empty one */
    const uint64_t bad[] = {0, 4, 2, 6};
    unsigned char y[64];
    tc_fill(&r, type, G_POOL, y, 6);
    offs = B->alloc(sizeof bad);
    if (!offs) fail_msg("cannot allocate the offsets in %s memory", B->name);
    B->put(offs, bad, sizeof bad);
    for (int o = 0; o < 2; ++o) {
      char what[200];
      snprintf(what, sizeof what, "%s %s with value, offsets {0, 4, 2, 6}", tname(type),
               oname(arg_ops[o]));
      unsigned char *in = put_input(y, 6 * es, LEAD, es, bt_poison(type, arg_ops[o]), &total);
      unsigned char *out = put_output(3 * WV_BYTES);
      check_status(GPUREDUCE_SUCCESS,
                   gpureduce_reduce_segments(in + LEAD, out + LEAD, (const uint64_t *)offs, 3,
                                             type, arg_ops[o], GPUREDUCE_WITH_VALUE, H),
                   "%s: status", what);
      unsigned char *got = get_output(out, 3 * WV_BYTES, what);
      check_status(GPUREDUCE_ERROR_INVALID_OFFSETS, gpureduce_get_async_error(H),
                   "%s: the async error", what);
      check_bits(GPUREDUCE_NO_INDEX, tu_load(got + LEAD + WV_BYTES, 0, 8),
                 "%s: segment 1 gets GPUREDUCE_NO_INDEX", what);
      check_bits(empty_value(type, arg_ops[o]), tu_load(got + LEAD + WV_BYTES, 1, 8),
                 "%s: segment 1 gets the empty value, then zeros", what);
      free(got);
      B->release(out);
      B->release(in);
    }
    B->release(offs);
  }
}

/* ---- errors ---------------------------------------------------------------- */

/* A call that must fail with `wanted` and leave the 64-byte output alone. */
static void expect_untouched(gpureduce_status_t wanted, gpureduce_status_t seen,
                             const unsigned char *out, const char *what) {
  unsigned char *img = get_output(out, 64, what);
  check_status(wanted, seen, "%s (%s)", what, gpureduce_last_message(H));
  check_bytes(img + LEAD, FILL, 64, "%s: the output is untouched", what);
  free(img);
}

void wv_errors(void **state) {
  (void)state;
  const float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const uint64_t off[3] = {0, 3, 8};
  size_t total;
  unsigned char *in = put_input(x, sizeof x, LEAD, 4, 0, &total);
  unsigned char *offs = B->alloc(sizeof off);
  if (!offs) fail_msg("cannot allocate the offsets in %s memory", B->name);
  B->put(offs, off, sizeof off);
  const void *xi = in + LEAD;
  for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op) {
    const gpureduce_op_t o = (gpureduce_op_t)op;
    const int is_arg = o == GPUREDUCE_ARGMIN || o == GPUREDUCE_ARGMAX;
    const unsigned flags[2] = {GPUREDUCE_WITH_VALUE, GPUREDUCE_WITH_VALUE | GPUREDUCE_ACCUMULATE_F64};
    for (int f = is_arg ? 1 : 0; f < 2; ++f) {
      char what[160];
      unsigned char *out = put_output(64);
      snprintf(what, sizeof what, "f32 %s flags 0x%x: gpureduce_reduce", oname(o), flags[f]);
      expect_untouched(GPUREDUCE_ERROR_UNSUPPORTED,
                       gpureduce_reduce(xi, out + LEAD, 8, GPUREDUCE_F32, o, flags[f], H), out,
                       what);
      snprintf(what, sizeof what, "f32 %s flags 0x%x: gpureduce_reduce_batched", oname(o),
               flags[f]);
      expect_untouched(GPUREDUCE_ERROR_UNSUPPORTED,
                       gpureduce_reduce_batched(xi, out + LEAD, 2, 4, 4, 1, GPUREDUCE_F32, o,
                                                flags[f], H),
                       out, what);
      snprintf(what, sizeof what, "f32 %s flags 0x%x: gpureduce_reduce_segments", oname(o),
               flags[f]);
      expect_untouched(GPUREDUCE_ERROR_UNSUPPORTED,
                       gpureduce_reduce_segments(xi, out + LEAD, (const uint64_t *)offs, 2,
                                                 GPUREDUCE_F32, o, flags[f], H),
                       out, what);
      B->release(out);
    }
  }
  unsigned char *out = put_output(64);
  expect_untouched(GPUREDUCE_ERROR_EMPTY_INPUT,
                   gpureduce_reduce(xi, out + LEAD, 0, GPUREDUCE_F32, GPUREDUCE_ARGMAX,
                                    GPUREDUCE_WITH_VALUE, H),
                   out, "f32 argmax with value of n = 0");
  expect_untouched(GPUREDUCE_ERROR_EMPTY_INPUT,
                   gpureduce_reduce_batched(xi, out + LEAD, 2, 0, 4, 1, GPUREDUCE_F32,
                                            GPUREDUCE_ARGMIN, GPUREDUCE_WITH_VALUE, H),
                   out, "f32 argmin with value of 2 vectors of n = 0");
  B->release(out);
  B->release(offs);
  B->release(in);
}
