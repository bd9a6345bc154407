! SPDX-License-Identifier: MIT
! libhpm from Fortran: the nested sections and the four threads of the C
! scenarios (hpm_scenarios.c), through f_hpm.h. run_scenario.py checks the
! report. getppid is called through ISO_C_BINDING: one system call each.
program hpm_fortran
  use, intrinsic :: iso_c_binding, only: c_int, c_long_long, c_double
  use omp_lib
  implicit none
#include "f_hpm.h"
  include 'getppid_interface.inc'
  integer :: i
  integer(c_long_long) :: values(8)
  real(c_double) :: seconds

  call f_hpminit(0, 'hpm_fortran')
  call f_hpmstart(1, 'outer')
  call calls(500)
  do i = 1, 3
    call f_hpmstart(2, 'inner')
    call calls(100)
    call f_hpmstop(2)
  end do
  call calls(500)
  call f_hpmstop(1)
  call f_hpmgettimeandcounters(1, seconds, values)
  if (values(1) /= 1300) stop 1

  !$omp parallel num_threads(4)
  call f_hpmtstart(7, 'threads')
  call calls(250)
  call f_hpmtstop(7)
  !$omp end parallel

  call f_hpmgetcounters(values)
  ! The main thread is one of the four: 1,300 + 250.
  if (values(1) /= 1550) stop 2
  call f_hpmterminate(0)
  print '(a)', 'scenario fortran: finished'

contains

  include 'getppid_calls.inc'

end program
