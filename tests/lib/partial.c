/*
 * partial.c - the tests of the partial-result API both backends must pass
 * (partial.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "partial.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "segments.h" /* sg_empty_result: the documented empty results */

/* ---- the backend and its buffers ------------------------------------------ */

static const struct tu_backend *B;
static gpureduce_handle_t HH; /* battery_host_handle(): NULL on the host backend */

/* backend memory: the parts' buffers, one part again, the result; host
 * memory: the parts' image, the partials (the backend's and the host
 * handle's), the concatenations, one partial again, the test data */
static struct bt_room in_mem, again_mem, out_mem;
static struct bt_room image = {.host = 1}, made = {.host = 1}, host_made = {.host = 1},
                      sorted = {.host = 1}, cat = {.host = 1}, mixed = {.host = 1},
                      again = {.host = 1}, data = {.host = 1};

#define PAD 256       /* poison bytes after each part's elements */
#define CANARY 64     /* bytes after each partial and after the result */
#define PFILL 0xA5    /* a partial's buffer before the call */
#define PFILL2 0x00   /* the buffer of a part reduced again */
#define OUT_FILL 0xC3 /* the result's buffer before the call */

void partial_use(const struct tu_backend *backend) {
  B = backend;
  battery_use(backend);
}

int partial_setup(void **state) {
  if (battery_setup(state)) return -1;
  HH = battery_host_handle();
  return 0;
}

int partial_teardown(void **state) {
  struct bt_room *rooms[] = {&in_mem, &again_mem, &out_mem, &image, &made, &host_made,
                             &sorted, &cat, &mixed, &again, &data};
  for (size_t k = 0; k < COUNT(rooms); ++k) bt_room_free(rooms[k]);
  HH = NULL; /* battery_teardown destroys it */
  return battery_teardown(state);
}

/* The host handle the whole arrays are reduced on: the battery's own on
 * the host backend. */
static gpureduce_handle_t host_handle(void) { return HH ? HH : battery_handle(); }

static const char *kind(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  return bt_kind_name(type, op, flags);
}

/* The same len bytes at want and seen; else the first that differs. */
static void TU_PRINTF(6, 7) same_bytes_at(const char *file, int line, const void *want,
                                          const void *seen, size_t len, const char *fmt, ...) {
  const unsigned char *w = want, *s = seen;
  size_t i = 0;
  while (i < len && w[i] == s[i]) ++i;
  char what[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (i == len) {
    tu_check_true(file, line, 1, "%s", what);
    return;
  }
  tu_check_bits(file, line, w[i], s[i], "%s (byte %zu of %zu differs)", what, i, len);
}
#define check_same_bytes(w, s, len, ...) \
  same_bytes_at(__FILE__, __LINE__, (w), (s), (len), __VA_ARGS__)

/* A call that must fail did: status `wanted`, the len bytes at buf still
 * `fill`, and (for a handle) a message saying why. */
static void TU_PRINTF(9, 10)
    failed_at(const char *file, int line, gpureduce_handle_t h, gpureduce_status_t wanted,
              gpureduce_status_t seen, const void *buf, unsigned char fill, size_t len,
              const char *fmt, ...) {
  char what[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  tu_check_status(file, line, wanted, seen, "%s", what);
  tu_check_bytes(file, line, buf, fill, len, "%s: the %zu bytes of output are untouched", what,
                 len);
  if (h) {
    const char *m = gpureduce_last_message(h);
    tu_check_true(file, line, m != NULL && *m != '\0', "%s: gpureduce_last_message says why",
                  what);
  }
}
#define expect_failure(h, w, s, buf, fill, len, ...) \
  failed_at(__FILE__, __LINE__, (h), (w), (s), (buf), (fill), (len), __VA_ARGS__)

/* ---- kinds, splits, sizes -------------------------------------------------- */

static const unsigned kind_flags[3] = {0, GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_WITH_VALUE};

int pt_next_kind(int *k, gpureduce_type_t *type, gpureduce_op_t *op, unsigned *flags) {
  for (; *k < GPUREDUCE_TYPE_COUNT * GPUREDUCE_OP_COUNT * 3; ++*k) {
    *type = (gpureduce_type_t)(*k / (GPUREDUCE_OP_COUNT * 3));
    *op = (gpureduce_op_t)(*k / 3 % GPUREDUCE_OP_COUNT);
    *flags = kind_flags[*k % 3];
    if (gpureduce_result_size(*type, *op, *flags)) {
      ++*k;
      return 1;
    }
  }
  return 0;
}

/* The end of tile t of an array of n elements (te per tile), without
 * overflowing near 2^64. */
static uint64_t tile_end(uint64_t t, uint64_t te, uint64_t n) {
  const uint64_t start = t * te;
  return n - start < te ? n : start + te;
}

uint64_t pt_raw_elements(uint64_t n_local, uint64_t offset, uint64_t n_global,
                         gpureduce_type_t type) {
  if (n_local == 0) return 0;
  const uint64_t te = tu_tile_elems(type), a = offset, b = offset + n_local;
  const uint64_t ta = a / te, tb = (b - 1) / te;
  if (ta == tb) return a == ta * te && b == tile_end(tb, te, n_global) ? 0 : n_local;
  uint64_t raw = 0;
  if (a != ta * te) raw += tile_end(ta, te, n_global) - a;
  if (b != tile_end(tb, te, n_global)) raw += b - tb * te;
  return raw;
}

static int cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Tile boundaries (in tiles) to cut an array of T >= 2 tiles at: all of
 * them up to 8, else 8 near the start, the middle and the end. */
static size_t boundaries(uint64_t T, uint64_t *b) {
  size_t k = 0;
  if (T - 1 <= 8) {
    for (uint64_t t = 1; t < T; ++t) b[k++] = t;
    return k;
  }
  const uint64_t pick[] = {1, 2, 3, T / 2, T / 2 + 1, T - 3, T - 2, T - 1};
  for (size_t i = 0; i < COUNT(pick); ++i)
    if (k == 0 || pick[i] > b[k - 1]) b[k++] = pick[i];
  return k;
}

int pt_make_split(enum pt_family f, size_t n, gpureduce_type_t type, tu_rng *r,
                  struct pt_split *sp) {
  const uint64_t te = tu_tile_elems(type), v = tu_chunk_elems(type);
  const uint64_t T = n ? (n + te - 1) / te : 0;
  uint64_t c[PT_MAX_PARTS - 1], b[8];
  size_t k = 0, nb;
  switch (f) {
    case PT_ONE:
      sp->name = "one part holding everything";
      break;
    case PT_RANDOM: {
      const size_t parts = 2 + (size_t)tu_below(r, 8);
      for (size_t i = 0; i + 1 < parts; ++i) c[k++] = tu_below(r, (uint64_t)n + 1);
      qsort(c, k, sizeof c[0], cmp_u64);
      sp->name = "2 to 9 parts cut at random elements";
      break;
    }
    case PT_TILES:
      if (T < 2) return 0;
      nb = boundaries(T, b);
      for (size_t i = 0; i < nb; ++i) c[k++] = b[i] * te;
      sp->name = "cuts at tile boundaries";
      break;
    case PT_NEAR_TILES:
      if (T < 2) return 0;
      nb = boundaries(T, b);
      for (size_t i = 0; i < nb; ++i) c[k++] = b[i] * te + (b[i] % 2 ? (uint64_t)-1 : 1);
      sp->name = "cuts one element before odd tile boundaries and after even ones";
      break;
    case PT_TINY: {
      const uint64_t base = (T ? (T - 1) / 2 : 0) * te, step = v / 2 ? v / 2 : 1;
      if (base + 1 + 4 * step >= n) return 0;
      for (uint64_t j = 0; j < 5; ++j) c[k++] = base + 1 + j * step;
      sp->name = "five cuts inside one tile, the parts between them shorter than a chunk";
      break;
    }
    case PT_EMPTY: {
      uint64_t m = n / 2;
      if (m % te == 0 && m + 1 < n) ++m; /* inside a tile */
      c[k++] = 0;
      c[k++] = m;
      c[k++] = m;
      c[k++] = n;
      sp->name = "empty parts at the start, in the middle and at the end";
      break;
    }
    case PT_ODD_TILES:
      if (T < 4) return 0;
      c[k++] = te;
      if (T >= 6) c[k++] = 3 * te;
      c[k++] = (T - 1) * te - 1;
      sp->name = "parts whose whole tiles start at tiles 1 and 3, the last cut inside a tile";
      break;
    case PT_MANY:
      for (size_t i = 0; i < 99; ++i) c[k++] = tu_below(r, (uint64_t)n + 1);
      qsort(c, k, sizeof c[0], cmp_u64);
      sp->name = "100 parts cut at random elements";
      break;
    default:
      return 0;
  }
  sp->parts = k + 1;
  sp->cuts[0] = 0;
  for (size_t i = 0; i < k; ++i) sp->cuts[i + 1] = c[i];
  sp->cuts[k + 1] = n;
  return 1;
}

/* The sizes of pt_every_kind: a few elements, and k tiles and one element
 * either side for k = 1, 2, 3, 5, 8, 9. */
static size_t every_kind_sizes(gpureduce_type_t type, size_t *s) {
  static const size_t small[] = {1, 2, 7, 100};
  static const size_t tiles[] = {1, 2, 3, 5, 8, 9};
  const size_t te = tu_tile_elems(type);
  size_t k = 0;
  for (size_t i = 0; i < COUNT(small); ++i) s[k++] = small[i];
  for (size_t i = 0; i < COUNT(tiles); ++i) {
    s[k++] = tiles[i] * te - 1;
    s[k++] = tiles[i] * te;
    s[k++] = tiles[i] * te + 1;
  }
  return k;
}

/* ---- data --------------------------------------------------------------------- */

/* n random elements for op into x, drawn from r, and what they are.
 * variant 0: wide values (sums), factors (products), a few values with
 * many ties and +-0 (min, max, arg); 1: infinities among wide values
 * (floats), a -0 among the factors (float products), the type's extremes
 * with many ties (integers); 2: variant 0 with two NaNs of different
 * payloads (floats), or extremes with many ties (integers). */
static const char *fill(tu_rng *r, gpureduce_type_t type, gpureduce_op_t op, int variant, void *x,
                        size_t n) {
  const int fl = TU_TYPE(type)->is_float;
  const int minmax = op == GPUREDUCE_MIN || op == GPUREDUCE_MAX || bt_is_arg(op);
  const unsigned es = TU_TYPE(type)->size;
  enum tc_gen g;
  const char *what;
  if (op == GPUREDUCE_PROD) {
    g = fl || variant != 1 ? G_FACTORS : G_WIDE;
    what = fl ? "factors near 1"
           : variant == 1 ? "random bits (most products 0 modulo 2^64)"
                          : "odd random values";
  } else if (!fl) {
    g = variant == 0 ? G_WIDE : G_POOL;
    what = variant == 0 ? "random bits and some extremes"
                        : "the type's extremes and small values, many ties";
  } else if (variant == 1) {
    g = G_INF;
    what = "random values over many binades, some +-0, subnormals and infinities";
  } else {
    g = minmax ? G_POOL : G_WIDE;
    what = minmax ? "a few values with many ties and +-0"
                  : "random values over many binades, some +-0 and subnormals";
  }
  tc_fill(r, type, g, x, n);
  if (fl && n && op == GPUREDUCE_PROD && variant == 1) {
    tu_store(x, (size_t)tu_below(r, n), es, tu_pattern(type, -0.0));
    what = "factors near 1 and one -0";
  }
  if (fl && n && variant == 2) {
    const size_t p = (size_t)tu_below(r, n), q = p + (size_t)tu_below(r, n - p);
    tu_store(x, q, es, tu_nan(type, 1, 0, 5));
    tu_store(x, p, es, tu_nan(type, 0, 1, 3));
    what = op == GPUREDUCE_PROD ? "factors near 1 and two NaNs"
           : minmax             ? "a few values with ties and +-0, and two NaNs"
                                : "random values over many binades and two NaNs";
  }
  return what;
}

/* ---- the whole array ---------------------------------------------------------- */

void pt_prepare(struct pt_array *a) {
  const char *k = kind(a->type, a->op, a->flags);
  char what[300];
  snprintf(what, sizeof what, "%s n=%zu (%s)", k, a->n, a->what);
  a->rs = gpureduce_result_size(a->type, a->op, a->flags);
  if (!a->rs) fail_msg("test bug: %s has no result", what);
  _Alignas(16) unsigned char out[16 + CANARY];
  memset(out, OUT_FILL, sizeof out);
  const gpureduce_handle_t h = host_handle();
  const gpureduce_status_t s = gpureduce_reduce(a->x, out, a->n, a->type, a->op, a->flags, h);
  check_status(GPUREDUCE_SUCCESS, s, "%s: gpureduce_reduce() of the whole array on a host "
               "handle (%s)", what, s ? gpureduce_last_message(h) : "");
  check_bytes(out + a->rs, OUT_FILL, sizeof out - a->rs,
              "%s: the whole array's reduction wrote only its %zu bytes", what, a->rs);
  a->want = bt_result_at(out, 0, a->rs);
  if (a->flags & GPUREDUCE_WITH_VALUE) {
    unsigned char w[16];
    if (ref_with_value(a->x, a->n, a->type, a->op, w) != 0)
      fail_msg("the reference has no answer for %s", what);
    check_result(bt_result_at(w, 0, 16), a->want, 16,
                 "%s: gpureduce_reduce() of the whole array has the reference's 16 bytes "
                 "(ref_with_value)", what);
    return;
  }
  struct ref_answer w;
  const int rc = ref_answer(a->x, a->n, a->type, a->op, a->flags, &w);
  if (rc == -2) fail_msg("the reference cannot allocate %zu accumulators", a->n);
  if (rc != 0) fail_msg("the reference has no answer for %s", what);
  const bt_result rw = {{w.bits, w.bits2}};
  check_result(rw, a->want, a->rs,
               "%s: gpureduce_reduce() of the whole array has the reference's bits "
               "(ref_answer)", what);
}

/* ---- one split, checked -------------------------------------------------------- */

/* gpureduce_partial_bytes() of a part, checked against what the header
 * says of every partial. */
static size_t checked_bytes(uint64_t n_local, uint64_t offset, uint64_t n_global,
                            gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                            const char *what) {
  const size_t bytes = gpureduce_partial_bytes(n_local, offset, n_global, type, op, flags);
  const uint64_t raw = pt_raw_elements(n_local, offset, n_global, type);
  const unsigned es = TU_TYPE(type)->size;
  check_true(bytes > 0, "%s: gpureduce_partial_bytes() is not 0 (the part lies in the array; "
             "partial.h gives 0 only for an invalid kind or a part beyond n_global)", what);
  check_true(bytes % 8 == 0, "%s: its partial's %zu bytes are a multiple of 8", what, bytes);
  check_true(bytes <= GPUREDUCE_PARTIAL_MAX_BYTES,
             "%s: its partial's %zu bytes are at most GPUREDUCE_PARTIAL_MAX_BYTES (%zu)", what,
             bytes, GPUREDUCE_PARTIAL_MAX_BYTES);
  check_true(bytes >= PT_HEADER_BYTES + raw * es,
             "%s: its partial's %zu bytes hold the %u-byte header and the %" PRIu64
             " raw elements of the tiles it cuts",
             what, bytes, PT_HEADER_BYTES, raw);
  check_bits(bytes, gpureduce_partial_bytes(n_local, offset, n_global, type, op, flags),
             "%s: gpureduce_partial_bytes() gives the same size again (a pure function)",
             what);
  return bytes;
}

/* Fill elements [from, to) of the image (es bytes each) with poison. */
static void poison(unsigned char *img, size_t from, size_t to, unsigned es, uint64_t p) {
  for (size_t i = from; i < to; ++i) tu_store(img, i, es, p);
}

static size_t round256(size_t b) { return (b + 255) & ~(size_t)255; }

void pt_check_split(const struct pt_array *a, const struct pt_split *sp, tu_rng *rng) {
  const gpureduce_handle_t h = battery_handle();
  const gpureduce_type_t type = a->type;
  const gpureduce_op_t op = a->op;
  const unsigned flags = a->flags, es = TU_TYPE(type)->size;
  const size_t K = sp->parts, rs = a->rs;
  const uint64_t N = a->n;
  const uint64_t *cuts = sp->cuts;
  if (K < 1 || K > PT_MAX_PARTS || cuts[0] != 0 || cuts[K] != N)
    fail_msg("test bug: a split of %zu parts of %" PRIu64 " elements", K, N);

  char cs[160];
  size_t used = 0;
  cs[0] = '\0';
  for (size_t k = 1; k < K && used + 24 < sizeof cs; ++k)
    used += (size_t)snprintf(cs + used, sizeof cs - used, "%s%" PRIu64, k > 1 ? " " : "",
                             cuts[k]);
  char what[600];
  snprintf(what, sizeof what, "%s n=%" PRIu64 " (%s), %s: %zu parts, cut at {%s}",
           kind(type, op, flags), N, a->what, sp->name, K, cs);

  /* sizes, places in the partials' buffer and in the image */
  size_t bytes[PT_MAX_PARTS], ppos[PT_MAX_PARTS], ipos[PT_MAX_PARTS], shift[PT_MAX_PARTS];
  size_t ptotal = 0, itotal = 0, sum = 0;
  for (size_t k = 0; k < K; ++k) {
    const uint64_t nl = cuts[k + 1] - cuts[k];
    if (cuts[k + 1] < cuts[k]) fail_msg("test bug: decreasing cuts in %s", what);
    char pw[700];
    snprintf(pw, sizeof pw, "%s: part %zu (%" PRIu64 " elements from %" PRIu64 ")", what, k, nl,
             cuts[k]);
    bytes[k] = checked_bytes(nl, cuts[k], N, type, op, flags, pw);
    ppos[k] = ptotal;
    ptotal += bytes[k] + CANARY;
    sum += bytes[k];
    shift[k] = (size_t)tu_below(rng, 16);
    ipos[k] = itotal;
    itotal += round256((shift[k] + nl) * es) + PAD;
  }

  /* the image: each part shift[k] elements past a 256-byte aligned place,
   * poison around it */
  const uint64_t pz = bt_poison(type, op);
  unsigned char *img = bt_room_for(&image, itotal);
  for (size_t k = 0; k < K; ++k) {
    const size_t nl = (size_t)(cuts[k + 1] - cuts[k]), e0 = ipos[k] / es;
    const size_t e1 = (k + 1 < K ? ipos[k + 1] : itotal) / es;
    poison(img, e0, e0 + shift[k], es, pz);
    if (nl) memcpy(img + ipos[k] + shift[k] * es, (const unsigned char *)a->x + cuts[k] * es,
                   nl * es);
    poison(img, e0 + shift[k] + nl, e1, es, pz);
  }
  unsigned char *in = bt_room_for(&in_mem, itotal);
  B->put(in, img, itotal);

  /* the partials, each followed by a canary */
  unsigned char *P = bt_room_for(&made, ptotal);
  memset(P, PFILL, ptotal);
  for (size_t k = 0; k < K; ++k) {
    const uint64_t nl = cuts[k + 1] - cuts[k];
    const void *x = nl ? in + ipos[k] + shift[k] * es : NULL;
    const gpureduce_status_t s =
        gpureduce_partial_reduce(x, P + ppos[k], (size_t)nl, cuts[k], N, type, op, flags, h);
    check_status(GPUREDUCE_SUCCESS, s,
                 "%s: gpureduce_partial_reduce() of part %zu (%" PRIu64 " elements from %" PRIu64
                 ", %zu elements past an aligned address) on the %s backend (%s)",
                 what, k, nl, cuts[k], shift[k], B->name, s ? gpureduce_last_message(h) : "");
    check_bytes(P + ppos[k] + bytes[k], PFILL, CANARY,
                "%s: part %zu: nothing written past the partial's %zu bytes", what, k, bytes[k]);
  }

  /* one part again, from another alignment into a buffer of other
   * contents: the same bytes */
  {
    const size_t j = (size_t)tu_below(rng, K), nl = (size_t)(cuts[j + 1] - cuts[j]);
    const size_t s2 = (shift[j] + 1 + (size_t)tu_below(rng, 15)) % 16;
    const size_t total = round256((s2 + nl) * es) + PAD;
    unsigned char *im2 = bt_room_for(&image, total); /* (the image is on the backend) */
    poison(im2, 0, total / es, es, pz);
    if (nl) memcpy(im2 + s2 * es, (const unsigned char *)a->x + cuts[j] * es, nl * es);
    unsigned char *in2 = bt_room_for(&again_mem, total);
    B->put(in2, im2, total);
    unsigned char *p2 = bt_room_for(&again, bytes[j] + CANARY);
    memset(p2, PFILL2, bytes[j] + CANARY);
    const gpureduce_status_t s = gpureduce_partial_reduce(nl ? in2 + s2 * es : NULL, p2, nl,
                                                          cuts[j], N, type, op, flags, h);
    check_status(GPUREDUCE_SUCCESS, s, "%s: part %zu again, %zu elements past an aligned "
                 "address (%s)", what, j, s2, s ? gpureduce_last_message(h) : "");
    check_same_bytes(P + ppos[j], p2, bytes[j],
                     "%s: part %zu reduced again from %zu elements past an aligned address "
                     "(not %zu) into a buffer of 0x%02x (not 0x%02x): the same partial",
                     what, j, s2, shift[j], PFILL2, PFILL);
    check_bytes(p2 + bytes[j], PFILL2, CANARY, "%s: part %zu again: nothing written past it",
                what, j);
  }

  /* on CUDA, the host handle's partials: the same bytes */
  unsigned char *Q = NULL;
  if (HH) {
    Q = bt_room_for(&host_made, ptotal);
    memset(Q, PFILL2, ptotal);
    for (size_t k = 0; k < K; ++k) {
      const uint64_t nl = cuts[k + 1] - cuts[k];
      const void *x = nl ? (const unsigned char *)a->x + cuts[k] * es : NULL;
      const gpureduce_status_t s =
          gpureduce_partial_reduce(x, Q + ppos[k], (size_t)nl, cuts[k], N, type, op, flags, HH);
      check_status(GPUREDUCE_SUCCESS, s, "%s: part %zu on the host handle (%s)", what, k,
                   s ? gpureduce_last_message(HH) : "");
      check_same_bytes(P + ppos[k], Q + ppos[k], bytes[k],
                       "%s: part %zu: the %s handle's partial and the host handle's are the "
                       "same bytes", what, k, B->name);
    }
  }

  /* the concatenation, in a shuffled order */
  size_t perm[PT_MAX_PARTS];
  for (size_t k = 0; k < K; ++k) perm[k] = k;
  for (size_t k = K; k > 1; --k) {
    const size_t j = (size_t)tu_below(rng, k), t = perm[k - 1];
    perm[k - 1] = perm[j];
    perm[j] = t;
  }
  char order[100];
  used = 0;
  order[0] = '\0';
  for (size_t k = 0; k < K && used + 8 < sizeof order; ++k)
    used += (size_t)snprintf(order + used, sizeof order - used, "%s%zu", k ? " " : "", perm[k]);
  /* the concatenations: in offset order (the partials' buffer without
   * its canaries), shuffled, and on CUDA shuffled with the host handle's
   * partials of the odd parts */
  unsigned char *S = bt_room_for(&sorted, sum), *C = bt_room_for(&cat, sum);
  unsigned char *M = HH ? bt_room_for(&mixed, sum) : NULL;
  for (size_t k = 0, at = 0; k < K; at += bytes[k], ++k) memcpy(S + at, P + ppos[k], bytes[k]);
  for (size_t k = 0, at = 0; k < K; at += bytes[perm[k]], ++k) {
    memcpy(C + at, P + ppos[perm[k]], bytes[perm[k]]);
    if (M) memcpy(M + at, (perm[k] % 2 ? Q : P) + ppos[perm[k]], bytes[perm[k]]);
  }

  /* the combines, on the backend's handle and memory */
  unsigned char ob[16 + CANARY];
  void *out = bt_room_for(&out_mem, sizeof ob);
  const struct {
    const unsigned char *partials;
    const char *which, *order;
  } passes[3] = {{S, "", "of the offsets"}, {C, "", order},
                 {M, "CUDA (even parts) and host (odd parts) ", order}};
  for (int pass = 0; pass < (M ? 3 : 2); ++pass) {
    memset(ob, OUT_FILL, sizeof ob);
    B->put(out, ob, sizeof ob);
    const gpureduce_status_t s = gpureduce_partial_combine(passes[pass].partials, sum, out, h);
    check_status(GPUREDUCE_SUCCESS, s, "%s: gpureduce_partial_combine() of the %spartials "
                 "in the order {%s} on the %s backend (%s)", what, passes[pass].which,
                 passes[pass].order, B->name, s ? gpureduce_last_message(h) : "");
    B->get(ob, out, sizeof ob);
    check_bytes(ob + rs, OUT_FILL, CANARY, "%s: the combine wrote only its %zu-byte result",
                what, rs);
    check_result(a->want, bt_result_at(ob, 0, rs), rs,
                 "%s: the %spartials combined in the order {%s} on the %s backend have the "
                 "bits of gpureduce_reduce() of the whole array", what, passes[pass].which,
                 passes[pass].order, B->name);
  }
  /* on CUDA, the mixed partials combined on the host handle too */
  if (M) {
    _Alignas(16) unsigned char hb[16 + CANARY];
    memset(hb, OUT_FILL, sizeof hb);
    const gpureduce_status_t s = gpureduce_partial_combine(M, sum, hb, HH);
    check_status(GPUREDUCE_SUCCESS, s, "%s: the mixed partials combined on the host handle (%s)",
                 what, s ? gpureduce_last_message(HH) : "");
    check_bytes(hb + rs, OUT_FILL, CANARY, "%s: the host combine wrote only its result", what);
    check_result(a->want, bt_result_at(hb, 0, rs), rs,
                 "%s: CUDA and host partials combined on the host handle have the bits of "
                 "gpureduce_reduce() of the whole array", what);
  }
}

void pt_check_random(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, size_t n,
                     const enum pt_family *families, size_t nfamilies, const char *label) {
  char stream[200];
  snprintf(stream, sizeof stream, "partial %s %s %zu", label, kind(type, op, flags), n);
  tu_rng r;
  tu_rng_init(&r, stream);
  void *x = bt_room_for(&data, n * TU_TYPE(type)->size);
  struct pt_array a = {x, n, type, op, flags, fill(&r, type, op, 0, x, n), 0, {{0, 0}}};
  pt_prepare(&a);
  struct pt_split sp;
  for (size_t f = 0; f < nfamilies; ++f)
    if (pt_make_split(families[f], n, type, &r, &sp)) pt_check_split(&a, &sp, &r);
}

/* ---- tests: the bits, every kind --------------------------------------------- */

void pt_every_kind(void **state) {
  (void)state;
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (pt_next_kind(&k, &type, &op, &flags)) {
    if (sg_quick() && k % 7 != 1) continue;
    size_t sizes[32];
    size_t ns = every_kind_sizes(type, sizes);
    if (sg_quick() && ns > 10) ns = 10; /* a few elements, 1 and 2 tiles */
    char stream[100];
    snprintf(stream, sizeof stream, "partial every kind %s", kind(type, op, flags));
    tu_rng r;
    tu_rng_init(&r, stream);
    for (size_t si = 0; si < ns; ++si) {
      const size_t n = sizes[si];
      void *x = bt_room_for(&data, n * TU_TYPE(type)->size);
      struct pt_array a = {x, n, type, op, flags, fill(&r, type, op, (int)(si % 3), x, n),
                           0, {{0, 0}}};
      pt_prepare(&a);
      struct pt_split sp;
      for (int f = 0; f < PT_MANY; ++f) /* (pt_many_parts: PT_MANY) */
        if (pt_make_split((enum pt_family)f, n, type, &r, &sp)) pt_check_split(&a, &sp, &r);
    }
  }
}

/* 301 tiles (77 elements in the last): deep tile trees, parts of many
 * canonical nodes.  The kinds whose type and op numbers add up to a
 * multiple of 4: 31 of them, every type and every op among them, flags
 * included. */
void pt_few_hundred_tiles(void **state) {
  (void)state;
  static const enum pt_family fams[] = {PT_RANDOM, PT_NEAR_TILES, PT_ODD_TILES};
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (pt_next_kind(&k, &type, &op, &flags))
    if (((int)type + (int)op) % 4 == 0 && (!sg_quick() || k % 3 == 1))
      pt_check_random(type, op, flags, 300 * tu_tile_elems(type) + 77, fams, COUNT(fams),
                      "few hundred tiles");
}

/* Past GR_MAX_ROOTS (8192) tiles, where gpureduce_reduce() reduces groups
 * of tiles and then the groups' roots: 8195 tiles. */
void pt_tile_groups(void **state) {
  (void)state;
  static const enum pt_family fams[] = {PT_RANDOM, PT_ODD_TILES};
  static const struct {
    gpureduce_type_t type;
    gpureduce_op_t op;
    unsigned flags;
  } kinds[] = {{GPUREDUCE_F64, GPUREDUCE_SUM, 0},
               {GPUREDUCE_F64, GPUREDUCE_ARGMAX, GPUREDUCE_WITH_VALUE}};
  if (sg_quick()) skip(); /* (GPUREDUCE_TEST_QUICK) */
  for (size_t i = 0; i < COUNT(kinds); ++i)
    pt_check_random(kinds[i].type, kinds[i].op, kinds[i].flags,
                    8195 * tu_tile_elems(kinds[i].type) - 3, fams, COUNT(fams), "tile groups");
}

/* ---- tests: special values where the parts meet --------------------------------- */

/* Special values on both sides of the cuts of four parts, [0, c1), [c1,
 * c2), [c2, c3), [c3, n), combined in three shuffled orders: the answers
 * of gpureduce.h written out, as well as the bits of the whole array. */
void pt_specials_at_cuts(void **state) {
  (void)state;
  tu_rng r;
  tu_rng_init(&r, "partial specials at cuts");
  for (int ti = 0; ti < GPUREDUCE_TYPE_COUNT; ++ti) {
    const gpureduce_type_t type = (gpureduce_type_t)ti;
    const int fl = TU_TYPE(type)->is_float;
    const unsigned es = TU_TYPE(type)->size;
    const size_t te = tu_tile_elems(type), n = 3 * te + 11;
    const size_t c1 = te - 1, c2 = te + 1, c3 = 2 * te + 5;
    struct pt_split sp = {4, {0, c1, c2, c3, n}, "four parts cut near tiles 1 and 2"};
    unsigned char *x = bt_room_for(&data, n * es);
    /* middling values: 1 .. 2 (floats), 10 .. 99 (integers) */
    const uint64_t lo = fl ? tu_pattern(type, 0.5) : 3, hi = fl ? tu_pattern(type, 4.0) : 120;
    enum { TIES, ZEROS, NANS, INFS, PATTERNS };
    for (int pat = 0; pat < PATTERNS; ++pat) {
      if (!fl && pat != TIES) continue;
      for (size_t i = 0; i < n; ++i)
        tu_store(x, i, es, fl ? tu_pattern(type, 1.0 + (double)tu_below(&r, 64) / 64)
                              : 10 + tu_below(&r, 90));
      const char *what = "";
      size_t imin = 0, imax = 0;
      switch (pat) {
        case TIES: /* the smallest at c1-1, c1 and c3; the largest at c3-1, c3+1 */
          tu_store(x, c1 - 1, es, lo);
          tu_store(x, c1, es, lo);
          tu_store(x, c3 + 2, es, lo);
          tu_store(x, c3 - 1, es, hi);
          tu_store(x, c3 + 1, es, hi);
          imin = c1 - 1;
          imax = c3 - 1;
          what = "ties of the smallest and the largest value on both sides of cuts";
          break;
        case ZEROS: /* +0 at c1, -0 at c2 (last part first in value order) */
          for (size_t i = 0; i < n; ++i) tu_store(x, i, es, tu_pattern(type, 1.0));
          tu_store(x, c1, es, tu_pattern(type, 0.0));
          tu_store(x, c2, es, tu_pattern(type, -0.0));
          imin = c1;
          imax = 0;
          what = "all 1 but +0 at c1 and -0 at c2";
          break;
        case NANS: /* NaNs at c2 and c1 + 1 */
          tu_store(x, c2, es, tu_nan(type, 0, 1, 1));
          tu_store(x, c1 + 1, es, tu_nan(type, 1, 0, 7));
          imin = imax = c1 + 1;
          what = "NaNs at c1+1 and c2";
          break;
        default: /* -inf at c3, +inf at c1 - 1 */
          tu_store(x, c3, es, tu_neg_inf(type));
          tu_store(x, c1 - 1, es, tu_pos_inf(type));
          imin = c3;
          imax = c1 - 1;
          what = "+inf at c1-1 and -inf at c3";
          break;
      }
      int k = 0;
      gpureduce_type_t t2;
      gpureduce_op_t op;
      unsigned flags;
      while (pt_next_kind(&k, &t2, &op, &flags)) {
        if (t2 != type) continue;
        struct pt_array a = {x, n, type, op, flags, what, 0, {{0, 0}}};
        pt_prepare(&a);
        for (int rep = 0; rep < 3; ++rep) pt_check_split(&a, &sp, &r);
        /* the answers written out */
        const char *kn = kind(type, op, flags);
        if (bt_is_arg(op))
          check_bits(op == GPUREDUCE_ARGMIN ? imin : imax, a.want.w[0],
                     "%s, %s: the index written out from gpureduce.h (the lowest of a tie, "
                     "the first NaN)", kn, what);
        if (op == GPUREDUCE_MIN && pat == ZEROS)
          check_bits(tu_pattern(type, -0.0), a.want.w[0], "%s, %s: -0", kn, what);
        if (op == GPUREDUCE_MAX && pat == INFS)
          check_bits(tu_pos_inf(type), a.want.w[0], "%s, %s: +inf", kn, what);
        if (op == GPUREDUCE_SUM && pat == INFS)
          check_bits(bt_result_pattern(type, op, flags, NAN), a.want.w[0],
                     "%s, %s: the sum of +inf and -inf is NaN", kn, what);
        if (op == GPUREDUCE_MIN && pat == TIES)
          check_bits(lo, a.want.w[0], "%s, %s: the smallest", kn, what);
      }
    }
  }
}

/* More than 64 parts, many of them empty (the combine lists partials out
 * of offset order, allocating beyond 64): every kind at 3 tiles + 5. */
void pt_many_parts(void **state) {
  (void)state;
  static const enum pt_family fams[] = {PT_MANY};
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (pt_next_kind(&k, &type, &op, &flags))
    if (!sg_quick() || k % 7 == 1)
      pt_check_random(type, op, flags, 3 * tu_tile_elems(type) + 5, fams, COUNT(fams),
                      "many parts");
}

/* doc/ORDER.md's example: F32, N = 20000 (tiles 0, 1, 2, the last of 3616
 * elements), parts [0, 5000), [5000, 5001), [5001, 20000); every f32 kind,
 * and the sum against the example's bracketing (t0 + t1) + t2, the tiles
 * by rules 3 and 4 (reference.h). */
void pt_order_example(void **state) {
  (void)state;
  const size_t N = 20000, te = tu_tile_elems(GPUREDUCE_F32);
  tu_rng r;
  tu_rng_init(&r, "partial doc/ORDER.md example");
  float *x = bt_room_for(&data, N * sizeof *x);
  tc_fill(&r, GPUREDUCE_F32, G_WIDE, x, N);
  const struct pt_split sp = {3, {0, 5000, 5001, N}, "doc/ORDER.md's example"};
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (pt_next_kind(&k, &type, &op, &flags)) {
    if (type != GPUREDUCE_F32) continue;
    struct pt_array a = {x, N, type, op, flags, "random floats", 0, {{0, 0}}};
    pt_prepare(&a);
    for (int rep = 0; rep < 3; ++rep) pt_check_split(&a, &sp, &r);
    if (op != GPUREDUCE_SUM || flags) continue;
    const float t0 = ref_order_tile_f(x, te, 4, 0), t1 = ref_order_tile_f(x + te, te, 4, 0);
    const float t2 = ref_order_tile_f(x + 2 * te, N - 2 * te, 4, 0);
    check_bits(tu_f32_bits((t0 + t1) + t2), a.want.w[0],
               "f32 sum of doc/ORDER.md's example: (t0 + t1) + t2, the tiles by rules 3 and 4");
  }
}

/* ---- tests: n = 0 ------------------------------------------------------------------- */

/* An empty array: one empty part, and five: the documented empty result
 * of gpureduce.h (+0, 1, the largest or the lowest value); ARGMIN,
 * ARGMAX and MEAN_VAR: GPUREDUCE_ERROR_EMPTY_INPUT, the partial
 * untouched. */
void pt_empty_array(void **state) {
  (void)state;
  const gpureduce_handle_t h = battery_handle();
  tu_rng r;
  tu_rng_init(&r, "partial empty array");
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (pt_next_kind(&k, &type, &op, &flags)) {
    const char *kn = kind(type, op, flags);
    char what[160];
    snprintf(what, sizeof what, "%s of an empty array (n_global 0)", kn);
    const size_t bytes = checked_bytes(0, 0, 0, type, op, flags, what);
    if (bt_empty_is_error(op)) {
      unsigned char *p = bt_room_for(&made, bytes + CANARY), *dummy = bt_room_for(&again_mem, 256);
      for (int with_ptr = 0; with_ptr < 2; ++with_ptr) {
        memset(p, PFILL, bytes + CANARY);
        const gpureduce_status_t s =
            gpureduce_partial_reduce(with_ptr ? dummy : NULL, p, 0, 0, 0, type, op, flags, h);
        expect_failure(h, GPUREDUCE_ERROR_EMPTY_INPUT, s, p, PFILL, bytes + CANARY,
                       "%s, input %s: gpureduce_partial_reduce()", what,
                       with_ptr ? "a valid pointer" : "NULL");
      }
      continue;
    }
    struct pt_array a = {NULL, 0, type, op, flags, "no elements", 0, {{0, 0}}};
    pt_prepare(&a);
    check_result(sg_empty_result(type, op, flags), a.want, a.rs,
                 "%s: gpureduce_reduce() gives the documented empty result", what);
    struct pt_split sp;
    if (pt_make_split(PT_ONE, 0, type, &r, &sp)) pt_check_split(&a, &sp, &r);
    if (pt_make_split(PT_EMPTY, 0, type, &r, &sp)) pt_check_split(&a, &sp, &r);
  }
}

/* ---- tests: gpureduce_partial_bytes ------------------------------------------------ */

/* A part: n_local elements from offset of n_global. */
struct range {
  uint64_t n_local, offset, n_global;
};

/* The extreme parts of an array of N elements (te a tile): everything;
 * an empty part at either end; the last element; from inside tile 0 to
 * inside tile T-2, te-1 raw elements at each end and the whole tiles from
 * tile 1 between them, the most canonical nodes; from inside tile 1 to
 * the end; all but the last element.  Returns how many (7). */
static size_t extreme_parts(uint64_t N, uint64_t te, struct range *p) {
  const uint64_t T = N / te + (N % te != 0);
  size_t k = 0;
  p[k++] = (struct range){N, 0, N};
  p[k++] = (struct range){0, N, N};
  p[k++] = (struct range){0, 0, N};
  p[k++] = (struct range){1, N - 1, N};
  p[k++] = (struct range){(T - 1) * te - 2, 1, N};
  p[k++] = (struct range){N - te - 1, te + 1, N};
  p[k++] = (struct range){N - 1, 0, N};
  return k;
}

void pt_bytes(void **state) {
  (void)state;
  /* valid exactly where gpureduce_result_size() has a result, which
   * agrees with gpureduce.h's table */
  for (int ti = 0; ti <= GPUREDUCE_TYPE_COUNT; ++ti)
    for (int oi = 0; oi <= GPUREDUCE_OP_COUNT; ++oi)
      for (unsigned flags = 0; flags < 8; ++flags) {
        const gpureduce_type_t type = (gpureduce_type_t)ti;
        const gpureduce_op_t op = (gpureduce_op_t)oi;
        const size_t rs = gpureduce_result_size(type, op, flags);
        check_bits(tu_result_size(type, op, flags), rs,
                   "type %d op %d flags %u: gpureduce_result_size() agrees with gpureduce.h's "
                   "table", ti, oi, flags);
        const size_t b = gpureduce_partial_bytes(100, 0, 100, type, op, flags);
        if (rs)
          check_true(b > 0, "type %d op %d flags %u (%s): a partial has bytes", ti, oi, flags,
                     kind(type, op, flags));
        else
          check_bits(0, b, "type %d op %d flags %u, no result: gpureduce_partial_bytes() is 0",
                     ti, oi, flags);
      }

  /* every kind, ordinary and extreme parts: n_global up to 2^63 bytes */
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  size_t largest = 0;
  while (pt_next_kind(&k, &type, &op, &flags)) {
    const uint64_t te = tu_tile_elems(type), es = TU_TYPE(type)->size;
    struct range parts[32] = {{0, 0, 0},          {1, 0, 1},           {te, 0, te},
                              {te - 1, 1, te},    {3, te - 2, 2 * te}, {5 * te, te + 1, 9 * te},
                              {0, 9 * te, 9 * te}, {te, te, 3 * te + 1}};
    size_t np = 8;
    np += extreme_parts(((uint64_t)1 << 63) / es - 1, te, parts + np);
    np += extreme_parts(((uint64_t)1 << 62) / es + 12345, te, parts + np);
    for (size_t i = 0; i < np; ++i) {
      char what[200];
      snprintf(what, sizeof what, "%s, %" PRIu64 " elements from %" PRIu64 " of %" PRIu64,
               kind(type, op, flags), parts[i].n_local, parts[i].offset, parts[i].n_global);
      const size_t b = checked_bytes(parts[i].n_local, parts[i].offset, parts[i].n_global, type,
                                     op, flags, what);
      if (b > largest) largest = b;
    }
    /* no part: beyond n_global, or offset + n_local overflowing */
    const struct {
      uint64_t n_local, offset, n_global;
      const char *what;
    } bad[] = {
        {10, 5, 14, "10 elements from 5 of 14"},
        {0, 15, 14, "an empty part at 15 of 14"},
        {1, 14, 14, "one element at 14 of 14"},
        {te, 1, te, "a tile of elements from 1 of te"},
        {2, UINT64_MAX, 100, "2 elements from 2^64-1 (the end overflows)"},
        {UINT64_MAX, 2, UINT64_MAX, "2^64-1 elements from 2 of 2^64-1 (the end overflows)"},
        {UINT64_MAX, 0, UINT64_MAX - 1, "2^64-1 elements of 2^64-2"},
    };
    for (size_t i = 0; i < COUNT(bad); ++i)
      check_bits(0, gpureduce_partial_bytes(bad[i].n_local, bad[i].offset, bad[i].n_global,
                                            type, op, flags),
                 "%s, %s: gpureduce_partial_bytes() is 0", kind(type, op, flags), bad[i].what);
  }
  print_message("# the largest partial: %zu bytes of GPUREDUCE_PARTIAL_MAX_BYTES %zu\n", largest,
                GPUREDUCE_PARTIAL_MAX_BYTES);
}

/* n_global at the bound of partial.h (n_global times the element size
 * below 2^63 bytes): every part of extreme_parts at the largest n_global
 * allowed has its partial; one element more, 2^63 and 2^64 - 1 elements
 * give 0. */
void pt_bytes_past_2_63(void **state) {
  (void)state;
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (pt_next_kind(&k, &type, &op, &flags)) {
    const uint64_t te = tu_tile_elems(type), es = TU_TYPE(type)->size;
    const uint64_t most = UINT64_MAX / 2 / es; /* (n_global * es < 2^63) */
    struct range parts[8];
    const size_t np = extreme_parts(most, te, parts);
    for (size_t j = 0; j < np; ++j) {
      char what[200];
      snprintf(what, sizeof what, "%s, %" PRIu64 " elements from %" PRIu64 " of %" PRIu64,
               kind(type, op, flags), parts[j].n_local, parts[j].offset, parts[j].n_global);
      (void)checked_bytes(parts[j].n_local, parts[j].offset, parts[j].n_global, type, op, flags,
                          what);
    }
    const uint64_t over[] = {most + 1, (uint64_t)1 << 63, UINT64_MAX};
    for (size_t i = 0; i < COUNT(over); ++i)
      check_bits(0, gpureduce_partial_bytes(1, 0, over[i], type, op, flags),
                 "%s: gpureduce_partial_bytes() of one element of an array of %" PRIu64
                 " elements is 0 (past n_global * element size < 2^63 bytes)",
                 kind(type, op, flags), over[i]);
  }
}

/* ---- tests: bad arguments -------------------------------------------------------------- */

/* n random values (G_WIDE) of `type` in host memory (the data room),
 * drawn from a stream named label, and their copy in backend memory at
 * *in (in_mem). */
static const void *random_input(gpureduce_type_t type, size_t n, const char *label,
                                unsigned char **in) {
  const size_t bytes = n * TU_TYPE(type)->size;
  tu_rng r;
  tu_rng_init(&r, label);
  void *x = bt_room_for(&data, bytes);
  tc_fill(&r, type, G_WIDE, x, n);
  *in = bt_room_for(&in_mem, bytes);
  B->put(*in, x, bytes);
  return x;
}

/* Bytes of a partial's buffer in the error tests: the largest partial and
 * a canary, all checked untouched. */
#define ROOM (GPUREDUCE_PARTIAL_MAX_BYTES + CANARY)

void pt_reduce_errors(void **state) {
  (void)state;
  const gpureduce_handle_t h = battery_handle();
  const size_t te = tu_tile_elems(GPUREDUCE_F32), N = 2 * te + 100;
  unsigned char *in;
  const float *x = random_input(GPUREDUCE_F32, N, "partial reduce errors", &in);
  unsigned char *p = bt_room_for(&made, ROOM + 8);
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
      {"unknown flag 0x4", GPUREDUCE_ERROR_INVALID_ARGUMENT, 0, in, 10, 0, N, GPUREDUCE_F32,
       GPUREDUCE_SUM, 0x4, p},
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
      {"unknown op 10", GPUREDUCE_ERROR_UNSUPPORTED, 0, in, 10, 0, N, GPUREDUCE_F32,
       (gpureduce_op_t)10, 0, p},
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
  void *out = bt_room_for(&out_mem, sizeof ob);
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
  const gpureduce_handle_t h = battery_handle();
  const size_t te = tu_tile_elems(GPUREDUCE_F32), N = 2 * te + 100, m = te + 7;
  unsigned char *in;
  const float *x = random_input(GPUREDUCE_F32, N, "partial combine errors", &in);
  struct pt_array a = {x, N, GPUREDUCE_F32, GPUREDUCE_SUM, 0, "random floats", 0, {{0, 0}}};
  pt_prepare(&a);

  /* the partials: [0, m) and [m, N) of f32 sum, and the misfits */
  enum { P0, P1, P1_NGLOBAL, P1_OP, P1_TYPE, P1_FLAGS, P1_OVERLAP, P1_GAP, E_MID, NP };
  unsigned char *buf = bt_room_for(&made, NP * ROOM);
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
  unsigned char *C = bt_room_for(&cat, 4 * ROOM + 128), *keep = bt_room_for(&mixed, 4 * ROOM + 128);
  _Alignas(16) unsigned char ob[16 + CANARY];
  void *out = bt_room_for(&out_mem, sizeof ob);
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

/* ---- tests: gpureduce_set_last_message ------------------------------------------------ */

void pt_set_last_message(void **state) {
  (void)state;
  const gpureduce_handle_t h = battery_handle();
  /* every status comes back unchanged, with its text */
  for (int v = 0; v <= GPUREDUCE_ERROR_TRANSPORT; ++v) {
    char text[64];
    snprintf(text, sizeof text, "status %d from a layered library", v);
    check_status((gpureduce_status_t)v,
                 gpureduce_set_last_message(h, (gpureduce_status_t)v, text),
                 "gpureduce_set_last_message(%s) returns the status it was given",
                 tu_status_label((gpureduce_status_t)v));
    check_string(text, gpureduce_last_message(h),
                 "after gpureduce_set_last_message(%s), gpureduce_last_message gives its text",
                 tu_status_label((gpureduce_status_t)v));
  }
  /* 255 bytes are kept, longer messages cut to them */
  char longer[400], want[256];
  for (size_t i = 0; i < sizeof longer - 1; ++i) longer[i] = (char)('a' + i % 26);
  const size_t lens[] = {254, 255, 256, 399};
  for (size_t k = 0; k < COUNT(lens); ++k) {
    longer[lens[k]] = '\0';
    check_status(GPUREDUCE_ERROR_TRANSPORT, gpureduce_set_last_message(h, GPUREDUCE_ERROR_TRANSPORT, longer),
                 "a message of %zu bytes: the status comes back", lens[k]);
    const size_t kept = lens[k] < 255 ? lens[k] : 255;
    memcpy(want, longer, kept);
    want[kept] = '\0';
    check_string(want, gpureduce_last_message(h),
                 "a message of %zu bytes: gpureduce_last_message gives its first %zu", lens[k],
                 kept);
    longer[lens[k]] = (char)('a' + lens[k] % 26);
  }
  /* the handle's own message passed on, as a layered library might */
  check_status(GPUREDUCE_ERROR_TRANSPORT,
               gpureduce_set_last_message(h, GPUREDUCE_ERROR_TRANSPORT, "MPI_Allreduce: truncated"),
               "a message to pass on");
  check_status(GPUREDUCE_ERROR_TRANSPORT,
               gpureduce_set_last_message(h, GPUREDUCE_ERROR_TRANSPORT, gpureduce_last_message(h)),
               "the handle's own message passed to gpureduce_set_last_message");
  check_string("MPI_Allreduce: truncated", gpureduce_last_message(h),
               "the handle's own message, set again, keeps its text");
  /* NULL clears it */
  check_status(GPUREDUCE_ERROR_TRANSPORT, gpureduce_set_last_message(h, GPUREDUCE_ERROR_TRANSPORT, NULL),
               "a NULL message: the status comes back");
  check_string("", gpureduce_last_message(h), "a NULL message clears the handle's message");
  /* a NULL handle */
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_set_last_message(NULL, GPUREDUCE_ERROR_TRANSPORT, "lost"),
               "gpureduce_set_last_message() on a NULL handle");
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_set_last_message(NULL, GPUREDUCE_SUCCESS, NULL),
               "gpureduce_set_last_message(NULL handle, SUCCESS, NULL)");
  /* the next call clears a message set by hand */
  check_status(GPUREDUCE_ERROR_TRANSPORT, gpureduce_set_last_message(h, GPUREDUCE_ERROR_TRANSPORT, "stale"),
               "a message before a call that succeeds");
  unsigned char *part = bt_room_for(&made, ROOM);
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_partial_reduce(NULL, part, 0, 0, 0, GPUREDUCE_F32, GPUREDUCE_SUM, 0, h),
               "a partial of an empty array");
  check_string("", gpureduce_last_message(h),
               "a call that succeeded after gpureduce_set_last_message() leaves no message");
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
    unsigned char *good = bt_room_for(&made, 2 * ROOM);
    const size_t b0 = make(in, m, 0, N, type, op, 0, good, "[0, m)");
    const size_t b1 = make(in, N - m, m, N, type, op, 0, good + b0, "[m, N)");
    unsigned char *C = bt_room_for(&cat, b0 + b1);
    _Alignas(16) unsigned char ob[16 + CANARY];
    void *out = bt_room_for(&out_mem, sizeof ob);
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
                   kind(type, op, 0), which, which ? "[m, N)" : "[0, m)", byte, masks[mi]);
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
