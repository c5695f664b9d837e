! A Fortran simulation that uses libdace for its inner kernel.
!
! It builds a 2-D heat-diffusion step as an SDFG once (through the C API, with the arrays in
! Fortran's column-major layout: strides "1, N"), JIT-compiles it, and then hands its own
! arrays to the compiled program every time step for NSTEPS steps, swapping the roles of the
! two arrays like any explicit time-stepping code. The same loop written in Fortran gives
! the reference; the program exits with status 1 if the two disagree.
!
! The arrays carry a halo and are declared u(0:nx-1, 0:ny-1): Fortran index (i, j) is
! libdace index (i - 0, j - 0), see the lower-bound notes in bindings/fortran/libdace.f90.
program heat2d_sim
  use, intrinsic :: iso_c_binding
  use libdace_capi
  use libdace
  implicit none

  integer, parameter :: nx = 200, ny = 150, nsteps = 100
  real(c_double), parameter :: alpha = 0.1_c_double, tolerance = 1.0e-12_c_double
  real(c_double), allocatable, target :: u(:, :), v(:, :)
  real(c_double), allocatable :: ru(:, :), rv(:, :)
  type(c_ptr) :: sdfg = c_null_ptr, context = c_null_ptr, program = c_null_ptr
  type(dace_array_t), target :: hu, hv
  type(dace_arg_t), target :: args_uv(2), args_vu(2)
  type(dace_cstring), target :: name_u, name_v
  type(c_ptr), target :: names(2)
  integer :: i, j, step
  integer(c_int64_t) :: t0, t1, t2, t3, rate
  real(c_double) :: max_err

  allocate(u(0:nx - 1, 0:ny - 1), v(0:nx - 1, 0:ny - 1))
  do j = 0, ny - 1
    do i = 0, nx - 1
      u(i, j) = sin(0.05_c_double * i) * cos(0.03_c_double * j) + 0.001_c_double * i * j
    end do
  end do
  v = u            ! the kernel writes only the interior; the boundary stays fixed
  ru = u
  rv = u

  call system_clock(t0, rate)
  call build_heat_step(sdfg)
  call dace_check(dace_context_create(context), "dace_context_create")
  call dace_check(dace_program_compile(program, context, sdfg, c_null_ptr), "dace_program_compile")
  call system_clock(t1)

  ! Describe both arrays once; per step only the order of the two descriptors changes.
  call dace_describe(u, hu, lower=[0, 0])
  call dace_describe(v, hv, lower=[0, 0])
  if (any(hu%strides(1:2) /= [1_c_int64_t, int(nx, c_int64_t)])) then
    write(*, '(a, 2i8)') "unexpected strides", hu%strides(1:2)
    error stop 1
  end if
  call dace_cstring_set(name_u, "U")
  call dace_cstring_set(name_v, "V")
  names = [dace_cstring_ptr(name_u), dace_cstring_ptr(name_v)]
  args_uv = [dace_array_arg(hu), dace_array_arg(hv)]    ! U <- u, V <- v (N, M inferred)
  args_vu = [dace_array_arg(hv), dace_array_arg(hu)]    ! U <- v, V <- u

  do step = 1, nsteps
    if (mod(step, 2) == 1) then
      call dace_check(dace_program_call(program, c_loc(names), c_loc(args_uv), 2), "dace_program_call")
    else
      call dace_check(dace_program_call(program, c_loc(names), c_loc(args_vu), 2), "dace_program_call")
    end if
  end do
  call system_clock(t2)

  ! The same time loop in Fortran.
  do step = 1, nsteps
    if (mod(step, 2) == 1) then
      call heat_step_ref(ru, rv)
    else
      call heat_step_ref(rv, ru)
    end if
  end do
  call system_clock(t3)

  ! After an even number of steps the newest field is in u (and ru).
  max_err = max(maxval(abs(u - ru)), maxval(abs(v - rv)))
  write(*, '(a, i0, a, i0, a, i0, a)') "heat2d_sim: ", nx, " x ", ny, " grid, ", nsteps, " steps"
  write(*, '(a, f10.3, a)') "  build + compile   ", 1000.0_c_double * (t1 - t0) / rate, " ms"
  write(*, '(a, f10.3, a)') "  libdace steps     ", 1000.0_c_double * (t2 - t1) / rate, " ms"
  write(*, '(a, f10.3, a)') "  Fortran steps     ", 1000.0_c_double * (t3 - t2) / rate, " ms"
  write(*, '(a, es10.3)') "  max |libdace - Fortran| ", max_err

  call dace_program_release(program)
  call dace_context_release(context)
  call dace_sdfg_release(sdfg)
  if (.not. (max_err <= tolerance)) then
    write(*, '(a)') "heat2d_sim: MISMATCH"
    error stop 1
  end if
  write(*, '(a)') "heat2d_sim: OK"

contains

  ! v(interior) = u + alpha * (5-point Laplacian of u), as the SDFG's tasklet computes it.
  subroutine heat_step_ref(a, b)
    real(c_double), intent(in) :: a(0:, 0:)
    real(c_double), intent(inout) :: b(0:, 0:)
    integer :: ii, jj
    do jj = 1, ny - 2
      do ii = 1, nx - 2
        b(ii, jj) = a(ii, jj) + alpha * (a(ii - 1, jj) + a(ii + 1, jj) + a(ii, jj - 1) + a(ii, jj + 1) &
                                         - 4.0_c_double * a(ii, jj))
      end do
    end do
  end subroutine heat_step_ref

  subroutine build_heat_step(g)
    type(c_ptr), intent(inout) :: g
    type(dace_array_options_t), target :: opts
    type(dace_mapped_tasklet_options_t), target :: mt
    type(dace_cstring), target :: strides
    integer(dace_id_t) :: state, tasklet, entry, exit
    call dace_check(dace_sdfg_create(g, dace_cstr("heat_step")), "dace_sdfg_create")
    call dace_check(dace_sdfg_add_symbol(g, dace_cstr("N"), DACE_INT64), "add_symbol N")
    call dace_check(dace_sdfg_add_symbol(g, dace_cstr("M"), DACE_INT64), "add_symbol M")
    ! Column-major: element (i, j) of an N x M array is i + N * j elements from the start.
    call dace_check(dace_array_options_init(opts, DACE_ARRAY_OPTIONS_VERSION), "dace_array_options_init")
    call dace_cstring_set(strides, "1, N")
    opts%strides = dace_cstring_ptr(strides)
    call dace_check(dace_sdfg_add_array(g, dace_cstr("U"), DACE_FLOAT64, dace_cstr("N, M"), c_loc(opts)), &
                    "add_array U")
    call dace_check(dace_sdfg_add_array(g, dace_cstr("V"), DACE_FLOAT64, dace_cstr("N, M"), c_loc(opts)), &
                    "add_array V")
    call dace_check(dace_sdfg_add_state(state, g, DACE_ROOT_REGION, dace_cstr("step")), "add_state")
    call dace_check(dace_mapped_tasklet_options_init(mt, DACE_MAPPED_TASKLET_OPTIONS_VERSION), "dace_mapped_tasklet_options_init")
    mt%schedule = DACE_SCHEDULE_CPU_MULTICORE
    mt%external_edges = 1
    call dace_check(dace_state_add_mapped_tasklet(tasklet, entry, exit, g, state, dace_cstr("heat"), &
        dace_cstr("i=1:N-1, j=1:M-1"), &
        dace_cstr("c: U[i, j]; n: U[i - 1, j]; s: U[i + 1, j]; w: U[i, j - 1]; e: U[i, j + 1]"), &
        dace_cstr("v = c + 0.1 * (n + s + w + e - 4.0 * c)"), dace_cstr("v: V[i, j]"), c_loc(mt)), &
        "add_mapped_tasklet")
    call dace_check(dace_sdfg_validate(g), "dace_sdfg_validate")
  end subroutine build_heat_step

end program heat2d_sim
