/*
 * bench.c - fatal errors and host memory for reduce-bench (see bench.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

const char *program_name = PROGRAM;

void vmessage(const char *fmt, va_list ap) {
  fprintf(stderr, "%s: ", program_name);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void message(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(fmt, ap);
  va_end(ap);
}

_Noreturn void fatal(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(fmt, ap);
  va_end(ap);
  exit(status);
}

_Noreturn void usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(fmt, ap);
  va_end(ap);
  fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
  exit(EXIT_USAGE);
}

void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) fatal(EXIT_WRONG, "out of host memory (%zu bytes)", bytes);
  return p;
}

void *xmalloc_aligned(size_t bytes) {
  const size_t rounded = (bytes + 63) / 64 * 64;
  void *p = aligned_alloc(64, rounded ? rounded : 64);
  if (!p) fatal(EXIT_WRONG, "out of host memory (%zu bytes)", bytes);
  return p;
}

unsigned ceil_log2(uint64_t v) {
  unsigned k = 0;
  while (k < 64 && ((uint64_t)1 << k) < v) ++k;
  return k;
}
