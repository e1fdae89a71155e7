/*
 * main.c - reduce-bench, the gpureduce benchmark.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * With no argument it runs the ladder: the six classic reduction kernels
 * (gpureduce_ladder_sum_f32), the library's production path, CUB and a
 * read-only bandwidth probe on n = 2^24 - 611 floats that are all 1.0, so
 * every partial sum is exact and every result is checked exactly.
 * --sweep times one operation over n = 2^10 .. 2^30 on random data made on
 * the device, --sweep-1d every operation and type at a few sizes and two
 * alignments; --batch and --sweep-batched time the batched reduction of
 * the rows or columns of a matrix; --segments and --sweep-segments the
 * segmented reduction of CSR offsets; --op dot the dot product beside
 * cuBLAS.  Without a GPU the host backend
 * runs the same tables.
 *
 * The modes live in ladder.c, sweep.c, sweep1d.c, batched.c, segments.c and tune.c,
 * the CUDA work (fills, events, CUB, the probe) in bench_cuda.cu; bench.h
 * lists every part.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "batched.h"
#include "dot.h"
#include "ladder.h"
#include "options.h"
#include "run.h"
#include "segments.h"
#include "sweep.h"
#include "tune.h"

int main(int argc, char **argv) {
  struct options o;
  struct run run;
  parse_options(argc, argv, &o);
  open_run(&run, &o);
  describe_cache(&run);
  int status;
  if (o.tune)
    status = run_tune(&run);
  else if (o.dot)
    status = run_dot(&run);
  else if (o.sweep)
    status = run_sweep(&run);
  else if (o.sweep_1d)
    status = run_sweep_1d(&run);
  else if (is_batched(&o))
    status = run_batched(&run);
  else if (is_segmented(&o))
    status = run_segments(&run);
  else
    status = run_ladder(&run);
  close_run(&run);
  return status;
}
