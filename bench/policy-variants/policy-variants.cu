// policy-variants.cu - reduce_kernel under other rows of the policy table, side by side.
// A developer's experiment, not built or installed: bench/policy-variants/build.sh makes it.
// Each line of variants.inc is reduce_kernel<Tuned<Op, min_blocks, lane, shift, tree>> (V, the
// chunks loaded through L1) or <..., tree, load> (VL), the library's kernel from its own
// headers under that row, or the same with an experimental lane of lanes.cuh (VX) or with
// lanes.cuh's BranchCombine for the operation's combine (VC), or with another of its operation
// wrappers (VW: MeanVarDivide), or with bulk.cuh's agent, tiles
// brought into shared memory by bulk copies (VB, sm_90 only), or with ring.cuh's, each lane's
// chunks copied ahead into a ring in shared memory by cp.async (VR, sm_80 and later); the
// first variant of each group is the reference whose result bytes the others must equal
// ("same", else "DIFFER").
// Input: xorshift words masked to 0x3bff3bff (finite 16-bit floats, many ties in 8-bit; f32 and
// f64 values from about 2^-127 and 2^-1023 up, half of them small for NRM2), with 0x20002000
// or'ed in under PV_MEDIUM=1 (every float value medium for NRM2: >= 2^-63 for f32 and bf16,
// >= 2^-511 for f64).
// Times: median of 5 batches of 20 launches, aligned and 3 elements off, at n = 2^e for each
// argument e (1 to 30; 22 24 26 28 without arguments).
// Grid: min(groups, w x SMs x resident blocks), fitted by gr_plan_fit as the library does, for
// each w in PV_WAVES ("1 2 4", say; 1 when unset).  A w of 0 is the library's model: 8, 4 or 1
// waves by the tiles a block (src/tune/model.c), at most the library row's max_waves.
// Output: CSV variant,n,offset,resident,regs,us,bits,waves,grid on stdout.
// PV_ONLY="a|b": only the variants whose name contains a or b (for ncu, say); the first one kept
// of a group is then its reference.
// PV_MAX_WAVES=k: the model's cap on waves (w = 0) for every variant, where it is otherwise the
// library row's max_waves as the checkout has it: the figures taken under an earlier cap (the
// 8-bit NRM2's {3} rows before 2026-12-04, at 8) need PV_MAX_WAVES=8 again.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include "cuda/kernel/reduce.cuh"
#include "order/order.h"

namespace gr {
template <class Op, int MB, LaneKind LK, Shift S, LaneTree TR, Load LD> struct Tuned : Op {};
template <class Op, int MB, LaneKind LK, Shift S, LaneTree TR, Load LD>
struct PolicyOf<Tuned<Op, MB, LK, S, TR, LD>> {
  static constexpr ReducePolicy value{LK, MB, S, TR, 8, LD};
  static constexpr int min_blocks = MB;
  static constexpr int batched_min_blocks = MB; /* as cuda/tuning/policy.cuh's PolicyOf; unused here */
  static constexpr Shift shift = S;
  static constexpr LaneTree tree = TR;
  static constexpr Load load = LD;
  using Lane = typename LaneOf<Op, LK>::type;
};
}
#include "lanes.cuh"
#include "bulk.cuh"
#include "ring.cuh"
using namespace gr;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

struct Variant { const char *name; const void *kernel; gpureduce_type_t type; size_t es; const char *group; int max_waves;
                 size_t smem = 0; /* dynamic shared memory (VB) */ };
#define PV_OP(T, OP) OpFor<GPUREDUCE_##T, GPUREDUCE_##OP>::type
/* The variant NAME of group G: reduce_kernel<...> (the rest), over elements of type T. */
#define PV_VARIANT(G, T, OP, NAME, ...) Variant{NAME, (const void *)&reduce_kernel<__VA_ARGS__>, \
  GPUREDUCE_##T, sizeof(typename PV_OP(T, OP)::In), #G "-" #T, PolicyOf<PV_OP(T, OP)>::value.max_waves}
#define VL(G, T, OP, MB, LK, SH, TR, LD) PV_VARIANT(G, T, OP, #G " " #T " mb" #MB " " #LK " " #SH " " #TR " " #LD, \
  Tuned<PV_OP(T, OP), MB, LaneKind::LK, Shift::SH, LaneTree::TR, Load::LD>)
#define V(G, T, OP, MB, LK, SH, TR) VL(G, T, OP, MB, LK, SH, TR, kCached)
#define VX(G, T, OP, MB, LN, SH, TR, LD) PV_VARIANT(G, T, OP, #G " " #T " mb" #MB " " #LN " " #SH " " #TR " " #LD, \
  TunedLane<PV_OP(T, OP), MB, LN, Shift::SH, LaneTree::TR, Load::LD>)
#define VC(G, T, OP, MB, LK, SH, TR, LD) PV_VARIANT(G, T, OP, #G " " #T " mb" #MB " " #LK " " #SH " " #TR " " #LD " branch", \
  Tuned<BranchCombine<PV_OP(T, OP)>, MB, LaneKind::LK, Shift::SH, LaneTree::TR, Load::LD>)
#define VW(G, T, OP, MB, LK, SH, TR, LD, WRAP) PV_VARIANT(G, T, OP, #G " " #T " mb" #MB " " #LK " " #SH " " #TR " " #LD " " #WRAP, \
  Tuned<WRAP<PV_OP(T, OP)>, MB, LaneKind::LK, Shift::SH, LaneTree::TR, Load::LD>)

/* The variant of group G that brings tiles into shared memory by bulk copies, S stages
 * (bulk.cuh), at MB blocks' register budget. */
#define VB(G, T, OP, MB, S) [] { Variant v_ = PV_VARIANT(G, T, OP, #G " " #T " mb" #MB " bulk" #S, \
  Bulk<PV_OP(T, OP), MB, S>); v_.smem = bulk_smem_bytes(S); return v_; }()

/* The variant of group G whose lanes' chunks come through ring.cuh's ring in shared memory,
 * D chunks ahead (cp.async), at MB blocks' register budget. */
#define VR(G, T, OP, MB, D) PV_VARIANT(G, T, OP, #G " " #T " mb" #MB " ring" #D, Ring<PV_OP(T, OP), MB, D>)

int main(int argc, char **argv) {
  std::vector<Variant> vs = {
#include "variants.inc"
  };
  const char *only = getenv("PV_ONLY");
  if (only && *only) { /* keep the variants whose name holds a word of it */
    std::vector<Variant> kept;
    for (auto &v : vs) {
      bool hit = false;
      for (const char *w = only; *w;) {
        const size_t len = strcspn(w, "|");
        if (len && std::string(v.name).find(std::string(w, len)) != std::string::npos) hit = true;
        w += len + (w[len] == '|');
      }
      if (hit) kept.push_back(v);
    }
    if (kept.empty()) {
      fprintf(stderr, "PV_ONLY=%s: no variant's name holds any of it (names: \"%s\", ...)\n", only,
              vs.empty() ? "" : vs[0].name);
      return 2;
    }
    vs.swap(kept);
  }
  if (const char *mw = getenv("PV_MAX_WAVES")) { /* the model's cap, for every variant */
    const int k = atoi(mw);
    if (k < 1 || k > 64) { fprintf(stderr, "PV_MAX_WAVES: 1 to 64\n"); return 2; }
    for (auto &v : vs) v.max_waves = k;
  }
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  std::vector<uint64_t> sizes;
  for (int k = 1; k < argc; ++k) {
    const int e = atoi(argv[k]);
    if (e < 1 || e > 30) { fprintf(stderr, "usage: policy-variants [LOG2N ...], each 1 to 30\n"); return 2; }
    sizes.push_back((uint64_t)1 << e);
  }
  if (sizes.empty()) sizes = {(uint64_t)1 << 22, (uint64_t)1 << 24, (uint64_t)1 << 26, (uint64_t)1 << 28};
  const uint64_t nmax = *std::max_element(sizes.begin(), sizes.end());
  char *buf; CK(cudaMalloc(&buf, nmax * 8 + 64));
  void *roots; CK(cudaMalloc(&roots, GR_MAX_ROOTS * GR_ROOT_BYTES));
  unsigned *ticket; CK(cudaMalloc(&ticket, 64)); CK(cudaMemset(ticket, 0, 64));
  void *out; CK(cudaMalloc(&out, 64));
  { // random bytes, then per-type sane values: small integers in every 16-bit slot keep f16/bf16 finite;
    // PV_MEDIUM=1 sets bit 13 of each 16-bit slot too, so that every float type's biased exponent
    // is at least about half its bias (f32 >= 2^-63, f64 >= 2^-511): medium values for NRM2's classes
    const char *medium = getenv("PV_MEDIUM");
    const uint32_t or_bits = medium && *medium == '1' ? 0x20002000u : 0;
    std::vector<uint32_t> h(nmax * 2 + 16);
    uint64_t s = 88172645463325252ull;
    for (auto &w : h) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; w = ((uint32_t)s & 0x3bff3bffu) | or_bits; }
    CK(cudaMemcpy(buf, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  }
  std::vector<unsigned> waves;
  for (const char *w = getenv("PV_WAVES"); w && *(w += strspn(w, " "));) {
    char *e;
    const unsigned long k = strtoul(w, &e, 10);
    if (e == w || k > 64) { fprintf(stderr, "PV_WAVES: numbers 0 (the model) to 64\n"); return 2; }
    waves.push_back((unsigned)k);
    w = e;
  }
  if (waves.empty()) waves.push_back(1);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  printf("variant,n,offset,resident,regs,us,bits,waves,grid\n");
  std::vector<unsigned char> ref(32);
  for (uint64_t n : sizes)
    for (int off : {0, 3}) {
      const char *group = "";
      for (auto &v : vs)
      for (unsigned w0 : waves) {
        cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, v.kernel));
        if (v.smem) CK(cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)v.smem));
        int per_sm; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, v.kernel, GR_LANES, v.smem));
        gr_plan plan; gr_plan_make(n, v.es, 1, &plan);
        const uint64_t one = (uint64_t)sms * per_sm; /* one wave: gr_model_waves in tune/model.c */
        const unsigned wv = w0 ? w0 : std::min<unsigned>(v.max_waves,
            plan.tiles >= one * 64 ? 8 : plan.tiles >= one * 32 ? 4 : 1);
        uint64_t fill = one * wv;
        gr_plan_fit(&plan, (unsigned)std::min<uint64_t>(plan.groups, fill));
        ReduceParams p;
        p.input = buf + off * v.es; p.input2 = nullptr; p.output = out; p.n = n;
        p.roots = roots; p.ticket = ticket; p.tiles = plan.tiles; p.groups = plan.groups;
        p.group_log2 = plan.group_log2; p.with_value = 0; p.acc_out = nullptr;
        void *args[] = {&p};
        CK(cudaMemset(out, 0, 64));
        CK(cudaLaunchKernel(v.kernel, dim3(plan.grid), dim3(GR_LANES), args, v.smem, 0));
        CK(cudaDeviceSynchronize());
        std::vector<unsigned char> r(32); CK(cudaMemcpy(r.data(), out, 32, cudaMemcpyDeviceToHost));
        bool first = strcmp(group, v.group) != 0;
        if (first) { ref = r; group = v.group; }
        float t[5];
        for (int rep = 0; rep < 5; ++rep) {
          cudaEventRecord(a);
          for (int k = 0; k < 20; ++k) cudaLaunchKernel(v.kernel, dim3(plan.grid), dim3(GR_LANES), args, v.smem, 0);
          cudaEventRecord(b); CK(cudaEventSynchronize(b));
          float ms; cudaEventElapsedTime(&ms, a, b); t[rep] = ms * 1000.f / 20;
        }
        std::sort(t, t + 5);
        printf("%s,%llu,%d,%d,%d,%.2f,%s,%u,%u\n", v.name, (unsigned long long)n, off, per_sm, fa.numRegs,
               t[2], first ? "ref" : (r == ref ? "same" : "DIFFER"), wv, plan.grid);
        fflush(stdout);
      }
    }
  return 0;
}
