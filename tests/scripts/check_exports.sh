#!/usr/bin/env bash
# Export policy of libdace.so: only dace_* C functions and dace:: C++ symbols (plus their
# typeinfo/vtables); nothing from LLVM, nlohmann-json, ISL, zlib or the standard library.
set -euo pipefail
lib="$1"
syms="$(nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//' | grep -v '^LIBDACE_' )"
[[ -n "$syms" ]] || { echo "no exported symbols found in $lib"; exit 1; }
bad=0
while read -r s; do
  [[ -z "$s" ]] && continue
  d="$(echo "$s" | c++filt)"
  case "$d" in
    dace_*) ;;
    dace::*) ;;
    "typeinfo for dace::"*|"typeinfo name for dace::"*|"vtable for dace::"*) ;;
    *) echo "unexpected export: $s ($d)"; bad=1 ;;
  esac
done <<< "$syms"
n_c=$(grep -c '^dace_' <<< "$syms" || true)
[[ "$n_c" -ge 20 ]] || { echo "only $n_c dace_* C functions exported"; bad=1; }
readelf -d "$lib" | grep -q 'SONAME.*libdace.so.0' || { echo "missing SONAME libdace.so.0"; bad=1; }
for header_fn in $(grep -oE '\bdace_[a-z0-9_]+\s*\(' "$(dirname "$0")/../../include/libdace.h" | tr -d '( ' | sort -u); do
  grep -qx "$header_fn" <<< "$syms" || { echo "declared in libdace.h but not exported: $header_fn"; bad=1; }
done
if [[ $bad -ne 0 ]]; then echo "exports: FAILED"; exit 1; fi
echo "exports: $n_c C functions, policy ok"
