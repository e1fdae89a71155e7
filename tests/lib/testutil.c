/*
 * testutil.c - see testutil.h.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "testutil.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- random numbers ------------------------------------------------------- */

int tu_seed_setup(void **state) {
  (void)state;
  tu_announce_seed();
  return 0;
}

void tu_announce_seed(void) {
  static int done = 0;
  if (!done) {
    print_message("# seed %" PRIu64 " (set GPUREDUCE_TEST_SEED to change it)\n", tu_seed());
    done = 1;
  }
}

/* ---- the group ------------------------------------------------------------- */

size_t tu_leave_out(struct CMUnitTest *tests, size_t count, const CMUnitTestFunction *out,
                    size_t n_out, const char *why) {
  size_t kept = 0, left = 0;
  for (size_t i = 0; i < count; ++i) {
    size_t k = 0;
    while (k < n_out && out[k] != tests[i].test_func) ++k;
    if (k == n_out) {
      tests[kept++] = tests[i];
      continue;
    }
    if (left++)
      print_message(", %s", tests[i].name);
    else
      print_message("# %s: left out: %s", why, tests[i].name);
  }
  if (left) print_message("\n");
  return kept;
}

/* ---- element patterns that fail the test ------------------------------- */

uint64_t tu_pattern(gpureduce_type_t type, double v) {
  uint64_t bits = 0;
  if (tu_pattern_of(type, v, &bits) != 0)
    fail_msg("tu_pattern: %.17g is not a %s value (it would round or overflow, or %s is not "
             "a floating type)",
             v, TU_TYPE(type)->name, TU_TYPE(type)->name);
  return bits;
}

/* ---- checks ---------------------------------------------------------------- */

/* The names of gpureduce_tune_cache_t, written out from gpureduce.h. */
static const char *tune_cache_name(gpureduce_tune_cache_t c) {
  static const char *const names[] = {
      "GPUREDUCE_TUNE_CACHE_ABSENT",  "GPUREDUCE_TUNE_CACHE_LOADED",
      "GPUREDUCE_TUNE_CACHE_DISABLED", "GPUREDUCE_TUNE_CACHE_FOREIGN",
      "GPUREDUCE_TUNE_CACHE_CORRUPT", "GPUREDUCE_TUNE_CACHE_UNREADABLE"};
  return (unsigned)c < COUNT(names) ? names[c] : "(not a tuning cache state)";
}

static void what_failed(const char *file, int line, const char *fmt, va_list ap) {
  char what[512];
  vsnprintf(what, sizeof what, fmt, ap);
  print_error("%s:%d: check failed: %s\n", file, line, what);
}

void tu_check_bits(const char *file, int line, uint64_t wanted, uint64_t seen,
                   const char *fmt, ...) {
  if (wanted == seen) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    wanted 0x%016" PRIx64 " (%" PRIu64 ", as int64 %" PRId64 ")\n", wanted,
              wanted, (int64_t)wanted);
  print_error("    seen   0x%016" PRIx64 " (%" PRIu64 ", as int64 %" PRId64 ")\n", seen, seen,
              (int64_t)seen);
  _fail(file, line);
}

/* Both values of an enum check that failed, by name and number. */
static void names_differ(const char *file, int line, const char *wanted_name, int wanted,
                         const char *seen_name, int seen) {
  print_error("    wanted %s (%d)\n    seen   %s (%d)\n", wanted_name, wanted, seen_name, seen);
  _fail(file, line);
}

void tu_check_status(const char *file, int line, gpureduce_status_t wanted,
                     gpureduce_status_t seen, const char *fmt, ...) {
  if (wanted == seen) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  names_differ(file, line, tu_status_label(wanted), (int)wanted, tu_status_label(seen), (int)seen);
}

void tu_check_tune_cache(const char *file, int line, gpureduce_tune_cache_t wanted,
                         gpureduce_tune_cache_t seen, const char *fmt, ...) {
  if (wanted == seen) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  names_differ(file, line, tune_cache_name(wanted), (int)wanted, tune_cache_name(seen),
               (int)seen);
}

void tu_check_true(const char *file, int line, int cond, const char *fmt, ...) {
  if (cond) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  _fail(file, line);
}

void tu_check_string(const char *file, int line, const char *wanted, const char *seen,
                     const char *fmt, ...) {
  if ((!wanted && !seen) || (wanted && seen && strcmp(wanted, seen) == 0)) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    wanted \"%s\"\n    seen   \"%s\"\n", wanted ? wanted : "(NULL)",
              seen ? seen : "(NULL)");
  _fail(file, line);
}

void tu_check_near(const char *file, int line, long double ref, double seen, double bound,
                   const char *fmt, ...) {
  const long double err = fabsl((long double)seen - ref);
  if (seen == seen && err <= (long double)bound) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    reference %.21Lg\n    seen      %.17g (bits 0x%016" PRIx64 ")\n"
              "    error     %.6Lg > bound %.6g\n",
              ref, seen, tu_f64_bits(seen), err, bound);
  _fail(file, line);
}

void tu_check_bytes(const char *file, int line, const void *buf, unsigned char byte,
                    size_t len, const char *fmt, ...) {
  const unsigned char *p = buf;
  size_t i = 0;
  while (i < len && p[i] == byte) ++i;
  if (i == len) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    byte %zu of %zu is 0x%02x, wanted 0x%02x\n", i, len, p[i], byte);
  _fail(file, line);
}

/* ---- small things ---------------------------------------------------------- */

int tu_next_case(struct tc_walk *w, struct tc_case *c) {
  const int r = tc_next(w, c);
  if (r < 0) fail_msg("%s: cannot allocate the test data of a case", w->plan->stream);
  return r > 0;
}

int tu_make_tmpdir(char *dir, size_t cap, const char *name) {
  const char *tmp = getenv("TMPDIR");
  const int k = snprintf(dir, cap, "%s/gpureduce-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
  if (k < 0 || (size_t)k >= cap) {
    print_error("the temporary directory's name is over %zu bytes\n", cap);
    return -1;
  }
  if (!mkdtemp(dir)) {
    print_error("cannot create a temporary directory %s\n", dir);
    return -1;
  }
  return 0;
}

int tu_remove_tmpdir(const char *dir) {
  char cmd[1100];
  const int k = snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return k > 0 && (size_t)k < sizeof cmd && system(cmd) == 0 ? 0 : -1;
}

int tu_mentions(const char *text, const char *word) {
  const size_t n = strlen(word);
  for (const char *p = text; *p; ++p) {
    size_t i = 0;
    while (i < n && p[i] && tolower((unsigned char)p[i]) == tolower((unsigned char)word[i])) ++i;
    if (i == n) return 1;
  }
  return 0;
}

void *tu_alloc(size_t bytes) {
  void *p = NULL;
  size_t rounded = (bytes + 255) & ~(size_t)255;
  if (rounded == 0) rounded = 256;
  if (posix_memalign(&p, 256, rounded) != 0 || !p)
    fail_msg("cannot allocate %zu bytes of host memory", bytes);
  return p;
}
