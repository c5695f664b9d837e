#!/usr/bin/env bash
# Progress of the long benchmark scripts (bench/progress.py; docs/jit.md "Logs and progress"):
# compile_latency.py and run_corpus_bench.py show "[k/N] ..." on stderr on a terminal
# (script(1) provides one), nothing without a terminal, with TERM=dumb or with --quiet, plain
# lines with --progress off a terminal; stdout (the table) never carries it.
# Usage: bench_progress.sh <dace CLI> <bench_corpus> <repo> <scratch dir>
set -uo pipefail
DACE="$1"; BENCH_EXE="$2"; REPO="$3"; TMP="$4"
rm -rf "$TMP" && mkdir -p "$TMP"
pass=0; failed=0
ok() { pass=$((pass + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; [[ -n "${2:-}" ]] && sed 's/^/    /' "$2" | head -20; }
has() { grep -qE "$2" "$1"; }
CL=(/usr/bin/python3 "$REPO/bench/compile_latency.py" --dace-cli "$DACE" --kernels gemm --variants simp --reps 1 --no-dace)
CB=(/usr/bin/python3 "$REPO/bench/run_corpus_bench.py" --bench-exe "$BENCH_EXE" --kernels crc16 --sizes S --no-dace
    --reps 1 --compile-reps 1 --budget-ms 50)

# Off a terminal: nothing on stderr, the table on stdout.
"${CL[@]}" >"$TMP/cl.out" 2>"$TMP/cl.err"
[[ ! -s "$TMP/cl.err" ]] && has "$TMP/cl.out" '^\| gemm\.simp' && ok || bad "compile_latency off a terminal" "$TMP/cl.err"
# --progress off a terminal: plain lines on stderr, no terminal codes, stdout unchanged.
"${CL[@]}" --progress >"$TMP/clp.out" 2>"$TMP/clp.err"
has "$TMP/clp.err" '^\[1/1\] compiling gemm\.simp' && ! grep -q $'\033' "$TMP/clp.err" && ok \
  || bad "compile_latency --progress: no plain [1/1] line" "$TMP/clp.err"
! has "$TMP/clp.out" '\[1/1\]' && ok || bad "compile_latency: progress on stdout" "$TMP/clp.out"
"${CL[@]}" --progress --quiet >/dev/null 2>"$TMP/clq.err"
[[ ! -s "$TMP/clq.err" ]] && ok || bad "compile_latency --progress --quiet shows progress" "$TMP/clq.err"
"${CB[@]}" >"$TMP/cb.out" 2>"$TMP/cb.err"
! has "$TMP/cb.err" '\[1/1\]' && has "$TMP/cb.out" 'crc16' && ok || bad "run_corpus_bench off a terminal" "$TMP/cb.err"
"${CB[@]}" --progress >/dev/null 2>"$TMP/cbp.err"
has "$TMP/cbp.err" '^\[1/1\] crc16 at S' && ok || bad "run_corpus_bench --progress: no [1/1] line" "$TMP/cbp.err"

if command -v script >/dev/null; then
  TERM=xterm script -qfec "${CL[*]}" /dev/null >"$TMP/tty.out" 2>&1
  has "$TMP/tty.out" '\[1/1\] compiling gemm\.simp' && grep -q $'\033\\[K' "$TMP/tty.out" && ok \
    || bad "compile_latency on a terminal: no [1/1] line rewritten in place" "$TMP/tty.out"
  TERM=xterm script -qfec "${CL[*]} --quiet" /dev/null >"$TMP/ttyq.out" 2>&1
  ! has "$TMP/ttyq.out" '\[1/1\]' && ok || bad "compile_latency --quiet on a terminal shows progress" "$TMP/ttyq.out"
  TERM=dumb script -qfec "${CL[*]}" /dev/null >"$TMP/dumb.out" 2>&1
  ! has "$TMP/dumb.out" '\[1/1\]' && ok || bad "compile_latency with TERM=dumb shows progress" "$TMP/dumb.out"
  TERM=xterm script -qfec "${CB[*]}" /dev/null >"$TMP/ttycb.out" 2>&1
  has "$TMP/ttycb.out" '\[1/1\] crc16 at S' && ok || bad "run_corpus_bench on a terminal: no progress" "$TMP/ttycb.out"
else
  echo "note: script(1) missing, terminal progress not checked"
fi
echo "bench_progress: $pass passed, $failed failed"
[[ $failed -eq 0 ]]
