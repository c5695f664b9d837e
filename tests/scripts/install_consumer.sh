#!/usr/bin/env bash
# `cmake --install` into a scratch prefix, then a separate C project built against the
# installed tree only: once through find_package(libdace CONFIG) and once through
# pkg-config. Each runs tests/install/consumer/consumer.c (an SDFG built, JIT-compiled on the
# CPU plugin and checked against hand-computed values), with no DACE_PLUGIN_PATH or
# LD_LIBRARY_PATH; then the installed `dace` CLI validates and runs the SDFG it saved.
# Both ways also build the repository's C++ and Fortran examples (pkg-config: libdace.pc and
# libdace_fortran.pc).
# Usage: install_consumer.sh <build dir> <repo> <scratch dir> <C compiler> [<cmake> [<generator> [<libdir>
#        [<C++ compiler>]]]]
# The Fortran compiler is the build's (CMakeCache.txt): installed .mod files need the one that wrote them.
set -euo pipefail
build="$1"; repo="$2"; tmp="$3"; cc="$4"; cmake="${5:-cmake}"; generator="${6:-Ninja}"; libdir="${7:-lib}"
cxx="${8:-c++}"
fc=$(sed -n 's/^CMAKE_Fortran_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
prefix="$tmp/prefix"
rm -rf "$tmp" && mkdir -p "$tmp"
unset DACE_PLUGIN_PATH LD_LIBRARY_PATH LIBDACE_LIBRARY PKG_CONFIG_PATH CMAKE_PREFIX_PATH || true
fail() { echo "install_consumer: FAIL: $*" >&2; exit 1; }
# Whether EXE resolves libdace.so.<major> inside the prefix. ldd's output is read whole first:
# `ldd | grep -q` under pipefail fails at random when grep closes the pipe early (SIGPIPE).
resolves_installed() {
  local deps
  deps=$(ldd "$1")
  grep -q "libdace.so.$major => $prefix/$libdir/" <<<"$deps"
}

"$cmake" --install "$build" --prefix "$prefix" >/dev/null
for f in include/libdace.h include/libdace.hpp $libdir/libdace.so $libdir/libdace/plugins/libdace_plugin_cpu.so \
         bin/dace $libdir/cmake/libdace/libdaceConfig.cmake $libdir/cmake/libdace/libdaceConfigVersion.cmake \
         $libdir/pkgconfig/libdace.pc share/doc/libdace/README.md \
         $libdir/libdace_rt.so $libdir/pkgconfig/libdace_rt.pc include/libdace/dace_cpu_runtime.h \
         $libdir/libdace_rt.a $libdir/pkgconfig/libdace_rt_static.pc; do
  [ -e "$prefix/$f" ] || fail "$f not installed"
done
# The renderer module (dace_sdfg_render), when this build has Graphviz: installed next to the
# plugins folder, and the consumers then render through the installed library.
render_flag=()
if [ -e "$build/lib/libdace/libdace_render.so" ]; then
  [ -e "$prefix/$libdir/libdace/libdace_render.so" ] || fail "$libdir/libdace/libdace_render.so not installed"
  render_flag=(--render)
else
  echo "note: this build has no libdace_render.so (no Graphviz): rendering through the installed library not checked"
fi
soname=$(readelf -d "$prefix/$libdir/libdace.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
major=$(sed -n 's/^#define DACE_VERSION_MAJOR \([0-9]*\).*/\1/p' "$repo/include/libdace.h")
[ "$soname" = "libdace.so.$major" ] || fail "SONAME '$soname', expected libdace.so.$major"
# Nothing installed may point back into the build or source tree (RUNPATHs, package files).
installed_objects=("$prefix"/bin/dace "$prefix"/$libdir/libdace.so "$prefix"/$libdir/libdace_rt.so "$prefix"/$libdir/libdace/plugins/*.so)
[ ${#render_flag[@]} -eq 0 ] || installed_objects+=("$prefix/$libdir/libdace/libdace_render.so")
for f in "${installed_objects[@]}"; do
  runpath=$(readelf -d "$f" | grep -E 'RUNPATH|RPATH' || true)
  if grep -qF -e "$build" -e "$repo" <<<"$runpath"; then
    fail "$f has a RUNPATH into the build tree: $runpath"
  fi
done
if grep -rlF -e "$build" -e "$repo" "$prefix/$libdir/cmake" "$prefix/$libdir/pkgconfig"; then
  fail "package files name the build or source tree"
fi

# Loads the installed libdace (not the build tree's), then runs.
check_and_run() {
  local exe="$1" what="$2"
  resolves_installed "$exe" || fail "$what: libdace not resolved in $prefix: $(ldd "$exe" | grep libdace)"
  "$exe" "$tmp/$what.sdfg" "${render_flag[@]}" || fail "$what: consumer program failed"
}

# 1. CMake package.
"$cmake" -S "$repo/tests/install/consumer" -B "$tmp/cmake-build" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
  -DLIBDACE_MAJOR="$major" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DLIBDACE_EXAMPLES_DIR="$repo/examples" >"$tmp/configure.log" 2>&1 \
  || { cat "$tmp/configure.log"; fail "configuring the find_package consumer"; }
grep -F "libdace " "$tmp/configure.log" || true
"$cmake" --build "$tmp/cmake-build" >/dev/null || fail "building the find_package consumer"
check_and_run "$tmp/cmake-build/consumer" find_package
while read -r exe; do
  [ -n "$exe" ] || continue
  resolves_installed "$exe" || fail "$exe: libdace not resolved in $prefix"
  "$exe" || fail "$exe failed"
done <"$tmp/cmake-build/more_consumers.txt"
grep -q consumer_fortran "$tmp/cmake-build/more_consumers.txt" || echo "note: no Fortran consumer (no Fortran compiler or modules)"
cli=$(cat "$tmp/cmake-build/dace_cli_path.txt")
[ "$cli" = "$prefix/bin/dace" ] || fail "libdace::dace is $cli, expected $prefix/bin/dace"

# 2. pkg-config.
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
[ "$(pkg-config --modversion libdace)" = "$("$prefix/bin/dace" version | cut -d' ' -f2)" ] || fail "libdace.pc version"
# shellcheck disable=SC2046
"$cc" -std=c99 -Wall -Wextra -pedantic -Werror $(pkg-config --cflags libdace) \
  "$repo/tests/install/consumer/consumer.c" -o "$tmp/consumer-pc" $(pkg-config --libs libdace) \
  -Wl,-rpath,"$(pkg-config --variable=libdir libdace)" || fail "building the pkg-config consumer"
check_and_run "$tmp/consumer-pc" pkg-config
# C++: the repository's example against the installed libdace.hpp, through libdace.pc alone.
# shellcheck disable=SC2046
"$cxx" -std=c++17 -Wall -Wextra -pedantic -Werror $(pkg-config --cflags libdace) \
  "$repo/examples/cpp/scale_jacobi.cpp" -o "$tmp/consumer-pc-cpp" $(pkg-config --libs libdace) \
  -Wl,-rpath,"$(pkg-config --variable=libdir libdace)" || fail "building the pkg-config C++ consumer"
resolves_installed "$tmp/consumer-pc-cpp" || fail "pkg-config C++ consumer: libdace not resolved in $prefix"
"$tmp/consumer-pc-cpp" || fail "pkg-config C++ consumer failed"
# Fortran: the example against the installed modules, through libdace_fortran.pc (which pulls
# in libdace.pc), with the compiler that wrote the modules.
if [ -e "$prefix/$libdir/libdace_fortran.a" ]; then
  [ -n "$fc" ] || fail "Fortran bindings installed but no CMAKE_Fortran_COMPILER in $build/CMakeCache.txt"
  [ -e "$prefix/$libdir/pkgconfig/libdace_fortran.pc" ] || fail "libdace_fortran.pc not installed"
  [ "$(pkg-config --modversion libdace_fortran)" = "$(pkg-config --modversion libdace)" ] || fail "libdace_fortran.pc version"
  [ -e "$(pkg-config --variable=moduledir libdace_fortran)/libdace.mod" ] || fail "libdace_fortran.pc: moduledir has no libdace.mod"
  # shellcheck disable=SC2046
  "$fc" $(pkg-config --cflags libdace_fortran) "$repo/examples/fortran/scale_jacobi.f90" -o "$tmp/consumer-pc-fortran" \
    $(pkg-config --libs libdace_fortran) -Wl,-rpath,"$(pkg-config --variable=libdir libdace)" \
    || fail "building the pkg-config Fortran consumer ($(pkg-config --libs libdace_fortran))"
  resolves_installed "$tmp/consumer-pc-fortran" || fail "pkg-config Fortran consumer: libdace not resolved in $prefix"
  "$tmp/consumer-pc-fortran" || fail "pkg-config Fortran consumer failed"
else
  echo "note: no pkg-config Fortran consumer (no Fortran modules installed: no Fortran compiler at configure time)"
fi

# 3. The installed CLI on the saved SDFG. dace run's generated input is A[i] = ((7i+3) mod 17)/17,
#    whose sum over i < 10 is 73/17, so sum(B) = 3 * 73/17 + 2 * 10 = 559/17.
"$prefix/bin/dace" version
"$prefix/bin/dace" validate "$tmp/find_package.sdfg"
out=$("$prefix/bin/dace" run "$tmp/find_package.sdfg" -s N=10) || fail "dace run: $out"
echo "$out"
awk '/^B: /{ s=$NF; d=s-559/17; if (d<0) d=-d; found=1; exit !(d < 1e-6) } END { if (!found) exit 1 }' <<<"$out" \
  || fail "dace run: sum(B) is not 559/17"
# 4. Ahead-of-time (docs/aot.md): the installed CLI compiles the saved SDFG ("affine") into
#    lib affine.so + affine.h, needing the installed libdace_rt.so; a C host linked with -laffine
#    only runs it with no LLVM and no libdace.so loaded (it checks /proc/self/maps itself).
"$prefix/bin/dace" compile "$tmp/find_package.sdfg" --aot -o "$tmp/aot" || fail "dace compile --aot"
readelf -d "$tmp/aot/libaffine.so" | grep -q "RUNPATH.*\[$prefix/$libdir\]" \
  || fail "libaffine.so does not find libdace_rt.so in $prefix/$libdir: $(readelf -d "$tmp/aot/libaffine.so" | grep RUNPATH)"
"$cc" -std=c99 -Wall -Wextra -pedantic -Werror -I"$tmp/aot" "$repo/tests/install/aot/aot_host.c" -o "$tmp/aot_host" \
  -L"$tmp/aot" -laffine -Wl,-rpath,"$tmp/aot" || fail "building the AOT host"
deps=$(ldd "$tmp/aot_host")
grep -q "libdace_rt.so.$major => $prefix/$libdir/" <<<"$deps" || fail "AOT host: libdace_rt not resolved in $prefix: $deps"
if grep -qE 'libLLVM|libdace\.so' <<<"$deps"; then fail "AOT host links LLVM or libdace: $deps"; fi
"$tmp/aot_host" || fail "AOT host failed"
# 5. The static runtime: libaffine.a + the installed libdace_rt.a, once through pkg-config
#    (libdace_rt_static) and once through find_package(libdace COMPONENTS rt_static); the host
#    then loads no libdace_rt, libaffine, libdace.so or LLVM shared object (ldd here, and
#    /proc/self/maps in the host itself).
[ -f "$prefix/$libdir/libdace_rt.a" ] || fail "$libdir/libdace_rt.a not installed"
static_hosts=("$tmp/aot_host_static_pc" "$tmp/aot-static-build/aot_host_static")
# shellcheck disable=SC2046
"$cc" -std=c99 -Wall -Wextra -pedantic -Werror -DAOT_STATIC_RUNTIME $(pkg-config --cflags libdace_rt_static) \
  -I"$tmp/aot" "$repo/tests/install/aot/aot_host.c" -o "${static_hosts[0]}" "$tmp/aot/libaffine.a" \
  $(pkg-config --libs libdace_rt_static) || fail "building the static AOT host with pkg-config"
"$cmake" -S "$repo/tests/install/aot_static" -B "$tmp/aot-static-build" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DAOT_DIR="$tmp/aot" \
  -DAOT_HOST_SOURCE="$repo/tests/install/aot/aot_host.c" >"$tmp/aot-static-configure.log" 2>&1 \
  || { cat "$tmp/aot-static-configure.log"; fail "configuring the static AOT host (find_package rt_static)"; }
"$cmake" --build "$tmp/aot-static-build" >/dev/null || fail "building the static AOT host (find_package rt_static)"
for exe in "${static_hosts[@]}"; do
  deps=$(ldd "$exe")
  if grep -qE 'libLLVM|libdace\.so|libdace_rt|libaffine' <<<"$deps"; then fail "$exe: shared libdace pieces: $deps"; fi
  "$exe" || fail "$exe failed"
done
# 6. With the CUDA plugin: the static CUDA runtime (libdace_cuda_rt.a) is installed, found by
#    find_package(libdace COMPONENTS cuda_rt_static) (tests/install/aot_static, option
#    EXPECT_CUDA_RT_STATIC), and libdace_cuda_rt_static.pc lists it before libdace_rt.a with
#    what it needs: the whole archive links into a shared object with --no-undefined.
if [ -e "$prefix/$libdir/libdace_cuda_rt.so" ]; then
  [ -f "$prefix/$libdir/libdace_cuda_rt.a" ] || fail "$libdir/libdace_cuda_rt.a not installed"
  cuda_libs=$(pkg-config --libs libdace_cuda_rt_static) || fail "no libdace_cuda_rt_static.pc"
  pc_libdir=$(pkg-config --variable=libdir libdace_cuda_rt_static)
  [[ "$(realpath "$pc_libdir")" == "$(realpath "$prefix/$libdir")" ]] || fail "libdace_cuda_rt_static.pc: libdir $pc_libdir"
  [[ "$cuda_libs" == "$pc_libdir/libdace_cuda_rt.a "*"$pc_libdir/libdace_rt.a"* ]] \
    || fail "libdace_cuda_rt_static.pc: $cuda_libs"
  # shellcheck disable=SC2086
  "$cc" -shared -o "$tmp/whole_cuda_rt.so" -Wl,--whole-archive "$prefix/$libdir/libdace_cuda_rt.a" \
    -Wl,--no-whole-archive -Wl,--no-undefined $cuda_libs || fail "libdace_cuda_rt.a with $cuda_libs does not link"
  "$cmake" -S "$repo/tests/install/aot_static" -B "$tmp/aot-static-cuda" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DAOT_DIR="$tmp/aot" \
    -DAOT_HOST_SOURCE="$repo/tests/install/aot/aot_host.c" -DEXPECT_CUDA_RT_STATIC=ON >"$tmp/aot-static-cuda.log" 2>&1 \
    || { cat "$tmp/aot-static-cuda.log"; fail "find_package(libdace COMPONENTS cuda_rt_static)"; }
else
  echo "note: no CUDA plugin installed, libdace_cuda_rt.a not checked"
fi
# The runtime alone through pkg-config.
[[ "$(pkg-config --libs libdace_rt)" == "-L$(pkg-config --variable=libdir libdace_rt) -ldace_rt"* ]] \
  || fail "libdace_rt.pc: $(pkg-config --libs libdace_rt)"
echo "install_consumer: ok"
