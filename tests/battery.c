/*
 * battery.c - the reduction tests both backends must pass (battery.h).
 *
 * References, all computed on the host:
 *   - random data: the independent reference of reference.h (plain loops
 *     for integers and MIN/MAX/ARG*, doc/ORDER.md bit for bit and an
 *     error bound for floating sums and products);
 *   - special values: answers written out by hand from gpureduce.h.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "battery.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

/* ---- the backend and its buffers ------------------------------------------ */

static const struct tu_backend *B;
static gpureduce_handle_t H;
static unsigned char *in_mem;   /* backend memory for inputs */
static size_t in_cap;
static unsigned char *out_mem;  /* backend memory for one result + canary */
static unsigned char *stage;    /* host image of the input buffer */
static size_t stage_cap;

#define PAD 256          /* poison bytes before the aligned start and after the data */
#define OUT_BYTES 64     /* result (at most 8 bytes) and canary */
#define OUT_FILL 0xC3    /* what the output buffer holds before a call */

void battery_use(const struct tu_backend *backend) { B = backend; }

gpureduce_handle_t battery_handle(void) { return H; }

int battery_setup(void **state) {
  (void)state;
  tu_announce_seed();
  gpureduce_status_t s = gpureduce_create(&H, B->device);
  if (s != GPUREDUCE_SUCCESS) {
    print_error("gpureduce_create(%d) for the %s backend: %s (%s)\n", B->device, B->name,
                tu_status_name(s), gpureduce_status_string(s));
    return -1;
  }
  out_mem = B->alloc(OUT_BYTES);
  if (!out_mem) {
    print_error("cannot allocate %d bytes of %s memory\n", OUT_BYTES, B->name);
    return -1;
  }
  return 0;
}

int battery_teardown(void **state) {
  (void)state;
  B->release(in_mem);
  B->release(out_mem);
  free(stage);
  in_mem = out_mem = stage = NULL;
  in_cap = stage_cap = 0;
  const gpureduce_status_t s = gpureduce_destroy(H);
  H = NULL;
  if (s != GPUREDUCE_SUCCESS) {
    print_error("gpureduce_destroy: %s\n", tu_status_name(s));
    return -1;
  }
  return 0;
}

static void ensure_buffers(size_t bytes) {
  if (stage_cap < bytes) {
    free(stage);
    stage_cap = bytes + bytes / 2;
    stage = tu_alloc(stage_cap);
  }
  if (in_cap < bytes) {
    B->release(in_mem);
    in_cap = bytes + bytes / 2;
    in_mem = B->alloc(in_cap);
    if (!in_mem) {
      in_cap = 0;
      fail_msg("cannot allocate %zu bytes of %s memory", bytes, B->name);
    }
  }
}

static size_t result_bytes(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  const size_t rs = tu_result_size(type, op, flags);
  return rs ? rs : 8;
}

static const char *op_name(gpureduce_op_t op) {
  return (unsigned)op < GPUREDUCE_OP_COUNT ? tu_op_names[op] : "(bad op)";
}

static const char *type_name(gpureduce_type_t type) {
  return (unsigned)type < GPUREDUCE_TYPE_COUNT ? TU_TYPE(type)->name : "(bad type)";
}

gpureduce_status_t battery_reduce(const void *x, size_t n, gpureduce_type_t type,
                                  gpureduce_op_t op, unsigned flags, size_t offset,
                                  uint64_t poison, uint64_t *out) {
  const unsigned es = TU_TYPE(type)->size;
  const size_t rs = result_bytes(type, op, flags);
  const size_t lead = PAD + offset * es, body = n * es, total = lead + body + PAD;
  ensure_buffers(total);
  for (size_t i = 0; i < lead / es; ++i) tu_store(stage, i, es, poison);
  if (body) memcpy(stage + lead, x, body);
  for (size_t i = (lead + body) / es; i < total / es; ++i) tu_store(stage, i, es, poison);
  B->put(in_mem, stage, total);

  unsigned char ob[OUT_BYTES];
  memset(ob, OUT_FILL, sizeof ob);
  B->put(out_mem, ob, sizeof ob);
  const gpureduce_status_t s =
      gpureduce_reduce(x ? in_mem + lead : NULL, out_mem, n, type, op, flags, H);
  B->get(ob, out_mem, sizeof ob);
  check_bytes(ob + rs, OUT_FILL, sizeof ob - rs,
              "%s %s flags %u n=%zu offset %zu: the canary after the %zu-byte result survives",
              type_name(type), op_name(op), flags, n, offset, rs);
  if (s != GPUREDUCE_SUCCESS)
    check_bytes(ob, OUT_FILL, rs, "%s %s flags %u n=%zu: the output is untouched after %s",
                type_name(type), op_name(op), flags, n, tu_status_name(s));
  *out = tu_load(ob, 0, (unsigned)rs);
  return s;
}

/* ---- references ------------------------------------------------------------ */

/* The reference's answer (reference.h); fails the test when there is none
 * or its scratch memory cannot be allocated. */
static struct ref_answer want_for(const void *x, size_t n, gpureduce_type_t type,
                                  gpureduce_op_t op, unsigned flags) {
  struct ref_answer w;
  const int r = ref_answer(x, n, type, op, flags, &w);
  if (r == -2) fail_msg("the reference cannot allocate %zu accumulators", n);
  if (r != 0)
    fail_msg("the reference has no answer for %s %s flags %u n=%zu", type_name(type),
             op_name(op), flags, n);
  return w;
}

static void check_want_at(const char *file, int line, const struct ref_answer *w, uint64_t got,
                          const char *what) {
  if (w->has_bound)
    tu_check_near(file, line, w->exact, ref_result_value(w->result_bytes, got), w->bound,
                  "%s: within the stated error bound of the exact value", what);
  tu_check_bits(file, line, w->bits, got, "%s: %s", what,
                w->has_bound ? "bits equal the doc/ORDER.md reference" : "equals the reference");
}
#define check_want(w, got, what) check_want_at(__FILE__, __LINE__, (w), (got), (what))

void bt_check_reference(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                        unsigned flags, uint64_t got, const char *what) {
  const struct ref_answer w = want_for(x, n, type, op, flags);
  check_want(&w, got, what);
}

/* Reduce and compare with the reference. */
static void check_one(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                      unsigned flags, const char *label) {
  char what[256];
  snprintf(what, sizeof what, "%s %s%s n=%zu (%s)", type_name(type), op_name(op),
           flags ? " accumulate-f64" : "", n, label);
  const struct ref_answer w = want_for(x, n, type, op, flags);
  uint64_t got = 0;
  const gpureduce_status_t s = battery_reduce(x, n, type, op, flags, 0, 0, &got);
  check_status(GPUREDUCE_SUCCESS, s, "%s: status", what);
  check_want(&w, got, what);
}

/* Result pattern of value v for (type, op, flags): the element type for
 * MIN/MAX, float or double for floating sum-likes; NaN gives the canonical
 * NaN.  v must be exact in that type. */
static uint64_t rp(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, double v) {
  const size_t rs = tu_result_size(type, op, flags);
  if (v != v) return tu_canonical_nan((unsigned)rs);
  if (op == GPUREDUCE_MIN || op == GPUREDUCE_MAX) return tu_pattern(type, v);
  return rs == 4 ? tu_pattern(GPUREDUCE_F32, v) : tu_f64_bits(v);
}

/* Reduce and compare with a hand-written answer. */
static void TU_PRINTF(9, 10)
    expect_at(const char *file, int line, const void *x, size_t n, gpureduce_type_t type,
              gpureduce_op_t op, unsigned flags, uint64_t wanted, const char *fmt, ...) {
  char why[256], what[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  snprintf(what, sizeof what, "%s %s%s n=%zu, %s", type_name(type), op_name(op),
           flags ? " accumulate-f64" : "", n, why);
  uint64_t got = 0;
  const gpureduce_status_t s = battery_reduce(x, n, type, op, flags, 0, 0, &got);
  tu_check_status(file, line, GPUREDUCE_SUCCESS, s, "%s: status", what);
  tu_check_bits(file, line, wanted, got, "%s", what);
}
#define expect(...) expect_at(__FILE__, __LINE__, __VA_ARGS__)

/* ---- data -------------------------------------------------------------------- */

static uint64_t gen_one(tu_rng *r, gpureduce_type_t type, enum bt_gen g) {
  const tu_type *t = TU_TYPE(type);
  const uint64_t m = tu_size_mask(t->size);
  if (!t->is_float) {
    switch (g) {
      case G_POOL: {
        const uint64_t pool[] = {tu_type_lowest(type), (tu_type_lowest(type) + 1) & m, 0, 1, 7,
                                 (tu_type_max(type) - 1) & m, tu_type_max(type)};
        return pool[tu_below(r, sizeof pool / sizeof pool[0])];
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
      return tu_pattern(type, pool[tu_below(r, 6)]);
    }
    case G_NEAR1:
      switch (type) {
        /* 1 + j 2^-10 and 1 + j 2^-7: symmetric around 1, so long
         * products neither overflow nor underflow */
        case GPUREDUCE_F16: return tu_pattern(type, 1.0 + ((double)tu_below(r, 17) - 8) / 1024);
        case GPUREDUCE_BF16: return tu_pattern(type, 1.0 + ((double)tu_below(r, 5) - 2) / 128);
        case GPUREDUCE_F32: return tu_f32_bits((float)(1.0 + (tu_unit(r) - 0.5) / 32));
        default: return tu_f64_bits(1.0 + (tu_unit(r) - 0.5) / 32);
      }
    default: break;
  }
  /* G_WIDE, G_INF */
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

void bt_fill(tu_rng *r, gpureduce_type_t type, enum bt_gen g, void *x, size_t n) {
  const unsigned size = TU_TYPE(type)->size;
  for (size_t i = 0; i < n; ++i) tu_store(x, i, size, gen_one(r, type, g));
}

/* n in {1, 2, 31, 32, 33, 255, 256, 257, 1025} and k tiles +-1 for
 * k = 1, 2, 3, 5 (a tile is 2048 V elements). */
static size_t test_sizes(gpureduce_type_t type, size_t *s) {
  static const size_t small[] = {1, 2, 31, 32, 33, 255, 256, 257, 1025};
  static const size_t tiles[] = {1, 2, 3, 5};
  size_t k = 0;
  for (size_t i = 0; i < sizeof small / sizeof small[0]; ++i) s[k++] = small[i];
  const size_t te = tu_tile_elems(type);
  for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; ++i) {
    s[k++] = tiles[i] * te - 1;
    s[k++] = tiles[i] * te;
    s[k++] = tiles[i] * te + 1;
  }
  return k;
}

static const gpureduce_type_t int_types[] = {GPUREDUCE_I8,  GPUREDUCE_U8,  GPUREDUCE_I32,
                                             GPUREDUCE_U32, GPUREDUCE_I64, GPUREDUCE_U64};
static const gpureduce_type_t float_types[] = {GPUREDUCE_F16, GPUREDUCE_BF16, GPUREDUCE_F32,
                                               GPUREDUCE_F64};
struct combo {
  gpureduce_type_t type;
  unsigned flags;
};
/* Every floating accumulation: f16, bf16, f32 in float; f32 and f64 in double. */
static const struct combo sum_combos[] = {{GPUREDUCE_F16, 0},
                                          {GPUREDUCE_BF16, 0},
                                          {GPUREDUCE_F32, 0},
                                          {GPUREDUCE_F32, GPUREDUCE_ACCUMULATE_F64},
                                          {GPUREDUCE_F64, 0}};
static const gpureduce_op_t sum_ops[] = {GPUREDUCE_SUM, GPUREDUCE_SUM_ABS, GPUREDUCE_SUM_SQUARES};
static const gpureduce_op_t minmax_ops[] = {GPUREDUCE_MIN, GPUREDUCE_MAX, GPUREDUCE_ARGMIN,
                                            GPUREDUCE_ARGMAX};

/* ---- tests: random data against the references ----------------------------- */

void bt_empty_inputs(void **state) {
  (void)state;
  unsigned char dummy[16] = {0};
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    const tu_type *t = TU_TYPE(type);
    for (int oi = 0; oi < GPUREDUCE_OP_COUNT; ++oi) {
      const gpureduce_op_t op = (gpureduce_op_t)oi;
      for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
        if (!tu_result_size(type, op, flags)) continue;
        for (int with_ptr = 0; with_ptr < 2; ++with_ptr) {
          const void *x = with_ptr ? dummy : NULL;
          uint64_t got = 0;
          const gpureduce_status_t s = battery_reduce(x, 0, type, op, flags, 0, 0, &got);
          const char *in = with_ptr ? "a valid input pointer" : "a NULL input";
          if (op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX) {
            /* battery_reduce checked the output is untouched */
            check_status(GPUREDUCE_ERROR_EMPTY_INPUT, s, "%s %s of n=0 with %s", t->name,
                         tu_op_names[op], in);
            continue;
          }
          check_status(GPUREDUCE_SUCCESS, s, "%s %s flags %u of n=0 with %s", t->name,
                       tu_op_names[op], flags, in);
          uint64_t wanted;
          if (op == GPUREDUCE_MIN) wanted = tu_type_max(type); /* +inf or the largest */
          else if (op == GPUREDUCE_MAX) wanted = tu_type_lowest(type); /* -inf or the lowest */
          else if (!t->is_float) wanted = op == GPUREDUCE_PROD ? 1 : 0;
          else wanted = rp(type, op, flags, op == GPUREDUCE_PROD ? 1.0 : 0.0); /* +0, 1 */
          check_bits(wanted, got, "%s %s flags %u of n=0 with %s is the documented empty result",
                     t->name, tu_op_names[op], flags, in);
        }
      }
    }
  }
}

void bt_integers_random(void **state) {
  (void)state;
  size_t sizes[32];
  for (size_t ti = 0; ti < COUNT(int_types); ++ti) {
    const gpureduce_type_t type = int_types[ti];
    const size_t ns = test_sizes(type, sizes);
    void *x = tu_alloc(sizes[ns - 1] * TU_TYPE(type)->size);
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "integers %s", TU_TYPE(type)->name);
    tu_rng_init(&r, label);
    for (size_t si = 0; si < ns; ++si) {
      const size_t n = sizes[si];
      bt_fill(&r, type, G_WIDE, x, n);
      for (int oi = 0; oi < GPUREDUCE_OP_COUNT; ++oi)
        if (oi != GPUREDUCE_PROD) check_one(x, n, type, (gpureduce_op_t)oi, 0, "random bits");
      bt_fill(&r, type, G_ODD, x, n);
      check_one(x, n, type, GPUREDUCE_PROD, 0, "random odd values");
      check_one(x, n, type, GPUREDUCE_SUM_SQUARES, 0, "random odd values");
      bt_fill(&r, type, G_POOL, x, n);
      check_one(x, n, type, GPUREDUCE_SUM, 0, "extremes and small values, many ties");
      check_one(x, n, type, GPUREDUCE_SUM_ABS, 0, "extremes and small values, many ties");
      for (size_t oi = 0; oi < COUNT(minmax_ops); ++oi)
        check_one(x, n, type, minmax_ops[oi], 0, "extremes and small values, many ties");
    }
    free(x);
  }
}

void bt_float_min_max_random(void **state) {
  (void)state;
  size_t sizes[32];
  for (size_t ti = 0; ti < COUNT(float_types); ++ti) {
    const gpureduce_type_t type = float_types[ti];
    const size_t ns = test_sizes(type, sizes);
    void *x = tu_alloc(sizes[ns - 1] * TU_TYPE(type)->size);
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "min max %s", TU_TYPE(type)->name);
    tu_rng_init(&r, label);
    static const enum bt_gen gens[] = {G_WIDE, G_INF, G_POOL};
    static const char *const gen_names[] = {"random finite values", "random values and infinities",
                                            "six values with ties and +-0"};
    for (size_t si = 0; si < ns; ++si)
      for (size_t gi = 0; gi < COUNT(gens); ++gi) {
        bt_fill(&r, type, gens[gi], x, sizes[si]);
        for (size_t oi = 0; oi < COUNT(minmax_ops); ++oi)
          check_one(x, sizes[si], type, minmax_ops[oi], 0, gen_names[gi]);
      }
    free(x);
  }
}

/* Every combination of sum_combos, every size of test_sizes, data from
 * generator `gen`, each of the `nops` operations checked.  `what` starts
 * the random stream's label. */
static void float_combos_random(const char *what, enum bt_gen gen, const gpureduce_op_t *ops,
                                size_t nops, const char *how) {
  size_t sizes[32];
  for (size_t ci = 0; ci < COUNT(sum_combos); ++ci) {
    const gpureduce_type_t type = sum_combos[ci].type;
    const size_t ns = test_sizes(type, sizes);
    void *x = tu_alloc(sizes[ns - 1] * TU_TYPE(type)->size);
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "%s %s %u", what, TU_TYPE(type)->name, sum_combos[ci].flags);
    tu_rng_init(&r, label);
    for (size_t si = 0; si < ns; ++si) {
      bt_fill(&r, type, gen, x, sizes[si]);
      for (size_t oi = 0; oi < nops; ++oi)
        check_one(x, sizes[si], type, ops[oi], sum_combos[ci].flags, how);
    }
    free(x);
  }
}

void bt_float_sums_random(void **state) {
  (void)state;
  float_combos_random("sums", G_WIDE, sum_ops, COUNT(sum_ops),
                      "random values, mixed signs, exponents over +-24 binades");
}

void bt_float_products_random(void **state) {
  (void)state;
  static const gpureduce_op_t prod_op[] = {GPUREDUCE_PROD};
  float_combos_random("products", G_NEAR1, prod_op, COUNT(prod_op),
                      "random values within 1/64 of 1");
}

/* ---- tests: special values ------------------------------------------------- */

/* Run every operation (and f32's double accumulation) on x and compare
 * with: NaN for MIN/MAX/sum-likes when nan_index < n (then ARG* give
 * nan_index).  Used by the NaN tests. */
static void expect_nan_everywhere(const void *x, size_t n, gpureduce_type_t type,
                                  size_t nan_index, const char *how) {
  for (int oi = 0; oi < GPUREDUCE_OP_COUNT; ++oi) {
    const gpureduce_op_t op = (gpureduce_op_t)oi;
    for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
      const size_t rs = tu_result_size(type, op, flags);
      if (!rs) continue;
      const uint64_t wanted = (op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX)
                                  ? (uint64_t)nan_index
                                  : tu_canonical_nan((unsigned)rs);
      expect(x, n, type, op, flags, wanted,
             "%s: %s", how,
             (op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX)
                 ? "the index of the first NaN"
                 : "the canonical quiet NaN of the result type");
    }
  }
}

void bt_nan_positions(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(float_types); ++ti) {
    const gpureduce_type_t type = float_types[ti];
    const unsigned es = TU_TYPE(type)->size, v = tu_chunk_elems(type);
    const size_t te = tu_tile_elems(type), n = 3 * te + 5;
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "nan positions %s", TU_TYPE(type)->name);
    tu_rng_init(&r, label);
    void *base = tu_alloc(n * es), *y = tu_alloc(n * es);
    bt_fill(&r, type, G_WIDE, base, n);
    /* chunk, warp (32 lanes), lane-wrap (256 chunks) and tile boundaries */
    const size_t pos[] = {0, 1, v - 1, v, 31, 32, 33, 255, 256, 257, 32 * v - 1, 32 * v,
                          256 * v - 1, 256 * v, 256 * v + 1, te - 1, te, te + 1, 2 * te - 1,
                          2 * te, n - 2, n - 1};
    for (size_t pi = 0; pi < COUNT(pos); ++pi) {
      const size_t p = pos[pi];
      memcpy(y, base, n * es);
      /* payloads and signs vary: quiet/signalling, positive/negative */
      const int neg = (int)(pi & 1), quiet = (int)((pi >> 1) & 1);
      const uint64_t nan1 = tu_nan(type, neg, quiet, tu_next(&r));
      tu_store(y, p, es, nan1);
      size_t q = n;
      if (p + 1 < n) {
        q = p + 1 + tu_below(&r, n - p - 1);
        tu_store(y, q, es, tu_nan(type, !neg, !quiet, tu_next(&r)));
      }
      char how[160];
      snprintf(how, sizeof how, "NaN 0x%" PRIx64 " at index %zu and another NaN at %zu", nan1, p,
               q);
      expect_nan_everywhere(y, n, type, p, how);
    }
    free(base);
    free(y);
  }
}

void bt_all_nan(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(float_types); ++ti) {
    const gpureduce_type_t type = float_types[ti];
    const unsigned es = TU_TYPE(type)->size;
    const size_t sizes[] = {1, 100, tu_tile_elems(type) + 3};
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "all nan %s", TU_TYPE(type)->name);
    tu_rng_init(&r, label);
    void *y = tu_alloc(sizes[2] * es);
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      for (size_t i = 0; i < sizes[si]; ++i) {
        const uint64_t b = tu_next(&r);
        tu_store(y, i, es, tu_nan(type, (int)(b & 1), (int)((b >> 1) & 1), b >> 2));
      }
      expect_nan_everywhere(y, sizes[si], type, 0, "every element a NaN of random payload");
    }
    free(y);
  }
}

/* Fill n elements with the pattern of v. */
static void fill_value(gpureduce_type_t type, void *x, size_t n, double v) {
  const uint64_t b = tu_pattern(type, v);
  for (size_t i = 0; i < n; ++i) tu_store(x, i, TU_TYPE(type)->size, b);
}

void bt_signed_zeros(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(float_types); ++ti) {
    const gpureduce_type_t type = float_types[ti];
    const unsigned es = TU_TYPE(type)->size;
    const size_t te = tu_tile_elems(type);
    const size_t big = 2 * te + 3;
    void *x = tu_alloc(big * es);
    const uint64_t pz = tu_pattern(type, 0.0), nz = tu_pattern(type, -0.0);

    /* all -0 */
    const size_t sizes[] = {1, 2, 7, te + 1, big};
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      const size_t n = sizes[si];
      fill_value(type, x, n, -0.0);
      for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
        if (!tu_result_size(type, GPUREDUCE_SUM, flags)) continue;
        expect(x, n, type, GPUREDUCE_SUM, flags, rp(type, GPUREDUCE_SUM, flags, -0.0),
               "all elements -0: the sum is -0");
        expect(x, n, type, GPUREDUCE_SUM_ABS, flags, rp(type, GPUREDUCE_SUM_ABS, flags, 0.0),
               "all elements -0: the sum of |x| is +0");
        expect(x, n, type, GPUREDUCE_SUM_SQUARES, flags,
               rp(type, GPUREDUCE_SUM_SQUARES, flags, 0.0),
               "all elements -0: the sum of squares is +0");
        expect(x, n, type, GPUREDUCE_PROD, flags,
               rp(type, GPUREDUCE_PROD, flags, n % 2 ? -0.0 : 0.0),
               "all elements -0: the product is -0 for odd n, +0 for even n");
      }
      expect(x, n, type, GPUREDUCE_MIN, 0, nz, "all elements -0: min is -0");
      expect(x, n, type, GPUREDUCE_MAX, 0, nz, "all elements -0: max is -0");
      expect(x, n, type, GPUREDUCE_ARGMIN, 0, 0, "all elements -0: argmin is 0");
      expect(x, n, type, GPUREDUCE_ARGMAX, 0, 0, "all elements -0: argmax is 0");
    }

    /* two elements, both orders */
    for (int order = 0; order < 2; ++order) {
      tu_store(x, 0, es, order ? pz : nz);
      tu_store(x, 1, es, order ? nz : pz);
      const char *how = order ? "{+0, -0}" : "{-0, +0}";
      expect(x, 2, type, GPUREDUCE_MIN, 0, nz, "%s: min is -0", how);
      expect(x, 2, type, GPUREDUCE_MAX, 0, pz, "%s: max is +0", how);
      expect(x, 2, type, GPUREDUCE_ARGMIN, 0, 0, "%s: argmin is 0 (a tie)", how);
      expect(x, 2, type, GPUREDUCE_ARGMAX, 0, 0, "%s: argmax is 0 (a tie)", how);
      expect(x, 2, type, GPUREDUCE_SUM, 0, rp(type, GPUREDUCE_SUM, 0, 0.0), "%s: sum is +0",
             how);
    }

    /* one odd zero out in a long array, at either end and across tiles */
    const size_t n = big;
    const size_t spots[] = {0, te - 1, te, n - 1};
    for (size_t k = 0; k < COUNT(spots); ++k) {
      for (int lone_neg = 0; lone_neg < 2; ++lone_neg) {
        for (size_t i = 0; i < n; ++i) tu_store(x, i, es, lone_neg ? pz : nz);
        tu_store(x, spots[k], es, lone_neg ? nz : pz);
        const char *how = lone_neg ? "all +0 but one -0" : "all -0 but one +0";
        expect(x, n, type, GPUREDUCE_MIN, 0, nz, "%s at %zu: min is -0", how, spots[k]);
        expect(x, n, type, GPUREDUCE_MAX, 0, pz, "%s at %zu: max is +0", how, spots[k]);
        expect(x, n, type, GPUREDUCE_ARGMIN, 0, 0, "%s at %zu: argmin is 0 (ties)", how,
               spots[k]);
        expect(x, n, type, GPUREDUCE_ARGMAX, 0, 0, "%s at %zu: argmax is 0 (ties)", how,
               spots[k]);
        expect(x, n, type, GPUREDUCE_SUM, 0, rp(type, GPUREDUCE_SUM, 0, 0.0),
               "%s at %zu: sum is +0", how, spots[k]);
      }
    }
    free(x);
  }
}

void bt_infinities(void **state) {
  (void)state;
  for (size_t ti = 0; ti < COUNT(float_types); ++ti) {
    const gpureduce_type_t type = float_types[ti];
    const unsigned es = TU_TYPE(type)->size;
    const size_t te = tu_tile_elems(type);
    const size_t sizes[] = {1, 2, 33, te + 1};
    void *x = tu_alloc((2 * te + 8) * es);
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      const size_t n = sizes[si];
      for (int sign = 0; sign < 2; ++sign) {
        const double inf = sign ? -INFINITY : INFINITY;
        fill_value(type, x, n, inf);
        const char *how = sign ? "all -inf" : "all +inf";
        expect(x, n, type, GPUREDUCE_MIN, 0, tu_pattern(type, inf), "%s: min", how);
        expect(x, n, type, GPUREDUCE_MAX, 0, tu_pattern(type, inf), "%s: max", how);
        expect(x, n, type, GPUREDUCE_ARGMIN, 0, 0, "%s: argmin is 0 (all tie)", how);
        expect(x, n, type, GPUREDUCE_ARGMAX, 0, 0, "%s: argmax is 0 (all tie)", how);
        for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
          if (!tu_result_size(type, GPUREDUCE_SUM, flags)) continue;
          expect(x, n, type, GPUREDUCE_SUM, flags, rp(type, GPUREDUCE_SUM, flags, inf),
                 "%s: sum is %s", how, sign ? "-inf" : "+inf");
          expect(x, n, type, GPUREDUCE_SUM_ABS, flags,
                 rp(type, GPUREDUCE_SUM_ABS, flags, INFINITY), "%s: sum of |x| is +inf", how);
          expect(x, n, type, GPUREDUCE_SUM_SQUARES, flags,
                 rp(type, GPUREDUCE_SUM_SQUARES, flags, INFINITY), "%s: sum of squares is +inf",
                 how);
          expect(x, n, type, GPUREDUCE_PROD, flags,
                 rp(type, GPUREDUCE_PROD, flags, (sign && n % 2) ? -INFINITY : INFINITY),
                 "%s: product", how);
        }
      }
    }

    /* +inf and -inf in one sum: NaN; in different tiles too */
    const size_t n = 2 * te + 8;
    fill_value(type, x, n, 1.0);
    const size_t pairs[][2] = {{0, 1}, {3, 2}, {5, te + 1}, {n - 1, 0}, {te, 2 * te}};
    for (size_t k = 0; k < COUNT(pairs); ++k) {
      fill_value(type, x, n, 1.0);
      tu_store(x, pairs[k][0], es, tu_pos_inf(type));
      tu_store(x, pairs[k][1], es, tu_neg_inf(type));
      for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
        if (!tu_result_size(type, GPUREDUCE_SUM, flags)) continue;
        expect(x, n, type, GPUREDUCE_SUM, flags, rp(type, GPUREDUCE_SUM, flags, NAN),
               "+inf at %zu and -inf at %zu among ones: the sum is NaN", pairs[k][0],
               pairs[k][1]);
        expect(x, n, type, GPUREDUCE_SUM_ABS, flags, rp(type, GPUREDUCE_SUM_ABS, flags, INFINITY),
               "+inf at %zu and -inf at %zu among ones: the sum of |x| is +inf", pairs[k][0],
               pairs[k][1]);
      }
      expect(x, n, type, GPUREDUCE_ARGMIN, 0, pairs[k][1],
             "+inf at %zu and -inf at %zu among ones: argmin is the -inf", pairs[k][0],
             pairs[k][1]);
      expect(x, n, type, GPUREDUCE_ARGMAX, 0, pairs[k][0],
             "+inf at %zu and -inf at %zu among ones: argmax is the +inf", pairs[k][0],
             pairs[k][1]);
    }
    /* 0 * inf in a product: NaN */
    fill_value(type, x, 40, 1.0);
    tu_store(x, 3, es, tu_pattern(type, 0.0));
    tu_store(x, 37, es, tu_pos_inf(type));
    for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags)
      if (tu_result_size(type, GPUREDUCE_PROD, flags))
        expect(x, 40, type, GPUREDUCE_PROD, flags, rp(type, GPUREDUCE_PROD, flags, NAN),
               "0 at 3 and +inf at 37 among ones: the product is NaN");
    free(x);
  }

  /* Accumulation width: f16/bf16 sum in float, f32 overflows float. */
  uint16_t h[2] = {0x7bff, 0x7bff}; /* 65504, the largest f16 */
  expect(h, 2, GPUREDUCE_F16, GPUREDUCE_SUM, 0, tu_f32_bits(131008.0f),
         "65504 + 65504 accumulates in float: 131008, not inf");
  expect(h, 2, GPUREDUCE_F16, GPUREDUCE_MAX, 0, 0x7bff, "max of {65504, 65504}");
  uint16_t b[2] = {0x7f7f, 0x7f7f}; /* the largest bf16 */
  expect(b, 2, GPUREDUCE_BF16, GPUREDUCE_SUM, 0, 0x7f800000u,
         "largest bf16 twice overflows the float accumulator to +inf");
  float f[2] = {3.4028234663852886e38f, 3.4028234663852886e38f};
  expect(f, 2, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 0x7f800000u, "FLT_MAX + FLT_MAX is +inf");
  expect(f, 2, GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64,
         tu_f64_bits(2.0 * 3.4028234663852886e38), "FLT_MAX + FLT_MAX in double is finite");
}

void bt_ties(void **state) {
  (void)state;
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    const tu_type *t = TU_TYPE(type);
    const unsigned es = t->size, v = tu_chunk_elems(type);
    const size_t te = tu_tile_elems(type), n = 3 * te + 7;
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "ties %s", t->name);
    tu_rng_init(&r, label);
    void *base = tu_alloc(n * es), *x = tu_alloc(n * es);
    /* values strictly between `low` and `high` */
    for (size_t i = 0; i < n; ++i)
      tu_store(base, i, es,
               t->is_float ? tu_pattern(type, 1.0 + (double)tu_below(&r, 128) / 128)
                           : 10 + tu_below(&r, 90));
    const uint64_t low = t->is_float ? tu_pattern(type, 0.5) : 3;
    const uint64_t high = t->is_float ? tu_pattern(type, 4.0) : 120;
    const size_t dist[] = {1, 31, 32, 33, v, 256, 256 * v, te - 1, te, te + 1, 2 * te};
    const size_t first[] = {0, 31, te - 1};
    for (size_t di = 0; di < COUNT(dist); ++di)
      for (size_t fi = 0; fi < COUNT(first); ++fi) {
        const size_t p = first[fi], q = p + dist[di];
        if (q >= n) continue;
        memcpy(x, base, n * es);
        tu_store(x, p, es, low);
        tu_store(x, q, es, low);
        expect(x, n, type, GPUREDUCE_ARGMIN, 0, p,
               "the smallest value at %zu and %zu (%zu apart): the lowest index", p, q, dist[di]);
        expect(x, n, type, GPUREDUCE_MIN, 0, low, "the smallest value at %zu and %zu", p, q);
        memcpy(x, base, n * es);
        tu_store(x, p, es, high);
        tu_store(x, q, es, high);
        expect(x, n, type, GPUREDUCE_ARGMAX, 0, p,
               "the largest value at %zu and %zu (%zu apart): the lowest index", p, q, dist[di]);
        expect(x, n, type, GPUREDUCE_MAX, 0, high, "the largest value at %zu and %zu", p, q);
      }
    if (t->is_float) {
      /* -0 and +0 tie for ARGMIN/ARGMAX, while MIN/MAX tell them apart */
      const uint64_t pz = tu_pattern(type, 0.0), nz = tu_pattern(type, -0.0);
      const size_t zd[] = {1, 32, 256 * v, te};
      for (size_t di = 0; di < COUNT(zd); ++di)
        for (int order = 0; order < 2; ++order) {
          const size_t p = 5, q = 5 + zd[di];
          memcpy(x, base, n * es); /* positive values */
          tu_store(x, p, es, order ? nz : pz);
          tu_store(x, q, es, order ? pz : nz);
          expect(x, n, type, GPUREDUCE_ARGMIN, 0, p,
                 "%s at %zu and %s at %zu among positives: argmin is the first (a tie)",
                 order ? "-0" : "+0", p, order ? "+0" : "-0", q);
          expect(x, n, type, GPUREDUCE_MIN, 0, nz, "+0 and -0 among positives: min is -0");
          for (size_t i = 0; i < n; ++i) /* negative values */
            tu_store(x, i, es, tu_pattern(type, -tu_value(type, tu_load(base, i, es))));
          tu_store(x, p, es, order ? nz : pz);
          tu_store(x, q, es, order ? pz : nz);
          expect(x, n, type, GPUREDUCE_ARGMAX, 0, p,
                 "%s at %zu and %s at %zu among negatives: argmax is the first (a tie)",
                 order ? "-0" : "+0", p, order ? "+0" : "-0", q);
          expect(x, n, type, GPUREDUCE_MAX, 0, pz, "+0 and -0 among negatives: max is +0");
        }
    }
    free(base);
    free(x);
  }
}

void bt_half_subnormals(void **state) {
  (void)state;
  tu_rng r;
  tu_rng_init(&r, "half subnormals");
  enum { N = 1000, NSQ = 32 };
  uint16_t x[N];
  /* f16 subnormals are m * 2^-24, |m| <= 1023: sums of 1000 of them are
   * integers times 2^-24 below 2^24 * 2^-24, exact in float. */
  int64_t msum = 0, mabs = 0;
  for (int i = 0; i < N; ++i) {
    const uint16_t m = (uint16_t)(1 + tu_below(&r, 1023));
    const int neg = (int)tu_below(&r, 2);
    x[i] = (uint16_t)((neg ? 0x8000u : 0u) | m);
    msum += neg ? -(int64_t)m : (int64_t)m;
    mabs += m;
  }
  expect(x, N, GPUREDUCE_F16, GPUREDUCE_SUM, 0, tu_f32_bits((float)ldexp((double)msum, -24)),
         "1000 random f16 subnormals: the exact sum %" PRId64 " * 2^-24", msum);
  expect(x, N, GPUREDUCE_F16, GPUREDUCE_SUM_ABS, 0, tu_f32_bits((float)ldexp((double)mabs, -24)),
         "1000 random f16 subnormals: the exact sum of |x|");
  for (size_t oi = 0; oi < COUNT(minmax_ops); ++oi)
    expect(x, N, GPUREDUCE_F16, minmax_ops[oi], 0, want_for(x, N, GPUREDUCE_F16, minmax_ops[oi], 0).bits,
           "1000 random f16 subnormals: the plain-loop answer");
  /* squares (m 2^-24)^2 = m^2 2^-48 with m < 512: 32 of them sum exactly */
  int64_t sq = 0;
  for (int i = 0; i < NSQ; ++i) {
    const uint16_t m = (uint16_t)(1 + tu_below(&r, 511));
    x[i] = (uint16_t)((tu_below(&r, 2) ? 0x8000u : 0u) | m);
    sq += (int64_t)m * m;
  }
  expect(x, NSQ, GPUREDUCE_F16, GPUREDUCE_SUM_SQUARES, 0,
         tu_f32_bits((float)ldexp((double)sq, -48)),
         "32 f16 subnormals below 512 * 2^-24: the exact sum of squares");

  /* bf16 subnormals are m * 2^-133, |m| <= 127: float holds their sums
   * exactly; their squares (below 2^-252) round to +0 in float. */
  msum = mabs = 0;
  for (int i = 0; i < N; ++i) {
    const uint16_t m = (uint16_t)(1 + tu_below(&r, 127));
    const int neg = (int)tu_below(&r, 2);
    x[i] = (uint16_t)((neg ? 0x8000u : 0u) | m);
    msum += neg ? -(int64_t)m : (int64_t)m;
    mabs += m;
  }
  expect(x, N, GPUREDUCE_BF16, GPUREDUCE_SUM, 0, tu_f32_bits((float)ldexp((double)msum, -133)),
         "1000 random bf16 subnormals: the exact sum %" PRId64 " * 2^-133", msum);
  expect(x, N, GPUREDUCE_BF16, GPUREDUCE_SUM_ABS, 0,
         tu_f32_bits((float)ldexp((double)mabs, -133)),
         "1000 random bf16 subnormals: the exact sum of |x|");
  expect(x, N, GPUREDUCE_BF16, GPUREDUCE_SUM_SQUARES, 0, 0x00000000u,
         "bf16 subnormals squared underflow: the sum of squares is +0");
  for (size_t oi = 0; oi < COUNT(minmax_ops); ++oi)
    expect(x, N, GPUREDUCE_BF16, minmax_ops[oi], 0,
           want_for(x, N, GPUREDUCE_BF16, minmax_ops[oi], 0).bits,
           "1000 random bf16 subnormals: the plain-loop answer");

  /* a subnormal as the answer of MIN/MAX among normals (both formats) */
  for (int fmt = 0; fmt < 2; ++fmt) {
    const gpureduce_type_t type = fmt ? GPUREDUCE_BF16 : GPUREDUCE_F16;
    const uint16_t sub = fmt ? 0x0005 : 0x0203; /* smallish subnormal patterns */
    for (int i = 0; i < N; ++i) x[i] = (uint16_t)tu_pattern(type, 1.0 + (double)(i % 64) / 64);
    x[777] = sub;
    expect(x, N, type, GPUREDUCE_MIN, 0, sub, "subnormal 0x%04x among values in [1, 2): min", sub);
    expect(x, N, type, GPUREDUCE_ARGMIN, 0, 777, "subnormal among values in [1, 2): argmin");
    for (int i = 0; i < N; ++i) x[i] = (uint16_t)(x[i] | 0x8000u);
    expect(x, N, type, GPUREDUCE_MAX, 0, sub | 0x8000u,
           "negative subnormal 0x%04x among values in (-2, -1]: max", sub | 0x8000u);
    expect(x, N, type, GPUREDUCE_ARGMAX, 0, 777, "negative subnormal among negatives: argmax");
  }

  /* random f16 over the whole finite range, subnormals included, across tiles */
  const size_t n = 2 * tu_tile_elems(GPUREDUCE_F16) + 17;
  uint16_t *y = tu_alloc(n * sizeof *y);
  bt_fill(&r, GPUREDUCE_F16, G_WIDE, y, n);
  for (int oi = 0; oi < GPUREDUCE_OP_COUNT; ++oi)
    if (oi != GPUREDUCE_PROD)
      check_one(y, n, GPUREDUCE_F16, (gpureduce_op_t)oi, 0, "random f16 with subnormals");
  free(y);
}

/* ---- tests: pointer offsets ---------------------------------------------------- */

/* An element pattern that would change the answer of op if read. */
static uint64_t poison_for(gpureduce_type_t type, gpureduce_op_t op) {
  const tu_type *t = TU_TYPE(type);
  switch (op) {
    case GPUREDUCE_MIN:
    case GPUREDUCE_ARGMIN: return t->is_float ? tu_neg_inf(type) : tu_type_lowest(type);
    case GPUREDUCE_MAX:
    case GPUREDUCE_ARGMAX: return t->is_float ? tu_pos_inf(type) : tu_type_max(type);
    default:
      return t->is_float ? tu_nan(type, 0, 1, 0x5a5a5a5a5a5a5a5aull)
                         : (0x5a5a5a5a5a5a5a5aull & tu_size_mask(t->size));
  }
}

void bt_offsets_and_poison(void **state) {
  (void)state;
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    const tu_type *t = TU_TYPE(type);
    const size_t te = tu_tile_elems(type);
    /* 4 tiles + 11: interior tiles exist at every misalignment */
    const size_t sizes[] = {1, 5, 100, te + 7, 4 * te + 11};
    tu_rng r;
    char label[64];
    snprintf(label, sizeof label, "offsets %s", t->name);
    tu_rng_init(&r, label);
    void *x = tu_alloc(sizes[4] * t->size), *xp = tu_alloc(sizes[4] * t->size);
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      const size_t n = sizes[si];
      /* min/max data avoids the extremes the poison uses */
      bt_fill(&r, type, t->is_float ? G_WIDE : G_POOL, x, n);
      if (!t->is_float)
        for (size_t i = 0; i < n; ++i)
          tu_store(x, i, t->size, (tu_load(x, i, t->size) == tu_type_lowest(type) ||
                                   tu_load(x, i, t->size) == tu_type_max(type))
                                      ? 7
                                      : tu_load(x, i, t->size));
      bt_fill(&r, type, t->is_float ? G_NEAR1 : G_ODD, xp, n);
      for (int oi = 0; oi < GPUREDUCE_OP_COUNT; ++oi) {
        const gpureduce_op_t op = (gpureduce_op_t)oi;
        const void *data = op == GPUREDUCE_PROD ? xp : x;
        for (unsigned flags = 0; flags <= GPUREDUCE_ACCUMULATE_F64; ++flags) {
          if (!tu_result_size(type, op, flags)) continue;
          const struct ref_answer w = want_for(data, n, type, op, flags);
          const uint64_t poison = poison_for(type, op);
          uint64_t at0 = 0;
          for (size_t off = 0; off < 16; ++off) {
            char what[200];
            snprintf(what, sizeof what,
                     "%s %s%s n=%zu at %zu elements past an aligned address, poison 0x%" PRIx64
                     " around",
                     t->name, tu_op_names[op], flags ? " accumulate-f64" : "", n, off, poison);
            uint64_t got = 0;
            const gpureduce_status_t s = battery_reduce(data, n, type, op, flags, off, poison, &got);
            check_status(GPUREDUCE_SUCCESS, s, "%s: status", what);
            if (off == 0) {
              check_want(&w, got, what);
              at0 = got;
            } else {
              check_bits(at0, got, "%s: the same bits as at offset 0", what);
            }
          }
        }
      }
    }
    free(x);
    free(xp);
  }
}

/* ---- tests: the order ------------------------------------------------------------ */

void bt_order_example(void **state) {
  (void)state;
  /* doc/ORDER.md's example */
  const float ex[8] = {1e8f, 1, -1e8f, 1, 0.5f, 0.25f, 0.125f, 0.0625f};
  expect(ex, 8, GPUREDUCE_F32, GPUREDUCE_SUM, 0, tu_f32_bits(1.9375f),
         "the example of doc/ORDER.md gives 1.9375");

  /* Lanes: chunk c goes to lane c mod 256; the lane tree pairs l with
   * l + s for s = 128 .. 1.  x[0] = 2^24, chunk 256 (lane 0 again) = 1,
   * chunks 1 and 3 (lanes 1 and 3) = 1:
   *   lane 0 = 2^24 + 1 = 2^24 (ties to even), lane 1 = 1, lane 3 = 1;
   *   s = 2: lane 1 = 2;  s = 1: lane 0 = 2^24 + 2 = 16777218.
   * A left-to-right loop gives 16777216. */
  static float y[1025 + 3];
  memset(y, 0, sizeof y);
  y[0] = 16777216.0f;
  y[4] = 1; /* chunk 1 */
  y[12] = 1; /* chunk 3 */
  y[1024] = 1; /* chunk 256 */
  expect(y, 1025, GPUREDUCE_F32, GPUREDUCE_SUM, 0, tu_f32_bits(16777218.0f),
         "2^24 and three ones in lanes 0, 1, 3: the lane tree gives 2^24 + 2");

  /* The tile tree over T = 5 tiles with values 2^24, 1, 1, 1, 1:
   * tree(0..3) = (2^24 + 1) + (1 + 1) = 2^24 + 2; then + tile 4:
   * 2^24 + 3 rounds to even, 16777220.  Left to right: 16777216. */
  const size_t te = tu_tile_elems(GPUREDUCE_F32);
  float *z = tu_alloc((4 * te + 1) * sizeof *z);
  memset(z, 0, (4 * te + 1) * sizeof *z);
  z[0] = 16777216.0f;
  for (int t = 1; t <= 4; ++t) z[(size_t)t * te] = 1;
  expect(z, 4 * te + 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0, tu_f32_bits(16777220.0f),
         "tiles 2^24, 1, 1, 1, 1: the tile tree gives 2^24 + 4");
  /* T = 3, tiles 2^24, 1, 1: (2^24 + 1) + 1 = 2^24, not 2^24 + (1 + 1). */
  expect(z, 2 * te + 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0, tu_f32_bits(16777216.0f),
         "tiles 2^24, 1, 1: the tile tree gives (2^24 + 1) + 1 = 2^24");
  free(z);
}

void bt_order_tiles(void **state) {
  (void)state;
  static const size_t tile_counts[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17};
  tu_rng r;
  tu_rng_init(&r, "order tiles");
  for (size_t ci = 0; ci < COUNT(sum_combos); ++ci) {
    const gpureduce_type_t type = sum_combos[ci].type;
    const unsigned flags = sum_combos[ci].flags, es = TU_TYPE(type)->size;
    const size_t te = tu_tile_elems(type);
    void *x = tu_alloc(17 * te * es);
    for (size_t k = 0; k < COUNT(tile_counts); ++k) {
      const size_t tiles = tile_counts[k];
      const size_t n = (tiles - 1) * te + 1 + tu_below(&r, te); /* exactly `tiles` tiles */
      bt_fill(&r, type, G_WIDE, x, n);
      for (int oi = 0; oi < GPUREDUCE_OP_COUNT; ++oi) {
        const gpureduce_op_t op = (gpureduce_op_t)oi;
        if (!tu_is_sum_like(op)) continue;
        if (op == GPUREDUCE_PROD) {
          bt_fill(&r, type, G_NEAR1, x, n);
          check_one(x, n, type, op, flags, "near 1, the order of doc/ORDER.md");
          bt_fill(&r, type, G_WIDE, x, n);
        } else {
          check_one(x, n, type, op, flags, "wide random values, the order of doc/ORDER.md");
        }
      }
    }
    free(x);
  }
}

/* ---- tests: errors on this backend ----------------------------------------------- */

void bt_errors_leave_output(void **state) {
  (void)state;
  ensure_buffers(4096);
  unsigned char ob[OUT_BYTES];
  /* a valid input in backend memory: 100 floats 1..100 */
  float v[100];
  for (int i = 0; i < 100; ++i) v[i] = (float)(i + 1);
  B->put(in_mem, v, sizeof v);
  struct {
    const char *what;
    const void *in;
    size_t n;
    gpureduce_type_t type;
    gpureduce_op_t op;
    unsigned flags;
    gpureduce_status_t wanted;
  } cases[] = {
      {"NULL input with n = 100", NULL, 100, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"unknown op 8", in_mem, 100, GPUREDUCE_F32, (gpureduce_op_t)8, 0,
       GPUREDUCE_ERROR_UNSUPPORTED},
      {"unknown type 10", in_mem, 100, (gpureduce_type_t)10, GPUREDUCE_SUM, 0,
       GPUREDUCE_ERROR_UNSUPPORTED},
      {"unknown flag 0x2", in_mem, 100, GPUREDUCE_F32, GPUREDUCE_SUM, 2,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"accumulate-f64 on f32 min", in_mem, 100, GPUREDUCE_F32, GPUREDUCE_MIN,
       GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_ERROR_UNSUPPORTED},
      {"argmax of n = 0", in_mem, 0, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0,
       GPUREDUCE_ERROR_EMPTY_INPUT},
      {"f32 input at an odd address", in_mem + 1, 10, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"f64 input 4 bytes past an aligned address", in_mem + 4, 10, GPUREDUCE_F64,
       GPUREDUCE_SUM, 0, GPUREDUCE_ERROR_INVALID_ARGUMENT},
  };
  for (size_t k = 0; k < COUNT(cases); ++k) {
    memset(ob, OUT_FILL, sizeof ob);
    B->put(out_mem, ob, sizeof ob);
    const gpureduce_status_t s = gpureduce_reduce(cases[k].in, out_mem, cases[k].n, cases[k].type,
                                                  cases[k].op, cases[k].flags, H);
    B->get(ob, out_mem, sizeof ob);
    check_status(cases[k].wanted, s, "%s on the %s backend", cases[k].what, B->name);
    check_bytes(ob, OUT_FILL, sizeof ob, "%s on the %s backend: the output is untouched",
                cases[k].what, B->name);
    const char *m = gpureduce_last_message(H);
    check_true(m && *m, "%s on the %s backend: gpureduce_last_message says why", cases[k].what,
               B->name);
  }
  /* misaligned output */
  memset(ob, OUT_FILL, sizeof ob);
  B->put(out_mem, ob, sizeof ob);
  gpureduce_status_t s =
      gpureduce_reduce(in_mem, out_mem + 4, 100, GPUREDUCE_F32, GPUREDUCE_ARGMIN, 0, H);
  B->get(ob, out_mem, sizeof ob);
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, s,
               "argmin's 8-byte result at a 4-byte aligned address");
  check_bytes(ob, OUT_FILL, sizeof ob, "misaligned output: the output buffer is untouched");
  /* the handle still works */
  B->put(in_mem, v, sizeof v);
  s = gpureduce_reduce(in_mem, out_mem, 100, GPUREDUCE_F32, GPUREDUCE_SUM, 0, H);
  B->get(ob, out_mem, sizeof ob);
  check_status(GPUREDUCE_SUCCESS, s, "after the errors, the sum of 1..100 succeeds");
  check_bits(tu_f32_bits(5050.0f), tu_load(ob, 0, 4), "after the errors, the sum of 1..100 is 5050");
}
