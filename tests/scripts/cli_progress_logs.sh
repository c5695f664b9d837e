#!/usr/bin/env bash
# Progress on a terminal and DACE_LOG logs (docs/jit.md "Logs", docs/cli: progress).
#   - no DACE_LOG: a compile writes nothing to stderr;
#   - DACE_LOG=debug: plugin loading (each plugin, then the discovery's wall and CPU time), the
#     JIT session's creation time, the cache miss, every compile phase, the background
#     tier and the cache store are logged; a second compile logs the cache hit; DACE_LOG=info
#     keeps the per-compile lines and drops the per-phase ones; optimizer passes are logged;
#   - `dace optimize` on a terminal (made with script(1)) shows "[k/n] step" lines; with
#     --quiet, with TERM=dumb or without a terminal it shows none, and stdout never changes;
#   - `dace run --repeat N` and `dace render` show progress on a terminal or with --progress
#     (then plain lines on stderr, no terminal codes), none without a terminal or with --quiet
#     (which wins over --progress); stdout (--json) parses as JSON and carries no progress, the
#     SVG is the same bytes either way.
# Usage: cli_progress_logs.sh DACE_EXE CORPUS_DIR TMP_DIR
set -uo pipefail
DACE="$1"; CORPUS="$2"; TMP="$3"
G="$CORPUS/gemm/gemm.simp.sdfg"; RAW="$CORPUS/gemm/gemm.raw.sdfg"
if [[ ! -f "$G" ]]; then echo "skip: no corpus at $CORPUS"; exit 77; fi
rm -rf "$TMP"; mkdir -p "$TMP"
passed=0; failed=0
ok() { passed=$((passed+1)); }
bad() { failed=$((failed+1)); echo "FAIL $1"; [[ -f "${2:-}" ]] && sed 's/^/  | /' "$2" | head -20; }
has() { grep -Eq -- "$2" "$1"; }

env -u DACE_LOG "$DACE" compile "$G" --cache-dir "$TMP/c0" >/dev/null 2>"$TMP/quiet.err"
[[ ! -s "$TMP/quiet.err" ]] && ok || bad "no DACE_LOG: stderr not empty" "$TMP/quiet.err"

DACE_LOG=debug "$DACE" compile "$G" --cache-dir "$TMP/c1" >/dev/null 2>"$TMP/debug.err"
for re in 'libdace\[info [^]]*\] plugins: loaded cpu' 'cache: miss ' 'compile: sdfg "[^"]+": validate [0-9.]+ ms' \
          ': lower [0-9.]+ ms \([0-9]+ LLVM instructions\)' ': LLVM optimize O0 ' ': machine code [0-9.]+ ms' \
          ': callable after [0-9.]+ ms \(first tier' ': O[1-3] tier compiled in [0-9.]+ ms' 'cache: stored ' \
          'plugins: [0-9]+ loaded in [0-9.]+ ms \(thread CPU [0-9.]+ ms\)' \
          'compile: JIT session \(LLJIT, host target, libmvec\) created in [0-9.]+ ms \(thread CPU [0-9.]+ ms\)'; do
  has "$TMP/debug.err" "$re" && ok || bad "DACE_LOG=debug lacks /$re/" "$TMP/debug.err"
done
DACE_LOG=debug "$DACE" compile "$G" --cache-dir "$TMP/c1" >/dev/null 2>"$TMP/hit.err"
has "$TMP/hit.err" 'cache: hit ' && has "$TMP/hit.err" 'from the cache, callable after' && ok ||
  bad "second compile does not log the cache hit" "$TMP/hit.err"
DACE_LOG=info "$DACE" compile "$G" --cache-dir "$TMP/c2" >/dev/null 2>"$TMP/info.err"
has "$TMP/info.err" 'callable after' && ! has "$TMP/info.err" 'validate|\[debug' && ok ||
  bad "DACE_LOG=info: per-compile lines only" "$TMP/info.err"
DACE_LOG=debug "$DACE" optimize "$RAW" -o "$TMP/o.sdfg" --simplify >/dev/null 2>"$TMP/opt.err"
has "$TMP/opt.err" 'optimizer: [A-Za-z]+ iteration 1: [A-Za-z]+ [0-9.]+ ms, (changed|no change)' && ok ||
  bad "optimizer passes not logged" "$TMP/opt.err"

# Progress needs a terminal: script(1) gives the command one.
if command -v script >/dev/null; then
  TERM=xterm script -qfec "$DACE optimize $RAW -o $TMP/tty.sdfg --simplify --auto cpu" /dev/null >"$TMP/tty.out" 2>&1
  has "$TMP/tty.out" '\[1/2\] simplify' && has "$TMP/tty.out" '\[2/2\] auto_optimize' && ok ||
    bad "no progress on a terminal" "$TMP/tty.out"
  TERM=xterm script -qfec "$DACE optimize $RAW -o $TMP/p.sdfg --simplify --auto cpu --quiet" /dev/null >"$TMP/ttyq.out" 2>&1
  ! has "$TMP/ttyq.out" '\[1/2\]' && ok || bad "--quiet still shows progress" "$TMP/ttyq.out"
  TERM=dumb script -qfec "$DACE optimize $RAW -o $TMP/p.sdfg --simplify" /dev/null >"$TMP/dumb.out" 2>&1
  ! has "$TMP/dumb.out" '\[1/1\]' && ok || bad "TERM=dumb still shows progress" "$TMP/dumb.out"
  TERM=xterm script -qfec "$DACE compile $G --cache-dir $TMP/c3" /dev/null >"$TMP/ttyc.out" 2>&1
  has "$TMP/ttyc.out" 'compiling npbench' && ok || bad "dace compile shows no progress on a terminal" "$TMP/ttyc.out"
else
  echo "note: script(1) missing, terminal progress not checked"
fi
"$DACE" optimize "$RAW" -o "$TMP/n.sdfg" --simplify --auto cpu >"$TMP/pipe.out" 2>"$TMP/pipe.err"
[[ ! -s "$TMP/pipe.out" && ! -s "$TMP/pipe.err" ]] && ok || bad "progress or output without a terminal" "$TMP/pipe.err"
if [[ -f "$TMP/tty.sdfg" ]]; then
  cmp -s "$TMP/n.sdfg" "$TMP/tty.sdfg" && ok || bad "the optimized SDFG differs with progress shown"
fi

# dace run --repeat N: counted progress on stderr only.
CASE="$CORPUS/gemm/case.json"
json_runs() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"])' "$1" 2>/dev/null; }
"$DACE" run "$G" --case "$CASE" --repeat 4 --json --progress >"$TMP/run_p.json" 2>"$TMP/run_p.err"
[[ "$(json_runs "$TMP/run_p.json")" == 4 ]] && ok || bad "run --progress --json: stdout is not the JSON of 4 runs" "$TMP/run_p.json"
has "$TMP/run_p.err" '^\[1/4\] .*timed run' && has "$TMP/run_p.err" '^\[4/4\] .*timed run' && has "$TMP/run_p.err" '^compiling ' &&
  ! grep -q $'\033' "$TMP/run_p.err" && ok || bad "run --progress off a terminal: no plain [k/4] lines on stderr" "$TMP/run_p.err"
! has "$TMP/run_p.json" '\[[0-9]+/4\]|compiling' && ok || bad "progress leaked into stdout" "$TMP/run_p.json"
"$DACE" run "$G" --case "$CASE" --repeat 4 --json >"$TMP/run_n.json" 2>"$TMP/run_n.err"
[[ ! -s "$TMP/run_n.err" && "$(json_runs "$TMP/run_n.json")" == 4 ]] && ok || bad "run without a terminal: stderr not empty" "$TMP/run_n.err"
"$DACE" run "$G" --case "$CASE" --repeat 4 --json --progress --quiet >/dev/null 2>"$TMP/run_q.err"
[[ ! -s "$TMP/run_q.err" ]] && ok || bad "run --progress --quiet: progress shown" "$TMP/run_q.err"
# dace render: phases on stderr, the same picture.
# Without Graphviz render fails with a message, so its silence is checked only where it drew.
"$DACE" render "$G" -o "$TMP/plain.svg" >"$TMP/render_n.out" 2>"$TMP/render_n.err"
"$DACE" render "$G" -o "$TMP/progress.svg" --progress >"$TMP/render_p.out" 2>"$TMP/render_p.err"
if [[ -s "$TMP/plain.svg" ]]; then
  [[ ! -s "$TMP/render_n.out" && ! -s "$TMP/render_n.err" ]] && ok || bad "render without a terminal: output on stdout/stderr" "$TMP/render_n.err"
  has "$TMP/render_p.err" '^\[2/3\] laying out [A-Za-z_0-9]+: 1 states, [0-9]+ nodes' && has "$TMP/render_p.err" '^\[3/3\] writing ' &&
    [[ ! -s "$TMP/render_p.out" ]] && ok || bad "render --progress: no phases on stderr" "$TMP/render_p.err"
  cmp -s "$TMP/plain.svg" "$TMP/progress.svg" && ok || bad "render --progress changed the picture"
else
  echo "note: no Graphviz in this build, render progress not checked"
fi
if command -v script >/dev/null; then
  TERM=xterm script -qfec "$DACE run $G --case $CASE --repeat 3 --json >$TMP/tty_run.json" /dev/null >"$TMP/tty_run.out" 2>&1
  has "$TMP/tty_run.out" '\[3/3\] .*timed run' && ok || bad "run --repeat shows no progress on a terminal" "$TMP/tty_run.out"
  [[ "$(json_runs "$TMP/tty_run.json")" == 3 ]] && ! grep -q $'\033' "$TMP/tty_run.json" && ok ||
    bad "run --json on a terminal: stdout is not clean JSON" "$TMP/tty_run.json"
  TERM=xterm script -qfec "$DACE run $G --case $CASE --repeat 3 --json --quiet >/dev/null" /dev/null >"$TMP/tty_runq.out" 2>&1
  ! has "$TMP/tty_runq.out" '\[[0-9]/3\]|compiling' && ok || bad "run --quiet shows progress on a terminal" "$TMP/tty_runq.out"
  if [[ -s "$TMP/plain.svg" ]]; then
    TERM=xterm script -qfec "$DACE render $G -o $TMP/tty.svg" /dev/null >"$TMP/tty_render.out" 2>&1
    has "$TMP/tty_render.out" '\[2/3\] laying out' && cmp -s "$TMP/plain.svg" "$TMP/tty.svg" && ok ||
      bad "render on a terminal: no progress, or another picture" "$TMP/tty_render.out"
  fi
fi

echo "cli_progress_logs: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
