#!/usr/bin/env bash
# Builds examples/own_algorithm against an installed hcemu as a user would (find_package(hcemu) from a separate
# project), runs its tests, and runs its allreduce rows both ways the issue promises: as a program of its own
# (myallreduce, hcemu::cli) and in the installed `hcemu --load`. Every row must be there, verified, with the
# predicted time equal to the emulated one; a sweep must write its plot.
# Usage: scripts/check_own_algorithm.sh PREFIX WORK_DIR   (PREFIX: where hcemu is installed)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$1"
work="$2"
jobs="${HCEMU_JOBS:-2}"

rm -rf "$work"
cmake -S "$root/examples/own_algorithm" -B "$work" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work" -j"$jobs"
ctest --test-dir "$work" -j"$jobs" --output-on-failure

# FILE holds `run --algo all --json`: both rows, each verified, each predicted_ps equal to its emulated_ps (the
# keys of each run in `runs` are indented six spaces; the nested report's deeper).
check_rows() {
  local file="$1" key
  for algo in recursive-doubling ring; do
    grep -q "^      \"algo\": \"$algo\"" "$file" || { echo "$file: no row $algo" >&2; return 1; }
  done
  if grep -q '^      "verified": false' "$file" || grep -q '^      "predicted_ps": null' "$file"; then
    echo "$file: a case failed verification or has no prediction" >&2
    return 1
  fi
  for key in predicted_ps emulated_ps; do grep "^      \"$key\": " "$file" | sed 's/.*: //; s/,$//' >"$file.$key"; done
  if [[ ! -s "$file.predicted_ps" ]] || ! cmp -s "$file.predicted_ps" "$file.emulated_ps"; then
    echo "$file: predicted and emulated differ" >&2
    paste "$file.predicted_ps" "$file.emulated_ps" >&2
    return 1
  fi
}

"$work/myallreduce" run allreduce --algo all -d 4 -m 100 --json >"$work/own.json"
check_rows "$work/own.json"
"$prefix/bin/hcemu" --load "$work/liballreduce_rows.so" run allreduce --algo all -d 4 -m 100 --json >"$work/loaded.json"
check_rows "$work/loaded.json"
"$work/myallreduce" sweep allreduce --algo all -d 3 -m 1,64,512 --plot "$work/allreduce.svg" >/dev/null
[[ -s "$work/allreduce.svg" ]] || { echo "sweep --plot wrote no plot" >&2; exit 1; }
echo "examples/own_algorithm: rows verified with predicted == emulated, as a program and with hcemu --load"
