/*
 * order/tree.h - the tile tree of doc/ORDER.md (rule 5) as one routine.
 *
 * Rule 5 combines values in the complete binary tree over their index
 * (0 with 1, 2 with 3, then pairs of pairs, ...), a missing right subtree
 * leaving its left sibling unchanged.  Computed here as a binary counter
 * over the values in index order: value number i joins the finished
 * subtrees to its left, one per trailing 1 bit of i (GR_TREE_PUSH), and at
 * the end what is left folds smallest subtree first (GR_TREE_FOLD).  One
 * pass, log2(count) values of state, and always `left op right`.
 *
 * Who calls it:
 *   - the host backend (host/order.c), for the tiles of each group and
 *     then for the groups' roots;
 *   - the CUDA kernel (cuda/agent/reduce.cuh), thread 0 of each block
 *     for the tiles of a group;
 *   - the combine of partial results (api/partial.c), for the parts'
 *     subtrees, with the same counter written out on accumulators of any
 *     size (a subtree of 2^j tiles enters at level j).
 * The one evaluation of rule 5 that is not this counter is the CUDA
 * kernel's last step: the last block combines up to GR_MAX_ROOTS group
 * roots with all its threads (cuda/block/reduce.cuh, root_tree), the same
 * tree level by level, because one thread would need 8192 dependent steps
 * (tens of microseconds).  The tests compare it with the host backend bit
 * for bit at every group count they reach.
 *
 * Plain C macros, usable in C and in CUDA device code.  STACK is an array
 * of at least 64 accumulators; COMBINE(a, b) combines a (left) with b
 * (right); VALUE is an lvalue the push may overwrite; RESULT starts as the
 * identity and receives the tree's value (it stays the identity when
 * COUNT is 0).
 */
#ifndef GR_ORDER_TREE_H
#define GR_ORDER_TREE_H

#include <stdint.h>

/* Value number INDEX (0, 1, 2, ... in order) joins the counter. */
#define GR_TREE_PUSH(STACK, INDEX, VALUE, COMBINE)                 \
  do {                                                             \
    uint64_t gr_i_ = (INDEX);                                      \
    int gr_level_ = 0;                                             \
    for (; gr_i_ & 1; gr_i_ >>= 1, ++gr_level_)                    \
      (VALUE) = COMBINE((STACK)[gr_level_], (VALUE));              \
    (STACK)[gr_level_] = (VALUE);                                  \
  } while (0)

/* The tree over the COUNT values pushed: the unfinished subtrees, from
 * the smallest (rightmost) to the largest. */
#define GR_TREE_FOLD(STACK, COUNT, RESULT, COMBINE)                \
  do {                                                             \
    uint64_t gr_c_ = (COUNT);                                      \
    int gr_have_ = 0;                                              \
    for (int gr_level_ = 0; gr_c_; gr_c_ >>= 1, ++gr_level_)       \
      if (gr_c_ & 1) {                                             \
        (RESULT) = gr_have_ ? COMBINE((STACK)[gr_level_], (RESULT)) \
                            : (STACK)[gr_level_];                  \
        gr_have_ = 1;                                              \
      }                                                            \
  } while (0)

#endif /* GR_ORDER_TREE_H */
