/*
 * lengths.c - the segment lengths of reduce-bench's segmented modes (see
 * lengths.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "lengths.h"

#include "args.h"

#define MAX_N ((uint64_t)1 << 40)
#define MAX_ZIPF_MAX ((uint64_t)1 << 24) /* zipf:S:MAX: a table of MAX doubles */
#define MAX_ZIPF_EXPONENT 100.0
#define SEED 1 /* of the lengths */
#define DIST_SYNTAX "uniform:L, random:L, zipf:S:MAX, huge:A:B or huge:A:B:K"

/* The L of --sweep-segments's uniform:L and random:L (those below its
 * element count; then uniform:n): the row lengths of --sweep-batched. */
static const uint64_t sweep_lengths[] = {
    1, 2, 4, 8, 32, 128, 512, 4096, 65536, (uint64_t)1 << 20, (uint64_t)1 << 24};
/* The rest of --sweep-segments: the skewed distributions. */
#define SWEEP_ZIPF_EXPONENT 1.5
#define SWEEP_ZIPF_MAX ((uint64_t)1 << 20)
#define SWEEP_HUGE_LO 1
#define SWEEP_HUGE_HI 64
#define SWEEP_HUGE_SMALL_PER 256 /* huge:1:64:K with K = n / 256 (2^20 at 2^28) */

/* ---- DIST ------------------------------------------------------------------- */

const char *dist_kind_name(const struct seg_dist *d) {
  static const char *const names[] = {"uniform", "random", "zipf", "huge"};
  return names[d->kind];
}

const char *dist_text(const struct seg_dist *d, char *buf, size_t size) {
  const unsigned long long a = d->lo, b = d->hi, k = d->small;
  if (d->kind == SEG_UNIFORM || d->kind == SEG_RANDOM)
    snprintf(buf, size, "%s:%llu", dist_kind_name(d), (unsigned long long)d->length);
  else if (d->kind == SEG_ZIPF)
    snprintf(buf, size, "zipf:%g:%llu", d->exponent, (unsigned long long)d->max);
  else if (d->small)
    snprintf(buf, size, "huge:%llu:%llu:%llu", a, b, k);
  else
    snprintf(buf, size, "huge:%llu:%llu", a, b);
  return buf;
}

/* Field `name` of DIST as a count from min to max (the syntax of --n). */
static int dist_count(const char *arg, const char *field, const char *name, uint64_t min,
                      uint64_t max, uint64_t *v, char *why, size_t why_size) {
  if (args_count(field, v)) {
    snprintf(why, why_size, "%s: %s '%s' is not a count (a decimal number, 2^K or 16M style)",
             arg, name, field);
    return -1;
  }
  if (*v >= min && *v <= max) return 0;
  snprintf(why, why_size, "%s: %s = %s is out of range (%llu to %llu)", arg, name, field,
           (unsigned long long)min, (unsigned long long)max);
  return -1;
}

int dist_parse(const char *arg, struct seg_dist *d, char *why, size_t why_size) {
  char buf[128], *field[5];
  int nf = 0;
  memset(d, 0, sizeof *d);
  if (strlen(arg) >= sizeof buf) {
    snprintf(why, why_size, "'%.40s...' is not a distribution (" DIST_SYNTAX ")", arg);
    return -1;
  }
  strcpy(buf, arg);
  char *p = buf;
  while (p && nf < 5) {
    field[nf++] = p;
    if ((p = strchr(p, ':'))) *p++ = '\0';
  }
  const char *kind = field[0];
  const int known = !strcmp(kind, "uniform") || !strcmp(kind, "random") ||
                    !strcmp(kind, "zipf") || !strcmp(kind, "huge");
  const int fields = kind[0] == 'u' || kind[0] == 'r' ? 2 : kind[0] == 'z' ? 3 : 0;
  if (!known || p) {
    snprintf(why, why_size, "'%s' is not a distribution (" DIST_SYNTAX ")", arg);
    return -1;
  }
  if (fields ? nf != fields : nf != 3 && nf != 4) {
    snprintf(why, why_size, "'%s': %s takes %s", arg, kind,
             kind[0] == 'u'   ? "one field, uniform:L"
             : kind[0] == 'r' ? "one field, random:L"
             : kind[0] == 'z' ? "two fields, zipf:S:MAX"
                              : "two or three fields, huge:A:B or huge:A:B:K");
    return -1;
  }
  if (kind[0] == 'u' || kind[0] == 'r') {
    d->kind = kind[0] == 'u' ? SEG_UNIFORM : SEG_RANDOM;
    return dist_count(arg, field[1], "L", 1, MAX_N, &d->length, why, why_size);
  }
  if (kind[0] == 'z') {
    char *end;
    d->kind = SEG_ZIPF;
    d->exponent = strtod(field[1], &end);
    if (!*field[1] || *end || !isfinite(d->exponent) || !(d->exponent > 0) ||
        d->exponent > MAX_ZIPF_EXPONENT || !(isdigit((unsigned char)*field[1]) || *field[1] == '.')) {
      snprintf(why, why_size, "%s: S '%s' is not an exponent (a decimal number above 0, at most %g)",
               arg, field[1], MAX_ZIPF_EXPONENT);
      return -1;
    }
    return dist_count(arg, field[2], "MAX", 1, MAX_ZIPF_MAX, &d->max, why, why_size);
  }
  d->kind = SEG_HUGE;
  /* huge:A:B draws until the lengths reach N/2: B >= 1 */
  if (dist_count(arg, field[1], "A", 0, MAX_N, &d->lo, why, why_size) ||
      dist_count(arg, field[2], "B", nf == 3 ? 1 : 0, MAX_N, &d->hi, why, why_size) ||
      (nf == 4 && dist_count(arg, field[3], "K", 1, MAX_N, &d->small, why, why_size)))
    return -1;
  if (d->lo <= d->hi) return 0;
  snprintf(why, why_size, "%s: A is above B", arg);
  return -1;
}

int dist_fits(const struct seg_dist *d, uint64_t n, char *why, size_t why_size) {
  char dt[96];
  dist_text(d, dt, sizeof dt);
  if (d->kind == SEG_UNIFORM && d->length > n)
    snprintf(why, why_size, "%s: L is above the --n elements (%llu)", dt, (unsigned long long)n);
  else if (d->kind == SEG_HUGE && n < 2)
    snprintf(why, why_size, "%s: the huge segment needs --n 2 or more", dt);
  /* K segments of at most B leave at least one element to the huge one */
  else if (d->kind == SEG_HUGE && d->small && d->hi && d->small > (n - 1) / d->hi)
    snprintf(why, why_size, "%s: K x B = %llu x %llu is not below the --n elements (%llu)", dt,
             (unsigned long long)d->small, (unsigned long long)d->hi, (unsigned long long)n);
  else
    return 0;
  return -1;
}

int sweep_dists(uint64_t n, struct seg_dist *rows) {
  int count = 0;
  const size_t nl = sizeof sweep_lengths / sizeof sweep_lengths[0];
  for (int kind = SEG_UNIFORM; kind <= SEG_RANDOM; ++kind) {
    for (size_t i = 0; i < nl; ++i)
      if (sweep_lengths[i] < n)
        rows[count++] = (struct seg_dist){.kind = (enum seg_kind)kind, .length = sweep_lengths[i]};
    if (kind == SEG_UNIFORM) rows[count++] = (struct seg_dist){.kind = SEG_UNIFORM, .length = n};
  }
  rows[count++] = (struct seg_dist){.kind = SEG_ZIPF,
                                    .exponent = SWEEP_ZIPF_EXPONENT,
                                    .max = SWEEP_ZIPF_MAX < n ? SWEEP_ZIPF_MAX : n};
  if (n >= 2)
    rows[count++] = (struct seg_dist){.kind = SEG_HUGE, .lo = SWEEP_HUGE_LO, .hi = SWEEP_HUGE_HI};
  if (n / SWEEP_HUGE_SMALL_PER >= 1)
    rows[count++] = (struct seg_dist){
        .kind = SEG_HUGE, .lo = SWEEP_HUGE_LO, .hi = SWEEP_HUGE_HI, .small = n / SWEEP_HUGE_SMALL_PER};
  return count;
}

/* ---- the offsets --------------------------------------------------------------- */

/* splitmix64: the state advances by the golden ratio, the output is its
 * finalizer (the bench's input fill uses the same mix). */
struct rng {
  uint64_t state;
};

static uint64_t rng_next(struct rng *r) {
  uint64_t x = (r->state += 0x9e3779b97f4a7c15ull);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* 0 .. m-1 (m >= 1), as the next output mod m: a bias below m / 2^64. */
static uint64_t rng_below(struct rng *r, uint64_t m) { return rng_next(r) % m; }

/* [0, 1) in steps of 2^-53. */
static double rng_unit(struct rng *r) { return (double)(rng_next(r) >> 11) * 0x1p-53; }

static void layout_reserve(struct seg_layout *l, size_t segments) {
  if (segments + 1 <= l->cap) return;
  size_t cap = l->cap ? l->cap : 1024;
  while (cap < segments + 1) cap *= 2;
  uint64_t *grown = realloc(l->off, cap * sizeof *grown);
  if (!grown)
    fatal(EXIT_WRONG, "out of host memory (offsets of %zu segments: %zu bytes)", segments,
          cap * sizeof *grown);
  l->off = grown;
  l->cap = cap;
}

static void layout_push(struct seg_layout *l, uint64_t length) {
  layout_reserve(l, l->segments + 1);
  l->off[l->segments + 1] = l->off[l->segments] + length;
  ++l->segments;
}

/* One more segment of `length` elements at index `at`, the later ones
 * moved up by one. */
static void layout_insert(struct seg_layout *l, size_t at, uint64_t length) {
  layout_reserve(l, l->segments + 1);
  for (size_t i = l->segments + 1; i > at + 1; --i) l->off[i] = l->off[i - 1] + length;
  l->off[at + 1] = l->off[at] + length;
  ++l->segments;
}

/* A length drawn from d: random:L uniform on 0..2L; zipf:S:MAX k with
 * probability k^-S / cdf[max-1] (cdf[k-1] = sum of j^-S for j = 1..k, the
 * smallest k whose cdf is above u x cdf[max-1]); huge uniform on A..B. */
static uint64_t draw(struct rng *r, const struct seg_dist *d, const double *cdf, uint64_t max) {
  if (d->kind == SEG_RANDOM) return rng_below(r, 2 * d->length + 1);
  if (d->kind == SEG_HUGE) return d->lo + rng_below(r, d->hi - d->lo + 1);
  const double u = rng_unit(r) * cdf[max - 1];
  uint64_t lo = 0, hi = max - 1; /* the answer's index is in [lo, hi] */
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (cdf[mid] > u)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo + 1;
}

/* Segments drawn from d until they hold `total` more elements, the last
 * one cut to end there. */
static void layout_fill(struct seg_layout *l, uint64_t total, struct rng *r,
                        const struct seg_dist *d, const double *cdf, uint64_t max) {
  const uint64_t end = l->off[l->segments] + total;
  while (l->off[l->segments] < end) {
    uint64_t len = draw(r, d, cdf, max);
    if (len > end - l->off[l->segments]) len = end - l->off[l->segments];
    layout_push(l, len);
  }
}

/*
 *   uniform:L   n / L segments of L, then one of n mod L when that is not 0;
 *   random:L    lengths uniform on 0..2L;
 *   zipf:S:MAX  lengths k = 1..min(MAX, n) with probability k^-S / sum;
 *   huge:A:B    n - n/2 elements in lengths uniform on A..B, then one
 *               segment of n/2 inserted in the middle of them (index
 *               floor(count / 2));
 *   huge:A:B:K  K lengths uniform on A..B, then one segment of the rest
 *               inserted in their middle (index floor(K / 2)).
 * random, zipf and huge:A:B cut the last segment drawn to end at n.
 */
void make_layout(const struct seg_dist *d, uint64_t n, struct seg_layout *l) {
  struct rng r = {SEED};
  memset(l, 0, sizeof *l);
  layout_reserve(l, d->kind == SEG_UNIFORM ? (size_t)(n / d->length + 1) : 0);
  l->off[0] = 0;
  if (d->kind == SEG_UNIFORM) {
    for (uint64_t s = 0; s < n / d->length; ++s) layout_push(l, d->length);
    if (n % d->length) layout_push(l, n % d->length);
  } else if (d->kind == SEG_RANDOM) {
    layout_fill(l, n, &r, d, NULL, 0);
  } else if (d->kind == SEG_ZIPF) {
    const uint64_t max = d->max < n ? d->max : n;
    double *cdf = xmalloc((size_t)max * sizeof *cdf), sum = 0.0;
    for (uint64_t k = 1; k <= max; ++k) cdf[k - 1] = sum += pow((double)k, -d->exponent);
    layout_fill(l, n, &r, d, cdf, max);
    free(cdf);
  } else {
    uint64_t huge;
    if (d->small) {
      for (uint64_t k = 0; k < d->small; ++k) layout_push(l, draw(&r, d, NULL, 0));
      huge = n - l->off[l->segments];
    } else {
      huge = n / 2;
      layout_fill(l, n - huge, &r, d, NULL, 0);
    }
    layout_insert(l, l->segments / 2, huge);
  }
  l->min = UINT64_MAX;
  for (size_t s = 0; s < l->segments; ++s) {
    const uint64_t len = l->off[s + 1] - l->off[s];
    if (len < l->min) l->min = len;
    if (len > l->max || s == 0) l->max = len, l->longest = s;
    l->empty += len == 0;
  }
}
