/*
 * segments.c - the tests of gpureduce_reduce_segments() both backends must
 * pass (segments.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "segments.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

/* ---- the backend and its buffers ------------------------------------------ */

static const struct tu_backend *B;
static gpureduce_handle_t HH; /* battery_host_handle(): NULL on the host backend */

/* backend memory: the input buffer, the offsets, the results (with their
 * canaries), the segments' aligned copies and their 1-D results */
static struct bt_room in_mem, off_mem, out_mem, copy_mem, one_mem;
/* host memory: the input buffer's image, the copies, the results, the
 * shapes' offsets and the copies' positions */
static struct bt_room image = {.host = 1}, copies = {.host = 1}, got = {.host = 1},
                   want = {.host = 1}, host_got = {.host = 1}, shape_offsets = {.host = 1},
                   positions = {.host = 1};

#define PAD 256       /* poison bytes before input and after offsets[segments] */
#define CANARY 64     /* bytes before and after the results */
#define OUT_FILL 0xC3
/* Calls of more segments than this compare an evenly spaced sample of
 * about this many (and the longest) with the 1-D call; every segment is
 * still compared with the host backend on CUDA. */
#define ONE_D_MAX ((size_t)1 << 16)
/* The reference is not asked about segments longer than this (the 1-D
 * call and the host backend are). */
#define REF_MAX ((size_t)1 << 22)

void segments_use(const struct tu_backend *backend) {
  B = backend;
  battery_use(backend);
}

int segments_setup(void **state) {
  if (battery_setup(state)) return -1;
  HH = battery_host_handle();
  if (sg_quick()) print_message("# GPUREDUCE_TEST_QUICK: fewer kinds and smaller sizes\n");
  return 0;
}

int segments_teardown(void **state) {
  struct bt_room *rooms[] = {&in_mem, &off_mem,  &out_mem, &copy_mem,      &one_mem,  &image,
                          &copies, &got,      &want,    &host_got,      &shape_offsets,
                          &positions};
  for (size_t k = 0; k < COUNT(rooms); ++k) bt_room_free(rooms[k]);
  HH = NULL; /* battery_teardown destroys it */
  return battery_teardown(state);
}

gpureduce_handle_t sg_host_handle(void) { return HH; }

int sg_quick(void) {
  const char *q = getenv("GPUREDUCE_TEST_QUICK");
  return q && *q && strcmp(q, "0") != 0;
}

/* ---- shapes, kinds, data ------------------------------------------------------ */

struct sg_shape sg_from_lengths(const size_t *len, size_t segments, uint64_t base,
                                size_t shift, const char *name) {
  uint64_t *off = bt_room_for(&shape_offsets, (segments + 1) * sizeof *off);
  off[0] = base;
  for (size_t s = 0; s < segments; ++s) off[s + 1] = off[s] + len[s];
  const struct sg_shape sh = {segments, off, shift, name};
  return sh;
}


int sg_next_kind(int *k, gpureduce_type_t *type, gpureduce_op_t *op, unsigned *flags) {
  for (; *k < GPUREDUCE_TYPE_COUNT * GPUREDUCE_OP_COUNT * TU_FLAG_VALUES; ++*k) {
    *type = (gpureduce_type_t)(*k / (GPUREDUCE_OP_COUNT * TU_FLAG_VALUES));
    *op = (gpureduce_op_t)(*k / TU_FLAG_VALUES % GPUREDUCE_OP_COUNT);
    *flags = tu_flag_values[*k % TU_FLAG_VALUES];
    if (tu_result_size(*type, *op, *flags)) {
      ++*k;
      return 1;
    }
  }
  return 0;
}

/* The kinds of the layout tests: every type's sum and argmax, one of each
 * other operation, and the double accumulation (QUICK: the first line's
 * and the last two lines'). */
static const struct sg_kind some_kinds[] = {
    {GPUREDUCE_F32, GPUREDUCE_SUM, 0},   {GPUREDUCE_U8, GPUREDUCE_SUM, 0},
    {GPUREDUCE_F16, GPUREDUCE_ARGMAX, 0}, {GPUREDUCE_F64, GPUREDUCE_SUM, 0},
    {GPUREDUCE_F16, GPUREDUCE_SUM, 0},   {GPUREDUCE_BF16, GPUREDUCE_SUM, 0},
    {GPUREDUCE_I8, GPUREDUCE_SUM, 0},    {GPUREDUCE_I32, GPUREDUCE_SUM, 0},
    {GPUREDUCE_U32, GPUREDUCE_SUM, 0},   {GPUREDUCE_I64, GPUREDUCE_SUM, 0},
    {GPUREDUCE_U64, GPUREDUCE_SUM, 0},   {GPUREDUCE_BF16, GPUREDUCE_ARGMAX, 0},
    {GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0}, {GPUREDUCE_F64, GPUREDUCE_ARGMAX, 0},
    {GPUREDUCE_I8, GPUREDUCE_ARGMAX, 0},  {GPUREDUCE_U8, GPUREDUCE_ARGMAX, 0},
    {GPUREDUCE_I32, GPUREDUCE_ARGMAX, 0}, {GPUREDUCE_U32, GPUREDUCE_ARGMAX, 0},
    {GPUREDUCE_I64, GPUREDUCE_ARGMAX, 0}, {GPUREDUCE_U64, GPUREDUCE_ARGMAX, 0},
    {GPUREDUCE_F32, GPUREDUCE_SUM_SQUARES, 0}, {GPUREDUCE_F16, GPUREDUCE_PROD, 0},
    {GPUREDUCE_BF16, GPUREDUCE_MIN, 0},        {GPUREDUCE_I64, GPUREDUCE_MIN, 0},
    {GPUREDUCE_F64, GPUREDUCE_ARGMIN, 0},      {GPUREDUCE_U8, GPUREDUCE_SUM_ABS, 0},
    {GPUREDUCE_I8, GPUREDUCE_MAX, 0},          {GPUREDUCE_F32, GPUREDUCE_PROD, 0},
    {GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
    {GPUREDUCE_F32, GPUREDUCE_SUM_ABS, GPUREDUCE_ACCUMULATE_F64},
};
static size_t some_kinds_count(void) { return sg_quick() ? 4 : COUNT(some_kinds); }

/* Every kind, or in QUICK mode every fifth. */
static int next_kind(int *k, gpureduce_type_t *type, gpureduce_op_t *op, unsigned *flags) {
  while (sg_next_kind(k, type, op, flags))
    if (!sg_quick() || *k % 5 == 1) return 1;
  return 0;
}

/* The generator of random data for op, leaving room for its poison. */
static enum tc_gen gen_for(gpureduce_type_t type, gpureduce_op_t op, int pool) {
  if (op == GPUREDUCE_PROD) return G_FACTORS;
  if (tu_is_sum_like(op)) return G_WIDE;
  return pool && TU_TYPE(type)->is_float ? G_POOL : G_INNER;
}

static const char *gen_name(enum tc_gen g) {
  return g == G_FACTORS ? "factors of a finite product"
         : g == G_WIDE  ? "wide random values"
         : g == G_POOL  ? "a few values with many ties"
                        : "random values inside the type's range";
}


bt_result sg_result(size_t s, gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  return bt_result_at((unsigned char *)got.p + CANARY, s, tu_result_size(type, op, flags));
}

/* Does text hold the decimal number v, not as part of a longer number? */
static int mentions_number(const char *text, uint64_t v) {
  char num[32];
  snprintf(num, sizeof num, "%" PRIu64, v);
  const size_t len = strlen(num);
  for (const char *p = text; p && (p = strstr(p, num)) != NULL; ++p) {
    const int before = p > text && p[-1] >= '0' && p[-1] <= '9';
    const int after = p[len] >= '0' && p[len] <= '9';
    if (!before && !after) return 1;
  }
  return 0;
}

/* gpureduce_get_async_error() on h says SUCCESS (no invalid segment). */
static void check_no_async_error(gpureduce_handle_t h, const char *what) {
  const gpureduce_status_t s = gpureduce_get_async_error(h);
  check_status(GPUREDUCE_SUCCESS, s, "%s: gpureduce_get_async_error() finds nothing (%s)", what,
               s ? gpureduce_last_message(h) : "");
}

/* ---- one segmented call, checked ------------------------------------------ */

void sg_check(const struct sg_shape *sh, gpureduce_type_t type, gpureduce_op_t op,
              unsigned flags, const struct sg_data *data, uint64_t poison) {
  const unsigned es = TU_TYPE(type)->size, v = tu_chunk_elems(type);
  const size_t rs = tu_result_size(type, op, flags), S = sh->segments;
  const uint64_t *off = sh->offsets;
  const size_t lo = (size_t)off[0], hi = (size_t)off[S];
  size_t longest = 0;
  for (size_t s = 0; s < S; ++s) {
    if (off[s + 1] < off[s]) fail_msg("test bug: sg_check of decreasing offsets");
    if (off[s + 1] - off[s] > off[longest + 1] - off[longest]) longest = s;
  }
  char what[400];
  snprintf(what, sizeof what,
           "%s, %zu segments (%s), elements %zu .. %zu, input %zu elements past an aligned "
           "address, %s",
           bt_kind_name(type, op, flags), S, sh->name, lo, hi, sh->shift, data->what);

  /* The image: poison, then the segments' elements in (s, i) order. */
  const size_t lead = PAD / es + sh->shift, total = lead + hi + PAD / es;
  unsigned char *img = bt_room_for(&image, total * es);
  for (size_t k = 0; k < lead + lo; ++k) tu_store(img, k, es, poison);
  for (size_t k = lead + hi; k < total; ++k) tu_store(img, k, es, poison);
  if (data->fill)
    data->fill(data->ctx, img + (lead + lo) * es, hi - lo);
  else
    for (size_t s = 0; s < S; ++s)
      for (size_t i = 0; i < off[s + 1] - off[s]; ++i)
        tu_store(img, lead + (size_t)off[s] + i, es, data->value(data->ctx, s, i));

  /* The segmented call, the output between two canaries. */
  unsigned char *d_in = bt_room_for(&in_mem, total * es);
  B->put(d_in, img, total * es);
  uint64_t *d_off = bt_room_for(&off_mem, (S + 1) * sizeof *off);
  B->put(d_off, off, (S + 1) * sizeof *off);
  const size_t out_bytes = CANARY + S * rs + CANARY;
  unsigned char *d_out = bt_room_for(&out_mem, out_bytes), *res = bt_room_for(&got, out_bytes);
  memset(res, OUT_FILL, out_bytes);
  B->put(d_out, res, out_bytes);
  const gpureduce_status_t st =
      gpureduce_reduce_segments(d_in + lead * es, d_out + CANARY, d_off, S, type, op, flags,
                                battery_handle());
  check_status(GPUREDUCE_SUCCESS, st, "%s: status (%s)", what,
               st ? gpureduce_last_message(battery_handle()) : "");
  check_no_async_error(battery_handle(), what);
  B->get(res, d_out, out_bytes);
  check_bytes(res, OUT_FILL, CANARY, "%s: the canary before the results survives", what);
  check_bytes(res + CANARY + S * rs, OUT_FILL, CANARY,
              "%s: the canary after the results survives", what);
  const unsigned char *r = res + CANARY;

  /* gpureduce_reduce() on a copy of each segment at a 16-byte aligned
   * position of its own, same handle (a sample of large calls). */
  const size_t stride = S > ONE_D_MAX ? (S + ONE_D_MAX - 1) / ONE_D_MAX : 1;
  size_t *pos = bt_room_for(&positions, (S + 1) * sizeof *pos), room = 0;
  for (size_t s = 0; s < S; ++s) {
    pos[s] = room;
    if (s % stride == 0 || s == longest) room += ((size_t)(off[s + 1] - off[s]) + v - 1) / v * v;
  }
  pos[S] = room;
  unsigned char *cp = bt_room_for(&copies, room * es);
  for (size_t s = 0; s < S; ++s)
    if (s % stride == 0 || s == longest)
      memcpy(cp + pos[s] * es, img + (lead + (size_t)off[s]) * es,
             (size_t)(off[s + 1] - off[s]) * es);
  unsigned char *d_cp = bt_room_for(&copy_mem, room * es);
  if (room) B->put(d_cp, cp, room * es);
  unsigned char *d_one = bt_room_for(&one_mem, S * rs), *one = bt_room_for(&want, S * rs);
  memset(one, 0, S * rs);
  B->put(d_one, one, S * rs);
  for (size_t s = 0; s < S; ++s) {
    if (s % stride != 0 && s != longest) continue;
    const size_t n = (size_t)(off[s + 1] - off[s]);
    if (n == 0 && bt_empty_is_error(op)) continue; /* EMPTY_INPUT: the empty result below */
    const gpureduce_status_t s1 =
        gpureduce_reduce(d_cp + pos[s] * es, d_one + s * rs, n, type, op, flags,
                         battery_handle());
    if (s1 != GPUREDUCE_SUCCESS)
      check_status(GPUREDUCE_SUCCESS, s1, "%s: gpureduce_reduce() of segment %zu's copy", what,
                   s);
  }
  B->get(one, d_one, S * rs);
  for (size_t s = 0; s < S; ++s) {
    if (s % stride != 0 && s != longest) continue;
    const size_t n = (size_t)(off[s + 1] - off[s]);
    if (n == 0 && bt_empty_is_error(op))
      check_result(bt_empty_result(type, op, flags), bt_result_at(r, s, rs), rs,
                   "%s: empty segment %zu has the empty-segment result", what, s);
    else
      check_result(bt_result_at(one, s, rs), bt_result_at(r, s, rs), rs,
                   "%s: result %zu (%zu elements from %zu) has the bits of gpureduce_reduce() "
                   "on a copy of segment %zu",
                   what, s, n, (size_t)off[s], s);
  }

  /* The host backend's segmented results on the image. */
  if (HH) {
    unsigned char *hr = bt_room_for(&host_got, S * rs + 1);
    const gpureduce_status_t sh_st = gpureduce_reduce_segments(
        img + lead * es, hr, off, S, type, op, flags, HH);
    check_status(GPUREDUCE_SUCCESS, sh_st, "%s: status of the host backend's call (%s)", what,
                 sh_st ? gpureduce_last_message(HH) : "");
    check_no_async_error(HH, "the host backend's call");
    for (size_t s = 0; s < S; ++s)
      check_result(bt_result_at(hr, s, rs), bt_result_at(r, s, rs), rs,
                   "%s: result %zu (%zu elements) has the bits of the host backend's", what, s,
                   (size_t)(off[s + 1] - off[s]));
  }

  /* The reference: every segment of small calls, a sample of large ones
   * (the longest among them). */
  const size_t sample[] = {0, 1, S / 2, S - 2, S - 1, longest};
  const size_t checks = S <= 8 ? S : COUNT(sample);
  for (size_t k = 0; k < checks; ++k) {
    const size_t s = S <= 8 ? k : sample[k];
    if (s >= S) continue;
    const size_t n = (size_t)(off[s + 1] - off[s]);
    if (n > REF_MAX) continue;
    if (n == 0) {
      check_result(bt_empty_result(type, op, flags), bt_result_at(r, s, rs), rs,
                   "%s: empty segment %zu has the documented empty result", what, s);
      continue;
    }
    char row[480];
    snprintf(row, sizeof row, "%s: result %zu (%zu elements) against the reference", what, s, n);
    bt_check_reference(img + (lead + (size_t)off[s]) * es, n, type, op, flags,
                       bt_result_at(r, s, rs), row);
  }
}

/* Random data, drawn in element order. */
struct sg_random {
  tu_rng rng;
  gpureduce_type_t type;
  enum tc_gen gen;
};

static void random_fill(void *ctx, void *dst, size_t n) {
  struct sg_random *r = ctx;
  tc_fill(&r->rng, r->type, r->gen, dst, n);
}

void sg_check_random(const struct sg_shape *sh, gpureduce_type_t type, gpureduce_op_t op,
                     unsigned flags, int pool, const char *label) {
  struct sg_random r = {.type = type, .gen = gen_for(type, op, pool)};
  char stream[200];
  snprintf(stream, sizeof stream, "%s %s %zu %" PRIu64 " %" PRIu64 " %zu", label,
           bt_kind_name(type, op, flags), sh->segments, sh->offsets[0],
           sh->offsets[sh->segments], sh->shift);
  tu_rng_init(&r.rng, stream);
  const struct sg_data data = {NULL, &r, gen_name(r.gen), random_fill};
  sg_check(sh, type, op, flags, &data, bt_poison(type, op));
}

/* ---- length distributions ----------------------------------------------------- */

void sg_uniform_lengths(tu_rng *r, size_t *len, size_t segments, size_t l) {
  for (size_t s = 0; s < segments; ++s) len[s] = (size_t)tu_below(r, 2 * l + 1);
}

/* Zipf-like with exponent 1.5: floor(u^(-1/0.5)) = floor(1/u^2) for u
 * uniform in (0, 1], clamped to 1 .. max: P(len >= k) ~ k^-0.5, the tail
 * of a Zipf law of exponent 1.5. */
void sg_zipf_lengths(tu_rng *r, size_t *len, size_t segments, size_t max) {
  for (size_t s = 0; s < segments; ++s) {
    const double u = 1.0 - tu_unit(r); /* (0, 1] */
    const double x = 1.0 / (u * u);
    len[s] = x >= (double)max ? max : (size_t)x;
  }
}

void sg_tiny_and_huge(tu_rng *r, size_t *len, size_t segments, size_t huge, size_t at) {
  for (size_t s = 0; s < segments; ++s) len[s] = (size_t)tu_below(r, 5);
  if (at < segments) len[at] = huge;
}

/* ---- tests: lengths ------------------------------------------------------------ */

/* Lengths around every boundary of the order and of the kernel's regimes:
 * chunks (V), 32 chunks, tiles (2048 V), and a packed segment's limit
 * (128 chunks, a window), whose lanes meet at levels 32 and 64 too. */
static size_t boundary_lengths(gpureduce_type_t type, size_t *len) {
  const size_t v = tu_chunk_elems(type), te = tu_tile_elems(type);
  const size_t l[] = {1,       2,          v - 1,      v,      v + 1,      31 * v,
                      32 * v - 1, 32 * v,  32 * v + 1, 33 * v, 64 * v + 3, 255,
                      256,     257,        te - 1,     te,     te + 1,     2 * te - 1,
                      2 * te + 1, 3 * te + 5, 127 * v, 128 * v - 1, 128 * v, 128 * v + 1,
                      129 * v};
  size_t k = 0;
  for (size_t i = 0; i < COUNT(l); ++i)
    if (l[i] > 0) len[k++] = l[i];
  return k;
}

void sg_lengths(void **state) {
  (void)state;
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  size_t len[256];
  while (next_kind(&k, &type, &op, &flags)) {
    const size_t v = tu_chunk_elems(type), te = tu_tile_elems(type);
    const size_t nb = boundary_lengths(type, len);
    /* (products of thousands of factors near 1 drift out of the error
     * bound's reach; keep them to the short lengths) */
    const size_t nl = op == GPUREDUCE_PROD ? 14 : nb;
    /* every length in one call, in order and reversed with empty segments
     * between, and at an odd base and input shift */
    struct sg_shape sh = sg_from_lengths(len, nl, 0, 0, "the boundary lengths in order");
    sg_check_random(&sh, type, op, flags, 0, "lengths");
    size_t rev[512], n = 0;
    for (size_t i = nl; i-- > 0;) {
      rev[n++] = len[i];
      rev[n++] = 0;
    }
    sh = sg_from_lengths(rev, n, 3, 1 % v, "the boundary lengths reversed, empty ones between");
    sg_check_random(&sh, type, op, flags, 0, "lengths");
    /* many short segments side by side (packed, a chunk a thread), around
     * the 32-chunk limit */
    const size_t shorts[] = {31 * v, 32 * v, 32 * v + 1, 33 * v, 1, v, 32 * v - 1, 3};
    size_t many[160];
    for (size_t i = 0; i < COUNT(many); ++i) many[i] = shorts[(i * 7 + i / 8) % COUNT(shorts)];
    sh = sg_from_lengths(many, COUNT(many), 0, 0, "160 short segments around 32 chunks");
    sg_check_random(&sh, type, op, flags, 0, "lengths");
    /* and around the packed limit, 128 chunks, at an odd base */
    if (op != GPUREDUCE_PROD) {
      const size_t window[] = {127 * v, 128 * v, 128 * v + 1, 129 * v,
                               1,       64 * v + 1, 96 * v - 1, 3};
      size_t around[40];
      for (size_t i = 0; i < COUNT(around); ++i)
        around[i] = window[(i * 5 + i / 8) % COUNT(window)];
      sh = sg_from_lengths(around, COUNT(around), 1, 0, "40 segments around 128 chunks");
      sg_check_random(&sh, type, op, flags, 0, "lengths");
    }
    /* alone: one segment each */
    const size_t alone[] = {32 * v, 32 * v + 1, 128 * v, 128 * v + 1, te, te + 1};
    for (size_t i = 0; i < COUNT(alone); ++i) {
      if (op == GPUREDUCE_PROD && alone[i] > 32 * v + 1) continue;
      sh = sg_from_lengths(&alone[i], 1, 0, 0, "one segment");
      sg_check_random(&sh, type, op, flags, 0, "lengths");
    }
  }
}

/* ---- tests: empty segments ---------------------------------------------------- */

void sg_empty_segments(void **state) {
  (void)state;
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (next_kind(&k, &type, &op, &flags)) {
    const size_t v = tu_chunk_elems(type), te = tu_tile_elems(type);
    const size_t big = op == GPUREDUCE_PROD ? 33 : te + 1;
    static size_t zeros[1000];
    const struct {
      const size_t *len;
      size_t segments;
      uint64_t base;
      const char *name;
    } cases[] = {
        {zeros, 1, 0, "one empty segment"},
        {zeros, 3, 5, "three empty segments at offset 5"},
        {zeros, 1000, 17, "1000 empty segments"},
        {(const size_t[]){0, 7, 100}, 3, 0, "the first segment empty"},
        {(const size_t[]){7, 100, 0}, 3, 2, "the last segment empty"},
        {(const size_t[]){0, 0, 0, 5, 0, 0, 33 * v, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, big, 0, 0},
         20, 1, "runs of empty segments"},
        {(const size_t[]){0, big, 0, 1, 0, 32 * v + 1, 0}, 7, 0,
         "empty segments around long ones"},
    };
    for (size_t c = 0; c < COUNT(cases); ++c) {
      const struct sg_shape sh =
          sg_from_lengths(cases[c].len, cases[c].segments, cases[c].base, 0, cases[c].name);
      sg_check_random(&sh, type, op, flags, 0, "empty");
      for (size_t s = 0; s < sh.segments; ++s)
        if (sh.offsets[s] == sh.offsets[s + 1])
          check_result(bt_empty_result(type, op, flags), sg_result(s, type, op, flags),
                       tu_result_size(type, op, flags),
                       "%s, %s: empty segment %zu has the documented empty result",
                       bt_kind_name(type, op, flags), cases[c].name, s);
    }
    /* 3000 segments, three in four empty, the others 1 .. 3V */
    tu_rng r;
    tu_rng_init(&r, "mostly empty");
    static size_t len[3000];
    for (size_t s = 0; s < COUNT(len); ++s)
      len[s] = tu_below(&r, 4) ? 0 : 1 + (size_t)tu_below(&r, 3 * v);
    const struct sg_shape sh =
        sg_from_lengths(len, COUNT(len), 4, 0, "3000 segments, three in four empty");
    sg_check_random(&sh, type, op, flags, 0, "empty");
  }
}

/* ---- tests: alignment of the starts -------------------------------------------- */

void sg_start_alignments(void **state) {
  (void)state;
  for (size_t k = 0; k < some_kinds_count(); ++k) {
    const gpureduce_type_t type = some_kinds[k].type;
    const gpureduce_op_t op = some_kinds[k].op;
    const size_t v = tu_chunk_elems(type), te = tu_tile_elems(type);
    /* V segments of V + 1 start at every alignment; then longer ones */
    size_t len[64], n = 0;
    for (size_t i = 0; i < v; ++i) len[n++] = v + 1;
    for (size_t i = 0; i < v; ++i) len[n++] = 33 * v + i;
    if (op != GPUREDUCE_PROD) {
      len[n++] = te + 3;
      len[n++] = 2 * te - 1;
      len[n++] = 1;
      len[n++] = te;
    }
    const size_t shifts[] = {0, 1, v - 1};
    for (size_t base = 0; base < v; ++base)
      for (size_t si = 0; si < COUNT(shifts); ++si) {
        if (si > 0 && shifts[si] == shifts[si - 1]) continue;
        const struct sg_shape sh = sg_from_lengths(
            len, n, base, shifts[si], "starts at every alignment, offsets[0] = 0 .. V-1");
        sg_check_random(&sh, type, op, some_kinds[k].flags, 0, "alignments");
      }
  }
}

/* ---- tests: mixtures of lengths ------------------------------------------------ */

void sg_mixtures(void **state) {
  (void)state;
  static size_t len[20000];
  for (size_t k = 0; k < some_kinds_count(); ++k) {
    const gpureduce_type_t type = some_kinds[k].type;
    const gpureduce_op_t op = some_kinds[k].op;
    const unsigned flags = some_kinds[k].flags;
    const size_t te = tu_tile_elems(type);
    const int prod = op == GPUREDUCE_PROD;
    tu_rng r;
    char stream[96];
    snprintf(stream, sizeof stream, "mixtures %s", bt_kind_name(type, op, flags));
    tu_rng_init(&r, stream);
    struct sg_shape sh;
    /* uniform in 0 .. 2L */
    const size_t ls[] = {3, 40, 300};
    const size_t counts[] = {5000, 2000, 300};
    for (size_t i = 0; i < COUNT(ls); ++i) {
      if (prod && ls[i] > 40) continue;
      sg_uniform_lengths(&r, len, counts[i], ls[i]);
      char name[64];
      snprintf(name, sizeof name, "uniform lengths 0 .. %zu", 2 * ls[i]);
      sh = sg_from_lengths(len, counts[i], (size_t)tu_below(&r, 16), 0, name);
      sg_check_random(&sh, type, op, flags, 0, "mixtures");
    }
    if (prod) continue;
    /* Zipf-like, exponent 1.5, over 1 .. 8 tiles */
    sg_zipf_lengths(&r, len, 2000, 8 * te);
    sh = sg_from_lengths(len, 2000, 1, 0, "Zipf lengths 1 .. 8 tiles");
    sg_check_random(&sh, type, op, flags, 0, "mixtures");
    /* many tiny, one huge */
    sg_tiny_and_huge(&r, len, 3000, 5 * te + 17, 1234);
    sh = sg_from_lengths(len, 3000, 0, 0, "3000 of 0 .. 4 elements and one of 5 tiles + 17");
    sg_check_random(&sh, type, op, flags, 0, "mixtures");
    /* whole tiles, +-1 */
    size_t n = 0;
    for (size_t t = 1; t <= 4; ++t) {
      len[n++] = t * te - 1;
      len[n++] = t * te;
      len[n++] = t * te + 1;
      len[n++] = (size_t)tu_below(&r, 40);
    }
    sh = sg_from_lengths(len, n, 0, 0, "k tiles - 1, k tiles, k tiles + 1, k = 1 .. 4");
    sg_check_random(&sh, type, op, flags, 0, "mixtures");
    /* the pool (ties) for min, max, argmin and argmax */
    if (!tu_is_sum_like(op)) {
      sg_uniform_lengths(&r, len, 500, 100);
      sh = sg_from_lengths(len, 500, 0, 0, "uniform lengths 0 .. 200");
      sg_check_random(&sh, type, op, flags, 1, "mixtures pool");
    }
  }
}

/* ---- tests: special values per segment --------------------------------------- */

/*
 * Segment s of n >= 5 elements follows pattern s % 8 over values in
 * [1, 2) (floats) or in 10 .. 99 (integers), as in batched.c:
 *   0  those values alone;       4  -0 and +0 alternating, -0 first;
 *   1  a NaN at p;               5  +inf at p;
 *   2  NaNs at p and q (p < q);  6  -inf at p and +inf at q;
 *   3  -0 everywhere;            7  ties: the smallest value (0.5, or 3) at
 *                                   p and q, the largest (4, or 120) at
 *                                   p + 1 and q + 1;
 * p = (3s + 1) % (n/2 - 1), q = n/2 + s % (n - n/2 - 1).  Integers take
 * patterns 0 and 7 only.
 */
struct special {
  gpureduce_type_t type;
  const uint64_t *off;
  tu_rng rng;
};

static uint64_t special_value(void *ctx, size_t s, size_t i) {
  struct special *sp = ctx;
  return bt_special_element(sp->type, s, (size_t)(sp->off[s + 1] - sp->off[s]), i, &sp->rng);
}

/* The answers of gpureduce.h for the patterns, by hand. */
static void check_special(gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                          const struct sg_shape *sh) {
  for (size_t s = 0; s < sh->segments; ++s) {
    const size_t n = (size_t)(sh->offsets[s + 1] - sh->offsets[s]);
    bt_result wanted;
    const char *why;
    if (!bt_special_answer(type, op, flags, s, n, &wanted, &why))
      continue; /* the reference and the 1-D call checked it */
    check_result(wanted, sg_result(s, type, op, flags), tu_result_size(type, op, flags),
               "%s, %s: segment %zu of %zu elements from %" PRIu64 " holds %s",
               bt_kind_name(type, op, flags), sh->name, s, n, sh->offsets[s], why);
  }
}

void sg_special_values(void **state) {
  (void)state;
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (next_kind(&k, &type, &op, &flags)) {
    const size_t te = tu_tile_elems(type);
    /* 48 segments: every pattern at six lengths (products of more than
     * 33 values in [1, 2) overflow a float: short ones for PROD) */
    const size_t lengths[] = {5, 33, 300, 9, te + 2, 17};
    const size_t prod_lengths[] = {5, 33, 6, 9, 12, 17};
    size_t len[48];
    for (size_t s = 0; s < COUNT(len); ++s)
      len[s] = (op == GPUREDUCE_PROD ? prod_lengths : lengths)[s / 8 % 6];
    const struct sg_shape sh =
        sg_from_lengths(len, COUNT(len), 1, 0, "special values, 48 segments");
    struct special sp = {.type = type, .off = sh.offsets};
    tu_rng_init(&sp.rng, "segments special values");
    const struct sg_data data = {special_value, &sp,
                                 "NaNs, signed zeros, infinities and ties per segment", NULL};
    sg_check(&sh, type, op, flags, &data, bt_poison(type, op));
    check_special(type, op, flags, &sh);
  }
}

/* ---- tests: no segments ------------------------------------------------------ */

void sg_no_segments(void **state) {
  (void)state;
  unsigned char *d_in = bt_room_for(&in_mem, 4096), *d_out = bt_room_for(&out_mem, 256);
  uint64_t *d_off = bt_room_for(&off_mem, 2 * sizeof(uint64_t));
  unsigned char *res = bt_room_for(&got, 256);
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (sg_next_kind(&k, &type, &op, &flags)) {
    const uint64_t firsts[] = {0, 3, 12345, UINT64_MAX};
    for (size_t i = 0; i < COUNT(firsts); ++i) {
      B->put(d_off, &firsts[i], sizeof firsts[i]);
      memset(res, OUT_FILL, 256);
      B->put(d_out, res, 256);
      const gpureduce_status_t st = gpureduce_reduce_segments(d_in, d_out + CANARY, d_off, 0,
                                                              type, op, flags,
                                                              battery_handle());
      check_status(GPUREDUCE_SUCCESS, st,
                   "%s, 0 segments, offsets[0] = %" PRIu64 ": nothing to do (%s)",
                   bt_kind_name(type, op, flags), firsts[i],
                   st ? gpureduce_last_message(battery_handle()) : "");
      check_no_async_error(battery_handle(), "0 segments");
      B->get(res, d_out, 256);
      check_bytes(res, OUT_FILL, 256, "%s, 0 segments, offsets[0] = %" PRIu64 ": nothing written",
                  bt_kind_name(type, op, flags), firsts[i]);
    }
  }
}

/* ---- tests: invalid offsets --------------------------------------------------- */

int sg_invalid(const uint64_t *off, size_t S, size_t s) {
  return !(off[0] <= off[s] && off[s] <= off[s + 1] && off[s + 1] <= off[S]);
}

/*
 * One call with invalid offsets off[0 .. S] (`lowest` the first invalid
 * segment, written out by hand), random data in [offsets[0],
 * offsets[S]) and poison around it (all poison when offsets[0] >
 * offsets[S]): SUCCESS, the canaries, the empty result in
 * every invalid segment, the 1-D bits in the valid ones (host backend
 * only), nothing else written.  The async error is left to the caller.
 */
static void bad_call(gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                     const uint64_t *off, size_t S, size_t lowest, const char *name) {
  const unsigned es = TU_TYPE(type)->size;
  const size_t rs = tu_result_size(type, op, flags);
  char what[300];
  snprintf(what, sizeof what, "%s, %zu segments, %s", bt_kind_name(type, op, flags), S, name);
  size_t first = S;
  for (size_t s = S; s-- > 0;)
    if (sg_invalid(off, S, s)) first = s;
  check_bits(lowest, first, "%s: test check: the rule finds the lowest invalid segment", what);

  const uint64_t poison = bt_poison(type, op);
  const size_t lo = (size_t)off[0], hi = (size_t)off[S];
  const size_t total = (lo > hi ? lo : hi) + PAD / es;
  unsigned char *img = bt_room_for(&image, total * es);
  for (size_t k = 0; k < total; ++k) tu_store(img, k, es, poison);
  tu_rng r;
  tu_rng_init(&r, what);
  if (lo < hi) tc_fill(&r, type, gen_for(type, op, 0), img + lo * es, hi - lo);
  unsigned char *d_in = bt_room_for(&in_mem, total * es);
  B->put(d_in, img, total * es);
  uint64_t *d_off = bt_room_for(&off_mem, (S + 1) * sizeof *off);
  B->put(d_off, off, (S + 1) * sizeof *off);
  const size_t out_bytes = CANARY + S * rs + CANARY;
  unsigned char *d_out = bt_room_for(&out_mem, out_bytes), *res = bt_room_for(&got, out_bytes);
  memset(res, OUT_FILL, out_bytes);
  B->put(d_out, res, out_bytes);
  const gpureduce_status_t st = gpureduce_reduce_segments(d_in, d_out + CANARY, d_off, S, type,
                                                          op, flags, battery_handle());
  check_status(GPUREDUCE_SUCCESS, st,
               "%s: the call succeeds (the offsets are device data, checked later) (%s)", what,
               st ? gpureduce_last_message(battery_handle()) : "");
  B->get(res, d_out, out_bytes);
  check_bytes(res, OUT_FILL, CANARY, "%s: the canary before the results survives", what);
  check_bytes(res + CANARY + S * rs, OUT_FILL, CANARY,
              "%s: the canary after the results survives", what);
  const unsigned char *rr = res + CANARY;
  for (size_t s = 0; s < S; ++s) {
    if (sg_invalid(off, S, s)) {
      check_result(bt_empty_result(type, op, flags), bt_result_at(rr, s, rs), rs,
                   "%s: invalid segment %zu (offsets %" PRIu64 ", %" PRIu64
                   ") has the empty result",
                   what, s, off[s], off[s + 1]);
      continue;
    }
    if (B->device != GPUREDUCE_DEVICE_HOST) continue; /* unspecified on CUDA */
    const size_t n = (size_t)(off[s + 1] - off[s]);
    _Alignas(16) unsigned char one_bytes[16] = {0};
    bt_result one = bt_empty_result(type, op, flags);
    if (!(n == 0 && bt_empty_is_error(op))) {
      const gpureduce_status_t s1 = gpureduce_reduce(img + (size_t)off[s] * es, one_bytes, n,
                                                     type, op, flags, battery_handle());
      check_status(GPUREDUCE_SUCCESS, s1, "%s: the 1-D call on segment %zu", what, s);
      one = bt_result_at(one_bytes, 0, rs);
    }
    check_result(one, bt_result_at(rr, s, rs), rs,
                 "%s: valid segment %zu has the bits of gpureduce_reduce() (host backend)", what,
                 s);
  }
}

/* gpureduce_get_async_error() says INVALID_OFFSETS once, naming `lowest`,
 * then SUCCESS. */
static void check_async_error(gpureduce_handle_t h, size_t lowest, const char *what) {
  const gpureduce_status_t s = gpureduce_get_async_error(h);
  check_status(GPUREDUCE_ERROR_INVALID_OFFSETS, s, "%s: gpureduce_get_async_error()", what);
  const char *m = gpureduce_last_message(h);
  check_true(m && mentions_number(m, lowest),
             "%s: the message \"%s\" names the lowest invalid segment, %zu", what,
             m ? m : "(null)", lowest);
  check_status(GPUREDUCE_SUCCESS, gpureduce_get_async_error(h),
               "%s: the second gpureduce_get_async_error() finds nothing (the error was "
               "cleared)",
               what);
}

/* A valid call with long segments on the handle, right after invalid
 * ones: the bits of every segment (the workspace is clean). */
static void check_clean_after(gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                              const char *after) {
  const size_t te = tu_tile_elems(type);
  /* (products: 33 factors at most, as elsewhere) */
  const size_t len[] = {3, 9 * te + 5, 0, 1, 4 * te + 1, 17, (size_t)1 << 18};
  size_t l2[COUNT(len)];
  for (size_t i = 0; i < COUNT(len); ++i)
    l2[i] = op == GPUREDUCE_PROD && len[i] > 33 ? 33 : len[i];
  char name[160];
  snprintf(name, sizeof name, "long segments right after %s", after);
  const struct sg_shape sh = sg_from_lengths(l2, COUNT(l2), 2, 0, name);
  sg_check_random(&sh, type, op, flags, 0, "after bad offsets");
}

void sg_bad_offsets(void **state) {
  (void)state;
  static const struct sg_kind kinds[] = {
      {GPUREDUCE_F32, GPUREDUCE_SUM, 0},        {GPUREDUCE_U8, GPUREDUCE_SUM, 0},
      {GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0},     {GPUREDUCE_F64, GPUREDUCE_MIN, 0},
      {GPUREDUCE_I32, GPUREDUCE_ARGMIN, 0},     {GPUREDUCE_F16, GPUREDUCE_SUM_SQUARES, 0},
      {GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
      {GPUREDUCE_I64, GPUREDUCE_PROD, 0},       {GPUREDUCE_BF16, GPUREDUCE_MAX, 0},
  };
  const size_t nk = sg_quick() ? 3 : COUNT(kinds);
  const uint64_t M = UINT64_MAX, W = (uint64_t)1 << 62; /* W * 4: 2^64, 0 mod 2^64 */
  static uint64_t many[1001];
  for (size_t s = 0; s <= 1000; ++s) many[s] = 3 * s;
  many[700] = 2103 + 5; /* segment 700 (2108 .. 2103) decreases; 699 is longer */
  many[701] = 2103;
  many[900] = 5000; /* segments 899 and 900 leave [0, 3000] */
  for (size_t k = 0; k < nk; ++k) {
    const gpureduce_type_t type = kinds[k].type;
    const gpureduce_op_t op = kinds[k].op;
    const unsigned flags = kinds[k].flags;
    const uint64_t te = tu_tile_elems(type), L = op == GPUREDUCE_PROD ? 30 : (uint64_t)1 << 20;
    const struct {
      const char *name;
      const uint64_t *off;
      size_t segments, lowest;
    } cases[] = {
        {"decreasing offsets (segment 1)", (const uint64_t[]){0, 10, 5, 20, 20, 31}, 5, 1},
        {"1000 segments, a decreasing pair at 700, an offset beyond the end at 900", many,
         1000, 700},
        {"offsets[0] above offsets[segments]", (const uint64_t[]){50, 10, 20, 30}, 3, 0},
        {"offsets[0] above offsets[segments], increasing in between",
         (const uint64_t[]){50, 60, 70, 40}, 3, 0},
        {"an offset far beyond offsets[segments]", (const uint64_t[]){0, 8, 1000000, 16, 24},
         4, 1},
        {"an offset below offsets[0]", (const uint64_t[]){100, 120, 50, 140}, 3, 1},
        {"UINT64_MAX", (const uint64_t[]){0, M, 10}, 2, 0},
        {"offsets near UINT64_MAX", (const uint64_t[]){4, 9, M - 1, M, 12}, 4, 1},
        {"an offset whose byte offset wraps to 0 mod 2^64", (const uint64_t[]){0, 7, W, W + 5, 16},
         4, 1},
        {"long valid segments around an invalid one",
         (const uint64_t[]){0, L + 3, L + 3 + 5 * te, L + 1 + 5 * te, 2 * L + 5 * te,
                            2 * L + 6 * te},
         5, 2},
        {"the last segment decreasing", (const uint64_t[]){0, 3 * te, 3 * te + 9, 3 * te + 4},
         3, 1},
    };
    for (size_t c = 0; c < COUNT(cases); ++c) {
      bad_call(type, op, flags, cases[c].off, cases[c].segments, cases[c].lowest,
               cases[c].name);
      char what[300];
      snprintf(what, sizeof what, "%s, %s", bt_kind_name(type, op, flags), cases[c].name);
      check_async_error(battery_handle(), cases[c].lowest, what);
      check_clean_after(type, op, flags, cases[c].name);
    }
    /* two calls with invalid segments before the error is read: the
     * lowest invalid segment of both */
    bad_call(type, op, flags, (const uint64_t[]){0, 1, 2, 3, 4, 9, 5, 6, 10}, 8, 5,
             "an invalid segment 5 in the first of two calls");
    bad_call(type, op, flags, (const uint64_t[]){0, 1, 2, 1, 4}, 4, 2,
             "an invalid segment 2 in the second of two calls");
    check_async_error(battery_handle(), 2, "two calls with invalid segments 5, then 2");
    /* the error belongs to its handle */
    gpureduce_handle_t h2 = NULL;
    check_status(GPUREDUCE_SUCCESS, gpureduce_create(&h2, B->device),
                 "a second handle of the backend");
    bad_call(type, op, flags, (const uint64_t[]){0, 4, 3, 5}, 3, 1,
             "an invalid segment 1 on the battery's handle");
    check_status(GPUREDUCE_SUCCESS, gpureduce_get_async_error(h2),
                 "%s: another handle has no error of the battery's handle's call",
                 bt_kind_name(type, op, flags));
    check_async_error(battery_handle(), 1, "the invalid call's own handle");
    check_status(GPUREDUCE_SUCCESS, gpureduce_destroy(h2), "destroy the second handle");
    check_clean_after(type, op, flags, "the calls above");
  }
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE, gpureduce_get_async_error(NULL),
               "gpureduce_get_async_error(NULL)");
}
