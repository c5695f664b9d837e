! The small example every binding ships, in Fortran:
!   1. B = A * 2 + 1 over a parallel map (DACE_SCHEDULE_CPU_MULTICORE);
!   2. a Jacobi 2-D stencil with its time loop inside the SDFG (TSTEPS iterations of
!      A -> B, B -> A), on Fortran (column-major) arrays.
! Both are built through the C API, JIT-compiled, run once on Fortran arrays and compared
! with the same loops written in Fortran. Exit status 1 on any mismatch.
program scale_jacobi
  use, intrinsic :: iso_c_binding
  use libdace_capi
  use libdace
  implicit none

  integer, parameter :: n1 = 1000, n2 = 64
  integer(c_int64_t), parameter :: tsteps = 20
  real(c_double), allocatable, target :: a(:), b(:), ja(:, :), jb(:, :)
  real(c_double), allocatable :: ra(:, :), rb(:, :)
  type(c_ptr) :: context = c_null_ptr, scale = c_null_ptr, jacobi = c_null_ptr
  type(c_ptr) :: p_scale = c_null_ptr, p_jacobi = c_null_ptr
  type(dace_array_t), target :: ha, hb, hja, hjb
  type(dace_arg_t), target :: args(3)
  type(dace_cstring), target :: nm(3)
  type(c_ptr), target :: names(3)
  integer :: i, j, t, failures
  real(c_double) :: err

  failures = 0
  call dace_check(dace_context_create(context), "dace_context_create")

  ! ---- 1. B = A * 2 + 1 ------------------------------------------------------------------
  allocate(a(n1), b(n1))
  do i = 1, n1
    a(i) = 0.5_c_double * i - 7.0_c_double
  end do
  b = -1.0_c_double
  call build_scale(scale)
  call dace_check(dace_program_compile(p_scale, context, scale, c_null_ptr), "compile scale")
  call dace_describe(a, ha)
  call dace_describe(b, hb)
  call dace_cstring_set(nm(1), "A")
  call dace_cstring_set(nm(2), "B")
  call dace_cstring_set(nm(3), "TSTEPS")
  names = [dace_cstring_ptr(nm(1)), dace_cstring_ptr(nm(2)), dace_cstring_ptr(nm(3))]
  args(1:2) = [dace_array_arg(ha), dace_array_arg(hb)]
  call dace_check(dace_program_call(p_scale, c_loc(names), c_loc(args), 2), "call scale")
  err = maxval(abs(b - (a * 2.0_c_double + 1.0_c_double)))
  write(*, '(a, es10.3)') "scale:  max |B - (A*2+1)| = ", err
  if (.not. (err <= 0.0_c_double)) failures = failures + 1

  ! ---- 2. Jacobi 2-D with a time loop -------------------------------------------------------
  allocate(ja(n2, n2), jb(n2, n2))
  do j = 1, n2
    do i = 1, n2
      ja(i, j) = real(i * (j + 2) + 3, c_double) / n2   ! not symmetric: catches transposes
      jb(i, j) = real(i * (j + 3) + 2, c_double) / n2
    end do
  end do
  ra = ja
  rb = jb
  call build_jacobi(jacobi)
  call dace_check(dace_program_compile(p_jacobi, context, jacobi, c_null_ptr), "compile jacobi")
  call dace_describe(ja, hja)
  call dace_describe(jb, hjb)
  args = [dace_array_arg(hja), dace_array_arg(hjb), dace_symbol_arg(tsteps)]
  call dace_check(dace_program_call(p_jacobi, c_loc(names), c_loc(args), 3), "call jacobi")
  do t = 1, int(tsteps)
    call sweep(ra, rb)
    call sweep(rb, ra)
  end do
  err = max(maxval(abs(ja - ra)), maxval(abs(jb - rb)))
  write(*, '(a, i0, a, i0, a, es10.3)') "jacobi: ", n2, "^2, ", tsteps, " steps, max error = ", err
  if (.not. (err <= 1.0e-12_c_double)) failures = failures + 1

  call dace_program_release(p_scale)
  call dace_program_release(p_jacobi)
  call dace_sdfg_release(scale)
  call dace_sdfg_release(jacobi)
  call dace_context_release(context)
  if (failures /= 0) then
    write(*, '(a)') "scale_jacobi: MISMATCH"
    error stop 1
  end if
  write(*, '(a)') "scale_jacobi: OK"

contains

  subroutine sweep(src, dst)
    real(c_double), intent(in) :: src(:, :)
    real(c_double), intent(inout) :: dst(:, :)
    integer :: ii, jj
    do jj = 2, n2 - 1
      do ii = 2, n2 - 1
        dst(ii, jj) = 0.2_c_double * (src(ii, jj) + src(ii - 1, jj) + src(ii + 1, jj) + src(ii, jj - 1) &
                                      + src(ii, jj + 1))
      end do
    end do
  end subroutine sweep

  subroutine build_scale(g)
    type(c_ptr), intent(inout) :: g
    type(dace_mapped_tasklet_options_t), target :: mt
    integer(dace_id_t) :: state, tasklet, entry, exit
    call dace_check(dace_sdfg_create(g, dace_cstr("scale")), "dace_sdfg_create")
    call dace_check(dace_sdfg_add_symbol(g, dace_cstr("N"), DACE_INT64), "add_symbol")
    call dace_check(dace_sdfg_add_array(g, dace_cstr("A"), DACE_FLOAT64, dace_cstr("N"), c_null_ptr), "add A")
    call dace_check(dace_sdfg_add_array(g, dace_cstr("B"), DACE_FLOAT64, dace_cstr("N"), c_null_ptr), "add B")
    call dace_check(dace_sdfg_add_state(state, g, DACE_ROOT_REGION, dace_cstr("main")), "add_state")
    call dace_check(dace_mapped_tasklet_options_init(mt, DACE_MAPPED_TASKLET_OPTIONS_VERSION), "options_init")
    mt%schedule = DACE_SCHEDULE_CPU_MULTICORE
    mt%external_edges = 1
    call dace_check(dace_state_add_mapped_tasklet(tasklet, entry, exit, g, state, dace_cstr("scale"), &
        dace_cstr("i=0:N"), dace_cstr("a: A[i]"), dace_cstr("b = a * 2 + 1"), dace_cstr("b: B[i]"), c_loc(mt)), &
        "add_mapped_tasklet")
  end subroutine build_scale

  ! init -> loop t in [0, TSTEPS) { A -> B ; B -> A } -> done, arrays in column-major order.
  subroutine build_jacobi(g)
    type(c_ptr), intent(inout) :: g
    type(dace_array_options_t), target :: opts
    type(dace_cstring), target :: strides
    integer(dace_id_t) :: init, loop, done, s1, s2, edge, region
    call dace_check(dace_sdfg_create(g, dace_cstr("jacobi_2d")), "dace_sdfg_create")
    call dace_check(dace_sdfg_add_symbol(g, dace_cstr("N"), DACE_INT64), "add_symbol N")
    call dace_check(dace_sdfg_add_symbol(g, dace_cstr("TSTEPS"), DACE_INT64), "add_symbol TSTEPS")
    call dace_check(dace_array_options_init(opts, DACE_ARRAY_OPTIONS_VERSION), "array_options_init")
    call dace_cstring_set(strides, "1, N")
    opts%strides = dace_cstring_ptr(strides)
    call dace_check(dace_sdfg_add_array(g, dace_cstr("A"), DACE_FLOAT64, dace_cstr("N, N"), c_loc(opts)), "add A")
    call dace_check(dace_sdfg_add_array(g, dace_cstr("B"), DACE_FLOAT64, dace_cstr("N, N"), c_loc(opts)), "add B")
    call dace_check(dace_sdfg_add_state(init, g, DACE_ROOT_REGION, dace_cstr("init")), "add init")
    call dace_check(dace_sdfg_add_loop(loop, g, DACE_ROOT_REGION, dace_cstr("time"), dace_cstr("t"), &
        dace_cstr("t = 0"), dace_cstr("t < TSTEPS"), dace_cstr("t = t + 1"), 0), "add_loop")
    call dace_check(dace_sdfg_add_state(done, g, DACE_ROOT_REGION, dace_cstr("done")), "add done")
    call dace_check(dace_sdfg_add_state(s1, g, loop, dace_cstr("a_to_b")), "add a_to_b")
    call dace_check(dace_sdfg_add_state(s2, g, loop, dace_cstr("b_to_a")), "add b_to_a")
    call dace_check(dace_sdfg_add_interstate_edge(edge, region, g, init, loop, dace_cstr(""), dace_cstr("")), &
                    "edge init->loop")
    call dace_check(dace_sdfg_add_interstate_edge(edge, region, g, loop, done, dace_cstr(""), dace_cstr("")), &
                    "edge loop->done")
    call dace_check(dace_sdfg_add_interstate_edge(edge, region, g, s1, s2, dace_cstr(""), dace_cstr("")), &
                    "edge a_to_b->b_to_a")
    call add_sweep(g, s1, "A", "B")
    call add_sweep(g, s2, "B", "A")
    call dace_check(dace_sdfg_validate(g), "dace_sdfg_validate")
  end subroutine build_jacobi

  subroutine add_sweep(g, state, src, dst)
    type(c_ptr), intent(in) :: g
    integer(dace_id_t), intent(in) :: state
    character(len=*), intent(in) :: src, dst
    type(dace_mapped_tasklet_options_t), target :: mt
    integer(dace_id_t) :: tasklet, entry, exit
    call dace_check(dace_mapped_tasklet_options_init(mt, DACE_MAPPED_TASKLET_OPTIONS_VERSION), "options_init")
    mt%schedule = DACE_SCHEDULE_CPU_MULTICORE
    mt%external_edges = 1
    call dace_check(dace_state_add_mapped_tasklet(tasklet, entry, exit, g, state, dace_cstr("sweep_" // src), &
        dace_cstr("i=1:N-1, j=1:N-1"), &
        dace_cstr("c: " // src // "[i, j]; n: " // src // "[i - 1, j]; s: " // src // "[i + 1, j]; w: " // &
                  src // "[i, j - 1]; e: " // src // "[i, j + 1]"), &
        dace_cstr("o = 0.2 * (c + n + s + w + e)"), dace_cstr("o: " // dst // "[i, j]"), c_loc(mt)), &
        "add_mapped_tasklet " // src // " -> " // dst)
  end subroutine add_sweep

end program scale_jacobi
