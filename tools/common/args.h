/*
 * args.h - what reduce-bench and reduce-bench-mpi read alike on their
 * command lines: counts ("2^K", "2^K+M", "2^K-M", "D", "DK", "DM", "DG")
 * and the names of gpureduce's types and operations.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GR_TOOLS_ARGS_H
#define GR_TOOLS_ARGS_H

#include <stdint.h>

/* The decimal digits at *p (advanced past them) into *v; -1 when there
 * are none or they overflow 64 bits. */
int args_decimal(const char **p, uint64_t *v);

/* The count s into *out; -1 on garbage or overflow. */
int args_count(const char *s, uint64_t *out);

/* The gpureduce_type_t / gpureduce_op_t named s (gpureduce_type_name(),
 * gpureduce_op_name()), or -1. */
int args_type(const char *s);
int args_op(const char *s);

#endif /* GR_TOOLS_ARGS_H */
