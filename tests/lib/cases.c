/*
 * cases.c - see cases.h.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elements.h"

/* ---- generators ------------------------------------------------------------ */

/* The pattern of v, a value exact in every floating type (the generators'
 * constants are: small multiples of powers of two). */
static uint64_t exact(gpureduce_type_t type, double v) {
  uint64_t bits = tu_canonical_nan(TU_TYPE(type)->size);
  (void)tu_pattern_of(type, v, &bits);
  return bits;
}

static uint64_t gen_one(tu_rng *r, gpureduce_type_t type, enum tc_gen g) {
  const tu_type *t = TU_TYPE(type);
  const uint64_t m = tu_size_mask(t->size);
  if (g == G_MODERATE) {
    const uint64_t u = tu_next(r);
    switch (type) {
      case GPUREDUCE_F16: /* exponent 10 .. 17: |x| in [2^-5, 2^3) */
        return ((u >> 63) << 15) | ((10 + (u >> 32) % 8) << 10) | (u & 0x3ff);
      case GPUREDUCE_BF16: /* exponent 120 .. 131 */
        return ((u >> 63) << 15) | ((120 + (u >> 32) % 12) << 7) | (u & 0x7f);
      case GPUREDUCE_F32: return tu_f32_bits((float)(tu_unit(r) * 4.0 - 2.0));
      case GPUREDUCE_F64: return tu_f64_bits(tu_unit(r) * 4.0 - 2.0);
      default: return u & m;
    }
  }
  if (g == G_FACTORS) g = t->is_float ? G_NEAR1 : G_ODD;
  if (!t->is_float) {
    switch (g) {
      case G_POOL:
      case G_INNER: {
        const uint64_t pool[] = {tu_type_lowest(type), (tu_type_lowest(type) + 1) & m, 0, 1, 7,
                                 (tu_type_max(type) - 1) & m, tu_type_max(type)};
        const uint64_t v = pool[tu_below(r, sizeof pool / sizeof pool[0])];
        return g == G_INNER && (v == tu_type_lowest(type) || v == tu_type_max(type)) ? 7 : v;
      }
      case G_ODD: return (tu_next(r) | 1) & m;
      default: {
        const uint64_t k = tu_below(r, 64);
        if (k == 0) return tu_type_lowest(type);
        if (k == 1) return tu_type_max(type);
        return tu_next(r) & m;
      }
    }
  }
  const uint64_t bits = tu_next(r);
  switch (g) {
    case G_POOL: {
      static const double pool[] = {-2.5, -1.0, -0.0, 0.0, 0.75, 3.0};
      return exact(type, pool[tu_below(r, 6)]);
    }
    case G_NEAR1:
      switch (type) {
        /* 1 + j 2^-10 and 1 + j 2^-7: symmetric around 1, so long
         * products neither overflow nor underflow */
        case GPUREDUCE_F16: return exact(type, 1.0 + ((double)tu_below(r, 17) - 8) / 1024);
        case GPUREDUCE_BF16: return exact(type, 1.0 + ((double)tu_below(r, 5) - 2) / 128);
        case GPUREDUCE_F32: return tu_f32_bits((float)(1.0 + (tu_unit(r) - 0.5) / 32));
        default: return tu_f64_bits(1.0 + (tu_unit(r) - 0.5) / 32);
      }
    default: break;
  }
  /* G_WIDE, G_INF, G_INNER */
  const int neg = (int)(bits >> 63);
  const uint64_t k = tu_below(r, 512);
  if (g == G_INF && k < 2) return neg ? tu_neg_inf(type) : tu_pos_inf(type);
  int total, frac, bias;
  switch (type) {
    case GPUREDUCE_F16: total = 16; frac = 10; bias = 15; break;
    case GPUREDUCE_BF16: total = 16; frac = 7; bias = 127; break;
    case GPUREDUCE_F32: total = 32; frac = 23; bias = 127; break;
    default: total = 64; frac = 52; bias = 1023; break;
  }
  const uint64_t sign = neg ? (uint64_t)1 << (total - 1) : 0;
  const uint64_t fr = (bits >> 1) & (((uint64_t)1 << frac) - 1);
  if (k < 8) return sign; /* +-0 */
  if (k < 16) return sign | (fr ? fr : 1); /* subnormal */
  uint64_t e;
  if (type == GPUREDUCE_F16) e = 1 + tu_below(r, 30); /* the whole finite range */
  else e = (uint64_t)(bias - 24) + tu_below(r, 49); /* 2^-24 .. 2^24 */
  return sign | (e << frac) | fr;
}

void tc_fill(tu_rng *r, gpureduce_type_t type, enum tc_gen g, void *x, size_t n) {
  const unsigned size = TU_TYPE(type)->size;
  for (size_t i = 0; i < n; ++i) tu_store(x, i, size, gen_one(r, type, g));
}

/* ---- sizes and types ---------------------------------------------------------- */

size_t tc_sizes(gpureduce_type_t type, size_t *s) {
  static const size_t small[] = {1, 2, 31, 32, 33, 255, 256, 257, 1025};
  static const size_t tiles[] = {1, 2, 3, 5};
  size_t k = 0;
  for (size_t i = 0; i < COUNT(small); ++i) s[k++] = small[i];
  const size_t te = tu_tile_elems(type);
  for (size_t i = 0; i < COUNT(tiles); ++i) {
    s[k++] = tiles[i] * te - 1;
    s[k++] = tiles[i] * te;
    s[k++] = tiles[i] * te + 1;
  }
  return k;
}

const gpureduce_type_t tc_int_types[6] = {GPUREDUCE_I8,  GPUREDUCE_U8,  GPUREDUCE_I32,
                                          GPUREDUCE_U32, GPUREDUCE_I64, GPUREDUCE_U64};
const gpureduce_type_t tc_float_types[4] = {GPUREDUCE_F16, GPUREDUCE_BF16, GPUREDUCE_F32,
                                            GPUREDUCE_F64};
const struct tc_kind tc_sum_kinds[5] = {{GPUREDUCE_F16, 0},
                                        {GPUREDUCE_BF16, 0},
                                        {GPUREDUCE_F32, 0},
                                        {GPUREDUCE_F32, GPUREDUCE_ACCUMULATE_F64},
                                        {GPUREDUCE_F64, 0}};

/* ---- doc/ORDER.md's worked examples ------------------------------------------- */

struct tc_example tc_order_example(int k, float *x) {
  static const float doc[8] = {1e8f, 1, -1e8f, 1, 0.5f, 0.25f, 0.125f, 0.0625f};
  const size_t te = tu_tile_elems(GPUREDUCE_F32);
  struct tc_example e;
  switch (k) {
    case 0:
      /* doc/ORDER.md's example: lane 0 = ((1e8 + 1) + -1e8) + 1 = 1,
       * lane 1 = 0.9375, the lane tree adds them at s = 1 */
      memcpy(x, doc, sizeof doc);
      e.what = "doc/ORDER.md's example gives 1.9375";
      e.n = 8;
      e.sum = 1.9375f;
      return e;
    case 1:
      /* Lanes: chunk c goes to lane c mod 256; the lane tree pairs l with
       * l + s for s = 128 .. 1.  x[0] = 2^24, chunk 256 (lane 0 again) = 1,
       * chunks 1 and 3 (lanes 1 and 3) = 1:
       *   lane 0 = 2^24 + 1 = 2^24 (ties to even), lane 1 = 1, lane 3 = 1;
       *   s = 2: lane 1 = 2;  s = 1: lane 0 = 2^24 + 2 = 16777218.
       * A left-to-right loop gives 16777216. */
      e.n = 1025;
      memset(x, 0, e.n * sizeof *x);
      x[0] = 16777216.0f;
      x[4] = 1;    /* chunk 1 */
      x[12] = 1;   /* chunk 3 */
      x[1024] = 1; /* chunk 256 */
      e.what = "2^24 and three ones in lanes 0, 1, 3: the lane tree gives 2^24 + 2";
      e.sum = 16777218.0f;
      return e;
    case 2:
      /* The tile tree over T = 5 tiles with values 2^24, 1, 1, 1, 1:
       * tree(0..3) = (2^24 + 1) + (1 + 1) = 2^24 + 2; then + tile 4:
       * 2^24 + 3 rounds to even, 16777220.  Left to right: 16777216. */
      e.n = 4 * te + 1;
      e.what = "tiles 2^24, 1, 1, 1, 1: the tile tree gives 2^24 + 4";
      e.sum = 16777220.0f;
      break;
    default:
      /* T = 3, tiles 2^24, 1, 1: (2^24 + 1) + 1 = 2^24, not 2^24 + (1 + 1). */
      e.n = 2 * te + 1;
      e.what = "tiles 2^24, 1, 1: the tile tree gives (2^24 + 1) + 1 = 2^24";
      e.sum = 16777216.0f;
      break;
  }
  memset(x, 0, e.n * sizeof *x);
  x[0] = 16777216.0f;
  for (size_t t = 1; t * te < e.n; ++t) x[t * te] = 1;
  return e;
}

/* ---- the iterator ------------------------------------------------------------ */

static size_t kinds(const struct tc_plan *p) {
  return p->kinds ? p->nkinds : p->types ? p->ntypes : GPUREDUCE_TYPE_COUNT;
}

static gpureduce_type_t kind_type(const struct tc_plan *p, size_t k) {
  return p->kinds ? p->kinds[k].type : p->types ? p->types[k] : (gpureduce_type_t)k;
}

static size_t plan_sizes(gpureduce_type_t type, tu_rng *r, size_t *n) {
  (void)r;
  return tc_sizes(type, n);
}

/* Enter kind w->kind: its stream, its sizes, room for the largest.  0 on
 * success, -1 when the memory cannot be allocated. */
static int enter_kind(struct tc_walk *w) {
  const struct tc_plan *p = w->plan;
  const gpureduce_type_t type = kind_type(p, w->kind);
  char label[128];
  if (p->kinds)
    snprintf(label, sizeof label, "%s %s %u", p->stream, TU_TYPE(type)->name,
             p->kinds[w->kind].flags);
  else
    snprintf(label, sizeof label, "%s %s", p->stream, TU_TYPE(type)->name);
  tu_rng_init(&w->rng, label);
  w->nsizes = (p->sizes ? p->sizes : plan_sizes)(type, &w->rng, w->sizes);
  size_t most = 1;
  for (size_t i = 0; i < w->nsizes; ++i)
    if (w->sizes[i] > most) most = w->sizes[i];
  const size_t bytes = most * TU_TYPE(type)->size;
  if (bytes > w->cap) {
    free(w->x);
    w->x = NULL;
    w->cap = 0;
    if (posix_memalign(&w->x, 256, (bytes + 255) & ~(size_t)255) != 0) {
      w->x = NULL;
      return -1;
    }
    w->cap = bytes;
  }
  return 0;
}

/* The flags value at the walk's position (its flags index into
 * tu_flag_values), or -1 when the position has none. */
static long position_flags(const struct tc_walk *w) {
  const struct tc_plan *p = w->plan;
  if (p->kinds) return w->flags == 0 ? (long)p->kinds[w->kind].flags : -1;
  return tu_flag_values[w->flags];
}

/* One step of the odometer: offset, flags, op, data, size, kind.  Returns
 * what changed: 0 within the data, 1 new data, 2 a new kind, 3 the end. */
static int step(struct tc_walk *w) {
  const struct tc_plan *p = w->plan;
  if (++w->offset < (p->offsets > 1 ? p->offsets : 1)) return 0;
  w->offset = 0;
  if (++w->flags < TU_FLAG_VALUES) return 0;
  w->flags = 0;
  if (++w->op < GPUREDUCE_OP_COUNT) return 0;
  w->op = 0;
  if (++w->data < p->ndata) return 1;
  w->data = 0;
  if (++w->size < w->nsizes) return 1;
  w->size = 0;
  if (++w->kind < kinds(p)) return 2;
  return 3;
}

void tc_begin(struct tc_walk *w, const struct tc_plan *plan) {
  w->plan = plan;
  w->kind = w->size = w->data = w->nsizes = w->offset = 0;
  w->op = 0;
  w->flags = 0;
  w->started = 0;
  w->unread = 0;
  w->x = NULL;
  w->cap = 0;
}

void tc_end(struct tc_walk *w) {
  free(w->x);
  w->x = NULL;
  w->cap = 0;
}

int tc_next(struct tc_walk *w, struct tc_case *c) {
  const struct tc_plan *p = w->plan;
  int change;
  if (!w->started) {
    w->started = 1;
    change = kinds(p) == 0 || p->ndata == 0 ? 3 : 2;
  } else {
    change = step(w);
  }
  for (;; change = step(w)) {
    if (change == 3) {
      tc_end(w);
      return 0;
    }
    if (change == 2 && enter_kind(w) != 0) {
      tc_end(w);
      return -1;
    }
    const gpureduce_type_t type = kind_type(p, w->kind);
    const struct tc_data *d = &p->data[w->data];
    if (change >= 1) { /* every (kind, size, data) is filled, used or not */
      tc_fill(&w->rng, type, d->gen, w->x, w->sizes[w->size]);
      w->unread = 1;
    }
    const long flags = position_flags(w);
    if (flags < 0 || !(d->ops & TC_OP(w->op)) ||
        tu_result_size(type, (gpureduce_op_t)w->op, (unsigned)flags) == 0)
      continue;
    c->type = type;
    c->op = (gpureduce_op_t)w->op;
    c->flags = (unsigned)flags;
    c->n = w->sizes[w->size];
    c->offset = w->offset;
    c->data = d;
    c->x = w->x;
    c->fresh = w->unread;
    w->unread = 0;
    return 1;
  }
}
