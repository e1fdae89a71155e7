/*
 * mpi/mpi.c - libgpureduce_mpi: gpureduce_mpi_reduce() (gpureduce_mpi.h),
 * an array spread over the ranks of a communicator reduced to the bits of
 * one gpureduce_reduce(), on top of the core's partial results
 * (gpureduce/partial.h; doc/ORDER.md, "Partial results").
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * One call, on every rank:
 *   0. local checks of this rank's arguments, into a status and a reason
 *      (no communication, no early return: every rank goes on to 1);
 *   1. MPI_Allgather of fixed slots: a 48-byte descriptor (struct
 *      gr_mpi_desc), and, when the communicator remembers the partition
 *      of the last call that got as far as 3 (the steady state, below),
 *      an 8-byte status prefix and this rank's partial of its part at the
 *      offset that partition gives.  Every rank learns every rank's n_local,
 *      (type, op, flags) and local outcome, hence the partition, and
 *      decides alike whether to stop (the lowest failing rank's status),
 *      to combine the partials it already has (every descriptor matches
 *      the remembered partition: go to 4), or to go on to 2;
 *   2. gpureduce_partial_reduce() of this rank's part at its global
 *      offset, written straight into this rank's slot of the receive
 *      buffer, after an 8-byte prefix holding its status;
 *   3. MPI_Allgatherv (MPI_IN_PLACE, MPI_BYTE) of the slots, whose sizes
 *      every rank computes from the descriptors with
 *      gpureduce_partial_bytes(); the prefixes carry the partial
 *      reductions' outcomes, so a failure there is every rank's too.
 *      The partition and the slot size (the largest partial) are then
 *      remembered for the next call's round 1;
 *   4. the partials moved together (the prefixes squeezed out) and
 *      gpureduce_partial_combine() into output.
 * So a steady state (the same n_local, type, op and flags on every rank
 * as in the previous call on the communicator) costs one collective, the
 * same count as a local reduction plus MPI_Allreduce; a changed partition
 * costs one round 1 more.  Every rank keeps the same memory of the
 * partition, since it is set from what every rank received alike.
 * MPI only moves bytes: no MPI_Op ever sees the data.
 *
 * Per communicator, an attribute (a keyval made once) holds the state: an
 * MPI_Comm_dup of the caller's communicator with MPI_ERRORS_RETURN, the
 * per-rank arrays and the grow-only receive buffer, so the steady state
 * allocates nothing.  The attribute's delete callback frees it when the
 * caller frees the communicator.  At MPI_Finalize, a second keyval set on
 * MPI_COMM_SELF runs first (MPI-2.2's finalize hook, while MPI still
 * works) and frees every duplicate still alive; later delete callbacks
 * then only free memory.
 *
 * Library code: never prints, never exits, never calls MPI_Abort.
 */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpureduce_mpi.h"

/* The descriptor of round 1.  Its size is fixed for good (a rank of
 * another version must still be able to take part and be told); `version`
 * says how to read the rest. */
#define GR_MPI_MAGIC 0x504d5247u         /* "GRMP" in little-endian bytes */
#define GR_MPI_MAGIC_SWAPPED 0x47524d50u /* the same, read in the other byte order */
#define GR_MPI_DESC_VERSION 1u

typedef struct gr_mpi_desc {
  uint32_t magic;          /* GR_MPI_MAGIC */
  uint32_t version;        /* GR_MPI_DESC_VERSION */
  int32_t status;          /* the rank's local checks: a gpureduce_status_t */
  int32_t reason;          /* which check failed: enum gr_reason */
  int32_t type, op;        /* as the rank passed them */
  uint32_t flags;
  uint32_t order_version;  /* GPUREDUCE_ORDER_VERSION the rank was built with */
  uint32_t partial_layout; /* GPUREDUCE_PARTIAL_LAYOUT likewise */
  uint32_t reserved;       /* 0 */
  uint64_t n_local;
} gr_mpi_desc;
_Static_assert(sizeof(gr_mpi_desc) == 48, "the descriptor is 48 bytes on every rank");

/* The 8 bytes before each rank's partial in round 2: its partial
 * reduction's status, then 0.  8 keeps the partials 8-byte aligned. */
#define GR_MPI_PREFIX 8

/* Which local check failed (the messages of gr_reason_message()), in the
 * order they are made, which is gpureduce_reduce()'s. */
enum gr_reason {
  GR_OK = 0,
  GR_HANDLE_NULL,
  GR_TYPE_UNKNOWN,
  GR_OP_UNKNOWN,
  GR_FLAGS_UNKNOWN,
  GR_KIND_UNSUPPORTED,
  GR_OUTPUT_NULL,
  GR_INPUT_NULL,
  GR_INPUT_MISALIGNED,
  GR_OUTPUT_MISALIGNED
};

/* What one communicator keeps between calls. */
typedef struct gr_mpi_state {
  MPI_Comm comm;         /* the duplicate; MPI_COMM_NULL once freed at MPI_Finalize */
  int size, rank;
  gr_mpi_desc *descs;    /* size descriptors, copied out of round 1's slots */
  int *counts, *displs;  /* size slots of round 2, in bytes */
  size_t *bytes;         /* size partial sizes */
  unsigned char *buf;    /* round 2's receive buffer, grow-only */
  size_t buf_bytes;
  unsigned char *buf1;   /* round 1's receive buffer, grow-only */
  size_t buf1_bytes;
  /* The partition of the last call that reached its round 3, the same on
   * every rank: steady != 0 when set.  n_locals and bytes hold each
   * rank's n_local and partial size there; slot is the largest partial,
   * which round 1 then carries from every rank. */
  int steady;
  int32_t s_type, s_op;
  uint32_t s_flags;
  uint64_t *n_locals;
  uint64_t s_offset, s_n_global; /* this rank's offset, and the global n */
  size_t slot;
  struct gr_mpi_state *prev, *next; /* every live state, for the finalize hook */
} gr_mpi_state;

static pthread_once_t gr_once = PTHREAD_ONCE_INIT;
static int gr_init_code = MPI_SUCCESS;      /* MPI's error code of the one-time set-up */
static const char *gr_init_call = "";       /* the MPI call that failed there */
static int gr_keyval = MPI_KEYVAL_INVALID;  /* the state on each communicator */
static int gr_self_keyval = MPI_KEYVAL_INVALID; /* the finalize hook on MPI_COMM_SELF */
static pthread_mutex_t gr_lock = PTHREAD_MUTEX_INITIALIZER; /* guards gr_states */
static gr_mpi_state *gr_states;

static void state_free_memory(gr_mpi_state *st) {
  free(st->buf);
  st->buf = NULL;
  st->buf_bytes = 0;
  free(st->buf1);
  st->buf1 = NULL;
  st->buf1_bytes = 0;
  st->steady = 0;
  free(st->descs); /* counts, displs, bytes and n_locals live in the same block */
  st->descs = NULL;
}

/* Delete callback of gr_keyval: the caller's communicator is being freed
 * (or MPI_Finalize deletes its attributes). */
static int state_delete(MPI_Comm comm, int keyval, void *attr, void *extra) {
  (void)comm;
  (void)keyval;
  (void)extra;
  gr_mpi_state *st = attr;
  if (!st) return MPI_SUCCESS;
  pthread_mutex_lock(&gr_lock);
  if (st->prev)
    st->prev->next = st->next;
  else if (gr_states == st)
    gr_states = st->next;
  if (st->next) st->next->prev = st->prev;
  pthread_mutex_unlock(&gr_lock);
  int code = MPI_SUCCESS;
  if (st->comm != MPI_COMM_NULL) code = MPI_Comm_free(&st->comm);
  state_free_memory(st);
  free(st);
  /* An error here would make MPI_Comm_free of the caller's communicator
   * fail; the duplicate is gone either way. */
  (void)code;
  return MPI_SUCCESS;
}

/* Delete callback of gr_self_keyval: the first thing MPI_Finalize does is
 * to delete MPI_COMM_SELF's attributes, while MPI still works.  Free every
 * duplicate (and buffer) still alive; the states themselves go when their
 * communicators' attributes are deleted. */
static int finalize_hook(MPI_Comm comm, int keyval, void *attr, void *extra) {
  (void)comm;
  (void)keyval;
  (void)attr;
  (void)extra;
  pthread_mutex_lock(&gr_lock);
  for (gr_mpi_state *st = gr_states; st; st = st->next) {
    if (st->comm != MPI_COMM_NULL) (void)MPI_Comm_free(&st->comm);
    st->comm = MPI_COMM_NULL;
    state_free_memory(st);
  }
  pthread_mutex_unlock(&gr_lock);
  return MPI_SUCCESS;
}

static void init_once(void) {
  int code = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, state_delete, &gr_keyval, NULL);
  if (code != MPI_SUCCESS) {
    gr_init_code = code;
    gr_init_call = "MPI_Comm_create_keyval";
    return;
  }
  code = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, finalize_hook, &gr_self_keyval, NULL);
  if (code == MPI_SUCCESS) code = MPI_Comm_set_attr(MPI_COMM_SELF, gr_self_keyval, NULL);
  if (code != MPI_SUCCESS) {
    gr_init_code = code;
    gr_init_call = "MPI_Comm_set_attr(MPI_COMM_SELF)";
  }
}

/* Record "PREFIX: message" as the handle's last message (when there is a
 * handle) and return status. */
static gpureduce_status_t fail(gpureduce_handle_t h, gpureduce_status_t status, const char *fmt,
                               ...) {
  if (h) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    (void)gpureduce_set_last_message(h, status, msg);
  }
  return status;
}

/* GPUREDUCE_ERROR_TRANSPORT with "CALL: MPI's error string". */
static gpureduce_status_t mpi_fail(gpureduce_handle_t h, const char *call, int code) {
  char text[MPI_MAX_ERROR_STRING + 1];
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS || len <= 0)
    snprintf(text, sizeof text, "MPI error code %d", code);
  else
    text[len < MPI_MAX_ERROR_STRING ? len : MPI_MAX_ERROR_STRING] = '\0';
  return fail(h, GPUREDUCE_ERROR_TRANSPORT, "%s: %s", call, text);
}

/* The state of comm, made on the first call (collective: MPI_Comm_dup). */
static gpureduce_status_t get_state(MPI_Comm comm, gpureduce_handle_t h, gr_mpi_state **out) {
  void *val = NULL;
  int flag = 0;
  int code = MPI_Comm_get_attr(comm, gr_keyval, &val, &flag);
  if (code != MPI_SUCCESS) return mpi_fail(h, "MPI_Comm_get_attr", code);
  if (flag && val) {
    *out = val;
    return GPUREDUCE_SUCCESS;
  }
  int inter = 0;
  if ((code = MPI_Comm_test_inter(comm, &inter)) != MPI_SUCCESS)
    return mpi_fail(h, "MPI_Comm_test_inter", code);
  if (inter)
    return fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                "comm is an inter-communicator; gpureduce_mpi_reduce needs an intra-communicator "
                "(MPI_Intercomm_merge makes one)");
  MPI_Comm dup;
  if ((code = MPI_Comm_dup(comm, &dup)) != MPI_SUCCESS) return mpi_fail(h, "MPI_Comm_dup", code);
  int size = 0, rank = 0;
  const char *call = "MPI_Comm_set_errhandler";
  if ((code = MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN)) != MPI_SUCCESS ||
      (call = "MPI_Comm_size", code = MPI_Comm_size(dup, &size)) != MPI_SUCCESS ||
      (call = "MPI_Comm_rank", code = MPI_Comm_rank(dup, &rank)) != MPI_SUCCESS) {
    (void)MPI_Comm_free(&dup);
    return mpi_fail(h, call, code);
  }
  gr_mpi_state *st = calloc(1, sizeof *st);
  const size_t n = (size_t)size;
  void *block =
      malloc(n * (sizeof(gr_mpi_desc) + sizeof(uint64_t) + sizeof(size_t) + 2 * sizeof(int)));
  if (!st || !block) {
    free(st);
    free(block);
    (void)MPI_Comm_free(&dup);
    return fail(h, GPUREDUCE_ERROR_OUT_OF_MEMORY,
                "no host memory for the state of a communicator of %d ranks", size);
  }
  st->comm = dup;
  st->size = size;
  st->rank = rank;
  st->descs = block;
  st->n_locals = (uint64_t *)(st->descs + n);
  st->bytes = (size_t *)(st->n_locals + n);
  st->counts = (int *)(st->bytes + n);
  st->displs = st->counts + n;
  if ((code = MPI_Comm_set_attr(comm, gr_keyval, st)) != MPI_SUCCESS) {
    (void)MPI_Comm_free(&st->comm);
    state_free_memory(st);
    free(st);
    return mpi_fail(h, "MPI_Comm_set_attr", code);
  }
  pthread_mutex_lock(&gr_lock);
  st->next = gr_states;
  if (gr_states) gr_states->prev = st;
  gr_states = st;
  pthread_mutex_unlock(&gr_lock);
  *out = st;
  return GPUREDUCE_SUCCESS;
}

/* This rank's checks, in gpureduce_reduce()'s order. */
static void local_checks(gr_mpi_desc *d, const void *input, const void *output,
                         gpureduce_handle_t h) {
  const gpureduce_type_t type = (gpureduce_type_t)d->type;
  const gpureduce_op_t op = (gpureduce_op_t)d->op;
  gpureduce_status_t s = GPUREDUCE_SUCCESS;
  enum gr_reason r = GR_OK;
  size_t rs = 0;
  if (!h)
    s = GPUREDUCE_ERROR_INVALID_HANDLE, r = GR_HANDLE_NULL;
  else if ((unsigned)d->type >= GPUREDUCE_TYPE_COUNT)
    s = GPUREDUCE_ERROR_UNSUPPORTED, r = GR_TYPE_UNKNOWN;
  else if ((unsigned)d->op >= GPUREDUCE_OP_COUNT)
    s = GPUREDUCE_ERROR_UNSUPPORTED, r = GR_OP_UNKNOWN;
  else if (d->flags &
           ~(GPUREDUCE_ACCUMULATE_F64 | GPUREDUCE_WITH_VALUE | GPUREDUCE_SOFTMAX_STATS))
    s = GPUREDUCE_ERROR_INVALID_ARGUMENT, r = GR_FLAGS_UNKNOWN;
  else if ((rs = gpureduce_result_size(type, op, d->flags)) == 0)
    s = GPUREDUCE_ERROR_UNSUPPORTED, r = GR_KIND_UNSUPPORTED;
  else if (!output)
    s = GPUREDUCE_ERROR_INVALID_ARGUMENT, r = GR_OUTPUT_NULL;
  else if (d->n_local > 0 && !input)
    s = GPUREDUCE_ERROR_INVALID_ARGUMENT, r = GR_INPUT_NULL;
  else if (d->n_local > 0 && (uintptr_t)input % gpureduce_type_size(type))
    s = GPUREDUCE_ERROR_INVALID_ARGUMENT, r = GR_INPUT_MISALIGNED;
  else if ((uintptr_t)output % rs)
    s = GPUREDUCE_ERROR_INVALID_ARGUMENT, r = GR_OUTPUT_MISALIGNED;
  d->status = (int32_t)s;
  d->reason = (int32_t)r;
}

/* The text of rank's failed check, the same on every rank: it reads only
 * that rank's descriptor. */
static void reason_message(char *msg, size_t size, int rank, const gr_mpi_desc *d) {
  const gpureduce_type_t type = (gpureduce_type_t)d->type;
  const gpureduce_op_t op = (gpureduce_op_t)d->op;
  const char *tn = gpureduce_type_name(type), *on = gpureduce_op_name(op);
  switch ((enum gr_reason)d->reason) {
  case GR_HANDLE_NULL:
    snprintf(msg, size, "rank %d: handle is NULL", rank);
    break;
  case GR_TYPE_UNKNOWN:
    snprintf(msg, size, "rank %d: type %d is not a gpureduce_type_t", rank, (int)d->type);
    break;
  case GR_OP_UNKNOWN:
    snprintf(msg, size, "rank %d: op %d is not a gpureduce_op_t", rank, (int)d->op);
    break;
  case GR_FLAGS_UNKNOWN:
    snprintf(msg, size, "rank %d: flags 0x%x has unknown bits", rank, (unsigned)d->flags);
    break;
  case GR_KIND_UNSUPPORTED:
    snprintf(msg, size,
             "rank %d: %s %s with flags 0x%x is not a combination gpureduce_reduce() takes", rank,
             tn ? tn : "?", on ? on : "?", (unsigned)d->flags);
    break;
  case GR_OUTPUT_NULL:
    snprintf(msg, size, "rank %d: output is NULL", rank);
    break;
  case GR_INPUT_NULL:
    snprintf(msg, size, "rank %d: input is NULL with n_local = %" PRIu64, rank, d->n_local);
    break;
  case GR_INPUT_MISALIGNED:
    snprintf(msg, size, "rank %d: input is not aligned to its %u-byte elements", rank,
             (unsigned)gpureduce_type_size(type));
    break;
  case GR_OUTPUT_MISALIGNED:
    snprintf(msg, size, "rank %d: output is not aligned to its %u-byte result", rank,
             (unsigned)gpureduce_result_size(type, op, d->flags));
    break;
  default:
    snprintf(msg, size, "rank %d: %s", rank,
             gpureduce_status_string((gpureduce_status_t)d->status));
    break;
  }
}

/* Round 1's verdict, the same on every rank (it reads the descriptors
 * only): SUCCESS, or the status to return with its message in msg. */
static gpureduce_status_t judge_descriptors(const gr_mpi_state *st, char *msg, size_t size) {
  const gr_mpi_desc *d = st->descs;
  /* A rank that is not this library, or not this version of it, or of
   * another byte order: nothing else it sent can be read. */
  for (int r = 0; r < st->size; ++r) {
    if (d[r].magic == GR_MPI_MAGIC_SWAPPED) {
      snprintf(msg, size, "rank %d has another byte order; the ranks must share one", r);
      return GPUREDUCE_ERROR_INVALID_ARGUMENT;
    }
    if (d[r].magic != GR_MPI_MAGIC || d[r].version != GR_MPI_DESC_VERSION) {
      snprintf(msg, size,
               "rank %d sent no gpureduce_mpi_reduce descriptor of version %u (magic 0x%08x, "
               "version %u): every rank must run the same libgpureduce_mpi",
               r, GR_MPI_DESC_VERSION, (unsigned)d[r].magic, (unsigned)d[r].version);
      return GPUREDUCE_ERROR_INVALID_ARGUMENT;
    }
  }
  for (int r = 0; r < st->size; ++r)
    if (d[r].status != GPUREDUCE_SUCCESS) {
      reason_message(msg, size, r, &d[r]);
      return (gpureduce_status_t)d[r].status;
    }
  for (int r = 1; r < st->size; ++r) {
    if (d[r].order_version != d[0].order_version ||
        d[r].partial_layout != d[0].partial_layout) {
      snprintf(msg, size,
               "rank %d has order version %u and partial layout %u, rank 0 %u and %u: every "
               "rank must run the same gpureduce",
               r, (unsigned)d[r].order_version, (unsigned)d[r].partial_layout,
               (unsigned)d[0].order_version, (unsigned)d[0].partial_layout);
      return GPUREDUCE_ERROR_INVALID_ARGUMENT;
    }
    if (d[r].type != d[0].type || d[r].op != d[0].op || d[r].flags != d[0].flags) {
      const char *t0 = gpureduce_type_name((gpureduce_type_t)d[0].type);
      const char *o0 = gpureduce_op_name((gpureduce_op_t)d[0].op);
      const char *tr = gpureduce_type_name((gpureduce_type_t)d[r].type);
      const char *orr = gpureduce_op_name((gpureduce_op_t)d[r].op);
      snprintf(msg, size,
               "rank %d passed (%s, %s, flags 0x%x), rank 0 (%s, %s, flags 0x%x): every rank "
               "must pass the same type, op and flags",
               r, tr, orr, (unsigned)d[r].flags, t0, o0, (unsigned)d[0].flags);
      return GPUREDUCE_ERROR_INVALID_ARGUMENT;
    }
  }
  return GPUREDUCE_SUCCESS;
}

/* *buf, of *have bytes, at least bytes long (grow-only; the contents are
 * not kept). */
static int grow(unsigned char **buf, size_t *have, size_t bytes) {
  if (bytes <= *have) return 1;
  size_t want = *have ? *have : 4096;
  while (want < bytes) want = want > SIZE_MAX / 2 ? bytes : want * 2;
  unsigned char *p = malloc(want);
  if (!p) return 0;
  free(*buf);
  *buf = p;
  *have = want;
  return 1;
}

/* Whether every descriptor of round 1 is that of a rank that made its
 * partial at the remembered partition: the same on every rank. */
static int steady_holds(const gr_mpi_state *st) {
  if (!st->steady) return 0;
  for (int r = 0; r < st->size; ++r) {
    const gr_mpi_desc *d = &st->descs[r];
    if (d->magic != GR_MPI_MAGIC || d->version != GR_MPI_DESC_VERSION ||
        d->status != GPUREDUCE_SUCCESS || d->order_version != GPUREDUCE_ORDER_VERSION ||
        d->partial_layout != GPUREDUCE_PARTIAL_LAYOUT || d->type != st->s_type ||
        d->op != st->s_op || d->flags != st->s_flags || d->n_local != st->n_locals[r])
      return 0;
  }
  return 1;
}

/* The status prefixes of the partials at buf + displs[r]: SUCCESS, or
 * the failure of the lowest rank whose partial reduction failed, the
 * same on every rank (this rank's own failure with its detail). */
static gpureduce_status_t judge_prefixes(const gr_mpi_state *st, const unsigned char *buf,
                                         gpureduce_op_t op, gpureduce_handle_t handle) {
  for (int r = 0; r < st->size; ++r) {
    int32_t prefix[2];
    memcpy(prefix, buf + st->displs[r], sizeof prefix);
    if (prefix[0] == GPUREDUCE_SUCCESS) continue;
    const gpureduce_status_t rs = (gpureduce_status_t)prefix[0];
    if (rs == GPUREDUCE_ERROR_EMPTY_INPUT)
      return fail(handle, rs, "every rank's n_local is 0: %s of an empty array has no answer",
                  gpureduce_op_name(op));
    if (r == st->rank) {
      /* This rank's own detail, from gpureduce_partial_reduce. */
      char msg[256];
      snprintf(msg, sizeof msg, "rank %d: %s", r, gpureduce_last_message(handle));
      return fail(handle, rs, "%s", msg);
    }
    return fail(handle, rs, "rank %d: gpureduce_partial_reduce failed there: %s", r,
                gpureduce_status_string(rs));
  }
  return GPUREDUCE_SUCCESS;
}

/* This rank's partial at my_offset of n_global into slot + GR_MPI_PREFIX,
 * its status into the prefix at slot (the rest zeroed on a failure, so
 * that no stale bytes travel). */
static void reduce_into_slot(unsigned char *slot, size_t bytes, const void *input,
                             size_t n_local, uint64_t my_offset, uint64_t n_global,
                             gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                             gpureduce_handle_t handle) {
  const gpureduce_status_t s = gpureduce_partial_reduce(input, slot + GR_MPI_PREFIX, n_local,
                                                        my_offset, n_global, type, op, flags,
                                                        handle);
  const int32_t prefix[2] = {(int32_t)s, 0};
  memcpy(slot, prefix, sizeof prefix);
  if (s != GPUREDUCE_SUCCESS) memset(slot + GR_MPI_PREFIX, 0, bytes);
}

/* The partials at buf + displs[r] + GR_MPI_PREFIX, bytes[r] long, moved
 * together in rank order to buf and combined into output. */
static gpureduce_status_t combine_slots(gr_mpi_state *st, unsigned char *buf, void *output,
                                        gpureduce_handle_t handle) {
  size_t at = 0;
  for (int r = 0; r < st->size; ++r) {
    memmove(buf + at, buf + st->displs[r] + GR_MPI_PREFIX, st->bytes[r]);
    at += st->bytes[r];
  }
  const gpureduce_status_t s = gpureduce_partial_combine(buf, at, output, handle);
  if (s != GPUREDUCE_SUCCESS) {
    char msg[256];
    snprintf(msg, sizeof msg, "rank %d: gpureduce_partial_combine: %s", st->rank,
             gpureduce_last_message(handle));
    return fail(handle, s, "%s", msg);
  }
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_mpi_reduce(const void *input, void *output, size_t n_local,
                                        gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                                        MPI_Comm comm, gpureduce_handle_t handle) {
  /* What cannot be shared with the other ranks: this rank has no MPI or no
   * communicator to share it on.  These hold on every rank alike in a
   * correct program (gpureduce_mpi.h). */
  int up = 0, down = 0;
  if (MPI_Initialized(&up) != MPI_SUCCESS || !up || MPI_Finalized(&down) != MPI_SUCCESS || down)
    return fail(handle, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                "MPI is %s: call gpureduce_mpi_reduce between MPI_Init and MPI_Finalize",
                up ? "already finalized" : "not initialized");
  if (comm == MPI_COMM_NULL)
    return fail(handle, GPUREDUCE_ERROR_INVALID_ARGUMENT, "comm is MPI_COMM_NULL");
  pthread_once(&gr_once, init_once);
  if (gr_init_code != MPI_SUCCESS) return mpi_fail(handle, gr_init_call, gr_init_code);

  gr_mpi_state *st = NULL;
  gpureduce_status_t s = get_state(comm, handle, &st);
  if (s != GPUREDUCE_SUCCESS) return s;

  /* 0. This rank's checks. */
  gr_mpi_desc mine;
  memset(&mine, 0, sizeof mine);
  mine.magic = GR_MPI_MAGIC;
  mine.version = GR_MPI_DESC_VERSION;
  mine.type = (int32_t)type;
  mine.op = (int32_t)op;
  mine.flags = flags;
  mine.order_version = GPUREDUCE_ORDER_VERSION;
  mine.partial_layout = GPUREDUCE_PARTIAL_LAYOUT;
  mine.n_local = (uint64_t)n_local;
  local_checks(&mine, input, output, handle);

  /* 1. Every rank's descriptor, and in the steady state its partial, in
   * slots of one size: the descriptor, then the prefix and the partial
   * when the communicator remembers a partition.  If this rank's call
   * fits that partition, its partial is made now, at the remembered
   * offset; it is used only if every rank's call fits it. */
  /* (Slots whose total passes MPI's int count carry the descriptors
   * alone: the same choice on every rank.) */
  if (st->steady &&
      (size_t)st->size > (size_t)INT_MAX / (sizeof(gr_mpi_desc) + GR_MPI_PREFIX + st->slot))
    st->steady = 0;
  const size_t stride =
      sizeof(gr_mpi_desc) + (st->steady ? GR_MPI_PREFIX + st->slot : 0);
  if (!grow(&st->buf1, &st->buf1_bytes, stride * (size_t)st->size))
    return fail(handle, GPUREDUCE_ERROR_OUT_OF_MEMORY,
                "no host memory for the %zu-byte slots of %d ranks", stride, st->size);
  unsigned char *mine_slot = st->buf1 + stride * (size_t)st->rank;
  memcpy(mine_slot, &mine, sizeof mine);
  if (st->steady) {
    /* (No byte of the slot travels unwritten: what the partial leaves,
     * or all of it when there is none, is zeroed.) */
    unsigned char *slot = mine_slot + sizeof mine;
    const size_t mine_bytes = st->bytes[st->rank];
    if (mine.status == GPUREDUCE_SUCCESS && mine.type == st->s_type && mine.op == st->s_op &&
        mine.flags == st->s_flags && mine.n_local == st->n_locals[st->rank]) {
      reduce_into_slot(slot, mine_bytes, input, n_local, st->s_offset, st->s_n_global, type, op,
                       flags, handle);
      memset(slot + GR_MPI_PREFIX + mine_bytes, 0, st->slot - mine_bytes);
    } else {
      memset(slot, 0, GR_MPI_PREFIX + st->slot);
    }
  }
  int code = MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, st->buf1, (int)stride, MPI_BYTE,
                           st->comm);
  if (code != MPI_SUCCESS) return mpi_fail(handle, "MPI_Allgather", code);
  for (int r = 0; r < st->size; ++r)
    memcpy(&st->descs[r], st->buf1 + stride * (size_t)r, sizeof(gr_mpi_desc));

  if (steady_holds(st)) {
    /* Every rank made its partial at the remembered partition: the
     * partials are all here. */
    for (int r = 0; r < st->size; ++r) st->displs[r] = (int)(stride * (size_t)r + sizeof mine);
    if ((s = judge_prefixes(st, st->buf1, op, handle)) != GPUREDUCE_SUCCESS) return s;
    return combine_slots(st, st->buf1, output, handle);
  }

  char msg[256];
  if ((s = judge_descriptors(st, msg, sizeof msg)) != GPUREDUCE_SUCCESS)
    return fail(handle, s, "%s", msg);

  /* The partition, and every rank's slot: the same numbers on every rank. */
  uint64_t n_global = 0, offset = 0, my_offset = 0;
  for (int r = 0; r < st->size; ++r) {
    if (st->descs[r].n_local > UINT64_MAX - n_global)
      return fail(handle, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                  "the parts' n_local sum past 2^64 elements (at rank %d)", r);
    n_global += st->descs[r].n_local;
  }
  /* Forget the old partition before the slots are rewritten: a failure
   * from here on is every rank's alike, and the next call starts afresh. */
  st->steady = 0;
  size_t total = 0, largest = 0;
  for (int r = 0; r < st->size; ++r) {
    const uint64_t n_r = st->descs[r].n_local;
    const size_t b = gpureduce_partial_bytes(n_r, offset, n_global, type, op, flags);
    if (b == 0 || b % 8 || b > (size_t)INT_MAX - GR_MPI_PREFIX)
      return fail(handle, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                  "gpureduce_partial_bytes gives %zu bytes for rank %d's part (%" PRIu64
                  " elements at %" PRIu64 " of %" PRIu64 "): not a partial's size",
                  b, r, n_r, offset, n_global);
    if (r == st->rank) my_offset = offset;
    st->bytes[r] = b;
    st->n_locals[r] = n_r;
    if (b > largest) largest = b;
    st->counts[r] = (int)(GR_MPI_PREFIX + b);
    if (total > (size_t)INT_MAX - (size_t)st->counts[r])
      return fail(handle, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                  "the partials of %d ranks exceed INT_MAX bytes, MPI_Allgatherv's limit",
                  st->size);
    st->displs[r] = (int)total;
    total += (size_t)st->counts[r];
    offset += n_r;
  }
  if (!grow(&st->buf, &st->buf_bytes, total))
    return fail(handle, GPUREDUCE_ERROR_OUT_OF_MEMORY,
                "no host memory for the %zu bytes of %d ranks' partials", total, st->size);

  /* 2. This rank's partial, into its slot after the status prefix. */
  reduce_into_slot(st->buf + st->displs[st->rank], st->bytes[st->rank], input, n_local, my_offset,
                   n_global, type, op, flags, handle);

  /* 3. Every rank's slot. */
  code = MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, st->buf, st->counts, st->displs,
                        MPI_BYTE, st->comm);
  if (code != MPI_SUCCESS) return mpi_fail(handle, "MPI_Allgatherv", code);
  /* The next call's round 1 carries partials at this partition. */
  st->steady = 1;
  st->s_type = mine.type;
  st->s_op = mine.op;
  st->s_flags = mine.flags;
  st->s_offset = my_offset;
  st->s_n_global = n_global;
  st->slot = largest;
  if ((s = judge_prefixes(st, st->buf, op, handle)) != GPUREDUCE_SUCCESS) return s;

  /* 4. The partials together, in rank order, and combined. */
  return combine_slots(st, st->buf, output, handle);
}
