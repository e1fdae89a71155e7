/*
 * reproducible.cu - compiled twice by tests/dist/reproducible.sh, from two
 * directories: what is declared in an anonymous namespace (as in CCCL's
 * headers, which reduce-bench includes) gets a name from the file's path.
 */
namespace {
struct PlusOne {
  __device__ int operator()(int x) const { return x + 1; }
};
} /* namespace */

template <class Op> __global__ void apply(int *p) { p[threadIdx.x] = Op()(p[threadIdx.x]); }

void launch(int *p) { apply<PlusOne><<<1, 32>>>(p); }
