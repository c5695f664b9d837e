# `pip install .` (scikit-build-core, pyproject.toml): the wheel holds the Python package with
# libdace.so and the plugins inside it, in libdace/_lib -- where the package's loader looks
# first (bindings/python/libdace/_loader.py) and, for the plugins, where libdace itself looks
# (<folder of libdace.so>/libdace/plugins): no environment variable is needed after install.
# Only the component "python" goes into the wheel; headers, CLI, CMake package etc. stay out.
#
# A wheel cannot hold symbolic links (they become copies), so the library is one file named by
# its SONAME, libdace.so.0, which is also the name the plugins ask the dynamic loader for.
set(LIBDACE_WHEEL_LIBDIR libdace/_lib)
set_target_properties(dace PROPERTIES VERSION ${PROJECT_VERSION_MAJOR})
install(TARGETS dace LIBRARY DESTINATION ${LIBDACE_WHEEL_LIBDIR} NAMELINK_SKIP COMPONENT python)
foreach(_plugin cpu mpi cuda)
  if(TARGET dace_plugin_${_plugin})
    install(TARGETS dace_plugin_${_plugin} LIBRARY DESTINATION ${LIBDACE_WHEEL_LIBDIR}/libdace/plugins
      COMPONENT python)
  endif()
endforeach()
# The renderer module (dace_sdfg_render), where libdace looks for it: <libdir>/libdace.
# pyproject.toml builds only the targets it lists (build.targets) and the module exists only
# with Graphviz, so the list names dace_wheel_extras, which depends on the module when it exists.
add_custom_target(dace_wheel_extras)
if(TARGET dace_render_module)
  add_dependencies(dace_wheel_extras dace_render_module)
  install(TARGETS dace_render_module LIBRARY DESTINATION ${LIBDACE_WHEEL_LIBDIR}/libdace COMPONENT python)
endif()
# The runtime of ahead-of-time compiled programs (docs/aot.md, libdace.compile_aot) next to
# libdace.so, where compile_aot looks for it; the namelink (a copy in the wheel) is what
# `-ldace_rt` links against, libdace_rt.so.0 what the programs load.
set_target_properties(dace_rt PROPERTIES VERSION ${PROJECT_VERSION_MAJOR})
install(TARGETS dace_rt LIBRARY DESTINATION ${LIBDACE_WHEEL_LIBDIR} COMPONENT python)
# The same for GPU programs: libdace_cuda_rt.so, built with the CUDA plugin.
if(TARGET dace_cuda_rt)
  set_target_properties(dace_cuda_rt PROPERTIES VERSION ${PROJECT_VERSION_MAJOR})
  add_dependencies(dace_wheel_extras dace_cuda_rt)
  install(TARGETS dace_cuda_rt LIBRARY DESTINATION ${LIBDACE_WHEEL_LIBDIR} COMPONENT python)
endif()
