# Plugin system (src/plugin) and the bundled plugins (DESIGN.md §7).
# Include from the top-level CMakeLists.txt after the `dace` and `dace_internal` targets:
#   include(${CMAKE_SOURCE_DIR}/cmake/plugins.cmake)

# --- src/plugin goes into libdace.so ------------------------------------------------------
file(GLOB_RECURSE LIBDACE_PLUGIN_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/plugin/*.cpp)
target_sources(dace PRIVATE ${LIBDACE_PLUGIN_SOURCES})
target_link_libraries(dace PRIVATE ${CMAKE_DL_LIBS})

# --- build id -------------------------------------------------------------------------------
# Plugins link against the unstable internal C++ API, so a plugin must come from the same
# build as libdace. The id hashes what shapes that ABI: version, compiler, build type,
# sanitizers and the content of every internal and public header (at configure time).
# It is deterministic: reconfiguring an unchanged tree gives the same id.
file(GLOB_RECURSE _libdace_abi_headers
  ${CMAKE_SOURCE_DIR}/src/*.h ${CMAKE_SOURCE_DIR}/include/*.h)
list(SORT _libdace_abi_headers)
set(_libdace_abi_text "${PROJECT_VERSION}|${CMAKE_CXX_COMPILER_ID}|${CMAKE_CXX_COMPILER_VERSION}|${CMAKE_BUILD_TYPE}|${LIBDACE_SANITIZE}")
foreach(_h IN LISTS _libdace_abi_headers)
  file(SHA256 ${_h} _h_hash)
  file(RELATIVE_PATH _h_rel ${CMAKE_SOURCE_DIR} ${_h})
  string(APPEND _libdace_abi_text "|${_h_rel}:${_h_hash}")
endforeach()
string(SHA256 _libdace_abi_hash "${_libdace_abi_text}")
string(SUBSTRING "${_libdace_abi_hash}" 0 16 _libdace_abi_hash)
set(LIBDACE_BUILD_ID "${PROJECT_VERSION}-${_libdace_abi_hash}")
message(STATUS "libdace build id: ${LIBDACE_BUILD_ID}")
# Only build_id.cpp sees the id, so a new id recompiles one file of libdace.
set_source_files_properties(${CMAKE_SOURCE_DIR}/src/plugin/build_id.cpp PROPERTIES
  COMPILE_DEFINITIONS "LIBDACE_BUILD_ID=\"${LIBDACE_BUILD_ID}\"")

# --- plugin targets ---------------------------------------------------------------------
# Plugins land in <libdir>/libdace/plugins next to libdace.so, where discovery looks.
set(LIBDACE_PLUGIN_OUTPUT_DIR ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/libdace/plugins)

# libdace_add_plugin(<name> <sources>...): the shared object libdace_plugin_<name>.so
# (target dace_plugin_<name>), linked against libdace's internal API, exporting only what
# carries an explicit visibility attribute (dace_plugin_query, runtime functions).
function(libdace_add_plugin name)
  set(target dace_plugin_${name})
  add_library(${target} MODULE ${ARGN})
  set_target_properties(${target} PROPERTIES
    PREFIX "lib" OUTPUT_NAME dace_plugin_${name}
    LIBRARY_OUTPUT_DIRECTORY ${LIBDACE_PLUGIN_OUTPUT_DIR}
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_compile_definitions(${target} PRIVATE
    LIBDACE_BUILD_ID="${LIBDACE_BUILD_ID}" LIBDACE_VERSION_STRING="${PROJECT_VERSION}")
  target_compile_options(${target} PRIVATE ${LIBDACE_WARNINGS})
  target_link_libraries(${target} PRIVATE dace_internal)
  target_link_options(${target} PRIVATE "LINKER:--no-undefined")
  include(GNUInstallDirs)
  install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/libdace/plugins)
endfunction()

# libdace_plugin_manifest(<name>): writes the plugin's manifest (docs/plugins.md "Lazy
# loading") from <plugin source dir>/manifest.in, with its version and build id filled in,
# beside libdace_plugin_<name>.so, and installs it there. With it, discovery leaves the plugin
# unloaded until a program uses what the manifest lists; without one (CPU) it is loaded at once.
function(libdace_plugin_manifest name)
  set(LIBDACE_PLUGIN_VERSION ${PROJECT_VERSION})
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/manifest.in
                 ${LIBDACE_PLUGIN_OUTPUT_DIR}/libdace_plugin_${name}.manifest @ONLY)
  include(GNUInstallDirs)
  install(FILES ${LIBDACE_PLUGIN_OUTPUT_DIR}/libdace_plugin_${name}.manifest
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/libdace/plugins)
endfunction()

add_subdirectory(${CMAKE_SOURCE_DIR}/plugins/cpu ${CMAKE_BINARY_DIR}/plugins/cpu)
add_subdirectory(${CMAKE_SOURCE_DIR}/plugins/mpi ${CMAKE_BINARY_DIR}/plugins/mpi)

# The CUDA plugin, when the toolkit is there (TOOLCHAIN.md "CUDA": it ships with the machine
# image, not as a Debian package). LIBDACE_CUDA=OFF skips it.
option(LIBDACE_CUDA "Build the CUDA plugin when the CUDA toolkit is found" ON)
if(LIBDACE_CUDA)
  find_path(LIBDACE_CUDA_ROOT nvvm/libdevice/libdevice.10.bc
            PATHS ENV CUDA_HOME ENV CUDA_PATH /usr/local/cuda NO_DEFAULT_PATH)
  if(LIBDACE_CUDA_ROOT)
    set(LIBDACE_CUDA_LIBDEVICE ${LIBDACE_CUDA_ROOT}/nvvm/libdevice/libdevice.10.bc)
    find_program(LIBDACE_PTXAS ptxas PATHS ${LIBDACE_CUDA_ROOT}/bin NO_DEFAULT_PATH)
    message(STATUS "CUDA toolkit: ${LIBDACE_CUDA_ROOT} (CUDA plugin built)")
    add_subdirectory(${CMAKE_SOURCE_DIR}/plugins/cuda ${CMAKE_BINARY_DIR}/plugins/cuda)
  else()
    message(STATUS "CUDA toolkit not found: the CUDA plugin is not built")
  endif()
endif()
