#!/usr/bin/env bash
# Installs what hcemu needs from Debian 12's packages, and nothing when it is all there already.
set -euo pipefail

packages=(
  g++ cmake make            # the toolchain
  libtbb-dev                # oneTBB: the arenas' scalable allocator
  libboost-dev libboost-context-dev  # Boost.Context: the task engine's lightweight threads
  libgtest-dev libgmock-dev # GoogleTest
  libbenchmark-dev          # Google Benchmark
  nlohmann-json3-dev        # JSON reports
  libtomlplusplus-dev       # machine configs
  libcli11-dev              # the hcemu command line
  gnuplot-nox               # hcemu sweep --plot
  libopenmpi-dev openmpi-bin  # Open MPI: a machine spread over MPI ranks (docs/mpi.md)
)

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
