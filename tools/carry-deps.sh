#!/bin/sh
# carry-deps.sh - put in .dist/ what the GPU machine lacks and cannot
# install (../shared/GPU.md): cmocka, MPFR and Open MPI, Debian's packages
# fetched with apt-get download and unpacked with dpkg -x, and
# .dist/mpi-env.sh, which points PATH, LD_LIBRARY_PATH, OPAL_PREFIX,
# PMIX_INSTALL_PREFIX, MPI_CFLAGS and MPI_LIBS there.
#
# Usage: tools/carry-deps.sh [--no-mpi]
#
# Run it here (Debian or Ubuntu with apt-get and dpkg; no root needed),
# from the top of the checkout, before carrying .dist/ to the device:
#
#   .dist/cmocka/    libcmocka0 and libcmocka-dev (tools/gpu-check.sh
#                    points configure at it)
#   .dist/mpfr/      libmpfr6, libmpfr-dev, libgmp10 and libgmp-dev, the
#                    reference of the exp and log tests (tools/gpu-check.sh
#                    points configure at it)
#   .dist/mpi/       openmpi-bin, libopenmpi3, libopenmpi-dev and the
#                    libraries they load, without documentation, Fortran
#                    and OpenSHMEM (about 26 MB)
#   .dist/mpi-env.sh sourced by tools/gpu-check.sh from the checkout's top
#                    when it exists, so configure finds MPI and the tests
#                    run mpirun as root
#
# MPI_LIBS carries no -rpath: tests/mpi/test-mpi.sh fails an installed
# libgpureduce_mpi whose RUNPATH names any directory but its libdir, and
# LD_LIBRARY_PATH finds the carried libraries.  --no-mpi: cmocka and MPFR
# only.
#
# Exit status: 0 when done, 1 when a download or unpack failed, 2 for a
# bad argument.
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
set -u

mpi=yes
for arg
do
  case $arg in
    --no-mpi) mpi=no ;;
    -h | --help) sed -n '2,/^# Copyright/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "carry-deps: unknown argument '$arg' (usage: tools/carry-deps.sh [--no-mpi])" >&2
       exit 2 ;;
  esac
done

say () { echo "carry-deps: $*"; }

# unpack DIR PACKAGE...: apt-get download the packages, dpkg -x each into DIR.
unpack ()
{
  dir=$1; shift
  debs=`mktemp -d` && chmod 755 "$debs" || return 1
  (cd "$debs" && apt-get download "$@") >/dev/null || {
    say "apt-get download $* failed"; rm -rf "$debs"; return 1; }
  rm -rf "$dir" && mkdir -p "$dir" || { rm -rf "$debs"; return 1; }
  for deb in "$debs"/*.deb; do
    dpkg -x "$deb" "$dir" || { say "dpkg -x $deb failed"; rm -rf "$debs"; return 1; }
  done
  rm -rf "$debs"
}

mkdir -p .dist || exit 1
unpack .dist/cmocka libcmocka0 libcmocka-dev || exit 1
say "made .dist/cmocka"
unpack .dist/mpfr libmpfr6 libmpfr-dev libgmp10 libgmp-dev || exit 1
rm -rf .dist/mpfr/usr/share
say "made .dist/mpfr"
test "$mpi" = yes || exit 0

# Debian 12's Open MPI 4.1 and what its libraries and components load,
# beyond the C and C++ runtimes every machine has.
unpack .dist/mpi openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev \
  libevent-core-2.1-7 libevent-pthreads-2.1-7 libevent-2.1-7 libhwloc15 \
  libpmix2 libfabric1 libucx0 libibverbs1 librdmacm1 libnl-3-200 \
  libnl-route-3-200 libnuma1 libpsm2-2 libpsm-infinipath1 libmunge2 \
  libltdl7 libxnvctrl0 libpciaccess0 libx11-6 libxext6 libxcb1 libxau6 \
  libxdmcp6 libbsd0 libmd0 || exit 1
lib=.dist/mpi/usr/lib/x86_64-linux-gnu
rm -rf .dist/mpi/usr/share/doc .dist/mpi/usr/share/man .dist/mpi/usr/share/lintian \
  .dist/mpi/usr/share/java "$lib"/fortran "$lib"/liboshmem* "$lib"/libmpi_mpifh* \
  "$lib"/libmpi_usempi* "$lib"/libmpi_java*
find "$lib"/openmpi/include -name '*.mod' -exec rm -f {} +
for p in mpicc mpirun mpiexec; do
  test -e .dist/mpi/usr/bin/$p || ln -s $p.openmpi .dist/mpi/usr/bin/$p
done

cat > .dist/mpi-env.sh <<'EOF'
# mpi-env.sh - made by tools/carry-deps.sh: source it from the top of the
# checkout on the GPU machine (tools/gpu-check.sh does) to use the Open MPI
# unpacked in .dist/mpi.
gr_mpi_root=$PWD/.dist/mpi/usr
gr_mpi_lib=$gr_mpi_root/lib/x86_64-linux-gnu
export OPAL_PREFIX=$gr_mpi_root
export PMIX_INSTALL_PREFIX=$gr_mpi_lib/pmix2
export PMIX_MCA_pcompress_base_silence_warning=1
export PATH=$gr_mpi_root/bin:$PATH
export LD_LIBRARY_PATH=$gr_mpi_lib:$gr_mpi_lib/openmpi/lib:$gr_mpi_lib/pmix2/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export MPI_CFLAGS="-I$gr_mpi_lib/openmpi/include -I$gr_mpi_lib/openmpi/include/openmpi"
export MPI_LIBS="-L$gr_mpi_lib/openmpi/lib -lmpi"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
EOF
say "made .dist/mpi and .dist/mpi-env.sh (`du -sh .dist/mpi | cut -f1`)"
