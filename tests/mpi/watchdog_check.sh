#!/bin/sh
# Runs a command that the MPI transport's watchdog must end (tests/mpi/mpi_watchdog_test.cpp): it passes when the
# command ends within LIMIT seconds, with a non-zero exit code, and says on stderr that a rank gave up waiting.
#   watchdog_check.sh LIMIT COMMAND...
limit=$1
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s)
timeout -k 10 "$limit" "$@" >"$out" 2>&1
rc=$?
took=$(($(date +%s) - start))
cat "$out"
echo "watchdog_check: exit code $rc after $took s"
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo "watchdog_check: FAILED: still running after $limit s: the watchdog did not end the job"
  exit 1
fi
if [ "$rc" -eq 0 ]; then
  echo "watchdog_check: FAILED: the job ended with exit code 0"
  exit 1
fi
if ! grep -q "hcemu: rank 0: no progress from the other ranks for .* s in .*giving up (key mpi_timeout_seconds" "$out"; then
  echo "watchdog_check: FAILED: no watchdog message from rank 0"
  exit 1
fi
echo "watchdog_check: passed"
