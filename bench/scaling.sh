#!/usr/bin/env bash
# How the engine scales with workers on this host: the Direct complete exchange (ipsc860, m = 8 bytes) run once per
# worker count, whole processes, each line the wall-clock and the engine's own statistics (--stats: the serial
# fraction, the placing and idle seconds of all workers together) and the speed-up over the first count.
#
#   bench/scaling.sh [d] [hcemu binary] [worker counts...]      (defaults: 12, build/hcemu, 1 2 4 ... up to nproc)
#
# Every run must give the same emulated time (the model does not depend on the worker count); the script says so
# and exits 1 where one does not, or where a run prints no result.
set -euo pipefail
d="${1:-12}"
root="$(cd "$(dirname "$0")/.." && pwd)"
hcemu="${2:-$root/build/hcemu}"
shift $(( $# < 2 ? $# : 2 ))
[[ -x "$hcemu" ]] || { echo "scaling: no hcemu binary at $hcemu (build it, or pass its path)" >&2; exit 2; }
counts=("$@")
if (( ${#counts[@]} == 0 )); then
  for (( w = 1; w <= $(nproc); w *= 2 )); do counts+=("$w"); done
fi

printf '%8s %10s %9s %8s %11s %9s  %s\n' workers "wall s" speed-up serial "placing s" "idle s" "emulated µs"
first="" emulated=""
for w in "${counts[@]}"; do
  out="$("$hcemu" run exchange --algo direct -d "$d" -m 8 --workers "$w" --stats)"
  wall="$(grep -oP '^engine .*wall \K[0-9.]+' <<<"$out")"
  serial="$(grep -oP 'serial fraction \K[0-9.]+%' <<<"$out")"
  sums="$(awk '/^worker/{on=1;next} on && NF==5 && $1 ~ /^[0-9]+$/ {p+=$3; i+=$4} END{printf "%.2f %.2f", p, i}' <<<"$out")"
  time_us="$(awk '/direct \(/ {for (i = 1; i <= NF; ++i) if ($i ~ /^\(/) {print $(i + 2); exit}}' <<<"$out")"
  if [[ -z "$wall" || -z "$time_us" ]]; then
    echo "scaling: no wall-clock or emulated time in the output of $w workers:" >&2
    echo "$out" >&2
    exit 1
  fi
  first="${first:-$wall}"
  printf '%8s %10s %9.2f %8s %11s %9s  %s\n' "$w" "$wall" "$(awk -v a="$first" -v b="$wall" 'BEGIN{print a/b}')" \
    "$serial" ${sums} "$time_us"
  if [[ -n "$emulated" && "$time_us" != "$emulated" ]]; then
    echo "scaling: $w workers gave an emulated time of $time_us µs, not $emulated" >&2
    exit 1
  fi
  emulated="$time_us"
done
