#!/usr/bin/env bash
# Installs hcemu into a temporary prefix and builds and runs examples/user_kernel against it, as a user would:
# find_package(hcemu) from a separate project. Usage: scripts/check_example.sh [existing hcemu build dir]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
jobs="${HCEMU_JOBS:-2}"

build="${1:-}"
if [[ -z "$build" ]]; then
  build="$work/hcemu-build"
  cmake -S "$root" -B "$build" -DHCEMU_BUILD_TESTS=OFF -DHCEMU_BUILD_BENCH=OFF -DHCEMU_BUILD_CLI=OFF >/dev/null
fi
cmake --build "$build" --target hcemu_kernels hcemu_report -j"$jobs"
cmake --install "$build" --prefix "$work/prefix" >/dev/null

cmake -S "$root/examples/user_kernel" -B "$work/example" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/example" -j"$jobs"
ctest --test-dir "$work/example" --output-on-failure
