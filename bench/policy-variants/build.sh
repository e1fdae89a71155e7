#!/bin/sh
# bench/policy-variants/build.sh BUILDDIR [ARCH]: build bench/policy-variants/policy-variants
# from this checkout's headers, with config.h and include/gpureduce_version.h from BUILDDIR
# (a tree configured with --with-cuda-arch=ARCH, 90 by default).  ptxas -v goes to
# bench/policy-variants/ptxas.txt.  Run the binary on the GPU; it needs nothing else.
set -e
d=$(cd "$(dirname "$0")" && pwd)
r=$(cd "$d/../.." && pwd)
b=$(cd "${1:?usage: build.sh BUILDDIR [ARCH]}" && pwd)
arch=${2:-90}
nvcc=${NVCC:-nvcc}
cc=${CC:-cc}
inc="-DHAVE_CONFIG_H -I$r/include -I$b/include -I$r/src -I$b"
$cc -O2 $inc -c "$r/src/order/plan.c" -o "$d/plan.o"
$nvcc -std=c++17 -gencode arch=compute_$arch,code=sm_$arch -O3 -fmad=false $inc -I"$d" \
  -Xptxas -v -o "$d/policy-variants" "$d/policy-variants.cu" "$d/plan.o" > "$d/ptxas.txt" 2>&1
rm -f "$d/plan.o"
