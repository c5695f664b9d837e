# `dace render` (src/render): SDFG pictures laid out by Graphviz (docs/render.md). Graphviz is
# linked into the CLI only, never into libdace.so. Without libgraphviz-dev the command exists
# and reports that it was built without Graphviz.
set(LIBDACE_RENDER_SOURCES
  ${CMAKE_SOURCE_DIR}/src/render/labels.cpp
  ${CMAKE_SOURCE_DIR}/src/render/html_page.cpp)
pkg_check_modules(GVC IMPORTED_TARGET libgvc)
if(GVC_FOUND)
  # The dot layout and the SVG renderer are linked in as built-in plugins (see
  # src/render/draw_graphviz.cpp), so Graphviz's plugin configuration file is not needed.
  pkg_get_variable(GVC_LIBDIR libgvc libdir)
  find_library(LIBDACE_GV_DOT NAMES gvplugin_dot_layout PATHS ${GVC_LIBDIR}/graphviz NO_DEFAULT_PATH)
  find_library(LIBDACE_GV_CORE NAMES gvplugin_core PATHS ${GVC_LIBDIR}/graphviz NO_DEFAULT_PATH)
endif()
if(GVC_FOUND AND LIBDACE_GV_DOT AND LIBDACE_GV_CORE)
  add_library(dace_render STATIC ${LIBDACE_RENDER_SOURCES} ${CMAKE_SOURCE_DIR}/src/render/draw_graphviz.cpp)
  target_link_libraries(dace_render PRIVATE PkgConfig::GVC ${LIBDACE_GV_DOT} ${LIBDACE_GV_CORE})
  set(LIBDACE_HAVE_GRAPHVIZ ON)
else()
  message(STATUS "libdace: Graphviz (libgraphviz-dev) not found: `dace render` will report it")
  add_library(dace_render STATIC ${LIBDACE_RENDER_SOURCES} ${CMAKE_SOURCE_DIR}/src/render/draw_unavailable.cpp)
  set(LIBDACE_HAVE_GRAPHVIZ OFF)
endif()
target_link_libraries(dace_render PUBLIC dace_internal)
target_compile_options(dace_render PRIVATE ${LIBDACE_WARNINGS})

# libdace_render.so: the renderer as a module libdace.so loads on the first dace_sdfg_render
# call (src/builder/api_render.cpp), in <libdir>/libdace next to the plugins folder, so that
# libdace.so itself never links Graphviz. Only with Graphviz: without it the C API reports
# DACE_ERROR_UNSUPPORTED naming the missing file.
if(LIBDACE_HAVE_GRAPHVIZ)
  set_target_properties(dace_render PROPERTIES POSITION_INDEPENDENT_CODE ON)
  add_library(dace_render_module MODULE ${CMAKE_SOURCE_DIR}/src/render/module.cpp)
  target_link_libraries(dace_render_module PRIVATE dace_render)
  target_compile_options(dace_render_module PRIVATE ${LIBDACE_WARNINGS})
  set_target_properties(dace_render_module PROPERTIES OUTPUT_NAME dace_render PREFIX lib
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/libdace
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
    INSTALL_RPATH "$ORIGIN/.." INSTALL_RPATH_USE_LINK_PATH ON)
endif()
