#!/usr/bin/env bash
# Emulated messages per second of the Direct complete exchange on a machine spread over 1, 2 and 4 MPI ranks
# (docs/mpi.md), whole process, measured side by side in one run.
#
#   bench/mpi_exchange.sh [d] [m] [hcemu binary] [ranks...]     (defaults: 10, 64, build/hcemu, 1 2 4)
#
# 1 rank is the plain command (no mpirun). On a host with fewer cores than ranks the ranks share cores
# (--oversubscribe), and the numbers then show what the rounds cost, not a speed-up.
set -euo pipefail
d="${1:-10}"
m="${2:-64}"
root="$(cd "$(dirname "$0")/.." && pwd)"
hcemu="${3:-$root/build/hcemu}"
shift $(( $# < 3 ? $# : 3 ))
ranks=("$@")
[[ ${#ranks[@]} -gt 0 ]] || ranks=(1 2 4)
[[ -x "$hcemu" ]] || { echo "mpi_exchange: no hcemu binary at $hcemu (build it, or pass its path)" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "mpi_exchange: mpirun not found (apt-get install openmpi-bin)" >&2; exit 2; }

args=(run exchange --algo direct -d "$d" -m "$m" --set lambda=95 --set tau=0.394 --json)
printf '%-6s %-10s %-14s %-16s %s\n' ranks seconds messages "messages/s" "emulated µs"
for r in "${ranks[@]}"; do
  start=$(date +%s.%N)
  if [[ "$r" == 1 ]]; then
    out=$("$hcemu" "${args[@]}")
  else
    out=$(mpirun --oversubscribe --allow-run-as-root -np "$r" "$hcemu" "${args[@]}")
  fi
  end=$(date +%s.%N)
  messages=$(grep -m1 '"messages"' <<<"$out" | tr -dc '0-9')
  emulated=$(grep -m1 '"emulated_us"' <<<"$out" | sed 's/.*: *//; s/,//')
  verified=$(grep -m1 '"verified"' <<<"$out" | sed 's/.*: *//; s/,//')
  [[ "$verified" == "true" ]] || { echo "mpi_exchange: the run on $r rank(s) did not verify" >&2; exit 1; }
  awk -v r="$r" -v s="$start" -v e="$end" -v n="$messages" -v u="$emulated" \
    'BEGIN { t = e - s; printf "%-6s %-10.3f %-14d %-16.0f %s\n", r, t, n, n / t, u }'
done
