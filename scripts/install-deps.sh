#!/usr/bin/env bash
# Installs what hcemu needs from Debian 12's packages, and nothing when it is all there already.
#   scripts/install-deps.sh           what the hcemu command and library need
#   scripts/install-deps.sh --tests   that, and what the test suite, the benchmarks and the MPI transport need
set -euo pipefail

tool=(
  g++ cmake make            # the toolchain
  libtbb-dev                # oneTBB: the arenas' scalable allocator
  libboost-dev libboost-context-dev  # Boost.Context: the task engine's lightweight threads
  nlohmann-json3-dev        # JSON reports
  libtomlplusplus-dev       # machine configs
  libcli11-dev              # the hcemu command line
  gnuplot-nox               # hcemu sweep --plot
)
tests=(
  libgtest-dev libgmock-dev # GoogleTest
  libbenchmark-dev          # Google Benchmark
  libopenmpi-dev openmpi-bin  # Open MPI: a machine spread over MPI ranks (docs/mpi.md)
)

packages=("${tool[@]}")
case "${1:-}" in
  "") ;;
  --tests) packages+=("${tests[@]}") ;;
  *) echo "install-deps: unknown option '$1' (usage: scripts/install-deps.sh [--tests])" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: everything is installed"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root (or install sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
