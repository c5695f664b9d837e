! libdace: hand-written helpers on top of the generated libdace_capi module.
!
! What it adds for Fortran callers:
!   * strings   dace_cstr("name") appends the NUL a C string needs; dace_f_string(ptr) copies
!               a borrowed `const char*` result into a Fortran string; dace_cstring holds a
!               C string at a fixed address for `const char*` fields of the option structs.
!   * errors    dace_error_message() fetches dace_last_error_message(); dace_check(status,
!               what) prints "what: status: message" and stops with exit status 1.
!   * arrays    dace_describe(a, h) fills a dace_array_t holder for a Fortran array;
!               dace_array_arg(h) / dace_float_arg / dace_int_arg / dace_symbol_arg build the
!               dace_arg_t entries that dace_program_call takes.
!
! How Fortran arrays are described to libdace
!   libdace's array descriptor (dace_array_desc_t) is a data pointer plus, per dimension, an
!   extent and a stride in elements; it assumes no order. A Fortran array a(n1, n2) keeps its
!   dimension order: shape (n1, n2) and, for a contiguous array, column-major strides
!   (1, n1) -- the first index runs fastest. An SDFG that works on Fortran arrays declares the
!   same layout: dace_array_options_t%strides = "1, N" for a container of shape "N, M" (or
!   dace_data_set_strides). Non-contiguous sections (a(1:n:2, :)) are described without a
!   copy: dace_describe measures the element distance along each dimension.
!
!   Lower bounds: libdace indices are 0-based in every dimension. The data pointer is the
!   address of the first element a(lbound(a,1), lbound(a,2), ...), so libdace index k in
!   dimension d is the Fortran index lbound(a, d) + k, whatever the declared lower bounds:
!   u(0:n+1) seen as "N + 2" elements has u(0) at index 0; b(1:n) has b(1) at index 0.
!   dace_describe(a, h, lower) records the lower bounds in h%lower (assumed-shape dummies
!   always start at 1, so the caller passes them) and dace_index(h, d, i) converts.
!
!   The holder h must be a TARGET variable that outlives every dace_arg_t built from it: the
!   descriptor points at h%shape and h%strides. The described array must be a TARGET too
!   (or a POINTER), since libdace reads and writes it through its address.
module libdace
  use, intrinsic :: iso_c_binding
  use libdace_capi
  implicit none
  private :: addr

  integer, parameter :: DACE_MAX_RANK = 8

  ! Shape and strides (in elements) of one Fortran array, in the form dace_array_desc_t
  ! points to. Fill with dace_describe.
  type :: dace_array_t
    type(c_ptr) :: data = c_null_ptr
    integer(dace_dtype_t) :: dtype = DACE_DTYPE_UNKNOWN
    integer(c_int32_t) :: ndim = 0
    integer(c_int64_t) :: shape(DACE_MAX_RANK) = 0
    integer(c_int64_t) :: strides(DACE_MAX_RANK) = 0
    integer(c_int64_t) :: lower(DACE_MAX_RANK) = 1
  end type dace_array_t

  ! A NUL-terminated copy of a Fortran string at a stable address (for `const char*` struct
  ! fields such as dace_array_options_t%strides). Keep it alive while the struct is in use.
  type :: dace_cstring
    character(kind=c_char), allocatable :: chars(:)
  end type dace_cstring

  interface dace_describe
    module procedure describe_f64_1d, describe_f64_2d, describe_f64_3d
    module procedure describe_f32_1d, describe_f32_2d
    module procedure describe_i32_1d, describe_i32_2d
    module procedure describe_i64_1d, describe_i64_2d
  end interface dace_describe

  interface
    function dace_strlen(s) bind(C, name="strlen")
      import :: c_ptr, c_size_t
      implicit none
      integer(c_size_t) :: dace_strlen
      type(c_ptr), value :: s
    end function dace_strlen
  end interface

contains

  ! ---- strings -------------------------------------------------------------------------

  ! trim(s) // NUL: pass the result wherever the C API takes `const char*`.
  pure function dace_cstr(s) result(c)
    character(len=*), intent(in) :: s
    character(kind=c_char, len=len_trim(s) + 1) :: c
    c = trim(s) // c_null_char
  end function dace_cstr

  ! Copies a borrowed C string (NULL gives "").
  function dace_f_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: n, k
    if (.not. c_associated(p)) then
      s = ""
      return
    end if
    n = int(dace_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate(character(len=n) :: s)
    do k = 1, n
      s(k:k) = chars(k)
    end do
  end function dace_f_string

  subroutine dace_cstring_set(cs, s)
    type(dace_cstring), intent(inout) :: cs
    character(len=*), intent(in) :: s
    integer :: k, n
    n = len_trim(s)
    if (allocated(cs%chars)) deallocate(cs%chars)
    allocate(cs%chars(n + 1))
    do k = 1, n
      cs%chars(k) = s(k:k)
    end do
    cs%chars(n + 1) = c_null_char
  end subroutine dace_cstring_set

  function dace_cstring_ptr(cs) result(p)
    type(dace_cstring), target, intent(in) :: cs
    type(c_ptr) :: p
    p = c_loc(cs%chars)
  end function dace_cstring_ptr

  ! ---- errors --------------------------------------------------------------------------

  function dace_error_message() result(msg)
    character(len=:), allocatable :: msg
    msg = dace_f_string(dace_last_error_message())
  end function dace_error_message

  ! Stops the program (exit status 1) when status is not DACE_OK.
  subroutine dace_check(status, what)
    integer(dace_status_t), intent(in) :: status
    character(len=*), intent(in) :: what
    if (status == DACE_OK) return
    write(*, '(a, ": ", a, ": ", a)') what, dace_f_string(dace_status_string(status)), dace_error_message()
    error stop 1
  end subroutine dace_check

  ! ---- arrays --------------------------------------------------------------------------

  ! Address of a target element as an integer (to measure strides of any section).
  function addr(p) result(a)
    type(c_ptr), intent(in) :: p
    integer(c_intptr_t) :: a
    a = transfer(p, a)
  end function addr

  ! next(d): address of the element one step along dimension d (unused when extent <= 1).
  ! Public so that libdace_call describes arrays of every kind and rank the same way.
  subroutine describe_common(h, dtype, elem_bytes, first, next, extents, lower)
    type(dace_array_t), intent(out) :: h
    integer(dace_dtype_t), intent(in) :: dtype
    integer, intent(in) :: elem_bytes
    type(c_ptr), intent(in) :: first
    type(c_ptr), intent(in) :: next(:)
    integer, intent(in) :: extents(:)
    integer, intent(in), optional :: lower(:)
    integer :: d
    integer(c_int64_t) :: dense
    h%data = first
    h%dtype = dtype
    h%ndim = int(size(extents), c_int32_t)
    dense = 1
    do d = 1, size(extents)
      h%shape(d) = extents(d)
      if (extents(d) > 1) then
        h%strides(d) = (addr(next(d)) - addr(first)) / elem_bytes
      else
        h%strides(d) = dense
      end if
      dense = dense * max(extents(d), 1)
    end do
    if (present(lower)) h%lower(1:size(lower)) = lower
  end subroutine describe_common

  subroutine describe_f64_1d(a, h, lower)
    real(c_double), target, intent(in) :: a(:)
    type(dace_array_t), intent(out) :: h
    integer, intent(in), optional :: lower(:)
    call describe_common(h, DACE_FLOAT64, int(c_sizeof(a(1))), c_loc(a(1)), &
        [c_loc(a(min(2, size(a))))], shape(a), lower)
  end subroutine describe_f64_1d

  subroutine describe_f64_2d(a, h, lower)
    real(c_double), target, intent(in) :: a(:, :)
    type(dace_array_t), intent(out) :: h
    integer, intent(in), optional :: lower(:)
    call describe_common(h, DACE_FLOAT64, int(c_sizeof(a(1, 1))), c_loc(a(1, 1)), &
        [c_loc(a(min(2, size(a, 1)), 1)), c_loc(a(1, min(2, size(a, 2))))], shape(a), lower)
  end subroutine describe_f64_2d

  subroutine describe_f64_3d(a, h, lower)
    real(c_double), target, intent(in) :: a(:, :, :)
    type(dace_array_t), intent(out) :: h
    integer, intent(in), optional :: lower(:)
    call describe_common(h, DACE_FLOAT64, int(c_sizeof(a(1, 1, 1))), c_loc(a(1, 1, 1)), &
        [c_loc(a(min(2, size(a, 1)), 1, 1)), c_loc(a(1, min(2, size(a, 2)), 1)), &
         c_loc(a(1, 1, min(2, size(a, 3))))], shape(a), lower)
  end subroutine describe_f64_3d

  subroutine describe_f32_1d(a, h, lower)
    real(c_float), target, intent(in) :: a(:)
    type(dace_array_t), intent(out) :: h
    integer, intent(in), optional :: lower(:)
    call describe_common(h, DACE_FLOAT32, int(c_sizeof(a(1))), c_loc(a(1)), &
        [c_loc(a(min(2, size(a))))], shape(a), lower)
  end subroutine describe_f32_1d

  subroutine describe_f32_2d(a, h, lower)
    real(c_float), target, intent(in) :: a(:, :)
    type(dace_array_t), intent(out) :: h
    integer, intent(in), optional :: lower(:)
    call describe_common(h, DACE_FLOAT32, int(c_sizeof(a(1, 1))), c_loc(a(1, 1)), &
        [c_loc(a(min(2, size(a, 1)), 1)), c_loc(a(1, min(2, size(a, 2))))], shape(a), lower)
  end subroutine describe_f32_2d

  subroutine describe_i32_1d(a, h, lower)
    integer(c_int32_t), target, intent(in) :: a(:)
    type(dace_array_t), intent(out) :: h
    integer, intent(in), optional :: lower(:)
    call describe_common(h, DACE_INT32, int(c_sizeof(a(1))), c_loc(a(1)), &
        [c_loc(a(min(2, size(a))))], shape(a), lower)
  end subroutine describe_i32_1d

  subroutine describe_i32_2d(a, h, lower)
    integer(c_int32_t), target, intent(in) :: a(:, :)
    type(dace_array_t), intent(out) :: h
    integer, intent(in), optional :: lower(:)
    call describe_common(h, DACE_INT32, int(c_sizeof(a(1, 1))), c_loc(a(1, 1)), &
        [c_loc(a(min(2, size(a, 1)), 1)), c_loc(a(1, min(2, size(a, 2))))], shape(a), lower)
  end subroutine describe_i32_2d

  subroutine describe_i64_1d(a, h, lower)
    integer(c_int64_t), target, intent(in) :: a(:)
    type(dace_array_t), intent(out) :: h
    integer, intent(in), optional :: lower(:)
    call describe_common(h, DACE_INT64, int(c_sizeof(a(1))), c_loc(a(1)), &
        [c_loc(a(min(2, size(a))))], shape(a), lower)
  end subroutine describe_i64_1d

  subroutine describe_i64_2d(a, h, lower)
    integer(c_int64_t), target, intent(in) :: a(:, :)
    type(dace_array_t), intent(out) :: h
    integer, intent(in), optional :: lower(:)
    call describe_common(h, DACE_INT64, int(c_sizeof(a(1, 1))), c_loc(a(1, 1)), &
        [c_loc(a(min(2, size(a, 1)), 1)), c_loc(a(1, min(2, size(a, 2))))], shape(a), lower)
  end subroutine describe_i64_2d

  ! libdace's 0-based index in dimension d of Fortran index i.
  pure function dace_index(h, d, i) result(k)
    type(dace_array_t), intent(in) :: h
    integer, intent(in) :: d, i
    integer(c_int64_t) :: k
    k = i - h%lower(d)
  end function dace_index

  ! "1, 64": the strides of h as text, for dace_array_options_t%strides.
  function dace_strides_text(h) result(s)
    type(dace_array_t), intent(in) :: h
    character(len=:), allocatable :: s
    character(len=24) :: buf
    integer :: d
    s = ""
    do d = 1, h%ndim
      write(buf, '(i0)') h%strides(d)
      if (d > 1) s = s // ", "
      s = s // trim(buf)
    end do
  end function dace_strides_text

  ! ---- program arguments ---------------------------------------------------------------

  function dace_array_arg(h) result(arg)
    type(dace_array_t), target, intent(in) :: h
    type(dace_arg_t) :: arg
    type(dace_array_desc_t) :: desc
    desc%data = h%data
    desc%dtype = h%dtype
    desc%ndim = h%ndim
    desc%shape = c_loc(h%shape)
    desc%strides = c_loc(h%strides)
    arg%kind = DACE_ARG_ARRAY
    arg%value%raw = 0
    arg%value%raw = transfer(desc, arg%value%raw)
  end function dace_array_arg

  function dace_float_arg(x) result(arg)
    real(c_double), intent(in) :: x
    type(dace_arg_t) :: arg
    arg%kind = DACE_ARG_FLOAT
    arg%value%raw = 0
    arg%value%raw(1) = transfer(x, arg%value%raw(1))
  end function dace_float_arg

  function dace_int_arg(i) result(arg)
    integer(c_int64_t), intent(in) :: i
    type(dace_arg_t) :: arg
    arg%kind = DACE_ARG_INT
    arg%value%raw = 0
    arg%value%raw(1) = i
  end function dace_int_arg

  function dace_symbol_arg(i) result(arg)
    integer(c_int64_t), intent(in) :: i
    type(dace_arg_t) :: arg
    arg%kind = DACE_ARG_SYMBOL
    arg%value%raw = 0
    arg%value%raw(1) = i
  end function dace_symbol_arg

end module libdace
