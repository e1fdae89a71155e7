# gr_cuda.m4 - gpureduce's configure macros: nvcc, the CUDA runtime, GPU
# architectures, CUB, and small compiler/linker flag checks.
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
#
# serial 2
#
# Shell variables these macros leave for the configure summary:
#   gr_nvcc_version      "13.0, V13.0.88"
#   gr_nvcc_host_desc    "-D_FORTIFY_SOURCE=2 -g -O2" (flags for nvcc's host compiler)
#   gr_nvcc_host_left_out  "-Wstrict-prototypes" (CPPFLAGS/CXXFLAGS not passed on)
#   gr_cudart_version    CUDART_VERSION, e.g. 13000
#   gr_cudart_where      path of libcudart, e.g. /usr/local/cuda/lib64/libcudart.so
#   gr_cuda_arch_desc    "sm_90, PTX compute_90"
#   gr_cuda_arch_why     "detected: NVIDIA H200, compute capability 9.0"
#   gr_have_cub          yes/no
# Note: inside AC_DEFUN, $[]1 is the shell's (or awk's) $1, not a macro argument.

# The oldest CUDA toolkit gpureduce builds with: 12.0.  What sets it:
#   - tests/test-concurrency.c calls cudaGraphInstantiate (exec, graph,
#     flags), the CUDA 12.0 form (11.x takes an error node and a log
#     buffer instead of the flags);
#   - older needs: nvcc -std=c++17 (if constexpr in src/*.cuh, 11.0),
#     -arch=all-major (the default without a GPU, 11.5), --threads (11.2;
#     probed all the same), cudaDeviceProp.uuid (src/tune.c, 10.0).
# Not a version: the kernels need compute capability 6.1 (GR_CUDA_MIN_CC)
# (__dp4a in src/lane.cuh), and GR_CUDA_ARCH leaves older architectures
# out (CUDA 12.x's all-major and all start at sm_50); reduce-bench's CUB
# comparison needs a newer CCCL than 12.0's, which GR_CUDA_CUB probes.
# Only CUDA 13.0 has been tested (README, "Requirements").
m4_define([GR_CUDA_MIN_VERSION], [12.0])
m4_define([GR_CUDA_MIN_CC], [61])

# GR_CHECK_CFLAG(FLAG, [ACTION-IF-OK], [ACTION-IF-NOT])
# ----------------------------------------------------
# Whether the C compiler accepts FLAG without a warning.
AC_DEFUN([GR_CHECK_CFLAG], [
AS_VAR_PUSHDEF([gr_cv], [gr_cv_cflag_$1])dnl
AC_CACHE_CHECK([whether $CC accepts $1], [gr_cv], [
  gr_save_CFLAGS=$CFLAGS
  gr_save_werror=$ac_c_werror_flag
  CFLAGS="$CFLAGS $1"
  ac_c_werror_flag=yes
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [[return 0;]])],
                    [AS_VAR_SET([gr_cv], [yes])], [AS_VAR_SET([gr_cv], [no])])
  CFLAGS=$gr_save_CFLAGS
  ac_c_werror_flag=$gr_save_werror])
AS_VAR_IF([gr_cv], [yes], [$2], [$3])
AS_VAR_POPDEF([gr_cv])dnl
])

# GR_CHECK_LDFLAG(FLAG, [ACTION-IF-OK], [ACTION-IF-NOT], [PROLOGUE-SHELL])
# -----------------------------------------------------------------------
# Whether a C program links with FLAG added to LDFLAGS.
AC_DEFUN([GR_CHECK_LDFLAG], [
AS_VAR_PUSHDEF([gr_cv], [gr_cv_ldflag_$1])dnl
AC_CACHE_CHECK([whether the linker accepts $1], [gr_cv], [
  $4
  gr_save_LDFLAGS=$LDFLAGS
  LDFLAGS="$LDFLAGS $1"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([], [[return 0;]])],
                 [AS_VAR_SET([gr_cv], [yes])], [AS_VAR_SET([gr_cv], [no])])
  LDFLAGS=$gr_save_LDFLAGS])
AS_VAR_IF([gr_cv], [yes], [$2], [$3])
AS_VAR_POPDEF([gr_cv])dnl
])

# GR_PROG_CC_C11
# --------------
# Pin the language to C11 with GNU extensions: GR_STD_CFLAGS=-std=gnu11 when
# the compiler takes it and compiles C11 with it; fail otherwise.
AC_DEFUN([GR_PROG_CC_C11], [
AC_REQUIRE([AC_PROG_CC])
AC_CACHE_CHECK([for the option that makes $CC compile C11], [gr_cv_c11_flag], [
  gr_cv_c11_flag=unsupported
  gr_save_CFLAGS=$CFLAGS
  for gr_flag in -std=gnu11 -std=c11 ''; do
    CFLAGS="$gr_save_CFLAGS $gr_flag"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#include <stdalign.h>
#include <stdint.h>
#if !defined __STDC_VERSION__ || __STDC_VERSION__ < 201112L
# error not C11
#endif
_Static_assert (sizeof (uint32_t) == 4, "uint32_t");
static int gr_generic (int x) { return _Generic (x, int: 1, default: 0); }
]], [[alignas (16) char buf[16]; buf[0] = 0; return gr_generic (buf[0]) - 1;]])],
      [gr_cv_c11_flag=$gr_flag; break])
  done
  CFLAGS=$gr_save_CFLAGS
  test -n "$gr_cv_c11_flag" || gr_cv_c11_flag='none needed'])
AS_CASE([$gr_cv_c11_flag],
  [unsupported], [AC_MSG_ERROR([$CC does not compile C11; gpureduce needs a C11 compiler (GCC >= 4.9 or Clang >= 3.3)])],
  ['none needed'], [GR_STD_CFLAGS=],
  [GR_STD_CFLAGS=$gr_cv_c11_flag])
AC_SUBST([GR_STD_CFLAGS])
])

# GR_PROG_NVCC
# ------------
# Find nvcc: --with-cuda=DIR (DIR/bin/nvcc), else the precious NVCC, else
# PATH, else /usr/local/cuda/bin.  An explicit NVCC wins over DIR/bin/nvcc;
# DIR still gives the include and library directories.  Sets NVCC,
# NVCC_CCBIN_FLAGS (-ccbin CC from --with-cuda-host-compiler or NVCC_CCBIN),
# CUDA_ROOT.
AC_DEFUN([GR_PROG_NVCC], [
AC_REQUIRE([AC_CANONICAL_HOST])
AC_ARG_VAR([NVCC], [CUDA compiler driver (default: DIR/bin/nvcc of --with-cuda, else nvcc in PATH or /usr/local/cuda/bin)])
AC_ARG_VAR([NVCCFLAGS], [extra flags for nvcc (library and benchmark .cu files)])
AC_ARG_VAR([NVCC_CCBIN], [host compiler nvcc uses (passed as -ccbin); --with-cuda-host-compiler wins])
AC_ARG_WITH([cuda],
  [AS_HELP_STRING([--with-cuda=DIR],
    [CUDA toolkit in DIR (DIR/bin/nvcc, DIR/include, DIR/lib64) @<:@default: NVCC, then nvcc in PATH, then /usr/local/cuda@:>@])],
  [], [with_cuda=check])
AC_ARG_WITH([cuda-host-compiler],
  [AS_HELP_STRING([--with-cuda-host-compiler=CC],
    [host compiler for nvcc (nvcc -ccbin CC), e.g. cuda-gcc @<:@default: nvcc's own choice@:>@])],
  [], [with_cuda_host_compiler=])

gr_cuda_hint="install the CUDA toolkit (Debian/Ubuntu: apt-get install nvidia-cuda-toolkit; NVIDIA's repositories: cuda-toolkit), or pass --with-cuda=DIR for a toolkit installed in DIR"

AS_CASE([$with_cuda],
  [no], [AC_MSG_ERROR([gpureduce is a CUDA library and cannot be built --without-cuda])],
  [yes|check|''], [gr_cuda_dir=],
  [AS_IF([test -d "$with_cuda"], [],
     [AC_MSG_ERROR([--with-cuda=$with_cuda: no such directory; $gr_cuda_hint])])
   gr_cuda_dir=`cd "$with_cuda" && pwd`])

AS_IF([test -z "$NVCC" && test -n "$gr_cuda_dir"], [
  AS_IF([test -x "$gr_cuda_dir/bin/nvcc"], [NVCC=$gr_cuda_dir/bin/nvcc],
    [AC_MSG_ERROR([--with-cuda=$with_cuda: $gr_cuda_dir/bin/nvcc not found; $gr_cuda_hint])])])
AC_PATH_PROG([NVCC], [nvcc], [], [$PATH$PATH_SEPARATOR/usr/local/cuda/bin])
AS_IF([test -z "$NVCC"],
  [AC_MSG_ERROR([nvcc not found (looked in PATH and /usr/local/cuda/bin); $gr_cuda_hint, or set NVCC=/path/to/nvcc])])

AC_MSG_CHECKING([nvcc version])
gr_nvcc_version=`$NVCC --version 2>&AS_MESSAGE_LOG_FD | sed -n 's/^.*release \([[0-9.]]*\), *\(V[[0-9.]]*\).*$/\1, \2/p'`
AS_IF([test -z "$gr_nvcc_version"],
  [AC_MSG_RESULT([failed])
   AC_MSG_ERROR([$NVCC --version did not run or printed no release; $gr_cuda_hint])])
AC_MSG_RESULT([$gr_nvcc_version])
gr_nvcc_release=`echo "$gr_nvcc_version" | sed 's/,.*//'`
AS_VERSION_COMPARE([$gr_nvcc_release], [GR_CUDA_MIN_VERSION],
  [AC_MSG_ERROR([$NVCC is CUDA $gr_nvcc_version; gpureduce needs CUDA GR_CUDA_MIN_VERSION or newer: $gr_cuda_hint])])

# The toolkit root: --with-cuda, else the first of these that holds
# include/cuda_runtime_api.h: the directory above nvcc's bin as found (so
# /usr/local/cuda stays readable), the same with symlinks resolved, the TOP
# that nvcc itself reports (nvcc may be a wrapper script in /usr/local/bin or
# /usr/bin that execs the real one), and /usr/local/cuda.
AS_IF([test -n "$gr_cuda_dir"], [CUDA_ROOT=$gr_cuda_dir], [
  set dummy $NVCC; gr_nvcc_prog=$[]2
  gr_nvcc_top=`$NVCC --dryrun -x cu -c /dev/null -o /dev/null 2>&1 | sed -n 's/^#. TOP=//p' | sed 1q`
  CUDA_ROOT=
  gr_cuda_root_found=no
  for gr_p in "$gr_nvcc_prog" `readlink -f "$gr_nvcc_prog" 2>/dev/null`; do
    gr_d=`AS_DIRNAME(["$gr_p"])`
    gr_d=`cd "$gr_d/.." 2>/dev/null && pwd`
    test -n "$CUDA_ROOT" || CUDA_ROOT=$gr_d
    AS_IF([test -n "$gr_d" && test -f "$gr_d/include/cuda_runtime_api.h"],
          [CUDA_ROOT=$gr_d; gr_cuda_root_found=yes; break])
  done
  AS_IF([test "x$gr_cuda_root_found" != xyes], [
    for gr_d in "$gr_nvcc_top" /usr/local/cuda; do
      test -n "$gr_d" || continue
      gr_d=`cd "$gr_d" 2>/dev/null && pwd`
      AS_IF([test -n "$gr_d" && test -f "$gr_d/include/cuda_runtime_api.h"],
            [CUDA_ROOT=$gr_d; break])
    done])])
AC_SUBST([CUDA_ROOT])

AS_IF([test -n "$with_cuda_host_compiler" && test "x$with_cuda_host_compiler" != xno && test "x$with_cuda_host_compiler" != xyes],
  [NVCC_CCBIN=$with_cuda_host_compiler])
# nvcc itself reads NVCC_CCBIN from the environment: never leave it set
# but empty (nvcc would try to run "").
AS_IF([test -n "$NVCC_CCBIN"], [NVCC_CCBIN_FLAGS="-ccbin $NVCC_CCBIN"],
  [NVCC_CCBIN_FLAGS=; AS_UNSET([NVCC_CCBIN])])
AC_SUBST([NVCC_CCBIN_FLAGS])

# The library promises the same bits from its CUDA and host backends.
for gr_f in $NVCCFLAGS; do
  AS_CASE([$gr_f],
    [*use_fast_math*|*-fmad=true*|*-fmad*=*1*|*-ftz=true*|*-ftz*=*1*|*prec-div=false*|*prec-sqrt=false*],
    [AC_MSG_ERROR([NVCCFLAGS contains $gr_f: gpureduce promises bitwise-identical results from its CUDA and host backends, which fast-math style options break; remove it])])
done

AC_MSG_CHECKING([whether $NVCC compiles CUDA code])
cat > conftest.cu <<_GR_EOF
__global__ void gr_conftest_kernel (int *p) { *p = 1; }
extern "C" int gr_conftest (int *p) { gr_conftest_kernel<<<1, 1>>> (p); return 0; }
_GR_EOF
AS_IF([AC_RUN_LOG([$NVCC $NVCC_CCBIN_FLAGS $NVCCFLAGS -c conftest.cu -o conftest.$OBJEXT])],
  [AC_MSG_RESULT([yes])],
  [AC_MSG_RESULT([no])
   AC_MSG_ERROR([`echo $NVCC $NVCC_CCBIN_FLAGS $NVCCFLAGS` cannot compile a trivial .cu file (see config.log); if nvcc rejects your GCC version, pass --with-cuda-host-compiler=CC (e.g. cuda-gcc or an older g++)])])
rm -f conftest.cu conftest.$OBJEXT
])

# GR_CUDA_RUNTIME
# ---------------
# Find cuda_runtime_api.h and libcudart and check that a C program links with
# -lcudart.  Sets CUDA_CPPFLAGS (-I...), CUDA_LIBDIR, CUDA_LDFLAGS (-L...),
# CUDA_LIBS (-L... -lcudart), gr_cudart_version, gr_cudart_where.
AC_DEFUN([GR_CUDA_RUNTIME], [
AC_REQUIRE([GR_PROG_NVCC])
AC_REQUIRE([AC_PROG_AWK])
gr_cuda_targets="$host_cpu-linux"
AS_CASE([$host_cpu], [aarch64], [gr_cuda_targets="sbsa-linux aarch64-linux"])

AC_MSG_CHECKING([for the CUDA include directory])
CUDA_INCDIR=
for gr_d in "$CUDA_ROOT/include" `for gr_t in $gr_cuda_targets; do echo "$CUDA_ROOT/targets/$gr_t/include"; done`; do
  AS_IF([test -f "$gr_d/cuda_runtime_api.h"], [CUDA_INCDIR=$gr_d; break])
done
AS_CASE([$CUDA_INCDIR],
  [''], [AC_MSG_RESULT([not in $CUDA_ROOT, trying the compiler's default]); CUDA_CPPFLAGS=],
  [/usr/include], [AC_MSG_RESULT([$CUDA_INCDIR]); CUDA_CPPFLAGS=],
  [AC_MSG_RESULT([$CUDA_INCDIR]); CUDA_CPPFLAGS="-I$CUDA_INCDIR"])

AC_MSG_CHECKING([for the CUDA library directory])
CUDA_LIBDIR=
for gr_d in "$CUDA_ROOT/lib64" "$CUDA_ROOT/lib" `for gr_t in $gr_cuda_targets; do echo "$CUDA_ROOT/targets/$gr_t/lib"; done`; do
  AS_IF([test -f "$gr_d/libcudart.so" || test -f "$gr_d/libcudart.dylib" || test -f "$gr_d/libcudart.a"],
        [CUDA_LIBDIR=$gr_d; break])
done
AS_CASE([$CUDA_LIBDIR],
  [''|/lib|/lib64|/usr/lib|/usr/lib64|/lib/*-linux-gnu|/usr/lib/*-linux-gnu],
    [AS_IF([test -n "$CUDA_LIBDIR"], [AC_MSG_RESULT([$CUDA_LIBDIR (a default linker path)])],
           [AC_MSG_RESULT([not in $CUDA_ROOT, trying the linker's default])])
     CUDA_LDFLAGS=],
  [AC_MSG_RESULT([$CUDA_LIBDIR]); CUDA_LDFLAGS="-L$CUDA_LIBDIR"])

gr_save_CPPFLAGS=$CPPFLAGS
gr_save_LDFLAGS=$LDFLAGS
gr_save_LIBS=$LIBS
CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS"
LDFLAGS="$LDFLAGS $CUDA_LDFLAGS"
AC_CHECK_HEADER([cuda_runtime_api.h], [],
  [AC_MSG_ERROR([cuda_runtime_api.h not found (CUDA toolkit at $CUDA_ROOT); $gr_cuda_hint])])
AC_CHECK_LIB([cudart], [cudaRuntimeGetVersion], [:],
  [AC_MSG_ERROR([a C program does not link with -lcudart $CUDA_LDFLAGS (CUDA toolkit at $CUDA_ROOT); $gr_cuda_hint])])
AC_MSG_CHECKING([for the CUDA runtime version (CUDART_VERSION)])
AC_COMPUTE_INT([gr_cudart_version], [CUDART_VERSION], [[#include <cuda_runtime_api.h>]],
               [gr_cudart_version=unknown])
AC_MSG_RESULT([$gr_cudart_version])
# The headers must be as new as nvcc must be (CUDART_VERSION 12000 is 12.0).
gr_cudart_min=`echo GR_CUDA_MIN_VERSION | $AWK -F. '{ print $[]1 * 1000 + $[]2 * 10 }'`
AS_CASE([$gr_cudart_version], [*[[!0-9]]*|''], [],
  [AS_IF([test "$gr_cudart_version" -lt "$gr_cudart_min"],
    [AC_MSG_ERROR([cuda_runtime_api.h in ${CUDA_INCDIR:-the compiler's default path} is CUDART_VERSION $gr_cudart_version, older than CUDA GR_CUDA_MIN_VERSION ($gr_cudart_min), which gpureduce needs: $gr_cuda_hint])])])
AS_IF([test -n "$CUDA_LIBDIR"], [gr_cudart_where=$CUDA_LIBDIR/libcudart.so],
  [gr_cudart_where=`$CC $CFLAGS $LDFLAGS -print-file-name=libcudart.so 2>/dev/null`
   AS_CASE([$gr_cudart_where], [/*], [], [gr_cudart_where="linker default path"])])
CPPFLAGS=$gr_save_CPPFLAGS
LDFLAGS=$gr_save_LDFLAGS
LIBS=$gr_save_LIBS
CUDA_LIBS="$CUDA_LDFLAGS -lcudart"
AC_SUBST([CUDA_CPPFLAGS])
AC_SUBST([CUDA_LIBDIR])
AC_SUBST([CUDA_LDFLAGS])
AC_SUBST([CUDA_LIBS])
])

# _GR_CUDA_DETECT_GPUS
# --------------------
# Compute capabilities of this machine's GPUs without running a compiled
# program: nvidia-smi, else the toolkit's __nvcc_device_query.  Sets
# gr_detected_caps ("90" or "80 90") and gr_detected_what.
AC_DEFUN([_GR_CUDA_DETECT_GPUS], [
gr_detected_caps=
gr_detected_what=
AC_PATH_PROG([NVIDIA_SMI], [nvidia-smi], [], [$PATH$PATH_SEPARATOR/usr/bin])
AS_IF([test -n "$NVIDIA_SMI"], [
  AC_MSG_CHECKING([for GPUs with $NVIDIA_SMI])
  gr_smi=`"$NVIDIA_SMI" --query-gpu=compute_cap,name --format=csv,noheader 2>&AS_MESSAGE_LOG_FD`
  AS_ECHO(["nvidia-smi said: $gr_smi"]) >&AS_MESSAGE_LOG_FD
  gr_detected_caps=`echo "$gr_smi" | sed -n 's/^ *\([[0-9]][[0-9]]*\)\.\([[0-9]]\) *,.*$/\1\2/p' | sort -n -u | tr '\n' ' '`
  gr_detected_what=`echo "$gr_smi" | sed -n 's/^ *\([[0-9]][[0-9]]*\.[[0-9]]\) *, *\(.*[[^ ]]\) *$/\2 (\1)/p' | sort -u`
  AS_IF([test -n "$gr_detected_caps"], [
    gr_n=`echo "$gr_detected_what" | wc -l`
    AS_IF([test "$gr_n" -eq 1],
      [gr_detected_what=`echo "$gr_detected_what" | sed 's/^\(.*\) (\(.*\))$/\1, compute capability \2/'`],
      [gr_detected_what=`echo "$gr_detected_what" | tr '\n' ';' | sed 's/;$//; s/;/, /g'`])
    AC_MSG_RESULT([$gr_detected_what])],
    [AC_MSG_RESULT([none])])])
AS_IF([test -z "$gr_detected_caps"], [
  set dummy $NVCC; gr_nvcc_prog=$[]2
  gr_query=
  for gr_p in "$CUDA_ROOT/bin/__nvcc_device_query" \
      "`AS_DIRNAME(["$gr_nvcc_prog"])`/__nvcc_device_query" \
      "`AS_DIRNAME(["\`readlink -f "$gr_nvcc_prog" 2>/dev/null\`"])`/__nvcc_device_query"; do
    AS_IF([test -x "$gr_p"], [gr_query=$gr_p; break])
  done
  AS_IF([test -n "$gr_query"], [
    AC_MSG_CHECKING([for GPUs with $gr_query])
    gr_q=`"$gr_query" 2>&AS_MESSAGE_LOG_FD`
    AS_ECHO(["__nvcc_device_query said: $gr_q"]) >&AS_MESSAGE_LOG_FD
    gr_detected_caps=`echo "$gr_q" | tr -c '0-9\n' '\n' | sed -n '/^[[1-9]][[0-9]]*$/p' | sort -n -u | tr '\n' ' '`
    AS_IF([test -n "$gr_detected_caps"],
      [gr_detected_what="__nvcc_device_query: compute capability $gr_detected_caps"
       AC_MSG_RESULT([$gr_detected_caps])],
      [AC_MSG_RESULT([none])])])])
gr_detected_caps=`echo $gr_detected_caps`
])

# GR_CUDA_ARCH
# ------------
# --with-cuda-arch=auto|native|all-major|all|LIST -> CUDA_ARCH_FLAGS,
# CUDA_ARCH_REQUEST (a resolved value for distcheck: "90", "80,90",
# "all-major"), gr_cuda_arch_desc, gr_cuda_arch_why.
AC_DEFUN([GR_CUDA_ARCH], [
AC_REQUIRE([GR_PROG_NVCC])
AC_ARG_WITH([cuda-arch],
  [AS_HELP_STRING([--with-cuda-arch=ARCHS],
    [GPU architectures, much as CMake's CUDA_ARCHITECTURES: auto (this machine's GPUs, else all-major), native (this machine's GPUs, or fail), all-major, all, or a list such as 80,90 / sm_90 / 90;100 (each N builds sm_N code, the highest plain N also compute_N PTX; N-real: code only; N-virtual or compute_N: PTX only) @<:@default: auto@:>@])],
  [], [with_cuda_arch=auto])

# What this nvcc accepts (nvcc >= 11 lists them).
gr_nvcc_codes=`$NVCC --list-gpu-code 2>&AS_MESSAGE_LOG_FD | sed -n 's/^sm_\([[0-9]][[0-9]]*\)$/\1/p' | sort -n -u | tr '\n' ' '`
gr_nvcc_codes=`echo $gr_nvcc_codes`
AC_MSG_CHECKING([which compute capabilities $NVCC builds])
AS_IF([test -n "$gr_nvcc_codes"], [AC_MSG_RESULT([$gr_nvcc_codes])],
      [AC_MSG_RESULT([unknown (nvcc --list-gpu-code failed); not checking the list])])

gr_arch_request=`echo "$with_cuda_arch" | tr ',;' '  '`
gr_arch_request=`echo $gr_arch_request`
AS_CASE([$gr_arch_request], [''|yes], [gr_arch_request=auto],
  [no], [AC_MSG_ERROR([--without-cuda-arch: gpureduce needs at least one GPU architecture])])

gr_arch_list=
AS_CASE([$gr_arch_request],
  [auto], [
    AS_IF([test "x$cross_compiling" = xyes],
      [gr_arch_request=all-major; gr_cuda_arch_why="fallback: cross-compiling, no GPU probe"],
      [_GR_CUDA_DETECT_GPUS
       AS_IF([test -z "$gr_detected_caps"],
         [gr_arch_request=all-major; gr_cuda_arch_why="fallback: no GPU found"],
         [gr_arch_list=$gr_detected_caps; gr_cuda_arch_why="detected: $gr_detected_what"])])],
  [native], [
    AS_IF([test "x$cross_compiling" = xyes],
      [AC_MSG_ERROR([--with-cuda-arch=native makes no sense when cross-compiling; pass a list such as --with-cuda-arch=90, or all-major])])
    _GR_CUDA_DETECT_GPUS
    AS_IF([test -z "$gr_detected_caps"],
      [AC_MSG_ERROR([--with-cuda-arch=native: no GPU found on this machine (nvidia-smi and __nvcc_device_query found none); pass a list such as --with-cuda-arch=90, or all-major])])
    gr_arch_list=$gr_detected_caps; gr_cuda_arch_why="native, detected: $gr_detected_what"],
  [all-major|all], [gr_cuda_arch_why="requested"],
  [gr_arch_list=$gr_arch_request; gr_cuda_arch_why="requested"])

# A list: the detected GPUs, native's, or the one requested; all-major
# when none of them is left.
AS_CASE([$gr_arch_request], [all-major|all], [],
  [
    # Parse the list into code ("sass") and PTX ("ptx") entries.
    gr_sass= gr_ptx= gr_plain= gr_norm=
    for gr_e in $gr_arch_list; do
      gr_kind=both
      AS_CASE([$gr_e],
        [sm_*], [gr_n=`echo "$gr_e" | sed 's/^sm_//'`],
        [compute_*], [gr_n=`echo "$gr_e" | sed 's/^compute_//'`; gr_kind=ptx],
        [*-real], [gr_n=`echo "$gr_e" | sed 's/-real$//'`; gr_kind=sass],
        [*-virtual], [gr_n=`echo "$gr_e" | sed 's/-virtual$//'`; gr_kind=ptx],
        [gr_n=$gr_e])
      AS_CASE([$gr_n],
        [*[[!0-9af]]*|''|[[!1-9]]*|*[[af]]?*],
          [AC_MSG_ERROR([--with-cuda-arch: '$gr_e' is not a GPU architecture; use numbers such as 80,90 (or sm_90, 90-real, 90-virtual, 90a), auto, native, all-major or all])])
      gr_base=`echo "$gr_n" | sed 's/[[af]]$//'`
      AS_IF([test "$gr_base" -lt GR_CUDA_MIN_CC], [
        AS_IF([test "x$gr_cuda_arch_why" = xrequested],
          [AC_MSG_ERROR([--with-cuda-arch: compute capability $gr_base ('$gr_e') is older than 6.1, which gpureduce's kernels need (__dp4a)])],
          [AC_MSG_WARN([the GPU with compute capability $gr_base is older than 6.1, which gpureduce's kernels need; leaving it out])
           continue])])
      AS_IF([test -n "$gr_nvcc_codes"], [
        AS_CASE([" $gr_nvcc_codes "], [*" $gr_base "*], [],
          [AS_IF([test "x$gr_cuda_arch_why" = xrequested],
             [AC_MSG_ERROR([--with-cuda-arch: $NVCC ($gr_nvcc_version) cannot build compute capability $gr_base ('$gr_e'); it builds: $gr_nvcc_codes])],
             [AC_MSG_WARN([the GPU with compute capability $gr_base is not supported by $NVCC ($gr_nvcc_version); leaving it out])
              continue])])])
      AS_CASE([$gr_kind],
        [both], [gr_sass="$gr_sass $gr_n"; gr_plain="$gr_plain $gr_n"; gr_norm="$gr_norm,$gr_n"],
        [sass], [gr_sass="$gr_sass $gr_n"; gr_norm="$gr_norm,$gr_n-real"],
        [ptx], [gr_ptx="$gr_ptx $gr_n"; gr_norm="$gr_norm,$gr_n-virtual"])
    done
    AS_IF([test -z "$gr_sass$gr_ptx"], [
      AS_IF([test "x$gr_arch_request" = xnative],
        [AC_MSG_ERROR([--with-cuda-arch=native: no GPU of this machine is supported by $NVCC])])
      AC_MSG_WARN([no detected GPU is supported by $NVCC; building all-major])
      gr_arch_request=all-major
      gr_cuda_arch_why="fallback: detected GPUs ($gr_detected_what) not supported by nvcc"], [
      # The highest plain entry also gets PTX, for GPUs newer than the list.
      gr_top=`for gr_n in $gr_plain; do echo $gr_n; done | sort -n | tail -n 1`
      test -z "$gr_top" || gr_ptx="$gr_ptx $gr_top"
      gr_sass=`for gr_n in $gr_sass; do echo $gr_n; done | sort -n -u | tr '\n' ' '`
      gr_ptx=`for gr_n in $gr_ptx; do echo $gr_n; done | sort -n -u | tr '\n' ' '`
      CUDA_ARCH_FLAGS=
      gr_cuda_arch_desc=
      for gr_n in $gr_sass; do
        CUDA_ARCH_FLAGS="$CUDA_ARCH_FLAGS -gencode arch=compute_$gr_n,code=sm_$gr_n"
        gr_cuda_arch_desc="$gr_cuda_arch_desc sm_$gr_n"
      done
      gr_cuda_arch_desc=`echo $gr_cuda_arch_desc`
      gr_sep=", PTX"
      test -n "$gr_cuda_arch_desc" || gr_sep="PTX"
      for gr_n in $gr_ptx; do
        CUDA_ARCH_FLAGS="$CUDA_ARCH_FLAGS -gencode arch=compute_$gr_n,code=compute_$gr_n"
        gr_cuda_arch_desc="$gr_cuda_arch_desc$gr_sep compute_$gr_n"
        gr_sep=","
      done
      CUDA_ARCH_FLAGS=`echo $CUDA_ARCH_FLAGS`
      AS_CASE([$gr_cuda_arch_why],
        [requested], [CUDA_ARCH_REQUEST=`echo "$gr_norm" | sed 's/^,//'`],
        [CUDA_ARCH_REQUEST=`echo $gr_sass | tr ' ' ','`])])])

# all-major and all.  The kernels need compute capability 6.1 (__dp4a in
# cuda/thread/fold.cuh); nvcc 13's all-major and all start at sm_75, CUDA
# 12.x's at sm_50, so take nvcc's own list from 6.1 up: for all-major the
# lowest of each major version, for all every one.  cicc, which runs once
# for each PTX architecture, is two thirds of the build (doc/BUILD.md), and
# the source's __CUDA_ARCH__ tests split architectures at 7.5 and 8.0 only: the
# architectures from 9.0 up share the PTX of the lowest of them (compute_90
# with nvcc 13), which ptxas turns into each one's code and which is kept
# too, for GPUs newer than the list (nvcc runs cicc once for the -gencode
# entries of one compute_N).  The ones below 9.0 keep their own.
# Without nvcc's list, nvcc's -arch=all-major (or all) as it stands.
AS_CASE([$gr_arch_request], [all-major|all], [
  CUDA_ARCH_REQUEST=$gr_arch_request
  AS_IF([test -z "$gr_nvcc_codes"], [
    CUDA_ARCH_FLAGS="-arch=$gr_arch_request"
    gr_cuda_arch_desc="$gr_arch_request (nvcc -arch=$gr_arch_request)"], [
    gr_old= gr_keep= gr_major=
    for gr_n in $gr_nvcc_codes; do
      AS_IF([test "$gr_n" -lt GR_CUDA_MIN_CC], [gr_old="$gr_old sm_$gr_n"],
        [test "x$gr_arch_request" = xall || test "x$gr_major" != "x`expr $gr_n / 10`"],
        [gr_keep="$gr_keep $gr_n"; gr_major=`expr $gr_n / 10`])
    done
    AS_IF([test -n "$gr_old"], [
      AC_MSG_NOTICE([nvcc's -arch=$gr_arch_request has$gr_old, older than the compute capability 6.1 gpureduce's kernels need; leaving them out])
      gr_cuda_arch_why="$gr_cuda_arch_why; nvcc's $gr_arch_request from 6.1 up"])
    AS_IF([test -z "$gr_keep"],
      [AC_MSG_ERROR([--with-cuda-arch=$gr_arch_request: $NVCC builds no compute capability from 6.1 up (it builds: $gr_nvcc_codes)])])
    CUDA_ARCH_FLAGS= gr_cuda_arch_desc= gr_shared= gr_top=
    for gr_n in $gr_keep; do
      gr_top=$gr_n gr_ptx_of=$gr_n
      AS_IF([test "$gr_n" -ge 90], [test -n "$gr_shared" || gr_shared=$gr_n; gr_ptx_of=$gr_shared])
      CUDA_ARCH_FLAGS="$CUDA_ARCH_FLAGS -gencode arch=compute_$gr_ptx_of,code=sm_$gr_n"
      gr_cuda_arch_desc="$gr_cuda_arch_desc sm_$gr_n"
    done
    AS_IF([test -n "$gr_shared"], [
      CUDA_ARCH_FLAGS="$CUDA_ARCH_FLAGS -gencode arch=compute_$gr_shared,code=compute_$gr_shared"
      gr_cuda_arch_desc="$gr_cuda_arch_desc, PTX compute_$gr_shared (sm_$gr_shared and up built from it)"], [
      CUDA_ARCH_FLAGS="$CUDA_ARCH_FLAGS -gencode arch=compute_$gr_top,code=compute_$gr_top"
      gr_cuda_arch_desc="$gr_cuda_arch_desc, PTX compute_$gr_top"])
    CUDA_ARCH_FLAGS=`echo $CUDA_ARCH_FLAGS`
    gr_cuda_arch_desc="$gr_arch_request:$gr_cuda_arch_desc"])])

AC_MSG_CHECKING([nvcc flags for the GPU architectures])
AC_MSG_RESULT([$CUDA_ARCH_FLAGS])
AC_MSG_CHECKING([whether $NVCC builds for them])
cat > conftest.cu <<_GR_EOF
__global__ void gr_conftest_kernel (float *p) { *p = 1.0f; }
_GR_EOF
AS_IF([AC_RUN_LOG([$NVCC $NVCC_CCBIN_FLAGS $CUDA_ARCH_FLAGS $NVCCFLAGS -c conftest.cu -o conftest.$OBJEXT])],
  [AC_MSG_RESULT([yes])],
  [AC_MSG_RESULT([no])
   AC_MSG_ERROR([$NVCC rejects $CUDA_ARCH_FLAGS (see config.log); choose other architectures with --with-cuda-arch])])
rm -f conftest.cu conftest.$OBJEXT
AC_SUBST([CUDA_ARCH_FLAGS])
AC_SUBST([CUDA_ARCH_REQUEST])
])

# GR_CUDA_CUB
# -----------
# Whether nvcc compiles the CUB calls of tools/reduce-bench/bench_cub.cu (the
# benchmark's reference): DeviceReduce::Sum, TransformReduce with
# cuda::std::plus, and the ArgMin that writes the value and the index to
# two outputs (newer than CUDA 12.0's CCCL; CUDA 13.0's has it).
# Defines HAVE_CUB and the HAVE_CUB conditional; sets gr_have_cub.
AC_DEFUN([GR_CUDA_CUB], [
AC_REQUIRE([GR_PROG_NVCC])
AC_ARG_WITH([cub],
  [AS_HELP_STRING([--without-cub], [do not compare the benchmark with CUB @<:@default: use CUB when nvcc finds it@:>@])],
  [], [with_cub=check])
gr_have_cub=no
AS_IF([test "x$with_cub" != xno], [
  AC_MSG_CHECKING([whether $NVCC compiles the CUB calls of reduce-bench])
  cat > conftest.cu <<_GR_EOF
#include <cstdint>
#include <cub/cub.cuh>
struct gr_square { __host__ __device__ float operator() (float x) const { return x * x; } };
extern "C" int gr_conftest (void)
{
  size_t bytes = 0;
  const float *in = nullptr;
  float *out = nullptr;
  int64_t *index = nullptr;
  cudaError_t e = cub::DeviceReduce::Sum (nullptr, bytes, in, out, 0);
  if (e == cudaSuccess)
    e = cub::DeviceReduce::TransformReduce (nullptr, bytes, in, out, (size_t) 0,
                                            ::cuda::std::plus<float> (), gr_square (), 0.0f, 0);
  if (e == cudaSuccess)
    e = cub::DeviceReduce::ArgMin (nullptr, bytes, in, out, index, (int64_t) 0, 0);
  return (int) e;
}
_GR_EOF
  # --ptx: a full device-side compile of the CUB headers, without the slow
  # host pass (the host compiler was checked in GR_PROG_NVCC).
  AS_IF([AC_RUN_LOG([$NVCC $NVCC_CCBIN_FLAGS -std=c++17 $NVCCFLAGS --ptx conftest.cu -o conftest.ptx])],
    [gr_have_cub=yes])
  rm -f conftest.cu conftest.ptx
  AC_MSG_RESULT([$gr_have_cub])
  AS_IF([test "x$with_cub$gr_have_cub" = xyesno],
    [AC_MSG_ERROR([--with-cub: $NVCC cannot compile reduce-bench's CUB calls (see config.log): DeviceReduce::Sum, TransformReduce, and ArgMin with separate value and index outputs, which the CCCL of CUDA 13.0 has])])])
AS_IF([test "x$gr_have_cub" = xyes],
  [AC_DEFINE([HAVE_CUB], [1], [Define to 1 if nvcc compiles <cub/cub.cuh>.])])
AM_CONDITIONAL([HAVE_CUB], [test "x$gr_have_cub" = xyes])
])

# GR_CUDA_CUBLAS
# --------------
# Whether a C program links cuBLAS (cublas_v2.h, -lcublas, next to the
# CUDA runtime of GR_CUDA_RUNTIME): reduce-bench times cublasSdot and
# cublasDdot beside gpureduce_dot, and cublasSnrm2_64 and cublasDnrm2_64
# (the 64-bit interface of CUDA 12 and later) beside the nrm2.  Optional,
# like CUB; the library never links it.  Defines HAVE_CUBLAS, substitutes CUBLAS_LIBS, sets
# gr_have_cublas.
AC_DEFUN([GR_CUDA_CUBLAS], [
AC_REQUIRE([GR_CUDA_RUNTIME])
AC_ARG_WITH([cublas],
  [AS_HELP_STRING([--without-cublas], [do not compare the benchmark's dot products and nrm2 with cuBLAS @<:@default: use cuBLAS when it links@:>@])],
  [], [with_cublas=check])
gr_have_cublas=no
CUBLAS_LIBS=
AS_IF([test "x$with_cublas" != xno], [
  AC_MSG_CHECKING([whether a program links cuBLAS])
  gr_save_CPPFLAGS=$CPPFLAGS
  gr_save_LIBS=$LIBS
  CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS"
  LIBS="$CUDA_LDFLAGS -lcublas $CUDA_LIBS $LIBS"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <cublas_v2.h>]],
      [[cublasHandle_t h; float r; (void)cublasSdot (h, 0, 0, 1, 0, 1, &r);
        return cublasCreate (&h) != CUBLAS_STATUS_SUCCESS;]])],
    [gr_have_cublas=yes; CUBLAS_LIBS="$CUDA_LDFLAGS -lcublas"])
  CPPFLAGS=$gr_save_CPPFLAGS
  LIBS=$gr_save_LIBS
  AC_MSG_RESULT([$gr_have_cublas])
  AS_IF([test "x$with_cublas$gr_have_cublas" = xyesno],
    [AC_MSG_ERROR([--with-cublas: cannot link cuBLAS (cublas_v2.h, -lcublas; see config.log)])])])
AS_IF([test "x$gr_have_cublas" = xyes],
  [AC_DEFINE([HAVE_CUBLAS], [1], [Define to 1 if reduce-bench links cuBLAS.])])
AC_SUBST([CUBLAS_LIBS])
])

# _GR_NVCC_HOST_TRY(FLAGS)
# ------------------------
# gr_host_ok=yes when $gr_host_cmd FLAGS compiles conftest.cu and prints
# what $gr_host_cmd alone printed into conftest.base (nvcc's temporary
# file names taken out of both), else no.
m4_define([_GR_NVCC_HOST_TRY], [
AS_ECHO(["$as_me:$LINENO: $gr_host_cmd $1"]) >&AS_MESSAGE_LOG_FD
gr_host_ok=no
AS_IF([$gr_host_cmd $1 >conftest.out 2>&1],
  [sed 's/tmpxft_[[0-9a-f_]]*//g' conftest.out > conftest.said
   cmp -s conftest.base conftest.said && gr_host_ok=yes])
cat conftest.out >&AS_MESSAGE_LOG_FD
])

# GR_CHECK_NVCC_HOST_FLAGS
# ------------------------
# The CPPFLAGS and CXXFLAGS given to configure (a distribution's -g, -O2,
# -D_FORTIFY_SOURCE, -fstack-protector-strong, -ffile-prefix-map=...,
# -Wformat -Werror=format-security) for the host code of the .cu files:
# nvcc passes -Xcompiler options to its host compiler, which preprocesses
# the device code too and compiles the host code.  Left out:
#   - -std=... (nvcc sets the C++ dialect, -std=c++17);
#   - fast-math style options, with a warning (the CUDA and host backends
#     promise the same bits; NVCCFLAGS are refused in GR_PROG_NVCC);
#   - every option with which nvcc and its host compiler (NVCC_CCBIN)
#     fail or print more than without it: C-only warnings such as
#     -Wstrict-prototypes or -Wmissing-prototypes, options g++ lacks.
# Each is tried on top of those already taken, so -Werror=format-security
# finds the -Wformat before it.  An option and its argument given as two
# words (-I DIR, -isystem DIR, -include FILE, -D NAME) stay together;
# commas are escaped for -Xcompiler, which splits at them
# (-Wp,-D_FORTIFY_SOURCE=3).  Sets GR_NVCC_HOST_FLAGS ("-Xcompiler FLAG"
# for each, quoted for make's shell), gr_nvcc_host_desc and
# gr_nvcc_host_left_out.
AC_DEFUN([GR_CHECK_NVCC_HOST_FLAGS], [
AC_REQUIRE([GR_PROG_NVCC])
AC_REQUIRE([AC_PROG_CXX])
# The candidates, one -Xcompiler argument each.
gr_cands=
gr_nvcc_host_left_out=
gr_join=
for gr_f in $CPPFLAGS $CXXFLAGS; do
  gr_x=$gr_f
  AS_CASE([$gr_x], [*,*], [gr_x=`AS_ECHO(["$gr_x"]) | sed 's/,/\\\\,/g'`])
  AS_IF([test -n "$gr_join"], [gr_cands="$gr_cands $gr_join,$gr_x"; gr_join=; continue])
  AS_CASE([$gr_f],
    [-I|-D|-U|-isystem|-include|-imacros|-iquote|-idirafter], [gr_join=$gr_f],
    [-std=*|--std=*], [gr_nvcc_host_left_out="$gr_nvcc_host_left_out $gr_f"],
    [-ffast-math|-Ofast|-funsafe-math-optimizations|-fassociative-math|-freciprocal-math|-ffinite-math-only|-fno-signed-zeros|-ffp-contract=fast|-ffp-contract=on|-fcx-limited-range],
      [AC_MSG_WARN([not passing $gr_f to nvcc's host compiler: gpureduce promises the same bits from its CUDA and host backends])
       gr_nvcc_host_left_out="$gr_nvcc_host_left_out $gr_f"],
    [gr_cands="$gr_cands $gr_x"])
done
test -z "$gr_join" || gr_cands="$gr_cands $gr_join"

AC_MSG_CHECKING([which CPPFLAGS and CXXFLAGS to pass to nvcc's host compiler])
gr_taken=
AS_IF([test -n "$gr_cands"], [
  cat > conftest.cu <<_GR_EOF
#include <cstdio>
#include <cstring>
__global__ void gr_conftest_kernel (int *p) { *p = 1; }
extern "C" int gr_conftest (char *b, int *p)
{
  gr_conftest_kernel<<<1, 1>>> (p);
  std::snprintf (b, 8, "%d", *p);
  return (int) std::strlen (b);
}
_GR_EOF
  gr_host_cmd="$NVCC $NVCC_CCBIN_FLAGS -std=c++17 -Xcompiler -O3 -Xcompiler -Wall $NVCCFLAGS -c conftest.cu -o conftest.$OBJEXT"
  AS_ECHO(["$as_me:$LINENO: $gr_host_cmd"]) >&AS_MESSAGE_LOG_FD
  AS_IF([$gr_host_cmd >conftest.out 2>&1], [], [
    cat conftest.out >&AS_MESSAGE_LOG_FD
    AC_MSG_RESULT([failed])
    AC_MSG_ERROR([$NVCC cannot compile a small .cu file with -std=c++17 -Xcompiler -O3 -Xcompiler -Wall (see config.log)])])
  sed 's/tmpxft_[[0-9a-f_]]*//g' conftest.out > conftest.base
  gr_try=
  for gr_c in $gr_cands; do gr_try="$gr_try -Xcompiler $gr_c"; done
  _GR_NVCC_HOST_TRY([$gr_try])
  AS_IF([test $gr_host_ok = yes], [gr_taken=$gr_cands], [
    gr_try=
    for gr_c in $gr_cands; do
      _GR_NVCC_HOST_TRY([$gr_try -Xcompiler $gr_c])
      AS_IF([test $gr_host_ok = yes],
        [gr_try="$gr_try -Xcompiler $gr_c"; gr_taken="$gr_taken $gr_c"],
        [gr_nvcc_host_left_out="$gr_nvcc_host_left_out $gr_c"])
    done])
  rm -f conftest.cu conftest.$OBJEXT conftest.out conftest.said conftest.base])

# The Makefile's form (an argument with a backslash in single quotes, for
# make's shell) and the summary's (as given to configure).
GR_NVCC_HOST_FLAGS=
gr_nvcc_host_desc=
for gr_c in $gr_taken; do
  AS_CASE([$gr_c], [*\\*], [GR_NVCC_HOST_FLAGS="$GR_NVCC_HOST_FLAGS -Xcompiler '$gr_c'"],
    [GR_NVCC_HOST_FLAGS="$GR_NVCC_HOST_FLAGS -Xcompiler $gr_c"])
done
GR_NVCC_HOST_FLAGS=`echo $GR_NVCC_HOST_FLAGS`
gr_nvcc_host_desc=`AS_ECHO([" $gr_taken"]) | sed 's/\\\\,/@GR_COMMA@/g; s/,/ /g; s/@GR_COMMA@/,/g'`
gr_nvcc_host_left_out=`AS_ECHO([" $gr_nvcc_host_left_out"]) | sed 's/\\\\,/@GR_COMMA@/g; s/,/ /g; s/@GR_COMMA@/,/g'`
gr_nvcc_host_desc=`echo $gr_nvcc_host_desc`
gr_nvcc_host_left_out=`echo $gr_nvcc_host_left_out`
AS_IF([test -n "$gr_nvcc_host_desc"], [AC_MSG_RESULT([$gr_nvcc_host_desc])], [AC_MSG_RESULT([none])])
AS_IF([test -n "$gr_nvcc_host_left_out"],
  [AC_MSG_NOTICE([not passed to $NVCC's host compiler: $gr_nvcc_host_left_out])])
AC_SUBST([GR_NVCC_HOST_FLAGS])
])
