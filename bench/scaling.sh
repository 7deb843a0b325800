#!/usr/bin/env bash
# How the engine scales with workers on this host: the Direct complete exchange (ipsc860, m = 8 bytes) run once per
# worker count, whole processes, each line the wall-clock and the engine's own statistics (--stats: the serial
# fraction, the placing and idle seconds of all workers together) and the speed-up over the first count.
#
#   bench/scaling.sh [--rounds N] [d] [hcemu binary] [worker counts...]
#                    (defaults: 1 round, 12, build/hcemu, 1 2 4 ... up to nproc)
#
# With --rounds N the counts run N times, alternating (1 2 1 2 ...), so that a busy host's drift falls on every count
# alike: each line then gives the medians of the N runs, and the speed-up is the median of each round's own ratio
# (the first count's wall-clock over this count's, in the same round).
#
# Every run must give the same emulated time (the model does not depend on the worker count); the script says so
# and exits 1 where one does not, or where a run prints no result. HCEMU_ARGS adds options to every run, e.g.
# HCEMU_ARGS='--set placing_early=true' (docs/engine.md, "Placing while others run").
set -euo pipefail
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
  sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"
  exit 0
fi
rounds=1
if [[ "${1:-}" == --rounds ]]; then
  rounds="${2:-}"
  shift $(( $# < 2 ? $# : 2 ))
fi
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "scaling: --rounds takes a count of 1 or more, not '$rounds'" >&2; exit 2; }
d="${1:-12}"
root="$(cd "$(dirname "$0")/.." && pwd)"
hcemu="${2:-$root/build/hcemu}"
shift $(( $# < 2 ? $# : 2 ))
[[ -x "$hcemu" ]] || { echo "scaling: no hcemu binary at $hcemu (build it, or pass its path)" >&2; exit 2; }
counts=("$@")
if (( ${#counts[@]} == 0 )); then
  for (( w = 1; w <= $(nproc); w *= 2 )); do counts+=("$w"); done
fi

median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# Per count, space-separated over the rounds.
declare -A walls serials placings idles ratios
emulated=""
for (( r = 1; r <= rounds; ++r )); do
  first=""
  for w in "${counts[@]}"; do
    # shellcheck disable=SC2086  # HCEMU_ARGS: options, split on spaces
    out="$("$hcemu" run exchange --algo direct -d "$d" -m 8 --workers "$w" --stats ${HCEMU_ARGS:-})"
    wall="$(grep -oP '^engine .*wall \K[0-9.]+' <<<"$out")"
    serial="$(grep -oP 'serial fraction \K[0-9.]+(?=%)' <<<"$out")"
    read -r placing idle < <(awk '/^worker/{on=1;next} on && NF==5 && $1 ~ /^[0-9]+$/ {p+=$3; i+=$4}
                                  END{printf "%.2f %.2f\n", p, i}' <<<"$out")
    time_us="$(awk '/direct \(/ {for (i = 1; i <= NF; ++i) if ($i ~ /^\(/) {print $(i + 2); exit}}' <<<"$out")"
    if [[ -z "$wall" || -z "$time_us" ]]; then
      echo "scaling: no wall-clock or emulated time in the output of $w workers:" >&2
      echo "$out" >&2
      exit 1
    fi
    if [[ -n "$emulated" && "$time_us" != "$emulated" ]]; then
      echo "scaling: $w workers gave an emulated time of $time_us µs, not $emulated" >&2
      exit 1
    fi
    emulated="$time_us"
    first="${first:-$wall}"
    walls[$w]+=" $wall" serials[$w]+=" $serial" placings[$w]+=" $placing" idles[$w]+=" $idle"
    ratios[$w]+=" $(awk -v a="$first" -v b="$wall" 'BEGIN{print a/b}')"
  done
done

printf '%8s %10s %9s %8s %11s %9s  %s\n' workers "wall s" speed-up serial "placing s" "idle s" "emulated µs"
for w in "${counts[@]}"; do
  printf '%8s %10s %9.2f %7s%% %11s %9s  %s\n' "$w" "$(median <<<"${walls[$w]}")" "$(median <<<"${ratios[$w]}")" \
    "$(median <<<"${serials[$w]}")" "$(median <<<"${placings[$w]}")" "$(median <<<"${idles[$w]}")" "$emulated"
done
if (( rounds > 1 )); then
  echo "medians of $rounds alternating rounds; each round's speed-ups:"
  for w in "${counts[@]:1}"; do echo "  $w workers:${ratios[$w]}"; done
fi
