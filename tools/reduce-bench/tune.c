/*
 * tune.c - reduce-bench --tune (see modes.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gpureduce.h"

#include "bench.h"
#include "modes.h"
#include "options.h"
#include "report.h"
#include "run.h"
#include "timing.h"

enum { TC_N_LABEL, TC_N, TC_DEF_BLOCKS, TC_DEF_US, TC_TUNED_BLOCKS, TC_TUNED_US, TC_NOISE,
       TC_GAIN, TC_COUNT };

static const struct column tune_columns[TC_COUNT] = {
    [TC_N_LABEL] = {"n_label", "n", 0, SHOW_TEXT, 1},
    [TC_N] = {"n", "elements", 0, SHOW_ALL, 0},
    [TC_DEF_BLOCKS] = {"default_blocks", "default blocks", 0, SHOW_ALL, 0},
    [TC_DEF_US] = {"default_us", "default us", 2, SHOW_ALL, 0},
    [TC_TUNED_BLOCKS] = {"tuned_blocks", "tuned blocks", 0, SHOW_ALL, 0},
    [TC_TUNED_US] = {"tuned_us", "tuned us", 2, SHOW_ALL, 0},
    [TC_NOISE] = {"noise_us", "noise us", 2, SHOW_ALL, 0},
    [TC_GAIN] = {"speedup", "speedup", 3, SHOW_ALL, 0},
};

static const char *cache_state_text(gpureduce_tune_cache_t s) {
  switch (s) {
    case GPUREDUCE_TUNE_CACHE_ABSENT: return "no cache file";
    case GPUREDUCE_TUNE_CACHE_LOADED: return "loaded";
    case GPUREDUCE_TUNE_CACHE_DISABLED: return "disabled (GPUREDUCE_TUNE=off)";
    case GPUREDUCE_TUNE_CACHE_FOREIGN: return "ignored: made for another device, driver or version";
    case GPUREDUCE_TUNE_CACHE_CORRUPT: return "ignored: corrupt";
    case GPUREDUCE_TUNE_CACHE_UNREADABLE: return "ignored: unreadable";
  }
  return "unknown";
}

void describe_cache(struct run *run) {
  gpureduce_tune_cache_t state;
  const char *path = NULL;
  if (!run->cuda || gpureduce_tune_cache_state(run->h, &state, &path) != GPUREDUCE_SUCCESS) return;
  add_head(run, "tuning cache: %s%s%s", cache_state_text(state), path ? ", " : "",
           path ? path : "");
}

int run_tune(struct run *run) {
  const struct options *o = run->opt;
  gpureduce_tune_row_t rows[64];
  size_t count = 0;
  struct table t;
  progress(" tuning %s %s ...", gpureduce_type_name(o->type), gpureduce_op_name(o->op));
  const double t0 = host_now_ms();
  const gpureduce_status_t s = gpureduce_autotune(run->h, o->type, o->op, o->flags,
                                                  o->n, rows, 64, &count);
  const double seconds = (host_now_ms() - t0) / 1e3;
  progress(" ");
  if (s != GPUREDUCE_SUCCESS && s != GPUREDUCE_ERROR_TUNE_CACHE)
    library_failed(run->h, s, "gpureduce_autotune");
  table_init(&t, tune_columns, TC_COUNT);
  for (size_t i = 0; i < count && i < 64; ++i) {
    struct row *r = table_add(&t);
    char nl[32];
    set_text(r, TC_N_LABEL, "%s", label_n(rows[i].n, nl, sizeof nl));
    set_num(r, TC_N, (double)rows[i].n);
    set_num(r, TC_DEF_BLOCKS, rows[i].default_blocks);
    set_num(r, TC_DEF_US, rows[i].default_us);
    set_num(r, TC_TUNED_BLOCKS, rows[i].tuned_blocks);
    set_num(r, TC_TUNED_US, rows[i].tuned_us);
    set_num(r, TC_NOISE, rows[i].noise_us);
    set_num(r, TC_GAIN, rows[i].tuned_us > 0 ? rows[i].default_us / rows[i].tuned_us : 0.0);
  }
  gpureduce_tune_cache_t state;
  const char *path = NULL;
  if (gpureduce_tune_cache_state(run->h, &state, &path) != GPUREDUCE_SUCCESS) path = NULL;
  add_summary(run, "tuned %zu size buckets in %.1f s; %s", count, seconds,
              s == GPUREDUCE_SUCCESS
                  ? (getenv("GPUREDUCE_TUNE") && !strcmp(getenv("GPUREDUCE_TUNE"), "off")
                         ? "not saved (GPUREDUCE_TUNE=off)"
                         : "saved in the tuning cache")
                  : gpureduce_last_message(run->h));
  if (path) add_note(run, "cache file: %s", path);
  add_note(run, "time: median per call of 10 timed batches (CUDA events); a tuned count "
                "replaces the default only when faster by more than the noise (half the "
                "interquartile range of the default's batches)");
  print_report(run, &t);
  return s == GPUREDUCE_SUCCESS ? EXIT_OK : EXIT_WRONG;
}
