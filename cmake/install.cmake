# `cmake --install build --prefix P`: libdace.so (SONAME libdace.so.<major>), the public
# headers, the plugins in <libdir>/libdace/plugins (where libdace looks next to itself, so no
# environment variable is needed; docs/plugins.md "Discovery"), the `dace` CLI, the Fortran
# modules when built, the docs, a CMake package (find_package(libdace CONFIG)) and libdace.pc.
# Include from the top-level CMakeLists.txt after every target (plugins, tools, examples).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LIBDACE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/libdace)
set(LIBDACE_INSTALL_PLUGINDIR ${CMAKE_INSTALL_LIBDIR}/libdace/plugins)

# RUNPATHs relative to the installed file, so a prefix can be moved; link directories outside
# the build tree (LLVM's, libomp's) are kept for non-Debian layouts.
file(RELATIVE_PATH _libdace_bin_to_lib /${CMAKE_INSTALL_BINDIR} /${CMAKE_INSTALL_LIBDIR})
set_target_properties(dace PROPERTIES EXPORT_NAME libdace INSTALL_RPATH_USE_LINK_PATH ON)
set_target_properties(dace_cli PROPERTIES EXPORT_NAME dace
  INSTALL_RPATH "$ORIGIN/${_libdace_bin_to_lib}" INSTALL_RPATH_USE_LINK_PATH ON)

install(TARGETS dace EXPORT libdaceTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The CPU runtime of ahead-of-time compiled programs (libdace_rt.so, no LLVM; docs/aot.md):
# libdace::rt, pkg-config libdace_rt.
set_target_properties(dace_rt PROPERTIES EXPORT_NAME rt INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS dace_rt EXPORT libdaceTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The same runtime as a static archive (libdace_rt.a): libdace::rt_static, pkg-config
# libdace_rt_static, for hosts that link an AOT program's lib<name>.a with no shared runtime.
set_target_properties(dace_rt_static PROPERTIES EXPORT_NAME rt_static)
install(TARGETS dace_rt_static EXPORT libdaceTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${CMAKE_SOURCE_DIR}/plugins/cpu/runtime/dace_cpu_runtime.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/libdace)
# The CUDA runtime of ahead-of-time compiled GPU programs (libdace_cuda_rt.so, built with the
# CUDA plugin), next to libdace.so where compile_aot finds it.
if(TARGET dace_cuda_rt)
  install(TARGETS dace_cuda_rt LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  # Its static archive (libdace_cuda_rt.a): libdace::cuda_rt_static, pkg-config
  # libdace_cuda_rt_static, for hosts that link a GPU program's lib<name>.a statically.
  set_target_properties(dace_cuda_rt_static PROPERTIES EXPORT_NAME cuda_rt_static)
  install(TARGETS dace_cuda_rt_static EXPORT libdaceTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(TARGETS dace_cli EXPORT libdaceTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The renderer module (dace_sdfg_render; docs/render.md), where libdace looks for it.
if(TARGET dace_render_module)
  install(TARGETS dace_render_module LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/libdace)
endif()
install(FILES ${CMAKE_SOURCE_DIR}/include/libdace.h ${CMAKE_SOURCE_DIR}/include/libdace.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# Plugins (installed by libdace_add_plugin in cmake/plugins.cmake): the components of the
# package are the plugins this build made.
set(LIBDACE_INSTALLED_PLUGINS "")
foreach(_plugin cpu mpi cuda)
  if(TARGET dace_plugin_${_plugin})
    list(APPEND LIBDACE_INSTALLED_PLUGINS ${_plugin})
    # A plugin needs libdace.so, two folders up (libdace is already loaded when it loads).
    set_target_properties(dace_plugin_${_plugin} PROPERTIES
      INSTALL_RPATH "$ORIGIN/../.." INSTALL_RPATH_USE_LINK_PATH ON)
  endif()
endforeach()

# Fortran: the compiled modules (.mod, specific to the compiler that made them), the static
# library of the bindings and their sources (for other Fortran compilers).
set(LIBDACE_FORTRAN_INSTALLED OFF)
install(FILES ${CMAKE_SOURCE_DIR}/bindings/fortran/libdace_capi.f90 ${CMAKE_SOURCE_DIR}/bindings/fortran/libdace.f90
  ${CMAKE_SOURCE_DIR}/bindings/fortran/libdace_call.f90
  DESTINATION ${CMAKE_INSTALL_DATADIR}/libdace/fortran)
if(TARGET dace_fortran)
  get_target_property(_libdace_fortran_mod dace_fortran Fortran_MODULE_DIRECTORY)
  install(FILES $<TARGET_FILE:dace_fortran> DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${_libdace_fortran_mod}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/libdace/fortran
    FILES_MATCHING PATTERN "*.mod")
  set(LIBDACE_FORTRAN_INSTALLED ON)
endif()

install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

# --- CMake package -------------------------------------------------------------------------
install(EXPORT libdaceTargets NAMESPACE libdace:: DESTINATION ${LIBDACE_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/package/libdaceConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/libdaceConfig.cmake INSTALL_DESTINATION ${LIBDACE_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/libdaceConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/libdaceConfig.cmake
  ${CMAKE_BINARY_DIR}/package/libdaceConfigVersion.cmake DESTINATION ${LIBDACE_INSTALL_CMAKEDIR})

# --- pkg-config ----------------------------------------------------------------------------
# Relocatable: prefix is found from the .pc file's own folder (${pcfiledir}).
file(RELATIVE_PATH LIBDACE_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" LIBDACE_PC_TO_PREFIX "${LIBDACE_PC_TO_PREFIX}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/package/libdace.pc.in ${CMAKE_BINARY_DIR}/package/libdace.pc @ONLY)
configure_file(${CMAKE_SOURCE_DIR}/cmake/package/libdace_rt.pc.in ${CMAKE_BINARY_DIR}/package/libdace_rt.pc @ONLY)
configure_file(${CMAKE_SOURCE_DIR}/cmake/package/libdace_rt_static.pc.in ${CMAKE_BINARY_DIR}/package/libdace_rt_static.pc
  @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/libdace.pc ${CMAKE_BINARY_DIR}/package/libdace_rt.pc
  ${CMAKE_BINARY_DIR}/package/libdace_rt_static.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(TARGET dace_cuda_rt_static)
  configure_file(${CMAKE_SOURCE_DIR}/cmake/package/libdace_cuda_rt_static.pc.in
    ${CMAKE_BINARY_DIR}/package/libdace_cuda_rt_static.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/package/libdace_cuda_rt_static.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
# The Fortran bindings for pkg-config users (the static library, the module folder, libdace).
if(LIBDACE_FORTRAN_INSTALLED)
  get_target_property(LIBDACE_FORTRAN_COMPILER dace_fortran LIBDACE_FORTRAN_COMPILER)
  if(NOT LIBDACE_FORTRAN_COMPILER)
    set(LIBDACE_FORTRAN_COMPILER "unknown")
  endif()
  configure_file(${CMAKE_SOURCE_DIR}/cmake/package/libdace_fortran.pc.in ${CMAKE_BINARY_DIR}/package/libdace_fortran.pc
    @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/package/libdace_fortran.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
