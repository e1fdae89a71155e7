#!/bin/sh
# install-deps.sh - install what building and testing gpureduce needs,
# besides the CUDA toolkit: autoconf automake libtool pkg-config
# libcmocka-dev libmpfr-dev make gcc g++, and Open MPI (libopenmpi-dev,
# openmpi-bin) for libgpureduce_mpi and its tests (optional to configure,
# which builds it when it finds MPI; CI installs it so that it is built
# and tested).  MPFR (libmpfr-dev) is the reference of the exp and log
# tests, which skip without it.
#
# Usage: tools/install-deps.sh [--dry-run]
#
# On Debian and Ubuntu it installs the missing packages with apt-get (with
# sudo when not root and sudo exists), printing each command first, and
# does nothing when all are installed.  Elsewhere it checks for the
# programs and cmocka, and names what to install.  The README's quick
# start and .ci/run both call it, so they share this one list.
#
#   --dry-run   print what would be run, run nothing
#
# Exit status: 0 when everything is (now) installed; 1 when something is
# missing and could not be installed; 2 for a bad argument.
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

PACKAGES="autoconf automake libtool pkg-config libcmocka-dev libmpfr-dev make gcc g++ libopenmpi-dev openmpi-bin"

dry_run=no
for arg
do
  case $arg in
    -n | --dry-run) dry_run=yes ;;
    -h | --help) sed -n '2,/^# Copyright/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-deps: unknown argument '$arg' (usage: tools/install-deps.sh [--dry-run])" >&2
       exit 2 ;;
  esac
done

say () { echo "install-deps: $*"; }

# run COMMAND...: print it, then run it (unless --dry-run).
run ()
{
  say "running: $*"
  test "$dry_run" = yes && return 0
  "$@"
}

# The CUDA toolkit is not installed here; say so early when it is missing.
check_nvcc ()
{
  if command -v nvcc >/dev/null 2>&1 || test -x /usr/local/cuda/bin/nvcc; then
    return 0
  fi
  say "note: nvcc not found in PATH or /usr/local/cuda/bin: install the CUDA"
  say "  toolkit (NVIDIA's cuda-toolkit package, or Debian's nvidia-cuda-toolkit),"
  say "  or tell configure where it is with --with-cuda=DIR"
}

if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
  missing=
  for p in $PACKAGES; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
    case $status in
      *" installed") ;;
      *) missing="$missing $p" ;;
    esac
  done
  if test -z "$missing"; then
    say "all installed: $PACKAGES"
    check_nvcc
    exit 0
  fi
  say "missing:$missing"
  if test "$(id -u)" = 0; then
    sudo=
  elif command -v sudo >/dev/null 2>&1; then
    sudo=sudo
  else
    say "not root and no sudo: as root, run" >&2
    say "  apt-get update && apt-get install$missing" >&2
    exit 1
  fi
  # shellcheck disable=SC2086
  run $sudo env DEBIAN_FRONTEND=noninteractive apt-get update || exit 1
  # shellcheck disable=SC2086
  run $sudo env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends $missing || exit 1
  check_nvcc
  exit 0
fi

# Not Debian or Ubuntu: check the programs and cmocka, and name packages.
missing=
for prog in autoconf automake libtoolize pkg-config make gcc g++; do
  command -v "$prog" >/dev/null 2>&1 || missing="$missing $prog"
done
cmocka=yes
pkg-config --exists cmocka 2>/dev/null || cmocka=no
check_nvcc
pkg-config --exists mpi-c 2>/dev/null || command -v mpicc >/dev/null 2>&1 \
  || say "no MPI (optional: without it configure builds no libgpureduce_mpi; Open MPI's development package provides it)"
if test -z "$missing" && test "$cmocka" = yes; then
  say "all present: autoconf automake libtool pkg-config cmocka make gcc g++"
  exit 0
fi
test -n "$missing" && say "missing programs:$missing"
test "$cmocka" = no && say "cmocka not found by pkg-config (optional: without it make check skips the cmocka tests)"
say "this is not Debian or Ubuntu (no apt-get); install these yourself, e.g."
say "  Fedora, RHEL:  dnf install autoconf automake libtool pkgconf-pkg-config libcmocka-devel mpfr-devel make gcc gcc-c++ openmpi-devel"
say "  openSUSE:      zypper install autoconf automake libtool pkg-config cmocka-devel mpfr-devel make gcc gcc-c++ openmpi4-devel"
say "  Arch:          pacman -S autoconf automake libtool pkgconf cmocka mpfr make gcc openmpi"
test -z "$missing"
