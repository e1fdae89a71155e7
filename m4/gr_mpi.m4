# gr_mpi.m4 - MPI for libgpureduce_mpi (gpureduce_mpi.h), optional.
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.

# GR_MPI
# ------
# --with-mpi=auto|yes|no (default auto): build libgpureduce_mpi, its
# tests and reduce-bench-mpi when a C program links MPI.  Where the flags
# come from, the first that works:
#   1. MPI_CFLAGS and MPI_LIBS given to configure (both), or pkg-config's
#      mpi-c module (Debian and Ubuntu's alternatives name for the MPI of
#      the system: Open MPI or MPICH);
#   2. the MPI compiler wrapper MPICC (default: mpicc, mpicc.openmpi,
#      mpicc.mpich in PATH) asked for its flags, never used as the
#      compiler: Open MPI's `mpicc --showme:compile` and
#      `--showme:link`, else MPICH's `mpicc -compile-info` and
#      `-link-info` (their first word, the compiler, dropped).
# Either way a program that calls MPI_Init and MPI_Allgatherv must link
# with them, or they are not taken.  The implementation and its version
# (Open MPI's OMPI_*_VERSION, MPICH's MPICH_VERSION, else the MPI standard
# version) come from <mpi.h> through the preprocessor, for the summary.
#
# Substitutes MPI_CFLAGS, MPI_LIBS, MPIEXEC (for make check), GR_DL_LIBS
# (dlsym, for a test; the GR_TEST_INTERPOSE conditional), and for
# gpureduce-mpi.pc GR_MPI_PC_REQUIRES ("mpi-c" when pkg-config found it),
# GR_MPI_PC_CFLAGS and GR_MPI_PC_LIBS (the flags when it did not); the
# GR_HAVE_MPI conditional; sets gr_mpi_desc for the summary.
AC_DEFUN([GR_MPI], [
AC_REQUIRE([PKG_PROG_PKG_CONFIG])
AC_REQUIRE([AC_PROG_CPP])
AC_ARG_WITH([mpi],
  [AS_HELP_STRING([--with-mpi=auto|yes|no], [build libgpureduce_mpi (reductions across MPI ranks), its tests and reduce-bench-mpi; yes fails without MPI @<:@default: auto, when pkg-config's mpi-c or mpicc gives flags that link@:>@])],
  [], [with_mpi=auto])
AC_ARG_VAR([MPICC], [MPI compiler wrapper asked for MPI's flags when pkg-config has no mpi-c (default: mpicc in PATH); it never compiles anything])
AS_CASE([$with_mpi],
  [auto|yes|no], [],
  [check], [with_mpi=auto],
  [AC_MSG_ERROR([--with-mpi takes auto, yes or no, not '$with_mpi'])])

gr_have_mpi=no
gr_mpi_how=
gr_mpi_name=
GR_MPI_PC_REQUIRES=
GR_MPI_PC_CFLAGS=
GR_MPI_PC_LIBS=
AS_IF([test "x$with_mpi" != xno], [
  # 1. Flags given, or pkg-config's mpi-c.
  AS_IF([test -n "$MPI_CFLAGS$MPI_LIBS"],
    [gr_mpi_how="MPI_CFLAGS and MPI_LIBS"
     _GR_MPI_TRY_LINK([gr_have_mpi=yes])],
    [PKG_CHECK_MODULES([MPI], [mpi-c],
      [gr_mpi_how="pkg-config mpi-c"
       _GR_MPI_TRY_LINK([gr_have_mpi=yes; GR_MPI_PC_REQUIRES=mpi-c])],
      [:])])
  # 2. The wrapper's flags.
  AS_IF([test "x$gr_have_mpi" = xno && test -z "$gr_mpi_how"], [
    AS_IF([test -z "$MPICC"], [AC_PATH_PROGS([MPICC], [mpicc mpicc.openmpi mpicc.mpich])])
    AS_IF([test -n "$MPICC"], [
      AC_MSG_CHECKING([for MPI's flags from $MPICC])
      AS_IF([gr_c=`$MPICC --showme:compile 2>/dev/null` &&
             gr_l=`$MPICC --showme:link 2>/dev/null` && test -n "$gr_l"],
        [gr_mpi_how="$MPICC --showme"],
        [gr_c=`$MPICC -compile-info 2>/dev/null` &&
         gr_l=`$MPICC -link-info 2>/dev/null` && test -n "$gr_l"],
        [# MPICH prints whole command lines: drop the compiler, and from
         # the link line every word that is not -L, -l, -Wl or -pthread.
         gr_c=`echo "$gr_c" | sed 's/^[[^ ]]* *//'`
         gr_l2=
         for gr_f in `echo "$gr_l" | sed 's/^[[^ ]]* *//'`; do
           AS_CASE([$gr_f], [-L*|-l*|-Wl,*|-pthread], [gr_l2="$gr_l2 $gr_f"])
         done
         gr_l=`echo $gr_l2`
         gr_mpi_how="$MPICC -compile-info"])
      AS_IF([test -n "$gr_mpi_how"], [
        AC_MSG_RESULT([$gr_c $gr_l])
        MPI_CFLAGS=$gr_c
        MPI_LIBS=$gr_l
        _GR_MPI_TRY_LINK([gr_have_mpi=yes
          GR_MPI_PC_CFLAGS=$MPI_CFLAGS
          GR_MPI_PC_LIBS=$MPI_LIBS])],
        [AC_MSG_RESULT([none (neither --showme nor -compile-info works)])])])])
  AS_IF([test "x$gr_have_mpi" = xyes && test -z "$GR_MPI_PC_REQUIRES" && test -z "$GR_MPI_PC_LIBS"],
    [GR_MPI_PC_CFLAGS=$MPI_CFLAGS
     GR_MPI_PC_LIBS=$MPI_LIBS])
  AS_IF([test "x$gr_have_mpi" = xyes], [_GR_MPI_NAME])
  AS_IF([test "x$with_mpi$gr_have_mpi" = xyesno], [
    AS_IF([test -n "$gr_mpi_how"],
      [AC_MSG_ERROR([--with-mpi=yes: a program does not link MPI with the flags of $gr_mpi_how ($MPI_CFLAGS $MPI_LIBS; see config.log)])],
      [AS_IF([test -n "$MPICC"], [gr_mpicc_said="$MPICC gives no flags (neither --showme nor -compile-info)"],
         [gr_mpicc_said="no mpicc is in PATH"])
       AC_MSG_ERROR([--with-mpi=yes: no MPI found: pkg-config has no mpi-c and $gr_mpicc_said; install libopenmpi-dev (Debian, Ubuntu), or give MPICC=, or MPI_CFLAGS= and MPI_LIBS=])])])])

# (No HAVE_MPI in config.h: nothing but the MPI sources needs it, and
# config.h changing with --with-mpi would rebuild every .cu object.)
AS_IF([test "x$gr_have_mpi" = xyes], [
  gr_mpi_desc="yes ($gr_mpi_name, $gr_mpi_how)"],
  [test "x$with_mpi" = xno], [
  MPI_CFLAGS=
  MPI_LIBS=
  gr_mpi_desc="no (--with-mpi=no)"],
  [test -n "$gr_mpi_how"], [
  MPI_CFLAGS=
  MPI_LIBS=
  gr_mpi_desc="no (the flags of $gr_mpi_how do not link, see config.log; --with-mpi=yes to require MPI)"],
  [gr_mpi_desc="no (not found; --with-mpi=yes to require it)"])
# mpiexec for make check (tests/mpi/test-mpi.sh), next to the wrapper
# when there is one.
AC_ARG_VAR([MPIEXEC], [the MPI launcher make check runs tests/mpi/test-mpi-reduce with (default: mpiexec or mpirun in PATH)])
AS_IF([test "x$gr_have_mpi" = xyes && test -z "$MPIEXEC"],
  [AC_PATH_PROGS([MPIEXEC], [mpiexec mpirun mpiexec.openmpi mpiexec.mpich])])
# tests/mpi/test-mpi-reduce makes one rank's partial reduction fail by
# interposing gpureduce_partial_reduce() (dlsym(RTLD_NEXT)): shared
# libraries only.
GR_DL_LIBS=
gr_interpose=no
AS_IF([test "x$gr_have_mpi" = xyes && test "x$enable_shared" = xyes], [
  gr_save_LIBS=$LIBS
  LIBS=
  AC_SEARCH_LIBS([dlsym], [dl], [GR_DL_LIBS=$LIBS; gr_interpose=yes])
  LIBS=$gr_save_LIBS])
AC_SUBST([GR_DL_LIBS])
AM_CONDITIONAL([GR_TEST_INTERPOSE], [test "x$gr_interpose" = xyes])
AC_SUBST([MPI_CFLAGS])
AC_SUBST([MPI_LIBS])
AC_SUBST([GR_MPI_PC_REQUIRES])
AC_SUBST([GR_MPI_PC_CFLAGS])
AC_SUBST([GR_MPI_PC_LIBS])
AM_CONDITIONAL([GR_HAVE_MPI], [test "x$gr_have_mpi" = xyes])
])

# _GR_MPI_TRY_LINK(IF-LINKS)
# --------------------------
# Does a program calling MPI_Init, MPI_Comm_dup and MPI_Allgatherv link
# with MPI_CFLAGS and MPI_LIBS?  (MPI_Comm_create_keyval and friends are
# MPI-2; every MPI that has MPI_Allgatherv's const buffers has them.)
m4_define([_GR_MPI_TRY_LINK], [
AC_MSG_CHECKING([whether a program links MPI with $MPI_CFLAGS $MPI_LIBS])
gr_save_CPPFLAGS=$CPPFLAGS
gr_save_LIBS=$LIBS
CPPFLAGS="$CPPFLAGS $MPI_CFLAGS"
LIBS="$MPI_LIBS $LIBS"
AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
    [[MPI_Comm c; int k; char b[8];
      if (MPI_Init (0, 0) != MPI_SUCCESS) return 1;
      (void)MPI_Comm_dup (MPI_COMM_WORLD, &c);
      (void)MPI_Comm_create_keyval (MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, 0);
      (void)MPI_Allgatherv (b, 1, MPI_BYTE, b, &k, &k, MPI_BYTE, c);
      return MPI_Finalize ();]])],
  [AC_MSG_RESULT([yes])
   $1],
  [AC_MSG_RESULT([no])])
CPPFLAGS=$gr_save_CPPFLAGS
LIBS=$gr_save_LIBS
])

# _GR_MPI_NAME
# ------------
# gr_mpi_name: "Open MPI 4.1.4", "MPICH 4.0.2" or "MPI 3.1", from <mpi.h>.
m4_define([_GR_MPI_NAME], [
AC_MSG_CHECKING([which MPI <mpi.h> is])
cat > conftest.c <<_GR_EOF
#include <mpi.h>
#if defined(OPEN_MPI) && defined(OMPI_MAJOR_VERSION)
gr_mpi_is "Open MPI" OMPI_MAJOR_VERSION . OMPI_MINOR_VERSION . OMPI_RELEASE_VERSION
#elif defined(MPICH_VERSION)
gr_mpi_is "MPICH" MPICH_VERSION
#else
gr_mpi_is "MPI" MPI_VERSION . MPI_SUBVERSION
#endif
_GR_EOF
gr_mpi_name=`$CPP $CPPFLAGS $MPI_CFLAGS conftest.c 2>/dev/null \
  | sed -n 's/^gr_mpi_is *"\([[^"]]*\)" *"*\([[0-9. ]]*\)"*.*$/\1 \2/p' | sed 's/ *\. */./g; s/ *$//' | head -n 1`
rm -f conftest.c
test -n "$gr_mpi_name" || gr_mpi_name="an MPI"
AC_MSG_RESULT([$gr_mpi_name])
])
