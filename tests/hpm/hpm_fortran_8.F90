! SPDX-License-Identifier: MIT
! libhpm from Fortran with 8-byte default integers (-fdefault-integer-8) through
! f_hpm_8.h: the nested sections of hpm_scenarios.c.
program hpm_fortran_8
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
#define F_HPM_FILE_NAMES
#include "f_hpm_8.h"
  include 'getppid_interface.inc'
  integer :: i

  call f_hpminit(0, 'hpm_fortran_8')
  call f_hpmstart(1, 'outer')
  call calls(500)
  do i = 1, 3
    call f_hpmstart(2, 'inner')
    call calls(100)
    call f_hpmstop(2)
  end do
  call calls(500)
  call f_hpmstop(1)
  call f_hpmterminate(0)
  print '(a)', 'scenario fortran_8: finished'

contains

  include 'getppid_calls.inc'

end program
