/*
 * partial.c - the harness of the partial-result tests both backends must
 * pass (partial.h): the buffers, the kinds, the splits, the data, and a
 * split reduced, combined and checked.  The tests themselves are in
 * partial-*.c, one file a topic.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partial-internal.h"
#include "reference.h"

/* ---- the backend and its buffers ------------------------------------------ */

static const struct tu_backend *B;
static gpureduce_handle_t HH; /* battery_host_handle(): NULL on the host backend */

/* backend memory: the parts' buffers, one part again, the result; host
 * memory: the parts' image, the partials (the backend's and the host
 * handle's), the concatenations, one partial again, the test data */
struct bt_room pt_in_mem, pt_again_mem, pt_out_mem;
static struct bt_room image = {.host = 1}, host_made = {.host = 1}, sorted = {.host = 1},
                      again = {.host = 1};
struct bt_room pt_made = {.host = 1}, pt_cat = {.host = 1}, pt_mixed = {.host = 1},
               pt_data = {.host = 1};

#define PAD 256     /* poison bytes after each part's elements */
#define PFILL2 0x00 /* the buffer of a part reduced again */

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
  struct bt_room *rooms[] = {&pt_in_mem, &pt_again_mem, &pt_out_mem, &image, &pt_made,
                             &host_made, &sorted, &pt_cat, &pt_mixed, &again, &pt_data};
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

void pt_same_bytes_at(const char *file, int line, const void *want, const void *seen, size_t len,
                      const char *fmt, ...) {
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

void pt_failed_at(const char *file, int line, gpureduce_handle_t h, gpureduce_status_t wanted,
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

/* ---- kinds, splits, sizes -------------------------------------------------- */

static const unsigned kind_flags[4] = {0, GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_WITH_VALUE,
                                       GPUREDUCE_SOFTMAX_STATS};

int pt_next_kind(int *k, gpureduce_type_t *type, gpureduce_op_t *op, unsigned *flags) {
  for (; *k < GPUREDUCE_TYPE_COUNT * GPUREDUCE_OP_COUNT * 4; ++*k) {
    *type = (gpureduce_type_t)(*k / (GPUREDUCE_OP_COUNT * 4));
    *op = (gpureduce_op_t)(*k / 4 % GPUREDUCE_OP_COUNT);
    *flags = kind_flags[*k % 4];
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

/* ---- data --------------------------------------------------------------------- */

const char *pt_fill(tu_rng *r, gpureduce_type_t type, gpureduce_op_t op, int variant, void *x,
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

size_t pt_checked_bytes(uint64_t n_local, uint64_t offset, uint64_t n_global,
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
    bytes[k] = pt_checked_bytes(nl, cuts[k], N, type, op, flags, pw);
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
  unsigned char *in = bt_room_for(&pt_in_mem, itotal);
  B->put(in, img, itotal);

  /* the partials, each followed by a canary */
  unsigned char *P = bt_room_for(&pt_made, ptotal);
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
    unsigned char *in2 = bt_room_for(&pt_again_mem, total);
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
  unsigned char *S = bt_room_for(&sorted, sum), *C = bt_room_for(&pt_cat, sum);
  unsigned char *M = HH ? bt_room_for(&pt_mixed, sum) : NULL;
  for (size_t k = 0, at = 0; k < K; at += bytes[k], ++k) memcpy(S + at, P + ppos[k], bytes[k]);
  for (size_t k = 0, at = 0; k < K; at += bytes[perm[k]], ++k) {
    memcpy(C + at, P + ppos[perm[k]], bytes[perm[k]]);
    if (M) memcpy(M + at, (perm[k] % 2 ? Q : P) + ppos[perm[k]], bytes[perm[k]]);
  }

  /* the combines, on the backend's handle and memory */
  unsigned char ob[16 + CANARY];
  void *out = bt_room_for(&pt_out_mem, sizeof ob);
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
  void *x = bt_room_for(&pt_data, n * TU_TYPE(type)->size);
  struct pt_array a = {x, n, type, op, flags, pt_fill(&r, type, op, 0, x, n), 0, {{0, 0}}};
  pt_prepare(&a);
  struct pt_split sp;
  for (size_t f = 0; f < nfamilies; ++f)
    if (pt_make_split(families[f], n, type, &r, &sp)) pt_check_split(&a, &sp, &r);
}
