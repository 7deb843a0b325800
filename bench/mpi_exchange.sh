#!/usr/bin/env bash
# The Direct complete exchange on a machine spread over 1, 2 and 4 MPI ranks (docs/mpi.md), measured side by side in
# one run. Per rank count:
#   command   the whole command, as a user waits for it;
#   start-up  what mpirun alone takes to start and end that many ranks (`hcemu --version` under it);
#   run       the run itself, as the report gives it (`wall_seconds`): without mpirun's start-up, reading the
#             config or writing the report;
#   rounds    the rounds with the other ranks;
#   msgs/s    emulated messages per second of the run.
#
#   bench/mpi_exchange.sh [d] [m] [hcemu binary] [ranks...]     (defaults: 10, 64, build/hcemu, 1 2 4)
#
# Every rank count must give the same emulated time and verify its data; the script exits 1 where one does not.
# 1 rank is the plain command (no mpirun). On a host with fewer cores than ranks the ranks share cores
# (--oversubscribe), and the numbers then show what the rounds cost, not a speed-up.
set -euo pipefail
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
  sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"
  exit 0
fi
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
launch() {  # r ranks: the command as is, or under mpirun
  local r="$1"
  shift
  if [[ "$r" == 1 ]]; then
    "$@"
  else
    mpirun --oversubscribe --allow-run-as-root -np "$r" "$@"
  fi
}
out=""
elapsed=""
first_emulated=""
timed() {  # runs a command: its output into $out, its wall-clock in seconds into $elapsed
  local start end
  start=$(date +%s.%N)
  out=$("$@")
  end=$(date +%s.%N)
  elapsed=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')
}
field() { grep -m1 "\"$1\"" <<<"$out" | sed 's/.*: *//; s/,//'; }

printf '%-6s %-9s %-9s %-9s %-7s %-10s %-14s %s\n' ranks command start-up run rounds messages msgs/s "emulated µs"
for r in "${ranks[@]}"; do
  timed launch "$r" "$hcemu" --version
  startup="$elapsed"
  timed launch "$r" "$hcemu" "${args[@]}"
  command="$elapsed"
  [[ "$(field verified)" == "true" ]] || { echo "mpi_exchange: the run on $r rank(s) did not verify" >&2; exit 1; }
  emulated_us=$(field emulated_us)
  [[ -z "$first_emulated" || "$emulated_us" == "$first_emulated" ]] || {
    echo "mpi_exchange: $r rank(s) gave an emulated time of $emulated_us µs, not $first_emulated" >&2
    exit 1
  }
  first_emulated="$emulated_us"
  messages=$(field messages | tr -dc '0-9')
  run=$(field wall_seconds)
  awk -v r="$r" -v c="$command" -v s="$startup" -v w="$run" -v k="$(field rounds)" -v n="$messages" \
    -v u="$emulated_us" \
    'BEGIN { printf "%-6s %-9.3f %-9.3f %-9.3f %-7d %-10d %-14.0f %s\n", r, c, s, w, k, n, n / w, u }'
done
