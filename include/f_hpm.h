! SPDX-License-Identifier: MIT
! f_hpm.h - the HPM Toolkit's Fortran instrumentation API (libhpm), for Linux.
!
! Include it with the C preprocessor (a .F90 file, or gfortran -cpp) in the
! specification part of each unit that calls libhpm, then call the AIX names:
!   call f_hpminit(taskid, 'program');  call f_hpmstart(1, 'label')
!   call f_hpmstop(1);  call f_hpmtstart(7, 'label');  call f_hpmtstop(7)
!   call f_hpmgetcounters(values);  call f_hpmgettimeandcounters(n, time, values)
!   call f_hpmterminate(taskid)
! Integer arguments are default integers (integer(c_int)); link -lhpm (pkg-config libhpm).
! The macros below add each label's length and the caller's line; define
! F_HPM_FILE_NAMES before the include to record the file name too (the
! expanded line is then long: compile with -ffree-line-length-none).
! The interfaces bind to the C symbols f_hpminit, f_hpmstart, ...
      interface
        subroutine f_hpm_init_c(taskid, name, name_len) bind(C, name='f_hpminit')
          use, intrinsic :: iso_c_binding, only: c_int, c_char, c_int
          integer(c_int), intent(in) :: taskid
          character(kind=c_char), dimension(*), intent(in) :: name
          integer(c_int), value :: name_len
        end subroutine
        subroutine f_hpm_terminate_c(taskid) bind(C, name='f_hpmterminate')
          use, intrinsic :: iso_c_binding, only: c_int
          integer(c_int), intent(in) :: taskid
        end subroutine
        subroutine f_hpm_start_c(id, label, label_len, line, file, file_len) &
            bind(C, name='f_hpmstart')
          use, intrinsic :: iso_c_binding, only: c_int, c_char, c_int
          integer(c_int), intent(in) :: id
          character(kind=c_char), dimension(*), intent(in) :: label, file
          integer(c_int), value :: label_len, line, file_len
        end subroutine
        subroutine f_hpm_stop_c(id, line, file, file_len) bind(C, name='f_hpmstop')
          use, intrinsic :: iso_c_binding, only: c_int, c_char, c_int
          integer(c_int), intent(in) :: id
          integer(c_int), value :: line, file_len
          character(kind=c_char), dimension(*), intent(in) :: file
        end subroutine
        subroutine f_hpm_tstart_c(id, label, label_len, line, file, file_len) &
            bind(C, name='f_hpmtstart')
          use, intrinsic :: iso_c_binding, only: c_int, c_char, c_int
          integer(c_int), intent(in) :: id
          character(kind=c_char), dimension(*), intent(in) :: label, file
          integer(c_int), value :: label_len, line, file_len
        end subroutine
        subroutine f_hpm_tstop_c(id, line, file, file_len) bind(C, name='f_hpmtstop')
          use, intrinsic :: iso_c_binding, only: c_int, c_char, c_int
          integer(c_int), intent(in) :: id
          integer(c_int), value :: line, file_len
          character(kind=c_char), dimension(*), intent(in) :: file
        end subroutine
        subroutine f_hpmgetcounters(values) bind(C, name='f_hpmgetcounters')
          use, intrinsic :: iso_c_binding, only: c_long_long
          integer(c_long_long), intent(out) :: values(*)
        end subroutine
        subroutine f_hpmgettimeandcounters(n, time, values) &
            bind(C, name='f_hpmgettimeandcounters')
          use, intrinsic :: iso_c_binding, only: c_double, c_long_long, c_int
          integer(c_int), intent(in) :: n
          real(c_double), intent(out) :: time
          integer(c_long_long), intent(out) :: values(*)
        end subroutine
      end interface
#define f_hpminit(taskid, name) f_hpm_init_c(taskid, name, len(name))
#define f_hpmterminate(taskid) f_hpm_terminate_c(taskid)
#ifdef F_HPM_FILE_NAMES
#define f_hpmstart(id, label) f_hpm_start_c(id, label, len(label), __LINE__, __FILE__, len(__FILE__))
#define f_hpmstop(id) f_hpm_stop_c(id, __LINE__, __FILE__, len(__FILE__))
#define f_hpmtstart(id, label) f_hpm_tstart_c(id, label, len(label), __LINE__, __FILE__, len(__FILE__))
#define f_hpmtstop(id) f_hpm_tstop_c(id, __LINE__, __FILE__, len(__FILE__))
#else
#define f_hpmstart(id, label) f_hpm_start_c(id, label, len(label), __LINE__, '', 0)
#define f_hpmstop(id) f_hpm_stop_c(id, __LINE__, '', 0)
#define f_hpmtstart(id, label) f_hpm_tstart_c(id, label, len(label), __LINE__, '', 0)
#define f_hpmtstop(id) f_hpm_tstop_c(id, __LINE__, '', 0)
#endif
