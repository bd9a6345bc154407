! SPDX-License-Identifier: MIT
! libhpm from Fortran code that includes no header (implicit interfaces, as
! older codes compiled without the preprocessor do): gfortran's external names
! f_hpminit_, f_hpmstart_, ... with hidden lengths. The nested sections of
! hpm_scenarios.c.
program hpm_fortran_noheader
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  external :: f_hpminit, f_hpmstart, f_hpmstop, f_hpmterminate
  include 'getppid_interface.inc'
  integer :: i

  call f_hpminit(0, 'hpm_fortran_noheader')
  call f_hpmstart(1, 'outer')
  call calls(500)
  do i = 1, 3
    call f_hpmstart(2, 'inner   ')
    call calls(100)
    call f_hpmstop(2)
  end do
  call calls(500)
  call f_hpmstop(1)
  call f_hpmterminate(0)
  print '(a)', 'scenario fortran_noheader: finished'

contains

  include 'getppid_calls.inc'

end program
