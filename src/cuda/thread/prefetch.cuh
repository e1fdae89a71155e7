/*
 * cuda/thread/prefetch.cuh - one thread's prefetch hint: ask the memory
 * system to bring the 128-byte line holding an address into L1 (and L2),
 * ahead of a load that will need it.
 *
 * A hint only: it reads into no register, changes no result and cannot
 * fault; the callers still keep their addresses inside the buffers they
 * were given.  PTX ISA, "prefetch, prefetchu".
 */
#ifndef GR_CUDA_PREFETCH_CUH
#define GR_CUDA_PREFETCH_CUH

namespace gr {

__device__ __forceinline__ void prefetch_l1(const void *p) {
  asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
}

} // namespace gr

#endif
