#!/usr/bin/env bash
# scripts/sanitize.sh's sharded mode names where a shard stopped by its time limit was: the test
# that started and did not end, or — when the last test had ended — the gap after it (a shard
# stopped between tests must not blame the test that had passed). Logs written by hand here.
set -euo pipefail
script="$(dirname "$0")/../../scripts/sanitize.sh"
source <(sed -n '/^stopped_where()/,/^}/p' "$script")
declare -F stopped_where >/dev/null || { echo "FAIL: stopped_where not found in $script"; exit 1; }
log=$(mktemp); trap 'rm -f "$log"' EXIT
fails=0
expect() {  # expect WANTED: stopped_where on $log must print WANTED
  local got; got=$(stopped_where "$log")
  [[ "$got" == "$1" ]] || { echo "FAIL: wanted '$1', got '$got' for:"; cat "$log"; fails=$((fails + 1)); }
}
printf '[ RUN      ] Suite.First\n[       OK ] Suite.First (3 ms)\n[ RUN      ] Suite.Second\n' >"$log"
expect "in: Suite.Second"
printf '[ RUN      ] Suite.First\n[       OK ] Suite.First (3 ms)\n' >"$log"
expect "between tests, after: Suite.First (3 ms)"
printf '[ RUN      ] Suite.First\n[  FAILED  ] Suite.First (3 ms)\n' >"$log"
expect "between tests, after: Suite.First (3 ms)"
printf '[ RUN      ] Suite.First\n[  SKIPPED ] Suite.First (0 ms)\n' >"$log"
expect "between tests, after: Suite.First (0 ms)"
printf 'Note: Google Test filter = *\n' >"$log"
expect "before its first test"
[[ $fails -eq 0 ]] && echo "stopped_where: 5 cases pass"
exit "$fails"
