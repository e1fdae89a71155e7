/*
 * test-mpi-reduce.h - what the parts of tests/mpi/test-mpi-reduce share
 * (test-mpi-reduce.c says what the program tests and how): the run and
 * its TAP lines, the injected failure, the data and partitions, the
 * combinations of a type, where a rank's part lives, and the suites.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_TEST_MPI_REDUCE_H
#define GPUREDUCE_TEST_MPI_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "gpureduce_mpi.h"

#include "elements.h"
#include "rng.h"

/* 1 where the program can interpose gpureduce_partial_reduce() (shared
 * libraries and dlsym: Makefile.am passes -DGR_TEST_INTERPOSE=1), else 0. */
#ifndef GR_TEST_INTERPOSE
#define GR_TEST_INTERPOSE 0
#endif

#if defined(__GNUC__)
#define MR_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define MR_PRINTF(f, a)
#endif

/* ---- the run (test-mpi-reduce.c) ------------------------------------------- */

extern int g_rank, g_size;
extern MPI_Comm g_comm;          /* MPI_COMM_WORLD */
extern gpureduce_handle_t g_host; /* every rank's host handle */
extern uint64_t g_seed;           /* rank 0's tu_seed(), broadcast */

/* The first diagnostic of this rank since the last tap(). */
extern char g_diag[400];
extern int g_bad; /* this rank's failures since the last tap() */

/* A failure of this rank; the first since the last tap() is its
 * diagnostic. */
void bad(const char *fmt, ...) MR_PRINTF(1, 2);
/* One TAP line, from every rank's failures since the last one. */
void tap(const char *fmt, ...) MR_PRINTF(1, 2);
/* One TAP line that skips, saying why. */
void skip(const char *why, const char *fmt, ...) MR_PRINTF(2, 3);
/* Every rank's value equal? */
int all_equal_int(int v);

/* ---- an injected failure of gpureduce_partial_reduce() (test-mpi-reduce.c) -- */

/* The rank whose calls fail (-1: none), and with what. */
extern int g_inject_rank;
extern gpureduce_status_t g_inject_status;
extern long g_partial_calls; /* calls that went through the interposer */

/* ---- data and partitions (reduce-data.c) ------------------------------------- */

uint64_t mix(uint64_t x);

enum data_kind { D_PLAIN, D_SPECIAL, D_TIES, D_KINDS };
extern const char *const data_names[D_KINDS];

/* Element i of the array of (type, kind, seed); `prod' asks for values
 * whose product stays in range (near 1 in magnitude, some negative). */
uint64_t element(gpureduce_type_t type, enum data_kind kind, int prod, uint64_t seed, uint64_t i);
void fill(void *buf, gpureduce_type_t type, enum data_kind kind, int prod, uint64_t seed,
          size_t n);

enum part_kind { P_EVEN, P_RANDOM, P_ONE, P_TINY, P_IN_TILE, P_EMPTY_ALT, P_TILE_EDGES, P_KINDS };
extern const char *const part_names[P_KINDS];

/* counts[0 .. size-1] of the partition `kind' of n elements over size
 * ranks (tiles of te elements), the same on every rank for the same
 * label. */
void partition(enum part_kind kind, uint64_t n, uint64_t te, int size, const char *label,
               uint64_t *counts);

/* ---- the reductions against the reference (reduce-bits.c) --------------------- */

typedef struct combo {
  gpureduce_op_t op;
  unsigned flags;
  size_t rs; /* result bytes */
} combo;
#define MAX_COMBOS 24

/* What rank 0's one gpureduce_reduce() gave. */
typedef struct expect {
  int32_t status;
  uint32_t pad;
  unsigned char bytes[16];
} expect;

/* Where a rank's part and result live. */
enum backend { B_HOST, B_CUDA };

typedef struct place {
  enum backend backend;
  gpureduce_handle_t handle;
  void *dev_in;        /* CUDA: device copy of the part */
  size_t dev_in_bytes; /* its capacity */
  void *dev_out;       /* CUDA: 16 bytes of device memory */
} place;

/* 1 for cudaSuccess, else 0 after bad() says what failed. */
int cuda_ok(cudaError_t e, const char *what);

typedef struct suite {
  const char *name;      /* for the TAP lines */
  int cuda_even, cuda_odd; /* which ranks use their CUDA place */
  int big;               /* the full list of lengths and partitions */
} suite;

/* One type: every combination, lengths and partitions; one TAP line per
 * combination. */
void run_type(const suite *su, place *mine, gpureduce_type_t type);

/* ---- errors, the steady state, communicators, CUDA ---------------------------- */

/* (reduce-errors.c) Call gpureduce_mpi_reduce with this rank's arguments
 * and check: status want, the same on every rank; output untouched; the
 * message (when the handle exists) holds `says'; with `same_text', it is
 * the same text on every rank that has a handle. */
void expect_error(const void *in, void *out, size_t n_local, gpureduce_type_t type,
                  gpureduce_op_t op, unsigned flags, gpureduce_handle_t h,
                  gpureduce_status_t want, const char *says, int same_text, const char *fmt,
                  ...) MR_PRINTF(11, 12);
void run_errors(void);
/* (reduce-steady.c) */
void run_steady(void);
/* (reduce-comms.c) */
void run_communicators(void);
/* (reduce-cuda.c) A CUDA handle of this rank in *pl (device: node-local
 * rank modulo the device count); 0 when it cannot have one. */
int cuda_place(place *pl);
void run_cuda(place *host, place *cuda);

#endif /* GPUREDUCE_TEST_MPI_REDUCE_H */
