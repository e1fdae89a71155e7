/*
 * cuda/kernel/batched.cuh - the grid layer of gpureduce_reduce_batched():
 * six kernels, one launch per call, each vector in the order of
 * doc/ORDER.md (agent/batched.cuh), so result b has the bits of the 1-D
 * reduction of vector b alone.  dispatch/batched.cu picks the kernel:
 *
 *   batched_dense_kernel    contiguous vectors of 2, 4, ... elements,
 *                           shorter than a chunk: whole chunks of the
 *                           batch, several vectors a chunk.
 *   batched_segment_kernel  vectors of at most 256 chunks, any strides:
 *                           G threads a vector (segment), each thread
 *                           J lanes of a vector and enough vectors at
 *                           once that four to eight loads are in flight;
 *                           in its columns form the threads of a warp
 *                           hold neighbouring vectors.
 *   batched_short_columns_kernel  the columns of a row-major matrix
 *                           of at most 256 chunks, on 16-byte aligned
 *                           rows: a thread V neighbouring columns, a
 *                           16-byte piece of each row.
 *   batched_warp_kernel     longer vectors of one tile, and strided
 *                           vectors of any length: a warp a vector (warp).
 *   batched_tiles_kernel    contiguous vectors of two tiles or more: a
 *                           block a tile group of a vector, the 1-D agent
 *                           (AgentReduce, agent/reduce.cuh).  When several
 *                           groups share a vector, each block writes its
 *                           group's root and the last block of the vector
 *                           (per-vector ticket) combines them.
 *   batched_columns_kernel  longer vectors that are neighbours in memory
 *                           (the columns of a matrix): 256/X threads a
 *                           vector (columns), a warp neighbouring
 *                           vectors, so its loads are neighbouring
 *                           elements, 16-byte pieces of aligned rows
 *                           shared through shared memory; tile groups of
 *                           long columns are shared by blocks as above,
 *                           with a ticket per column block.
 * Tickets are zero between launches: the last block of a vector or column
 * group resets its own.
 */
#ifndef GR_CUDA_KERNEL_BATCHED_CUH
#define GR_CUDA_KERNEL_BATCHED_CUH

#include "cuda/agent/batched.cuh"
#include "cuda/agent/dot.cuh"
#include "cuda/agent/reduce.cuh"
#include "cuda/block/reduce.cuh"
#include "cuda/kernel/reduce.cuh"
#include "cuda/tuning/policy.cuh"

namespace gr {

template <class Op>
__device__ __forceinline__ const typename Op::In *vector_at(const BatchedParams &p,
                                                            uint64_t b) {
  return static_cast<const typename Op::In *>(p.input) + (int64_t)b * p.batch_stride;
}

/* Vector b of the second input (the dot product's y), whose batch
 * stride is batch_stride2; nullptr for the one-input operations. */
template <class Op>
__device__ __forceinline__ const typename Op::In *vector2_at(const BatchedParams &p,
                                                             uint64_t b) {
  if (!IsTwoInput<Op>::value) return nullptr;
  return static_cast<const typename Op::In *>(p.input2) + (int64_t)b * p.batch_stride2;
}

/* Contiguous vectors shorter than a chunk whose length divides it (n = 2,
 * 4, ... < V, batch stride n; the dispatch gives n = 1 to the segment
 * kernel, measured faster): the batch is one array of batch * n
 * elements, and each thread folds whole 16-byte chunks of it, V/n vectors
 * a chunk, kRowsPerThread chunks at once.  A vector of n < V elements is
 * one lane of one chunk, so its value is the fold of its elements from the
 * identity, in index order (rules 3 to 6); ARGMIN, ARGMAX and the float
 * MIN and MAX take a chunk's vectors from one tree over its positions
 * (arg_tree, minmax_tree), which gives each vector that value. */
template <class Op>
__global__ void __launch_bounds__(kThreads) batched_dense_kernel(const BatchedParams p) {
  using In = typename Op::In;
  using Acc = typename Op::Acc;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  const unsigned mask = (unsigned)p.n - 1u;
  const uint64_t total = p.batch * p.n;
  const uint64_t chunks = (total + V - 1) / V;
  const In *x = static_cast<const In *>(p.input);
  for (uint64_t base = (uint64_t)blockIdx.x * kThreads * kRowsPerThread + threadIdx.x;
       base < chunks; base += (uint64_t)gridDim.x * kThreads * kRowsPerThread) {
    ChunkData d[kRowsPerThread];
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
      const uint64_t q = base + (uint64_t)r * kThreads;
      d[r].count = 0;
      if (q < chunks) d[r] = load_vector_chunk(x, 1, total, q * V);
    }
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
      const uint64_t first = (base + (uint64_t)r * kThreads) * V / p.n; /* its first vector */
      In e[V];
      memcpy(e, &d[r].raw, sizeof e);
      if constexpr (HasChunkFold<Op>::value) {
        /* each vector is one chunk of the order, n of its elements, at
         * j, a multiple of n (a power of two): a node of fold_run's
         * pairwise tree, so the same sum as at 0 */
        for (int j = 0; j < d[r].count; j += (int)mask + 1)
          store_result<Op>(p, first + j / (mask + 1),
                           Op::fold_run(Op::identity(), e, j, j + (int)mask + 1), 1);
        continue;
      }
      if constexpr (Op::kFamily == OpFamily::kArg) {
        /* vector k of the chunk is position k * n of the tree's levels
         * below n; its index in the vector is pos - k * n */
        typename Op::W val[V];
        int pos[V];
        arg_tree<Op>(e, d[r].count, mask + 1u, val, pos);
#pragma unroll
        for (int j = 0; j < V; ++j)
          if ((j & mask) == 0 && j < d[r].count)
            store_result<Op>(p, first + j / (mask + 1), Acc{val[j], (uint64_t)(pos[j] - j)}, 1);
        continue;
      }
      if constexpr (kMinMaxChunk<Op>) {
        /* vector k of the chunk is v[k * n] of the tree's levels below n */
        float v[V];
        minmax_tree<Op>(e, d[r].count, mask + 1u, v);
#pragma unroll
        for (int j = 0; j < V; ++j)
          if ((j & mask) == 0 && j < d[r].count)
            store_result<Op>(p, first + j / (mask + 1), v[j], 1);
        continue;
      }
      Acc acc = Op::identity();
#pragma unroll
      for (int j = 0; j < V; ++j) {
        if (j >= d[r].count) break;
        acc = fold_element<Op>(acc, e[j], j & mask);
        if ((j & mask) == mask) {
          store_result<Op>(p, first + j / (mask + 1), acc, 1);
          acc = Op::identity();
        }
      }
    }
  }
}

/* Resident blocks batched_segment_kernel is built for: 3, or 2 for the
 * accumulators of more than 16 bytes (NRM2's and MEAN_VAR's of double),
 * whose eight lanes a thread would spill under the 80 registers of 3
 * (ptxas -v, sm_90: 144 to 616 bytes of spill stores). */
template <class Op>
constexpr int kSegmentKernelBlocks = sizeof(typename Op::Acc) > 16 ? 2 : 3;

/* batched_segment_kernel's form where it is read at run time (p.form). */
constexpr int kSegmentRunTimeForm = -1;

/* Vectors of at most 256 chunks (one lane round): G = 2^g_log2 threads a
 * vector, thread t holding the J lanes t + G*j (j < J, G*J >= the
 * vector's chunks, one chunk each), and R = kRowsPerThread / J vectors a
 * thread (at least one), so that every thread has four to eight loads in
 * flight.  Rows (form 0): the G threads of a vector are neighbours in a
 * warp, and the lane tree's levels below G are warp shuffles.  Columns
 * (form 1): the threads of a warp hold neighbouring vectors (so their
 * loads are neighbouring elements), the G threads of a vector are 256/G
 * apart, and those levels go through the launch's dynamic shared memory,
 * R * kThreads accumulators.  The levels G*J/2 .. G are each thread's own
 * (lane j with j + J/2, then j + J/4, ...); the levels above G*J combine
 * empty lanes, the identity, and change nothing.
 *
 * Five kernels an operation: J = 1 in each form (inlined gathers, four
 * vectors a thread; both forms in one kernel took 2 to 9 registers more,
 * ptxas on sm_90, a resident block fewer for the f32 and f64 sums, MIN
 * and MAX), and J = 2, 4 and 8, whose form is p.form; the generic tier's
 * operations (instantiate/instantiate.cuh) have J = 1 with p.form, and
 * for ACCUMULATE_F64 J = 8.  J = 2 and 4 in one
 * kernel, J read at run time, cost the vectors of 65 to 128 chunks
 * (H100, f32 rows of 512: argmax 0.76x, misaligned sum 0.93x).  A
 * thread's S = J*R chunks are slots i = j*R + r (lane j of its vector r),
 * so the level that pairs lanes j and j + h pairs slots i and i + h*R,
 * and vector r's value ends in slot r. */
template <class Op, int J, int Form = kSegmentRunTimeForm>
__global__ void __launch_bounds__(kThreads, kSegmentKernelBlocks<Op>)
batched_segment_kernel(const BatchedParams p) {
  using Acc = typename Op::Acc;
  constexpr int V = GR_CHUNK_BYTES / sizeof(typename Op::In);
  static_assert(kRowsPerThread == 4, "slot counts below assume four chunks a thread");
  static_assert(J == 1 || J == 2 || J == 4 || J == 8, "J = 1, 2, 4 or 8");
  static_assert(J == 1 || Form == kSegmentRunTimeForm, "only J = 1 has a kernel a form");
  constexpr int S = J == 8 ? 8 : kRowsPerThread; /* J*R */
  constexpr unsigned R = S / J, rl = R == 4 ? 2 : R == 2 ? 1 : 0; /* R = 2^rl */
  extern __shared__ __align__(16) unsigned char segment_tree[];
  Acc *tree = reinterpret_cast<Acc *>(segment_tree); /* [r * kThreads + thread] */
  const bool columns = Form == kSegmentRunTimeForm ? p.form != 0 : Form == 1;
  const unsigned G = 1u << p.g_log2;
  const uint64_t per_step = kThreads >> p.g_log2;
  const unsigned t = columns ? threadIdx.x >> (8 - p.g_log2) : threadIdx.x & (G - 1);
  const uint64_t slot = columns ? threadIdx.x & (per_step - 1) : threadIdx.x >> p.g_log2;
  for (uint64_t base = (uint64_t)blockIdx.x * per_step * R; base < p.batch;
       base += (uint64_t)gridDim.x * per_step * R) {
    ChunkData c[S];
#pragma unroll
    for (int i = 0; i < S; ++i) {
      const uint64_t b = base + ((unsigned)i & (R - 1)) * per_step + slot;
      c[i].count = 0;
      if (b < p.batch)
        c[i] = load_vector_chunk<typename Op::In, J == 1>(
            vector_at<Op>(p, b), p.element_stride, p.n, (uint64_t)(t + G * (i >> rl)) * V);
    }
    Acc v[S];
#pragma unroll
    for (int i = 0; i < S; ++i) {
      v[i] = Op::identity();
      fold_loaded<Op>(v[i], c[i], (uint64_t)(t + G * (i >> rl)) * V);
    }
    /* the levels h = J/2 .. 1 of the thread's lanes: slots d = h*R apart */
#pragma unroll
    for (int d = S / 2; d >= 1; d /= 2)
      if ((unsigned)d >= R)
#pragma unroll
        for (int i = 0; i < d; ++i) v[i] = Op::combine(v[i], v[i + d]);
    if (!columns) {
#pragma unroll
      for (int r = 0; r < (int)R; ++r) /* the whole warp takes part */
        v[r] = segment_lane_tree<Op>(v[r], (int)G);
    } else if (G > 1) {
#pragma unroll
      for (int r = 0; r < (int)R; ++r) tree[r * kThreads + threadIdx.x] = v[r];
      for (unsigned s = G / 2; s >= 1; s >>= 1) {
        __syncthreads();
        if (t < s) {
#pragma unroll
          for (int r = 0; r < (int)R; ++r) {
            v[r] = Op::combine(v[r], tree[r * kThreads + threadIdx.x + s * per_step]);
            tree[r * kThreads + threadIdx.x] = v[r];
          }
        }
      }
      __syncthreads(); /* tree is free for the next step */
    }
#pragma unroll
    for (int r = 0; r < (int)R; ++r) {
      const uint64_t b = base + r * per_step + slot;
      if (t == 0 && b < p.batch) store_result<Op>(p, b, v[r], p.n > 0);
    }
  }
}

/* The bytes of one result of Op: Out, or with p.with_value the 16-byte
 * IndexWithValue of ARGMIN and ARGMAX or LOGSUMEXP's {max, sum}
 * (store_result); the largest of them. */
template <class Op>
__device__ __forceinline__ unsigned result_bytes(uint64_t with_value) {
  if constexpr (Op::kFamily == OpFamily::kArg) {
    if (with_value) return sizeof(IndexWithValue);
  }
  if constexpr (Op::kFamily == OpFamily::kLogSumExp) {
    if (with_value) return sizeof(typename Op::Stats);
  }
  return sizeof(typename Op::Out);
}
template <class Op> __host__ __device__ constexpr unsigned max_result_bytes() {
  if constexpr (Op::kFamily == OpFamily::kArg)
    return sizeof(IndexWithValue) > sizeof(typename Op::Out) ? sizeof(IndexWithValue)
                                                             : sizeof(typename Op::Out);
  else if constexpr (Op::kFamily == OpFamily::kLogSumExp)
    return sizeof(typename Op::Stats) > sizeof(typename Op::Out) ? sizeof(typename Op::Stats)
                                                                 : sizeof(typename Op::Out);
  else
    return sizeof(typename Op::Out);
}

/* Where store_result puts a block's results before copy_out. */
struct StagedResults {
  void *output;
  uint64_t with_value;
};

/* Copy `bytes` (at most the block's staged results) from shared memory
 * to global memory with the block's threads, in 16-byte pieces where dst
 * allows; one piece a thread at a time (unrolled, the copy took more
 * registers than the fold). */
__device__ __forceinline__ void copy_out(unsigned char *dst, const unsigned char *src,
                                         unsigned bytes) {
  if (reinterpret_cast<uintptr_t>(dst) % GR_CHUNK_BYTES == 0) {
    const unsigned pieces = bytes / GR_CHUNK_BYTES;
#pragma unroll 1
    for (unsigned i = threadIdx.x; i < pieces; i += kThreads)
      reinterpret_cast<uint4 *>(dst)[i] = reinterpret_cast<const uint4 *>(src)[i];
#pragma unroll 1
    for (unsigned i = pieces * GR_CHUNK_BYTES + threadIdx.x; i < bytes; i += kThreads)
      dst[i] = src[i];
  } else if (reinterpret_cast<uintptr_t>(dst) % 4 == 0 && bytes % 4 == 0) {
#pragma unroll 1
    for (unsigned i = threadIdx.x; i < bytes / 4; i += kThreads)
      reinterpret_cast<unsigned *>(dst)[i] = reinterpret_cast<const unsigned *>(src)[i];
  } else {
#pragma unroll 1
    for (unsigned i = threadIdx.x; i < bytes; i += kThreads) dst[i] = src[i];
  }
}

/* The V x V elements of lane l of V neighbouring columns (its chunk:
 * rows lV .. lV+V-1, those below n), e[row][column], zeros past the rows
 * and the columns; the rows it holds.  16-byte loads where all V columns
 * are inside the batch, scalar loads of the `cols` others. */
template <class In>
__device__ __forceinline__ int load_column_lane(const In *col0, int64_t ld, uint64_t n,
                                                unsigned chunks, unsigned cols, unsigned l,
                                                In (&e)[GR_CHUNK_BYTES / sizeof(In)]
                                                       [GR_CHUNK_BYTES / sizeof(In)]) {
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  const uint64_t r0 = (uint64_t)l * V;
  const int count = l >= chunks ? 0 : n - r0 >= (uint64_t)V ? V : (int)(n - r0);
#pragma unroll
  for (int r = 0; r < V; ++r) {
    const In *row = col0 + (int64_t)(r0 + r) * ld;
    uint4 raw = make_uint4(0, 0, 0, 0);
    if (r < count) {
      if (cols == (unsigned)V) {
        raw = load_chunk(reinterpret_cast<const uint4 *>(row));
      } else {
        In t[V];
#pragma unroll
        for (int c = 0; c < V; ++c) t[c] = (unsigned)c < cols ? row[c] : In(0);
        memcpy(&raw, t, sizeof t);
      }
    }
    memcpy(e[r], &raw, sizeof raw);
  }
  return count;
}

/* Column c's lane value from its chunk in e (rows `count`, the first
 * element index r0): the fold of its elements from the identity. */
template <class Op>
__device__ __forceinline__ typename Op::Acc
column_lane(const typename Op::In (&e)[GR_CHUNK_BYTES / sizeof(typename Op::In)]
                                      [GR_CHUNK_BYTES / sizeof(typename Op::In)],
            int c, int count, uint64_t r0) {
  using In = typename Op::In;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  In col[V];
#pragma unroll
  for (int r = 0; r < V; ++r) col[r] = e[r][c];
  ChunkData d;
  memcpy(&d.raw, col, sizeof col);
  d.count = count;
  typename Op::Acc a = Op::identity();
  fold_loaded<Op>(a, d, r0);
  return a;
}

/* The columns of a row-major matrix, at most 256 chunks long (batch
 * stride 1, every row on a 16-byte boundary): thread g holds the V
 * neighbouring columns gV .. gV+V-1 and reads a chunk of them as V
 * 16-byte pieces, one a row, whose elements it regroups by column in
 * registers (the columns past the batch by scalar loads).  In a vector
 * of at most 256 chunks, lane l holds chunk l alone.  One chunk (n <= V)
 * is the column's value.  Otherwise a column's lanes enter
 * order/tree.h's counter in reversed_lane's order over P lanes (P the
 * power of two at or above its chunks, the lanes past its end the
 * identity), which builds rule 4's lane tree; U lanes are loaded at once
 * (2 for V <= 4: H100, f32 sum of 2^20 columns of 256, 0.82 of the probe
 * against 0.76 with one).  The block's results go through shared memory,
 * so that its stores are whole 16-byte pieces of the output (H100, 2^27
 * bf16 columns of 2: max 0.50 of the probe against 0.35 with each
 * thread's own stores).  LOGSUMEXP's combines are calls here (CompactOp). */
template <class KernelOp>
__global__ void __launch_bounds__(kThreads, 2) batched_short_columns_kernel(const BatchedParams p) {
  using Op = CompactOp<KernelOp>;
  using In = typename Op::In;
  using Acc = typename Op::Acc;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  constexpr int kLevels = 9;        /* the counter of at most 256 lanes */
  constexpr int U = V <= 4 ? 2 : 1; /* lanes loaded at once */
  __shared__ __align__(16) unsigned char staged[kThreads * V * max_result_bytes<Op>()];
  const unsigned chunks = (unsigned)((p.n + V - 1) / V);
  const unsigned bits = chunks <= 1 ? 0u : 32u - __clz(chunks - 1);
  const unsigned rs = result_bytes<Op>(p.with_value);
  const StagedResults staging{staged, p.with_value};
  const In *x = static_cast<const In *>(p.input);
  const uint64_t groups = (p.batch + V - 1) / V;
  for (uint64_t block_first = (uint64_t)blockIdx.x * kThreads; block_first < groups;
       block_first += (uint64_t)gridDim.x * kThreads) {
    const uint64_t g = block_first + threadIdx.x;
    if (g < groups) {
      const uint64_t b0 = g * V;
      const unsigned cols =
          p.batch - b0 >= (uint64_t)V ? (unsigned)V : (unsigned)(p.batch - b0);
      const In *col0 = x + b0;
      Acc acc[V];
      if (bits == 0) {
        In e[V][V];
        const int count = load_column_lane(col0, p.element_stride, p.n, chunks, cols, 0, e);
#pragma unroll
        for (int c = 0; c < V; ++c) acc[c] = column_lane<Op>(e, c, count, 0);
      } else {
        Acc stack[V][kLevels];
#pragma unroll 1
        for (unsigned i = 0; i < (1u << bits); i += U) {
          In e[U][V][V];
          unsigned lane[U];
          int count[U];
#pragma unroll
          for (int u = 0; u < U; ++u) {
            lane[u] = reversed_lane(i + u, bits);
            count[u] =
                load_column_lane(col0, p.element_stride, p.n, chunks, cols, lane[u], e[u]);
          }
#pragma unroll
          for (int u = 0; u < U; ++u) {
#pragma unroll
            for (int c = 0; c < V; ++c) {
              Acc a = column_lane<Op>(e[u], c, count[u], (uint64_t)lane[u] * V);
              GR_TREE_PUSH(stack[c], i + u, a, Op::combine);
            }
          }
        }
#pragma unroll
        for (int c = 0; c < V; ++c) {
          acc[c] = Op::identity();
          GR_TREE_FOLD(stack[c], 1u << bits, acc[c], Op::combine);
        }
      }
#pragma unroll
      for (int c = 0; c < V; ++c)
        if ((unsigned)c < cols) store_result<Op>(staging, threadIdx.x * V + c, acc[c], 1);
    }
    __syncthreads();
    const uint64_t first = block_first * V;
    const uint64_t count = p.batch - first < (uint64_t)kThreads * V ? p.batch - first
                                                                    : (uint64_t)kThreads * V;
    copy_out(static_cast<unsigned char *>(p.output) + first * rs, staged, (unsigned)count * rs);
    __syncthreads();
  }
}

/* Longer vectors, and strided ones of any length: a warp a vector, a tile
 * at a time, the tiles in order/tree.h's counter.  LOGSUMEXP's combines
 * of the tiles are calls here (CompactOp), those within a tile inline
 * (doc/TUNING.md, "LOGSUMEXP's calls"). */
template <class KernelOp>
__global__ void __launch_bounds__(kThreads, 2) batched_warp_kernel(const BatchedParams p) {
  using Op = CompactOp<KernelOp>;
  using Acc = typename Op::Acc;
  const unsigned t = threadIdx.x % 32;
  Acc stack[kStackDepth];
  for (uint64_t b = (uint64_t)blockIdx.x * kWarps + threadIdx.x / 32; b < p.batch;
       b += (uint64_t)gridDim.x * kWarps) {
    const typename Op::In *x = vector_at<Op>(p, b);
    for (uint64_t tile = 0; tile < p.tiles; ++tile) {
      Acc v;
      if constexpr (IsTwoInput<Op>::value)
        v = warp_tile_dot<Op>(x, vector2_at<Op>(p, b), p.n, tile, t);
      else
        v = warp_tile<KernelOp>(x, p.element_stride, p.n, tile, t);
      if (t == 0) GR_TREE_PUSH(stack, tile, v, Op::combine);
    }
    if (t == 0) {
      Acc r = Op::identity();
      GR_TREE_FOLD(stack, p.tiles, r, Op::combine);
      store_result<Op>(p, b, r, p.tiles);
    }
  }
}

template <class Op>
__global__ void __launch_bounds__(kThreads, PolicyOf<Op>::batched_min_blocks)
batched_tiles_kernel(const BatchedParams p) {
  using Acc = typename Op::Acc;
  using Agent = typename AgentOf<Op>::type;
  __shared__ typename Agent::TempStorage temp;
  __shared__ Acc warp_vals[kWarps];
  __shared__ bool is_last;
  Acc *roots = static_cast<Acc *>(p.roots);
  const uint64_t items = p.batch * p.groups;
  const uint64_t group_tiles = (uint64_t)1 << p.group_log2;
  for (uint64_t w = blockIdx.x; w < items; w += gridDim.x) {
    const uint64_t b = w / p.groups, g = w % p.groups;
    const uint64_t t0 = g * group_tiles;
    const uint64_t t1 = min(t0 + group_tiles, p.tiles);
    Agent agent(temp, vector_at<Op>(p, b), vector2_at<Op>(p, b), p.n);
    const Acc r = agent.consume_range(t0, t1);
    if (p.groups == 1) {
      if (threadIdx.x == 0) store_result<Op>(p, b, r, 1);
    } else {
      if (threadIdx.x == 0) {
        roots[w] = r;
        __threadfence(); /* the root before the ticket */
        is_last = atomicAdd(p.tickets + b, 1u) == p.groups - 1;
      }
      __syncthreads();
      if (is_last) {
        __threadfence(); /* the other blocks' roots after the ticket */
        const Acc v = root_tree<Op>(roots + b * p.groups, p.groups, warp_vals);
        if (threadIdx.x == 0) {
          store_result<Op>(p, b, v, 1);
          p.tickets[b] = 0u;
        }
      }
    }
    __syncthreads(); /* the next item's agent reuses temp, warp_vals and is_last */
  }
}

/* The complete binary tree over the first `count` (at most GR_MAX_ROOTS)
 * values of `roots`, identity beyond, computed by one warp: lane t owns
 * the `per` slots t*per .. (a power of two, so a subtree), folded through
 * order/tree.h's counter, and the lanes pair as (0, 1), (2, 3), ...  The
 * value ends in lane 0. */
template <class Op>
__device__ typename Op::Acc warp_root_tree(const typename Op::Acc *roots, uint64_t count) {
  using Acc = typename Op::Acc;
  const unsigned lane = threadIdx.x % 32;
  uint64_t per = 1;
  while (per * 32 < count) per *= 2;
  Acc stack[kStackDepth], t = Op::identity();
  for (uint64_t i0 = 0; i0 < per; i0 += 8) {
    Acc v[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const uint64_t slot = lane * per + i0 + i;
      v[i] = i0 + i < per && slot < count ? load_root(roots + slot) : Op::identity();
    }
#pragma unroll
    for (int i = 0; i < 8; ++i)
      if (i0 + i < per) GR_TREE_PUSH(stack, i0 + i, v[i], Op::combine);
  }
  GR_TREE_FOLD(stack, per, t, Op::combine);
  return warp_index_tree<Op>(t);
}

/* Long columns: a block is X = p.columns neighbouring vectors (x, fastest)
 * times Y = 256 / X threads a vector (y), so a warp's loads are
 * neighbouring elements of the matrix's rows (X: 32 vectors, or as many
 * as make a row of 128 bytes); where the rows are 16-byte aligned
 * (p.piece_log2 > 0), groups of Q = 2^piece_log2 threads load 16-byte
 * pieces together (agent/batched.cuh, column_lanes), and each round of
 * loads is in flight while the round before is folded.  A tile's Y values of a
 * vector go to shared memory, and after one barrier a warp (Y >= 32) or
 * a Y-lane segment of one (Y < 32) combines them with the levels Y/2, ...,
 * 1 of rule 4; its first lane keeps the vector's tile tree.  Tile groups
 * of long columns are shared by blocks: each writes its roots, and the
 * last block of a column block (per-block ticket) combines each vector's
 * roots with a warp.  LOGSUMEXP's combines are calls here (CompactOp). */
template <class KernelOp>
__global__ void __launch_bounds__(kThreads, 2) batched_columns_kernel(const BatchedParams p) {
  using Op = CompactOp<KernelOp>;
  using In = typename Op::In;
  using Acc = typename Op::Acc;
  constexpr int V = GR_CHUNK_BYTES / sizeof(In);
  __shared__ Acc part[2][kThreads];
  __shared__ __align__(16) uint4 stage[kWarps][kColumnStage][32];
  __shared__ bool is_last;
  Acc *roots = static_cast<Acc *>(p.roots);
  const unsigned X = p.columns, Y = kThreads / X;
  const unsigned xi = threadIdx.x % X, y = threadIdx.x / X;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  /* the vector whose levels this thread finishes, if any */
  const unsigned fin = Y >= 32 ? warp : warp * (32 / Y) + lane / Y;
  const bool finisher = Y >= 32 ? lane == 0 && warp < X : lane % Y == 0;
  const uint64_t column_blocks = (p.batch + X - 1) / X;
  const uint64_t items = column_blocks * p.groups;
  const uint64_t group_tiles = (uint64_t)1 << p.group_log2;
  ColumnLoads<In> c;
  c.stride = p.element_stride;
  c.n = p.n;
  c.q_log2 = p.piece_log2;
  c.q = xi & ((1u << c.q_log2) - 1);
  c.q_rows = c.q * (V >> c.q_log2);
  Acc stack[kStackDepth];
  unsigned buf = 0;
  for (uint64_t w = blockIdx.x; w < items; w += gridDim.x) {
    /* neighbouring blocks take neighbouring column blocks of one tile group */
    const uint64_t cb = w % column_blocks, g = w / column_blocks;
    const uint64_t b = cb * X + xi, g0 = b - c.q;
    c.valid = b < p.batch;
    c.x = vector_at<Op>(p, c.valid ? b : 0);
    c.group = vector_at<Op>(p, g0 < p.batch ? g0 : 0);
    c.group_vectors = g0 >= p.batch ? 0u
                      : p.batch - g0 >= (1u << c.q_log2) ? 1u << c.q_log2
                                                          : (unsigned)(p.batch - g0);
    const uint64_t t0 = g * group_tiles;
    const uint64_t t1 = min(t0 + group_tiles, p.tiles);
    const uint64_t fb = cb * X + fin;
    uint4 raw[kColumnStage];
    ColumnTile t(p.n, V, t0, y, Y);
    column_round(c, t, 0, raw);
    for (uint64_t tile = t0; tile < t1; ++tile) {
      const ColumnTile next(p.n, V, tile + 1 < t1 ? tile + 1 : tile, y, Y);
      part[buf][threadIdx.x] = column_lanes<Op>(c, t, tile + 1 < t1 ? &next : nullptr, raw,
                                                stage[warp]);
      t = next;
      __syncthreads(); /* part[buf] written; part[buf ^ 1] read a tile ago */
      Acc v = Op::identity();
      if (Y >= 32) {
        if (warp < X) {
          const unsigned per = Y / 32;
          Acc u[8];
#pragma unroll
          for (int m = 0; m < 8; ++m)
            u[m] = (unsigned)m < per ? part[buf][(lane + 32 * m) * X + fin] : Op::identity();
          /* levels Y/2 .. 32: slots m and m + h of the lane */
#pragma unroll
          for (int h = 4; h >= 1; h /= 2)
            if ((unsigned)h < per)
#pragma unroll
              for (int m = 0; m < h; ++m) u[m] = Op::combine(u[m], u[m + h]);
          v = warp_lane_tree<Op>(u[0]);
        }
      } else {
        v = segment_lane_tree<Op>(part[buf][(lane % Y) * X + fin], (int)Y);
      }
      if (finisher) GR_TREE_PUSH(stack, tile - t0, v, Op::combine);
      buf ^= 1u;
    }
    Acc r = Op::identity();
    if (finisher) GR_TREE_FOLD(stack, t1 - t0, r, Op::combine);
    const bool mine = finisher && fb < p.batch;
    if (p.groups == 1) {
      if (mine) store_result<Op>(p, fb, r, 1);
      continue;
    }
    if (mine) roots[fb * p.groups + g] = r;
    __threadfence(); /* each finisher's root before the ticket */
    __syncthreads();
    if (threadIdx.x == 0) is_last = atomicAdd(p.tickets + cb, 1u) == p.groups - 1;
    __syncthreads();
    if (is_last) {
      __threadfence(); /* the other blocks' roots after the ticket */
      for (unsigned v = warp; v < X; v += kWarps) {
        const uint64_t bv = cb * X + v;
        if (bv >= p.batch) break;
        const Acc t = warp_root_tree<Op>(roots + bv * p.groups, p.groups);
        if (lane == 0) store_result<Op>(p, bv, t, 1);
      }
      if (threadIdx.x == 0) p.tickets[cb] = 0u;
    }
    __syncthreads(); /* is_last is read before the next item writes it */
  }
}

} /* namespace gr */

#endif /* GR_CUDA_KERNEL_BATCHED_CUH */
