/*
 * bench.h - what every part of reduce-bench shares: its name, its exit
 * statuses, fatal errors, host memory.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * reduce-bench is a program: its functions may print and exit.  The parts:
 *   options.c  the command line, --help (the source of reduce-bench(1))
 *   run.c      one run: backend, handle, clock, buffers, the library's call
 *   timing.c   clocks, batches, medians, the probe's fastest grid
 *   report.c   tables as text or CSV
 *   checks.c   what a result must be, against the tests' reference
 *   modes.h    the modes: ladder.c, sweep.c, batched.c, segments.c (with
 *              lengths.c, the segment lengths), dot.c (with cublas.c),
 *              tune.c; vectors.c, the batched and segmented checks
 *   bench_cuda.cu  the CUDA side (fills, events, the probe)
 *   bench_cub.cu   CUB's and cuBLAS's calls
 *   main.c     the mode the options choose
 */
#ifndef REDUCE_BENCH_BENCH_H
#define REDUCE_BENCH_BENCH_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define PROGRAM "reduce-bench"

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

enum {
  EXIT_OK = 0,       /* every result right */
  EXIT_WRONG = 1,    /* a wrong result, a CUDA or allocation failure */
  EXIT_USAGE = 2,    /* bad option or value */
  EXIT_NO_DEVICE = 3 /* --backend cuda (or --device D) and no such device */
};

/* The name messages start with: PROGRAM, or bench/grid-1d's. */
extern const char *program_name;

/* One line on stderr: "reduce-bench: " and the message. */
void vmessage(const char *fmt, va_list ap);
void message(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* vmessage, then exit(status). */
_Noreturn void fatal(int status, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* A bad option or value: the message, then "Try 'NAME --help' for more
 * information." (getopt_long's programs' hint), exit(EXIT_USAGE). */
_Noreturn void usage_error(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* malloc, and fatal(EXIT_WRONG, ...) when it fails. */
void *xmalloc(size_t bytes);
/* 64-byte aligned host memory. */
void *xmalloc_aligned(size_t bytes);

/* ceil(log2(v)); 0 for v <= 1. */
unsigned ceil_log2(uint64_t v);

#endif /* REDUCE_BENCH_BENCH_H */
