#!/usr/bin/env bash
# The Direct complete exchange (XOR schedule, MPI_Sendrecv per step) under SimGrid SMPI, the peer hcemu measures its
# speed against, beside the same exchange on hcemu: whole-process times and their ratio, measured in one run (SMPI
# once, hcemu five times before it and five times after, the median of the ten).
#
#   bench/peers/smpi_direct_exchange.sh [d] [m] [hcemu binary]      (defaults: 10, 64, build-release/hcemu)
#
# SimGrid models the hypercube as a 2x...x2 torus (a d-dimensional torus of side 2 is the d-cube), with the CM02
# network model, λ = 95 µs as the link latency and τ = 0.394 µs/byte as the bandwidth (the iPSC/860 figures of the
# ipsc860 preset). Needs Debian's libsimgrid-dev (smpicc, smpirun).
set -euo pipefail
d="${1:-10}"
m="${2:-64}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
hcemu="${3:-$root/build-release/hcemu}"
command -v smpicc >/dev/null || { echo "smpi_direct_exchange: smpicc not found (apt-get install libsimgrid-dev)" >&2; exit 2; }
[[ -x "$hcemu" ]] || { echo "smpi_direct_exchange: no hcemu binary at $hcemu (build it, or pass its path)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
nodes=$((1 << d))

cat > "$work/direct.c" <<'C'
#include <mpi.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int m = atoi(argv[1]);
  char* out = calloc((size_t)size * m, 1);
  char* in = calloc((size_t)size * m, 1);
  for (int k = 1; k < size; ++k) {
    const int partner = rank ^ k;
    MPI_Sendrecv(out + (size_t)partner * m, m, MPI_BYTE, partner, 0, in + (size_t)partner * m, m, MPI_BYTE, partner, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
C
smpicc -O2 -o "$work/direct" "$work/direct.c"

sides=$(printf '2,%.0s' $(seq "$d")); sides="${sides%,}"
cat > "$work/cube.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="cube" prefix="node-" suffix="" radical="0-$((nodes - 1))" speed="1Gf" bw="2.538071MBps" lat="95us"
           topology="TORUS" topo_parameters="$sides" loopback_bw="10GBps" loopback_lat="0"/>
</platform>
XML
for ((i = 0; i < nodes; ++i)); do echo "node-$i"; done > "$work/hosts"

now() { date +%s.%N; }
# hcemu five times before SMPI and five after, the median of the ten against SMPI's one run: a process of a fraction
# of a second meets a busy moment of a shared host (whose speed drifts by up to a factor of two within a minute), or
# a first touch of memory its host had not backed yet, where SMPI's half minute averages them out; samples on both
# sides of it average over the same stretch of time.
runs=()
hcemu_five() {
  for _ in 1 2 3 4 5; do
    local a b
    a=$(now)
    "$hcemu" run exchange --algo direct -d "$d" -m "$m" --set lambda=95 --set tau=0.394 >/dev/null  # as a user runs it
    b=$(now)
    runs+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b - a }')")
  done
}
hcemu_five
t0=$(now)
smpirun -np "$nodes" -platform "$work/cube.xml" -hostfile "$work/hosts" --cfg=network/model:CM02 \
  --cfg=smpi/host-speed:1Gf --log=root.thres:critical "$work/direct" "$m" >/dev/null 2>"$work/smpi.log" || {
  cat "$work/smpi.log" >&2
  exit 1
}
t1=$(now)
hcemu_five
sorted=$(printf '%s\n' "${runs[@]}" | sort -n | tr '\n' ' ')
sorted="${sorted% }"
awk -v d="$d" -v m="$m" -v a="$t0" -v b="$t1" -v runs="$sorted" 'BEGIN {
  s = b - a; n = split(runs, h, " "); median = (h[n / 2] + h[n / 2 + 1]) / 2;
  printf "direct exchange, d = %d (%d nodes), m = %d bytes, whole processes on this host:\n", d, 2^d, m;
  printf "  SimGrid SMPI  %8.2f s\n  hcemu         %8.2f s (median of ten, five before and five after: %s s)\n",
         s, median, runs;
  printf "  ratio         %8.1fx\n",
         s / median }'
