/*
 * main.c - reduce-bench, the gpureduce benchmark: the mode the options
 * choose (modes.h); bench.h lists the parts.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "modes.h"
#include "options.h"
#include "report.h"
#include "run.h"

int main(int argc, char **argv) {
  static int (*const modes[])(struct run *) = {
      [MODE_LADDER] = run_ladder,   [MODE_SWEEP] = run_sweep, [MODE_BATCHED] = run_batched,
      [MODE_SEGMENTS] = run_segments, [MODE_DOT] = run_dot,   [MODE_TUNE] = run_tune};
  struct options o;
  struct run run;
  char what[64];
  parse_options(argc, argv, &o);
  open_run(&run, &o, o.mode == MODE_TUNE);
  add_head(&run, "operation: %s, offset %zu element(s)", what_text(&o, what, sizeof what),
           o.offset);
  describe_cache(&run);
  const int status = modes[o.mode](&run);
  close_run(&run);
  return status;
}
