/*
 * cuda/dispatch/batched.cu - the dispatch layer of
 * gpureduce_reduce_batched() on a CUDA handle: from the shape to one of
 * the six batched kernels (kernel/batched.cuh), its plan and its launch
 * shape, one launch on the handle's stream.  No allocation, no
 * synchronization.  Which kernel and how many blocks change no bit of any
 * result: every kernel computes each vector in the order of doc/ORDER.md.
 *
 *   one vector, contiguous          the 1-D kernel (gr_cuda_reduce)
 *   contiguous, >= 2 tiles a vector batched_tiles_kernel, tile groups of
 *                                   a size that gives the GPU enough
 *                                   blocks
 *   contiguous batch of vectors of  batched_dense_kernel (for n = 1 the
 *   2 <= n < V elements, n | V      segment kernel's one load a vector
 *                                   and one store measured faster:
 *                                   H200, f32 sum of 2^28 vectors,
 *                                   847 us against 1325 us)
 *   the columns of a row-major      batched_short_columns_kernel, a
 *   matrix, <= 256 chunks, rows on  thread V columns, where there are
 *   16-byte boundaries, 2- to       enough of them to fill the GPU and
 *   8-byte types                    it was measured faster
 *                                   (short_columns_faster)
 *   <= 256 chunks a vector          batched_segment_kernel: its columns
 *                                   form when neighbouring vectors are
 *                                   closer than neighbouring elements,
 *                                   else its rows form (the generic
 *                                   tier's integer operations: <= 32
 *                                   chunks, instantiate.cuh)
 *   longer columns                  batched_columns_kernel, 16-byte
 *                                   pieces of the matrix where its
 *                                   rows are aligned
 *   anything else                   batched_warp_kernel
 *
 * Sharing a vector's tiles among blocks needs a root per group and a
 * ticket per vector (or column group) from the handle's workspace
 * (device/device.cuh: kBatchRoots, kBatchTickets); where a shape would need more,
 * the groups grow (fewer blocks a vector), and with more vectors than
 * tickets each vector is one group: a call never allocates.
 */
#include <cuda_runtime.h>

#include "cuda/cuda.h"
#include "cuda/device/device.cuh"
#include "cuda/dispatch/dispatch.cuh"
#include "cuda/instantiate/kernels.cuh"
#include "cuda/thread/ops.cuh"
#include "order/order.h"

namespace gr {
namespace batched_impl {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

unsigned ceil_log2(uint64_t x) {
  unsigned l = 0;
  while (((uint64_t)1 << l) < x) ++l;
  return l;
}

/* (dispatch/dispatch.cuh) */
void plan_groups(uint64_t tiles, uint64_t units, uint64_t vectors, uint64_t target,
                 BatchedParams &p) {
  const uint64_t want = units >= target ? 1 : ceil_div(target, units);
  unsigned gl = 0;
  while (ceil_div(tiles, (uint64_t)1 << gl) > want) ++gl;
  for (;;) {
    const uint64_t groups = ceil_div(tiles, (uint64_t)1 << gl);
    if (groups <= 1 || (units <= kBatchTickets && vectors * groups <= kBatchRoots &&
                        groups <= GR_MAX_ROOTS))
      break;
    ++gl;
  }
  if (units > kBatchTickets) gl = ceil_log2(tiles);
  p.group_log2 = gl;
  p.groups = ceil_div(tiles, (uint64_t)1 << gl);
}

uint64_t magnitude(int64_t s) { return s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s; }

/* Do input and every step of `stride` elements of `elem` bytes from it
 * lie on 16-byte (chunk) boundaries? */
bool on_chunk_bounds(const void *input, int64_t stride, size_t elem) {
  return reinterpret_cast<uintptr_t>(input) % GR_CHUNK_BYTES == 0 &&
         magnitude(stride) * elem % GR_CHUNK_BYTES == 0;
}

/* The short columns kernel runs where the matrix has at least this many
 * groups of V columns (one a thread) a multiprocessor: two resident
 * blocks' worth; with fewer, the segment kernel's G threads a column
 * keep more loads in flight. */
constexpr uint64_t kShortColumnThreadsPerSm = 2 * GR_LANES;

/* Where the short columns kernel beats the segment kernel's columns form
 * on columns of `chunks` chunks (H100, 2^28 elements, sum, max and
 * argmax, each against the segment kernel in one process,
 * bench/torch-side.py --suite columns): one chunk (2^27 columns of 2:
 * bf16 1.65 to 2.85x, f32 sum and max 1.08 and 1.13x, argmax 0.98x);
 * 16-bit types but for ARGMIN and ARGMAX (columns of 16 and 256: sum and
 * max 1.37 to 1.53x, argmax 0.88 to 0.98x); wider types from 32 chunks
 * (f32 columns of 256: 1.22 to 1.25x; of 16, 0.87 to 0.98x). */
bool short_columns_faster(uint64_t chunks, size_t elem, gpureduce_op_t op) {
  if (chunks <= 1) return true;
  if (elem == 2) return op != GPUREDUCE_ARGMIN && op != GPUREDUCE_ARGMAX;
  return chunks >= 32;
}

/* The columns kernel's pieces (BatchedParams::piece_log2): the columns of
 * a matrix (batch stride 1) load 16-byte pieces where every row starts
 * on a 16-byte boundary, V columns a piece where there are at least V,
 * and all C columns a piece where the rows are contiguous and C < V is a
 * power of two (V/C rows a piece); 0 (each thread gathers its own
 * column's elements) otherwise. */
unsigned column_piece_log2(const void *input, uint64_t batch, int64_t batch_stride,
                           int64_t element_stride, size_t elem) {
  const uint64_t v = GR_CHUNK_BYTES / elem;
  if (batch_stride != 1 || reinterpret_cast<uintptr_t>(input) % GR_CHUNK_BYTES != 0) return 0;
  if (batch >= v && magnitude(element_stride) * elem % GR_CHUNK_BYTES == 0) return ceil_log2(v);
  if (batch >= 2 && batch < v && (batch & (batch - 1)) == 0 && element_stride == (int64_t)batch)
    return ceil_log2(batch);
  return 0;
}

/* log2 of the lanes a thread of batched_segment_kernel's rows form takes
 * for a vector of `chunks` chunks of `elem`-byte elements where a
 * lane-tree level costs much more than a chunk's fold, 0 where it does
 * not: J = 4 or 8, each thread's own two or three lowest levels combined
 * in registers, so that a vector of P lanes climbs log2(P / J) shuffle
 * levels, every lane of the warp computing each, not log2(P).  The caller
 * takes at least what one lane round needs (J = 2^(log2(P) - 5)).
 *   ARGMIN, ARGMAX: three shuffles of the 16-byte accumulator a level.
 *   J = 4 from 4 chunks; H100, 2^28 elements, against J = 1: f32 rows of
 *   32 1.16x, 128 1.77x; bf16 rows of 32 1.19x, 128 1.36x, 512 1.18x;
 *   misaligned rows of 32 and 128 1.28-1.35x; at 2 chunks J = 2 gave
 *   1.00x (f32 rows of 8) and 0.88x (f32 misaligned rows of 8).  J = 8
 *   from 64 chunks where the rows are contiguous and 16-byte aligned
 *   (`aligned`); H100 against J = 4: f32 rows of 512 1.05x, bf16 of
 *   512 1.07x (bf16 of 128, 16 chunks, 1.03x; f32 of 128 0.99x), but f32
 *   rows of 512 at ld = 513, one element in, 0.83x.
 *   LOGSUMEXP: a double exp a combine.  J = 4 from 4 chunks; H100 against
 *   J = 1: f32 rows of 32 1.82x, 128 2.09x; bf16 rows of 32 1.45x, 128
 *   1.69x, 512 1.29x.  J = 8 from 32 chunks of aligned rows, as the arg
 *   ops (misaligned rows not timed); H100 against J = 4: f32 rows of 128
 *   1.09x, 512 1.15-1.16x, bf16 and f16 of 512 1.05x (f32 of 32, 8
 *   chunks, 1.00x; bf16 of 128, 16 chunks, 0.97-0.99x).
 *   MIN, MAX of 16-bit floats (measured, not explained): J = 4 from 16
 *   chunks; H100 against one round's J (1 to 32 chunks, 2 at 64): bf16
 *   rows of 128 and 512 1.11-1.12x, f16 1.03-1.04x, misaligned bf16 and
 *   f16 rows of 128 and 512 1.18-1.21x (bf16 of 32, 4 chunks, 1.02x; f32
 *   of 32, 8 chunks, 0.90x, of 128 and 512 1.00x: not for 4-byte types). */
unsigned lanes_log2(gpureduce_op_t op, uint64_t chunks, size_t elem, bool aligned) {
  switch (op) {
    case GPUREDUCE_ARGMIN:
    case GPUREDUCE_ARGMAX:
      return aligned && chunks >= 64 ? 3 : chunks >= 4 ? 2 : 0;
    case GPUREDUCE_LOGSUMEXP:
      return aligned && chunks >= 32 ? 3 : chunks >= 4 ? 2 : 0;
    case GPUREDUCE_MIN:
    case GPUREDUCE_MAX:
      return elem == 2 && chunks >= 16 ? 2 : 0;
    default:
      return 0;
  }
}

/* A lane round of batched_segment_kernel covers a vector with G <= 32
 * threads (a warp) of J = 2^q lanes each. */
constexpr unsigned kRoundThreadsLog2 = 5;

/* The smallest q >= want (want <= 3) for which k has a rows-form segment
 * kernel of J = 2^q lanes, or 3: want itself, but in the generic tier
 * (instantiate.cuh), which has J = 1 and, for some operations, J = 8. */
unsigned lanes_present(const BatchedKernels &k, unsigned want) {
  unsigned q = want;
  while (q < 3 && !k.segment[0][q]) ++q;
  return q;
}

/* The most chunks a vector may have for one lane round of
 * batched_segment_kernel: 32 threads times the largest J that k has. */
uint64_t round_max_chunks(const BatchedKernels &k) {
  unsigned q = 3;
  while (q > 0 && !k.segment[0][q]) --q;
  return (uint64_t)1 << (kRoundThreadsLog2 + q);
}

} /* namespace batched_impl */
} /* namespace gr */

extern "C" gpureduce_status_t gr_cuda_reduce_batched(gpureduce_handle *h, const void *input,
                                                     void *output, uint64_t batch, uint64_t n,
                                                     int64_t batch_stride,
                                                     int64_t element_stride,
                                                     gpureduce_type_t type, gpureduce_op_t op,
                                                     unsigned flags) {
  using namespace gr::batched_impl;
  if (batch == 0) return GPUREDUCE_SUCCESS;
  /* a vector of one element (or none) has no element stride */
  if (n <= 1) element_stride = 1;
  if (batch == 1 && element_stride == 1)
    return gr_cuda_reduce(h, input, output, n, type, op, flags, 0);
  const gr::BatchedKernels k = gr::batched_kernels_for(type, op, flags);
  if (!k.warp)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "no batched kernel for %s %s",
                   gpureduce_type_name(type), gpureduce_op_name(op));

  const size_t elem = gpureduce_type_size(type);
  const uint64_t chunks = ceil_div(n, GR_CHUNK_BYTES / elem);
  const uint64_t sms = h->sm_count > 0 ? (uint64_t)h->sm_count : 1;
  gr::BatchedParams p = {};
  p.input = input;
  p.output = output;
  p.batch = batch;
  p.n = n;
  p.batch_stride = batch_stride;
  p.element_stride = element_stride;
  p.tiles = gr_tile_count(n, elem);
  p.groups = 1;
  p.group_log2 = ceil_log2(p.tiles);
  p.columns = 0;
  p.with_value = (flags & (GPUREDUCE_WITH_VALUE | GPUREDUCE_SOFTMAX_STATS)) != 0;
  p.roots = static_cast<char *>(h->workspace) + gr::kWsBatchRoots;
  p.tickets =
      reinterpret_cast<unsigned *>(static_cast<char *>(h->workspace) + gr::kWsBatchTickets);

  /* neighbouring vectors closer than neighbouring elements: columns */
  const bool columns_like = magnitude(batch_stride) < magnitude(element_stride);
  const void *kernel;
  uint64_t grid;
  unsigned block = GR_LANES;
  size_t smem = 0; /* dynamic shared memory: the segment kernel's columns form */
  if (element_stride == 1 && p.tiles >= 2) {
    kernel = k.tiles;
    /* the same bits by another grouping where the order cannot show */
    if (k.exact_tiles && n <= k.exact_max) kernel = k.exact_tiles;
    plan_groups(p.tiles, batch, batch, sms * kTargetBlocksPerSm, p);
    grid = batch * p.groups;
  } else if (k.dense && element_stride == 1 && n >= 2 && n < GR_CHUNK_BYTES / elem &&
             (GR_CHUNK_BYTES / elem) % n == 0 && batch_stride == (int64_t)n) {
    kernel = k.dense;
    grid = ceil_div(ceil_div(batch * n, GR_CHUNK_BYTES / elem), (uint64_t)GR_LANES * gr::kRowsPerThread);
  } else if (chunks <= GR_LANES && k.short_columns && batch_stride == 1 &&
             magnitude(element_stride) >= batch && on_chunk_bounds(input, element_stride, elem) &&
             ceil_div(batch, GR_CHUNK_BYTES / elem) >= sms * kShortColumnThreadsPerSm &&
             short_columns_faster(chunks, elem, op)) {
    kernel = k.short_columns;
    grid = ceil_div(ceil_div(batch, GR_CHUNK_BYTES / elem), GR_LANES);
  } else if (chunks <= round_max_chunks(k)) {
    /* one lane round: G threads a vector, J = 2^q lanes a thread, G * J
     * the power of two at or above the chunks; J = 1 up to 32 chunks,
     * except for the rows of some ops (lanes_log2); the generic tier
     * (instantiate.cuh) has no J = 2 or 4, and takes J = 8 from 33
     * chunks where it has it, else goes no further than 32 */
    const unsigned p2 = ceil_log2(chunks ? chunks : 1);
    p.form = element_stride != 1 && columns_like ? 1u : 0u;
    unsigned q = p2 <= kRoundThreadsLog2 ? 0 : p2 - kRoundThreadsLog2;
    const bool aligned = element_stride == 1 && on_chunk_bounds(input, batch_stride, elem);
    const unsigned j = p.form == 0 ? lanes_log2(op, chunks, elem, aligned) : 0u;
    if (j > q) q = j;
    q = lanes_present(k, q); /* the generic tier: J = 1, or 8 where it has it */
    p.g_log2 = p2 - q;
    kernel = k.segment[p.form][q];
    const uint64_t rows = q >= 2 ? 1 : (uint64_t)gr::kRowsPerThread >> q;
    grid = ceil_div(batch, (uint64_t)(GR_LANES >> p.g_log2) * rows);
    if (p.form) smem = (size_t)rows * GR_LANES * k.acc_bytes;
  } else if (element_stride != 1 && columns_like) {
    kernel = k.columns;
    /* a warp's row of the matrix at least 128 bytes (32 columns of
     * 4 bytes, 64 of 2, 128 of 1) */
    const uint64_t widest = GR_LANES / 2 / elem < 32 ? 32 : GR_LANES / 2 / elem;
    p.columns = 1u << ceil_log2(batch >= widest ? widest : batch);
    p.piece_log2 = column_piece_log2(input, batch, batch_stride, element_stride, elem);
    const uint64_t column_blocks = ceil_div(batch, p.columns);
    plan_groups(p.tiles, column_blocks, batch, sms * kTargetBlocksPerSm, p);
    grid = column_blocks * p.groups;
  } else {
    kernel = k.warp;
    p.g_log2 = 5;
    grid = ceil_div(batch, GR_LANES / 32);
  }
  if (grid > sms * kMaxBlocksPerSm) grid = sms * kMaxBlocksPerSm;

  gr::DeviceGuard guard(h->device);
  if (guard.status() != cudaSuccess) return gr::cuda_fail(h, guard.status(), "cudaSetDevice");
  void *args[] = {&p};
  const cudaError_t err = cudaLaunchKernel(kernel, dim3((unsigned)grid), dim3(block), args, smem,
                                           static_cast<cudaStream_t>(h->stream));
  if (err != cudaSuccess) return gr::cuda_fail(h, err, "cudaLaunchKernel");
  return GPUREDUCE_SUCCESS;
}
