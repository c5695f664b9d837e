# LLVM 19.1 for the JIT layer (src/jit) and the lowering (src/codegen), as Debian's shared
# libLLVM-19.so, which libdace and its plugins share (DESIGN.md §6, TOOLCHAIN.md "LLVM").
#
#   include(cmake/llvm.cmake)
#   target_link_libraries(<target> PRIVATE dace_llvm)
#
# dace_llvm carries the library, LLVM's include directory as a SYSTEM include (LLVM's headers
# do not pass -Wpedantic -Werror) and LLVM's compile definitions. libdace.so does not
# re-export LLVM symbols: cmake/libdace.map exports only dace_* and dace::*.
# Only `LLVM 19.1` is accepted by LLVM's version file; `LLVM 19` is rejected.
find_package(LLVM 19.1 CONFIG REQUIRED HINTS /usr/lib/llvm-19/lib/cmake/llvm)
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION}: ${LLVM_DIR}")

if(NOT TARGET dace_llvm)
  add_library(dace_llvm INTERFACE)
  # LLVMExports.cmake defines the imported shared library `LLVM` when LLVM was built with
  # the dylib (Debian: LLVM_LINK_LLVM_DYLIB=ON); otherwise name the file. Never the static
  # component libraries: a second copy of LLVM's globals would break sharing with plugins.
  if(TARGET LLVM)
    target_link_libraries(dace_llvm INTERFACE LLVM)
  else()
    find_library(DACE_LLVM_DYLIB NAMES LLVM-${LLVM_VERSION_MAJOR} LLVM
                 HINTS ${LLVM_LIBRARY_DIRS} NO_DEFAULT_PATH REQUIRED)
    target_link_libraries(dace_llvm INTERFACE ${DACE_LLVM_DYLIB})
  endif()
  target_include_directories(dace_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
  separate_arguments(DACE_LLVM_DEFINITIONS NATIVE_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_definitions(dace_llvm INTERFACE ${DACE_LLVM_DEFINITIONS})
  # LLVM is built without exceptions but with RTTI; our code keeps both on, which mixes fine.
  set(DACE_LLVM_LIBRARY_DIR "${LLVM_LIBRARY_DIRS}" CACHE INTERNAL "libLLVM directory (for RPATHs)")
endif()
