#!/usr/bin/env bash
# The generated low-level bindings are current and complete:
#   1. bindings/generate.py --check (each generated file equals what the generator writes
#      now, and names every DACE_API function its parser found);
#   2. an independent grep of include/libdace.h for DACE_API names, each looked up in every
#      generated file (so a parser that silently drops a declaration is caught);
#   3. the struct layouts the generators assume equal what the C compiler computes;
#   4. gfortran -fsyntax-only -std=f2008 on the Fortran modules; Python compiles _capi.py.
# Usage: check_bindings.sh [C compiler] [Fortran compiler]   (defaults: cc, gfortran)
set -euo pipefail
root="${LIBDACE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}"
cc="${1:-cc}"
fc="${2:-gfortran}"
py="$(command -v python3 || true)"
if [[ -z "$py" ]]; then echo "SKIP: python3 not found"; exit 77; fi
header="$root/include/libdace.h"
generated=(bindings/python/libdace/_capi.py bindings/fortran/libdace_capi.f90 bindings/julia/LibDace/src/capi.jl)
# How each file binds function NAME (a comment naming it does not count).
binding_regex() {
  case "$1" in
    *.py) echo "^$2 = _bind\(\"$2\"" ;;
    *.f90) echo "bind\(C, (& *)?name=\"$2\"\)|^ *name=\"$2\"\)" ;;
    *.jl) echo "ccall\(\(:$2, libdace\)" ;;
  esac
}
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bad=0

echo "== generate.py --check"
"$py" "$root/bindings/generate.py" --check || bad=1

echo "== DACE_API names (grep) in every generated file"
# Every prototype starts a line with DACE_API and names the function before the first '('.
names="$(grep -E '^[[:space:]]*DACE_API[[:space:]]' "$header" | grep -v '#' |
         sed -E 's/^[^(]*[^A-Za-z0-9_(]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\(.*/\1/')"
count="$(wc -l <<< "$names")"
if [[ "$count" -lt 100 ]]; then echo "only $count DACE_API names found in $header"; bad=1; fi
for f in "${generated[@]}"; do
  missing=0
  for n in $names; do
    grep -qE -- "$(binding_regex "$f" "$n")" "$root/$f" || { echo "not bound in $f: $n"; missing=$((missing + 1)); }
  done
  [[ $missing -eq 0 ]] || bad=1
  echo "$f: $((count - missing))/$count functions"
done

echo "== struct layouts"
if command -v "$cc" > /dev/null; then
  "$py" "$root/bindings/generate.py" --layout > "$tmp/want.txt"
  "$py" "$root/bindings/generate.py" --layout-c > "$tmp/layout.c"
  "$cc" -std=c99 -Wall -Wextra -Wpedantic -Werror -I"$root/include" "$tmp/layout.c" -o "$tmp/layout"
  "$tmp/layout" > "$tmp/real.txt"
  if diff -u "$tmp/want.txt" "$tmp/real.txt"; then
    echo "$(wc -l < "$tmp/real.txt") layout facts agree"
  else
    echo "struct layouts differ from the C compiler's"; bad=1
  fi
else
  echo "SKIP: no C compiler '$cc'"
fi

echo "== Fortran syntax"
if command -v "$fc" > /dev/null; then
  (cd "$tmp" && "$fc" -std=f2008 -Wall -Wextra -Werror -fsyntax-only \
     "$root/bindings/fortran/libdace_capi.f90" "$root/bindings/fortran/libdace.f90") \
    && echo "libdace_capi.f90 + libdace.f90: ok" || bad=1
else
  echo "SKIP: no Fortran compiler '$fc'"
fi

echo "== Python syntax"
"$py" -c "import sys; compile(open(sys.argv[1], encoding='utf-8').read(), sys.argv[1], 'exec')" \
  "$root/bindings/python/libdace/_capi.py" && echo "_capi.py: ok" || bad=1

if [[ $bad -ne 0 ]]; then echo "bindings: FAILED"; exit 1; fi
echo "bindings: ok"
