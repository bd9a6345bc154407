! SPDX-License-Identifier: MIT
! Instrumenting Fortran code sections with libhpm: the C example
! hpm_sections.c in Fortran. f_hpm.h goes through the C preprocessor:
!   gfortran -cpp hpm_sections.f90 $(pkg-config --cflags --libs libhpm)
! hpmTerminate writes the report perfhpm<task>.<pid> (and .json).
program hpm_sections
  use, intrinsic :: iso_c_binding, only: c_long_long
  implicit none
#include "f_hpm.h"
  integer :: i
  integer(c_long_long) :: values(8)
  real :: x

  x = 0
  call f_hpminit(0, 'hpm_sections_f90')
  call f_hpmstart(1, 'computation')
  do i = 1, 3
    call f_hpmstart(2, 'inner step')
    x = x + work(100000)
    call f_hpmstop(2)
  end do
  call f_hpmstop(1)
  call f_hpmgetcounters(values)
  print '(a,i0)', 'first event since hpmInit: ', values(1)
  call f_hpmterminate(0)
  print '(a,f0.1)', 'sum: ', x

contains

  real function work(n)
    integer, intent(in) :: n
    integer :: k
    work = 0
    do k = 1, n
      work = work + sqrt(real(k))
    end do
  end function

end program
