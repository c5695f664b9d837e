! libdace_call: DaCe-written SDFGs called from Fortran by argument name, with Fortran arrays
! (column-major, ranks 1-3, real and complex), scalars and symbols; results checked against
! the same computation written in Fortran; and the error paths (wrong kind, wrong layout,
! a name given twice) leave the caller's arrays untouched.
! usage: fortran_call_helpers SOURCE_DIR CORPUS_DIR
program call_helpers
  use, intrinsic :: iso_c_binding
  use libdace_capi
  use libdace
  use libdace_call
  implicit none

  integer, parameter :: n = 9
  character(len=1024) :: src, corpus
  type(c_ptr) :: context = c_null_ptr
  type(dace_call_t), target :: c
  integer :: failures = 0

  call get_command_argument(1, src)
  call get_command_argument(2, corpus)
  call dace_check(dace_context_create(context), "dace_context_create")

  call transpose_2d()
  call transpose_3d()
  call complex_math()
  call gemm_with_scalars()
  call errors_leave_arrays_untouched()

  call dace_context_release(context)
  if (failures /= 0) then
    write(*, '(a, i0, a)') "call_helpers: ", failures, " MISMATCH(ES)"
    error stop 1
  end if
  write(*, '(a)') "call_helpers: all match"

contains

  ! Loads an SDFG, gives the named arrays Fortran strides, compiles it.
  function compile_with_strides(path, names, strides) result(program)
    character(len=*), intent(in) :: path
    character(len=*), intent(in) :: names(:), strides(:)
    type(c_ptr) :: program, sdfg
    integer :: k
    sdfg = c_null_ptr
    program = c_null_ptr
    call dace_check(dace_sdfg_load_file(sdfg, dace_cstr(path)), "load " // trim(path))
    do k = 1, size(names)
      call dace_check(dace_data_set_strides(sdfg, dace_cstr(names(k)), dace_cstr(strides(k))), "strides")
    end do
    call dace_check(dace_program_compile(program, context, sdfg, c_null_ptr), "compile " // trim(path))
    call dace_sdfg_release(sdfg)
  end function compile_with_strides

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) then
      write(*, '(a, a)') "ok    ", what
    else
      write(*, '(a, a)') "FAIL  ", what
      failures = failures + 1
    end if
  end subroutine expect

  ! B = A.T for A(N, 7): rank 2, column-major on both sides.
  subroutine transpose_2d()
    real(c_double), allocatable, target :: a(:, :), b(:, :)
    type(c_ptr) :: p
    integer :: i, j
    allocate(a(n, 7), b(7, n))
    do j = 1, 7
      do i = 1, n
        a(i, j) = i * 10.0_c_double + j
      end do
    end do
    b = -1
    p = compile_with_strides(trim(src) // "/tests/data/frontend/transpose2d/transpose2d.simp.sdfgz", &
                             ["A", "B"], ["1, N", "1, 7"])
    call dace_call_begin(c, p)
    call dace_call_array(c, "A", a)
    call dace_call_array(c, "B", b)
    call dace_check(dace_call_run(c), "transpose2d")
    call expect(maxval(abs(b - transpose(a))) <= 0, "rank 2 real(c_double): B = transpose(A)")
    call dace_program_release(p)
  end subroutine transpose_2d

  ! B = np.transpose(A, (2, 0, 1)) for A(4, 5, 6): B(k, i, j) = A(i, j, k).
  subroutine transpose_3d()
    real(c_double), allocatable, target :: a(:, :, :), b(:, :, :)
    type(c_ptr) :: p
    integer :: i, j, k
    logical :: ok
    allocate(a(4, 5, 6), b(6, 4, 5))
    do k = 1, 6
      do j = 1, 5
        do i = 1, 4
          a(i, j, k) = i + 10.0_c_double * j + 100.0_c_double * k
        end do
      end do
    end do
    b = -1
    p = compile_with_strides(trim(src) // "/tests/data/frontend/transpose3d/transpose3d.simp.sdfgz", &
                             ["A", "B"], ["1, 4, 20", "1, 6, 24"])
    call dace_call_begin(c, p)
    call dace_call_array(c, "A", a)
    call dace_call_array(c, "B", b)
    call dace_check(dace_call_run(c), "transpose3d")
    ok = .true.
    do k = 1, 6
      do j = 1, 5
        do i = 1, 4
          ok = ok .and. abs(b(k, i, j) - a(i, j, k)) <= 0
        end do
      end do
    end do
    call expect(ok, "rank 3 real(c_double): B(k, i, j) = A(i, j, k)")
    call dace_program_release(p)
  end subroutine transpose_3d

  ! B = A * conj(A) + exp(A) on complex(c_double_complex), N inferred from the arrays.
  subroutine complex_math()
    complex(c_double_complex), allocatable, target :: a(:), b(:)
    type(c_ptr) :: p, sdfg
    integer :: i
    allocate(a(n), b(n))
    do i = 1, n
      a(i) = cmplx(0.1_c_double * i, 0.3_c_double - 0.05_c_double * i, c_double_complex)
    end do
    b = 0
    sdfg = c_null_ptr
    p = c_null_ptr
    call dace_check(dace_sdfg_load_file(sdfg, dace_cstr(trim(src) // &
                    "/tests/data/frontend/complex_math/complex_math.simp.sdfgz")), "load complex_math")
    call dace_check(dace_program_compile(p, context, sdfg, c_null_ptr), "compile complex_math")
    call dace_sdfg_release(sdfg)
    call dace_call_begin(c, p)
    call dace_call_array(c, "A", a)
    call dace_call_array(c, "B", b)
    call dace_check(dace_call_run(c), "complex_math")
    call expect(maxval(abs(b - (a * conjg(a) + exp(a)))) <= 1.0e-12_c_double, &
                "rank 1 complex(c_double_complex): B = A*conjg(A) + exp(A)")
    call dace_program_release(p)
  end subroutine complex_math

  ! NPBench gemm (corpus): C = alpha * A @ B + beta * C, with scalars and given symbols.
  subroutine gemm_with_scalars()
    integer, parameter :: ni = 5, nj = 4, nk = 3
    real(c_double), allocatable, target :: a(:, :), b(:, :), cc(:, :), expected(:, :)
    real(c_double) :: alpha = 1.5_c_double, beta = -0.5_c_double
    type(c_ptr) :: p
    integer :: i, j
    allocate(a(ni, nk), b(nk, nj), cc(ni, nj))
    do j = 1, nk
      do i = 1, ni
        a(i, j) = real(i - 2 * j, c_double) / 7
      end do
    end do
    do j = 1, nj
      do i = 1, nk
        b(i, j) = real(3 * i + j, c_double) / 5
      end do
    end do
    do j = 1, nj
      do i = 1, ni
        cc(i, j) = real(i * j, c_double)
      end do
    end do
    expected = alpha * matmul(a, b) + beta * cc
    p = compile_with_strides(trim(corpus) // "/gemm/gemm.simp.sdfg", ["A", "B", "C"], ["1, NI", "1, NK", "1, NI"])
    call dace_call_begin(c, p)
    call dace_call_scalar(c, "alpha", alpha)
    call dace_call_scalar(c, "beta", beta)
    call dace_call_array(c, "A", a)
    call dace_call_array(c, "B", b)
    call dace_call_array(c, "C", cc)
    call dace_call_symbol(c, "NI", int(ni, c_int32_t))
    call dace_call_symbol(c, "NJ", int(nj, c_int64_t))
    call dace_check(dace_call_run(c), "gemm")
    call expect(maxval(abs(cc - expected)) <= 1.0e-12_c_double, "gemm: real scalars, int32 and int64 symbols")
    call dace_program_release(p)
  end subroutine gemm_with_scalars

  subroutine errors_leave_arrays_untouched()
    real(c_double), allocatable, target :: a(:, :), b(:, :), wide(:, :)
    real(c_float), allocatable, target :: a32(:, :)
    type(c_ptr) :: p
    integer(dace_status_t) :: status
    allocate(a(n, 7), b(7, n), a32(n, 7), wide(2 * n, 7))
    a = 1
    a32 = 1
    wide = 1
    b = -1
    p = compile_with_strides(trim(src) // "/tests/data/frontend/transpose2d/transpose2d.simp.sdfgz", &
                             ["A", "B"], ["1, N", "1, 7"])
    ! real(c_float) where the SDFG has float64.
    call dace_call_begin(c, p)
    call dace_call_array(c, "A", a32)
    call dace_call_array(c, "B", b)
    status = dace_call_run(c)
    call expect(status == DACE_ERROR_INVALID_ARGUMENT .and. untouched(b), &
                "wrong kind refused, B untouched: " // trim(dace_error_message()))
    ! A section with stride 2 where the SDFG declares unit stride.
    call dace_call_begin(c, p)
    call dace_call_array(c, "A", wide(1:2 * n:2, :))
    call dace_call_array(c, "B", b)
    status = dace_call_run(c)
    call expect(status == DACE_ERROR_INVALID_ARGUMENT .and. untouched(b), &
                "strided section against unit strides refused, B untouched: " // trim(dace_error_message()))
    ! The same name twice: refused on the Fortran side.
    call dace_call_begin(c, p)
    call dace_call_array(c, "A", a)
    call dace_call_array(c, "A", a)
    call dace_call_array(c, "B", b)
    status = dace_call_run(c)
    call expect(status == DACE_ERROR_INVALID_ARGUMENT .and. untouched(b) .and. index(c%message, "twice") > 0, &
                "name given twice refused: " // trim(c%message))
    call dace_program_release(p)
  end subroutine errors_leave_arrays_untouched

  logical function untouched(x)
    real(c_double), intent(in) :: x(:, :)
    untouched = maxval(abs(x + 1)) <= 0
  end function untouched

end program call_helpers
